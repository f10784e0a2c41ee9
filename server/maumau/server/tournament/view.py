"""The ``tournament`` message: what a tournament's people are shown of it.

:func:`whole` builds, once for every receiver of one change, every line of the
standings and every table of the series the receivers look at (the current one
always), with a fingerprint of all but the clocks, so that a refresh that would say
nothing new is not sent. :func:`message` cuts one receiver's message out of it: the
page it asked for (see :mod:`.window`) with its own line and table. :func:`summary` is
the tournament's line in the lobby.

Pure: the connected sessions and the live tables' progress are given as lookups, the
wall time as a number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from maumau.protocol.messages import Tournament

from .standings import placing_points
from .state import SeriesTable, TournamentState
from .window import Window, cut

# A table being played, as the view needs it: its scores, its status, its round.
Progress = tuple[list[int], str, int]


@dataclass(slots=True)
class Whole:
    """A tournament as every receiver's message is cut from it."""

    fixed: dict[str, Any]  # the fields every receiver gets as they are
    standings: list[dict[str, Any]]
    order: list[str]  # the session id of each line
    tables: list[dict[str, Any]]
    table_keys: list[list[str | None]]
    fingerprint: bytes  # all but the clocks: whether anything changed


def whole(
    tournament: TournamentState,
    windows: list[Window],
    connected: Callable[[str], bool],
    progress: Callable[[int], Progress | None],
    now: float,
) -> Whole:
    """Every line of the standings, and every table of the series that ``windows``
    show (the current one always), as sent; ``connected`` says whether a session id's
    player is connected, ``progress`` how a running table stands."""
    wanted = {tournament.series_no} | {w.series for w in windows if w.series is not None}
    entries = {e.key: e for e in tournament.entries}
    seated = {
        key: (record.id, number)
        for number, record in enumerate(tournament.current_tables(), start=1)
        for key in record.keys
        if key is not None
    }
    playing = tournament.state in ("playing", "final")
    standings = []
    order = []
    for i, line in enumerate(tournament.standings()):
        order.append(line.key)
        entry = entries.get(line.key)
        row: dict[str, Any] = {
            "rank": line.rank,
            "name": entry.name if entry is not None else line.key,
            "points": line.points,
            "score": line.score,
            "firsts": line.firsts,
            "played": line.played,
            "byes": line.byes,
            "withdrawn": entry is None or entry.withdrawn,
            "connected": connected(line.key),
            "line": i,
        }
        if playing and line.key in seated:
            row["table"], row["table_no"] = seated[line.key]
        standings.append(row)
    rows = []
    numbers: dict[int, int] = {}  # the tables drawn so far, by series
    for record in tournament.tables:
        numbers[record.series] = numbers.get(record.series, 0) + 1
        if record.series not in wanted:
            continue  # nobody it is for looks at that series
        rows.append(_table_row(record, numbers[record.series], progress))
    fixed = {
        "id": tournament.id,
        "name": tournament.name,
        "director": tournament.director,
        "settings": tournament.settings,
        "series": tournament.series,
        "deals": tournament.deals,
        "final": tournament.final,
        "bots": tournament.bots,
        "late_join": tournament.late_join,
        "locked": tournament.password is not None,
        "state": tournament.state,
        "series_no": tournament.series_no,
        "players": len(standings),
    }
    fingerprint = msgpack.packb([fixed, standings, rows])
    starts_in = None
    if tournament.starts_at is not None:
        starts_in = max(0.0, tournament.starts_at - now)
    clock = None
    if tournament.series_started is not None and playing:
        clock = max(0.0, now - tournament.series_started)
    fixed["starts_in"] = None if starts_in is None else round(starts_in, 1)
    fixed["clock"] = None if clock is None else round(clock, 1)
    keys = [list(r.keys) for r in tournament.tables if r.series in wanted]
    return Whole(fixed, standings, order, rows, keys, fingerprint)


def _table_row(
    record: SeriesTable, no: int, progress: Callable[[int], Progress | None]
) -> dict[str, Any]:
    """One table of a series as the message shows it."""
    live = progress(record.id) if record.scores is None else None
    if record.scores is not None:
        scores, state, rounds = record.scores, "finished", record.rounds
    elif live is not None:
        scores, state, rounds = live
    else:
        scores, state, rounds = [0] * len(record.keys), "waiting", 0
    return {
        "id": record.id,
        "series": record.series,
        "no": no,
        "names": tuple(record.names),
        "bots": tuple(k is None for k in record.keys),
        "state": state,
        "round": rounds,
        "scores": tuple(scores),
        "points": tuple([] if record.scores is None else placing_points(record.scores)),
    }


def message(whole: Whole, key: str | None, window: Window) -> Tournament:
    """The message for the player whose session id is ``key``, showing ``window``."""
    part = cut(
        whole.standings,
        whole.order,
        whole.tables,
        whole.table_keys,
        int(whole.fixed["series_no"]),
        window,
        key,
    )
    return Tournament(
        **whole.fixed,
        standings=part.standings,
        tables=part.tables,
        tables_total=part.tables_total,
        you=part.you,
    )


def summary(tournament: TournamentState) -> dict[str, Any]:
    """The tournament's line in the lobby."""
    return {
        "id": tournament.id,
        "name": tournament.name,
        "variant": tournament.settings.get("variant", "classic"),
        "state": tournament.state,
        "players": len(tournament.active()),
        "series_no": tournament.series_no,
        "series": tournament.series,
        "director": tournament.director,
        "locked": tournament.password is not None,
        "open": tournament.registration_open(),
    }

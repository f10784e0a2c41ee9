"""A tournament's course: who plays the next series and where, and what follows one.

Pure decisions on a :class:`~.state.TournamentState`, which the service
(:mod:`maumau.server.tournaments`) carries out with the tables, the sessions and the
timer. Nothing here reads a clock (the wall time is given), opens a table or tells
anyone: the course of a tournament reads whole in this one file.

1. :func:`plan_series` draws the next series: those still in who may play it (late
   arrivals from the series after the one they registered in), ranked by the
   standings after the first series, are seated by :mod:`.draw` (the first series
   from the tournament's seed, later ones avoiding repeat pairings, the final at one
   table). It changes nothing, so the service may still refuse it (too few free tables).
2. :func:`begin_series` records the plan: the series' number and state, its byes, and
   at the first start the lot (the last tie-break, drawn from the seed apart from the
   first draw).
3. :func:`record_result` puts a table's final scores in, once; when every table of the
   series has its scores, :func:`after_series` says whether a break and another series
   (or the final) follow, or the tournament is finished.
4. :func:`close` ends it, ``finished`` or ``cancelled``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

from . import draw
from .state import Entry, TournamentState


@dataclass(frozen=True, slots=True)
class SeriesPlan:
    """The next series as drawn: its number (``final_no`` for the final) and seating."""

    number: int
    final: bool
    seating: draw.Seating

    @property
    def tables(self) -> int:
        return len(self.seating.tables)


def players_of_next(tournament: TournamentState) -> list[Entry]:
    """Those still in who may be seated in the next series."""
    return [e for e in tournament.active() if e.since <= tournament.next_series()]


def can_play(tournament: TournamentState, players: list[Entry]) -> bool:
    """Whether ``players`` are enough for a series: two, or one where bots may sit."""
    return len(players) >= 2 or bool(tournament.bots and players)


def plan_series(tournament: TournamentState) -> SeriesPlan | None:
    """The next series' seating (see the module docstring); None when too few players
    are in for one."""
    players = players_of_next(tournament)
    if not can_play(tournament, players):
        return None
    number = tournament.series_no + 1
    final = number == tournament.final_no
    keys = [e.key for e in players]
    if final or number > 1:
        rank = {s.key: i for i, s in enumerate(tournament.standings())}
        keys.sort(key=lambda k: rank.get(k, len(rank)))
    size = tournament.size
    if final:
        seating = draw.final_table(keys, size)
    elif number == 1:
        seating = draw.first_series(keys, size, tournament.bots, tournament.seed)
    else:
        seating = draw.later_series(
            keys, size, tournament.bots, tournament.met(), tournament.byes_of()
        )
    return SeriesPlan(number, final, seating)


def begin_series(tournament: TournamentState, plan: SeriesPlan, now: float) -> None:
    """Record that ``plan``'s series starts at wall time ``now``."""
    if tournament.state == "registering":
        order = [e.key for e in tournament.entries]
        random.Random(tournament.seed + 1).shuffle(order)
        tournament.lot = order
    tournament.series_no = plan.number
    tournament.state = "final" if plan.final else "playing"
    tournament.starts_at = None
    tournament.series_started = now
    for key in plan.seating.byes:
        tournament.byes.append((plan.number, key))


def table_settings(tournament: TournamentState, seats: int) -> dict[str, Any]:
    """The settings of a series' table of ``seats`` seats: the tournament's, played
    for a number of deals instead of a target score if it says so."""
    values = dict(tournament.settings)
    values["seats"] = seats
    if tournament.deals:
        values.update(deals=tournament.deals, target_score=100_000)
    return values


def table_label(tournament: TournamentState, number: int, index: int) -> str:
    """The name of the ``index``-th table of series ``number``."""
    label = "final" if number == tournament.final_no else f"{number}.{index + 1}"
    return f"{tournament.name[:24]} {label}"


def record_result(
    tournament: TournamentState, table_id: int, scores: list[int], rounds: int
) -> bool:
    """Put the final ``scores`` of table ``table_id`` in (once); whether they counted."""
    record = tournament.table_of(table_id)
    if record is None or record.scores is not None:
        return False
    record.scores = list(scores)
    record.rounds = rounds
    return True


def after_series(tournament: TournamentState) -> Literal["break", "finish"]:
    """What follows the series just over: a break before the next series (or the
    final), or the end (the last series is over, or nobody is left for a final)."""
    number = tournament.series_no
    if number >= tournament.series and not (tournament.final and number < tournament.final_no):
        return "finish"
    if number == tournament.series and len(tournament.active()) < 2:
        return "finish"
    return "break"


def close(tournament: TournamentState, state: Literal["finished", "cancelled"], now: float) -> None:
    """``tournament`` is over at wall time ``now``."""
    tournament.state = state
    tournament.starts_at = None
    tournament.finished_at = now

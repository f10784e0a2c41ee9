"""Tournaments after a restart: the open ones come back, each linked to its tables
again (which the store has already restored); finished ones are read when asked for.

A table of the current series that ended while the server was down has its result put
in (the journal has its end); one that could not be restored scores nothing, since
nobody can finish it. A start that was due is due again after the time it had left.
"""

from __future__ import annotations

import logging
import sqlite3
import time

import trio

from ..tournament.state import TournamentState
from .service import FINISHED_SHOWN, TournamentService

log = logging.getLogger("maumau.server")


def restore(tournaments: TournamentService) -> None:
    """Bring back the tournaments the store has (see the module docstring)."""
    lobby = tournaments.lobby
    store = lobby.store
    if store is None:
        return
    try:
        saved = store.tournaments(open_only=True)
        for data in store.tournaments(open_only=False, limit=FINISHED_SHOWN):
            if data.get("state") in ("finished", "cancelled"):
                tournaments.finished.append(TournamentState.from_dict(data))
    except sqlite3.Error:
        log.exception("the tournaments could not be read")
        return
    except (ValueError, TypeError):
        log.exception("a finished tournament could not be read")
        saved = store.tournaments(open_only=True)
    for data in saved:
        try:
            tournament = TournamentState.from_dict(data)
        except (ValueError, TypeError) as error:
            log.error("tournament %s could not be restored (%s); skipped", data.get("id"), error)
            continue
        tournaments.open[tournament.id] = tournament
        tournaments.ids = max(tournaments.ids, tournament.id + 1)
        _relink(tournaments, tournament)
        if tournament.state in ("playing", "final") and tournament.series_over():
            tournaments.end_series(tournament)
        elif tournament.starts_at is not None:
            remaining = max(0.0, tournament.starts_at - time.time())
            tournaments.due[tournament.id] = trio.current_time() + remaining
        log.info("tournament %d %r restored (%s)", tournament.id, tournament.name, tournament.state)
    if tournaments.open:
        lobby.commit_soon()


def _relink(tournaments: TournamentService, tournament: TournamentState) -> None:
    """Mark ``tournament``'s tables as its own again, and put in the results of those
    of the current series that ended (or were lost) while the server was down."""
    for record in tournament.tables:
        table = tournaments.lobby.tables.get(record.id)
        if table is not None:
            table.tournament = (tournament.id, record.series)
        if record.scores is not None or record.series != tournament.series_no:
            continue
        if table is None:
            log.error(
                "tournament %d: table %d is gone; its players score nothing",
                tournament.id,
                record.id,
            )
            record.scores = [0] * len(record.keys)
            continue
        if table.status == "finished" and table.match is not None:
            record.scores = list(table.match.scores)
            record.rounds = table.match.round_no

"""The tournaments' service: the open tournaments, their timer, and their course
carried out.

A tournament plays its series one after another, as its course says
(:mod:`maumau.server.tournament.course`): at the director's go or when its start time
comes (:meth:`TournamentService.start_series`), the series is drawn and its tables
opened (:mod:`.tables`); when a table's match ends its scores are put in the
tournament, in the same commit as the match's end (:meth:`TournamentService.match_over`,
which the lobby calls: it knows the service only as its
:class:`~maumau.server.lobby.Attached`). When every table of the series has ended, a
break of ``break_s`` seconds (which the director may cut short), then the next series;
after the last one, the final (the top players at one table) if the director asked for
one; then the tournament is finished. A series never opens more tables than the
server's ``max_tables`` leaves free: the director's go is refused with ``lobby_full``,
and a start that comes due waits RETRY_S and tries again.

A tournament called off (:meth:`TournamentService.call_off`) is ``cancelled``, and the
tables of a series being played finish their matches as ordinary tables (their results
no longer count for it). Finished and cancelled tournaments stay in the history and
count for no cap.

The timer (:meth:`TournamentService._run`) starts what is due, has the
:class:`~.audience.Audience` tell of changes and of running series' progress, and has
the :class:`~.presence.Presence` note who is away. Every change is saved whole with the
next commit (:meth:`TournamentService.changed`), so a server killed in the middle of a
series comes back with the tournament as it was (:mod:`.restore`).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import trio

from ..errors import TableError
from ..lobby import Lobby
from ..session import Session
from ..table import Table
from ..tournament import course, view
from ..tournament.state import Entry, TournamentState
from . import tables
from .audience import CALM_S, REFRESH_S, Audience
from .presence import Presence

log = logging.getLogger("maumau.server")

BREAK_S = 30.0  # seconds between two series (the director may start the next sooner)
RETRY_S = 10.0  # a due start that found too few free tables tries again after this
FINISHED_SHOWN = 5  # finished tournaments the lobby still lists


class TournamentService:
    """Every open tournament of the server (see the module docstring)."""

    def __init__(
        self,
        lobby: Lobby,
        break_s: float = BREAK_S,
        idle_timeout: float = 60.0,
        free_tables: Callable[[], int] = lambda: 1_000_000,
    ) -> None:
        self.lobby = lobby
        self.break_s = break_s
        self.free_tables = free_tables
        self.open: dict[int, TournamentState] = {}
        self.finished: list[TournamentState] = []  # the latest, for the lobby
        self.audience = Audience(lobby, self.find_any)
        self.presence = Presence(lobby, idle_timeout, self.changed)
        self.due: dict[int, float] = {}  # trio time of a tournament's next start
        self._wakeup = trio.Event()
        store = lobby.store
        self.ids = store.next_tournament_id() if store is not None else 1
        lobby.attach(self)
        lobby.saver.on_restored.append(self.presence.shift)

    def start(self, nursery: trio.Nursery) -> None:
        nursery.start_soon(self._run)

    # --- what the lobby tells and asks (maumau.server.lobby.Attached) -------------------

    def arrived(self, session: Session) -> None:
        """``session`` is back in the lobby (or has just connected): tell it the
        tournament it follows or is registered for."""
        followed = self.followed(session)
        if followed is not None:
            self.audience.send(session, followed)

    def forgotten(self, session: Session) -> None:
        """A forgotten session follows nothing any more, and its registrations go (it
        withdraws from a tournament that has started)."""
        self.audience.forget(session)
        for tournament in list(self.open.values()):
            entry = tournament.entry(session.id)
            if entry is not None and not entry.withdrawn:
                self.unregister(tournament, entry, "its session is gone")

    def keeps(self, session: Session) -> bool:
        """Whether ``session`` must be kept: it is registered for an open tournament."""
        return any(t.registered(session.id) for t in self.open.values())

    def summaries(self) -> tuple[dict[str, Any], ...]:
        shown = list(self.open.values()) + self.finished[-FINISHED_SHOWN:][::-1]
        return tuple(view.summary(t) for t in shown)

    def match_over(self, table: Table) -> None:
        """A table's match ended: if it is a tournament's, its result counts now."""
        if table.tournament is None or table.match is None:
            return
        tournament = self.open.get(table.tournament[0])
        if tournament is None:
            return
        scores = list(table.match.scores)
        if not course.record_result(tournament, table.id, scores, table.match.round_no):
            return
        log.info(
            "tournament %d: table %d of series %d ends %s",
            tournament.id,
            table.id,
            table.tournament[1],
            scores,
        )
        if tournament.series_over():
            self.end_series(tournament)
        else:
            self.changed(tournament)

    # --- carrying out the course ----------------------------------------------------------

    def start_series(self, tournament: TournamentState, by_director: bool = False) -> None:
        plan = course.plan_series(tournament)
        if plan is None:
            if tournament.state == "break":
                self._finish(tournament)  # nobody left to play on with
                return
            if not by_director:
                # The start time came with too few players: wait for the director.
                tournament.starts_at = None
                self.due.pop(tournament.id, None)
                self.changed(tournament)
                return
            count = len(course.players_of_next(tournament))
            raise TableError(
                "too_few_players",
                f"{count} players are registered; a tournament needs at least 2",
                {"count": count},
            )
        # The last series' finished tables close as their players are moved on.
        freed = sum(
            1
            for record in tournament.current_tables()
            if record.id in self.lobby.tables and record.scores is not None
        )
        free = self.free_tables() + freed
        if plan.tables > free:
            log.warning(
                "tournament %d: series %d needs %d tables; the server has %d free",
                tournament.id,
                plan.number,
                plan.tables,
                max(0, free),
            )
            if not by_director:
                self.set_due(tournament, RETRY_S)
                self.changed(tournament)
                return
            raise TableError(
                "lobby_full",
                f"the series needs {plan.tables} tables and the server has "
                f"{max(0, free)} free; wait for some to close",
                {"limit": max(0, free), "count": plan.tables},
            )
        course.begin_series(tournament, plan, time.time())
        self.due.pop(tournament.id, None)
        log.info(
            "tournament %d: %s starts with %d tables%s",
            tournament.id,
            "the final" if plan.final else f"series {plan.number}",
            plan.tables,
            f" and {len(plan.seating.byes)} byes" if plan.seating.byes else "",
        )
        seating = plan.seating
        for i, (seated, bots) in enumerate(zip(seating.tables, seating.bots, strict=True)):
            tables.open_table(self.lobby, tournament, plan.number, i, seated, bots)
        self.changed(tournament)

    def end_series(self, tournament: TournamentState) -> None:
        if course.after_series(tournament) == "finish":
            self._finish(tournament)
            return
        tournament.state = "break"
        self.set_due(tournament, self.break_s)
        log.info("tournament %d: series %d is over", tournament.id, tournament.series_no)
        self.changed(tournament)

    def _finish(self, tournament: TournamentState) -> None:
        self._close(tournament, "finished")
        standings = tournament.standings()
        if standings:
            winner = tournament.entry(standings[0].key)
            log.info(
                "tournament %d %r is over: %s wins",
                tournament.id,
                tournament.name,
                winner.name if winner else "?",
            )

    def call_off(self, tournament: TournamentState, why: str) -> None:
        """End ``tournament`` as ``cancelled``: the tables of a series being played
        play their matches on as ordinary tables."""
        for record in tournament.tables:
            table = self.lobby.tables.get(record.id)
            if table is not None:
                table.leave_tournament()
        log.info("tournament %d %r is cancelled: %s", tournament.id, tournament.name, why)
        self._close(tournament, "cancelled")

    def _close(self, tournament: TournamentState, state: str) -> None:
        """``tournament`` is over (``finished`` or ``cancelled``): out of the open ones
        and their caps, into the history."""
        course.close(tournament, "finished" if state == "finished" else "cancelled", time.time())
        self.due.pop(tournament.id, None)
        self.presence.closed(tournament.id)
        self.audience.closed(tournament)
        self.open.pop(tournament.id, None)
        kept = [t for t in self.finished if t.id != tournament.id][-FINISHED_SHOWN:]
        self.finished = [*kept, tournament]
        self.changed(tournament)

    def unregister(self, tournament: TournamentState, entry: Entry, why: str) -> None:
        if tournament.state == "registering":
            tournament.entries.remove(entry)
        else:
            entry.withdrawn = True
        self.presence.back(tournament.id, entry.key)
        log.info("tournament %d: %s's registration is dropped: %s", tournament.id, entry.name, why)
        self.changed(tournament)

    def set_due(self, tournament: TournamentState, seconds: float) -> None:
        tournament.starts_at = time.time() + seconds
        self.due[tournament.id] = trio.current_time() + seconds
        self._wakeup.set()

    def changed(self, tournament: TournamentState) -> None:
        """Save ``tournament`` with the next commit and tell its audience soon."""
        self._save(tournament)
        self.audience.changed(tournament)
        self._wakeup.set()
        self.lobby.lobby_changed()

    def _save(self, tournament: TournamentState) -> None:
        """Write ``tournament`` with the next commit (once, however often it changes
        before then: a series' every table's end would write it whole each time)."""
        store = self.lobby.store
        if store is None:
            return

        def write() -> None:
            try:
                store.save_tournament(
                    tournament.id, tournament.name, tournament.state, tournament.to_dict()
                )
            except sqlite3.Error:
                log.exception("tournament %d could not be saved", tournament.id)

        self.lobby.saver.write_later(("tournament", tournament.id), write)

    # --- the timer -------------------------------------------------------------------------

    async def _run(self) -> None:
        """Starts tournaments and series when they are due; tells of changes (at once)
        and of running series' progress (every REFRESH_S)."""
        last_refresh = trio.current_time()
        while True:
            now = trio.current_time()
            self._start_due(now)
            self.audience.tell(now, lambda tournament_id: tournament_id in self.open)
            if now - last_refresh >= REFRESH_S:
                last_refresh = now
                self._note_presence(now)
                for tournament in list(self.open.values()):
                    if tournament.state in ("playing", "final"):
                        self.audience.broadcast(tournament, force=False, still_open=True)
            wait = REFRESH_S if not self.audience.dirty else CALM_S
            if self.due:
                wait = min(wait, max(0.0, min(self.due.values()) - trio.current_time()))
            self._wakeup = trio.Event()
            with trio.move_on_after(wait):
                await self._wakeup.wait()
            await trio.sleep(0.05)  # gather a burst of changes into one message

    def _start_due(self, now: float) -> None:
        """Start what is due. While the store cannot save, no series starts (play is
        paused; see maumau.server.saving): a due start waits until it saves again."""
        if self.lobby.saver.cannot_save:
            return
        for tournament_id, due in sorted(self.due.items(), key=lambda item: item[1]):
            if due <= now and tournament_id in self.open:
                self.due.pop(tournament_id, None)
                try:
                    self.start_series(self.open[tournament_id])
                except Exception:
                    log.exception("tournament %d could not start its series", tournament_id)

    def _note_presence(self, now: float) -> None:
        self.presence.note_directors(list(self.open.values()), now)
        drops, cancels = self.presence.note_idle(list(self.open.values()), now)
        limit = self.presence.idle_timeout
        for tournament, entry in drops:
            self.unregister(tournament, entry, f"away for {limit:g} s")
        for tournament in cancels:
            self.call_off(tournament, f"nobody of it was connected for {limit:g} s")

    # --- finding ---------------------------------------------------------------------------

    def find_any(self, tournament_id: int) -> TournamentState | None:
        """An open or a recently finished tournament."""
        return self.open.get(tournament_id) or next(
            (t for t in self.finished if t.id == tournament_id), None
        )

    def followed(self, session: Session) -> TournamentState | None:
        tournament_id = self.audience.followed(session)
        if tournament_id is None:
            return next((t for t in self.open.values() if t.registered(session.id)), None)
        return self.find_any(tournament_id)

    def find(self, tournament_id: int, finished_too: bool = False) -> TournamentState:
        tournament = self.open.get(tournament_id)
        if tournament is None and finished_too:
            tournament = self.find_any(tournament_id)
            if tournament is None and self.lobby.store is not None:
                try:
                    data = self.lobby.store.tournament(tournament_id)
                    tournament = TournamentState.from_dict(data) if data is not None else None
                except (sqlite3.Error, ValueError, TypeError):
                    log.exception("tournament %d could not be read", tournament_id)
        if tournament is None:
            raise TableError(
                "no_such_tournament",
                f"there is no tournament {tournament_id}",
                {"tournament": tournament_id},
            )
        return tournament

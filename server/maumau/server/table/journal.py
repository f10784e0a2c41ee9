"""A table in the store: its journal while a match runs, its record, and its restoring.

Every accepted action is written to the store's open group (with the running timers)
before anything about it is sent: the server's flusher commits the group before it
writes to any socket. The table's record (seats, who sits there, the match's id) is
written once per commit however often it changes (:meth:`TableState.save`). After a
restart :meth:`Journal.restore` rebuilds the table from its record and its match
by replaying the journal through the engine.

:class:`Journal` keeps the match's number in the store and how many of its actions
are journaled.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import deque
from collections.abc import Mapping
from typing import Any

import trio

from .. import bots
from ..rules import (
    Action,
    Event,
    MatchState,
    action_from_record,
    action_to_record,
    apply,
    new_match,
)
from ..rules.events import RoundDealt
from ..store import JournalEntry, MatchRecord, Store, TableRecord
from .claims import Claims
from .clock import Clock
from .frames import event_frame
from .host import Player
from .seating import Seating
from .state import (
    PLAYER,
    RECENT_LINES,
    REMATCH_WAIT_S,
    ROUND_PAUSE_S,
    SeatState,
    TableState,
)
from .views import Audience

log = logging.getLogger("maumau.table")


class Journal:
    """The store's side of a table (see the module docstring)."""

    def __init__(
        self,
        state: TableState,
        seating: Seating,
        clock: Clock,
        claims: Claims,
        audience: Audience,
    ) -> None:
        self.state = state
        self.seating = seating
        self.clock = clock
        self.claims = claims
        self.audience = audience
        self.match_id: int | None = None  # the match's number in the store
        self.journal_n = 0  # actions of the current match journaled so far

    def journal(self, action: Action | None, now: float, round_ended: bool) -> None:
        """Write the accepted action (and, at the end of a round or match, its result)
        to the store; the caller sends the views only afterwards."""
        state = self.state
        store = state.host.store
        match = state.match
        if store is None or self.match_id is None or match is None:
            return
        try:
            self._write_journal(store, match, action, now, round_ended)
        except sqlite3.Error:
            # Play goes on; only recovery and records suffer. Say so loudly.
            log.exception("table %d: the journal could not be written", state.id)

    def _write_journal(
        self, store: Store, match: MatchState, action: Action | None, now: float, ended: bool
    ) -> None:
        assert self.match_id is not None
        if action is not None:
            self.journal_n += 1
            record = action_to_record(action)
            store.append(self.match_id, self.journal_n, record, self.state.seq, self._timers(now))
        last = match.last_round
        if ended and last is not None:
            store.round_over(self.match_id, last.round_no, last.winner, last.points, [*last.scores])
            if match.phase == "match_over":
                store.finish_match(self.match_id, match.winner, [*match.scores])

    def _timers(self, now: float) -> dict[str, Any]:
        """The running timers as milliseconds left, for the journal."""

        def left(due: float | None) -> int | None:
            return None if due is None else max(0, round((due - now) * 1000))

        return {
            "turn": left(self.clock.turn_due),
            "next_round": left(self.clock.next_round_due),
            "windows": [[w, left(due)] for w, due in self.claims.window_due.items()],
        }

    def record(self) -> TableRecord:
        """The table as the store keeps it (seats name their session's id)."""
        seats = [
            {
                "name": s.name,
                "bot": s.bot,
                "level": s.level,
                "away": s.away,
                "ready": s.ready,
                "session": s.session.id if s.session is not None else None,
                "owner": s.owner.id if s.owner is not None else None,
            }
            for s in self.seating.seats
        ]
        state = self.state
        return TableRecord(
            state.id,
            state.name,
            state.settings_wire,
            self.seating.creator,
            self.seating.password,
            state.status,
            seats,
            state.seq,
            self.match_id,
            self.seating.creator_session,
        )

    def write_record(self) -> None:
        """Write the table's record into the store's open group of writes now."""
        store = self.state.host.store
        if store is not None and not self.state.closed:
            try:
                store.save_table(self.record())
            except sqlite3.Error:
                log.exception("table %d: could not be saved", self.state.id)

    def restore(
        self,
        record: TableRecord,
        sessions: Mapping[str, Player],
        match: MatchRecord | None,
        journal: list[JournalEntry],
        stopped: float | None = None,
    ) -> bool:
        """Rebuild this (new, empty) table's parts from the store after a restart;
        whether it had a match.

        Seats get their sessions back (disconnected: the reconnect grace starts now);
        the match is rebuilt by replaying its journal through the engine; each timer
        gets the time it had left when the server stopped: what it had when the last
        action was journaled, less the time it ran after that until ``stopped`` (the
        wall-clock time the server was last known to run, or this table's clock was
        stopped; see :meth:`Store.clock_marks`). The time the server was down does not
        count.
        """
        now = trio.current_time()
        table = self.state
        seats = self.seating.seats
        clock = self.clock
        settings = table.settings
        table.status = record.status
        table.seq = record.seq
        for i, data in enumerate(record.seats[: len(seats)]):
            seat = SeatState(
                name=data.get("name"),
                bot=bool(data.get("bot")),
                level=data.get("level") or bots.DEFAULT_LEVEL,
                away=bool(data.get("away")),
                ready=bool(data.get("ready")),
            )
            session = sessions.get(data.get("session") or "")
            # Whose the seat is (a record of an older server: whoever sat there).
            owner = sessions.get(data.get("owner", data.get("session")) or "")
            if session is not None and not seat.bot:
                seat.session = seat.owner = session
                seat.disconnected_at = now
                session.table = table.table
            elif owner is not None and not seat.bot:
                seat.owner = owner  # stepped out: they may come back to it
            elif not seat.bot and seat.name is not None and table.status == "playing":
                seat.away = True  # nobody can come back to it: a bot plays on
            seats[i] = seat
        self._restore_creator(record, sessions)
        voted = any(s.ready for s in seats if not s.bot)
        if table.status == "finished" and table.tournament is None and voted:
            clock.rematch_due = now + REMATCH_WAIT_S  # a rematch was asked for: time again
        if match is None:
            if table.status == "playing":
                table.status = "waiting"
            return False
        self.match_id = match.id
        state, dealt = new_match(settings, match.seed)
        recent = RecentEvents(dealt)
        for entry in journal:
            recent.add(entry.seq, apply(state, action_from_record(entry.action)))
        table.match = state
        self.audience.recent.extend(recent.frames(table.id, record.seq))
        self.journal_n = len(journal)
        timers: dict[str, Any] = journal[-1].timers if journal else {}
        if journal:
            table.seq = max(table.seq, journal[-1].seq)
        table.seq += 1000  # claims decided after the last action were not journaled

        # How long the timers ran after the last journaled action (at most an hour:
        # a wall clock set back or forth meanwhile must not eat or give a turn).
        ran = 0.0
        if journal and stopped is not None:
            ran = min(3600.0, max(0.0, stopped - journal[-1].at))

        def left_ms(ms: int | None) -> int | None:
            return None if ms is None else max(0, round(ms - ran * 1000))

        def due(ms: int | None) -> float | None:
            return None if ms is None else now + ms / 1000

        if state.phase == "playing":
            turn = left_ms(timers.get("turn")) if journal else settings.turn_timeout_s * 1000
            clock.turn_due = due(turn) if turn is not None else now + settings.turn_timeout_s
        if state.phase == "round_over":
            clock.next_round_due = due(left_ms(timers.get("next_round"))) or now + ROUND_PAUSE_S
        left = {int(w): left_ms(ms) for w, ms in timers.get("windows", [])}
        claims = self.claims
        for window in state.windows:
            ms = left.get(window.id, settings.mau_window_ms)
            claims.window_due[window.id] = now + (ms or 0) / 1000
            claims.window_opened[window.id] = now - (settings.mau_window_ms - (ms or 0)) / 1000
        table.status = {"match_over": "finished"}.get(state.phase, "playing")
        table.log(f"restored: {len(journal)} actions replayed, phase {state.phase}")
        return True

    def _restore_creator(self, record: TableRecord, sessions: Mapping[str, Player]) -> None:
        """The creator's session after a restart. A record of an older database names
        no session: the player seated under the creator's name is taken (a seat names
        its session, so this is who sat there, not whoever uses the name now). A
        creator whose session was not kept hands the table over."""
        seating = self.seating
        creator = record.creator_session
        if creator is None:
            creator = next(
                (
                    s.session.id
                    for s in seating.seats
                    if s.session is not None and s.name == record.creator
                ),
                None,
            )
        if creator is not None and creator in sessions:
            seating.creator = sessions[creator].name
            seating.creator_session = creator
        else:
            seating.hand_over()
        seating.origin_session = seating.creator_session

    def close(self) -> None:
        """The table closes: so does its record, and its clock's mark in the store."""
        store = self.state.host.store
        if store is not None:
            store.close_table(self.state.id, self.match_id)
            if PLAYER in self.clock.pauses:
                store.hold_clock(self.state.id, None)


class RecentEvents:
    """The current round's events, collected while a restored match replays its
    journal, so that whoever arrives after a restart is told the round so far, as
    during play (:attr:`Audience.recent`).

    Each journal entry carries the table's ``seq`` after its action: that of the last
    event the action caused, the others counting back one by one, so every event gets
    the number it had when it was sent. The first round's deal is not journaled (it
    comes with the match); its events come just before the first action's, or, while
    no action is journaled, end at the table's saved ``seq``. The ``mau_decision``
    lines are not journaled and are not told again.
    """

    def __init__(self, dealt: list[Event]) -> None:
        self.dealt: list[Event] | None = dealt  # the first deal, until it is numbered
        self.events: deque[tuple[int, Event]] = deque(maxlen=RECENT_LINES)

    def add(self, seq: int, events: list[Event]) -> None:
        """The events of one journaled action, whose last one had ``seq``."""
        first = seq - len(events) + 1
        self._deal_ends(first - 1)
        for i, event in enumerate(events):
            if isinstance(event, RoundDealt):
                self.events.clear()
            self.events.append((first + i, event))

    def frames(self, table: int, saved_seq: int) -> list[bytes]:
        """The ``event`` frames of the current round, in order."""
        self._deal_ends(saved_seq)
        return [event_frame(table, seq, event) for seq, event in self.events]

    def _deal_ends(self, seq: int) -> None:
        if self.dealt is not None:
            dealt, self.dealt = self.dealt, None
            start = seq - len(dealt) + 1
            self.events.extend((start + i, event) for i, event in enumerate(dealt))

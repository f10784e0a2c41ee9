"""A table in the store: its journal while a match runs, its record, and its restoring.

Every accepted action is written to the store's open group (with the running timers)
before anything about it is sent: the server's flusher commits the group before it
writes to any socket. The table's record (seats, who sits there, the match's id) is
written once per commit however often it changes (:meth:`TableState.save`). After a
restart :meth:`Journaling.restore` rebuilds the table from its record and its match
by replaying the journal through the engine.
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
from .frames import event_frame
from .host import Player
from .seating import Seating
from .state import (
    PLAYER,
    RECENT_LINES,
    REMATCH_WAIT_S,
    ROUND_PAUSE_S,
    SeatState,
)

log = logging.getLogger("maumau.table")


class Journaling(Seating):
    """The store's side of a table (see the module docstring)."""

    def _journal(self, action: Action | None, now: float, round_ended: bool) -> None:
        """Write the accepted action (and, at the end of a round or match, its result)
        to the store; the caller sends the views only afterwards."""
        store = self.host.store
        match = self.match
        if store is None or self.match_id is None or match is None:
            return
        try:
            self._write_journal(store, match, action, now, round_ended)
        except sqlite3.Error:
            # Play goes on; only recovery and records suffer. Say so loudly.
            log.exception("table %d: the journal could not be written", self.id)

    def _write_journal(
        self, store: Store, match: MatchState, action: Action | None, now: float, ended: bool
    ) -> None:
        assert self.match_id is not None
        if action is not None:
            self.journal_n += 1
            record = action_to_record(action)
            store.append(self.match_id, self.journal_n, record, self.seq, self._timers(now))
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
            "turn": left(self.turn_due),
            "next_round": left(self.next_round_due),
            "windows": [[w, left(due)] for w, due in self.window_due.items()],
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
            for s in self.seats
        ]
        return TableRecord(
            self.id,
            self.name,
            self.settings_wire,
            self.creator,
            self.password,
            self.status,
            seats,
            self.seq,
            self.match_id,
            self.creator_session,
        )

    def write_record(self) -> None:
        """Write the table's record into the store's open group of writes now."""
        if self.host.store is not None and not self.closed:
            try:
                self.host.store.save_table(self.record())
            except sqlite3.Error:
                log.exception("table %d: could not be saved", self.id)

    def restore(
        self,
        record: TableRecord,
        sessions: Mapping[str, Player],
        match: MatchRecord | None,
        journal: list[JournalEntry],
        stopped: float | None = None,
    ) -> None:
        """Rebuild this (new, empty) table from the store after a restart.

        Seats get their sessions back (disconnected: the reconnect grace starts now);
        the match is rebuilt by replaying its journal through the engine; each timer
        gets the time it had left when the server stopped: what it had when the last
        action was journaled, less the time it ran after that until ``stopped`` (the
        wall-clock time the server was last known to run, or this table's clock was
        stopped; see :meth:`Store.clock_marks`). The time the server was down does not
        count.
        """
        now = trio.current_time()
        self.status = record.status
        self.seq = record.seq
        for i, data in enumerate(record.seats[: len(self.seats)]):
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
                session.table = self
            elif owner is not None and not seat.bot:
                seat.owner = owner  # stepped out: they may come back to it
            elif not seat.bot and seat.name is not None and self.status == "playing":
                seat.away = True  # nobody can come back to it: a bot plays on
            self.seats[i] = seat
        self._restore_creator(record, sessions)
        voted = any(s.ready for s in self.seats if not s.bot)
        if self.status == "finished" and self.tournament is None and voted:
            self.rematch_due = now + REMATCH_WAIT_S  # a rematch was asked for: time again
        if match is None:
            if self.status == "playing":
                self.status = "waiting"
            return
        self.match_id = match.id
        state, dealt = new_match(self.settings, match.seed)
        recent = RecentEvents(dealt)
        for entry in journal:
            recent.add(entry.seq, apply(state, action_from_record(entry.action)))
        self.match = state
        self.recent.extend(recent.frames(self.id, record.seq))
        self.journal_n = len(journal)
        timers: dict[str, Any] = journal[-1].timers if journal else {}
        if journal:
            self.seq = max(self.seq, journal[-1].seq)
        self.seq += 1000  # claims decided after the last action were not journaled

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
            turn = left_ms(timers.get("turn")) if journal else self.settings.turn_timeout_s * 1000
            self.turn_due = due(turn) if turn is not None else now + self.settings.turn_timeout_s
        if state.phase == "round_over":
            self.next_round_due = due(left_ms(timers.get("next_round"))) or now + ROUND_PAUSE_S
        left = {int(w): left_ms(ms) for w, ms in timers.get("windows", [])}
        for window in state.windows:
            ms = left.get(window.id, self.settings.mau_window_ms)
            self.window_due[window.id] = now + (ms or 0) / 1000
            self.window_opened[window.id] = now - (self.settings.mau_window_ms - (ms or 0)) / 1000
        self.status = {"match_over": "finished"}.get(state.phase, "playing")
        self._log(f"restored: {len(journal)} actions replayed, phase {state.phase}")
        self._schedule()

    def _restore_creator(self, record: TableRecord, sessions: Mapping[str, Player]) -> None:
        """The creator's session after a restart. A record of an older database names
        no session: the player seated under the creator's name is taken (a seat names
        its session, so this is who sat there, not whoever uses the name now). A
        creator whose session was not kept hands the table over."""
        creator = record.creator_session
        if creator is None:
            creator = next(
                (
                    s.session.id
                    for s in self.seats
                    if s.session is not None and s.name == record.creator
                ),
                None,
            )
        if creator is not None and creator in sessions:
            self.creator = sessions[creator].name
            self.creator_session = creator
        else:
            self._hand_over()
        self.origin_session = self.creator_session

    def close(self) -> None:
        self.closed = True
        if self._sleep is not None:
            self._sleep.cancel()
        if self.host.store is not None:
            self.host.store.close_table(self.id, self.match_id)
            if PLAYER in self.pauses:
                self.host.store.hold_clock(self.id, None)


class RecentEvents:
    """The current round's events, collected while a restored match replays its
    journal, so that whoever arrives after a restart is told the round so far, as
    during play (:attr:`TableState.recent`).

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

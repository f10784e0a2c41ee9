"""A table's time: its deadlines, whether its clock is stopped, and the timer's sleep.

Every deadline is on ``trio.current_time()``, so tests drive them with ``MockClock``.
:class:`Clock` keeps the table's own deadlines (the turn timer, the pause between
rounds, the rematch asked for), why and since when its clock is stopped, and the
cancel scope the table's timer task (:mod:`.timer`) sleeps in: a change that brings a
deadline forward moves that scope's deadline, without waking the task
(:meth:`Clock.wake`). The call windows' deadlines are :mod:`.claims`', the bots'
:mod:`.bot_seats`'; what is due next over all of them, and stopping and starting the
clock, are :mod:`.schedule`'s.
"""

from __future__ import annotations

import logging
import math
import sqlite3

import trio

from .seating import Seating
from .state import CANNOT_SAVE, PLAYER, SeatState, TableState

log = logging.getLogger("maumau.table")


class Clock:
    """The table's deadlines and pauses (see the module docstring)."""

    def __init__(self, state: TableState, seating: Seating) -> None:
        self.state = state
        self.seating = seating
        self.turn_due: float | None = None
        self.next_round_due: float | None = None
        self.rematch_due: float | None = None  # a rematch was asked for: when it starts
        self.paused_at: float | None = None  # while paused: since when
        self.pauses: set[str] = set()  # why: CANNOT_SAVE, PLAYER
        self.sleep: trio.CancelScope | None = None  # the timer task's, while it sleeps

    def now(self) -> float:
        """The table's clock: stopped while the table is paused."""
        paused = self.paused_at
        return trio.current_time() if paused is None else paused

    def pause_reason(self) -> str | None:
        """Why the table is paused (``table.paused``): the server's trouble first."""
        if CANNOT_SAVE in self.pauses:
            return CANNOT_SAVE
        return PLAYER if self.pauses else None

    def rematch_left(self) -> int | None:
        """Milliseconds until the rematch asked for starts by itself (None: none is
        asked for, or the table is paused)."""
        due = self.rematch_due
        if due is None or self.state.status != "finished" or self.paused_at is not None:
            return None
        return max(0, int((due - trio.current_time()) * 1000))

    def rematch_voters(self) -> list[SeatState]:
        """The seats whose players decide on the rematch: every human's seat that has
        a player, there now or stepped out."""
        return [s for s in self.seating.seats if not s.bot and s.owner is not None]

    def rematch_ready(self, now: float) -> bool | None:
        """Whether the rematch asked for starts now: True when every player agrees or
        its time has come, False while it waits, None when nobody asks any more."""
        voters = self.rematch_voters()
        if self.rematch_due is None or self.state.tournament is not None:
            return None  # (a tournament's table has no rematch)
        if not any(s.ready for s in voters):
            return None
        return all(s.ready for s in voters) or now >= self.rematch_due

    def stop(self, why: str) -> bool:
        """Stop the clock for ``why``; whether it was not stopped for it already."""
        if why in self.pauses or self.state.closed:
            return False
        self.pauses.add(why)
        if self.paused_at is None:
            self.paused_at = trio.current_time()
        if self.sleep is not None:
            self.sleep.deadline = math.inf
        return True

    def start(self, why: str) -> float | None:
        """``why`` no longer holds the clock: how long it was stopped, once nothing
        else holds it (its deadlines are moved that much later), else None."""
        if why == PLAYER and why in self.pauses:
            self.hold_in_store(None)
        self.pauses.discard(why)
        if self.paused_at is None or self.state.closed:
            self.paused_at = None
            return None
        if self.pauses:
            return None  # still paused, for the other reason
        shift = trio.current_time() - self.paused_at
        self.paused_at = None

        def later(due: float | None) -> float | None:
            return None if due is None else due + shift

        self.turn_due = later(self.turn_due)
        self.next_round_due = later(self.next_round_due)
        self.rematch_due = later(self.rematch_due)
        return shift

    def hold_in_store(self, since: float | None) -> None:
        """Mark in the store that this table's clock stopped (``since``, wall clock) or
        runs again (None), so that after a crash its timers have what they had."""
        store = self.state.host.store
        if store is not None:
            try:
                store.hold_clock(self.state.id, since)
            except sqlite3.Error:
                log.exception("table %d: the pause could not be written", self.state.id)

    def wake(self, deadline: float) -> None:
        """Have the sleeping timer task wake at ``deadline`` if that is sooner."""
        sleep = self.sleep
        if sleep is not None and deadline < sleep.deadline:
            sleep.deadline = deadline  # wakes the timer task then, not now

    async def sleep_until(self, deadline: float) -> None:
        """The timer task sleeps until ``deadline``, or until :meth:`wake` moves it."""
        with trio.CancelScope(deadline=deadline) as sleep:
            self.sleep = sleep
            await trio.sleep_forever()
        self.sleep = None

    def cancel(self) -> None:
        """The table closes: wake its timer task to end."""
        if self.sleep is not None:
            self.sleep.cancel()

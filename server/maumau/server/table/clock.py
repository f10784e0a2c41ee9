"""A table's time: its deadlines, the task that sleeps until the next, and pausing.

Time lives in :meth:`Clock.run`, one task per table. It sleeps until the earliest
deadline (a call window's minimum time, the turn timer, a bot's move, a bot's catch,
the arbiter's decision, a reconnect grace, the pause between rounds) and then does
what is due; a change that brings a deadline forward moves the deadline of the cancel
scope it sleeps in, without waking it. All deadlines are on ``trio.current_time()``,
so tests drive them with ``MockClock``.

While the server cannot save, every table is *paused*: :meth:`Clock.pause` stops its
clock (the timer task sleeps with no deadline, nothing is due) and tells its people at
once; :meth:`Clock.resume` moves every deadline and pending claim later by the length
of the pause, so each timer goes on with the time it had left.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import time

import trio

from .. import bots
from ..errors import TableError
from ..rules import (
    EndCallWindow,
    TurnTimeout,
    apply,
)
from .bot_seats import BotSeats
from .host import Player
from .state import (
    AWAY_AFTER_TIMEOUTS,
    CANNOT_SAVE,
    MIN_BOT_CATCH_DELAY,
    PLAYER,
)

log = logging.getLogger("maumau.table")


class Clock(BotSeats):
    """The table's deadlines and its timer task (see the module docstring)."""

    def pause(self, why: str = CANNOT_SAVE) -> None:
        """Stop the clock (see the module docstring): ``why`` is ``cannot_save`` (told
        to everybody here at once, past what is held back) or ``player`` (the one
        player at a table of bots reads the help: :meth:`hold`)."""
        if why in self.pauses or self.closed:
            return
        self.pauses.add(why)
        if self.paused_at is None:
            self.paused_at = trio.current_time()
        if why == CANNOT_SAVE:
            self._log("paused: the server cannot save")
            self._send_pause()
        else:
            self._log("paused by its player")
            self._hold_in_store(time.time())
            self.changed()
        if self._sleep is not None:
            self._sleep.deadline = math.inf

    def resume(self, why: str = CANNOT_SAVE) -> None:
        """Start the clock again where it stopped, once no reason holds it."""
        if why == PLAYER and why in self.pauses:
            self._hold_in_store(None)
        self.pauses.discard(why)
        if self.paused_at is None or self.closed:
            self.paused_at = None
            return
        if self.pauses:
            if why != CANNOT_SAVE:
                self.changed()  # still paused, for the other reason
            return
        shift = trio.current_time() - self.paused_at
        self.paused_at = None

        def later(due: float | None) -> float | None:
            return None if due is None else due + shift

        self.turn_due = later(self.turn_due)
        self.bot_due = later(self.bot_due)
        self.next_round_due = later(self.next_round_due)
        self.rematch_due = later(self.rematch_due)
        for timers in (self.window_due, self.window_opened, self.bot_catch_due):
            for key in timers:
                timers[key] += shift
        for seat in self.seats:
            seat.disconnected_at = later(seat.disconnected_at)
        self.arbiter.postpone(shift)
        self._log(f"resumed after {shift:.1f} s")
        self.changed()
        if why != CANNOT_SAVE:
            self._send_views()  # the turn's deadline, moved by the pause
        self._schedule()

    def _hold_in_store(self, since: float | None) -> None:
        """Mark in the store that this table's clock stopped (``since``, wall clock) or
        runs again (None), so that after a crash its timers have what they had."""
        store = self.host.store
        if store is not None:
            try:
                store.hold_clock(self.id, since)
            except sqlite3.Error:
                log.exception("table %d: the pause could not be written", self.id)

    def hold(self, session: Player, on: bool) -> None:
        """``pause``: the one player at a table of bots stops the clock while they read
        the help (``on``), or starts it again. Anywhere else others would wait for
        them, so it is refused; any move of theirs, ``back``, leaving or dropping ends
        it too."""
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "only a player at the table can stop its clock")
        if not on:
            self.resume(PLAYER)
            return
        if self.tournament is not None:
            raise TableError(
                "tournament_table",
                "a tournament's clock stops for nobody",
                {"tournament": self.tournament[0]},
            )
        if self.status != "playing":
            raise TableError("no_match", "no match is running at this table")
        others = [
            s
            for i, s in enumerate(self.seats)
            if i != seat and not s.bot and (s.owner is not None or s.session is not None)
        ]
        if others or any(s is not session for s in self.spectators):
            raise TableError(
                "not_alone",
                "others are at this table: the clock stops only for a player alone with bots",
            )
        self.pause(PLAYER)

    def _bot_controlled(self, seat: int, now: float) -> bool:
        state = self.seats[seat]
        if state.bot or state.away or state.session is None:
            return True
        gone = state.disconnected_at
        return gone is not None and now - gone >= self.settings.reconnect_grace_s

    def _schedule(self) -> None:
        """Recompute bot deadlines and wake the timer task."""
        match = self.match
        now = self.now()
        if match is not None and match.phase in ("playing", "ending"):
            # Bots move on their turn; they catch and call also in a round's final
            # window (phase "ending"), when nobody is on turn.
            if match.phase == "playing" and self._bot_controlled(match.turn, now):
                if self.bot_due is None:
                    self.bot_due = now + self.host.bot_delay
            else:
                self.bot_due = None
            for i, _seat in enumerate(self.seats):
                if i in self.bot_catch_due or not self._bot_controlled(i, now):
                    continue
                if bots.catches(match, i) or bots.own_call(match, i):
                    delay = max(MIN_BOT_CATCH_DELAY, bots.catch_delay(self.level(i), self.rng))
                    self.bot_catch_due[i] = now + delay
        else:
            self.bot_due = None
        sleep = self._sleep
        if sleep is not None:
            deadline = self._next_deadline()
            if deadline < sleep.deadline:
                sleep.deadline = deadline  # wakes the timer task then, not now

    def _next_deadline(self) -> float:
        if self.paused_at is not None:
            return math.inf
        candidates = [self.turn_due, self.bot_due, self.next_round_due]
        candidates += list(self.window_due.values()) + list(self.bot_catch_due.values())
        candidates.append(self.arbiter.decide_at(self._settle()))
        if self.match is not None and self.match.phase in ("playing", "ending"):
            for seat in self.seats:
                if seat.disconnected_at is not None and not seat.away:
                    candidates.append(seat.disconnected_at + self.settings.reconnect_grace_s)
        else:
            candidates[0] = candidates[1] = None  # no turn timer or bot move between rounds
        if self.status == "finished" and self.rematch_due is not None:
            # When every player agrees it starts at once, else when its time is up.
            ready = self.rematch_ready(self.now())
            candidates.append(self.now() if ready else self.rematch_due)
        due = [c for c in candidates if c is not None]
        return min(due) if due else math.inf

    def _settle(self) -> float:
        if self.settings.lag_compensation:
            return self.settings.lag_compensation_max_ms / 1000
        return 0.0

    async def run(self) -> None:
        """The table's timer task; ends when the table is closed."""
        while not self.closed:
            deadline = self._next_deadline()
            if deadline > trio.current_time():
                with trio.CancelScope(deadline=deadline) as sleep:
                    self._sleep = sleep  # _schedule moves its deadline earlier
                    await trio.sleep_forever()
                self._sleep = None
            else:
                await trio.sleep(0)  # something is due now; still let others run
            if self.closed:
                return
            if self.paused_at is not None:
                continue
            try:
                self._tick()
                self.host.commit_soon()  # also when nobody is connected to be sent anything
                if self._thinking is not None:
                    seat, action_no = self._thinking
                    self._thinking = None
                    await self._think(seat, action_no)
                    self.host.commit_soon()
            except Exception:  # never let one table's bug take the server down
                log.exception("table %s: error in timers", self.id)
                await trio.sleep(0.1)

    def _tick(self) -> None:
        now = trio.current_time()
        match = self.match
        if self.status == "finished" and self.rematch_due is not None:
            ready = self.rematch_ready(now)
            if ready is None:
                self.rematch_due = None  # nobody asks for it any more
                self.changed()
            elif ready:
                self._rematch()
                return
        decide_at = self.arbiter.decide_at(self._settle())
        if decide_at is not None and decide_at <= now:
            self._decide_claims()
        if match is None:
            return
        for window, due in sorted(self.window_due.items(), key=lambda item: item[1]):
            if due <= now and any(w.id == window for w in match.windows):
                self._decide_claims()
                self.window_due.pop(window, None)
                w = next((w for w in match.windows if w.id == window), None)
                if w is not None and not w.elapsed:
                    end = EndCallWindow(window)
                    self._after_change(apply(match, end), turn_ended=False, action=end)
        for seat, due in list(self.bot_catch_due.items()):
            if due <= now:
                del self.bot_catch_due[seat]
                if match.phase in ("playing", "ending") and self._bot_controlled(seat, now):
                    self._bot_claims(match, seat, now)
        if self.next_round_due is not None and self.next_round_due <= now:
            self.next_round_due = None
            if match.phase == "round_over":
                self._next_round()
        if match.phase == "playing":
            if self.bot_due is not None and self.bot_due <= now:
                self.bot_due = None
                if self._bot_controlled(match.turn, now):
                    self._decide_claims()  # move on the position after pending calls
                    if match.phase == "playing":
                        self._bot_turn(match)
            if self.turn_due is not None and self.turn_due <= now and match.phase == "playing":
                seat = match.turn
                self._log(f"{self.names()[seat]} ran out of time")
                self._turn_action(TurnTimeout(seat))
                self.seats[seat].timeouts += 1
                if self.seats[seat].timeouts >= AWAY_AFTER_TIMEOUTS and not self.seats[seat].bot:
                    self.seats[seat].away = True
                    self._log(f"{self.names()[seat]} is away; a bot plays the seat")
                    self.changed()
                    self._schedule()
        for i, seat_state in enumerate(self.seats):
            gone = seat_state.disconnected_at
            if (
                gone is not None
                and not seat_state.away
                and now - gone >= self.settings.reconnect_grace_s
            ):
                seat_state.away = True
                self._log(f"{self.names()[i]} did not come back; a bot plays the seat")
                self.changed()
                self._schedule()

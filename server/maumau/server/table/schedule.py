"""What is due next at a table, and stopping its clock and starting it again.

After every change :meth:`Schedule.update` has the bots plan their next move, call
and catch, and brings the timer task's wake-up forward if something is now due sooner
(the earliest of a call window's minimum time, the turn timer, a bot's move, a bot's
catch, the arbiter's decision, a reconnect grace, the pause between rounds, the
rematch; :meth:`Schedule.next_deadline`).

While the server cannot save, every table is *paused*: :meth:`Schedule.pause` stops
its clock (the timer task sleeps with no deadline, nothing is due) and tells its
people at once; :meth:`Schedule.resume` moves every deadline and pending claim later
by the length of the pause, so each timer goes on with the time it had left. The one
player at a table of bots may stop its clock too, while they read the help
(:meth:`Schedule.hold`).
"""

from __future__ import annotations

import math
import time

from ..errors import TableError
from .bot_seats import BotSeats
from .claims import Claims
from .clock import Clock
from .host import Player
from .seating import Seating
from .state import CANNOT_SAVE, PLAYER, TableState
from .views import Audience


class Schedule:
    """What is due next, and pausing (see the module docstring)."""

    def __init__(
        self,
        state: TableState,
        seating: Seating,
        clock: Clock,
        audience: Audience,
        claims: Claims,
        bots: BotSeats,
    ) -> None:
        self.state = state
        self.seating = seating
        self.clock = clock
        self.audience = audience
        self.claims = claims
        self.bots = bots

    def update(self) -> None:
        """After a change: the bots plan again, and the timer task wakes in time."""
        clock = self.clock
        self.bots.plan(self.state.match, clock.now())
        if clock.sleep is not None:
            clock.wake(self.next_deadline())

    def next_deadline(self) -> float:
        """The earliest deadline of all (math.inf: none; see the module docstring).
        This runs after every change, so it builds nothing it does not need."""
        clock = self.clock
        if clock.paused_at is not None:
            return math.inf
        bots = self.bots
        claims = self.claims
        state = self.state
        match = state.match
        due = math.inf
        if match is not None and match.phase in ("playing", "ending"):
            # (no turn timer or bot move between rounds)
            if clock.turn_due is not None:
                due = clock.turn_due
            if bots.due is not None and bots.due < due:
                due = bots.due
            grace = state.settings.reconnect_grace_s
            for seat in self.seating.seats:
                if seat.disconnected_at is not None and not seat.away:
                    due = min(due, seat.disconnected_at + grace)
        if clock.next_round_due is not None and clock.next_round_due < due:
            due = clock.next_round_due
        if claims.window_due:
            due = min(due, *claims.window_due.values())
        if bots.catch_due:
            due = min(due, *bots.catch_due.values())
        decide = claims.arbiter.decide_at(self.settle())
        if decide is not None and decide < due:
            due = decide
        if state.status == "finished" and clock.rematch_due is not None:
            # When every player agrees it starts at once, else when its time is up.
            ready = clock.rematch_ready(clock.now())
            due = min(due, clock.now() if ready else clock.rematch_due)
        return due

    def settle(self) -> float:
        """How long the arbiter waits for claims that may yet count as earlier."""
        settings = self.state.settings
        if settings.lag_compensation:
            return settings.lag_compensation_max_ms / 1000
        return 0.0

    def pause(self, why: str = CANNOT_SAVE) -> None:
        """Stop the clock (see the module docstring): ``why`` is ``cannot_save`` (told
        to everybody here at once, past what is held back) or ``player`` (the one
        player at a table of bots reads the help: :meth:`hold`)."""
        if not self.clock.stop(why):
            return
        if why == CANNOT_SAVE:
            self.state.log("paused: the server cannot save")
            self.audience.send_pause()
        else:
            self.state.log("paused by its player")
            self.clock.hold_in_store(time.time())
            self.audience.changed()

    def resume(self, why: str = CANNOT_SAVE) -> None:
        """Start the clock again where it stopped, once no reason holds it."""
        clock = self.clock
        shift = clock.start(why)
        if shift is None:
            if clock.paused_at is not None and why != CANNOT_SAVE:
                self.audience.changed()  # still paused, for the other reason
            return
        self.bots.postpone(shift)
        self.claims.postpone(shift)
        self.seating.postpone(shift)
        self.state.log(f"resumed after {shift:.1f} s")
        self.audience.changed()
        if why != CANNOT_SAVE:
            self.audience.send_views()  # the turn's deadline, moved by the pause
        self.update()

    def hold(self, session: Player, on: bool) -> None:
        """``pause``: the one player at a table of bots stops the clock while they read
        the help (``on``), or starts it again. Anywhere else others would wait for
        them, so it is refused; any move of theirs, ``back``, leaving or dropping ends
        it too."""
        seating = self.seating
        seat = seating.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "only a player at the table can stop its clock")
        if not on:
            self.resume(PLAYER)
            return
        tournament = self.state.tournament
        if tournament is not None:
            raise TableError(
                "tournament_table",
                "a tournament's clock stops for nobody",
                {"tournament": tournament[0]},
            )
        if self.state.status != "playing":
            raise TableError("no_match", "no match is running at this table")
        others = [
            s
            for i, s in enumerate(seating.seats)
            if i != seat and not s.bot and (s.owner is not None or s.session is not None)
        ]
        if others or any(s is not session for s in seating.spectators):
            raise TableError(
                "not_alone",
                "others are at this table: the clock stops only for a player alone with bots",
            )
        self.pause(PLAYER)

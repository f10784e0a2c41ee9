"""A table's timer task: it sleeps until the next deadline, then does what is due.

:meth:`Timer.run` is one task per table. It sleeps until the earliest deadline (see
:mod:`.schedule`; a change that brings one forward moves its wake-up without waking
it) and then does what is due (:meth:`Timer.tick`): a rematch agreed on, the arbiter's
decision on Mau claims, a call window's end, a bot's call or catch, the next round, a
bot's move, a turn run out of time, a reconnect grace run out. A hard bot thinks in a
worker thread (:meth:`Timer.think`) after the tick that found it on turn. While the
table is paused nothing is due.
"""

from __future__ import annotations

import logging

import trio

from ..rules import (
    EndCallWindow,
    IllegalAction,
    TurnTimeout,
    apply,
)
from .bot_seats import BotSeats
from .claims import Claims
from .clock import Clock
from .match import MatchFlow
from .schedule import Schedule
from .seating import Seating
from .state import AWAY_AFTER_TIMEOUTS, TableState
from .views import Audience

log = logging.getLogger("maumau.table")


class Timer:
    """The table's timer task (see the module docstring)."""

    def __init__(
        self,
        state: TableState,
        seating: Seating,
        clock: Clock,
        audience: Audience,
        claims: Claims,
        bots: BotSeats,
        schedule: Schedule,
        flow: MatchFlow,
    ) -> None:
        self.state = state
        self.seating = seating
        self.clock = clock
        self.audience = audience
        self.claims = claims
        self.bots = bots
        self.schedule = schedule
        self.flow = flow

    async def run(self) -> None:
        """The table's timer task; ends when the table is closed."""
        state = self.state
        host = state.host
        while not state.closed:
            deadline = self.schedule.next_deadline()
            if deadline > trio.current_time():
                await self.clock.sleep_until(deadline)  # Schedule.update moves it earlier
            else:
                await trio.sleep(0)  # something is due now; still let others run
            if state.closed:
                return
            if self.clock.paused_at is not None:
                continue
            try:
                self.tick()
                host.commit_soon()  # also when nobody is connected to be sent anything
                thinking = self.bots.thinking
                if thinking is not None:
                    self.bots.thinking = None
                    await self.think(*thinking)
                    host.commit_soon()
            except Exception:  # never let one table's bug take the server down
                log.exception("table %s: error in timers", state.id)
                await trio.sleep(0.1)

    async def think(self, seat: int, action_no: int) -> None:
        """The hard bot playing ``seat`` thinks on the position ``action_no`` in a
        worker thread, then moves, unless the position changed meanwhile (then it
        thinks again) or the table paused (it moves after)."""
        state = self.state
        match = state.match
        if match is None or match.action_no != action_no or match.turn != seat:
            return
        action = await self.bots.ponder(match, seat)
        if state.closed or state.match is not match or match.phase != "playing":
            return
        if self.clock.paused_at is not None:
            return  # the bot moves after the pause (resume schedules it again)
        if match.action_no != action_no or match.turn != seat or action is None:
            self.schedule.update()  # the position changed meanwhile: think again
            return
        try:
            self.flow.turn_action(self.bots.with_forgetting(match, action))
        except IllegalAction:
            fallback = self.bots.fallback(match, seat)
            if fallback is not None:
                self.flow.turn_action(fallback)

    def tick(self) -> None:
        now = trio.current_time()
        state = self.state
        clock = self.clock
        flow = self.flow
        schedule = self.schedule
        bots = self.bots
        seats = self.seating.seats
        settings = state.settings
        match = state.match
        if state.status == "finished" and clock.rematch_due is not None:
            ready = clock.rematch_ready(now)
            if ready is None:
                clock.rematch_due = None  # nobody asks for it any more
                self.audience.changed()
            elif ready:
                flow.start_rematch()
                return
        decide_at = self.claims.arbiter.decide_at(schedule.settle())
        if decide_at is not None and decide_at <= now:
            flow.decide_claims()
        if match is None:
            return
        window_due = self.claims.window_due
        for window, due in sorted(window_due.items(), key=lambda item: item[1]):
            if due <= now and any(w.id == window for w in match.windows):
                flow.decide_claims()
                window_due.pop(window, None)
                w = next((w for w in match.windows if w.id == window), None)
                if w is not None and not w.elapsed:
                    end = EndCallWindow(window)
                    flow.after_change(apply(match, end), turn_ended=False, action=end)
        for seat, due in list(bots.catch_due.items()):
            if due <= now:
                del bots.catch_due[seat]
                if match.phase in ("playing", "ending") and bots.controlled(seat, now):
                    bots.call_and_catch(match, seat, now)
                    schedule.update()
        if clock.next_round_due is not None and clock.next_round_due <= now:
            clock.next_round_due = None
            if match.phase == "round_over":
                flow.next_round()
        if match.phase == "playing":
            if bots.due is not None and bots.due <= now:
                bots.due = None
                if bots.controlled(match.turn, now):
                    flow.decide_claims()  # move on the position after pending calls
                    if match.phase == "playing":
                        action = bots.turn(match)
                        if action is not None:
                            flow.turn_action(action)
            if clock.turn_due is not None and clock.turn_due <= now and match.phase == "playing":
                seat = match.turn
                names = self.seating.names
                state.log(f"{names()[seat]} ran out of time")
                flow.turn_action(TurnTimeout(seat))
                seats[seat].timeouts += 1
                if seats[seat].timeouts >= AWAY_AFTER_TIMEOUTS and not seats[seat].bot:
                    seats[seat].away = True
                    state.log(f"{names()[seat]} is away; a bot plays the seat")
                    self.audience.changed()
                    schedule.update()
        for i, seat_state in enumerate(seats):
            gone = seat_state.disconnected_at
            if (
                gone is not None
                and not seat_state.away
                and now - gone >= settings.reconnect_grace_s
            ):
                seat_state.away = True
                state.log(f"{self.seating.names()[i]} did not come back; a bot plays the seat")
                self.audience.changed()
                schedule.update()

"""Bots at a table: the seats they play and when they move, call and catch.

The bots' minds are in :mod:`maumau.server.bots` (and the hard bot's search in
:mod:`maumau.server.search`): given a position they choose a move. The table asks them
when a bot-played seat is on turn or may call or catch, and applies what they choose
like any player's move. The hard bot thinks in a worker thread, one at a time for the
whole server, on a copy of the position; if the position changed meanwhile it thinks
again (see :meth:`.timer.Timer.think`).

:class:`BotSeats` keeps when the bot on turn moves, when each bot-played seat calls
or catches, and which seat a hard bot is to think for.
"""

from __future__ import annotations

import random

import trio

from maumau.protocol.cards import CODE_OF

from .. import bots
from ..rules import (
    Action,
    MatchState,
    Play,
)
from .claims import Claims
from .seating import Seating
from .state import MIN_BOT_CATCH_DELAY, TableState


class BotSeats:
    """Playing the seats bots hold (see the module docstring)."""

    def __init__(self, state: TableState, seating: Seating, claims: Claims) -> None:
        self.state = state
        self.seating = seating
        self.claims = claims
        self.due: float | None = None  # when the bot on turn moves
        self.catch_due: dict[int, float] = {}  # when each bot-played seat calls or catches
        self.thinking: tuple[int, int] | None = None  # (seat, action_no) a hard bot ponders

    def controlled(self, seat: int, now: float) -> bool:
        """Whether a bot plays ``seat`` now."""
        state = self.seating.seats[seat]
        if state.bot or state.away or state.session is None:
            return True
        gone = state.disconnected_at
        return gone is not None and now - gone >= self.state.settings.reconnect_grace_s

    def plan(self, match: MatchState | None, now: float) -> None:
        """When the bots move, call and catch next, after a change."""
        if match is not None and match.phase in ("playing", "ending"):
            # Bots move on their turn; they catch and call also in a round's final
            # window (phase "ending"), when nobody is on turn.
            if match.phase == "playing" and self.controlled(match.turn, now):
                if self.due is None:
                    self.due = now + self.state.host.bot_delay
            else:
                self.due = None
            catch_due = self.catch_due
            for i in range(len(self.seating.seats)):
                if i in catch_due or not self.controlled(i, now):
                    continue
                if bots.catches(match, i) or bots.own_call(match, i):
                    level = self.seating.level(i)
                    delay = max(MIN_BOT_CATCH_DELAY, bots.catch_delay(level, self.state.rng))
                    catch_due[i] = now + delay
        else:
            self.due = None

    def postpone(self, shift: float) -> None:
        """The table's clock stopped for ``shift`` seconds: so did the bots."""
        if self.due is not None:
            self.due += shift
        for seat in self.catch_due:
            self.catch_due[seat] += shift

    def _forgets(self, seat: int) -> float:
        forced = self.state.host.bot_forgets
        return bots.forgets(self.seating.level(seat)) if forced is None else forced

    def turn(self, match: MatchState) -> Action | None:
        """The move of the bot on turn, now; or None: it has none, or it is to think in
        a thread first (the hard bot searches for up to ``server.hard_budget`` seconds;
        :attr:`thinking` says for which seat and position)."""
        seat = match.turn
        level = self.seating.level(seat)
        budget = self.state.host.hard_budget
        if level == "hard" and budget > 0:
            self.thinking = (seat, match.action_no)
            return None
        action = bots.choose_turn_action(match, seat, self.state.rng, level, budget_s=budget)
        return None if action is None else self.with_forgetting(match, action)

    async def ponder(self, match: MatchState, seat: int) -> Action | None:
        """The hard bot's move for ``seat``, thought in a worker thread on a copy of
        the position."""
        rng = random.Random(self.state.rng.random())
        position = match.clone()
        host = self.state.host
        return await trio.to_thread.run_sync(
            lambda: bots.choose_turn_action(position, seat, rng, "hard", budget_s=host.hard_budget),
            limiter=host.thinking,
        )

    def fallback(self, match: MatchState, seat: int) -> Action | None:
        """A move for ``seat`` when the one thought of cannot be played."""
        return bots.choose_turn_action(match, seat, self.state.rng, bots.DEFAULT_LEVEL)

    def with_forgetting(self, match: MatchState, action: Action) -> Action:
        """Apply the server's ``--bot-forgets`` override to a bot's play, if it has one."""
        forced = self.state.host.bot_forgets
        if forced is None or not isinstance(action, Play) or len(match.hands[action.seat]) != 2:
            return action
        if self.state.rng.random() < forced:
            return Play(action.seat, action.card, action.named, None)
        if action.call is None:
            hand = match.hands[action.seat]
            kept = hand[0] if hand[1] == action.card else hand[1]
            jack = self.state.settings.is_classic and CODE_OF[kept].startswith("J")
            return Play(action.seat, action.card, action.named, "maumau" if jack else "mau")
        return action

    def call_and_catch(self, match: MatchState, seat: int, now: float) -> None:
        """The bot playing ``seat`` says Mau and catches, as its level would."""
        arbiter = self.claims.arbiter
        rng = self.state.rng
        own = bots.own_call(match, seat)
        if own is not None and rng.random() >= self._forgets(seat):
            arbiter.add("call", seat, now, 0.0, call=own.call)
        catches = bots.catches(match, seat)
        if catches and bots.notices(self.seating.level(seat), rng):
            for catch in catches:
                arbiter.add("catch", seat, now, 0.0, target=catch.target)

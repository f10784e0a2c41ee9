"""Bots at a table: the seats they play and when they move, call and catch.

The bots' minds are in :mod:`maumau.server.bots` (and the hard bot's search in
:mod:`maumau.server.search`): given a position they choose a move. The table asks them
when a bot-played seat is on turn or may call or catch, and applies what they choose
like any player's move. The hard bot thinks in a worker thread, one at a time for the
whole server, on a copy of the position; if the position changed meanwhile it thinks
again.
"""

from __future__ import annotations

import random

import trio

from maumau.protocol.cards import CODE_OF

from .. import bots
from ..rules import (
    Action,
    IllegalAction,
    MatchState,
    Play,
)
from .match import MatchFlow


class BotSeats(MatchFlow):
    """Playing the seats bots hold (see the module docstring)."""

    def _forgets(self, seat: int) -> float:
        forced = self.host.bot_forgets
        return bots.forgets(self.level(seat)) if forced is None else forced

    def _bot_turn(self, match: MatchState) -> None:
        """The bot on turn moves now, or asks :meth:`run` to let it think in a thread
        (the hard bot searches for up to ``server.hard_budget`` seconds)."""
        seat = match.turn
        level = self.level(seat)
        if level == "hard" and self.host.hard_budget > 0:
            self._thinking = (seat, match.action_no)
            return
        action = bots.choose_turn_action(
            match, seat, self.rng, level, budget_s=self.host.hard_budget
        )
        if action is not None:
            self._turn_action(self._with_forgetting(match, action))

    async def _think(self, seat: int, action_no: int) -> None:
        match = self.match
        if match is None or match.action_no != action_no or match.turn != seat:
            return
        rng = random.Random(self.rng.random())
        position = match.clone()
        action = await trio.to_thread.run_sync(
            lambda: bots.choose_turn_action(
                position, seat, rng, "hard", budget_s=self.host.hard_budget
            ),
            limiter=self.host.thinking,
        )
        if self.closed or self.match is not match or match.phase != "playing":
            return
        if self.paused_at is not None:
            return  # the bot moves after the pause (resume schedules it again)
        if match.action_no != action_no or match.turn != seat or action is None:
            self._schedule()  # the position changed meanwhile: think again
            return
        try:
            self._turn_action(self._with_forgetting(match, action))
        except IllegalAction:
            fallback = bots.choose_turn_action(match, seat, self.rng, bots.DEFAULT_LEVEL)
            if fallback is not None:
                self._turn_action(fallback)

    def _with_forgetting(self, match: MatchState, action: Action) -> Action:
        """Apply the server's ``--bot-forgets`` override to a bot's play, if it has one."""
        forced = self.host.bot_forgets
        if forced is None or not isinstance(action, Play) or len(match.hands[action.seat]) != 2:
            return action
        if self.rng.random() < forced:
            return Play(action.seat, action.card, action.named, None)
        if action.call is None:
            hand = match.hands[action.seat]
            kept = hand[0] if hand[1] == action.card else hand[1]
            jack = self.settings.is_classic and CODE_OF[kept].startswith("J")
            return Play(action.seat, action.card, action.named, "maumau" if jack else "mau")
        return action

    def _bot_claims(self, match: MatchState, seat: int, now: float) -> None:
        own = bots.own_call(match, seat)
        if own is not None and self.rng.random() >= self._forgets(seat):
            self.arbiter.add("call", seat, now, 0.0, call=own.call)
        catches = bots.catches(match, seat)
        if catches and bots.notices(self.level(seat), self.rng):
            for catch in catches:
                self.arbiter.add("catch", seat, now, 0.0, target=catch.target)
        self._schedule()

"""The hard bot's rollouts: a fast simulator that plays a dealt round to its end, and
the value of where it ends.

:func:`rollout` plays one world: the candidate move for the seat on turn, then every
seat follows the *rollout policy*, the normal bot's heuristic (play the matching card
one would least like to be left holding, staying in one's strongest suit; hit a
player about to go out with a 7, 8, Skip or Draw Two; keep Jacks and wilds for when
nothing else fits; name the suit held most). It works on plain lists of card codes,
far faster than the rules engine, and plays calls and catches as if everybody said
Mau. :meth:`Sim.value` scores the end by the seat's *match equity* (:func:`equity`).
How the search uses them is in :mod:`maumau.server.search`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from maumau.protocol.cards import (
    NO_SUIT,
    POINTS_OF,
    RANK_7,
    RANK_8,
    RANK_9,
    RANK_JACK,
    RANK_OF,
    SUIT_OF,
    SYMBOL_DRAW_TWO,
    SYMBOL_REVERSE,
    SYMBOL_SKIP,
    SYMBOL_WILD,
    SYMBOL_WILD_DRAW_FOUR,
)

from .rules import Action, Draw, MatchState, Pass, Play

__all__ = ["Sim", "equity", "move_key", "rollout"]

_PENALTY_SEVEN = 1
_PENALTY_DRAW_TWO = 2
_PENALTY_WILD_DRAW_FOUR = 3

TEMPERATURE = 1.7
"""The equity model's temperature, in typical round gains (fitted on normal-bot matches)."""
MAX_STEPS = 1000
"""Turns a rollout may last before it is scored as it stands."""
_HAND_POINTS = {True: 16.0, False: 27.0}
"""Typical points left in a losing hand at the end of a round (classic, American)."""


def equity(scores: Sequence[int], seat: int, target: int, temperature: float) -> float:
    """The modelled chance that ``seat`` wins the match from ``scores``."""
    best = max(scores)
    if best >= target:
        return 1.0 if scores[seat] >= target and scores[seat] == best else 0.0
    total = 0.0
    mine = 0.0
    for i, score in enumerate(scores):
        w = math.exp((score - best) / temperature)
        total += w
        if i == seat:
            mine = w
    return mine / total


_DRAW = (-1, -1)

_PASS = (-2, -2)


def move_key(action: Action) -> tuple[int, int]:
    """A candidate as the simulator takes it: (card, named), or draw, or pass."""
    if isinstance(action, Play):
        return action.card, action.named
    if isinstance(action, Draw):
        return _DRAW
    if isinstance(action, Pass):
        return _PASS
    raise ValueError(f"the search cannot try {action!r}")


class Sim:
    """The public facts of one decision, and rollouts from them in a dealt world."""

    def __init__(self, state: MatchState, seat: int) -> None:
        settings = state.settings
        self.seat = seat
        self.n = state.seats
        self.classic = settings.is_classic
        self.jack_on_jack = settings.jack_on_jack
        self.stack = settings.stack_draw_two
        self.two_skip = state.seats == 2 and settings.reverse_skips_with_two
        self.discard = state.discard
        self.turn = state.turn
        self.direction = state.direction
        self.named = state.named
        self.penalty = state.penalty
        self.pkind = state.penalty_kind
        self.drawn = state.drawn
        self.scores = list(state.scores)
        self.target = settings.target_score
        self.temperature = TEMPERATURE * _HAND_POINTS[self.classic] * (state.seats - 1)

    def value(
        self, move: tuple[int, int], hands: list[list[int]], stock: list[int], keys: list[float]
    ) -> float:
        """The seat's equity after making ``move`` and playing the round out."""
        own = [h[:] for h in hands]
        winner = rollout(self, own, stock[:], self.discard[:], keys, move)
        if winner < 0:
            return self._unfinished(own)
        points = 0
        for i, hand in enumerate(own):
            if i != winner:
                for card in hand:
                    points += POINTS_OF[card]
        scores = self.scores[:]
        scores[winner] += points
        return 100.0 * equity(scores, self.seat, self.target, self.temperature)

    def _unfinished(self, hands: list[list[int]]) -> float:
        # Nobody went out in time: value the hands as they stand, as if everybody
        # were equally likely to go out next.
        n = self.n
        share = 0.0
        for winner in range(n):
            points = sum(POINTS_OF[c] for i, h in enumerate(hands) if i != winner for c in h)
            scores = self.scores[:]
            scores[winner] += points
            share += equity(scores, self.seat, self.target, self.temperature)
        return 100.0 * share / n


def rollout(
    sim: Sim,
    hands: list[list[int]],
    stock: list[int],
    discard: list[int],
    keys: list[float],
    move: tuple[int, int],
) -> int:
    """Make ``move`` for the seat on turn, then play the round to its end with the
    rollout policy for every seat. Works on the lists in place. Returns the seat that
    went out, or -1 if the round outlasted ``MAX_STEPS`` turns. Calls and catches
    are not played out: everybody is assumed to say Mau. Reshuffles order the stock
    by ``keys`` (random per world), so every candidate sees the same ones."""
    classic = sim.classic
    n = sim.n
    turn = sim.turn
    direction = sim.direction
    named = sim.named
    penalty = sim.penalty
    pkind = sim.pkind
    drawn = sim.drawn
    jack_on_jack = sim.jack_on_jack
    stack = sim.stack
    two_skip = sim.two_skip
    rank_of = RANK_OF
    suit_of = SUIT_OF
    points_of = POINTS_OF
    key = keys.__getitem__
    top = discard[-1]
    if classic:
        wild_rank = RANK_JACK
        attack_a, attack_b = RANK_7, RANK_8
        reverse = RANK_9
        answer = RANK_7
    else:
        wild_rank = SYMBOL_WILD
        attack_a, attack_b = SYMBOL_DRAW_TWO, SYMBOL_SKIP
        reverse = SYMBOL_REVERSE
        answer = SYMBOL_DRAW_TWO
    forced_card, forced_name = move
    first = True
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        hand = hands[turn]
        card = -1
        name = NO_SUIT
        if first:
            first = False
            if forced_card >= 0:
                card, name = forced_card, forced_name
                drawn = -1
            elif forced_card == _PASS[0]:
                drawn = -1
                turn = (turn + direction) % n
                continue
            else:
                drawn = -1
                if penalty:
                    for _ in range(penalty):
                        if not stock:
                            if len(discard) <= 1:
                                break
                            stock.extend(discard[:-1])
                            del discard[:-1]
                            stock.sort(key=key)
                        hand.append(stock.pop())
                    penalty = pkind = 0
                    turn = (turn + direction) % n
                    continue
                # A plain draw: the card is played at once if it fits.
                if not stock and len(discard) > 1:
                    stock.extend(discard[:-1])
                    del discard[:-1]
                    stock.sort(key=key)
                if not stock:
                    turn = (turn + direction) % n
                    continue
                c = stock.pop()
                hand.append(c)
                if not _fits(c, top, named, classic, jack_on_jack):
                    turn = (turn + direction) % n
                    continue
                card = c
        elif drawn >= 0:
            card = drawn
            drawn = -1
        elif penalty:
            if pkind != _PENALTY_WILD_DRAW_FOUR:
                for c in hand:
                    if rank_of[c] == answer:
                        card = c
                        break
            if card < 0:
                # Take the whole penalty; the turn is lost.
                for _ in range(penalty):
                    if not stock:
                        if len(discard) <= 1:
                            break
                        stock.extend(discard[:-1])
                        del discard[:-1]
                        stock.sort(key=key)
                    hand.append(stock.pop())
                penalty = pkind = 0
                turn = (turn + direction) % n
                continue
        else:
            top_rank = rank_of[top]
            top_suit = suit_of[top]
            nxt = (turn + direction) % n
            close = len(hands[nxt]) <= 2
            back_close = n > 2 and len(hands[(turn - direction) % n]) <= 2
            held = [0, 0, 0, 0]
            for c in hand:
                s = suit_of[c]
                if s >= 0:
                    held[s] += 1
            best = -1
            best_score = -1000
            wild = -1
            for c in hand:
                r = rank_of[c]
                if classic:
                    if r == RANK_JACK:
                        if top_rank != RANK_JACK or jack_on_jack:
                            wild = c
                        continue
                    if top_rank == RANK_JACK:
                        if suit_of[c] != named:
                            continue
                    elif suit_of[c] != top_suit and r != top_rank:
                        continue
                else:
                    if r >= SYMBOL_WILD:
                        if wild < 0 or points_of[c] > points_of[wild]:
                            wild = c
                        continue
                    if top_rank >= SYMBOL_WILD:
                        if named != NO_SUIT and suit_of[c] != named:
                            continue
                    elif suit_of[c] != top_suit and r != top_rank:
                        continue
                score = points_of[c] + 2 * held[suit_of[c]]
                if close and r in (attack_a, attack_b):
                    score += 30
                if r == reverse and n > 2:
                    if close and not back_close:
                        score += 25
                    elif back_close and not close:
                        score -= 25
                if score > best_score:
                    best, best_score = c, score
            if best >= 0:
                card = best
            elif wild >= 0:
                card = wild
            else:
                if not stock and len(discard) > 1:
                    stock.extend(discard[:-1])
                    del discard[:-1]
                    stock.sort(key=key)
                if not stock:
                    turn = (turn + direction) % n
                    continue
                c = stock.pop()
                hand.append(c)
                if not _fits(c, top, named, classic, jack_on_jack):
                    turn = (turn + direction) % n
                    continue
                card = c
        # Play ``card``.
        hand.remove(card)
        discard.append(card)
        top = card
        if not hand:
            return turn
        r = rank_of[card]
        if r == wild_rank or (not classic and r == SYMBOL_WILD_DRAW_FOUR):
            named = name if name != NO_SUIT else _best_suit(hand)
        else:
            named = NO_SUIT
        nxt_seat = (turn + direction) % n
        if classic:
            if r == RANK_7:
                penalty += 2
                pkind = _PENALTY_SEVEN
            elif r == RANK_8 or (r == RANK_9 and two_skip):
                nxt_seat = (nxt_seat + direction) % n
            elif r == RANK_9:
                direction = -direction
                nxt_seat = (turn + direction) % n
        elif r >= SYMBOL_SKIP:
            if r == SYMBOL_SKIP or (r == SYMBOL_REVERSE and two_skip):
                nxt_seat = (nxt_seat + direction) % n
            elif r == SYMBOL_REVERSE:
                direction = -direction
                nxt_seat = (turn + direction) % n
            elif r == SYMBOL_DRAW_TWO and stack:
                penalty += 2
                pkind = _PENALTY_DRAW_TWO
            elif r in (SYMBOL_DRAW_TWO, SYMBOL_WILD_DRAW_FOUR):
                victim = hands[nxt_seat]
                for _ in range(2 if r == SYMBOL_DRAW_TWO else 4):
                    if not stock:
                        if len(discard) <= 1:
                            break
                        stock.extend(discard[:-1])
                        del discard[:-1]
                        stock.sort(key=key)
                    victim.append(stock.pop())
                nxt_seat = (nxt_seat + direction) % n
        turn = nxt_seat
    return -1


def _fits(card: int, top: int, named: int, classic: bool, jack_on_jack: bool) -> bool:
    """Whether ``card`` may be played on ``top`` (no penalty pending)."""
    r = RANK_OF[card]
    top_rank = RANK_OF[top]
    if classic:
        if r == RANK_JACK:
            return top_rank != RANK_JACK or jack_on_jack
        if top_rank == RANK_JACK:
            return SUIT_OF[card] == named
        return SUIT_OF[card] == SUIT_OF[top] or r == top_rank
    if r >= SYMBOL_WILD:
        return True
    if top_rank >= SYMBOL_WILD:
        return named == NO_SUIT or SUIT_OF[card] == named
    return SUIT_OF[card] == SUIT_OF[top] or r == top_rank


def _best_suit(hand: list[int]) -> int:
    """The suit or colour to name: the one held most (by count, then points)."""
    weight = [0, 0, 0, 0]
    for c in hand:
        s = SUIT_OF[c]
        if s != NO_SUIT:
            weight[s] += 100 + POINTS_OF[c]
    best = 0
    for s in (1, 2, 3):
        if weight[s] > weight[best]:
            best = s
    return best

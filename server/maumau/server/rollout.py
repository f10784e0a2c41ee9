"""The hard bot's rollouts: a fast simulator that plays a dealt round to its end, and
the value of where it ends.

:func:`rollout` plays one world: the candidate move for the seat on turn, then every
seat follows the *rollout policy*, the normal bot's heuristic (play the matching card
one would least like to be left holding, staying in one's strongest suit; hit a
player about to go out with a 7, 8, Skip or Draw Two; keep Jacks and wilds for when
nothing else fits; name the suit held most; play a card just drawn; never challenge a
Wild Draw Four). It works on plain lists of card codes, far faster than the rules
engine, and plays calls and catches as if everybody said Mau. :meth:`Sim.value`
scores the end by the seat's *match equity* (:func:`equity`), or by who has won the
match if the round decides it. How the search uses them is in
:mod:`maumau.server.search`.

Apart from calls and catches, the simulator plays the rules as the engine
(:mod:`maumau.server.rules`) does: the same moves are legal, and each move leaves the
same hands, stock, discard pile, turn, direction, named suit or colour, pending
penalty (a challengeable Wild Draw Four included) and, at the end, the same scores and
the same match winner. Only a reshuffle orders the stock otherwise: by the world's
``keys``, where the engine shuffles with the match's generator. A test holds the two
to this, move by move (``tests/test_rollout_engine.py``, through ``watch``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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

from .rules import Action, Challenge, Draw, MatchState, Pass, Play
from .rules.events import PENALTY_DRAW_TWO, PENALTY_SEVEN, PENALTY_WILD_DRAW_FOUR

__all__ = ["Move", "Position", "Sim", "equity", "legal_moves", "move_key", "rollout"]

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


Move = tuple[int, int]
"""A move as the simulator takes it: (card, named) for a play, or one of the keys below."""

_DRAW: Move = (-1, -1)
_PASS: Move = (-2, -2)
_CHALLENGE: Move = (-3, -3)


def move_key(action: Action) -> Move:
    """A candidate as the simulator takes it: (card, named), or draw, pass or challenge."""
    if isinstance(action, Play):
        return action.card, action.named
    if isinstance(action, Draw):
        return _DRAW
    if isinstance(action, Pass):
        return _PASS
    if isinstance(action, Challenge):
        return _CHALLENGE
    raise ValueError(f"the search cannot try {action!r}")


@dataclass(frozen=True, slots=True)
class Position:
    """Everything the simulator knows at one move of a rollout, as ``watch`` sees it:
    the seat on turn, the direction, the suit or colour named (``NO_SUIT`` if none),
    the pending penalty and its kind (the engine's ``PENALTY_*``), the card just drawn
    (-1 if none), whether a pending Wild Draw Four was played against the rules
    (``guilty``), the cards, the legal ``moves`` and the move the rollout would make
    (``proposal``: the forced one first, then the rollout policy's)."""

    turn: int
    direction: int
    named: int
    penalty: int
    penalty_kind: int
    drawn: int
    guilty: bool
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    moves: tuple[Move, ...]
    proposal: Move


Watch = Callable[[Position], Move]
"""Sees every position of a rollout and picks the move made there (tests only)."""


class Sim:
    """The public facts of one decision, and rollouts from them in a dealt world.

    A Wild Draw Four pending at the start is taken as played by the rules (whether it
    was is hidden); the hard bot does not search that decision anyway.
    """

    def __init__(self, state: MatchState, seat: int) -> None:
        settings = state.settings
        self.seat = seat
        self.n = state.seats
        self.classic = settings.is_classic
        self.jack_on_jack = settings.jack_on_jack
        self.stack = settings.stack_draw_two
        self.challenge = settings.wild_draw_four_challenge
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
        self.last_deal = bool(settings.deals) and state.round_no >= settings.deals
        self.temperature = TEMPERATURE * _HAND_POINTS[self.classic] * (state.seats - 1)

    def value(
        self, move: Move, hands: list[list[int]], stock: list[int], keys: list[float]
    ) -> float:
        """The seat's equity after making ``move`` and playing the round out."""
        own = [h[:] for h in hands]
        winner = rollout(self, own, stock[:], self.discard[:], keys, move)
        if winner < 0:
            return self._unfinished(own)
        return self._worth(self.scores_after(own, winner), winner)

    def scores_after(self, hands: list[list[int]], winner: int) -> list[int]:
        """The match scores once ``winner`` has gone out: they win the points of every
        other hand."""
        points = 0
        for i, hand in enumerate(hands):
            if i != winner:
                for card in hand:
                    points += POINTS_OF[card]
        scores = self.scores[:]
        scores[winner] += points
        return scores

    def match_winner(self, scores: list[int], winner: int) -> int:
        """Who has won the match when ``winner`` went out and the scores are ``scores``,
        as the engine decides it; -1 if the match goes on. The round's winner wins at
        the target; after the last deal the highest score wins (of several, the
        round's winner if among them, else the lowest seat)."""
        if scores[winner] >= self.target:
            return winner
        if self.last_deal:
            best = max(scores)
            return winner if scores[winner] == best else scores.index(best)
        return -1

    def _worth(self, scores: list[int], winner: int) -> float:
        """The seat's equity at ``scores``, ``winner`` having won the round."""
        if self.last_deal or scores[winner] >= self.target:
            return 100.0 if self.match_winner(scores, winner) == self.seat else 0.0
        return 100.0 * equity(scores, self.seat, self.target, self.temperature)

    def _unfinished(self, hands: list[list[int]]) -> float:
        # Nobody went out in time: value the hands as they stand, as if everybody
        # were equally likely to go out next.
        n = self.n
        share = 0.0
        for winner in range(n):
            share += self._worth(self.scores_after(hands, winner), winner)
        return share / n


def rollout(
    sim: Sim,
    hands: list[list[int]],
    stock: list[int],
    discard: list[int],
    keys: list[float],
    move: Move,
    watch: Watch | None = None,
) -> int:
    """Make ``move`` for the seat on turn, then play the round to its end with the
    rollout policy for every seat. Works on the lists in place. Returns the seat that
    went out, or -1 if the round outlasted ``MAX_STEPS`` turns. Calls and catches
    are not played out: everybody is assumed to say Mau. Reshuffles order the stock
    by ``keys`` (random per world), so every candidate sees the same ones.

    ``watch``, if given, is shown every :class:`Position` (before each move) and
    makes the move it returns instead: tests play the engine alongside with it.
    """
    classic = sim.classic
    n = sim.n
    turn = sim.turn
    direction = sim.direction
    named = sim.named
    penalty = sim.penalty
    pkind = sim.pkind
    drawn = sim.drawn
    guilty = False
    jack_on_jack = sim.jack_on_jack
    stack = sim.stack
    challenge = sim.challenge
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
    card, name = move
    first = True
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        hand = hands[turn]
        # Choose the move: the forced one, else the rollout policy's.
        if first:
            first = False
        elif drawn >= 0:
            card, name = drawn, _name(drawn, hand, wild_rank)
        elif penalty:
            card, name = -1, -1  # draw: take the penalty
            if pkind != PENALTY_WILD_DRAW_FOUR:
                for c in hand:
                    if rank_of[c] == answer:
                        card = c
                        break
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
                card, name = best, NO_SUIT
            elif wild >= 0:
                card, name = wild, _best_suit(hand, wild)
            else:
                card, name = -1, -1  # draw
        if watch is not None:
            card, name = watch(
                Position(
                    turn,
                    direction,
                    named,
                    penalty,
                    pkind,
                    drawn,
                    guilty,
                    tuple(tuple(h) for h in hands),
                    tuple(stock),
                    tuple(discard),
                    tuple(legal_moves(sim, hand, top, named, penalty, pkind, drawn)),
                    (card, name),
                )
            )
        if card < 0:
            if card == -1:  # draw
                if penalty:
                    # Take the whole penalty; the turn is lost.
                    _give(hand, penalty, stock, discard, key)
                    penalty = pkind = 0
                    turn = (turn + direction) % n
                    continue
                if not stock and len(discard) > 1:
                    _reshuffle(stock, discard, key)
                c = -1
                if stock:
                    c = stock.pop()
                    hand.append(c)
                    if not _fits(c, top, named, classic, jack_on_jack):
                        c = -1
                    elif watch is not None:
                        drawn = c  # the watcher plays it or passes, at the next position
                        continue
                if c < 0:
                    turn = (turn + direction) % n
                    continue
                card, name = c, _name(c, hand, wild_rank)  # the policy plays what it drew
            else:
                if card == -3:  # challenge
                    penalty = pkind = 0
                    if guilty:
                        # The Wild Draw Four's player draws 4; the challenger plays on.
                        _give(hands[(turn - direction) % n], 4, stock, discard, key)
                        continue
                    _give(hand, 6, stock, discard, key)
                # A pass, or a challenge that failed: the turn is over.
                drawn = -1
                turn = (turn + direction) % n
                continue
        # Play ``card``.
        drawn = -1
        hand.remove(card)
        discard.append(card)
        r = rank_of[card]
        if challenge and r == SYMBOL_WILD_DRAW_FOUR:
            # Played against the rules if the hand still holds the colour it went on.
            colour = named if rank_of[top] >= SYMBOL_WILD else suit_of[top]
            guilty = colour != NO_SUIT and any(suit_of[c] == colour for c in hand)
        top = card
        if not hand:
            return turn
        named = name  # (NO_SUIT but for a Jack or wild)
        nxt_seat = (turn + direction) % n
        if classic:
            if r == RANK_7:
                penalty += 2
                pkind = PENALTY_SEVEN
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
                pkind = PENALTY_DRAW_TWO
            elif r == SYMBOL_WILD_DRAW_FOUR and challenge:
                penalty, pkind = 4, PENALTY_WILD_DRAW_FOUR
            elif r in (SYMBOL_DRAW_TWO, SYMBOL_WILD_DRAW_FOUR):
                _give(hands[nxt_seat], 2 if r == SYMBOL_DRAW_TWO else 4, stock, discard, key)
                nxt_seat = (nxt_seat + direction) % n
        turn = nxt_seat
    return -1


def legal_moves(
    sim: Sim, hand: list[int], top: int, named: int, penalty: int, pkind: int, drawn: int
) -> list[Move]:
    """Every move the seat holding ``hand`` may make (a Jack or wild once per suit or
    colour it can name), as the rollout's ``watch`` is shown them."""
    tail = _DRAW
    if drawn >= 0:
        cards = [drawn]
        tail = _PASS
    elif pkind == PENALTY_WILD_DRAW_FOUR:
        return [_CHALLENGE, _DRAW]
    elif penalty:
        answer = RANK_7 if pkind == PENALTY_SEVEN else SYMBOL_DRAW_TWO
        cards = [c for c in hand if RANK_OF[c] == answer]
    else:
        cards = [c for c in hand if _fits(c, top, named, sim.classic, sim.jack_on_jack)]
    wild_rank = RANK_JACK if sim.classic else SYMBOL_WILD
    moves: list[Move] = []
    for c in dict.fromkeys(cards):
        if RANK_OF[c] in (wild_rank, SYMBOL_WILD_DRAW_FOUR):
            moves.extend((c, suit) for suit in range(4))
        else:
            moves.append((c, NO_SUIT))
    moves.append(tail)
    return moves


def _reshuffle(stock: list[int], discard: list[int], key: Callable[[int], float]) -> None:
    """The discard pile but its top card becomes the (empty) stock, ordered by ``key``."""
    stock.extend(discard[:-1])
    del discard[:-1]
    stock.sort(key=key)


def _give(
    hand: list[int], count: int, stock: list[int], discard: list[int], key: Callable[[int], float]
) -> None:
    """Move up to ``count`` cards from the stock to ``hand``, reshuffling when it runs
    out, as long as there is anything to reshuffle."""
    if len(stock) >= count:
        hand.extend(stock[: -count - 1 : -1])  # popped one by one, as the engine does
        del stock[-count:]
        return
    for _ in range(count):
        if not stock:
            if len(discard) <= 1:
                return
            _reshuffle(stock, discard, key)
        hand.append(stock.pop())


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


def _name(card: int, hand: list[int], wild_rank: int) -> int:
    """What the rollout policy names playing ``card`` from ``hand``: NO_SUIT but for a
    Jack or wild."""
    rank = RANK_OF[card]
    if rank in (wild_rank, SYMBOL_WILD_DRAW_FOUR):
        return _best_suit(hand, card)
    return NO_SUIT


def _best_suit(hand: list[int], played: int) -> int:
    """The suit or colour to name playing ``played``: the one held most once it is
    played (by count, then points)."""
    weight = [0, 0, 0, 0]
    for c in hand:
        s = SUIT_OF[c]
        if s != NO_SUIT and c != played:
            weight[s] += 100 + POINTS_OF[c]
    best = 0
    for s in (1, 2, 3):
        if weight[s] > weight[best]:
            best = s
    return best

"""The hard bot's search: determinized Monte Carlo rollouts of the current round.

A decision on the bot's turn is made like this:

1. **What the seat knows.** Its own hand, the discard pile (every card on it was seen
   when it was played), every player's card count, the stock size and the public
   state (top card, named suit, direction, pending penalty, scores). Everything else,
   the other hands and the stock, is *hidden*: the full deck minus the seat's hand
   minus the discard pile, listed in a canonical order built from public facts only.
2. **Worlds.** A world deals the hidden cards at random, consistent with what the
   seat knows: each opponent gets as many cards as they hold, the rest is the stock.
   The match's own random generator (which decides future reshuffles) is never read;
   every world draws its randomness from the bot's generator.
3. **Rollouts.** In each world every candidate move is made and the round is then
   played to its end by a fast simulator in which every player follows the *rollout
   policy*, the normal bot's heuristic (play the matching card one would least like
   to be left holding, staying in one's strongest suit; hit a player about to go out
   with a 7, 8, Skip or Draw Two; keep Jacks and wilds for when nothing else fits;
   name the suit held most). All candidates see the same world and the same
   reshuffles (common random numbers), so their differences are measured, not their
   luck.
4. **Value.** A round's result is valued by the seat's *match equity* afterwards:
   each player's chance to win the match is modelled from the points they still
   need (a softmax over ``-(target - score) / T``, ``T`` about 1.7 rounds' worth of
   points), and whoever reaches the target has won. So points won count, points
   given away count, and letting a player who is close to the target go out counts
   most.
5. **Choice.** The heuristic's own move is the default. Another candidate replaces
   it only if its mean advantage over the default, less ``Z`` standard errors (of
   the paired differences), is positive: the search corrects the heuristic where the
   evidence is clear instead of chasing noise (with a Jack or wild each named suit
   is a candidate of its own, and the luckiest of many candidates always looks
   good). Candidates that are clearly worse than the default are dropped on the way
   (``PRUNE_Z``), and the search stops early once only the default is left.

This is a rollout algorithm: one step of policy improvement over the heuristic.
The wall clock budget is an upper bound: no world is started unless it is expected
to fit in ``SAFETY`` of the budget, and a world cut short by the clock is not
counted. With ``worlds`` set the search plays at most that many worlds
(deterministic under the bot's generator as long as the budget does not cut it).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from maumau.protocol.cards import (
    AMERICAN_DECK,
    CARD_COUNT,
    CLASSIC_DECK,
)

from .rollout import Sim, equity, move_key
from .rules import Action, MatchState

__all__ = ["SearchResult", "equity", "hidden_pool", "search"]

Z = 1.0
"""Standard errors by which a candidate must beat the heuristic's move."""
PRUNE_EVERY = 24
"""Worlds between two looks at the candidates, to stop playing the clearly worse."""
PRUNE_Z = 2.5
"""A candidate is dropped once its advantage plus this many standard errors is below 0."""
SAFETY = 0.9
"""Share of the budget the search plans to use: the rest is for the caller's own work
and for the slow world that may come."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen move, how many worlds were played, and each candidate's mean value."""

    action: Action
    worlds: int
    values: tuple[float, ...]


def hidden_pool(state: MatchState, seat: int) -> list[int] | None:
    """The cards ``seat`` cannot see, in a canonical order; None if the counts disagree.

    Built only from the seat's hand, the discard pile and the deck: two states that
    differ only in where the hidden cards lie give the same pool.
    """
    deck = CLASSIC_DECK if state.settings.is_classic else AMERICAN_DECK
    counts = Counter(deck)
    counts.subtract(state.hands[seat])
    counts.subtract(state.discard)
    if any(v < 0 for v in counts.values()):
        return None
    pool = sorted(counts.elements())
    hidden = len(state.stock) + sum(len(h) for i, h in enumerate(state.hands) if i != seat)
    return pool if len(pool) == hidden else None


def search(
    state: MatchState,
    seat: int,
    candidates: Sequence[Action],
    rng: random.Random,
    *,
    budget_s: float = 0.2,
    worlds: int | None = None,
    default: Action | None = None,
    z: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult | None:
    """Pick among ``candidates`` (the seat's turn moves) by determinized rollouts.

    ``default`` is the heuristic's move (see the module docstring). Stops after
    ``worlds`` worlds if given, and in any case before a world would overrun
    ``budget_s`` seconds of ``clock`` (tests give one that does not depend on the
    machine's speed). Returns None if no world could be played (no time, or the card
    counts do not add up), so the caller can fall back to its heuristic.
    """
    if z is None:
        z = Z
    start = clock()
    deadline = start + budget_s * SAFETY
    pool = hidden_pool(state, seat)
    if pool is None or not candidates:
        return None
    sim = Sim(state, seat)
    k = len(candidates)
    moves = [move_key(a) for a in candidates]
    d = candidates.index(default) if default is not None and default in candidates else -1
    totals = [0.0] * k
    diffs = [0.0] * k
    squares = [0.0] * k
    counts = [0] * k
    active = list(range(k))
    done = 0
    world_cost = 0.0
    others = [i for i in range(state.seats) if i != seat]
    sizes = [len(state.hands[i]) for i in others]
    hands = state.hands
    keys = [0.0] * CARD_COUNT
    values = [0.0] * k
    rand = rng.random
    while worlds is None or done < worlds:
        t0 = clock()
        # Stop unless one more world surely fits (with a margin for a slow one).
        if t0 + 1.5 * world_cost + 0.001 > deadline:
            break
        cards = pool[:]
        rng.shuffle(cards)
        dealt: list[list[int]] = [[] for _ in hands]
        dealt[seat] = hands[seat]
        at = 0
        for i, size in zip(others, sizes, strict=True):
            dealt[i] = cards[at : at + size]
            at += size
        stock = cards[at:]
        for c in range(CARD_COUNT):
            keys[c] = rand()
        late = False
        for i in active:
            values[i] = sim.value(moves[i], dealt, stock, keys)
            if clock() > deadline:
                late = True  # out of time in the middle of a world: it does not count
                break
        if late:
            break
        vd = values[d] if d >= 0 else 0.0
        for i in active:
            totals[i] += values[i]
            diff = values[i] - vd
            diffs[i] += diff
            squares[i] += diff * diff
            counts[i] += 1
        done += 1
        cost = clock() - t0
        world_cost = cost if done == 1 else max(cost, 0.8 * world_cost + 0.2 * cost)
        if d >= 0 and done % PRUNE_EVERY == 0:
            # Drop the candidates that are clearly worse than the default.
            active = [
                i for i in active if i == d or _bound(i, diffs, squares, counts, -PRUNE_Z) >= 0
            ]
            if len(active) == 1:
                break
    if done == 0:
        return None
    means = tuple(totals[i] / counts[i] if counts[i] else -math.inf for i in range(k))
    if d < 0 or done < 2:
        best = max(range(k), key=lambda i: means[i])
        return SearchResult(candidates[best], done, means)
    best = d
    best_bound = 0.0
    for i in range(k):
        if i != d and counts[i] >= 2:
            bound = _bound(i, diffs, squares, counts, z)
            if bound > best_bound:
                best, best_bound = i, bound
    return SearchResult(candidates[best], done, means)


def _bound(i: int, diffs: list[float], squares: list[float], counts: list[int], z: float) -> float:
    """Candidate ``i``'s mean advantage over the default, less ``z`` standard errors,
    over the worlds it was played in (the default is played in every world)."""
    n = counts[i]
    if n < 2:
        return 0.0
    mean = diffs[i] / n
    var = max(0.0, squares[i] / n - mean * mean) / (n - 1)
    return mean - z * math.sqrt(var)

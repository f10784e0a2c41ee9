"""The hard bot's simulator against the rules engine, move by move.

The hard bot's search does not play its rollouts with the rules engine: it plays them
with :mod:`maumau.server.rollout`, a second, fast implementation of the rules on
plain lists. The engine is the authority, so this is a differential test:

1. A real match is dealt by the engine (a seeded :func:`new_match` at a table drawn
   with its house rules and seat count) and played by random moves for a while, into
   a later round sometimes, so that scores, penalties and drawn cards are under way.
2. The position is handed to the simulator as the search does it: a
   :class:`~maumau.server.rollout.Sim` of the state for the seat on turn, with copies
   of the hands, the stock and the discard pile, a first move made into a key with
   :func:`~maumau.server.rollout.move_key`, and random reshuffle keys.
3. The round is played out in both with the same choices. The rollout's ``watch``
   sees the simulator's :class:`~maumau.server.rollout.Position` before each move,
   and it must equal the engine's state: every hand card for card and in order, the
   stock in order, the discard pile, the seat on turn, the direction, the suit or
   colour named, the pending penalty and its kind, the card just drawn, and whether a
   pending Wild Draw Four was played against the rules. The simulator's legal moves
   must be the engine's turn actions, and the rollout policy's own move must be one
   of them. The move made is then the policy's or, as often, a random legal one (so
   passes, challenges and every name happen too), in the engine as in the simulator.
4. When someone goes out the round ends in both: the same winner, the same hands,
   the scores :meth:`~maumau.server.rollout.Sim.scores_after` gives are the engine's,
   and :meth:`~maumau.server.rollout.Sim.match_winner` says who has won the match
   as the engine does (at the target, or after the last deal).

What the simulator leaves out is left out here too: nobody catches (the simulator
assumes everybody says Mau), and the engine's call windows are closed as they open.
A reshuffle is the one thing the two do differently (the engine shuffles with the
match's generator, the simulator orders by the world's keys), so the engine is given
a generator whose shuffle orders by the same keys: the stocks then stay equal card for
card. Last, the rollout the search really runs (no ``watch``, the policy alone) must
end where the watched one that always follows the policy ends.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maumau.protocol.cards import CARD_COUNT
from maumau.server.rollout import Move, Position, Sim, move_key, rollout
from maumau.server.rules import (
    Action,
    Challenge,
    Draw,
    EndCallWindow,
    MatchState,
    NextRound,
    Pass,
    Play,
    Settings,
    Variant,
    apply,
    legal_actions,
    new_match,
)
from maumau.server.rules.events import PENALTY_WILD_DRAW_FOUR, ChallengeDecided, Event


class KeyedShuffle(random.Random):
    """A generator whose shuffle orders by per-card keys, as the simulator reshuffles."""

    def __init__(self, keys: list[float]) -> None:
        super().__init__(0)
        self.keys = keys

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = sorted(x, key=self.keys.__getitem__)


def turn_actions(state: MatchState) -> dict[Move, Action]:
    """The engine's moves for the seat on turn, by the simulator's key."""
    moves: dict[Move, Action] = {}
    for action in legal_actions(state, state.turn):
        if isinstance(action, Play | Draw | Pass | Challenge):
            key = move_key(action)
            assert key not in moves, f"two engine actions make the key {key}"
            moves[key] = action
    return moves


def close_windows(state: MatchState, events: list[Event]) -> None:
    """The server's clock has run out on every open call window (nobody catches)."""
    for window in list(state.windows):
        if window in state.windows and not window.elapsed:
            events += apply(state, EndCallWindow(window.id))


def warm_up(settings: Settings, seed: int, moves: int) -> MatchState:
    """A match dealt with ``seed`` and played ``moves`` random moves on (across rounds),
    stopped at the last position where a seat was on turn with no Wild Draw Four
    pending (the hard bot searches no other)."""
    state, _ = new_match(settings, seed)
    rng = random.Random(seed)
    start = state.clone()
    for _ in range(moves):
        if state.phase == "round_over":
            apply(state, NextRound())
        elif state.phase == "match_over":
            break
        else:
            events = apply(state, rng.choice(list(turn_actions(state).values())))
            close_windows(state, events)
        if state.phase == "playing" and state.penalty_kind != PENALTY_WILD_DRAW_FOUR:
            start = state.clone()
    return start


def engine_position(state: MatchState) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "direction": state.direction,
        "named": state.named,
        "penalty": state.penalty,
        "penalty_kind": state.penalty_kind,
        "drawn": state.drawn,
        "guilty": state.wd4_guilty if state.penalty_kind == PENALTY_WILD_DRAW_FOUR else None,
        "hands": tuple(tuple(hand) for hand in state.hands),
        "stock": tuple(state.stock),
        "discard": tuple(state.discard),
    }


def simulated_position(position: Position) -> dict[str, Any]:
    return {
        "turn": position.turn,
        "direction": position.direction,
        "named": position.named,
        "penalty": position.penalty,
        "penalty_kind": position.penalty_kind,
        "drawn": position.drawn,
        "guilty": position.guilty if position.penalty_kind == PENALTY_WILD_DRAW_FOUR else None,
        "hands": position.hands,
        "stock": position.stock,
        "discard": position.discard,
    }


def play_both(
    start: MatchState, rng: random.Random, follow: float, seen: Counter[str]
) -> tuple[int, list[list[int]], list[int], list[int]]:
    """Play the round of ``start`` out in the engine and the simulator alongside,
    checking every position; the policy's move is made with chance ``follow``, else
    a random legal one. Returns what the simulator ends with (winner, hands, stock,
    discard) after checking it against the engine."""
    state = start.clone()
    keys = [rng.random() for _ in range(CARD_COUNT)]
    state.rng = KeyedShuffle(keys)
    sim = Sim(state, state.turn)
    hands = [hand[:] for hand in state.hands]
    stock = state.stock[:]
    discard = state.discard[:]
    first = rng.choice(sorted(turn_actions(state)))
    moves = 0

    def watch(position: Position) -> Move:
        nonlocal moves
        assert state.phase == "playing", f"the engine's round is {state.phase} after {moves}"
        assert simulated_position(position) == engine_position(state), f"after {moves} moves"
        actions = turn_actions(state)
        assert sorted(position.moves) == sorted(actions), f"legal moves after {moves} moves"
        assert position.proposal in actions, f"the policy's move after {moves} moves"
        if moves == 0:
            assert position.proposal == first
            move = first
        elif rng.random() < follow:
            move = position.proposal
        else:
            move = rng.choice(position.moves)
        moves += 1
        events = apply(state, actions[move])
        close_windows(state, events)
        seen[type(actions[move]).__name__] += 1
        for event in events:
            seen[type(event).__name__] += 1
            if isinstance(event, ChallengeDecided):
                seen["challenge upheld" if event.upheld else "challenge failed"] += 1
        if state.penalty > 2 and state.penalty_kind != PENALTY_WILD_DRAW_FOUR:
            seen["stacked penalty"] += 1
        return move

    winner = rollout(sim, hands, stock, discard, keys, first, watch)
    assert moves > 0
    assert hands == state.hands
    assert stock == state.stock
    assert discard == state.discard
    if winner < 0:
        assert state.phase == "playing"
        seen["unfinished"] += 1
        return winner, hands, stock, discard
    assert state.phase in ("round_over", "match_over")
    assert state.last_round is not None and state.last_round.winner == winner
    scores = sim.scores_after(hands, winner)
    assert scores == state.scores
    decided = state.winner if state.phase == "match_over" else -1
    assert sim.match_winner(scores, winner) == decided
    seen["match won" if decided >= 0 else "round won"] += 1
    if decided >= 0 and max(scores) < state.settings.target_score:
        seen["decided by the last deal"] += 1
    return winner, hands, stock, discard


def check(settings: Settings, seed: int, moves: int, seen: Counter[str] | None = None) -> None:
    """One start position, played out three ways: with random and policy moves mixed,
    by the policy alone (watched), and by the policy alone as the search runs it."""
    seen = Counter() if seen is None else seen
    start = warm_up(settings, seed, moves)
    play_both(start, random.Random(seed), 0.5, seen)
    rng = random.Random(seed + 1)
    watched = play_both(start, rng, 1.0, seen)
    # The same keys and first move again, without a watch: as Sim.value plays it.
    rng = random.Random(seed + 1)
    keys = [rng.random() for _ in range(CARD_COUNT)]
    first = rng.choice(sorted(turn_actions(start)))
    hands = [hand[:] for hand in start.hands]
    stock = start.stock[:]
    discard = start.discard[:]
    winner = rollout(Sim(start, start.turn), hands, stock, discard, keys, first)
    assert (winner, hands, stock, discard) == watched


@st.composite
def tables(draw: st.DrawFn, variant: Variant) -> Settings:
    rules: dict[str, Any] = {
        "seats": draw(st.integers(2, 4 if variant == "classic" else 10)),
        "reverse_skips_with_two": draw(st.booleans()),
        "target_score": draw(st.sampled_from([20, 60, 150, 500])),
        "deals": draw(st.sampled_from([0, 0, 1, 2])),
    }
    if variant == "classic":
        rules["jack_on_jack"] = draw(st.booleans())
    else:
        rules["stack_draw_two"] = draw(st.booleans())
        rules["wild_draw_four_challenge"] = draw(st.booleans())
    return Settings.create(variant, **rules)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables("classic"), seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_mau_mau_rollouts_play_as_the_engine(table: Settings, seed: int, moves: int) -> None:
    check(table, seed, moves)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables("american"), seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_american_rollouts_play_as_the_engine(table: Settings, seed: int, moves: int) -> None:
    check(table, seed, moves)


FIXED: list[tuple[Variant, dict[str, Any]]] = [
    ("classic", {"seats": 4}),
    ("classic", {"seats": 2, "reverse_skips_with_two": True}),
    ("classic", {"seats": 2}),
    ("classic", {"seats": 3, "jack_on_jack": False, "target_score": 30, "deals": 2}),
    ("american", {"seats": 4}),
    ("american", {"seats": 2}),
    ("american", {"seats": 2, "reverse_skips_with_two": False}),
    ("american", {"seats": 3, "stack_draw_two": True, "wild_draw_four_challenge": True}),
    ("american", {"seats": 10, "stack_draw_two": True, "deals": 1}),
]


@pytest.mark.parametrize(
    ("variant", "rules"),
    FIXED,
    ids=[f"{v}-" + ",".join(f"{k}={x}" for k, x in rules.items()) for v, rules in FIXED],
)
def test_fixed_tables_and_seeds(variant: Variant, rules: dict[str, Any]) -> None:
    table = Settings.create(variant, **rules)
    for seed in range(4):
        check(table, seed, 37 * seed)


def test_the_comparison_reaches_every_rule() -> None:
    """The moves played above are not a lucky few: over fixed seeds the comparison
    passes through every rule the simulator plays (so a test that passes has checked
    them all)."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        check(Settings.create("classic", seats=3, deals=1), seed, 11 * seed, seen)
        check(Settings.create("classic", seats=2, jack_on_jack=False), seed, 5 * seed, seen)
        american = Settings.create(
            "american", seats=5, stack_draw_two=seed % 2 == 0, wild_draw_four_challenge=True
        )
        check(american, seed, 13 * seed, seen)
        check(Settings.create("american", seats=2, target_score=40), seed, 60, seen)
        crowded = Settings.create("american", seats=8, wild_draw_four_challenge=True)
        check(crowded, seed, 13 * seed, seen)
    wanted = [
        "Play",
        "Draw",
        "Pass",
        "Challenge",
        "Reshuffled",
        "Skipped",
        "Reversed",
        "PenaltyPending",
        "PenaltyDrawn",
        "challenge upheld",
        "challenge failed",
        "stacked penalty",
        "round won",
        "match won",
        "decided by the last deal",
    ]
    missing = [what for what in wanted if not seen[what]]
    assert not missing, f"never reached: {missing} (seen: {dict(seen)})"

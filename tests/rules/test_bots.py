"""The bots: every level plays only legal moves, the hard bot sees only what its seat
may see and keeps to its time budget, and the Mau reaction times are human-like."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from maumau.protocol.cards import RANK_JACK, RANK_OF
from maumau.server import bots
from maumau.server.rules import (
    Action,
    Call,
    Catch,
    Draw,
    EndCallWindow,
    MatchState,
    NextRound,
    Pass,
    Play,
    SayMau,
    Settings,
    apply,
    legal_actions,
    new_match,
)
from maumau.server.search import hidden_pool, search

ROOT = Path(__file__).resolve().parents[2]

TABLES: list[Settings] = [
    Settings.create("classic", seats=4),
    Settings.create("classic", seats=2, reverse_skips_with_two=True),
    Settings.create("classic", seats=3, jack_on_jack=False, target_score=60),
    Settings.create("american", seats=4),
    Settings.create("american", seats=2),
    Settings.create("american", seats=6, stack_draw_two=True, wild_draw_four_challenge=True),
    Settings.create("american", seats=10),
]


def _close_windows(state: MatchState) -> None:
    for window in list(state.windows):
        if window in state.windows and not window.elapsed:
            apply(state, EndCallWindow(window.id))


def turn_states(
    settings: Settings, seed: int, every: int = 3, limit: int = 400
) -> Iterator[MatchState]:
    """States of a match in which a seat is on turn, played by random and normal moves."""
    state, _ = new_match(settings, seed)
    rng = random.Random(seed)
    for step in range(limit):
        if state.phase == "playing":
            seat = state.turn
            if step % every == 0:
                yield state.clone()
            legal = [a for a in legal_actions(state, seat) if not isinstance(a, SayMau | Catch)]
            if rng.random() < 0.3:
                action: Action | None = rng.choice(legal)
            else:
                action = bots.choose_turn_action(state, seat, rng, "normal")
            assert action is not None
            apply(state, action)
            _close_windows(state)
        elif state.phase == "ending":
            _close_windows(state)
        elif state.phase == "round_over":
            apply(state, NextRound())
        else:
            return


def _plain(action: Action) -> Action:
    return Play(action.seat, action.card, action.named) if isinstance(action, Play) else action


def _check_legal(state: MatchState, seat: int, action: Action | None) -> None:
    assert action is not None
    legal = legal_actions(state, seat)
    assert _plain(action) in legal, f"{action} is not among {legal}"
    if isinstance(action, Play) and action.call is not None:
        assert len(state.hands[seat]) == 2
        kept = next(c for c in state.hands[seat] if c != action.card)
        jack = state.settings.is_classic and RANK_OF[kept] == RANK_JACK
        assert action.call == ("maumau" if jack else "mau")
    apply(state.clone(), action)  # the engine accepts it, call included


# --- legal moves ----------------------------------------------------------------------


@pytest.mark.parametrize("settings", TABLES, ids=lambda s: f"{s.variant}-{s.seats}")
def test_every_level_plays_only_legal_moves(settings: Settings) -> None:
    checked = 0
    for seed in range(3):
        for state in turn_states(settings, seed, every=4, limit=240):
            seat = state.turn
            rng = random.Random(seed * 1000 + checked)
            for level in ("easy", "normal"):
                _check_legal(state, seat, bots.choose_turn_action(state, seat, rng, level))
            _check_legal(state, seat, bots.hard_action(state, seat, rng, worlds=2))
            checked += 1
    assert checked > 20


class StepClock:
    """A clock for the hard bot that moves ``step`` seconds each time it is read: the
    search then plays as many worlds on any machine, however busy."""

    def __init__(self, step: float = 0.0001) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_hard_level_with_a_clock_budget_plays_legal_moves() -> None:
    for settings in (TABLES[0], TABLES[3]):
        for state in turn_states(settings, 11, every=9, limit=200):
            seat = state.turn
            action = bots.choose_turn_action(
                state, seat, random.Random(1), "hard", budget_s=0.01, clock=StepClock()
            )
            _check_legal(state, seat, action)


def test_no_move_when_it_is_not_the_bots_turn() -> None:
    state, _ = new_match(Settings.create("classic", seats=3), 5)
    other = (state.turn + 1) % 3
    for level in bots.LEVELS:
        assert bots.choose_turn_action(state, other, random.Random(1), level) is None
    assert bots.hard_action(state, other, random.Random(1), worlds=3) is None


def test_unknown_level_is_refused() -> None:
    state, _ = new_match(Settings.create("classic"), 1)
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose_turn_action(state, state.turn, random.Random(1), "grandmaster")
    with pytest.raises(ValueError):
        bots.forgets("grandmaster")


# --- what the hard bot may know -------------------------------------------------------


def _rearranged(state: MatchState, seat: int, rng: random.Random) -> MatchState:
    """The same public facts and the same hand for ``seat``, with every hidden card
    (other hands and the stock) moved around, and another match generator."""
    other = state.clone()
    hidden = [c for i, h in enumerate(other.hands) if i != seat for c in h] + other.stock
    rng.shuffle(hidden)
    at = 0
    for i in range(other.seats):
        if i != seat:
            size = len(other.hands[i])
            other.hands[i] = hidden[at : at + size]
            at += size
    other.stock = hidden[at:]
    other.rng = random.Random(rng.random())
    return other


@pytest.mark.parametrize("settings", [TABLES[0], TABLES[3], TABLES[5]], ids=str)
def test_hard_bot_decides_only_on_what_its_seat_can_see(settings: Settings) -> None:
    compared = differing_hidden = 0
    for state in turn_states(settings, 3, every=5, limit=250):
        seat = state.turn
        legal = list(
            dict.fromkeys(
                a for a in legal_actions(state, seat) if isinstance(a, Play | Draw | Pass)
            )
        )
        if len(legal) < 2:
            continue
        twin = _rearranged(state, seat, random.Random(compared))
        differing_hidden += twin.hands != state.hands or twin.stock != state.stock
        assert hidden_pool(twin, seat) == hidden_pool(state, seat)
        first = search(state, seat, legal, random.Random(7), worlds=12)
        second = search(twin, seat, legal, random.Random(7), worlds=12)
        assert first is not None and second is not None
        assert first.values == second.values
        assert first.action == second.action
        assert bots.hard_action(state, seat, random.Random(9), worlds=12) == bots.hard_action(
            twin, seat, random.Random(9), worlds=12
        )
        compared += 1
    assert compared >= 5 and differing_hidden == compared


def test_hard_bot_is_deterministic_with_a_fixed_number_of_worlds() -> None:
    for state in turn_states(TABLES[0], 8, every=6, limit=150):
        seat = state.turn
        once = bots.hard_action(state, seat, random.Random(3), worlds=20)
        again = bots.hard_action(state, seat, random.Random(3), worlds=20)
        assert once == again


def test_search_does_not_touch_the_state() -> None:
    for state in turn_states(TABLES[3], 4, every=7, limit=150):
        before = state.to_dict()
        bots.hard_action(state, state.turn, random.Random(1), worlds=5)
        assert state.to_dict() == before


# --- time -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "budget"), [(TABLES[0], 0.1), (TABLES[6], 0.2)], ids=["classic-4", "american-10"]
)
def test_hard_bot_keeps_to_its_budget(settings: Settings, budget: float) -> None:
    """On its clock (one that moves as it is read, so that the test does not depend on
    the machine's speed; scripts/bench-bots measures the wall clock)."""
    worst = 0.0
    timed = 0
    for state in turn_states(settings, 2, every=7, limit=120):
        seat = state.turn
        if len(set(legal_actions(state, seat))) < 3:
            continue
        clock = StepClock(0.001)
        bots.choose_turn_action(state, seat, random.Random(1), "hard", budget_s=budget, clock=clock)
        worst = max(worst, clock.now - clock.step)  # from its first reading to its last
        timed += 1
        if timed == 5:
            break
    assert timed >= 3
    assert budget / 2 < worst <= budget  # it thought, and within its budget


def test_a_budget_of_nothing_falls_back_to_the_heuristic() -> None:
    for state in turn_states(TABLES[0], 6, every=5, limit=120):
        seat = state.turn
        action = bots.choose_turn_action(state, seat, random.Random(4), "hard", budget_s=0.0)
        _check_legal(state, seat, action)


# --- Mau: forgetting, noticing, reacting ----------------------------------------------


def test_forgetting_is_ordered_by_level() -> None:
    assert bots.forgets("hard") == 0.0
    assert 0 < bots.forgets("normal") < bots.forgets("easy") < 0.5
    assert bots.LEVELS == ("easy", "normal", "hard") and bots.DEFAULT_LEVEL == "normal"


def test_reaction_times_are_human() -> None:
    means = {}
    for level in bots.LEVELS:
        rng = random.Random(level)
        delays = [bots.catch_delay(level, rng) for _ in range(4000)]
        assert min(delays) >= bots.MIN_REACTION_S == 0.3
        assert max(delays) < 6
        means[level] = statistics.fmean(delays)
    assert means["easy"] > means["normal"] > means["hard"] > 0.3


def test_noticing_a_forgotten_mau() -> None:
    rng = random.Random(1)
    seen = {level: sum(bots.notices(level, rng) for _ in range(2000)) for level in bots.LEVELS}
    assert seen["hard"] == 2000
    assert seen["easy"] < seen["normal"] < 2000


def _two_cards_on_turn(settings: Settings) -> MatchState:
    for seed in range(200):
        for state in turn_states(settings, seed, every=1, limit=300):
            seat = state.turn
            plays = [a for a in legal_actions(state, seat) if isinstance(a, Play)]
            if len(state.hands[seat]) == 2 and plays and state.drawn < 0:
                return state
    raise AssertionError("no state with two cards on turn")


def test_hard_bot_always_says_mau_and_easy_sometimes_forgets() -> None:
    state = _two_cards_on_turn(TABLES[0])
    seat = state.turn
    calls = {"easy": 0, "hard": 0}
    for i in range(60):
        for level in calls:
            action = bots.choose_turn_action(
                state, seat, random.Random(i), level, budget_s=0.01, clock=StepClock()
            )
            if isinstance(action, Play) and action.call is not None:
                calls[level] += 1
    assert calls["hard"] == 60
    assert 0 < calls["easy"] < 60


def test_late_call_and_catch() -> None:
    state = _two_cards_on_turn(TABLES[0])
    seat = state.turn
    play = next(a for a in legal_actions(state, seat) if isinstance(a, Play))
    apply(state, play)  # no call: forgotten
    if state.phase != "playing":
        pytest.skip("the play ended the round")
    kept = state.hands[seat][0]
    expected: Call = "maumau" if RANK_OF[kept] == RANK_JACK else "mau"
    assert bots.own_call(state, seat) == SayMau(seat, expected)
    catcher = (seat + 1) % state.seats
    assert bots.catches(state, catcher) == [Catch(catcher, seat)]
    assert bots.catches(state, seat) == []
    apply(state, SayMau(seat, expected))
    assert bots.own_call(state, seat) is None
    assert bots.catches(state, catcher) == []


# --- the benchmark script -------------------------------------------------------------


def test_bench_script_runs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench-bots"),
            "--matches",
            "4",
            "--pairings",
            "normal:easy,hard:easy",
            "--budget-ms",
            "5",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "normal vs easy" in result.stdout and "95% CI" in result.stdout
    assert "5 ms per move" in result.stdout

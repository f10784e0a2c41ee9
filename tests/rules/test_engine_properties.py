"""Properties of the rules engine over seeds, player counts and house rules.

A random driver plays whole matches: on each step it picks among the seat on turn's
legal actions, other seats' calls and catches, the server's window and timeout
actions, and the next deal. Along the way it checks that every legal action applies,
that every card is in exactly one place, that no view changes when the cards a
seat cannot see are dealt out differently, and that a seat which has played its last
card can send nothing that changes the match until the round is decided.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maumau.protocol.cards import AMERICAN_DECK, CLASSIC_DECK
from maumau.protocol.sentences import event_line
from maumau.server.rules import (
    Action,
    Catch,
    Challenge,
    Draw,
    EndCallWindow,
    IllegalAction,
    MatchState,
    NextRound,
    Pass,
    Play,
    SayMau,
    Settings,
    TurnTimeout,
    apply,
    event_map,
    legal_actions,
    new_match,
    view,
)
from maumau.server.rules.engine import _playable, _playable_cards

MAX_ACTIONS = 60_000


@st.composite
def table_settings(
    draw: st.DrawFn, target: int | None = None, false_catch: tuple[int, ...] = (0, 0, 1, 2)
) -> Settings:
    variant = draw(st.sampled_from(["classic", "american"]))
    seats = draw(st.integers(2, 4 if variant == "classic" else 10))
    rules: dict[str, Any] = {
        "seats": seats,
        "reverse_skips_with_two": draw(st.booleans()),
        "false_catch_penalty": draw(st.sampled_from(false_catch)),
        "mau_penalty": draw(st.integers(1, 3)),
    }
    if variant == "classic":
        rules["jack_on_jack"] = draw(st.booleans())
    else:
        rules["stack_draw_two"] = draw(st.booleans())
        rules["wild_draw_four_challenge"] = draw(st.booleans())
    if target is not None:
        rules["target_score"] = target
    return Settings.create(variant, **rules)


def random_step(state: MatchState, rng: random.Random) -> Any:
    """One action the server or a player could send now."""
    if state.phase == "round_over":
        return NextRound()
    options: list[Any] = []
    if state.phase == "playing":
        options += legal_actions(state, state.turn)
        if rng.random() < 0.03:
            options.append(TurnTimeout(state.turn))
    other = rng.randrange(state.seats)
    if other != state.turn or state.phase != "playing":
        options += legal_actions(state, other)
    options += [EndCallWindow(w.id) for w in state.windows if not w.elapsed]
    if not options:
        # Only windows that wait for the next player remain, and nobody is on turn.
        raise AssertionError(f"no action possible in phase {state.phase}")
    action = rng.choice(options)
    if isinstance(action, Play) and len(state.hands[action.seat]) == 2 and rng.random() < 0.5:
        action = Play(action.seat, action.card, action.named, rng.choice(["mau", "maumau"]))
    return action


def deck_of(state: MatchState) -> Counter[int]:
    return Counter(CLASSIC_DECK if state.settings.is_classic else AMERICAN_DECK)


def assert_cards_conserved(state: MatchState) -> None:
    places = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands:
        places += Counter(hand)
    assert places == deck_of(state)


def redeal_hidden(state: MatchState, seat: int | None, rng: random.Random) -> MatchState:
    """A copy where every card ``seat`` cannot see is dealt out again at random."""
    other = state.clone()
    owners = [s for s in range(state.seats) if s != seat]
    hidden = list(other.stock)
    for s in owners:
        hidden += other.hands[s]
    rng.shuffle(hidden)
    for s in owners:
        size = len(other.hands[s])
        other.hands[s], hidden = hidden[:size], hidden[size:]
    other.stock = hidden
    return other


def play_match(
    config: Settings, seed: int, policy_seed: int, check_every: int = 1
) -> tuple[MatchState, list[Any]]:
    state, events = new_match(config, seed)
    rng = random.Random(policy_seed)
    names = [f"P{i}" for i in range(config.seats)]
    log: list[Any] = list(events)
    steps = 0
    while state.phase != "match_over":
        steps += 1
        assert steps < MAX_ACTIONS, "match did not end"
        action = random_step(state, rng)
        if steps % check_every == 0:
            check_position(state, rng)
        try:
            events = apply(state, action)
        except IllegalAction as error:
            # Only the deliberately added call may be refused (a Mau on a non-Jack...).
            raise AssertionError(f"legal-looking {action} refused: {error.message}") from None
        for event in events:
            assert event_line(event_map(event), names)
        log += events
        assert_cards_conserved(state)
    return state, log


def gone_out_seat(state: MatchState) -> int | None:
    """The seat whose last card is down while the round waits for its final window."""
    if state.phase != "ending":
        return None
    out = [seat for seat in range(state.seats) if not state.hands[seat]]
    assert len(out) == 1, f"phase ending with seats {out} out"
    return out[0]


def check_gone_out_seat_is_inert(state: MatchState) -> None:
    """A seat that has gone out is offered nothing, and everything it sends is refused
    (its calls and catches with ``already_out``) and leaves the state exactly as it was."""
    seat = gone_out_seat(state)
    if seat is None:
        return
    assert legal_actions(state, seat) == []
    claims: list[Action] = [Catch(seat, t) for t in range(state.seats) if t != seat]
    claims += [SayMau(seat, "mau"), SayMau(seat, "maumau")]
    turn_moves: list[Action] = [Draw(seat), Pass(seat), Challenge(seat), TurnTimeout(seat)]
    turn_moves += [Play(seat, card) for card in sorted(set(deck_of(state)))[:3]]
    before = state.to_dict()
    for action in claims + turn_moves:
        try:
            apply(state, action)
        except IllegalAction as refused:
            assert action not in claims or refused.code == "already_out", (action, refused)
        else:
            raise AssertionError(f"{action} by seat {seat}, who has gone out, was applied")
        assert state.to_dict() == before, action


def check_position(state: MatchState, rng: random.Random) -> None:
    check_gone_out_seat_is_inert(state)
    for seat in range(state.seats):
        for action in legal_actions(state, seat):
            branch = state.clone()
            apply(branch, action)
            assert_cards_conserved(branch)
    for seat in [*range(state.seats), None]:
        assert view(redeal_hidden(state, seat, rng), seat) == view(state, seat)


# Example counts are held to what the CI's ten minutes allow (about a second a match);
# run with more (hypothesis' settings) when changing the engine.
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=table_settings(target=60), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_every_legal_action_applies_cards_are_conserved_and_views_hide_cards(
    config: Settings, seed: int, policy: int
) -> None:
    state, _ = play_match(config, seed, policy, check_every=1)
    assert state.winner >= 0
    assert state.scores[state.winner] >= 60


@settings(max_examples=10, deadline=None)
@given(config=table_settings(), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_every_random_match_ends_at_the_target(config: Settings, seed: int, policy: int) -> None:
    state, _log = play_match(config, seed, policy, check_every=10_000)
    assert state.phase == "match_over"
    assert max(state.scores) == state.scores[state.winner] >= config.target_score


@settings(max_examples=15, deadline=None)
@given(config=table_settings(target=100), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_match(
    config: Settings, seed: int, policy: int
) -> None:
    first, first_log = play_match(config, seed, policy, check_every=10_000)
    second, second_log = play_match(config, seed, policy, check_every=10_000)
    assert repr(first.to_dict()).encode() == repr(second.to_dict()).encode()
    assert first_log == second_log


@settings(max_examples=20, deadline=None)
@given(
    config=table_settings(target=100, false_catch=(0, 1, 2)),
    seed=st.integers(0, 2**32),
    policy=st.integers(0, 2**32),
)
def test_a_seat_that_has_gone_out_makes_no_claims(config: Settings, seed: int, policy: int) -> None:
    """After a seat has played its last card, none of its legal actions is a call or a
    catch, and every call, catch or move it sends is refused without changing anything,
    whatever ``false_catch_penalty`` is: only the others' catches bring it back."""
    state, _ = new_match(config, seed)
    rng = random.Random(policy)
    endings = 0
    steps = 0
    while state.phase != "match_over":
        steps += 1
        assert steps < MAX_ACTIONS, "match did not end"
        if state.phase == "ending":
            endings += 1
            check_gone_out_seat_is_inert(state)
        apply(state, random_step(state, rng))
    assert endings >= 1


def test_different_seeds_give_different_deals() -> None:
    config = Settings.create("classic")
    deals = {repr(new_match(config, seed)[0].to_dict()["hands"]) for seed in range(20)}
    assert len(deals) == 20


@settings(max_examples=40, deadline=None)
@given(config=table_settings(), seed=st.integers(0, 2**32))
def test_views_never_show_other_hands_or_the_stock(config: Settings, seed: int) -> None:
    state, _ = new_match(config, seed)
    from maumau.protocol.cards import CODE_OF

    for seat in range(config.seats):
        seen = view(state, seat)
        assert seen.hand == tuple(CODE_OF[c] for c in state.hands[seat])
        flat = repr(seen)
        assert "stock=[" not in flat and "hands=[" not in flat
        assert seen.hand_counts == tuple(len(h) for h in state.hands)
    assert view(state, None).hand is None
    assert view(state, None).legal == ()


@settings(max_examples=10, deadline=None)
@given(
    config=table_settings(target=100_000),
    deals=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    policy=st.integers(0, 2**32),
)
def test_a_match_of_a_number_of_deals_ends_after_them_and_the_highest_score_wins(
    config: Settings, deals: int, seed: int, policy: int
) -> None:
    config = Settings.from_dict({**config.to_dict(), "deals": deals})
    state, _log = play_match(config, seed, policy, check_every=10_000)
    assert state.phase == "match_over" and state.round_no == deals
    best = max(state.scores)
    assert state.scores[state.winner] == best
    last = state.last_round
    assert last is not None
    # Of several with the best score (rare here: a deal scores for its winner only):
    # the last deal's winner if among them, else the
    # lowest seat.
    tied = [seat for seat, score in enumerate(state.scores) if score == best]
    assert state.winner == (last.winner if last.winner in tied else tied[0])


@settings(max_examples=15, deadline=None)
@given(config=table_settings(target=80), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_the_hand_filter_plays_what_each_card_may(config: Settings, seed: int, policy: int) -> None:
    """The view's fast filter of a hand (``_playable_cards``) allows exactly the cards
    ``_playable`` allows one by one, in every position of random matches, for every
    hand at the table (a Jack or a wild on top, a named suit, jack_on_jack off)."""
    state, _ = new_match(config, seed)
    rng = random.Random(policy)
    steps = 0
    while state.phase != "match_over" and steps < MAX_ACTIONS:
        steps += 1
        for hand in state.hands:
            assert _playable_cards(state, hand) == [c for c in hand if _playable(state, c)]
        with contextlib.suppress(IllegalAction):
            apply(state, random_step(state, rng))

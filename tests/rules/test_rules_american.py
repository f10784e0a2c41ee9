"""Scripted tests of American Mau-Mau: RULES.md section 2, its "Saying Mau" part as it
borrows from section 1, and section 3's turn timeout, as the engine carries them out
(with the decisions of docs/rules.md where RULES.md is silent).

Every test sets up an exact position (``table``) or a stacked deal (``stacked_match``)
and checks exact hands, turn, top card, penalty, scores and events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from maumau.protocol.cards import AMERICAN_DECK, CODE_OF, NO_SUIT, card_from_code
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
    SettingsError,
    TurnTimeout,
    apply,
    legal_actions,
    new_match,
)
from maumau.server.rules.events import (
    PENALTY_DRAW_TWO,
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    CardPlayed,
    Caught,
    ChallengeDecided,
    FalseCatch,
    MatchEnded,
    MauSaid,
    Passed,
    PenaltyDrawn,
    PenaltyPending,
    Reshuffled,
    Reversed,
    RoundDealt,
    RoundEnded,
    Skipped,
    TimedOut,
)
from support.positions import (
    COLOURS,
    StackedRandom,
    cards,
    catch,
    challenge,
    draw,
    hand,
    pass_,
    play,
    say,
    stacked_match,
    table,
    time_passes,
    top,
)

R, Y, G, B = COLOURS["R"], COLOURS["Y"], COLOURS["G"], COLOURS["B"]

# Seven-card hands for stacked deals (three seats, no power cards).
H0 = "R1 R2 R3 R4 R5 R6 R7"
H1 = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"
H2 = "B1 B2 B3 B4 B5 B6 B7"


def c(code: str) -> int:
    return card_from_code(code)


def hands_of(state: MatchState) -> list[list[str]]:
    return [hand(state, seat) for seat in range(state.seats)]


def assert_illegal(state: MatchState, action: Action, code: str) -> None:
    """``action`` is refused with ``code`` and the state is exactly as it was."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert refused.value.code == code
    assert refused.value.message
    assert state.to_dict() == before


def played_cards(actions: list[Action]) -> set[str]:
    return {CODE_OF[a.card] for a in actions if isinstance(a, Play)}


# --- cards, players, deal -----------------------------------------------------------


def test_deck_has_108_cards_25_per_colour_4_wild_4_wild_draw_four() -> None:
    counts = Counter(CODE_OF[card] for card in AMERICAN_DECK)
    assert len(AMERICAN_DECK) == 108
    for colour in "RYGB":
        assert counts[f"{colour}0"] == 1
        for symbol in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"):
            assert counts[colour + symbol] == 2, colour + symbol
        assert sum(n for code, n in counts.items() if code[0] == colour) == 25
    assert counts["W"] == 4
    assert counts["W4"] == 4
    assert len(counts) == 4 * 13 + 2


def test_deal_uses_the_whole_108_card_deck() -> None:
    state, _ = new_match(Settings.create("american", seats=5), seed=11)
    everything = [card for h in state.hands for card in h] + state.stock + state.discard
    assert len(everything) == 108
    assert Counter(everything) == Counter(AMERICAN_DECK)


def test_two_to_ten_players() -> None:
    assert Settings.create("american", seats=2).seats == 2
    assert Settings.create("american", seats=10).seats == 10
    for seats in (1, 11):
        with pytest.raises(SettingsError) as bad:
            Settings.create("american", seats=seats)
        assert bad.value.setting == "seats"


def test_ten_players_are_dealt_seven_cards_each() -> None:
    numbers = [f"{colour}{n}" for colour in "RYGB" for n in range(1, 10) for _ in range(2)]
    hands = [" ".join(numbers[7 * i : 7 * i + 7]) for i in range(10)]
    state, events = stacked_match("american", hands=hands, top="R0", dealer=9)
    assert hands_of(state) == [h.split() for h in hands]
    assert top(state) == "R0"
    assert len(state.stock) == 108 - 70 - 1
    assert events == [RoundDealt(1, 9, c("R0"), NO_SUIT, 0, 0)]
    assert state.turn == 0


def test_two_players_are_dealt_seven_cards_each() -> None:
    state, events = stacked_match("american", hands=[H0, H1], top="G9", dealer=1)
    assert hands_of(state) == [H0.split(), H1.split()]
    assert len(state.stock) == 108 - 14 - 1
    assert events == [RoundDealt(1, 1, c("G9"), NO_SUIT, 0, 0)]


def test_first_dealer_is_random_and_player_after_dealer_starts() -> None:
    state, events = stacked_match("american", hands=[H0, H1, H2], top="G9", dealer=1)
    assert state.dealer == 1
    assert state.turn == 2
    assert state.direction == 1
    assert state.penalty == 0
    assert events == [RoundDealt(1, 1, c("G9"), NO_SUIT, 2, 0)]


def test_first_card_wild_draw_four_goes_back() -> None:
    state, events = stacked_match("american", hands=[H0, H1, H2], top="W4", stock="G8 B9", dealer=0)
    assert events == [RoundDealt(1, 0, c("G8"), NO_SUIT, 1, 1)]
    assert top(state) == "G8"
    assert state.discard == [c("G8")]
    # Back in the stock, which was shuffled (the stacked shuffle moves it to the bottom).
    assert state.stock[0] == c("W4")
    assert Counter(state.stock)[c("W4")] == 4
    assert len(state.stock) == 108 - 21 - 1
    assert state.stock[-1] == c("B9")
    # Nobody draws four, nobody is skipped.
    assert hands_of(state) == [H0.split(), H1.split(), H2.split()]
    assert state.turn == 1
    assert state.penalty == 0
    assert state.named == NO_SUIT


def test_first_card_wild_draw_four_again_goes_back_again() -> None:
    state, events = stacked_match(
        "american", hands=[H0, H1, H2], top="W4", stock="W4 GS B9", dealer=0
    )
    assert events == [RoundDealt(1, 0, c("GS"), NO_SUIT, 2, 2), Skipped(1)]
    assert top(state) == "GS"
    assert state.stock[:2] == [c("W4"), c("W4")]
    assert state.turn == 2


def test_first_card_wild_lets_first_player_play_anything() -> None:
    mixed = "R1 Y2 G3 B4 GS BR W"
    state, events = stacked_match("american", hands=[H0, mixed, H2], top="W", dealer=0)
    assert events == [RoundDealt(1, 0, c("W"), NO_SUIT, 1, 0)]
    assert state.named == NO_SUIT
    assert state.turn == 1
    assert played_cards(legal_actions(state, 1)) == set(mixed.split())
    for code in ("R1", "Y2", "G3", "B4", "GS", "BR"):
        trial = state.clone()
        assert play(trial, 1, code)[0] == CardPlayed(1, c(code), NO_SUIT, None, 6)
        assert top(trial) == code
    assert play(state, 1, "B4") == [CardPlayed(1, c("B4"), NO_SUIT, None, 6)]
    assert state.turn == 2


def test_first_card_skip_skips_first_player() -> None:
    state, events = stacked_match("american", hands=[H0, H1, H2], top="GS", dealer=0)
    assert events == [RoundDealt(1, 0, c("GS"), NO_SUIT, 2, 0), Skipped(1)]
    assert state.turn == 2
    assert hands_of(state) == [H0.split(), H1.split(), H2.split()]
    assert_illegal(state, Draw(1), "not_your_turn")


def test_first_card_reverse_dealer_plays_first() -> None:
    h3 = "G1 G2 G3 G4 G5 G6 G7"
    state, events = stacked_match("american", hands=[H0, H1, H2, h3], top="BR", dealer=2)
    assert events == [RoundDealt(1, 2, c("BR"), NO_SUIT, 2, 0), Reversed(-1)]
    assert state.turn == 2
    assert state.direction == -1
    assert play(state, 2, "B3") == [CardPlayed(2, c("B3"), NO_SUIT, None, 6)]
    assert state.turn == 1


def test_first_card_reverse_with_two_players_dealer_plays_first() -> None:
    # With two players a Reverse skips, turned up as played (reverse_skips_with_two).
    state, events = stacked_match("american", hands=[H0, H1], top="YR", dealer=1)
    assert events == [RoundDealt(1, 1, c("YR"), NO_SUIT, 1, 0), Skipped(0)]
    assert state.turn == 1 and state.direction == 1
    assert hands_of(state) == [H0.split(), H1.split()]
    assert play(state, 1, "Y1") == [CardPlayed(1, c("Y1"), NO_SUIT, None, 6)]
    assert state.turn == 0


def test_first_card_reverse_with_two_players_reverses_without_the_house_rule() -> None:
    state, events = stacked_match(
        "american", hands=[H0, H1], top="YR", dealer=1, reverse_skips_with_two=False
    )
    assert events == [RoundDealt(1, 1, c("YR"), NO_SUIT, 1, 0), Reversed(-1)]
    assert state.turn == 1 and state.direction == -1


def test_first_card_draw_two_first_player_draws_two_and_is_skipped() -> None:
    state, events = stacked_match(
        "american", hands=[H0, H1, H2], top="Y+2", stock="G8 B9 R0", dealer=0
    )
    assert events == [
        RoundDealt(1, 0, c("Y+2"), NO_SUIT, 2, 0),
        PenaltyDrawn(1, 2, 2, PENALTY_DRAW_TWO),
        Skipped(1),
    ]
    assert hand(state, 1) == [*H1.split(), "G8", "B9"]
    assert state.turn == 2
    assert state.penalty == 0
    assert state.stock[-1] == c("R0")


def test_first_card_draw_two_with_stack_draw_two_may_be_answered() -> None:
    h1 = "Y1 Y2 Y3 Y4 Y5 Y6 G+2"
    state, events = stacked_match(
        "american",
        hands=[H0, h1, H2],
        top="Y+2",
        stock="G8 B9 R0 R9 B8",
        dealer=0,
        stack_draw_two=True,
    )
    assert events == [
        RoundDealt(1, 0, c("Y+2"), NO_SUIT, 1, 0),
        PenaltyPending(1, 2, PENALTY_DRAW_TWO),
    ]
    assert state.turn == 1
    assert state.penalty == 2
    assert hand(state, 1) == h1.split()
    assert play(state, 1, "G+2") == [
        CardPlayed(1, c("G+2"), NO_SUIT, None, 6),
        PenaltyPending(2, 4, PENALTY_DRAW_TWO),
    ]
    assert draw(state, 2) == [PenaltyDrawn(2, 4, 4, PENALTY_DRAW_TWO)]
    assert hand(state, 2) == [*H2.split(), "G8", "B9", "R0", "R9"]
    assert state.turn == 0


def test_first_card_number_starts_normal_play() -> None:
    state, events = stacked_match("american", hands=[H0, H1, H2], top="Y9", dealer=2)
    assert events == [RoundDealt(1, 2, c("Y9"), NO_SUIT, 0, 0)]
    assert state.turn == 0
    assert_illegal(state, Play(0, c("R1")), "does_not_match")


def test_deal_passes_to_next_seat_and_play_starts_in_seat_order() -> None:
    state = table("american", hands=["R3", "GS", "R0"], top="R5", dealer=2, direction=-1)
    play(state, 0, "R3")
    time_passes(state)
    assert state.phase == "round_over"
    # The next shuffle lays the deck out in AMERICAN_DECK order: B6 turns up.
    state.rng = StackedRandom(list(AMERICAN_DECK), 0)
    events = apply(state, NextRound())
    assert events == [RoundDealt(2, 0, c("B6"), NO_SUIT, 1, 0)]
    assert state.dealer == 0
    assert state.round_no == 2
    assert state.turn == 1
    assert state.direction == 1
    assert [len(h) for h in state.hands] == [7, 7, 7]
    assert state.phase == "playing"


# --- a turn ---------------------------------------------------------------------------


def test_play_matches_colour() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5")
    assert play(state, 0, "R9") == [CardPlayed(0, c("R9"), NO_SUIT, None, 2)]
    assert top(state) == "R9"
    assert hand(state, 0) == ["B2", "B3"]
    assert state.turn == 1


def test_play_matches_number() -> None:
    state = table("american", hands=["G5 B2 B3", "G1 G2", "Y1 Y2"], top="R5")
    assert play(state, 0, "G5") == [CardPlayed(0, c("G5"), NO_SUIT, None, 2)]
    assert top(state) == "G5"
    assert state.turn == 1


def test_play_matches_symbol() -> None:
    state = table("american", hands=["GS B2 B3", "G1 G2", "Y1 Y2"], top="RS")
    assert play(state, 0, "GS") == [CardPlayed(0, c("GS"), NO_SUIT, None, 2), Skipped(1)]
    assert top(state) == "GS"
    assert state.turn == 2


def test_card_matching_nothing_is_rejected() -> None:
    state = table("american", hands=["B7 G+2 Y4", "G1 G2", "Y1 Y2"], top="R5")
    for code in ("B7", "G+2", "Y4"):
        assert_illegal(state, Play(0, c(code)), "does_not_match")
    assert played_cards(legal_actions(state, 0)) == set()
    assert legal_actions(state, 0) == [Draw(0)]


def test_wild_playable_any_time_even_holding_matching_colour() -> None:
    state = table("american", hands=["R9 W B2", "G1 G2", "Y1 Y2"], top="R5")
    assert Play(0, c("W"), G) in legal_actions(state, 0)
    assert play(state, 0, "W", named="G") == [CardPlayed(0, c("W"), G, None, 2)]
    assert top(state) == "W"
    assert state.named == G
    assert state.turn == 1


def test_wild_draw_four_playable_even_holding_matching_colour() -> None:
    state = table(
        "american", hands=["R9 W4 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4 G5 G6 G7"
    )
    assert Play(0, c("W4"), Y) in legal_actions(state, 0)
    assert play(state, 0, "W4", named="Y") == [
        CardPlayed(0, c("W4"), Y, None, 2),
        PenaltyDrawn(1, 4, 4, PENALTY_WILD_DRAW_FOUR),
        Skipped(1),
    ]
    assert hand(state, 0) == ["R9", "B2"]
    assert top(state) == "W4"
    assert state.named == Y
    assert state.turn == 2


def test_wild_may_be_played_on_a_wild() -> None:
    state = table("american", hands=["R9 W4 B2", "W G2 G3", "Y1 Y2"], top="W", named="R")
    assert play(state, 0, "W4", named="G")[0] == CardPlayed(0, c("W4"), G, None, 2)
    state = table("american", hands=["R9 W4 B2", "W G2 G3", "Y1 Y2"], top="W", named="B")
    assert play(state, 0, "W4", named="R")[0] == CardPlayed(0, c("W4"), R, None, 2)


def test_drawing_allowed_even_when_a_card_could_be_played() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G7 Y8")
    assert Play(0, c("R9")) in legal_actions(state, 0)
    assert Draw(0) in legal_actions(state, 0)
    assert draw(state, 0) == [CardDrawn(0, 1, False)]
    assert hand(state, 0) == ["R9", "B2", "B3", "G7"]
    assert state.stock == [c("Y8")]
    assert top(state) == "R5"
    assert state.turn == 1


def test_drawn_card_that_can_be_played_may_be_played_at_once() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G5")
    assert draw(state, 0) == [CardDrawn(0, 1, True)]
    assert state.turn == 0
    assert state.drawn == c("G5")
    assert play(state, 0, "G5") == [CardPlayed(0, c("G5"), NO_SUIT, None, 3)]
    assert hand(state, 0) == ["R9", "B2", "B3"]
    assert top(state) == "G5"
    assert state.drawn == -1
    assert state.turn == 1


def test_drawn_wild_may_be_played_at_once() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="W")
    assert draw(state, 0) == [CardDrawn(0, 1, True)]
    assert play(state, 0, "W", named="B") == [CardPlayed(0, c("W"), B, None, 3)]
    assert state.named == B
    assert state.turn == 1


def test_only_the_drawn_card_may_be_played() -> None:
    state = table("american", hands=["R9 W B3", "G1 G2", "Y1 Y2"], top="R5", stock="R2")
    draw(state, 0)
    assert legal_actions(state, 0) == [Play(0, c("R2")), Pass(0)]
    assert_illegal(state, Play(0, c("R9")), "only_drawn_card")
    assert_illegal(state, Play(0, c("W"), G), "only_drawn_card")
    assert_illegal(state, Draw(0), "already_drawn")


def test_drawn_card_that_cannot_be_played_ends_the_turn() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G7")
    assert draw(state, 0) == [CardDrawn(0, 1, False)]
    assert state.turn == 1
    assert state.drawn == -1
    assert_illegal(state, Play(0, c("G7")), "not_your_turn")


def test_pass_keeps_the_drawn_card_and_ends_the_turn() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="R2")
    draw(state, 0)
    assert pass_(state, 0) == [Passed(0)]
    assert hand(state, 0) == ["R9", "B2", "B3", "R2"]
    assert top(state) == "R5"
    assert state.drawn == -1
    assert state.turn == 1


def test_pass_without_drawing_is_refused() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="R2")
    assert_illegal(state, Pass(0), "nothing_drawn")


def test_stock_runs_out_discard_pile_is_reshuffled() -> None:
    state = table(
        "american", hands=["B7 B8 B9", "G1 G2", "Y1 Y2"], top="R5", below="G1 Y2 R0", stock=""
    )
    # The reshuffle lays the old discard pile (all but its top) out in this order.
    state.rng = StackedRandom(cards("Y2 G1 R0"), 0)
    assert draw(state, 0) == [Reshuffled(3), CardDrawn(0, 1, True)]
    assert hand(state, 0) == ["B7", "B8", "B9", "R0"]
    assert state.discard == [c("R5")]
    assert state.stock == cards("Y2 G1")


def test_stock_and_discard_empty_draws_nothing_and_turn_ends() -> None:
    state = table("american", hands=["B7 B8 B9", "G1 G2", "Y1 Y2"], top="R5", stock="")
    assert draw(state, 0) == [CardDrawn(0, 0, False)]
    assert hand(state, 0) == ["B7", "B8", "B9"]
    assert state.turn == 1


def test_penalty_draw_reshuffles_and_draws_what_there_is() -> None:
    state = table("american", hands=["Y+2 B8 B9", "G1 G2", "Y1 Y2"], top="Y5", stock="G7")
    assert play(state, 0, "Y+2") == [
        CardPlayed(0, c("Y+2"), NO_SUIT, None, 2),
        Reshuffled(1),
        PenaltyDrawn(1, 2, 2, PENALTY_DRAW_TWO),
        Skipped(1),
    ]
    assert hand(state, 1) == ["G1", "G2", "G7", "Y5"]
    assert state.discard == [c("Y+2")]
    assert state.stock == []
    assert state.turn == 2
    # Nothing left at all: the next penalty gets what there is (nothing).
    state.hands[2] = cards("Y+2 G9 B1")
    assert play(state, 2, "Y+2") == [
        CardPlayed(2, c("Y+2"), NO_SUIT, None, 2),
        Reshuffled(1),
        PenaltyDrawn(0, 1, 2, PENALTY_DRAW_TWO),
        Skipped(0),
    ]
    assert hand(state, 0) == ["B8", "B9", "Y+2"]
    assert state.turn == 1


# --- action cards ---------------------------------------------------------------------


def test_skip_next_player_loses_turn() -> None:
    state = table("american", hands=["GS B2 B3", "G1 G2", "Y1 Y2"], top="G5")
    assert play(state, 0, "GS") == [CardPlayed(0, c("GS"), NO_SUIT, None, 2), Skipped(1)]
    assert state.turn == 2
    assert hand(state, 1) == ["G1", "G2"]
    assert_illegal(state, Play(1, c("G1")), "not_your_turn")


def test_skip_with_two_players_plays_again() -> None:
    state = table("american", hands=["GS B2 B3", "G1 G2"], top="G5")
    assert play(state, 0, "GS") == [CardPlayed(0, c("GS"), NO_SUIT, None, 2), Skipped(1)]
    assert state.turn == 0


def test_reverse_changes_direction_with_three_or_more_players() -> None:
    state = table("american", hands=["B1 B2", "BR B3 R4", "Y1 Y2", "B6 B7"], top="B5", turn=1)
    assert play(state, 1, "BR") == [CardPlayed(1, c("BR"), NO_SUIT, None, 2), Reversed(-1)]
    assert state.direction == -1
    assert state.turn == 0
    play(state, 0, "B1")
    assert state.turn == 3


def test_reverse_twice_restores_seat_order() -> None:
    state = table("american", hands=["B1 B2", "G1 G2", "YR G3 R4"], top="Y5", turn=2, direction=-1)
    assert play(state, 2, "YR") == [CardPlayed(2, c("YR"), NO_SUIT, None, 2), Reversed(1)]
    assert state.direction == 1
    assert state.turn == 0


def test_reverse_acts_as_skip_with_two_players_by_default() -> None:
    assert Settings.create("american").reverse_skips_with_two is True
    state = table("american", hands=["BR B3 R4", "B1 B2"], top="B5")
    assert play(state, 0, "BR") == [CardPlayed(0, c("BR"), NO_SUIT, None, 2), Skipped(1)]
    assert state.turn == 0
    assert state.direction == 1


def test_house_rule_reverse_skips_with_two_off() -> None:
    state = table("american", hands=["BR B3 R4", "B1 B2"], top="B5", reverse_skips_with_two=False)
    assert play(state, 0, "BR") == [CardPlayed(0, c("BR"), NO_SUIT, None, 2), Reversed(-1)]
    assert state.turn == 1
    assert state.direction == -1


def test_draw_two_next_player_draws_two_and_loses_turn() -> None:
    assert Settings.create("american").stack_draw_two is False
    state = table("american", hands=["Y+2 B2 B3", "G+2 G1", "Y1 Y2"], top="Y5", stock="G7 B8 R1")
    # Carried out at once: the next player may not answer, even holding a Draw Two.
    assert play(state, 0, "Y+2") == [
        CardPlayed(0, c("Y+2"), NO_SUIT, None, 2),
        PenaltyDrawn(1, 2, 2, PENALTY_DRAW_TWO),
        Skipped(1),
    ]
    assert hand(state, 1) == ["G+2", "G1", "G7", "B8"]
    assert state.stock == [c("R1")]
    assert state.penalty == 0
    assert state.turn == 2
    assert_illegal(state, Play(1, c("G+2")), "not_your_turn")


def test_house_rule_stack_draw_two() -> None:
    state = table(
        "american",
        hands=["Y+2 B2 B3", "G+2 G1 Y6", "Y1 Y2", "B4 B5"],
        top="Y5",
        stock="G7 B8 R1 R2 R3",
        stack_draw_two=True,
    )
    assert play(state, 0, "Y+2") == [
        CardPlayed(0, c("Y+2"), NO_SUIT, None, 2),
        PenaltyPending(1, 2, PENALTY_DRAW_TWO),
    ]
    assert state.turn == 1
    assert state.penalty == 2
    assert hand(state, 1) == ["G+2", "G1", "Y6"]
    assert legal_actions(state, 1) == [Play(1, c("G+2")), Draw(1)]
    assert play(state, 1, "G+2") == [
        CardPlayed(1, c("G+2"), NO_SUIT, None, 2),
        PenaltyPending(2, 4, PENALTY_DRAW_TWO),
    ]
    assert state.turn == 2
    assert state.penalty == 4
    assert draw(state, 2) == [PenaltyDrawn(2, 4, 4, PENALTY_DRAW_TWO)]
    assert hand(state, 2) == ["Y1", "Y2", "G7", "B8", "R1", "R2"]
    assert state.penalty == 0
    assert state.turn == 3
    assert top(state) == "G+2"


def test_stack_draw_two_only_a_draw_two_answers() -> None:
    state = table(
        "american",
        hands=["Y+2 B2 B3", "Y6 G2 W W4 G+2", "Y1 Y2"],
        top="Y5",
        stock="G7 B8",
        stack_draw_two=True,
    )
    play(state, 0, "Y+2")
    assert_illegal(state, Play(1, c("Y6")), "must_answer_penalty")
    assert_illegal(state, Play(1, c("G2")), "must_answer_penalty")
    assert_illegal(state, Play(1, c("W"), G), "must_answer_penalty")
    assert_illegal(state, Play(1, c("W4"), G), "must_answer_penalty")


def test_stack_draw_two_taking_the_penalty_ends_the_turn() -> None:
    state = table(
        "american",
        hands=["Y+2 B2 B3", "G+2 Y6", "Y1 Y2"],
        top="Y5",
        stock="G7 B8 R1",
        stack_draw_two=True,
    )
    play(state, 0, "Y+2")
    assert draw(state, 1) == [PenaltyDrawn(1, 2, 2, PENALTY_DRAW_TWO)]
    assert hand(state, 1) == ["G+2", "Y6", "G7", "B8"]
    assert state.turn == 2
    assert state.penalty == 0
    assert_illegal(state, Play(1, c("Y6")), "not_your_turn")
    assert play(state, 2, "Y1") == [CardPlayed(2, c("Y1"), NO_SUIT, None, 1)]


def test_wild_names_the_colour_to_follow() -> None:
    state = table("american", hands=["W B2 B3", "R5 G3 B3 R3", "Y1 Y2"], top="R3")
    assert play(state, 0, "W", named="G") == [CardPlayed(0, c("W"), G, None, 2)]
    assert state.named == G
    assert state.turn == 1
    # Neither the colour nor the number of the card under the wild counts any more.
    assert_illegal(state, Play(1, c("R5")), "does_not_match")
    assert_illegal(state, Play(1, c("R3")), "does_not_match")
    assert_illegal(state, Play(1, c("B3")), "does_not_match")
    assert played_cards(legal_actions(state, 1)) == {"G3"}
    assert play(state, 1, "G3") == [CardPlayed(1, c("G3"), NO_SUIT, None, 3)]
    assert state.named == NO_SUIT
    assert state.turn == 2


def test_wild_naming_its_colour_is_required() -> None:
    state = table("american", hands=["W W4 R5", "G1 G2", "Y1 Y2"], top="R3")
    assert_illegal(state, Play(0, c("W")), "must_name")
    assert_illegal(state, Play(0, c("W4")), "must_name")
    assert_illegal(state, Play(0, c("W"), 4), "must_name")
    assert_illegal(state, Play(0, c("R5"), G), "cannot_name")


def test_wild_draw_four_next_player_draws_four_and_loses_turn() -> None:
    assert Settings.create("american").wild_draw_four_challenge is False
    state = table(
        "american",
        hands=["W4 R9 B2", "G1 G2", "R7 B7 W"],
        top="R5",
        stock="G3 G4 G5 G6 G7",
    )
    assert play(state, 0, "W4", named="B") == [
        CardPlayed(0, c("W4"), B, None, 2),
        PenaltyDrawn(1, 4, 4, PENALTY_WILD_DRAW_FOUR),
        Skipped(1),
    ]
    assert hand(state, 1) == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert state.stock == [c("G7")]
    assert state.penalty == 0
    assert state.turn == 2
    assert state.named == B
    # The colour named must be followed.
    assert_illegal(state, Play(2, c("R7")), "does_not_match")
    assert play(state, 2, "B7") == [CardPlayed(2, c("B7"), NO_SUIT, None, 2)]


def test_wild_draw_four_cannot_be_challenged_by_default() -> None:
    state = table("american", hands=["W4 R9 B2", "G1 G2", "R7 B7"], top="R5", stock="G3 G4 G5 G6")
    play(state, 0, "W4", named="B")
    assert_illegal(state, Challenge(1), "not_your_turn")
    assert_illegal(state, Challenge(2), "nothing_to_challenge")


def test_wild_draw_four_with_challenge_rule_next_player_chooses() -> None:
    state = table(
        "american",
        hands=["W4 R9 B2", "G1 G2 G3", "R7 B7"],
        top="R5",
        stock="B3 B4 B5 B6",
        wild_draw_four_challenge=True,
    )
    assert play(state, 0, "W4", named="G") == [
        CardPlayed(0, c("W4"), G, None, 2),
        PenaltyPending(1, 4, PENALTY_WILD_DRAW_FOUR, True),
    ]
    assert state.turn == 1
    assert state.penalty == 4
    assert hand(state, 1) == ["G1", "G2", "G3"]
    assert legal_actions(state, 1) == [Challenge(1), Draw(1)]
    assert_illegal(state, Play(1, c("G1")), "challenge_or_draw")


def test_wild_draw_four_accepted_draws_four_and_loses_turn() -> None:
    state = table(
        "american",
        hands=["W4 R9 B2", "G1 G2 G3", "R7 B7"],
        top="R5",
        stock="B3 B4 B5 B6",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert draw(state, 1) == [PenaltyDrawn(1, 4, 4, PENALTY_WILD_DRAW_FOUR)]
    assert hand(state, 1) == ["G1", "G2", "G3", "B3", "B4", "B5", "B6"]
    assert hand(state, 0) == ["R9", "B2"]
    assert state.penalty == 0
    assert state.turn == 2


def test_wild_draw_four_challenge_upheld() -> None:
    state = table(
        "american",
        hands=["R9 W4 B2", "G1 Y2 G3", "R7 B7"],
        top="R5",
        stock="B3 B4 B5 B6 Y7",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert challenge(state, 1) == [
        ChallengeDecided(1, 0, True),
        PenaltyDrawn(0, 4, 4, PENALTY_WILD_DRAW_FOUR),
    ]
    assert hand(state, 0) == ["R9", "B2", "B3", "B4", "B5", "B6"]
    assert hand(state, 1) == ["G1", "Y2", "G3"]
    assert state.penalty == 0
    # The challenger takes their turn normally, on the colour named.
    assert state.turn == 1
    assert state.named == G
    assert legal_actions(state, 1) == [Play(1, c("G1")), Play(1, c("G3")), Draw(1)]
    assert play(state, 1, "G3") == [CardPlayed(1, c("G3"), NO_SUIT, None, 2)]
    assert state.turn == 2


def test_wild_draw_four_challenge_fails_challenger_draws_six() -> None:
    state = table(
        "american",
        hands=["G9 W4 B2", "G1 Y2 G3", "R7 B7"],
        top="R5",
        stock="B3 B4 B5 B6 Y7 Y8 Y9",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert challenge(state, 1) == [
        ChallengeDecided(1, 0, False),
        PenaltyDrawn(1, 6, 6, PENALTY_WILD_DRAW_FOUR),
    ]
    assert hand(state, 1) == ["G1", "Y2", "G3", "B3", "B4", "B5", "B6", "Y7", "Y8"]
    assert hand(state, 0) == ["G9", "B2"]
    assert state.penalty == 0
    assert state.turn == 2
    assert state.named == G


def test_wild_draw_four_challenge_same_number_is_not_previous_colour() -> None:
    state = table(
        "american",
        hands=["G5 W4 W", "G1 Y2", "R7 B7"],
        top="R5",
        stock="B3 B4 B5 B6 Y7 Y8 Y9",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="B")
    assert challenge(state, 1)[0] == ChallengeDecided(1, 0, False)
    assert len(state.hands[1]) == 8
    assert hand(state, 0) == ["G5", "W"]


def test_wild_draw_four_challenge_on_a_wild_checks_the_named_colour() -> None:
    # Under a Wild that named blue, blue is the previous colour: holding blue is guilty.
    state = table(
        "american",
        hands=["R9 W4 B2", "G1 Y2", "R7 B7"],
        top="W",
        below="R5",
        named="B",
        stock="B3 B4 B5 B6 Y7 Y8 Y9",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert challenge(state, 1)[0] == ChallengeDecided(1, 0, True)
    assert hand(state, 0) == ["R9", "B2", "B3", "B4", "B5", "B6"]
    # Holding only the colour of the card under the Wild is not guilty.
    state = table(
        "american",
        hands=["R9 W4 G2", "G1 Y2", "R7 B7"],
        top="W",
        below="R5",
        named="B",
        stock="B3 B4 B5 B6 Y7 Y8 Y9",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert challenge(state, 1)[0] == ChallengeDecided(1, 0, False)
    assert hand(state, 1) == ["G1", "Y2", "B3", "B4", "B5", "B6", "Y7", "Y8"]


def test_wild_draw_four_challenge_on_first_card_wild_always_fails() -> None:
    h1 = "R1 R2 R3 Y4 Y5 Y6 W4"
    state, _ = stacked_match(
        "american",
        hands=[H0, h1, H2],
        top="W",
        stock="G1 G2 G3 G4 G5 G6",
        dealer=0,
        wild_draw_four_challenge=True,
    )
    assert play(state, 1, "W4", named="R") == [
        CardPlayed(1, c("W4"), R, None, 6),
        PenaltyPending(2, 4, PENALTY_WILD_DRAW_FOUR, True),
    ]
    assert challenge(state, 2) == [
        ChallengeDecided(2, 1, False),
        PenaltyDrawn(2, 6, 6, PENALTY_WILD_DRAW_FOUR),
    ]
    assert hand(state, 2) == [*H2.split(), "G1", "G2", "G3", "G4", "G5", "G6"]
    assert state.turn == 0


# --- saying Mau ----------------------------------------------------------------------


def test_mau_required_caught_player_draws_two() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4 G5")
    assert play(state, 0, "R9") == [CardPlayed(0, c("R9"), NO_SUIT, None, 1)]
    assert SayMau(0, "mau") in legal_actions(state, 0)
    assert Catch(2, 0) in legal_actions(state, 2)
    assert catch(state, 2, 0) == [Caught(2, 0, 2, False), PenaltyDrawn(0, 2, 2, 0)]
    assert hand(state, 0) == ["B2", "G3", "G4"]
    # The penalty does not change whose turn it is.
    assert state.turn == 1
    assert state.windows == []
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")
    assert_illegal(state, SayMau(0, "mau"), "nothing_to_call")


def test_mau_said_with_the_play_protects() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    assert play(state, 0, "R9", call="mau") == [CardPlayed(0, c("R9"), NO_SUIT, "mau", 1)]
    assert Catch(1, 0) not in legal_actions(state, 1)
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")
    assert_illegal(state, SayMau(0, "mau"), "already_called")


def test_mau_said_after_the_play_while_window_open_protects() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    assert say(state, 0) == [MauSaid(0, "mau")]
    assert_illegal(state, Catch(2, 0), "nothing_to_catch")
    assert hand(state, 0) == ["B2"]


def test_mau_penalty_is_a_table_setting() -> None:
    state = table(
        "american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4 G5", mau_penalty=3
    )
    play(state, 0, "R9")
    assert catch(state, 1, 0) == [Caught(1, 0, 3, False), PenaltyDrawn(0, 3, 3, 0)]
    assert hand(state, 0) == ["B2", "G3", "G4", "G5"]


def test_call_window_closes_when_next_player_acts_after_the_time() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    # The time alone does not close it: the next player has not acted.
    assert time_passes(state) == []
    assert Catch(2, 0) in legal_actions(state, 2)
    assert draw(state, 1) == [CallWindowClosed(0, 0), CardDrawn(1, 1, False)]
    assert state.windows == []
    assert_illegal(state, Catch(2, 0), "nothing_to_catch")
    assert_illegal(state, SayMau(0, "mau"), "window_closed")


def test_call_window_stays_open_for_mau_window_ms_after_next_player_acts() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4 G5")
    play(state, 0, "R9")
    assert draw(state, 1) == [CardDrawn(1, 1, False)]
    # Still open: a catch now works.
    assert catch(state, 2, 0) == [Caught(2, 0, 2, False), PenaltyDrawn(0, 2, 2, 0)]
    assert hand(state, 0) == ["B2", "G4", "G5"]


def test_call_window_closes_when_time_passes_after_next_player_acted() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4 G5")
    play(state, 0, "R9")
    draw(state, 1)
    assert time_passes(state) == [CallWindowClosed(0, 0)]
    assert_illegal(state, SayMau(0, "mau"), "window_closed")
    assert_illegal(state, Catch(2, 0), "nothing_to_catch")


def test_first_of_call_and_catch_wins() -> None:
    # The call arrives first: the catch fails.
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    say(state, 0)
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")
    # The catch arrives first: the call comes too late.
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    catch(state, 1, 0)
    assert_illegal(state, SayMau(0, "mau"), "nothing_to_call")
    assert hand(state, 0) == ["B2", "G3", "G4"]


def test_no_mau_mau_rule_maumau_call_counts_as_mau() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    events = play(state, 0, "R9", call="maumau")
    assert events == [CardPlayed(0, c("R9"), NO_SUIT, "mau", 1)]
    assert state.windows[0].called == "mau"
    assert state.last_call[0] == "mau"
    assert_illegal(state, SayMau(0, "maumau"), "already_called")
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")


def test_no_mau_mau_rule_only_mau_is_offered() -> None:
    state = table("american", hands=["R9 W", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    calls = [a for a in legal_actions(state, 0) if isinstance(a, SayMau)]
    assert calls == [SayMau(0, "mau")]
    # Keeping a wild does not call for "Mau Mau": a "maumau" said afterwards is a "Mau".
    assert say(state, 0, "maumau") == [MauSaid(0, "mau")]
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")


def test_no_mau_mau_rule_going_out_on_a_wild_cannot_be_caught() -> None:
    state = table("american", hands=["W", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    state.last_call[0] = "mau"
    assert play(state, 0, "W", named="G") == [CardPlayed(0, c("W"), G, None, 0)]
    assert state.phase == "ending"
    assert legal_actions(state, 1) == []
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")
    assert_illegal(state, Draw(1), "round_ending")
    events = time_passes(state)
    assert events[0] == CallWindowClosed(0, 0)
    assert isinstance(events[1], RoundEnded)
    assert events[1].winner == 0
    assert state.phase == "round_over"


@pytest.mark.parametrize(("last", "named"), [("G4", None), ("R5", None), ("W4", "B")])
def test_no_mau_mau_rule_going_out_on_any_card_cannot_be_caught(
    last: str, named: str | None
) -> None:
    state = table("american", hands=[last, "G1 G2", "Y1 Y2"], top="R4", stock="G3 G4")
    play(state, 0, last, named=named)
    assert state.phase == "ending"
    assert legal_actions(state, 2) == []
    assert_illegal(state, Catch(2, 0), "nothing_to_catch")
    assert time_passes(state)[0] == CallWindowClosed(0, 0)
    assert state.phase == "round_over"
    assert state.hands[0] == []


def test_call_with_a_play_that_leaves_more_than_one_card_is_refused() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5")
    assert_illegal(state, Play(0, c("R9"), NO_SUIT, "mau"), "nothing_to_call")
    assert_illegal(state, SayMau(0, "mau"), "nothing_to_call")


def test_false_catch_is_refused_by_default() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G3")
    assert_illegal(state, Catch(1, 0), "nothing_to_catch")
    assert_illegal(state, Catch(1, 1), "catch_self")


def test_house_rule_false_catch_penalty() -> None:
    state = table(
        "american",
        hands=["R9 B2 B3", "G1 G2", "Y1 Y2"],
        top="R5",
        stock="G3",
        false_catch_penalty=1,
    )
    assert catch(state, 1, 0) == [FalseCatch(1, 0, 1), PenaltyDrawn(1, 1, 1, 0)]
    assert hand(state, 1) == ["G1", "G2", "G3"]
    assert hand(state, 0) == ["R9", "B2", "B3"]
    assert state.turn == 0


# --- a player who has gone out makes no more claims (RULES.md section 4) -------------


def test_gone_out_player_false_catch_is_refused_and_the_round_ends() -> None:
    # With false_catch_penalty above 0 a false catch draws cards: by the player who went
    # out, it would put them back into the round. It is refused instead.
    state = table(
        "american",
        hands=["R3", "G1 G2", "Y1 Y2"],
        top="R5",
        stock="G3 G4",
        false_catch_penalty=1,
    )
    play(state, 0, "R3")
    assert state.phase == "ending"
    assert legal_actions(state, 0) == []
    assert_illegal(state, Catch(0, 1), "already_out")
    assert_illegal(state, Catch(0, 2), "already_out")
    assert_illegal(state, SayMau(0, "mau"), "already_out")
    assert_illegal(state, Catch(0, 0), "catch_self")
    # The others' false catches still cost them a card, and change nothing for seat 0.
    assert catch(state, 1, 0) == [FalseCatch(1, 0, 1), PenaltyDrawn(1, 1, 1, 0)]
    assert state.phase == "ending"
    events = time_passes(state)
    assert events[0] == CallWindowClosed(0, 0)
    assert isinstance(events[1], RoundEnded) and events[1].winner == 0
    assert hand(state, 0) == []


def test_gone_out_player_cannot_catch_an_opponent_whose_window_is_open() -> None:
    state = table("american", hands=["R3", "R9 B2", "R1 R2 Y5"], top="R5", stock="G3 G4", turn=1)
    play(state, 1, "R9")  # seat 1 forgets Mau
    play(state, 2, "R1")
    play(state, 0, "R3")  # seat 0 goes out before seat 1's window has run its time
    assert state.phase == "ending"
    assert [(w.seat, w.final) for w in state.windows] == [(1, False), (0, True)]
    assert legal_actions(state, 0) == []
    assert legal_actions(state, 2) == [Catch(2, 1)]
    assert_illegal(state, Catch(0, 1), "already_out")
    assert catch(state, 2, 1) == [Caught(2, 1, 2, False), PenaltyDrawn(1, 2, 2, 0)]
    assert hand(state, 1) == ["B2", "G3", "G4"]
    assert state.phase == "ending"
    time_passes(state)
    assert state.last_round is not None and state.last_round.winner == 0


def test_gone_out_player_says_nothing_for_an_earlier_window_still_open() -> None:
    # With two players a Skip comes back to its player, who goes out before the Skip's
    # window has run its time: their late "Mau" is refused; the opponent may catch them.
    state = table("american", hands=["RS R3", "G1 G2"], top="R5", stock="G3 G4 G5")
    play(state, 0, "RS")
    assert state.turn == 0
    play(state, 0, "R3")
    assert [(w.seat, w.final) for w in state.windows] == [(0, False), (0, True)]
    assert legal_actions(state, 0) == []
    assert_illegal(state, SayMau(0, "mau"), "already_out")
    assert_illegal(state, SayMau(0, "maumau"), "already_out")
    assert_illegal(state, Catch(0, 1), "already_out")
    assert legal_actions(state, 1) == [Catch(1, 0)]
    assert catch(state, 1, 0) == [Caught(1, 0, 2, False), PenaltyDrawn(0, 2, 2, 0)]
    assert hand(state, 0) == ["G3", "G4"]
    assert state.phase == "playing" and state.turn == 1 and state.windows == []


# --- scoring and the match -----------------------------------------------------------


def test_scoring_american() -> None:
    state = table(
        "american",
        hands=["R3", "R7 B0 GS YR", "R+2 W W4 B9"],
        top="R5",
        scores=[10, 20, 30],
    )
    assert play(state, 0, "R3") == [CardPlayed(0, c("R3"), NO_SUIT, None, 0)]
    assert state.phase == "ending"
    # 7 + 0 + 20 + 20 = 47 and 20 + 50 + 50 + 9 = 129.
    assert time_passes(state) == [
        CallWindowClosed(0, 0),
        RoundEnded(
            1, 0, 176, ((), tuple(cards("R7 B0 GS YR")), tuple(cards("R+2 W W4 B9"))), (186, 20, 30)
        ),
    ]
    assert state.scores == [186, 20, 30]
    assert state.phase == "round_over"
    assert state.last_round is not None
    assert state.last_round.hand_points == (0, 47, 129)
    assert state.last_round.points == 176


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("R0", 0),
        ("Y1", 1),
        ("G5", 5),
        ("B9", 9),
        ("GS", 20),
        ("BR", 20),
        ("Y+2", 20),
        ("W", 50),
        ("W4", 50),
    ],
)
def test_scoring_each_kind_of_card(code: str, points: int) -> None:
    state = table("american", hands=["R3", code], top="R5")
    play(state, 0, "R3")
    events = time_passes(state)
    assert events[-1] == RoundEnded(1, 0, points, ((), (c(code),)), (points, 0))


def test_draw_two_as_last_card_makes_nobody_draw() -> None:
    state = table("american", hands=["Y+2", "G1 G2", "Y1"], top="Y5", stock="G3 G4")
    assert play(state, 0, "Y+2") == [CardPlayed(0, c("Y+2"), NO_SUIT, None, 0)]
    assert hand(state, 1) == ["G1", "G2"]
    assert time_passes(state)[-1] == RoundEnded(
        1, 0, 4, ((), tuple(cards("G1 G2")), (c("Y1"),)), (4, 0, 0)
    )


def test_wild_draw_four_as_last_card_makes_nobody_draw() -> None:
    state = table(
        "american",
        hands=["W4", "G1 G2", "Y1"],
        top="Y5",
        stock="G3 G4 G5 G6",
        wild_draw_four_challenge=True,
    )
    assert play(state, 0, "W4", named="R") == [CardPlayed(0, c("W4"), R, None, 0)]
    assert state.penalty == 0
    assert hand(state, 1) == ["G1", "G2"]
    assert time_passes(state)[-1] == RoundEnded(
        1, 0, 4, ((), tuple(cards("G1 G2")), (c("Y1"),)), (4, 0, 0)
    )


def test_match_target_is_500_by_default() -> None:
    assert Settings.create("american").target_score == 500


def test_match_ends_at_500() -> None:
    state = table("american", hands=["R3", "GS", "R0"], top="R5", scores=[480, 490, 0])
    play(state, 0, "R3")
    assert time_passes(state) == [
        CallWindowClosed(0, 0),
        RoundEnded(1, 0, 20, ((), (c("GS"),), (c("R0"),)), (500, 490, 0)),
        MatchEnded(0, (500, 490, 0)),
    ]
    assert state.phase == "match_over"
    assert state.winner == 0
    assert_illegal(state, NextRound(), "round_not_over")
    assert_illegal(state, Draw(1), "round_over")


def test_match_goes_on_below_500() -> None:
    state = table("american", hands=["R3", "GS", "R0"], top="R5", scores=[479, 490, 0])
    play(state, 0, "R3")
    assert time_passes(state) == [
        CallWindowClosed(0, 0),
        RoundEnded(1, 0, 20, ((), (c("GS"),), (c("R0"),)), (499, 490, 0)),
    ]
    assert state.phase == "round_over"
    assert state.winner == -1
    events = apply(state, NextRound())
    assert isinstance(events[0], RoundDealt)
    assert events[0].round_no == 2
    assert state.scores == [499, 490, 0]
    assert state.phase == "playing"


# --- time and absence -------------------------------------------------------------


def test_turn_timeout_is_45_seconds_by_default() -> None:
    assert Settings.create("american").turn_timeout_s == 45


def test_turn_timeout_draws_and_passes() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G7 G8")
    assert apply(state, TurnTimeout(0)) == [TimedOut(0), CardDrawn(0, 1, False)]
    assert hand(state, 0) == ["R9", "B2", "B3", "G7"]
    assert top(state) == "R5"
    assert state.turn == 1


def test_turn_timeout_keeps_a_playable_drawn_card() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="R2 G8")
    assert apply(state, TurnTimeout(0)) == [TimedOut(0), CardDrawn(0, 1, True), Passed(0)]
    assert hand(state, 0) == ["R9", "B2", "B3", "R2"]
    assert top(state) == "R5"
    assert state.drawn == -1
    assert state.turn == 1


def test_turn_timeout_after_drawing_passes() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="R2 G8")
    draw(state, 0)
    assert apply(state, TurnTimeout(0)) == [TimedOut(0), Passed(0)]
    assert hand(state, 0) == ["R9", "B2", "B3", "R2"]
    assert state.stock == [c("G8")]
    assert state.turn == 1


def test_turn_timeout_takes_pending_draw_two_penalty() -> None:
    state = table(
        "american",
        hands=["Y+2 B2 B3", "G+2 Y6", "Y1 Y2"],
        top="Y5",
        stock="G7 B8 R1",
        stack_draw_two=True,
    )
    play(state, 0, "Y+2")
    assert apply(state, TurnTimeout(1)) == [TimedOut(1), PenaltyDrawn(1, 2, 2, PENALTY_DRAW_TWO)]
    assert hand(state, 1) == ["G+2", "Y6", "G7", "B8"]
    assert state.penalty == 0
    assert state.turn == 2


def test_turn_timeout_accepts_wild_draw_four_without_challenging() -> None:
    state = table(
        "american",
        hands=["R9 W4 B2", "G1 G2", "Y1 Y2"],
        top="R5",
        stock="B3 B4 B5 B6 B7",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    assert apply(state, TurnTimeout(1)) == [
        TimedOut(1),
        PenaltyDrawn(1, 4, 4, PENALTY_WILD_DRAW_FOUR),
    ]
    assert hand(state, 1) == ["G1", "G2", "B3", "B4", "B5", "B6"]
    assert hand(state, 0) == ["R9", "B2"]
    assert state.penalty == 0
    assert state.turn == 2


def test_turn_timeout_counts_as_the_next_players_action_for_call_windows() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9")
    time_passes(state)
    assert apply(state, TurnTimeout(1)) == [
        TimedOut(1),
        CallWindowClosed(0, 0),
        CardDrawn(1, 1, False),
    ]


def test_turn_timeout_of_a_seat_not_on_turn_is_refused() -> None:
    state = table("american", hands=["R9 B2 B3", "G1 G2", "Y1 Y2"], top="R5", stock="G7")
    assert_illegal(state, TurnTimeout(1), "not_your_turn")


# --- illegal actions ---------------------------------------------------------------


def _position() -> MatchState:
    return table("american", hands=["R9 B2 W", "G1 G2 R1", "Y1 Y2"], top="R5", stock="G7 Y8")


def _after(*steps: Callable[[MatchState], object]) -> Callable[[], MatchState]:
    def build() -> MatchState:
        state = _position()
        for step in steps:
            step(state)
        return state

    return build


@pytest.mark.parametrize(
    ("build", "action", "code"),
    [
        (_position, Play(1, c("G1")), "not_your_turn"),
        (_position, Draw(2), "not_your_turn"),
        (_position, Play(3, c("R9")), "no_such_seat"),
        (_position, Draw(-1), "no_such_seat"),
        (_position, Catch(0, 7), "no_such_seat"),
        (_position, Play(0, c("R7")), "not_in_hand"),
        (_position, Play(0, c("B2")), "does_not_match"),
        (_position, Play(0, c("W")), "must_name"),
        (_position, Play(0, c("R9"), G), "cannot_name"),
        (_position, Pass(0), "nothing_drawn"),
        (_position, Challenge(0), "nothing_to_challenge"),
        (_position, Play(0, c("R9"), NO_SUIT, "mau"), "nothing_to_call"),
        (_position, SayMau(0, "mau"), "nothing_to_call"),
        (_position, SayMau(0, "hello"), "bad_call"),  # type: ignore[arg-type]
        (_position, Catch(1, 1), "catch_self"),
        (_position, Catch(1, 0), "nothing_to_catch"),
        (_position, EndCallWindow(99), "no_such_window"),
        (_position, NextRound(), "round_not_over"),
        (_position, "draw", "unknown_action"),
        (_after(lambda s: draw(s, 0)), Draw(0), "not_your_turn"),
        (_after(lambda s: draw(s, 0)), Play(0, c("R9")), "not_your_turn"),
    ],
)
def test_illegal_actions_raise_and_leave_state_unchanged(
    build: Callable[[], MatchState], action: Action, code: str
) -> None:
    assert_illegal(build(), action, code)


def test_illegal_after_drawing_a_playable_card() -> None:
    state = table("american", hands=["R9 B2 W", "G1 G2", "Y1 Y2"], top="R5", stock="R2")
    draw(state, 0)
    assert_illegal(state, Draw(0), "already_drawn")
    assert_illegal(state, Play(0, c("R9")), "only_drawn_card")
    assert_illegal(state, Play(0, c("W"), R), "only_drawn_card")


def test_illegal_calls_after_the_window() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R9", call="mau")
    assert_illegal(state, SayMau(0, "mau"), "already_called")
    assert_illegal(state, Play(0, c("B2")), "not_your_turn")
    time_passes(state)
    draw(state, 1)
    assert_illegal(state, SayMau(0, "mau"), "window_closed")


def test_illegal_during_the_final_window_and_after_the_round() -> None:
    state = table("american", hands=["R3", "G1 G2", "Y1 Y2"], top="R5", stock="G3 G4")
    play(state, 0, "R3")
    assert_illegal(state, Draw(1), "round_ending")
    assert_illegal(state, Play(1, c("G1")), "round_ending")
    assert_illegal(state, TurnTimeout(1), "round_ending")
    assert_illegal(state, SayMau(0, "mau"), "already_out")
    time_passes(state)
    assert_illegal(state, Draw(1), "round_over")
    assert_illegal(state, SayMau(1, "mau"), "round_over")
    assert_illegal(state, Catch(1, 0), "round_over")

"""The card vocabulary: codes, decks, points and labels."""

from __future__ import annotations

from collections import Counter

import pytest

from maumau.protocol.cards import (
    AMERICAN_DECK,
    CARD_COUNT,
    CLASSIC_DECK,
    CODE_OF,
    POINTS_OF,
    UnknownCard,
    card_from_code,
    card_label,
)


def test_every_code_round_trips_and_is_unique() -> None:
    assert len(set(CODE_OF)) == CARD_COUNT
    for card in range(CARD_COUNT):
        assert card_from_code(CODE_OF[card]) == card


@pytest.mark.parametrize("code", ["", "1H", "JX", "G+4", "w", "11S", "R10", None, 7])
def test_unknown_codes_are_rejected(code: object) -> None:
    with pytest.raises(UnknownCard):
        card_from_code(code)  # type: ignore[arg-type]


def test_american_deck_composition() -> None:
    deck = Counter(CODE_OF[c] for c in AMERICAN_DECK)
    assert sum(deck.values()) == 108
    for colour in "RYGB":
        assert deck[f"{colour}0"] == 1
        for symbol in [*"123456789", "S", "R", "+2"]:
            assert deck[f"{colour}{symbol}"] == 2
        assert sum(n for code, n in deck.items() if code[0] == colour and code != "W4") == 25
    assert deck["W"] == 4 and deck["W4"] == 4


def test_points() -> None:
    points = {code: POINTS_OF[card_from_code(code)] for code in ["7H", "10S", "JC", "QD", "AS"]}
    assert points == {"7H": 7, "10S": 10, "JC": 20, "QD": 10, "AS": 10}
    american = {code: POINTS_OF[card_from_code(code)] for code in ["R0", "B9", "GS", "YR", "R+2"]}
    assert american == {"R0": 0, "B9": 9, "GS": 20, "YR": 20, "R+2": 20}
    assert POINTS_OF[card_from_code("W")] == POINTS_OF[card_from_code("W4")] == 50
    assert len(CLASSIC_DECK) == 32


def test_labels_with_symbols_and_in_ascii() -> None:
    assert card_label(card_from_code("7H")) == "7♥"
    assert card_label(card_from_code("10S"), ascii_only=True) == "10S"
    assert card_label(card_from_code("GS")) == "GSkip"
    assert card_label(card_from_code("Y+2")) == "Y+2"
    assert card_label(card_from_code("W4")) == "W+4"

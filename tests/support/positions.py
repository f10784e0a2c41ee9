"""Helpers for scripted rules tests: exact positions and stacked decks.

``table(...)`` builds a mid-round position directly: every hand, the top card, the
stock in the order it will be drawn. ``stacked_match(...)`` deals a real first round
from a deck stacked so that the given hands and face-up card come out, which is how
tests reach the dealing rules (first face-up card, who starts).

Cards are written as wire codes ("7H", "JS", "G+2", "W4").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from maumau.protocol.cards import (
    AMERICAN_DECK,
    CLASSIC_DECK,
    NO_SUIT,
    card_from_code,
)
from maumau.server.rules import (
    Catch,
    Challenge,
    Draw,
    EndCallWindow,
    Event,
    MatchState,
    Pass,
    Play,
    SayMau,
    Settings,
    apply,
    new_match,
)
from maumau.server.rules.actions import Call

SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}
COLOURS = {"R": 0, "Y": 1, "G": 2, "B": 3}


def cards(codes: Sequence[str] | str) -> list[int]:
    if isinstance(codes, str):
        codes = codes.split()
    return [card_from_code(c) for c in codes]


def table(
    variant: str = "classic",
    hands: Sequence[str] = (),
    top: str = "8H",
    stock: str = "",
    below: str = "",
    turn: int = 0,
    dealer: int | None = None,
    named: str | None = None,
    direction: int = 1,
    scores: Sequence[int] | None = None,
    **settings: Any,
) -> MatchState:
    """A position: ``hands[i]`` is seat i's hand ("7H 9S"); ``stock`` lists the cards in
    the order they will be drawn; ``below`` lists discard cards under ``top``."""
    settings.setdefault("seats", len(hands))
    state = MatchState(Settings.create(variant, **settings), seed=0)  # type: ignore[arg-type]
    state.hands = [cards(h) for h in hands]
    state.stock = list(reversed(cards(stock)))
    state.discard = [*cards(below), card_from_code(top)]
    state.turn = turn
    state.dealer = (turn - 1) % len(hands) if dealer is None else dealer
    state.direction = direction
    state.round_no = 1
    if named is not None:
        state.named = SUITS[named] if variant == "classic" else COLOURS[named]
    else:
        state.named = NO_SUIT
    if scores is not None:
        state.scores = list(scores)
    return state


class StackedRandom(random.Random):
    """A random source whose first shuffle lays out a chosen deck and whose
    ``randrange`` picks a chosen dealer. A later shuffle moves the top card to the
    bottom and leaves the rest in order, so reshuffles stay predictable."""

    def __init__(self, deck: list[int], dealer: int) -> None:
        super().__init__(0)
        self._deck: list[int] | None = deck
        self._dealer = dealer

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if self._deck is not None:
            assert sorted(x) == sorted(self._deck), "stacked deck is not a full deck"
            x[:] = self._deck
            self._deck = None
        elif x:
            x.insert(0, x.pop())

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self._dealer


def stacked_match(
    variant: str = "classic",
    hands: Sequence[str] = (),
    top: str = "8H",
    stock: str = "",
    dealer: int = 0,
    **settings: Any,
) -> tuple[MatchState, list[Event]]:
    """Deal a first round from a deck stacked to produce ``hands`` and ``top``; ``stock``
    lists the next cards of the stock in draw order (the rest follow in deck order)."""
    seats = len(hands)
    settings.setdefault("seats", seats)
    config = Settings.create(variant, **settings)  # type: ignore[arg-type]
    hand_cards = [cards(h) for h in hands]
    size = config.hand_size
    assert all(len(h) == size for h in hand_cards), f"each hand needs {size} cards"
    pops: list[int] = []
    for i in range(size):
        for offset in range(1, seats + 1):
            pops.append(hand_cards[(dealer + offset) % seats][i])
    pops.append(card_from_code(top))
    next_draws = cards(stock)
    rest = list(CLASSIC_DECK if config.is_classic else AMERICAN_DECK)
    for card in pops + next_draws:
        rest.remove(card)
    deck = rest + list(reversed(next_draws)) + list(reversed(pops))
    return new_match(config, seed=0, rng=StackedRandom(deck, dealer))


def play(
    state: MatchState, seat: int, code: str, named: str | None = None, call: Call | None = None
) -> list[Event]:
    card = card_from_code(code)
    suit = NO_SUIT
    if named is not None:
        suit = SUITS[named] if state.settings.is_classic else COLOURS[named]
    return apply(state, Play(seat, card, suit, call))


def draw(state: MatchState, seat: int) -> list[Event]:
    return apply(state, Draw(seat))


def pass_(state: MatchState, seat: int) -> list[Event]:
    return apply(state, Pass(seat))


def say(state: MatchState, seat: int, call: Call = "mau") -> list[Event]:
    return apply(state, SayMau(seat, call))


def catch(state: MatchState, seat: int, target: int) -> list[Event]:
    return apply(state, Catch(seat, target))


def challenge(state: MatchState, seat: int) -> list[Event]:
    return apply(state, Challenge(seat))


def time_passes(state: MatchState) -> list[Event]:
    """The server reports that every open call window's minimum time has passed."""
    events: list[Event] = []
    for window in list(state.windows):
        if window in state.windows:
            events += apply(state, EndCallWindow(window.id))
    return events


def hand(state: MatchState, seat: int) -> list[str]:
    from maumau.protocol.cards import CODE_OF

    return [CODE_OF[c] for c in state.hands[seat]]


def top(state: MatchState) -> str:
    from maumau.protocol.cards import CODE_OF

    return CODE_OF[state.discard[-1]]

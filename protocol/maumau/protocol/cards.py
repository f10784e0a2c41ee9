"""The card vocabulary shared by the engine, the wire and the client.

Every card of both games has one small integer id and one short readable code.
The integer is what the rules engine computes with (it indexes flat tables, which
keeps the hot path fast); the code is what travels on the wire and what a person
reads in a log.

Mau Mau (``classic``) uses 32 distinct cards, ids 0-31::

    id = suit * 8 + rank        suit: 0 S(♠) 1 H(♥) 2 D(♦) 3 C(♣)
                                rank: 0 "7" 1 "8" 2 "9" 3 "10" 4 J 5 Q 6 K 7 A
    code = rank + suit letter   "7H", "10S", "JC", "AD"

American Mau-Mau (``american``) uses 54 distinct kinds of card, ids 32-85. The
108-card deck holds some kinds twice (see :func:`american_deck`)::

    id = 32 + colour * 13 + symbol   colour: 0 R(red) 1 Y(yellow) 2 G(green) 3 B(blue)
                                     symbol: 0-9 numbers, 10 Skip, 11 Reverse, 12 Draw Two
    code = colour letter + symbol    "R5", "GS" (Skip), "BR" (Reverse), "Y+2" (Draw Two)
    id 84 = "W" (Wild), id 85 = "W4" (Wild Draw Four)

Suits of the classic game and colours of the American game share the numbers
0-3, so a named suit or colour is one small int as well; :data:`SUIT_CODES` and
:data:`COLOUR_CODES` give their wire letters.
"""

from __future__ import annotations

from typing import Final

# --- classic -----------------------------------------------------------------

SUIT_CODES: Final = ("S", "H", "D", "C")
SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_CODES: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")

RANK_7: Final = 0
RANK_8: Final = 1
RANK_9: Final = 2
RANK_10: Final = 3
RANK_JACK: Final = 4
RANK_QUEEN: Final = 5
RANK_KING: Final = 6
RANK_ACE: Final = 7

CLASSIC_CARDS: Final = range(0, 32)

# --- american ----------------------------------------------------------------

COLOUR_CODES: Final = ("R", "Y", "G", "B")
COLOUR_NAMES: Final = ("red", "yellow", "green", "blue")

SYMBOL_SKIP: Final = 10
SYMBOL_REVERSE: Final = 11
SYMBOL_DRAW_TWO: Final = 12
SYMBOL_WILD: Final = 13
SYMBOL_WILD_DRAW_FOUR: Final = 14
SYMBOL_CODES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
SYMBOL_LABELS: Final = (
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "Skip",
    "Rev",
    "+2",
)

AMERICAN_BASE: Final = 32
WILD: Final = 84
WILD_DRAW_FOUR: Final = 85
CARD_COUNT: Final = 86

NO_SUIT: Final = -1
"""Suit/colour value of a card that has none (the American wilds)."""


def classic_card(suit: int, rank: int) -> int:
    """Id of the classic card of ``suit`` (0-3) and ``rank`` (0-7)."""
    return suit * 8 + rank


def american_card(colour: int, symbol: int) -> int:
    """Id of the coloured American card of ``colour`` (0-3) and ``symbol`` (0-12)."""
    return AMERICAN_BASE + colour * 13 + symbol


def _build_tables() -> tuple[list[int], list[int], list[str], list[int]]:
    suit_of: list[int] = []
    rank_of: list[int] = []
    code_of: list[str] = []
    points_of: list[int] = []
    classic_points = (7, 8, 9, 10, 20, 10, 10, 10)
    for suit in range(4):
        for rank in range(8):
            suit_of.append(suit)
            rank_of.append(rank)
            code_of.append(RANK_CODES[rank] + SUIT_CODES[suit])
            points_of.append(classic_points[rank])
    for colour in range(4):
        for symbol in range(13):
            suit_of.append(colour)
            rank_of.append(symbol)
            code_of.append(COLOUR_CODES[colour] + SYMBOL_CODES[symbol])
            points_of.append(symbol if symbol < 10 else 20)
    suit_of += [NO_SUIT, NO_SUIT]
    rank_of += [SYMBOL_WILD, SYMBOL_WILD_DRAW_FOUR]
    code_of += ["W", "W4"]
    points_of += [50, 50]
    return suit_of, rank_of, code_of, points_of


_SUIT, _RANK, _CODE, _POINTS = _build_tables()

SUIT_OF: Final[tuple[int, ...]] = tuple(_SUIT)
"""Suit (classic) or colour (american) of each card id; NO_SUIT for wilds."""
RANK_OF: Final[tuple[int, ...]] = tuple(_RANK)
"""Rank index (classic) or symbol (american) of each card id."""
CODE_OF: Final[tuple[str, ...]] = tuple(_CODE)
"""Wire code of each card id."""
POINTS_OF: Final[tuple[int, ...]] = tuple(_POINTS)
"""Points a card left in a loser's hand is worth to the round's winner."""
CARD_BY_CODE: Final[dict[str, int]] = {code: card for card, code in enumerate(_CODE)}

CLASSIC_DECK: Final[tuple[int, ...]] = tuple(CLASSIC_CARDS)


def american_deck() -> tuple[int, ...]:
    """The 108 cards of the American deck, with repeated ids for the doubles."""
    deck: list[int] = []
    for colour in range(4):
        deck.append(american_card(colour, 0))
        for symbol in range(1, 13):
            deck += [american_card(colour, symbol)] * 2
    deck += [WILD] * 4 + [WILD_DRAW_FOUR] * 4
    return tuple(deck)


AMERICAN_DECK: Final[tuple[int, ...]] = american_deck()


class UnknownCard(ValueError):
    """A card code that names no card."""


def card_from_code(code: str) -> int:
    """Card id for a wire code such as ``"7H"`` or ``"G+2"``; raises UnknownCard."""
    try:
        return CARD_BY_CODE[code]
    except (KeyError, TypeError):
        raise UnknownCard(f"unknown card code {code!r}") from None


def is_classic(card: int) -> bool:
    return 0 <= card < AMERICAN_BASE


def suit_from_code(code: str) -> int:
    """Suit number for ``"S"``, ``"H"``, ``"D"`` or ``"C"``; raises ValueError."""
    try:
        return SUIT_CODES.index(code)
    except ValueError:
        raise ValueError(f"unknown suit {code!r}; expected one of S H D C") from None


def colour_from_code(code: str) -> int:
    """Colour number for ``"R"``, ``"Y"``, ``"G"`` or ``"B"``; raises ValueError."""
    try:
        return COLOUR_CODES.index(code)
    except ValueError:
        raise ValueError(f"unknown colour {code!r}; expected one of R Y G B") from None


def card_label(card: int, ascii_only: bool = False) -> str:
    """How a person reads a card: ``7♥`` (or ``7H``), ``G7``, ``RSkip``, ``Wild``, ``W+4``."""
    if card == WILD:
        return "Wild"
    if card == WILD_DRAW_FOUR:
        return "W+4"
    if is_classic(card):
        suit = SUIT_OF[card]
        return RANK_CODES[RANK_OF[card]] + (SUIT_CODES[suit] if ascii_only else SUIT_SYMBOLS[suit])
    return COLOUR_CODES[SUIT_OF[card]] + SYMBOL_LABELS[RANK_OF[card]]


def suit_label(suit: int, variant_is_classic: bool, ascii_only: bool = False) -> str:
    """A named suit (``♥ hearts``) or colour (``green``) in words."""
    if variant_is_classic:
        name = SUIT_NAMES[suit]
        return name if ascii_only else f"{SUIT_SYMBOLS[suit]} {name}"
    return COLOUR_NAMES[suit]

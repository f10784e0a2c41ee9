"""The client's view model: everything the screens show, built from server messages.

The server is the only authority. The client keeps the latest ``lobby``, ``table``
and ``view`` snapshots, the event log and the chat, and derives what the screens
need from them: whose turn it is, which of my cards are legal (straight from the
view's legal actions, so the client never re-implements the rules), what each key
would do now. Nothing here does I/O, so it is tested without a terminal.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from maumau.protocol.cards import (
    CARD_BY_CODE,
    COLOUR_CODES,
    COLOUR_NAMES,
    RANK_OF,
    SUIT_CODES,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SYMBOLS,
    card_label,
    is_classic,
)
from maumau.protocol.messages import (
    ChatLine,
    GameEvent,
    Lobby,
    MauDecision,
    Message,
    TableInfo,
    View,
    Welcome,
)

LOG_LINES = 200
SUIT_ORDER = {code: i for i, code in enumerate(("C", "S", "H", "D", "R", "Y", "G", "B"))}


def card_sort_key(code: str) -> tuple[int, int]:
    card = CARD_BY_CODE[code]
    suit = SUIT_OF[card]
    return (suit if suit >= 0 else 9, RANK_OF[card])


def label(code: str, ascii_only: bool) -> str:
    """A card as a person reads it: ``7♥`` (``7H`` in ASCII), ``GSkip``, ``W+4``."""
    return card_label(CARD_BY_CODE[code], ascii_only)


def suit_words(letter: str, ascii_only: bool) -> str:
    if letter in SUIT_CODES:
        i = SUIT_CODES.index(letter)
        return SUIT_NAMES[i] if ascii_only else f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}"
    return COLOUR_NAMES[COLOUR_CODES.index(letter)]


ASCII_TEXT = str.maketrans(
    {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "↻": "->", "↺": "<-", "▶": ">", "·": "-"}
)


def plain(text: str, ascii_only: bool) -> str:
    """Server text for this terminal: suit symbols become letters in ASCII mode."""
    return text.translate(ASCII_TEXT) if ascii_only else text


def is_red(code: str) -> bool:
    card = CARD_BY_CODE[code]
    return is_classic(card) and SUIT_OF[card] in (1, 2)


@dataclass
class Model:
    """What the client knows. ``apply`` folds each server message in."""

    name: str = ""
    resume: str | None = None
    lobby: Lobby | None = None
    table: TableInfo | None = None
    view: View | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    lobby_chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    score_history: list[tuple[int, ...]] = field(default_factory=list)
    left_table_id: int | None = None
    match_no: int = 0  # counts matches seen at this table (a rematch starts a new one)

    def apply(self, message: Message) -> bool:
        """Fold ``message`` in; False if it was about a table we have left (ignored)."""
        if self._stale(message):
            return False
        if isinstance(message, Welcome):
            self.name = message.name
            self.resume = message.resume
        elif isinstance(message, Lobby):
            self.lobby = message
        elif isinstance(message, TableInfo):
            if self.table is None or self.table.id != message.id:
                self.log.clear()
                self.chat.clear()
                self.view = None
                self.score_history = []
            self.table = message
        elif isinstance(message, View):
            self._fold_view(message)
        elif isinstance(message, (GameEvent, MauDecision)):
            self.log.append(message.text)
        elif isinstance(message, ChatLine):
            line = f"{message.sender}: {message.text}"
            (self.chat if message.scope == "table" else self.lobby_chat).append(line)
        return True

    def _stale(self, message: Message) -> bool:
        gone = self.left_table_id
        if gone is None:
            return False
        if isinstance(message, TableInfo):
            if message.id != gone or message.you is not None or self.name in message.spectators:
                self.left_table_id = None  # we are at a table again
                return False
            return True
        return isinstance(message, View | GameEvent | MauDecision) and message.table == gone

    def left_table(self) -> None:
        if self.table is not None:
            self.left_table_id = self.table.id
        self.table = None
        self.view = None

    def _fold_view(self, view: View) -> None:
        previous = self.view
        if (
            previous is None
            or view.round < previous.round
            or (previous.phase == "match_over" and view.phase != "match_over")
        ):
            self.match_no += 1
            self.score_history = []
        if view.last_round is not None and (
            previous is None or previous.last_round != view.last_round
        ):
            scores = tuple(view.last_round["scores"])
            if not self.score_history or self.score_history[-1] != scores:
                self.score_history.append(scores)
        self.view = view

    # --- what the table screen needs ------------------------------------------------

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.seat
        return self.table.you if self.table is not None else None

    @property
    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v.phase == "playing" and v.seat is not None and v.turn == v.seat

    def names(self) -> list[str]:
        if self.table is None:
            return []
        return [
            (s["name"] or f"Seat {i + 1}") + (" (bot)" if s["bot"] else "")
            for i, s in enumerate(self.table.seats)
        ]

    def hand(self) -> list[str]:
        """My cards, sorted by suit then rank."""
        if self.view is None or self.view.hand is None:
            return []
        return sorted(self.view.hand, key=card_sort_key)

    def legal(self, kind: str) -> list[dict[str, Any]]:
        if self.view is None:
            return []
        return [a for a in self.view.legal if a["kind"] == kind]

    def playable(self) -> set[str]:
        return {a["card"] for a in self.legal("play")}

    def needs_name(self, code: str) -> bool:
        return any(a.get("named") for a in self.legal("play") if a["card"] == code)

    def names_for(self, code: str) -> list[str]:
        return [a["named"] for a in self.legal("play") if a["card"] == code and a.get("named")]

    def catch_targets(self) -> list[int]:
        return [a["target"] for a in self.legal("catch")]

    def owes_call(self) -> bool:
        """I played my second-to-last card and have said nothing yet."""
        v = self.view
        if v is None or v.seat is None or not self.legal("say_mau"):
            return False
        return any(
            w["seat"] == v.seat and not w["final"] and w["called"] is None for w in v.windows
        )

    def can_upgrade(self) -> bool:
        """I said "Mau" but keep a Jack: "Mau Mau" still protects me."""
        hand = self.hand()
        return (
            self.is_classic()
            and not self.owes_call()
            and any(a["call"] == "maumau" for a in self.legal("say_mau"))
            and len(hand) == 1
            and hand[0].startswith("J")
        )

    def holds_jack(self) -> bool:
        return self.is_classic() and any(c.startswith("J") for c in self.hand())

    def can_arm(self) -> bool:
        """A call can ride on my next play: I hold two cards and it is my turn."""
        return self.my_turn and len(self.hand()) == 2 and bool(self.legal("play"))

    def variant(self) -> str:
        if self.table is None:
            return "classic"
        return str(self.table.settings.get("variant", "classic"))

    def is_classic(self) -> bool:
        return self.variant() == "classic"

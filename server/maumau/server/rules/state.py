"""The match state: everything the rules engine knows, hidden cards included.

A :class:`MatchState` is owned by the server and changed only by
:func:`~maumau.server.rules.engine.apply`, which works on it in place (like
OpenSpiel's ``apply_action``); :meth:`MatchState.clone` gives an independent copy.
It never leaves the server: players and spectators get
:func:`~maumau.server.rules.views.view` of it.

Cards are integer ids from :mod:`maumau.protocol.cards`. The top of the stock and of
the discard pile is the end of their list. The match's only source of chance is its
own ``random.Random``, seeded at creation, so the same seed and the same actions give
the same match.

Call windows are state, not time: a :class:`CallWindow` opens when a player plays
their second-to-last (or last) card and remembers whether the next player has acted
and whether the server has said that ``mau_window_ms`` have passed (which a table
without ``mau_window_minimum`` does not wait for). Its id is the
number of the action that opened it ("seat 2 has an open window since action 57").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

from maumau.protocol.cards import CODE_OF

from .actions import Call
from .settings import Settings

Phase = Literal["playing", "ending", "round_over", "match_over"]
"""``ending``: the last card is down and its call window is still open."""


class CallWindow:
    """One open call window. Mutable; lives only inside a MatchState."""

    __slots__ = ("acted", "called", "card", "elapsed", "final", "id", "seat")

    def __init__(self, id: int, seat: int, card: int, final: bool) -> None:
        self.id = id
        self.seat = seat
        self.card = card
        self.final = final
        self.called: Call | None = None
        self.elapsed = False
        self.acted = False

    def copy(self) -> CallWindow:
        other = CallWindow(self.id, self.seat, self.card, self.final)
        other.called, other.elapsed, other.acted = self.called, self.elapsed, self.acted
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "card": CODE_OF[self.card],
            "final": self.final,
            "called": self.called,
            "elapsed": self.elapsed,
            "acted": self.acted,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended: every hand revealed, and the points it gave."""

    round_no: int
    winner: int
    points: int
    hands: tuple[tuple[int, ...], ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]


class MatchState:
    """All of one match. See the module docstring for the conventions."""

    __slots__ = (
        "action_no",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "hands",
        "last_call",
        "last_round",
        "named",
        "penalty",
        "penalty_kind",
        "phase",
        "rng",
        "round_no",
        "scores",
        "seats",
        "seed",
        "settings",
        "stock",
        "turn",
        "wd4_guilty",
        "wd4_seat",
        "windows",
        "winner",
    )

    def __init__(self, settings: Settings, seed: int) -> None:
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.seats = settings.seats
        self.hands: list[list[int]] = [[] for _ in range(settings.seats)]
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.named = -1
        self.direction = 1
        self.turn = 0
        self.dealer = 0
        self.phase: Phase = "playing"
        self.penalty = 0
        self.penalty_kind = 0
        self.drawn = -1
        self.wd4_seat = -1
        self.wd4_guilty = False
        self.windows: list[CallWindow] = []
        self.last_call: list[Call | None] = [None] * settings.seats
        self.scores = [0] * settings.seats
        self.round_no = 0
        self.action_no = 0
        self.last_round: RoundResult | None = None
        self.winner = -1

    @property
    def top(self) -> int:
        return self.discard[-1]

    def clone(self) -> MatchState:
        """An independent deep copy, random generator included."""
        other = MatchState.__new__(MatchState)
        for name in MatchState.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = [hand[:] for hand in self.hands]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.windows = [w.copy() for w in self.windows]
        other.last_call = self.last_call[:]
        other.scores = self.scores[:]
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (hidden cards and RNG state included)."""
        return {
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "rng": self.rng.getstate(),
            "hands": [[CODE_OF[c] for c in hand] for hand in self.hands],
            "stock": [CODE_OF[c] for c in self.stock],
            "discard": [CODE_OF[c] for c in self.discard],
            "named": self.named,
            "direction": self.direction,
            "turn": self.turn,
            "dealer": self.dealer,
            "phase": self.phase,
            "penalty": self.penalty,
            "penalty_kind": self.penalty_kind,
            "drawn": CODE_OF[self.drawn] if self.drawn >= 0 else None,
            "wd4_seat": self.wd4_seat,
            "wd4_guilty": self.wd4_guilty,
            "windows": [w.to_dict() for w in self.windows],
            "last_call": list(self.last_call),
            "scores": list(self.scores),
            "round_no": self.round_no,
            "action_no": self.action_no,
            "winner": self.winner,
        }

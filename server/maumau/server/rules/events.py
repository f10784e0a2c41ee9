"""Events: what changed, as values.

:func:`~maumau.server.rules.engine.apply` returns the events an action caused, in
order. Every event holds only public information (a drawn card is never named), so
the same list can go to every seat, to spectators, into the log and into a replay.
They travel as facts (:mod:`.facts`); the one renderer that writes them as sentences,
in any language, is :mod:`maumau.protocol.sentences`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from .actions import Call

PENALTY_SEVEN = 1
PENALTY_DRAW_TWO = 2
PENALTY_WILD_DRAW_FOUR = 3


@dataclass(frozen=True, slots=True)
class RoundDealt:
    round_no: int
    dealer: int
    top: int
    named: int
    first: int
    returned_wild_draw_fours: int = 0


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int
    named: int
    call: Call | None
    cards_left: int


@dataclass(frozen=True, slots=True)
class PenaltyPending:
    """``seat`` must draw ``amount`` or answer (kind says with what)."""

    seat: int
    amount: int
    kind: int
    can_challenge: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyDrawn:
    seat: int
    count: int
    wanted: int
    kind: int


@dataclass(frozen=True, slots=True)
class Skipped:
    seat: int


@dataclass(frozen=True, slots=True)
class Reversed:
    direction: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """``seat`` drew ``count`` cards (0 or 1); ``may_play`` if the drawn card can be played."""

    seat: int
    count: int
    may_play: bool


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffled:
    count: int


@dataclass(frozen=True, slots=True)
class MauSaid:
    seat: int
    call: Call


@dataclass(frozen=True, slots=True)
class Caught:
    """``catcher`` caught ``target`` not saying Mau (Mau Mau for a ``final_card``) for
    ``card``, the card that opened the window (-1: not known). A catch may be logged
    after the next player's move: the text names that earlier card."""

    catcher: int
    target: int
    count: int
    final_card: bool
    card: int = field(default=-1, compare=False)


@dataclass(frozen=True, slots=True)
class FalseCatch:
    catcher: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class CallWindowClosed:
    seat: int
    window: int


@dataclass(frozen=True, slots=True)
class ChallengeDecided:
    challenger: int
    target: int
    upheld: bool


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round_no: int
    winner: int
    points: int
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: int
    scores: tuple[int, ...]


Event: TypeAlias = (
    RoundDealt
    | CardPlayed
    | PenaltyPending
    | PenaltyDrawn
    | Skipped
    | Reversed
    | CardDrawn
    | Passed
    | Reshuffled
    | MauSaid
    | Caught
    | FalseCatch
    | CallWindowClosed
    | ChallengeDecided
    | TimedOut
    | RoundEnded
    | MatchEnded
)

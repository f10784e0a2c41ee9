"""Events: what changed, as values, and in plain words.

:func:`~maumau.server.rules.engine.apply` returns the events an action caused, in
order. Every event holds only public information (a drawn card is never named), so
the same list can go to every seat, to spectators, into the log and into a replay.
:func:`describe` turns one into a sentence such as
"Ann plays 7♥: Bob must draw 2 or answer with a 7", given the players' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from maumau.protocol.cards import NO_SUIT, card_label, is_classic, suit_label

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

_ANSWER = {
    PENALTY_SEVEN: "answer with a 7",
    PENALTY_DRAW_TWO: "answer with a Draw Two",
    PENALTY_WILD_DRAW_FOUR: "challenge",
}
_CALL_WORDS = {"mau": '"Mau"', "maumau": '"Mau Mau"'}


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def describe(event: Event, names: Sequence[str], ascii_only: bool = False) -> str:
    """One plain-words sentence for ``event``; ``names[seat]`` names each seat."""

    def card(c: int) -> str:
        return card_label(c, ascii_only)

    def named(c: int, suit: int) -> str:
        return suit_label(suit, is_classic(c), ascii_only)

    match event:
        case RoundDealt(round_no, dealer, top, suit, first, returned):
            fours = "Wild Draw Four" if returned == 1 else "Wild Draw Fours"
            back = f" ({returned} {fours} put back)" if returned else ""
            to_follow = f", {named(top, suit)} to follow" if suit != NO_SUIT else ""
            return (
                f"Round {round_no}: {names[dealer]} deals; {card(top)} turned up{back}"
                f"{to_follow}; {names[first]} to play"
            )
        case CardPlayed(seat, c, suit, call, left):
            text = f"{names[seat]} plays {card(c)}"
            if suit != NO_SUIT:
                text += f" and names {named(c, suit)}"
            if call:
                text += f", saying {_CALL_WORDS[call]}"
            if left == 0:
                text += f": {names[seat]} is out"
            elif left == 1:
                text += (", and" if call else " and") + " has one card left"
            return text
        case PenaltyPending(seat, amount, kind, can_challenge):
            answer = _ANSWER[kind]
            if kind == PENALTY_WILD_DRAW_FOUR and not can_challenge:
                return f"{names[seat]} must draw {amount}"
            return f"{names[seat]} must draw {amount} or {answer}"
        case PenaltyDrawn(seat, count, wanted, _):
            short = f" (only {count} left to draw)" if count < wanted else ""
            return f"{names[seat]} draws {_cards(count)}{short}"
        case Skipped(seat):
            return f"{names[seat]} is skipped"
        case Reversed(direction):
            way = "clockwise" if direction == 1 else "counter-clockwise"
            return f"Play now goes {way}"
        case CardDrawn(seat, count, may_play):
            if count == 0:
                return f"{names[seat]} finds nothing left to draw"
            return f"{names[seat]} draws a card" + (" and may play it" if may_play else "")
        case Passed(seat):
            return f"{names[seat]} keeps the drawn card"
        case Reshuffled(count):
            return f"The discard pile is shuffled into a new stock of {_cards(count)}"
        case MauSaid(seat, call):
            return f"{names[seat]} says {_CALL_WORDS[call]}"
        case Caught(catcher, target, count, final_card, c):
            why = "Mau Mau" if final_card else "Mau"
            who, caught = names[catcher], names[target]
            if c < 0:
                for_what = f"did not say {why} for an earlier card"
            elif final_card:
                for_what = f"went out on {card(c)} without saying {why}"
            else:
                for_what = f"played {card(c)} without saying {why}"
            return f"{who} catches {caught}, who {for_what}: {caught} draws {count}"
        case FalseCatch(catcher, target, count):
            return f"{names[catcher]} wrongly tries to catch {names[target]} and draws {count}"
        case CallWindowClosed(seat, _):
            return f"{names[seat]}'s call window closes"
        case ChallengeDecided(challenger, target, upheld):
            if upheld:
                return (
                    f"{names[challenger]} challenges {names[target]}'s Wild Draw Four"
                    f" and is right: {names[target]} draws 4"
                )
            return (
                f"{names[challenger]} challenges {names[target]}'s Wild Draw Four and is wrong: "
                f"{names[challenger]} draws 6"
            )
        case TimedOut(seat):
            return f"{names[seat]} ran out of time; the server acts for them"
        case RoundEnded(round_no, winner, points, _, _):
            return f"Round {round_no} goes to {names[winner]}, who scores {points}"
        case MatchEnded(winner, scores):
            return f"{names[winner]} wins the match with {scores[winner]} points"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover

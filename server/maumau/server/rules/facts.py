"""Events as facts for the wire: the fields an ``event`` message carries (it carries
no sentence: every side writes one from the facts, in its player's language, with
:mod:`maumau.protocol.sentences`). Which facts each kind carries is declared once,
in :data:`maumau.protocol.messages.KIND_FACTS`; the tests check these builders
against it.

:func:`event_facts` maps each event class to a small function that builds the facts
as a plain dict, by hand: one call per event sent, so it stays cheap (no
``dataclasses.asdict``, no reflection). Cards become card codes (``"7H"``, ``"W4"``),
a named suit or colour its letter (``"S"`` or ``"R"``, by the card that named it),
penalty kinds ``"seven"``, ``"draw_two"`` or ``"wild_draw_four"``. The keys come in
the order of :data:`maumau.protocol.messages.EVENT_FACTS`, the order
:meth:`GameEvent.to_wire` packs them in, so a frame built from these facts has the
bytes of the message packed whole. ``kind`` is not among the facts;
:func:`event_kind` names it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, NO_SUIT, SUIT_CODES, is_classic

from .events import (
    PENALTY_DRAW_TWO,
    PENALTY_SEVEN,
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    CardPlayed,
    Caught,
    ChallengeDecided,
    Event,
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

ANSWERS = {
    PENALTY_SEVEN: "seven",
    PENALTY_DRAW_TWO: "draw_two",
    PENALTY_WILD_DRAW_FOUR: "wild_draw_four",
}
"""A penalty's kind as the wire names it (``answer`` of the penalty events)."""


@functools.cache
def event_kind(name: str) -> str:
    """The wire ``kind`` of an event class named ``name``: ``CardPlayed`` -> ``card_played``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def named_code(card: int, named: int) -> str:
    """The letter of the suit (classic card) or colour (american) ``named`` names."""
    return (SUIT_CODES if is_classic(card) else COLOUR_CODES)[named]


def _round_dealt(e: RoundDealt) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "round": e.round_no,
        "dealer": e.dealer,
        "top": CODE_OF[e.top],
    }
    if e.named != NO_SUIT:
        facts["named"] = named_code(e.top, e.named)
    facts["first"] = e.first
    if e.returned_wild_draw_fours:
        facts["returned"] = e.returned_wild_draw_fours
    return facts


def _card_played(e: CardPlayed) -> dict[str, Any]:
    facts: dict[str, Any] = {"seat": e.seat, "card": CODE_OF[e.card]}
    if e.named != NO_SUIT:
        facts["named"] = named_code(e.card, e.named)
    if e.call:
        facts["call"] = e.call
    facts["cards_left"] = e.cards_left
    return facts


def _penalty_pending(e: PenaltyPending) -> dict[str, Any]:
    return {
        "seat": e.seat,
        "amount": e.amount,
        "answer": ANSWERS[e.kind],
        "can_challenge": e.can_challenge,
    }


def _penalty_drawn(e: PenaltyDrawn) -> dict[str, Any]:
    facts: dict[str, Any] = {"seat": e.seat, "count": e.count, "wanted": e.wanted}
    answer = ANSWERS.get(e.kind)
    if answer is not None:  # kind 0: a Mau penalty or a false catch, told by its own event
        facts["answer"] = answer
    return facts


def _caught(e: Caught) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    if e.card >= 0:
        facts["card"] = CODE_OF[e.card]
    facts["count"] = e.count
    facts["catcher"] = e.catcher
    facts["target"] = e.target
    facts["final_card"] = e.final_card
    return facts


def _seat_only(e: Skipped | Passed | TimedOut) -> dict[str, Any]:
    return {"seat": e.seat}


_FACTS: dict[type, Callable[[Any], dict[str, Any]]] = {
    RoundDealt: _round_dealt,
    CardPlayed: _card_played,
    PenaltyPending: _penalty_pending,
    PenaltyDrawn: _penalty_drawn,
    Skipped: _seat_only,
    Reversed: lambda e: {"direction": e.direction},
    CardDrawn: lambda e: {"seat": e.seat, "count": e.count, "may_play": e.may_play},
    Passed: _seat_only,
    Reshuffled: lambda e: {"count": e.count},
    MauSaid: lambda e: {"seat": e.seat, "call": e.call},
    Caught: _caught,
    FalseCatch: lambda e: {"count": e.count, "catcher": e.catcher, "target": e.target},
    CallWindowClosed: lambda e: {"seat": e.seat, "window": e.window},
    ChallengeDecided: lambda e: {
        "target": e.target,
        "challenger": e.challenger,
        "upheld": e.upheld,
    },
    TimedOut: _seat_only,
    RoundEnded: lambda e: {
        "round": e.round_no,
        "winner": e.winner,
        "points": e.points,
        "scores": list(e.scores),
    },
    MatchEnded: lambda e: {"winner": e.winner, "scores": list(e.scores)},
}


def event_facts(event: Event) -> dict[str, Any]:
    """The facts of ``event`` (without ``kind``), in wire order."""
    return _FACTS[type(event)](event)


def event_map(event: Event) -> dict[str, Any]:
    """``kind`` and the facts: an entry of a replay step's ``events``."""
    facts = {"kind": event_kind(type(event).__name__)}
    facts.update(_FACTS[type(event)](event))
    return facts

"""How a table's news is packed for the wire: ``view`` frames built from a public part
packed once per change and each seat's own part, and the small conversions they use.

These are pure functions of the match and the table's settings; ``tests/test_view_frames.py``
holds their bytes to those of packing :func:`maumau.server.rules.public_view` and
:func:`maumau.server.rules.private_view` whole.
"""

from __future__ import annotations

import functools
from typing import Any

import msgpack

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, SUIT_CODES
from maumau.protocol.codec import HEADER, encode_frame
from maumau.protocol.messages import GameEvent, View

from ..rules import (
    Action,
    Catch,
    Challenge,
    Draw,
    Event,
    Pass,
    Play,
    PrivateView,
    SayMau,
)
from ..rules.facts import event_facts, event_kind
from ..rules.views import RoundView


def event_frame(table: int, seq: int, event: Event) -> bytes:
    """One ``event`` frame: ``event``'s facts, with the table's sequence number."""
    line = {  # a GameEvent, as its to_wire() gives it
        "type": GameEvent.TYPE,
        "table": table,
        "seq": seq,
        "kind": event_kind(type(event).__name__),
    }
    line.update(event_facts(event))
    return encode_frame(line)


def action_to_wire(action: Action, classic: bool) -> dict[str, Any]:
    if isinstance(action, Play):
        data: dict[str, Any] = {"kind": "play", "card": CODE_OF[action.card]}
        if action.named >= 0:
            data["named"] = (SUIT_CODES if classic else COLOUR_CODES)[action.named]
        return data
    if isinstance(action, Draw):
        return {"kind": "draw"}
    if isinstance(action, Pass):
        return {"kind": "pass"}
    if isinstance(action, Challenge):
        return {"kind": "challenge"}
    if isinstance(action, SayMau):
        return {"kind": "say_mau", "call": action.call}
    if isinstance(action, Catch):
        return {"kind": "catch", "target": action.target}
    raise TypeError(action)


EVENTS_AND_VIEW = (GameEvent, View)


def round_wire(last: RoundView | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "round": last.round_no,
        "winner": last.winner,
        "points": last.points,
        "hands": last.hands,
        "hand_points": last.hand_points,
        "scores": last.scores,
    }


PRIVATE_KEYS = ("seat", "hand", "drawn", "legal")


def map_body(data: dict[str, Any]) -> bytes:
    """``data`` packed as a msgpack map, without the map's header."""
    packed: bytes = msgpack.packb(data)
    return packed[1:] if len(data) < 16 else packed[3:]


def _map_header(count: int) -> bytes:
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _array_header(count: int) -> bytes:
    return bytes((0x90 | count,)) if count < 16 else b"\xdc" + count.to_bytes(2, "big")


@functools.cache
def _packed_action(action: Action, classic: bool) -> bytes:
    packed: bytes = msgpack.packb(action_to_wire(action, classic))
    return packed


_LEGAL_KEY: bytes = msgpack.packb("legal")


LAST_ROUND_KEY: bytes = msgpack.packb("last_round")


def private_body(mine: PrivateView, classic: bool) -> bytes:
    """``seat``, ``hand``, ``drawn`` and ``legal``, packed as the end of a map's body."""
    private = map_body({"seat": mine.seat, "hand": mine.hand, "drawn": mine.drawn})
    legal = _array_header(len(mine.legal)) + b"".join(
        _packed_action(action, classic) for action in mine.legal
    )
    return private + _LEGAL_KEY + legal


def view_frame(count: int, public_body: bytes, private: bytes) -> bytes:
    """One ``view`` frame: the public part, packed once per change (``public_body``,
    from :func:`map_body`), then the seat's own (from :func:`private_body`); ``count``
    is the number of keys in all. The bytes are those of packing the whole map at
    once, without repacking the public part for every seat."""
    body = b"".join((_map_header(count), public_body, private))
    return HEADER.pack(len(body)) + body

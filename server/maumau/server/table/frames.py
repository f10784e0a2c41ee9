"""How a table's news is packed for the wire: ``view`` frames built from a public part
packed once per change and each seat's own part, and the small conversions they use.

These are pure functions of the match and the table's settings; ``tests/test_view_frames.py``
holds their bytes to those of packing :func:`maumau.server.rules.public_view` and
:func:`maumau.server.rules.private_view` whole.
"""

from __future__ import annotations

from typing import Any

import msgpack

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, SUIT_CODES
from maumau.protocol.codec import HEADER
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

# One packer for the frames the event loop makes (msgpack.packb makes a new one, with
# its buffer, for every call; packing is synchronous, so one is never shared).
_pack = msgpack.Packer().pack


def event_frame(table: int, seq: int, event: Event) -> bytes:
    """One ``event`` frame: ``event``'s facts, with the table's sequence number."""
    line = {  # a GameEvent, as its to_wire() gives it
        "type": GameEvent.TYPE,
        "table": table,
        "seq": seq,
        "kind": event_kind(type(event).__name__),
    }
    line.update(event_facts(event))
    body: bytes = _pack(line)
    return HEADER.pack(len(body)) + body


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
    packed: bytes = _pack(data)
    return packed[1:] if len(data) < 16 else packed[3:]


def _map_header(count: int) -> bytes:
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _array_header(count: int) -> bytes:
    return bytes((0x90 | count,)) if count < 16 else b"\xdc" + count.to_bytes(2, "big")


_LEGAL_KEY: bytes = msgpack.packb("legal")


LAST_ROUND_KEY: bytes = msgpack.packb("last_round")


def private_body(mine: PrivateView, classic: bool) -> bytes:
    """``seat``, ``hand``, ``drawn`` and ``legal``, packed as the end of a map's body."""
    return packed_private(mine.seat, mine.hand, mine.drawn, mine.legal, classic)


def packed_private(
    seat: int | None,
    hand: tuple[str, ...] | None,
    drawn: str | None,
    legal: tuple[Action, ...],
    classic: bool,
) -> bytes:
    """:func:`private_body` from the parts of a :class:`PrivateView` (the server packs
    the seat on turn's part for every change, without making the view object)."""
    packed: bytes = _pack({"seat": seat, "hand": hand, "drawn": drawn})
    header = _SMALL_ARRAYS[len(legal)] if len(legal) < 16 else _array_header(len(legal))
    actions = _PACKED_CLASSIC if classic else _PACKED_AMERICAN
    return b"".join(
        (packed[1:], _LEGAL_KEY, header, *[actions.get(a) or actions.add(a) for a in legal])
    )


class _PackedActions(dict[Action, bytes]):
    """Actions as packed for the wire, each packed once (they are small values)."""

    def __init__(self, classic: bool) -> None:
        super().__init__()
        self.classic = classic

    def add(self, action: Action) -> bytes:
        packed: bytes = msgpack.packb(action_to_wire(action, self.classic))
        self[action] = packed
        return packed


_PACKED_CLASSIC = _PackedActions(True)
_PACKED_AMERICAN = _PackedActions(False)
_SMALL_ARRAYS = tuple(bytes((0x90 | n,)) for n in range(16))


def view_frame(count: int, public_body: bytes, private: bytes) -> bytes:
    """One ``view`` frame: the public part, packed once per change (``public_body``,
    from :func:`map_body`), then the seat's own (from :func:`private_body`); ``count``
    is the number of keys in all. The bytes are those of packing the whole map at
    once, without repacking the public part for every seat."""
    prefix = view_prefix(count, public_body)
    return b"".join((HEADER.pack(len(prefix) + len(private)), prefix, private))


def view_prefix(count: int, public_body: bytes) -> bytes:
    """What every seat's ``view`` frame of one change starts with after the frame's
    length: the map's header (``count`` keys in all) and the public part."""
    return _map_header(count) + public_body


def keyed_frames(wire: dict[str, Any], key: str, values: list[Any]) -> list[bytes]:
    """``wire`` with ``key`` set to each of ``values``, as frames: the rest of the map
    is packed once for all of them (a ``table_info`` for each seat with its own
    ``you``). ``key`` is packed last; a map's order means nothing on the wire."""
    rest = {k: v for k, v in wire.items() if k != key}
    header = _map_header(len(rest) + 1)
    body = map_body(rest) + msgpack.packb(key)
    frames = []
    for value in values:
        tail: bytes = msgpack.packb(value)
        size = len(header) + len(body) + len(tail)
        frames.append(b"".join((HEADER.pack(size), header, body, tail)))
    return frames

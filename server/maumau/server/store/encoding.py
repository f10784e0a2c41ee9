"""How values are kept in columns: compact JSON text for settings, seats, names and
scores; msgpack for the two fields of a journal row (the action's record and the
running timers), several times cheaper to make than JSON, and the journal gets a row
for every action. Rows of schema version 1 hold JSON text in the journal; both are
read."""

from __future__ import annotations

import json
from typing import Any

import msgpack

_COMPACT = json.JSONEncoder(separators=(",", ":"))


def dumps(value: Any) -> str:
    return _COMPACT.encode(value)


# One packer for every journal field (msgpack.packb makes a new one, with its buffer,
# for every call); a store is used from one thread.
_pack = msgpack.Packer().pack


def pack(value: Any) -> bytes:
    """A journal field: msgpack, several times cheaper to make than JSON (the journal
    gets a row for every action)."""
    packed: bytes = _pack(value)
    return packed


def unpack(value: bytes | str) -> Any:
    """A journal field; rows written by schema version 1 hold JSON text."""
    return json.loads(value) if isinstance(value, str) else msgpack.unpackb(value)

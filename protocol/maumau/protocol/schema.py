"""A small schema language for checking decoded msgpack values.

Each validator is a callable ``(value, path) -> value`` that returns the value in its
canonical Python form (lists become tuples, so decoded messages are immutable all the
way down, except for nested maps) or raises :class:`SchemaError` naming the path of
the offending field, e.g. ``view.windows[2].seat: expected an integer``.

The same validators describe every field of every message in
:mod:`maumau.protocol.messages`, and ``docs/protocol.md`` is written from them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import CARD_BY_CODE

Validator = Callable[[Any, str], Any]


class SchemaError(ValueError):
    """A value does not have the shape its field requires."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def integer(low: int = -(2**63), high: int = 2**63 - 1) -> Validator:
    def check(value: Any, path: str) -> int:
        if type(value) is not int:
            raise SchemaError(path, f"expected an integer, got {_kind(value)}")
        if not low <= value <= high:
            raise SchemaError(path, f"must be between {low} and {high}")
        return value

    check.doc = f"int {low}..{high}"  # type: ignore[attr-defined]
    return check


def number(low: float, high: float) -> Validator:
    def check(value: Any, path: str) -> float:
        if type(value) not in (int, float):
            raise SchemaError(path, f"expected a number, got {_kind(value)}")
        if not low <= value <= high:
            raise SchemaError(path, f"must be between {low} and {high}")
        return float(value)

    check.doc = f"float {low}..{high}"  # type: ignore[attr-defined]
    return check


def boolean(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise SchemaError(path, f"expected true or false, got {_kind(value)}")
    return value


boolean.doc = "bool"  # type: ignore[attr-defined]


def text(
    max_len: int, min_len: int = 0, printable: bool = False, trimmed: bool = False
) -> Validator:
    """A string of ``min_len`` to ``max_len`` characters; ``printable``: no control
    characters; ``trimmed``: no leading or trailing white space."""

    def check(value: Any, path: str) -> str:
        if type(value) is not str:
            raise SchemaError(path, f"expected a string, got {_kind(value)}")
        if not min_len <= len(value) <= max_len:
            raise SchemaError(path, f"must be {min_len} to {max_len} characters long")
        if printable and not value.isprintable():
            raise SchemaError(path, "must contain only printable characters")
        if trimmed and value != value.strip():
            raise SchemaError(path, "must not start or end with white space")
        return value

    check.doc = f"str {min_len}..{max_len} chars"  # type: ignore[attr-defined]
    return check


def one_of(*choices: str) -> Validator:
    def check(value: Any, path: str) -> str:
        if value not in choices or type(value) is not str:
            raise SchemaError(path, f"must be one of {', '.join(choices)}")
        return value

    check.doc = " | ".join(f'"{c}"' for c in choices)  # type: ignore[attr-defined]
    return check


def card(value: Any, path: str) -> str:
    if type(value) is not str or value not in CARD_BY_CODE:
        raise SchemaError(path, f"{_show(value)} is not a card code")
    return value


card.doc = "card code"  # type: ignore[attr-defined]


def optional(inner: Validator) -> Validator:
    def check(value: Any, path: str) -> Any:
        return None if value is None else inner(value, path)

    check.doc = f"{_doc(inner)} or nil"  # type: ignore[attr-defined]
    return check


def array(inner: Validator, max_len: int = 1000) -> Validator:
    def check(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) not in (list, tuple):
            raise SchemaError(path, f"expected an array, got {_kind(value)}")
        if len(value) > max_len:
            raise SchemaError(path, f"must have at most {max_len} items")
        return tuple(inner(item, f"{path}[{i}]") for i, item in enumerate(value))

    check.doc = f"array of ({_doc(inner)}), at most {max_len}"  # type: ignore[attr-defined]
    return check


def record(
    fields: Mapping[str, Validator], optional_fields: Mapping[str, Validator] | None = None
) -> Validator:
    """A map with exactly these keys (``optional_fields`` may be absent)."""
    extra = dict(optional_fields or {})

    def check(value: Any, path: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise SchemaError(path, f"expected a map, got {_kind(value)}")
        out: dict[str, Any] = {}
        for key, inner in fields.items():
            if key not in value:
                raise SchemaError(f"{path}.{key}", "is missing")
            out[key] = inner(value[key], f"{path}.{key}")
        for key, inner in extra.items():
            if key in value:
                out[key] = inner(value[key], f"{path}.{key}")
        for key in value:
            if key not in fields and key not in extra:
                raise SchemaError(f"{path}.{key}", "is not a known field")
        return out

    check.doc = "map"  # type: ignore[attr-defined]
    check.fields = fields  # type: ignore[attr-defined]
    return check


def free_map(max_len: int = 64) -> Validator:
    """A map of string keys to scalar values (checked further by its consumer)."""

    def check(value: Any, path: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise SchemaError(path, f"expected a map, got {_kind(value)}")
        if len(value) > max_len:
            raise SchemaError(path, f"must have at most {max_len} entries")
        for key, item in value.items():
            if type(key) is not str:
                raise SchemaError(path, "keys must be strings")
            if type(item) not in (int, bool, str, float) and item is not None:
                raise SchemaError(f"{path}.{key}", f"expected a scalar, got {_kind(item)}")
        return dict(value)

    check.doc = "map of str to scalar"  # type: ignore[attr-defined]
    return check


def _show(value: Any) -> str:
    """A short, safe description of a received value (never a deep or long repr)."""
    if type(value) is str:
        return repr(value if len(value) <= 20 else value[:20] + "...")
    return _kind(value)


def _doc(validator: Validator) -> str:
    return str(getattr(validator, "doc", "value"))


def _kind(value: Any) -> str:
    names = {
        dict: "a map",
        list: "an array",
        tuple: "an array",
        str: "a string",
        bytes: "binary data",
        int: "an integer",
        float: "a float",
        bool: "a boolean",
        type(None): "nil",
    }
    return names.get(type(value), type(value).__name__)

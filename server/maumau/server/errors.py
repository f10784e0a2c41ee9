"""The error a request to the lobby or a table is refused with (not a move: moves the
engine refuses raise :class:`maumau.server.rules.IllegalAction`). Both are refusals
(:class:`maumau.protocol.refusal.Refusal`), answered with an ``error`` message carrying
the code, the English message and, in ``details``, every fact the message states (see
docs/protocol.md, Errors); the connection stays open."""

from __future__ import annotations

from typing import Any

from maumau.protocol.refusal import Refusal

from .rules import Settings, SettingsError


class TableError(Refusal):
    """A request about the lobby or a table (not a move) that cannot be granted."""


def checked_settings(values: dict[str, Any]) -> Settings:
    """The table settings ``values`` (of a ``create_table`` or ``create_tournament``),
    or the ``bad_settings`` refusal naming the setting at fault."""
    try:
        return Settings.from_dict(values)
    except SettingsError as error:
        raise TableError(
            "bad_settings", str(error)[:300], {"field": error.setting[:64] or "settings"}
        ) from None

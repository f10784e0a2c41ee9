"""The error a request to the lobby or a table is refused with (not a move: moves the
engine refuses raise :class:`maumau.server.rules.IllegalAction`). Both are refusals
(:class:`maumau.protocol.refusal.Refusal`), answered with an ``error`` message carrying
the code, the English message and, in ``details``, every fact the message states (see
docs/protocol.md, Errors); the connection stays open."""

from __future__ import annotations

from maumau.protocol.refusal import Refusal


class TableError(Refusal):
    """A request about the lobby or a table (not a move) that cannot be granted."""

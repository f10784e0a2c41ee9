"""The error a request to the lobby or a table is refused with (not a move: moves the
engine refuses raise :class:`maumau.server.rules.IllegalAction`). Both are answered
with an ``error`` message carrying the code, the English message and, in ``details``,
every fact the message states (see docs/protocol.md, Errors); the connection stays
open."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A request about the lobby or a table (not a move) that cannot be granted."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

"""A refusal: what every error of the protocol, the rules and the server is.

Each refusal has a stable ``code`` (the wire's ``error.code``), a ``message`` for
people, in English, and the ``details`` that message states (the wire's
``error.details``), so a client can say it in its own language. The codec's and the
messages' errors (:mod:`.codec`, :mod:`.messages`), the rules engine's
``IllegalAction`` and the server's ``TableError`` are all refusals, built and read
the same way.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """Something refused: ``code``, ``message`` and ``details`` (see the module)."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

"""The lobby, as the client knows it.

Theory of operation
-------------------
:class:`LobbyPart` keeps the latest ``lobby`` message (its tables and its
tournaments, as summaries) and the lobby's chat: what people said there and the
host's announcements, which the model adds as they arrive. Every ``lobby`` replaces
the one before whole; the chat keeps its last :data:`LOG_LINES` lines.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from maumau.protocol.messages import Lobby

from .model_table import LOG_LINES


@dataclass
class LobbyPart:
    """The latest ``lobby`` and the lobby's chat."""

    lobby: Lobby | None = None
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))

    @property
    def tournaments(self) -> tuple[dict[str, Any], ...]:
        """The lobby's tournaments (summaries), as the last ``lobby`` listed them."""
        return self.lobby.tournaments if self.lobby is not None else ()

    def tournament_name(self, tournament: int) -> str | None:
        """The name the lobby gives the tournament ``tournament``, if it lists it."""
        name = None
        for summary in self.tournaments:
            if summary.get("id") == tournament:
                name = str(summary.get("name"))
        return name

"""What a table is given: the small interfaces through which it reaches the layers above.

A table never imports the lobby, the sessions or the connections. It is handed a
:class:`TableHost` (in the server, the lobby) when it is made, and the people at it are
:class:`Player` objects (in the server, sessions). So the dependencies run one way:
the lobby knows tables; a table knows only these two protocols, which it defines.
"""

from __future__ import annotations

from typing import Any, Protocol

import trio

from maumau.protocol.messages import Message

from ..latency import Latency
from ..store import Store


class Player(Protocol):
    """A person at a table: a seated player or a spectator."""

    id: str  # stable across reconnects and restarts; a table names its creator by it
    name: str
    latency: Latency  # the connection's round trips, for lag compensation
    table: Any  # the table the person is at (set by the table while it restores)

    @property
    def connected(self) -> bool: ...

    def send(self, message: Message, frame: bytes | None = None) -> None: ...

    def send_frames(
        self, kinds: tuple[type[Message], ...], frames: bytes, urgent: bool = False
    ) -> None: ...


class TableHost(Protocol):
    """What a table needs from the server around it. (The table passes itself to the
    callbacks; they take ``Any`` because this module sits below the table's class.)"""

    @property
    def store(self) -> Store | None:
        """Where the table journals its matches and saves its record (None: nowhere)."""

    bot_delay: float  # seconds a bot waits before its move
    bot_forgets: float | None  # overrides how often bots forget to say Mau
    hard_budget: float  # the hard bot's thinking time per move
    thinking: trio.CapacityLimiter  # hard bots think in worker threads, one at a time

    def commit_soon(self) -> None:
        """Have the store's open group of writes committed with the next batch."""

    def lobby_changed(self) -> None:
        """The table's summary in the lobby changed."""

    def save_later(self, table: Any) -> None:
        """Write ``table``'s record just before the next commit."""

    def info_sent(self, table: Any) -> None:
        """``table`` sent a table_info: once the next commit succeeds, it is saved."""

    def match_over(self, table: Any) -> None:
        """``table``'s match has just ended (its end is journaled in the open group)."""

    def close_if_empty(self, table: Any) -> None:
        """Close ``table`` if nobody can play or watch there any more."""

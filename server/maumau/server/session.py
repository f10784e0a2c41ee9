"""A player, as the server knows them across reconnects and restarts.

A :class:`Session` outlives its connection: when the connection drops, the seat is
kept; a new connection whose ``hello`` carries the resume token takes the session over
(see :mod:`maumau.server.handshake`). To the tables a session is a
:class:`~maumau.server.table.Player`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from maumau.protocol.messages import Message

from . import names
from .latency import Latency
from .link import Link
from .table import Table

RATE_WINDOW_S = 10.0  # how far back a connection's rate of messages looks (its decay)


@dataclass(slots=True)
class MessageRate:
    """Messages a second, decayed exponentially over :data:`RATE_WINDOW_S` (one
    multiplication per message: it runs for every message a client sends)."""

    level: float = 0.0
    last: float = 0.0

    def add(self, now: float) -> None:
        self.level = self.level * math.exp((self.last - now) / RATE_WINDOW_S) + 1.0
        self.last = now

    def per_second(self, now: float) -> float:
        return self.level * math.exp((self.last - now) / RATE_WINDOW_S) / RATE_WINDOW_S


def peer_address(peer: str) -> str:
    """The host part of a link's peer (``str()`` of a socket address tuple), an IPv4
    address mapped into IPv6 written as IPv4."""
    found = re.match(r"\('([^']*)'", peer)
    host = found.group(1) if found else peer
    return host[7:] if host.startswith("::ffff:") and "." in host else host


@dataclass(eq=False)
class Session:
    """A player, across reconnects (and, with a store, across server restarts).

    ``key`` is the SHA-256 of the resume token: sessions are looked up by it, so the
    token itself is never compared or stored. ``resume`` is the token, known until a
    restart (after it, from the client's next hello)."""

    id: str
    name: str
    resume: str
    key: str = ""
    link: Link | None = None
    table: Table | None = None
    latency: Latency = field(default_factory=Latency)  # the current connection's pongs
    pings: dict[int, float] = field(default_factory=dict)  # unanswered: nonce -> sent
    verified: bool = False  # a hello of this session proved the name's secret
    host: bool = False  # its last hello proved the host key, or a --admin name's secret
    since: float = 0.0  # when its connection was made (trio's clock)
    rate: MessageRate = field(default_factory=MessageRate)  # of its connection
    skeleton: str = field(init=False)  # how the name is compared (see names.skeleton)

    def __post_init__(self) -> None:
        self.skeleton = names.skeleton(self.name)

    @property
    def rtt(self) -> float | None:
        """The connection's usual (median) round trip in seconds; None before a pong."""
        return self.latency.rtt

    @property
    def racing(self) -> bool:
        """At a running match with lag compensation on: its Mau races want fresh round
        trips, so the server pings more often."""
        table = self.table
        return table is not None and table.status == "playing" and table.settings.lag_compensation

    @property
    def connected(self) -> bool:
        return self.link is not None

    @property
    def address(self) -> str | None:
        """The host part of the peer's address (None while disconnected)."""
        if self.link is None:
            return None
        return peer_address(self.link.peer)

    def send(self, message: Message, frame: bytes | None = None) -> None:
        if self.link is not None:
            self.link.send(message, frame)

    def send_frame(self, kind: type[Message], frame: bytes) -> None:
        if self.link is not None:
            self.link.send_frame(kind, frame)

    def send_frames(
        self, kinds: tuple[type[Message], ...], frames: bytes, urgent: bool = False
    ) -> None:
        if self.link is not None:
            self.link.send_frames(kinds, frames, urgent)

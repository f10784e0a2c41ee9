"""The server's host, as this player's model knows it (protocol 9).

Theory of operation
-------------------
:class:`HostPart` keeps whether this session has the host's powers (``welcome``'s
``host``) and, if it has, what the host screen shows (the latest ``host_view``). It
also keeps what the host did to this player: the announcements (the last
:data:`ANNOUNCEMENTS`), and until when, on the model's clock, the host keeps the
player out of chat (a ``muted`` notice, or a chat line refused as ``muted``; an
``unmuted`` notice ends it). Where an announcement is shown (the chats) and what a
closed table does is the model's business, which knows the other parts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from maumau.protocol.messages import Error, HostView, Notice

ANNOUNCEMENTS = 50  # the host's announcements kept
# The host's requests (refused with ``not_host`` for everyone else).
HOST_REQUESTS = (
    "host_list",
    "kick",
    "mute",
    "ban",
    "unban",
    "close_table",
    "set_password",
    "announce",
)


@dataclass
class HostPart:
    """The host's powers, if this session has them, and what the host did to us."""

    is_host: bool = False
    host_view: HostView | None = None
    announcements: deque[Notice] = field(default_factory=lambda: deque(maxlen=ANNOUNCEMENTS))
    muted_until: float | None = None  # on the model's clock

    def welcome(self, host: bool) -> None:
        """A ``welcome`` says whether this session has the host's powers."""
        self.is_host = host
        if not host:
            self.host_view = None

    def fold_notice(self, notice: Notice, now: float) -> None:
        """An announcement is kept; a mute is remembered until it ends (from ``now``)."""
        if notice.kind == "announcement":
            self.announcements.append(notice)
        elif notice.kind == "muted":
            self.muted_until = now + (notice.seconds or 0)
        elif notice.kind == "unmuted":
            self.muted_until = None

    def fold_refusal(self, error: Error, now: float) -> None:
        """A chat line refused as ``muted`` says for how long still (its ``seconds``)."""
        seconds = (error.details or {}).get("seconds")
        if isinstance(seconds, int | float) and not isinstance(seconds, bool):
            self.muted_until = now + seconds

    def muted_seconds(self, now: float) -> float:
        """How long from ``now`` the host keeps this player out of chat (0: not muted)."""
        if self.muted_until is None:
            return 0.0
        return max(0.0, self.muted_until - now)

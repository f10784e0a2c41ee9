"""The tournament the player follows, as the model keeps it.

Theory of operation
-------------------
A session follows one tournament at a time: the player asks to (watching,
registering or creating one: :meth:`TournamentPart.follow`, which keeps the password
typed for it), and the server then sends a ``tournament`` message now and on every
change, each kept as a :class:`~maumau.client.tournament.Following` (with the moment
it arrived, on the model's clock, and the password). Leaving a tournament's screen
without being registered stops following it (:meth:`TournamentPart.unfollow`): an
update the server sent before it heard that is dropped, until the player follows one
again. A new session (a ``welcome`` that resumed nothing) follows nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from maumau.protocol.messages import Tournament

from .tournament import Following


@dataclass
class TournamentPart:
    """The followed tournament, and the one whose late updates are dropped."""

    following: Following | None = None  # the tournament followed, if any
    dropped: int | None = None  # stopped following it: its late updates go
    pending_password: str | None = None  # the password a tournament was asked for with

    def fold(self, message: Tournament, now: float) -> bool:
        """A ``tournament`` message, arrived ``now``; False if it is dropped."""
        if message.id == self.dropped:
            return False
        password = self.pending_password
        if self.following is not None and self.following.id == message.id:
            password = self.following.password or password
        self.following = Following(message, now, password)
        return True

    def follow(self, password: str | None = None) -> None:
        """The player asked to follow a tournament (watch, register or create): its
        updates are welcome again; ``password`` is kept for registering later."""
        self.dropped = None
        self.pending_password = password

    def unfollow(self) -> None:
        """The player stopped following the tournament (``watch_tournament`` nil)."""
        if self.following is not None:
            self.dropped = self.following.id
        self.following = None

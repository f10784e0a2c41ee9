"""What the app's parts may use of the app.

Theory of operation
-------------------
:class:`~maumau.client.app.MauMauApp` is the one Textual app; it hands what it does
to parts that hold their own state (:mod:`~maumau.client.app_connect`: connecting
and reconnecting; :mod:`~maumau.client.app_routes`: which screens each server
message shows or redraws). The parts sit beside the app, not above it, so they do
not import it: :class:`Shell` is the app as they see it, a structural type that the
app satisfies (mypy checks that where the app makes its parts). It names the model
and the connection, the few settings the parts read, the Textual calls that move
between screens, and the app's own ways of saying things (banner, toast, error).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

from rich.console import RenderableType
from textual.notifications import SeverityLevel
from textual.screen import Screen

from maumau.protocol.messages import Message

from .connection import Connection
from .model import Model


class Shell(Protocol):
    """The app, as its parts use it: read it, never keep what it holds."""

    model: Model  # replaced by a fresh one for every new connection
    connection: Connection
    back_sent: bool  # "back" is on its way (until the next table message)

    @property
    def replay_match(self) -> int | None:
        """``--replay MATCH``: the only match this client shows, if any."""

    @property
    def replay_password(self) -> str | None:
        """``--password``: the replayed match's table's."""

    @property
    def local(self) -> bool:
        """``--local``: one player against bots of an embedded server."""

    @property
    def discover(self) -> bool:
        """Whether the connect screen lists the servers announced on the LAN."""

    @property
    def server_label(self) -> str:
        """``host:port`` of the server, or "" before there is one."""

    @property
    def screen(self) -> Screen[object]:
        """The screen on top (Textual's)."""

    @property
    def screen_stack(self) -> list[Screen[Any]]:
        """The screens open, the lowest first (Textual's)."""

    def push_screen(self, screen: Screen[Any]) -> object:
        """Open ``screen`` over the others (Textual's)."""

    def pop_screen(self) -> object:
        """Close the screen on top (Textual's)."""

    def exit(self, *, return_code: int = 0, message: RenderableType | None = None) -> None:
        """End the app (Textual's)."""

    def network(self) -> object:
        """Start the worker that runs the connection (its target set before)."""

    def send(self, message: Message) -> Awaitable[None]:
        """Send ``message`` to the server (a problem is shown, not raised)."""

    def notify(
        self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        """A toast, its text shown as written."""

    def show_error(self, text: str) -> None:
        """At the table, under the hand; elsewhere a toast."""

    def set_banner(self, text: str | None) -> None:
        """Show ``text`` at the top of every screen (None hides it)."""

    def set_paused(self, paused: str | None, away: bool = False) -> None:
        """Say in the banner that the table is paused, or a bot plays the seat."""

"""The browser guest's login: a name, and an optional PIN that keeps it theirs.

Shown first in every browser tab (``maumau-web``), and again with the reason when
the server refuses the name or cannot be reached. It is the connect screen of a
guest who may not choose the server: the address is shown, never asked. Enter in the
name moves to the PIN, Enter in the PIN (or the Join button, for a tap) checks the
name (:func:`~maumau.client.party.name_problem`) and asks the app to connect
(:class:`WebLoginRequested`); the app derives the name's secret from the name and
PIN (:mod:`maumau.client.web.identity`).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from .. import party
from ..i18n import _
from ..literal import literal
from ..widgets.ascii_aware import AsciiAware


class WebLoginRequested(Message):
    """Connect as ``name``, the secret derived from ``pin`` ("" for none)."""

    def __init__(self, name: str, pin: str) -> None:
        super().__init__()
        self.name = name
        self.pin = pin


class WebLoginScreen(AsciiAware, Screen[None]):
    """A name and a PIN; the server's address shown, not asked."""

    def __init__(self, server: str, name: str = "", message: str = "") -> None:
        super().__init__()
        self.server = server
        self.player = name
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="web-login"):
            yield Static(
                literal(_("Welcome to the maumau party ({server}).").format(server=self.server)),
                classes="title",
            )
            yield Static(_(party.WHY_NAME), classes="hint")
            yield Label(_("Your name"))
            yield Input(self.player, placeholder="Ann", id="name", max_length=party.NAME_MOST)
            yield Label(_("PIN (optional)"))
            yield Input(password=True, id="pin", max_length=32)
            yield Static(literal(self.message), id="login-message", classes="error")
            yield Button(_("Join"), id="join", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#name" if not self.player else "#pin", Input).focus()

    @on(Input.Submitted, "#name")
    def name_typed(self) -> None:
        if self._checked_name() is not None:
            self.query_one("#pin", Input).focus()

    @on(Input.Submitted, "#pin")
    @on(Button.Pressed, "#join")
    def join(self) -> None:
        name = self._checked_name()
        if name is None:
            return
        self.query_one("#join", Button).disabled = True
        self.app.post_message(WebLoginRequested(name, self.query_one("#pin", Input).value))

    def _checked_name(self) -> str | None:
        """The typed name, or None after saying what is wrong with it."""
        name = self.query_one("#name", Input).value.strip()
        problem = party.name_problem(name)
        if problem is not None:
            self.query_one("#login-message", Static).update(problem)
            self.query_one("#name", Input).focus()
            return None
        return name

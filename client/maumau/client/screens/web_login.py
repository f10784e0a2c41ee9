"""The browser guest's login: a name, and an optional PIN that keeps it theirs.

Shown first in every browser tab (``maumau-web``), and again with the reason when
the server refuses the name or cannot be reached. It is the connect screen of a
guest who may not choose the server: the address is shown, never asked. Enter in the
name moves to the PIN, Enter in the PIN (or the Join button, for a tap) checks the
name (:func:`~maumau.client.party.name_problem`) and asks the app to connect
(:class:`WebLoginRequested`); the app derives the name's secret from the name and
PIN (:mod:`maumau.client.web.identity`). A server with a password that refused the
guest (``password_required``, ``wrong_password``) brings the screen back with a field
for it (``ask_password``), focused.
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
    """Connect as ``name``, the secret derived from ``pin`` ("" for none); with the
    server's ``password`` when it asked for one."""

    def __init__(self, name: str, pin: str, password: str | None = None) -> None:
        super().__init__()
        self.name = name
        self.pin = pin
        self.password = password


class WebLoginScreen(AsciiAware, Screen[None]):
    """A name and a PIN; the server's address shown, not asked."""

    def __init__(
        self, server: str, name: str = "", message: str = "", ask_password: bool = False
    ) -> None:
        super().__init__()
        self.server = server
        self.player = name
        self.message = message
        self.ask_password = ask_password  # the server wants its password

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
            password_label = Label(_("The server's password"))
            password = Input(password=True, id="server-password", max_length=64)
            password_label.display = password.display = self.ask_password
            yield password_label
            yield password
            yield Static(literal(self.message), id="login-message", classes="error")
            yield Button(_("Join"), id="join", variant="primary")

    def on_mount(self) -> None:
        if self.ask_password:
            self.query_one("#server-password", Input).focus()
            return
        self.query_one("#name" if not self.player else "#pin", Input).focus()

    @on(Input.Submitted, "#name")
    def name_typed(self) -> None:
        if self._checked_name() is not None:
            self.query_one("#pin", Input).focus()

    @on(Input.Submitted, "#pin")
    @on(Input.Submitted, "#server-password")
    @on(Button.Pressed, "#join")
    def join(self) -> None:
        name = self._checked_name()
        if name is None:
            return
        password = None
        if self.ask_password:
            password = self.query_one("#server-password", Input).value
            if not password:
                self.query_one("#login-message", Static).update(
                    _("Type the server's password first (ask its host).")
                )
                self.query_one("#server-password", Input).focus()
                return
        self.query_one("#join", Button).disabled = True
        pin = self.query_one("#pin", Input).value
        self.app.post_message(WebLoginRequested(name, pin, password))

    def _checked_name(self) -> str | None:
        """The typed name, or None after saying what is wrong with it."""
        name = self.query_one("#name", Input).value.strip()
        problem = party.name_problem(name)
        if problem is not None:
            self.query_one("#login-message", Static).update(problem)
            self.query_one("#name", Input).focus()
            return None
        return name

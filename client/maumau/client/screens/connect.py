"""The connect screen: where to connect, and as whom.

Shown when the client starts without an address, and again with the reason when a
connection is refused or cannot be made. Enter checks the address
(:func:`~maumau.client.address.parse_address`) and the name, then asks the app to
connect (:class:`~.messages.ConnectRequested`); the app owns the connection. Its
Connect button does the same, for a mouse or a finger.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from ..address import parse_address
from ..i18n import N_, _
from ..literal import literal
from ..widgets.action_bar import RoomAware, TapButton
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .messages import ConnectRequested


class ConnectScreen(RoomAware, AsciiAware, Screen[None]):
    """Where to connect, and as whom."""

    BINDINGS = [Binding("escape", "app.quit", N_("quit"))]

    def __init__(self, address: str, name: str, message: str = "") -> None:
        super().__init__()
        self.address = address
        self.player = name
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="connect"):
            yield Static(" " + _("maumau: connect to a server"), classes="title")
            yield Label(_("Server (host:port)"))
            yield Input(self.address, placeholder="lan-party-box:7766", id="address")
            yield Label(_("Your name"))
            yield Input(self.player, placeholder="Ann", id="name", max_length=24)
            yield Static(literal(self.message), id="connect-message", classes="error")
            yield Static(_("Enter connects, Esc quits"), classes="hint")
            with Horizontal(classes="dialog-buttons"):
                # NOTE: the connect screen's button (Enter does the same).
                yield TapButton(_("Connect"), id="connect-go", variant="primary", compact=True)
        yield KeyFooter()

    @on(Button.Pressed, "#connect-go")
    def connect_pressed(self) -> None:
        self.submitted()

    @on(Input.Submitted)
    def submitted(self) -> None:
        address = self.query_one("#address", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        parsed = parse_address(address)
        if parsed is None:
            self.query_one("#connect-message", Static).update(
                _("Type the server as host:port, for example {example}").format(
                    example="192.168.1.20:7766"
                )
            )
            return
        if not name:
            self.query_one("#connect-message", Static).update(
                _("Type a name (1 to {most} characters)").format(most=24)
            )
            return
        self.app.post_message(ConnectRequested(parsed[0], parsed[1], name))

"""The connect screen: where to connect, and as whom.

Shown when the client starts without an address, and again with the reason when a
connection is refused or cannot be made. Enter checks the address
(:func:`~maumau.client.address.parse_address`) and the name, then asks the app to
connect (:class:`~.messages.ConnectRequested`); the app owns the connection. Its
Connect button does the same, for a mouse or a finger.

A server with a password that refused the hello (``password_required``,
``wrong_password``) brings the screen back with ``ask_password``: a field for the
server's password shows, focused, its characters hidden (it is hidden otherwise).

With ``discover`` (``maumau-client`` started without an address), the screen also
lists the maumau servers announced on the LAN (:mod:`~maumau.client.discovery`), live:
picking one (Enter, a click or a tap) takes its address and connects. What a server
announces is another machine's words: shown literally.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from maumau.protocol.discovery import Found
from maumau.protocol.messages import PROTOCOL_VERSION

from ..address import parse_address
from ..discovery import Discovery
from ..i18n import N_, _, ngettext
from ..literal import literal
from ..widgets.action_bar import RoomAware, TapButton
from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.key_footer import KeyFooter
from .messages import ConnectRequested


class ConnectScreen(RoomAware, AsciiAware, Screen[None]):
    """Where to connect, and as whom."""

    BINDINGS = [Binding("escape", "app.quit", N_("quit"))]
    AUTO_FOCUS = "#address"  # (not the list of servers found, even once it shows)

    def __init__(
        self,
        address: str,
        name: str,
        message: str = "",
        discover: bool = False,
        ask_password: bool = False,
    ) -> None:
        super().__init__()
        self.address = address
        self.player = name
        self.message = message
        self.discover = discover
        self.ask_password = ask_password  # the server wants its password
        self.servers: list[Found] = []
        self._discovery: Discovery | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="connect"):
            yield Static(" " + _("maumau: connect to a server"), classes="title")
            # NOTE: above the list of maumau servers found on the local network.
            label = Label(_("Servers on this network"), id="servers-label")
            servers = OptionList(id="servers")
            label.display = servers.display = False  # shown once one is found
            yield label
            yield servers
            yield Label(_("Server (host:port)"))
            yield Input(self.address, placeholder="lan-party-box:7766", id="address")
            yield Label(_("Your name"))
            yield Input(self.player, placeholder="Ann", id="name", max_length=24)
            # NOTE: the connect screen's field for the server's password (shown only
            # when the server asked for one).
            password_label = Label(_("The server's password"), id="server-password-label")
            password = AsciiInput(password=True, id="server-password", max_length=64)
            password_label.display = password.display = self.ask_password
            yield password_label
            yield password
            yield Static(literal(self.message), id="connect-message", classes="error")
            yield Static(_("Enter connects, Esc quits"), classes="hint", id="connect-hint")
            with Horizontal(classes="dialog-buttons"):
                # NOTE: the connect screen's button (Enter does the same).
                yield TapButton(_("Connect"), id="connect-go", variant="primary", compact=True)
        yield KeyFooter()

    def on_screen_resume(self) -> None:
        if self.ask_password:  # (after the address took the focus: AUTO_FOCUS)
            self.query_one("#server-password", Input).focus()

    def on_mount(self) -> None:
        self._show_servers()
        if self.discover:
            self._discovery = Discovery(
                lambda servers: self.app.call_from_thread(self.found, servers)
            )
            if not self._discovery.start():
                self._discovery = None

    def on_unmount(self) -> None:
        if self._discovery is not None:
            self._discovery.close()
            self._discovery = None

    def found(self, servers: list[Found]) -> None:
        """The servers announced on the LAN now (from the browser's thread)."""
        self.servers = list(servers)
        self._show_servers()

    def _show_servers(self) -> None:
        listed = self.query_one("#servers", OptionList)
        label = self.query_one("#servers-label", Label)
        listed.display = label.display = bool(self.servers)
        was = listed.highlighted
        listed.clear_options()
        for index, server in enumerate(self.servers):
            listed.add_option(Option(literal(self._line(server)), id=str(index)))
        if self.servers:
            listed.highlighted = min(was or 0, len(self.servers) - 1)
            # NOTE: the connect screen's hint once servers on the network are listed.
            hint = _("Enter connects, Shift+Tab picks a server found, Esc quits")
        else:
            hint = _("Enter connects, Esc quits")
        self.query_one("#connect-hint", Static).update(hint)

    @staticmethod
    def _line(server: Found) -> str:
        parts = [server.name, server.address]
        if server.players is not None:
            # NOTE: how many players a server found on the network has online.
            parts.append(
                ngettext("{count} online", "{count} online", server.players).format(
                    count=server.players
                )
            )
        if server.version is not None and server.version != PROTOCOL_VERSION:
            # NOTE: a server found on the network that speaks another protocol version.
            parts.append(_("protocol {version}").format(version=server.version))
        return "  ".join(parts)

    @on(OptionList.OptionSelected, "#servers")
    def server_picked(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        if 0 <= index < len(self.servers):
            self.query_one("#address", Input).value = self.servers[index].address
            self.submitted()

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
        password: str | None = None
        if self.ask_password:
            password = self.query_one("#server-password", Input).value
            if not password:
                self.query_one("#connect-message", Static).update(
                    _("Type the server's password first (ask its host).")
                )
                self.query_one("#server-password", Input).focus()
                return
        self.app.post_message(ConnectRequested(parsed[0], parsed[1], name, password))

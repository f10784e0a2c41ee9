"""The host's screen: who is connected, who is banned, the server's password.

Only a session with the host's powers (``welcome.host``: its hello proved the
server's host key) sees it, from the lobby with H. It asks the server
(``host_list``) when it opens and every :data:`REFRESH_S` seconds while it is open,
and draws the latest ``host_view`` the app folded into the model
(:attr:`~maumau.client.model.Model.host_view`): the connections (name, address,
table, how long connected, messages a second, how long still muted, hosts marked),
the bans, and whether the server asks for a password.

Keys: k sends the highlighted player away (``kick``), m mutes them in chat (minutes,
0 lifts it), b bans their name and a their address (for the server's life or for
good), u lifts the highlighted ban, p sets or clears the server's password, n
announces something to everyone connected; Esc goes back to the lobby. Each asks
first in a small dialog (:class:`~.host_dialogs.AskScreen`: a reason, which may
stay empty; :class:`~.host_dialogs.LastingScreen`: how long a ban lasts). The player
a key acts on is the one highlighted when it was pressed, even if the list is
redrawn while the dialog is open. A refusal (``not_host``, ``bad_target``...) is
said as every refusal is, in a toast (:func:`~maumau.client.words.error_line`).

The lobby's X (the host's too) closes a table or calls a tournament off after
asking a reason (:func:`~.host_dialogs.ask_close`). Names, addresses and reasons are
other people's words: every cell and title is :func:`~maumau.client.literal.literal`.

The screen composes its parts: the two lists are
:class:`~maumau.client.widgets.host_table.HostTable` (each keeps its highlighted row
and fits its columns to the width), their rows and the line under them are written
by :mod:`maumau.client.host_words`, and the dialogs are :mod:`.host_dialogs`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from maumau.protocol.messages import (
    PASSWORD_MAX,
    Announce,
    Ban,
    HostList,
    Kick,
    Message,
    Mute,
    SetPassword,
    Unban,
)

from ..host import Host, host_of
from ..host_words import (
    ban_headers,
    ban_rows,
    bans_heading,
    connection_headers,
    connection_rows,
    status_line,
)
from ..i18n import N_, _
from ..literal import literal
from ..widgets.ascii_aware import AsciiAware
from ..widgets.banner import Banner
from ..widgets.host_table import HostTable
from ..widgets.key_footer import KeyFooter
from .host_dialogs import AskScreen, Field, LastingScreen, reason_field, reason_of
from .messages import ToServer

REFRESH_S = 2.0  # how often the open screen asks for the host's view again
MUTE_MINUTES = 10  # the mute's length offered
BANS_SHOWN = 5  # the bans' list shows this many at once (then it scrolls)


class HostScreen(AsciiAware, Screen[None]):
    """The host's view of the server (see the module docstring)."""

    BINDINGS = [
        Binding("k", "kick", N_("kick")),
        Binding("m", "mute", N_("mute")),
        Binding("b", "ban_name", N_("ban name")),
        Binding("a", "ban_address", N_("ban address")),
        Binding("u", "unban", N_("unban")),
        Binding("p", "password", N_("password")),
        Binding("n", "announce", N_("announce")),
        Binding("escape", "close", N_("back"), key_display="Esc"),
        Binding("q", "close", N_("back"), show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="host-title", classes="title")
        yield HostTable(id="host-connections", cursor_type="row", zebra_stripes=True)
        yield Static("", id="host-bans-title")
        yield HostTable(id="host-bans", cursor_type="row")
        yield Static("", id="host-status")
        yield KeyFooter()

    @property
    def host(self) -> Host:
        return host_of(self.app)

    def on_mount(self) -> None:
        self.query_one("#host-connections").focus()
        self.refresh_model()
        self.ask()
        self.set_interval(REFRESH_S, self.ask)

    def on_resize(self) -> None:
        self.refresh_model()

    def ask(self) -> None:
        """Ask the server for the host's view (not while the connection is down)."""
        if not self.host.model.offline:
            self.app.post_message(ToServer(HostList()))

    def send(self, message: Message) -> None:
        self.app.post_message(ToServer(message))

    # --- drawing ------------------------------------------------------------------------

    def refresh_model(self) -> None:
        if not self.is_mounted:
            return
        model = self.host.model
        view = model.host_view
        ascii_only = self.host.ascii_only
        width = self.size.width or self.app.size.width or 80
        title = literal(" " + _("Host: {server}").format(server=self.host.server_label))
        self.query_one("#host-title", Static).update(title)
        connections = self.query_one("#host-connections", HostTable)
        bans = self.query_one("#host-bans", HostTable)
        heading = self.query_one("#host-bans-title", Static)
        status = self.query_one("#host-status", Static)
        if view is None:
            connections.display = bans.display = False
            heading.update("")
            status.update(" " + _("Asking the server..."))
            self.refresh_bindings()
            return
        connections.display = True
        tables = {int(t["id"]): str(t["name"]) for t in model.lobby.tables} if model.lobby else {}
        rows = connection_rows(view, model.name, tables)
        connections.fill(connection_headers(), rows, width, (0, 1, 2), ascii_only)
        heading.update(bans_heading(view))
        bans.display = bool(view.bans)
        if view.bans:
            bans.styles.height = min(len(view.bans), BANS_SHOWN) + 1  # the header and a few
            bans.fill(ban_headers(), ban_rows(view), width, (0, 3, 4), ascii_only)
        elif bans.has_focus:
            connections.focus()
        status.update(literal(status_line(view, ascii_only)))
        self.refresh_bindings()

    # --- what the keys act on -----------------------------------------------------------

    def selected_connection(self) -> dict[str, Any] | None:
        """The connection highlighted in the list, if any."""
        view = self.host.model.host_view
        if view is None:
            return None
        chosen = self.query_one("#host-connections", HostTable).selected(view.connections)
        return None if chosen is None else dict(chosen)

    def selected_ban(self) -> dict[str, Any] | None:
        """The ban highlighted in its list, if any."""
        view = self.host.model.host_view
        if view is None:
            return None
        chosen = self.query_one("#host-bans", HostTable).selected(view.bans)
        return None if chosen is None else dict(chosen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("kick", "mute", "ban_name", "ban_address"):
            # Not the host's own line: the server refuses those (bad_target, own).
            chosen = self.selected_connection()
            if chosen is None or chosen["name"] == self.host.model.name:
                return False
            return action != "ban_address" or bool(chosen.get("address"))
        if action == "unban":
            return self.selected_ban() is not None
        if action in ("password", "announce"):
            return self.host.model.host_view is not None
        return True

    @on(DataTable.RowHighlighted)
    def highlighted(self) -> None:
        self.refresh_bindings()  # u, a: whether there is a ban, an address

    def _ask(
        self, title: str, fields: Sequence[Field], then: Callable[[list[str]], None], hint: str = ""
    ) -> None:
        def answered(values: list[str] | None) -> None:
            if values is not None:
                then(values)

        self.app.push_screen(AskScreen(title, fields, hint), answered)

    def action_kick(self) -> None:
        chosen = self.selected_connection()
        if chosen is None:
            return
        session = str(chosen["session"])
        title = _("Send {name} away? They may come back, unless banned.").format(
            name=chosen["name"]
        )
        self._ask(title, [reason_field()], lambda v: self.send(Kick(session, reason_of(v[0]))))

    def action_mute(self) -> None:
        chosen = self.selected_connection()
        if chosen is None:
            return
        session = str(chosen["session"])
        title = _("Keep {name} out of chat (0 minutes lets them chat again).").format(
            name=chosen["name"]
        )
        fields = [Field(_("Minutes"), str(MUTE_MINUTES), number=True), reason_field()]

        def mute(values: list[str]) -> None:
            self.send(Mute(session, int(values[0]) * 60, reason_of(values[1])))

        self._ask(title, fields, mute)

    def action_ban_name(self) -> None:
        chosen = self.selected_connection()
        if chosen is not None:
            self._ban("name", str(chosen["name"]))

    def action_ban_address(self) -> None:
        chosen = self.selected_connection()
        if chosen is not None and chosen.get("address"):
            self._ban("address", str(chosen["address"]))

    def _ban(self, what: str, target: str) -> None:
        if what == "name":
            title = _("Ban the name {name}: whoever uses it is sent away.").format(name=target)
        else:
            title = _("Ban the address {address}: everyone from it is sent away.").format(
                address=target
            )

        def lasting_chosen(lasting: str | None) -> None:
            if lasting is None:
                return
            self._ask(
                title,
                [reason_field()],
                lambda v: self.send(Ban(what, target, lasting, reason_of(v[0]))),
            )

        self.app.push_screen(LastingScreen(title), lasting_chosen)

    def action_unban(self) -> None:
        chosen = self.selected_ban()
        if chosen is not None:
            self.send(Unban(str(chosen["what"]), str(chosen["target"])))

    def action_password(self) -> None:
        field = Field(_("New password (empty: none)"), password=True, most=PASSWORD_MAX)
        title = _("The password every newcomer must give (those connected stay).")

        def set_password(values: list[str]) -> None:
            self.send(SetPassword(values[0] or None))

        hint = _("Enter sets it (empty: no password), Esc cancels")
        self._ask(title, [field], set_password, hint)

    def action_announce(self) -> None:
        field = Field(_("Announcement"), required=True)
        title = _("Say something to everyone connected.")
        self._ask(title, [field], lambda v: self.send(Announce(" ".join(v[0].split()))))

    def action_close(self) -> None:
        self.dismiss(None)

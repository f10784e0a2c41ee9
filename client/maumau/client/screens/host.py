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
first in a small dialog (:class:`AskScreen`: a reason, which may stay empty;
:class:`LastingScreen`: how long a ban lasts). The player a key acts on is the one
highlighted when it was pressed, even if the list is redrawn while the dialog is
open. A refusal (``not_host``, ``bad_target``...) is said as every refusal is, in a
toast (:func:`~maumau.client.words.error_line`).

The lobby's X (the host's too) closes a table or calls a tournament off after
asking a reason here (:func:`ask_close`). Names, addresses and reasons are other
people's words: every cell and title is :func:`~maumau.client.literal.literal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Static

from maumau.protocol.messages import (
    HOST_TEXT_MAX,
    MUTE_MAX_S,
    PASSWORD_MAX,
    Announce,
    Ban,
    CancelTournament,
    CloseTable,
    HostList,
    Kick,
    Message,
    Mute,
    SetPassword,
    Unban,
)

from ..host import Host, host_of
from ..i18n import N_, _, ngettext, pgettext
from ..literal import literal
from ..widgets.action_bar import TapButton
from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from ..words import short_duration
from .messages import ToServer

REFRESH_S = 2.0  # how often the open screen asks for the host's view again
MUTE_MINUTES = 10  # the mute's length offered
BANS_SHOWN = 5  # the bans' list shows this many at once (then it scrolls)
MUTE_MOST_MINUTES = int(MUTE_MAX_S // 60)


def fit(columns: Sequence[Sequence[str]], room: int, shrinkable: Sequence[int]) -> list[int]:
    """The width of each column (its header first, then its cells) so that all fit
    ``room`` cells: as wide as their widest cell, the ``shrinkable`` ones narrowed
    (the widest first, never below their header or 4 cells) until they fit."""
    widths = [max((cell_len(c) for c in column), default=0) for column in columns]
    least = {i: max(4, cell_len(columns[i][0]) if columns[i] else 0) for i in shrinkable}
    while sum(widths) > room:
        wide = [i for i in shrinkable if widths[i] > least[i]]
        if not wide:
            break
        widest = max(wide, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def cut(text: str, width: int, ascii_only: bool) -> str:
    """``text`` in ``width`` cells, its end marked when cut."""
    if cell_len(text) <= width:
        return text
    mark = "~" if ascii_only else "…"
    while text and cell_len(text) + 1 > width:
        text = text[:-1]
    return text + mark


def reason_of(value: str) -> str | None:
    """What was typed as a reason: None when nothing was."""
    value = " ".join(value.split())
    return value[:HOST_TEXT_MAX] or None


def cancel_tournament(tournament: int, reason: str | None) -> Message:
    """``cancel_tournament``, with the host's words to the players when given."""
    return CancelTournament(tournament, reason)


# --- the small dialogs ---------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One line of an :class:`AskScreen`: its label (in words already), what it
    holds at first, and what it takes."""

    label: str
    value: str = ""
    number: bool = False  # a whole number of minutes
    password: bool = False  # hidden as typed
    required: bool = False  # may not stay empty
    most: int = HOST_TEXT_MAX


class AskInput(AsciiInput):
    """A line of a host's dialog; its Enter shows in the footer as what it does."""

    BINDINGS = [Binding("enter", "submit", N_("done"), key_display="Enter")]


class AskScreen(AsciiAware, ModalScreen[list[str] | None]):
    """A question with a few lines to type (a reason, minutes, a password...):
    Enter in a line goes to the next, in the last answers with every line's value;
    Esc answers None."""

    BINDINGS = [Binding("escape", "cancel", N_("cancel"), key_display="Esc")]

    def __init__(self, title: str, fields: Sequence[Field], hint: str = "") -> None:
        """``title`` and ``hint``: in words already (they may hold names)."""
        super().__init__()
        self.title_words = title
        self.fields = list(fields)
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog host-dialog"):
            yield Static(literal(self.title_words), classes="title")
            for i, field in enumerate(self.fields):
                yield Label(literal(field.label))
                yield AskInput(
                    field.value,
                    id=f"ask-{i}",
                    password=field.password,
                    max_length=6 if field.number else field.most,
                    restrict=r"[0-9]*" if field.number else None,
                )
            yield Static("", id="ask-problem", classes="error")
            yield Static(literal(self.hint or _("Enter: done, Esc cancels")), classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.fields:
            self.query_one("#ask-0", Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        index = int((event.input.id or "ask-0").removeprefix("ask-"))
        if index + 1 < len(self.fields):
            self.query_one(f"#ask-{index + 1}", Input).focus()
            return
        values = [self.query_one(f"#ask-{i}", Input).value for i in range(len(self.fields))]
        for i, (field, value) in enumerate(zip(self.fields, values, strict=True)):
            problem = None
            if field.number and (not value.isdigit() or int(value) > MUTE_MOST_MINUTES):
                problem = _("A whole number of minutes, 0 to {most}.").format(
                    most=MUTE_MOST_MINUTES
                )
            elif field.required and not value.strip():
                problem = _("Type something first, or Esc to go back.")
            if problem is not None:
                self.query_one("#ask-problem", Static).update(problem)
                self.query_one(f"#ask-{i}", Input).focus()
                return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LastingScreen(AsciiAware, ModalScreen[str | None]):
    """How long a ban lasts: l for the server's life, g for good (kept in its
    database); Esc answers None."""

    BINDINGS = [
        Binding("l", "answer('life')", N_("server's life")),
        Binding("g", "answer('ever')", N_("for good")),
        Binding("escape", "answer('')", N_("cancel"), key_display="Esc"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_words = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog host-dialog"):
            yield Static(literal(self.title_words), classes="title")
            # NOTE: the keys stay l and g in every language.
            yield Static(
                _("l: until the server stops, g: for good (kept in its database), Esc cancels"),
                classes="hint",
            )
            with Horizontal(classes="dialog-buttons"):
                yield TapButton(_("server's life"), id="lasting-life", compact=True)
                yield TapButton(_("for good"), id="lasting-ever", compact=True)
        yield KeyFooter()

    @on(Button.Pressed, "#lasting-life")
    def life_pressed(self) -> None:
        self.action_answer("life")

    @on(Button.Pressed, "#lasting-ever")
    def ever_pressed(self) -> None:
        self.action_answer("ever")

    def action_answer(self, lasting: str) -> None:
        self.dismiss(lasting or None)


def reason_field() -> Field:
    # NOTE: the field of a host's dialog for the words the player is told.
    return Field(_("Reason (optional, the player reads it)"))


def ask_close(app: Any, summary: dict[str, Any], tournament: bool) -> None:
    """The lobby's X (the host's): close the table ``summary`` describes, or call the
    tournament off, after asking for a reason."""
    name = str(summary.get("name", ""))
    ident = int(summary["id"])
    if tournament:
        title = _("Call the tournament {name} off? Its players are told.").format(name=name)
    else:
        title = _("Close the table {name}? Everyone at it goes to the lobby.").format(name=name)

    def answered(values: list[str] | None) -> None:
        if values is None:
            return
        reason = reason_of(values[0])
        if tournament:
            app.post_message(ToServer(cancel_tournament(ident, reason)))
        else:
            app.post_message(ToServer(CloseTable(ident, reason)))

    app.push_screen(AskScreen(title, [reason_field()]), answered)


# --- the screen ----------------------------------------------------------------------


class HostTable(DataTable[Any]):
    """One of the host screen's lists (connections, bans); ``row_keys_shown``: the key
    of each row, in order (a session, or a ban's what and target)."""

    row_keys_shown: list[str] = []  # (replaced whole, never changed in place)


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
        status = self.query_one("#host-status", Static)
        if view is None:
            connections.display = bans.display = False
            self.query_one("#host-bans-title", Static).update("")
            status.update(" " + _("Asking the server..."))
            self.refresh_bindings()
            return
        connections.display = True
        self._draw_connections(connections, width, ascii_only)
        self._draw_bans(bans, width, ascii_only)
        listed, total = len(view.connections), view.connections_total
        parts = [
            _("server password: set") if view.password else _("server password: none"),
            ngettext("{n} connected", "{n} connected", total).format(n=total),
        ]
        if listed < total:
            parts.append(_("the first {n} listed").format(n=listed))
        # NOTE: the host screen's line under the lists; Tab moves to the bans' list.
        parts.append(_("Tab: the other list"))
        separator = " - " if ascii_only else " · "
        status.update(literal(" " + separator.join(parts)))
        self.refresh_bindings()

    def _draw_connections(self, table: HostTable, width: int, ascii_only: bool) -> None:
        model = self.host.model
        view = model.host_view
        assert view is not None
        headers = [
            # NOTE: the host screen's columns of connections: the player's name, their
            # address, the table they are at, how long connected, messages a second,
            # how long still muted. Keep them short.
            pgettext("host column", "name"),
            pgettext("host column", "address"),
            pgettext("host column", "table"),
            pgettext("host column", "since"),
            pgettext("host column", "msg/s"),
            pgettext("host column", "muted"),
        ]
        tables = {int(t["id"]): str(t["name"]) for t in model.lobby.tables} if model.lobby else {}
        rows: list[tuple[str, list[str]]] = []
        for entry in view.connections:
            name = str(entry["name"])
            if name == model.name:
                name = _("{name} (you)").format(name=name)
            elif entry.get("host"):
                name = _("{name} (host)").format(name=name)
            table_id = entry.get("table")
            where = "" if table_id is None else tables.get(int(table_id), f"#{table_id}")
            muted = float(entry.get("muted") or 0)
            cells = [
                name,
                str(entry.get("address") or ""),
                where,
                short_duration(float(entry["since"])),
                f"{float(entry['rate']):.1f}",
                short_duration(muted, up=True) if muted > 0 else "",
            ]
            rows.append((str(entry["session"]), cells))
        self._fill(table, headers, rows, width, (0, 1, 2), ascii_only)

    def _draw_bans(self, table: HostTable, width: int, ascii_only: bool) -> None:
        view = self.host.model.host_view
        assert view is not None
        heading = self.query_one("#host-bans-title", Static)
        if not view.bans:
            heading.update(" " + _("Bans: none"))
            table.display = False
            if table.has_focus:
                self.query_one("#host-connections").focus()
            return
        n = len(view.bans)
        heading.update(" " + ngettext("Bans: {n}", "Bans: {n}", n).format(n=n))
        table.display = True
        table.styles.height = min(n, BANS_SHOWN) + 1  # the header and a few bans
        headers = [
            # NOTE: the host screen's columns of bans: a name or an address, which one,
            # how long it lasts, the host who banned, the reason given.
            pgettext("ban column", "banned"),
            pgettext("ban column", "what"),
            pgettext("ban column", "lasting"),
            pgettext("ban column", "by"),
            pgettext("ban column", "reason"),
        ]
        rows: list[tuple[str, list[str]]] = []
        for ban in view.bans:
            what = pgettext("ban", "name") if ban["what"] == "name" else pgettext("ban", "address")
            lasting = (
                pgettext("ban", "server's life")
                if ban["lasting"] == "life"
                else pgettext("ban", "for good")
            )
            cells = [
                str(ban["target"]),
                what,
                lasting,
                str(ban["by"]),
                str(ban.get("reason") or ""),
            ]
            rows.append((f"{ban['what']}:{ban['target']}", cells))
        self._fill(table, headers, rows, width, (0, 3, 4), ascii_only)

    @staticmethod
    def _fill(
        table: HostTable,
        headers: list[str],
        rows: list[tuple[str, list[str]]],
        width: int,
        shrinkable: Sequence[int],
        ascii_only: bool,
    ) -> None:
        """Fill ``table`` anew with ``rows`` (key, cells), each column as wide as fits
        ``width`` (no horizontal scrollbar); the highlighted row stays highlighted."""
        columns = [
            [header, *(cells[i] for _key, cells in rows)] for i, header in enumerate(headers)
        ]
        # Each cell is padded by one either side; a vertical scrollbar may take 2.
        room = width - 2 * len(headers) - 2
        widths = fit(columns, room, shrinkable)
        before = table.row_keys_shown
        keep = before[table.cursor_row] if 0 <= table.cursor_row < len(before) else None
        table.clear(columns=True)
        for header, size in zip(headers, widths, strict=True):
            table.add_column(literal(cut(header, size, ascii_only)), width=size)
        for key, cells in rows:
            shown = [
                literal(cut(cell, size, ascii_only))
                for cell, size in zip(cells, widths, strict=True)
            ]
            table.add_row(*shown, key=key)
        keys = [key for key, _cells in rows]
        table.row_keys_shown = keys
        if keep in keys:
            table.move_cursor(row=keys.index(keep), animate=False)

    # --- what the keys act on -----------------------------------------------------------

    def selected_connection(self) -> dict[str, Any] | None:
        """The connection highlighted in the list, if any."""
        view = self.host.model.host_view
        table = self.query_one("#host-connections", HostTable)
        if view is None or not table.display or not 0 <= table.cursor_row < len(view.connections):
            return None
        return dict(view.connections[table.cursor_row])

    def selected_ban(self) -> dict[str, Any] | None:
        """The ban highlighted in its list, if any."""
        view = self.host.model.host_view
        table = self.query_one("#host-bans", HostTable)
        if view is None or not table.display or not 0 <= table.cursor_row < len(view.bans):
            return None
        return dict(view.bans[table.cursor_row])

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

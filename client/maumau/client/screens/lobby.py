"""The lobby: the server's tables, the players online and the lobby chat.

Redrawn from the model whenever a ``lobby`` snapshot or a lobby chat line arrives
(the app calls :meth:`LobbyScreen.refresh_model`). Enter joins the table under the
cursor and w watches it (a locked table asks for its password first); n opens the
new-table dialog; s/l and h open the records through the app's actions. Every key
that needs the server becomes a :class:`~.messages.ToServer` message to the app.

The server's tournaments, when it runs any, are a short list above the tables (the
chat below gives up two lines, so ten tables stay in sight at 80x24). Up from the
first table moves into it, down from its last tournament back to the tables. With
one tournament t opens it; with several, t moves into the list (unless the cursor is
already there, when it opens the one under it), and Enter opens. Opening one, the
app asks to follow it (``watch_tournament``, after the password of a locked one) and
shows its screen when the server answers (:class:`~.messages.TournamentWanted`).
T opens the new-tournament dialog; the footer offers it when it fits on the line
(:meth:`LobbyScreen.footer_width`: drawn compact, every key must stay in sight).

By mouse or finger: a click on a table picks it, a click on the picked one joins it
(as Enter); the footer's keys are clickable, and a screen with room has buttons for
them (join, watch, new table...).

The server's host (``model.is_host``) has two keys more, shown to nobody else: H
opens the host screen (:class:`~.host.HostScreen`), X closes the table under the
cursor, or calls off the tournament under it when the tournaments' list has the
focus, after asking a reason (:func:`~.host_dialogs.ask_close`).

The screen composes parts that draw themselves: the two lists
(:mod:`~maumau.client.widgets.lobby_lists`: the rows, their widths, the cursor moving
between them), the chat line (:class:`~maumau.client.widgets.chat_input.ChatInput`,
whose lines come up as ``ChatInput.Said`` and go out as ``chat``), the words of the
title, of a table's name and state and of the players online
(:mod:`maumau.client.lobby_words`), and the line under the tables
(:mod:`.lobby_detail`). What is left here is what the keys do.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, RichLog, Static

from maumau.protocol.messages import Chat, JoinTable, ListTables, WatchTable, WatchTournament

from ..host import Host, host_of
from ..i18n import N_, _
from ..literal import literal
from ..lobby_words import locked, online_text, title_line
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.banner import Banner
from ..widgets.chat_input import ChatInput
from ..widgets.key_footer import KeyFooter
from ..widgets.lobby_lists import TableList, TournamentList
from .help import HelpScreen
from .host import HostScreen
from .host_dialogs import ask_close
from .lobby_detail import detail_line
from .messages import ToServer, TournamentWanted
from .new_table import NewTableScreen
from .new_tournament import NewTournamentScreen
from .password import PasswordScreen

# The lobby's buttons, where the screen has room (see widgets/action_bar.py).
LOBBY_TAPS = (
    "join",
    "watch",
    "new_table",
    "tournament",
    "new_tournament_unseen",
    "app.leaderboard",
    "app.history",
    "help",
)


class LobbyScreen(Screen[None]):
    """Tables, players online and lobby chat."""

    BINDINGS = [
        Binding("enter", "join", N_("join")),
        Binding("w", "watch", N_("watch")),
        Binding("n", "new_table", N_("new table")),
        Binding("t", "tournament", N_("tournament")),
        # T in the footer when it fits (the first binding of a key that is not off is
        # the one the footer shows), else the same key unseen.
        Binding("T", "new_tournament", N_("new tournament"), key_display="T"),
        Binding("T", "new_tournament_unseen", N_("new tournament"), show=False),
        Binding("s", "app.leaderboard", N_("stats")),
        Binding("l", "app.leaderboard", N_("leaderboard"), show=False),
        Binding("h", "app.history", N_("history")),
        Binding("r", "refresh", N_("refresh"), show=False),
        # The host's (hidden from everyone else: see check_action).
        Binding("H", "host_screen", N_("host"), key_display="H"),
        Binding("X", "host_close", N_("close"), key_display="X"),
        Binding("tab", "chat", N_("chat"), priority=True),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("q", "app.quit", N_("quit")),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="lobby-title", classes="title")
        yield TournamentList(id="tournaments", cursor_type="row")
        yield TableList(id="tables", cursor_type="row", zebra_stripes=True)
        yield Static("", id="table-detail")
        yield ActionBar(described(self.BINDINGS, LOBBY_TAPS), id="lobby-actions")
        with Horizontal(id="lobby-bottom"):
            yield Static("", id="online")
            yield RichLog(id="lobby-chat", wrap=True)
        yield ChatInput(N_("say something to the lobby; Enter sends, Esc leaves"), id="lobby-input")
        yield KeyFooter()

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    @property
    def host(self) -> Host:
        return host_of(self.app)

    def on_mount(self) -> None:
        self.drawn = True
        self.set_class(self.host.ascii_only, "ascii")
        self.query_one(TableList).focus()
        self.refresh_model()

    def on_resize(self) -> None:
        self.refresh_model()  # the title and the players column are drawn to the width

    def refresh_model(self) -> None:
        if not self.drawn:
            return  # on_mount draws it
        host = self.host
        model = host.model
        width = self.size.width or 80
        self.query_one("#lobby-title", Static).update(
            title_line(host.server_label, model.name, width)
        )
        self.query_one(TableList).draw(width)
        if model.lobby is not None:
            self.query_one("#online", Static).update(online_text(model.lobby))
        self._draw_tournaments()
        self._draw_detail()
        fit_room(self)
        self.query_one(ActionBar).sync()
        self.refresh_bindings()
        log = self.query_one("#lobby-chat", RichLog)
        log.clear()
        for line in model.lobby_chat:
            log.write(literal(line))

    def _draw_detail(self) -> None:
        """The line under the tables: the house rules and clocks of the one under the
        cursor (nothing while there is none)."""
        summary = self.query_one(TableList).selected()
        line = detail_line(summary, self.size.width or 80, self.host.ascii_only)
        self.query_one("#table-detail", Static).update(line)

    @on(DataTable.RowHighlighted, "#tables")
    def row_highlighted(self) -> None:
        self._draw_detail()

    def _draw_tournaments(self) -> None:
        """The tournaments above the tables (hidden while there are none)."""
        listed = self.host.model.tournaments
        self.set_class(bool(listed), "with-tournaments")
        # One key more in the footer (t, or T where it fits): it draws its keys
        # closer, to keep them all.
        self.query_one(KeyFooter).compact = bool(listed) or self.offers_new_tournament()
        self.query_one(TournamentList).draw()

    def footer_width(self, new_tournament: bool) -> int:
        """How many cells the footer's keys take, drawn compact (``key words``, a
        space between two), with T among them or not."""
        shown = [
            binding
            for binding in self.BINDINGS
            if isinstance(binding, Binding)
            and binding.show
            and binding.action != "new_tournament"
            and self.check_action(binding.action, ()) is not False
        ]
        if new_tournament:
            shown += [b for b in self.BINDINGS if isinstance(b, Binding) and b.key == "T"][:1]
        cells = []
        for binding in shown:
            words = _(binding.description)
            if binding.key == "enter":  # the tournaments' list says "open" there
                words = max(words, _("open"), key=cell_len)
            cells.append(cell_len(self.app.get_key_display(binding)) + 1 + cell_len(words))
        return sum(cells) + len(cells) - 1

    def offers_new_tournament(self) -> bool:
        """Whether T is in the footer: when every key still fits the width with it."""
        return self.footer_width(True) <= (self.size.width or 80)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("join", "watch"):
            lobby = self.host.model.lobby
            return lobby is not None and bool(lobby.tables)
        if action == "tournament":
            return bool(self.host.model.tournaments)
        if action == "new_tournament":
            return self.offers_new_tournament()
        if action in ("host_screen", "host_close"):
            return self.host.model.is_host
        return True

    async def action_join(self) -> None:
        self._enter(watch=False)

    async def action_watch(self) -> None:
        self._enter(watch=True)

    def _enter(self, watch: bool) -> None:
        summary = self.query_one(TableList).selected()
        if summary is None:
            self.app.notify(_("No table yet: press n to make one"))
            return
        table_id = int(summary["id"])

        def go(password: str | None) -> None:
            if watch:
                self.app.post_message(ToServer(WatchTable(table_id, password)))
            else:
                self.app.post_message(ToServer(JoinTable(table_id, None, password)))

        if locked(self.host.model.lobby, table_id, self.host.model.name):

            def with_password(password: str | None) -> None:
                if password:
                    go(password)

            self.app.push_screen(PasswordScreen(watch), with_password)
        else:
            go(None)

    @on(DataTable.RowSelected, "#tables")
    async def row_selected(self) -> None:
        await self.action_join()

    @on(DataTable.RowSelected, "#tournaments")
    def tournament_selected(self) -> None:
        self.action_tournament()

    def action_tournament(self) -> None:
        """Open the only tournament, or the one under the cursor of the tournaments'
        list; with several and the cursor elsewhere, move it into the list first."""
        model = self.host.model
        box = self.query_one(TournamentList)
        summary = box.selected()
        if summary is None:
            self.app.notify(_("No tournament yet: press T to make one"))
            return
        if len(model.tournaments) > 1 and not box.has_focus:
            box.focus()
            return
        tournament = int(summary["id"])

        def go(password: str | None) -> None:
            self.app.post_message(TournamentWanted(tournament, password))
            self.app.post_message(ToServer(WatchTournament(tournament, password)))

        following = model.tournament
        if summary["locked"] and (following is None or following.id != tournament):

            def with_password(password: str | None) -> None:
                if password:
                    go(password)

            self.app.push_screen(PasswordScreen(tournament=True), with_password)
        else:
            same = following is not None and following.id == tournament
            go(following.password if following is not None and same else None)

    def action_new_tournament(self) -> None:
        self.app.push_screen(NewTournamentScreen())

    def action_host_screen(self) -> None:
        if self.host.model.is_host:
            self.app.push_screen(HostScreen())

    def action_host_close(self) -> None:
        """The host closes the table under the cursor, or calls off the tournament
        under it (when the tournaments' list has the focus), after asking a reason."""
        model = self.host.model
        if not model.is_host:
            return
        box = self.query_one(TournamentList)
        tournament = box.selected()
        if box.has_focus and tournament is not None:
            ask_close(self.app, dict(tournament), tournament=True)
            return
        summary = self.query_one(TableList).selected()
        if summary is None:
            self.app.notify(_("No table to close"))
            return
        ask_close(self.app, dict(summary), tournament=False)

    def action_new_tournament_unseen(self) -> None:
        self.action_new_tournament()

    def action_new_table(self) -> None:
        self.app.push_screen(NewTableScreen())

    def action_refresh(self) -> None:
        self.app.post_message(ToServer(ListTables()))

    def action_chat(self) -> None:
        if not self.query_one(ChatInput).toggle():
            self.query_one(TableList).focus()

    def on_chat_input_said(self, event: ChatInput.Said) -> None:
        self.app.post_message(ToServer(Chat("lobby", event.text)))

    def key_escape(self) -> None:
        if self.query_one(ChatInput).close():
            self.query_one(TableList).focus()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

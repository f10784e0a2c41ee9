"""The lobby: the server's tables, the players online and the lobby chat.

Redrawn from the model whenever a ``lobby`` snapshot or a lobby chat line arrives
(the app calls :meth:`LobbyScreen.refresh_model`). Enter joins the table under the
cursor and w watches it (a locked table asks for its password first); n opens the
new-table dialog; s/l and h open the records through the app's actions. Every key
that needs the server becomes a :class:`~.messages.ToServer` message to the app.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Input, RichLog, Static

from maumau.protocol.messages import Chat, JoinTable, ListTables, WatchTable

from ..host import Host, host_of
from ..literal import literal
from ..model import seat_label
from ..widgets.banner import Banner
from ..widgets.chat_input import ChatInput
from ..widgets.key_footer import KeyFooter
from ..widgets.pick_list import PickList
from .help import HelpScreen
from .messages import ToServer
from .new_table import NewTableScreen
from .password import PasswordScreen


class TableList(PickList):
    """The lobby's tables: Enter joins the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", "join")]


class LobbyScreen(Screen[None]):
    """Tables, players online and lobby chat."""

    BINDINGS = [
        Binding("enter", "join", "join"),
        Binding("w", "watch", "watch"),
        Binding("n", "new_table", "new table"),
        Binding("s", "app.leaderboard", "stats"),
        Binding("l", "app.leaderboard", "leaderboard", show=False),
        Binding("h", "app.history", "history"),
        Binding("r", "refresh", "refresh", show=False),
        Binding("tab", "chat", "chat", priority=True),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("q", "app.quit", "quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="lobby-title", classes="title")
        yield TableList(id="tables", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="lobby-bottom"):
            yield Static("", id="online")
            yield RichLog(id="lobby-chat", wrap=True)
        yield ChatInput(
            placeholder="say something to the lobby; Enter sends, Esc leaves", id="lobby-input"
        )
        yield KeyFooter()

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    @property
    def host(self) -> Host:
        return host_of(self.app)

    def on_mount(self) -> None:
        self.drawn = True
        self.set_class(self.host.ascii_only, "ascii")
        table = self.query_one("#tables", DataTable)
        table.add_columns("table", "game", "seats", "players", "state")
        self.query_one("#lobby-input", Input).display = False
        self.refresh_model()

    def on_resize(self) -> None:
        self.refresh_model()  # the title and the players column are drawn to the width

    def refresh_model(self) -> None:
        if not self.drawn:
            return  # on_mount draws it
        host = self.host
        model = host.model
        width = self.size.width or 80
        you = f"you: {model.name}"
        title = Text(" maumau  ", style="bold")
        label = host.server_label
        room = width - 1 - len(title.plain) - 1 - len(you)
        if len(label) > room:  # a long address gives way to the player's name
            label = label[: max(0, room - 3)] + "..."
        title.append_text(literal(label))
        title.append(" " * max(1, width - 1 - len(title.plain) - len(you)) + you)
        self.query_one("#lobby-title", Static).update(title)
        table = self.query_one("#tables", DataTable)
        lobby = model.lobby
        keep = table.cursor_row
        table.clear()
        room = max(8, width - 52)  # for the players column: the state column stays whole
        cut = "..." if host.ascii_only else "…"
        if lobby is not None:
            for summary in lobby.tables:
                seats = summary["seats"]
                taken = sum(1 for s in seats if s["name"])
                players = " ".join(seat_label(s).replace(" (", "(") for s in seats if s["name"])
                lock = " (locked)" if summary["locked"] else ""
                game = "Mau Mau" if summary["variant"] == "classic" else "American"
                state = summary["state"]
                if state == "playing":
                    # Narrow: "round 3" alone says it is playing, and fits.
                    playing = "playing round" if width >= 70 else "round"
                    state = f"{playing} {summary['round']}"
                if len(players) > room:
                    players = players[: room - len(cut)] + cut
                cells = (summary["name"] + lock, game, f"{taken}/{len(seats)}", players, state)
                table.add_row(*map(literal, cells), key=str(summary["id"]))
            if lobby.more:
                table.add_row(*map(literal, (f"... {lobby.more} more", "", "", "", "")))
            online = Text(f"online ({len(lobby.online)})\n", style="bold")
            online.append("  ".join(lobby.online))
            self.query_one("#online", Static).update(online)
        if lobby is not None and lobby.tables:
            table.move_cursor(row=min(keep, len(lobby.tables) - 1))
        self.refresh_bindings()
        log = self.query_one("#lobby-chat", RichLog)
        log.clear()
        for line in model.lobby_chat:
            log.write(literal(line))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("join", "watch"):
            lobby = self.host.model.lobby
            return lobby is not None and bool(lobby.tables)
        return True

    def _selected(self) -> int | None:
        table = self.query_one("#tables", DataTable)
        lobby = self.host.model.lobby
        if lobby is None or not lobby.tables or table.cursor_row >= len(lobby.tables):
            return None
        return int(lobby.tables[table.cursor_row]["id"])

    def _locked(self, table_id: int) -> bool:
        lobby = self.host.model.lobby
        return lobby is not None and any(t["id"] == table_id and t["locked"] for t in lobby.tables)

    async def action_join(self) -> None:
        self._enter(watch=False)

    async def action_watch(self) -> None:
        self._enter(watch=True)

    def _enter(self, watch: bool) -> None:
        table_id = self._selected()
        if table_id is None:
            self.app.notify("No table yet: press n to make one")
            return

        def go(password: str | None) -> None:
            if watch:
                self.app.post_message(ToServer(WatchTable(table_id, password)))
            else:
                self.app.post_message(ToServer(JoinTable(table_id, None, password)))

        if self._locked(table_id):

            def with_password(password: str | None) -> None:
                if password:
                    go(password)

            self.app.push_screen(PasswordScreen(watch), with_password)
        else:
            go(None)

    @on(DataTable.RowSelected)
    async def row_selected(self) -> None:
        await self.action_join()

    def action_new_table(self) -> None:
        self.app.push_screen(NewTableScreen())

    def action_refresh(self) -> None:
        self.app.post_message(ToServer(ListTables()))

    def action_chat(self) -> None:
        box = self.query_one("#lobby-input", Input)
        box.display = not box.display
        if box.display:
            box.focus()
        else:
            self.query_one("#tables", DataTable).focus()

    @on(Input.Submitted, "#lobby-input")
    def send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.app.post_message(ToServer(Chat("lobby", text[:200])))

    def key_escape(self) -> None:
        box = self.query_one("#lobby-input", Input)
        if box.display:
            box.display = False
            self.query_one("#tables", DataTable).focus()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

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
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, RichLog, Static

from maumau.protocol.messages import Chat, JoinTable, ListTables, WatchTable, WatchTournament

from ..host import Host, host_of
from ..i18n import N_, _, ngettext, pgettext
from ..literal import literal
from ..model import seat_label
from ..tournament import series_words
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.banner import Banner
from ..widgets.chat_input import ChatInput
from ..widgets.key_footer import KeyFooter
from ..widgets.pick_list import PickList, set_columns
from .help import HelpScreen
from .help_rules import DEFAULTS
from .host import HostScreen
from .host_dialogs import ask_close
from .messages import ToServer, TournamentWanted
from .new_table import HOUSE_RULES, NewTableScreen
from .new_tournament import NewTournamentScreen
from .password import PasswordScreen

# The other columns and the cells' padding take this much of the width in English
# (the players column gets the rest); longer words in the player's language take
# their extra cells from the players column.
OTHER_COLUMNS = 52


def game_word(variant: str) -> str:
    """The game's short name in the table list."""
    return _("Mau Mau") if variant == "classic" else pgettext("game", "American")


def state_words(state: str, round_no: int, wide: bool) -> str:
    """A table's state as the list says it; narrow, a running match is only its
    round ("round 3" alone says it is playing, and fits)."""
    if state == "playing":
        if wide:
            return _("playing round {round}").format(round=round_no)
        return _("round {round}").format(round=round_no)
    if state == "waiting":
        return pgettext("table state", "waiting")
    if state == "finished":
        return pgettext("table state", "finished")
    return state  # a state this client does not know: as the server says it


def extra_cells(mine: str, english: str) -> int:
    """How many cells wider ``mine`` (the player's language) is than ``english``."""
    return max(0, cell_len(mine) - cell_len(english))


def table_detail(summary: dict[str, Any]) -> str:
    """The table under the cursor in one line: its game, length, clocks and house
    rules (the summary's ``rules`` hold the settings that differ from the game's
    defaults, :data:`~.help_rules.DEFAULTS`)."""
    variant = "american" if summary.get("variant") == "american" else "classic"
    rules = summary.get("rules") or {}
    settings = {**DEFAULTS[variant], **rules}
    parts = [game_word(variant)]
    deals = settings.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and deals > 0:
        parts.append(ngettext("{n} deal", "{n} deals", deals).format(n=deals))
    else:
        parts.append(_("to {target}").format(target=settings.get("target_score")))
    parts.append(_("turn {s} s").format(s=settings.get("turn_timeout_s")))
    for key, label, default in HOUSE_RULES[variant]:
        on = bool(settings.get(key, default))
        if on:
            parts.append(_(label))
        elif default:  # a rule the game has, switched off here
            parts.append(_("no {rule}").format(rule=_(label)))
    if settings.get("mau_penalty") != DEFAULTS[variant]["mau_penalty"]:
        parts.append(_("caught: draw {n}").format(n=settings.get("mau_penalty")))
    if settings.get("false_catch_penalty"):
        parts.append(_("false catch: draw {n}").format(n=settings.get("false_catch_penalty")))
    if settings.get("mau_window_ms") != DEFAULTS[variant]["mau_window_ms"]:
        ms = settings.get("mau_window_ms")
        if isinstance(ms, int) and not isinstance(ms, bool):
            parts.append(_("call window {s} s").format(s=f"{ms / 1000:g}"))
    if settings.get("reconnect_grace_s") != DEFAULTS[variant]["reconnect_grace_s"]:
        parts.append(_("reconnect grace {s} s").format(s=settings.get("reconnect_grace_s")))
    if settings.get("lag_compensation"):
        parts.append(_("lag compensation"))
    return " · ".join(parts)


class TableList(PickList):
    """The lobby's tables: Enter joins the one under the cursor; up from the first
    goes to the tournaments above, when there are any."""

    BINDINGS = [Binding("enter", "select_cursor", N_("join"))]

    def action_cursor_up(self) -> None:
        above = self.screen.query_one(TournamentList)
        if self.cursor_row <= 0 and above.display and above.row_count:
            above.focus()
            return
        super().action_cursor_up()


class TournamentList(PickList):
    """The lobby's tournaments: Enter opens the one under the cursor; down from the
    last goes back to the tables."""

    BINDINGS = [Binding("enter", "select_cursor", N_("open"))]

    def action_cursor_down(self) -> None:
        if self.cursor_row >= self.row_count - 1:
            self.screen.query_one(TableList).focus()
            return
        super().action_cursor_down()


def tournament_state(summary: dict[str, Any]) -> str:
    """A tournament's state as the lobby's list says it, with whether the receiver
    may register now."""
    state = series_words(summary["state"], summary["series_no"], summary["series"])
    if summary["open"]:
        # NOTE: a tournament's state in the lobby, when registration is open to you.
        return _("{state}, open").format(state=state)
    return state


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
        you = _("you: {name}").format(name=model.name)
        title = Text(" maumau  ", style="bold")
        label = host.server_label
        room = width - 1 - title.cell_len - 1 - cell_len(you)
        if len(label) > room:  # a long address gives way to the player's name
            label = label[: max(0, room - 3)] + "..."
        title.append_text(literal(label))
        title.append(" " * max(1, width - 1 - title.cell_len - cell_len(you)))
        title.append_text(literal(you))
        self.query_one("#lobby-title", Static).update(title)
        table: DataTable[object] = self.query_one("#tables", DataTable)
        self._columns(table)
        lobby = model.lobby
        keep = table.cursor_row
        table.clear()
        wide = width >= 70
        # For the players column: the state column stays whole.
        room = max(8, width - OTHER_COLUMNS - self._extra_width(wide))
        cut = "..." if host.ascii_only else "…"
        if lobby is not None:
            players_room, name_room = self._rooms(table, width, wide)
            room = min(room, players_room)
            for summary in lobby.tables:
                seats = summary["seats"]
                taken = sum(1 for s in seats if s["name"])
                players = " ".join(seat_label(s).replace(" (", "(") for s in seats if s["name"])
                name = summary["name"]
                if self._keeps_seat(summary):
                    # NOTE: a table in the lobby where the player's seat waits for them
                    # (they stepped out): Enter takes it back.
                    name = _("{table} (your seat)").format(table=name)
                elif summary["locked"]:
                    name = _("{table} (locked)").format(table=name)
                if cell_len(name) > name_room:  # what is said after the name gives way
                    keep = max(len(summary["name"]), name_room - len(cut))
                    name = name[:keep] + cut
                game = game_word(summary["variant"])
                state = state_words(summary["state"], summary.get("round", 0), wide)
                if len(players) > room:
                    players = players[: room - len(cut)] + cut
                cells = (name, game, f"{taken}/{len(seats)}", players, state)
                table.add_row(*map(literal, cells), key=str(summary["id"]))
            if lobby.more:
                more = ngettext("... {n} more", "... {n} more", lobby.more).format(n=lobby.more)
                table.add_row(*map(literal, (more, "", "", "", "")))
            online = Text(_("online ({n})").format(n=len(lobby.online)) + "\n", style="bold")
            online.append("  ".join(lobby.online))
            self.query_one("#online", Static).update(online)
        if lobby is not None and lobby.tables:
            table.move_cursor(row=min(keep, len(lobby.tables) - 1))
        self._draw_tournaments(width)
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
        lobby = self.host.model.lobby
        row = self.query_one("#tables", DataTable).cursor_row
        detail = self.query_one("#table-detail", Static)
        if lobby is None or not 0 <= row < len(lobby.tables):
            detail.update("")
            return
        text = table_detail(lobby.tables[row])
        if self.host.ascii_only:
            text = text.replace("·", "-")
        width = max(1, (self.size.width or 80) - 2)
        cut = "~" if self.host.ascii_only else "…"
        detail.update(literal(" " + (text if len(text) <= width else text[: width - 1] + cut)))

    @on(DataTable.RowHighlighted, "#tables")
    def row_highlighted(self) -> None:
        self._draw_detail()

    def _draw_tournaments(self, width: int) -> None:
        """The tournaments above the tables (hidden while there are none)."""
        listed = self.host.model.tournaments
        box = self.query_one(TournamentList)
        self.set_class(bool(listed), "with-tournaments")
        # One key more in the footer (t, or T where it fits): it draws its keys
        # closer, to keep them all.
        self.query_one(KeyFooter).compact = bool(listed) or self.offers_new_tournament()
        headers = [
            # NOTE: the lobby's tournament list headers: its name, its game, how
            # many players registered, where it stands, its director.
            pgettext("tournament column", "tournament"),
            pgettext("lobby column", "game"),
            pgettext("tournament column", "players"),
            pgettext("tournament column", "state"),
            pgettext("tournament column", "director"),
        ]
        set_columns(box, headers)
        keep = box.cursor_row
        box.clear()
        for summary in listed:
            name = summary["name"]
            if summary["locked"]:
                name = _("{table} (locked)").format(table=name)
            cells = (
                name,
                game_word(summary["variant"]),
                str(summary["players"]),
                tournament_state(summary),
                summary.get("director") or "",
            )
            box.add_row(*map(literal, cells), key=str(summary["id"]))
        if listed:
            box.move_cursor(row=min(keep, len(listed) - 1))
        elif box.has_focus:
            self.query_one(TableList).focus()

    def _columns(self, table: DataTable[object]) -> None:
        """Give the table its columns, headed in the current language (again when the
        language changed or the screen was composed anew)."""
        headers = [
            # NOTE: lobby column headers: the table's name, its game, its seats taken
            # of all, who sits there, and whether it waits or plays.
            pgettext("lobby column", "table"),
            pgettext("lobby column", "game"),
            pgettext("lobby column", "seats"),
            pgettext("lobby column", "players"),
            pgettext("lobby column", "state"),
        ]
        if [str(column.label) for column in table.columns.values()] == headers:
            return
        table.clear(columns=True)
        for key, header in zip(
            ("table", "game", "seats", "players", "state"), headers, strict=True
        ):
            table.add_column(header, key=key)

    def _rooms(self, table: DataTable[object], width: int, wide: bool) -> tuple[int, int]:
        """The cells the players column and the tables' names may take so that a
        whole row fits the width, without a horizontal scrollbar: the players get
        what the other columns (as wide as their widest cell or header, each padded
        by a cell either side) and a vertical scrollbar, if one shows, leave, at
        least their header; if that is still too wide, what is said after a
        table's name (its seat kept, locked) is cut (never the name itself)."""
        lobby = self.host.model.lobby
        if lobby is None:
            return width, width
        columns: list[list[str]] = [[str(c.label)] for c in table.columns.values()]
        for summary in lobby.tables:
            name = summary["name"]
            if self._keeps_seat(summary):
                name = _("{table} (your seat)").format(table=name)
            elif summary["locked"]:
                name = _("{table} (locked)").format(table=name)
            columns[0].append(name)
            columns[1].append(game_word(summary["variant"]))
            columns[2].append(f"{len(summary['seats'])}/{len(summary['seats'])}")
            columns[4].append(state_words(summary["state"], summary.get("round", 0), wide))
        if lobby.more:
            columns[0].append(ngettext("... {n} more", "... {n} more", lobby.more).format(n=99))
        widths = [max(map(cell_len, column)) for column in columns]
        others = sum(widths[i] + 2 for i in (0, 1, 2, 4))
        rows = len(lobby.tables) + (1 if lobby.more else 0)
        height = table.size.height
        scrollbar = table.styles.scrollbar_size_vertical if height and rows + 1 > height else 0
        room = width - others - 2 - scrollbar
        least = widths[3]  # the players' header
        if room >= least:
            return room, widths[0]
        return least, widths[0] - (least - room)

    @staticmethod
    def _extra_width(wide: bool) -> int:
        """How much wider than in English the game and state columns are in the
        player's language (their widest word or header), so that the players column
        gives those cells up and the state column stays whole."""
        game = max(
            extra_cells(game_word("classic"), "Mau Mau"),
            extra_cells(game_word("american"), "American"),
            extra_cells(pgettext("lobby column", "game"), "game"),
        )
        playing = (state_words("playing", 10, wide), "playing round 10" if wide else "round 10")
        state = max(
            extra_cells(*playing),
            extra_cells(state_words("waiting", 0, wide), "waiting"),
            extra_cells(state_words("finished", 0, wide), "finished"),
            extra_cells(pgettext("lobby column", "state"), "state"),
        )
        seats = extra_cells(pgettext("lobby column", "seats"), "seats")
        return game + state + seats

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

    def _selected(self) -> int | None:
        table = self.query_one("#tables", DataTable)
        lobby = self.host.model.lobby
        if lobby is None or not lobby.tables or table.cursor_row >= len(lobby.tables):
            return None
        return int(lobby.tables[table.cursor_row]["id"])

    def _keeps_seat(self, summary: dict[str, Any]) -> bool:
        """Whether a seat at this table waits for the player (they stepped out of a
        running or finished match): Enter takes it back, without a password."""
        name = self.host.model.name
        return summary["state"] != "waiting" and any(
            s["name"] == name and not s["bot"] for s in summary["seats"]
        )

    def _locked(self, table_id: int) -> bool:
        lobby = self.host.model.lobby
        return lobby is not None and any(
            t["id"] == table_id and t["locked"] and not self._keeps_seat(t) for t in lobby.tables
        )

    async def action_join(self) -> None:
        self._enter(watch=False)

    async def action_watch(self) -> None:
        self._enter(watch=True)

    def _enter(self, watch: bool) -> None:
        table_id = self._selected()
        if table_id is None:
            self.app.notify(_("No table yet: press n to make one"))
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
        listed = model.tournaments
        box = self.query_one(TournamentList)
        row = box.cursor_row
        if not listed:
            self.app.notify(_("No tournament yet: press T to make one"))
            return
        if len(listed) > 1 and not box.has_focus:
            box.focus()
            return
        summary = listed[min(max(row, 0), len(listed) - 1)]
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
        listed = model.tournaments
        if box.has_focus and listed:
            summary = listed[min(max(box.cursor_row, 0), len(listed) - 1)]
            ask_close(self.app, dict(summary), tournament=True)
            return
        table_id = self._selected()
        lobby = model.lobby
        if table_id is None or lobby is None:
            self.app.notify(_("No table to close"))
            return
        summary = next(t for t in lobby.tables if t["id"] == table_id)
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

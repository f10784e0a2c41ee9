"""The tournament screen: where it stands, the standings, and the series' tables.

Theory of operation
-------------------
The screen draws the followed tournament (:class:`~maumau.client.tournament.Following`
in the view model) and holds no truth of its own. The app redraws it whenever a
``tournament`` message arrives (:meth:`TournamentScreen.refresh_model`); between
messages a one-second tick redraws only the header, whose clock (the series' time,
or the countdown to the next start) is counted on from the moment the last message
arrived.

From the top, at 80x24: the header (name, game, state, clock), a line of the
tournament's settings (director, series length, final, late arrivals), the line
about the player ("you sit at table 2.1", "you have a bye this series"), the
standings (best first; the player's own line marked with a ``▶`` and in bold, never
by colour alone; withdrawn and disconnected players said in words), and the tables
of the series being played, each called by its label (``2.1``, ``final``; never the
server's id), the one the cursor is on watched with Enter or w (``watch_table``;
the app shows the table, and leaving it comes back here; at the player's own table,
which they left, the server seats them again). A finished table is closed: Enter
says its match is in the history instead of asking. PgUp and PgDn scroll the
standings, whatever has the focus.

Keys that need the server become :class:`~.messages.ToServer` messages: r registers
(``join_tournament``), unregisters before the start or, once started, withdraws
after asking (``leave_tournament``); g is the director's go (``start_tournament``),
after asking. Esc goes back to the lobby: a player with series still to play keeps
following the tournament (their next table is sent to them); anyone else stops
(``watch_tournament`` nil).

Every name on it (the tournament's, the players', the director's) is someone
else's words: it reaches a widget only through
:func:`~maumau.client.literal.literal`.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from maumau.protocol.messages import (
    TOURNAMENT_STANDINGS_PAGE,
    CancelTournament,
    JoinTournament,
    LeaveTournament,
    Message,
    StartTournament,
    WatchTable,
    WatchTournament,
)

from ..host import Host, host_of
from ..i18n import N_, _, pgettext
from ..literal import literal
from ..model import plain
from ..tournament import Following, game_words
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from ..widgets.pick_list import PickList, set_columns
from .confirm import ConfirmScreen
from .help import HelpScreen, rules_summary
from .messages import ToServer, TournamentClosed

# The cells the table list's other columns take (the players column gets the rest).
TABLE_COLUMNS = 28


class SeriesTables(PickList):
    """The tables of the series: Enter watches the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", N_("watch"))]


class Standings(DataTable[Any], can_focus=False):
    """The standings, best first (scrolled by the screen's PgUp/PgDn)."""


def table_state(table: dict[str, Any], deals: int | None = None) -> str:
    """A tournament table's state in a few words (``deals``: a series' length, when
    it is so many deals)."""
    state = table["state"]
    if state == "playing" and deals:
        return _("deal {number} of {deals}").format(number=table["round"], deals=deals)
    if state == "playing":
        return _("round {round}").format(round=table["round"])
    if state == "waiting":
        return pgettext("table state", "waiting")
    if state == "finished":
        return pgettext("table state", "finished")
    return str(state)


def table_players(table: dict[str, Any]) -> str:
    """Who sits at a tournament table, bots marked, each with their score once the
    match has begun (always once it is over): ``Ann 62  Bob 40  Dan(bot) 12``."""
    parts = []
    scores = table["scores"]
    scored = bool(table["round"]) or table["state"] == "finished"
    for i, name in enumerate(table["names"]):
        bot = i < len(table["bots"]) and table["bots"][i]
        shown = _("{name} (bot)").format(name=name).replace(" (", "(") if bot else name
        if scored and i < len(scores):
            shown = f"{shown} {scores[i]}"
        parts.append(shown)
    return "  ".join(parts)


def where_words(line: dict[str, Any], following: Following) -> str:
    """Where a player of the standings is now: their table (by its label), a bye,
    or withdrawn."""
    if line["withdrawn"]:
        return pgettext("standings", "withdrawn")
    table = line.get("table")
    state = following.info.state
    if table is not None:
        return following.where_words(table)
    if state == "playing":
        return pgettext("standings", "bye")
    return ""


class TournamentScreen(Screen[None]):
    """The followed tournament: header, standings, the series' tables."""

    BINDINGS = [
        # NOTE: the tournament screen's keys: watch a table, register for the
        # tournament, unregister (before it starts), withdraw (once it runs), the
        # director's go, the director calling it off, the tables of the series
        # before and after the one shown, help, back to the lobby.
        Binding("w", "watch", N_("watch"), show=False),
        Binding("r", "register", N_("register")),
        Binding("r", "unregister", N_("unregister")),
        Binding("r", "withdraw", N_("withdraw")),
        Binding("g", "go", N_("go")),
        Binding("x", "cancel_tournament", N_("call off")),
        Binding("left_square_bracket", "series(-1)", N_("earlier"), key_display="["),
        Binding("right_square_bracket", "series(1)", N_("later"), key_display="]"),
        Binding("pageup", "standings(-1)", N_("standings"), show=False),
        Binding("pagedown", "standings(1)", N_("standings"), show=False),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("escape", "back", N_("lobby"), key_display="Esc"),
    ]

    drawn = False  # set once mounted: messages before that are drawn by on_mount
    placed: tuple[int, int | None] = (-1, None)  # the seating the cursor was put on

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="tournament-title", classes="title")
        yield Static("", id="tournament-about")
        yield Static("", id="tournament-you")
        yield Standings(id="standings", show_cursor=False, zebra_stripes=True)
        yield SeriesTables(id="series-tables", cursor_type="row")
        taps = ("register", "unregister", "withdraw", "go", "watch", "help", "back")
        # (calling off and the other series: by key, and by tap on the footer)
        yield ActionBar(described(self.BINDINGS, taps), id="tournament-actions")
        yield KeyFooter()

    @property
    def host(self) -> Host:
        return host_of(self.app)

    @property
    def following(self) -> Following | None:
        return self.host.model.tournament

    def on_mount(self) -> None:
        self.drawn = True
        self.set_class(self.host.ascii_only, "ascii")
        self.query_one(SeriesTables).focus()
        self.refresh_model()
        self.set_interval(1.0, self.tick)

    def on_resize(self) -> None:
        self.refresh_model()

    def tick(self) -> None:
        """The clock moves on: only the header changes between messages."""
        self._draw_title()

    # --- drawing ------------------------------------------------------------------

    def refresh_model(self) -> None:
        if not self.drawn:
            return
        self._draw_title()
        following = self.following
        about = self.query_one("#tournament-about", Static)
        you = self.query_one("#tournament-you", Static)
        if following is None:
            about.update(_("Not following a tournament."))
            you.update("")
        else:
            about.update(literal(plain(self._about(following), self.host.ascii_only)))
            words = following.you_words(self.host.model.name, self._seated_at())
            you.update(literal(words, style="bold"))
        self._draw_standings(following)
        self._draw_tables(following)
        fit_room(self)
        self.query_one(ActionBar).sync()
        self.refresh_bindings()

    def _seated_at(self) -> int | None:
        """The table the player sits at now, if any."""
        model = self.host.model
        if model.table is None or model.seat is None:
            return None
        return model.table.id

    def _draw_title(self) -> None:
        if not self.is_mounted:
            return
        following = self.following
        width = self.size.width or 80
        text = Text(" maumau  ", style="bold")
        if following is None:
            self.query_one("#tournament-title", Static).update(text)
            return
        model = self.host.model
        ascii_only = self.host.ascii_only
        dot = "-" if ascii_only else "·"
        info = following.info
        clock = following.clock_words(model.clock())
        about = f" {dot} ".join(
            part
            for part in (
                game_words(str(info.settings.get("variant", "classic"))),
                following.state_words(),
            )
            if part
        )
        room = width - 1 - text.cell_len - cell_len(clock) - 2
        # The tournament's name gives way first; its game and state stay whole.
        name_room = max(4, room - cell_len(about) - 3)
        name = info.name
        if cell_len(name) > name_room:
            cut = "..." if ascii_only else "…"
            name = name[: max(1, name_room - len(cut))] + cut
        line = f"{name} {dot} {about}"
        if cell_len(line) > room:
            line = line[: max(0, room)]
        text.append_text(literal(line))
        text.append(" " * max(1, width - 1 - text.cell_len - cell_len(clock)))
        text.append_text(literal(clock))
        self.query_one("#tournament-title", Static).update(text)

    def _about(self, following: Following) -> str:
        """The tournament's settings in one line."""
        info = following.info
        dot = "·"
        parts = []
        if info.director:
            parts.append(_("director: {name}").format(name=info.director))
        parts.append(following.length_words())
        if info.final:
            parts.append(_("with a final"))
        if info.late_join:
            parts.append(_("late arrivals welcome"))
        if info.locked:
            parts.append(_("locked"))
        return f" {dot} ".join(parts)

    def _draw_standings(self, following: Following | None) -> None:
        table = self.query_one(Standings)
        headers = [
            # NOTE: the standings' column headers: the rank, the player, tournament
            # points, the total score of their matches, how many tables they won,
            # how many byes they had, and where they are now (table, bye, withdrawn).
            pgettext("standings column", "#"),
            pgettext("standings column", "player"),
            pgettext("standings column", "points"),
            pgettext("standings column", "score"),
            pgettext("standings column", "1st"),
            pgettext("standings column", "byes"),
            pgettext("standings column", "now"),
        ]
        set_columns(table, headers)
        table.clear()
        if following is None:
            return
        mark = ">" if self.host.ascii_only else "▶"
        you = following.info.you
        for index, line in enumerate(following.info.standings):
            mine = index == you
            name = line["name"]
            if not line["connected"] and not line["withdrawn"]:
                name = _("{name} (offline)").format(name=name)
            style = "bold reverse" if mine else ("dim" if line["withdrawn"] else "")
            cells = (
                f"{mark if mine else ' '}{line['rank']}",
                name,
                str(line["points"]),
                str(line["score"]),
                str(line["firsts"]),
                str(line["byes"]),
                where_words(line, following),
            )
            table.add_row(*(self._cell(i, cell, style) for i, cell in enumerate(cells)))

    @staticmethod
    def _cell(column: int, cell: str, style: str) -> Text:
        """A standings cell: the numbers (points, score, firsts, byes) to the right."""
        text = literal(cell, style)
        if 2 <= column <= 5:
            text.justify = "right"
        return text

    def _draw_tables(self, following: Following | None) -> None:
        table = self.query_one(SeriesTables)
        headers = [
            # NOTE: the column headers of the series' tables: the table's number,
            # who sits there (with their scores), and its state.
            pgettext("series column", "table"),
            pgettext("series column", "players"),
            pgettext("series column", "state"),
        ]
        set_columns(table, headers)
        keep = table.cursor_row
        table.clear()
        if following is None:
            table.display = False
            return
        tables = following.current_tables()
        table.display = bool(tables)
        mine = following.my_table()
        mark = ">" if self.host.ascii_only else "▶"
        cut = "..." if self.host.ascii_only else "…"
        room = max(10, (self.size.width or 80) - TABLE_COLUMNS)
        for row in tables:
            players = table_players(row)
            if cell_len(players) > room:
                players = players[: room - len(cut)] + cut
            number = f"{mark if row['id'] == mine else ' '}{following.label(row['id'])}"
            style = "bold" if row["id"] == mine else ""
            cells = (number, players, table_state(row, following.info.deals))
            table.add_row(*(literal(cell, style) for cell in cells), key=str(row["id"]))
        ids = [row["id"] for row in tables]
        if (following.info.series_no, mine) != self.placed and mine in ids:
            keep = ids.index(mine)  # a new seating: the cursor starts on the player's table
            self.placed = (following.info.series_no, mine)
        if tables:
            table.move_cursor(row=min(keep, len(tables) - 1))

    # --- keys ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        following = self.following
        keys = ("register", "unregister", "withdraw", "go", "watch")
        if action in keys and (following is None or self.host.model.offline):
            return False
        if following is None:
            return True
        name = self.host.model.name
        if action == "register":
            return following.can_register()
        if action == "unregister":
            return following.can_unregister()
        if action == "withdraw":
            return following.can_withdraw()
        if action == "go":
            return following.can_go(name)
        if action == "watch":
            return bool(following.current_tables())
        if action == "cancel_tournament":
            return following.can_cancel(name)
        if action == "series":
            step = int(str(parameters[0])) if parameters else 1
            shown = following.shown_series
            return 1 <= shown + step <= following.info.series_no
        return True

    def _selected_table(self) -> dict[str, Any] | None:
        following = self.following
        if following is None:
            return None
        tables = following.current_tables()
        row = self.query_one(SeriesTables).cursor_row
        if not tables or not 0 <= row < len(tables):
            return None
        return tables[row]

    def action_watch(self) -> None:
        """Watch the table under the cursor (the player's own, which they left: the
        server seats them again); a finished table is closed: say where its match is."""
        table = self._selected_table()
        following = self.following
        if table is None or following is None:
            return
        table_id = int(table["id"])
        if table["state"] == "finished":
            self.app.notify(following.closed_words(table_id), timeout=6)
            return
        self.app.post_message(ToServer(WatchTable(table_id, following.password)))

    @on(DataTable.RowSelected, "#series-tables")
    def row_selected(self) -> None:
        self.action_watch()

    def action_register(self) -> None:
        following = self.following
        if following is not None:
            self.app.post_message(ToServer(JoinTournament(following.id, following.password)))

    def action_unregister(self) -> None:
        following = self.following
        if following is not None:
            self.app.post_message(ToServer(LeaveTournament(following.id)))

    def _ask(self, question: str, request: Message) -> None:
        """Send ``request`` once the player confirms ``question`` (a catalog id)."""

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.post_message(ToServer(request))

        self.app.push_screen(ConfirmScreen(question), answer)

    def action_withdraw(self) -> None:
        following = self.following
        if following is not None:
            self._ask(
                N_("Withdraw from the tournament? Your results so far stay in the standings."),
                LeaveTournament(following.id),
            )

    def action_go(self) -> None:
        following = self.following
        if following is None:
            return
        if following.info.state == "registering":
            question = N_("Start the tournament now, with the players registered so far?")
        else:
            question = N_("Start the next series now?")
        self._ask(question, StartTournament(following.id))

    def action_cancel_tournament(self) -> None:
        following = self.following
        if following is not None:
            self._ask(
                N_("Call the tournament off? A series being played finishes as ordinary matches."),
                CancelTournament(following.id),
            )

    def _watch_window(self, standings_from: int, series: int | None) -> None:
        """Ask for another part of the tournament (see docs/protocol.md,
        watch_tournament): a page of the standings, another series' tables."""
        following = self.following
        if following is None:
            return
        self.app.post_message(
            ToServer(
                WatchTournament(
                    following.id,
                    following.password,
                    standings_from=standings_from,
                    series=series,
                )
            )
        )

    def _series_asked(self, following: Following) -> int | None:
        """The series shown, as asked for again (None: the current one)."""
        shown = following.shown_series
        return None if shown == following.info.series_no else shown

    def action_series(self, step: int) -> None:
        following = self.following
        if following is None:
            return
        number = following.shown_series + step
        if not 1 <= number <= following.info.series_no:
            return
        series = None if number == following.info.series_no else number
        self._watch_window(following.first_line, series)

    def action_standings(self, pages: int) -> None:
        """Scroll the standings a page; past the lines the message holds, ask the
        server for the next (or the previous) page of them."""
        standings = self.query_one(Standings)
        following = self.following
        if pages < 0:
            if standings.scroll_y <= 0 and following is not None and following.first_line > 0:
                start = max(0, following.first_line - TOURNAMENT_STANDINGS_PAGE)
                self._watch_window(start, self._series_asked(following))
                return
            standings.scroll_page_up(animate=False)
        else:
            at_end = standings.scroll_y >= standings.max_scroll_y
            if at_end and following is not None and following.more_below():
                start = following.first_line + TOURNAMENT_STANDINGS_PAGE
                self._watch_window(start, self._series_asked(following))
                return
            standings.scroll_page_down(animate=False)

    def action_help(self) -> None:
        following = self.following
        settings = following.info.settings if following is not None else None
        if settings is not None and "turn_timeout_s" in settings and "mau_penalty" in settings:
            self.app.push_screen(HelpScreen(rules_summary(settings), settings=settings))
        else:
            self.app.push_screen(HelpScreen())

    def action_back(self) -> None:
        """Back to the lobby; stop following unless there are series to play."""
        following = self.following
        stop = following is None or not following.keeps_following()
        if stop and following is not None:
            self.app.post_message(ToServer(WatchTournament(None)))
        self.app.post_message(TournamentClosed(stop))
        self.dismiss(None)

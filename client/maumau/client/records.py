"""The records of a server that keeps them: leaderboard, match history and replays.

Theory of operation
-------------------
Each screen asks the server when it opens (``get_stats``, ``list_matches``,
``get_replay``) and then only draws what the view model holds. The app folds every
answer (``stats``, ``matches``, ``replay``) and every refusal of these requests into
the :class:`~maumau.client.model.Model` and calls :meth:`RecordsScreen.refresh_records`
on each records screen that is open; after a reconnect it calls
:meth:`RecordsScreen.reconnected`, so a question lost with the old connection is
asked again. A refusal is said in the screen itself, in words: ``no_store`` becomes
"This server keeps no records".

The replay screen shows one step at a time from the model's
:class:`~maumau.client.model.ReplayBook`. Before drawing a step it asks the book
which pages are missing for that step and for the steps :data:`PREFETCH` ahead and
behind, and sends a ``get_replay`` for each; so stepping through a match rarely
waits, and jumping (End, a round start) fetches only the page it lands on. Seeking
the next or previous round start may need pages not here yet: the screen remembers
the seek and carries it on as pages arrive.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Static

from maumau.protocol.messages import GetReplay, GetStats, ListMatches

from . import render
from .literal import literal
from .model import REPLAY_PAGE, ReplayBook, plain
from .screens import AsciiAware, Banner, PickList

if TYPE_CHECKING:
    from .app import MauMauApp

LEADERS = 20  # players on the leaderboard
MATCHES = 50  # matches in the history
PREFETCH = 20  # steps ahead and behind the replay keeps ready


def when(finished: float) -> str:
    """A finish time as local date and time: ``2025-05-01 21:30``."""
    return datetime.datetime.fromtimestamp(finished).strftime("%Y-%m-%d %H:%M")


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 win``, ``3 wins``."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def game_name(variant: str) -> str:
    return "Mau Mau" if variant == "classic" else "American"


class MatchList(PickList):
    """The history's matches: Enter replays the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", "replay")]


class RecordsScreen:
    """A screen that shows records; the app calls these when answers arrive."""

    @property
    def mau_app(self) -> MauMauApp:
        return self.app  # type: ignore[attr-defined,no-any-return]

    def refresh_records(self) -> None:
        """Draw what the model holds now."""

    def reconnected(self) -> None:
        """A new connection: ask again what the old one did not answer."""


class LeaderboardScreen(RecordsScreen, AsciiAware, ModalScreen[None]):
    """The leaderboard (``get_stats``): rank, name, matches, wins, rounds won and
    average final score of the best human players, and the player's own line."""

    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("q", "close", "close", show=False),
        Binding("r", "ask", "refresh"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="leaderboard"):
            yield Static("Leaderboard", classes="title")
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static("", id="leaders-you")
            yield Static("Esc closes · r refreshes", classes="hint")

    def on_mount(self) -> None:
        table = self.query_one("#leaders", DataTable)
        for title in ("#", "player", "matches", "wins", "rounds won", "avg score"):
            table.add_column(title, key=title)
        self.run_worker(self.action_ask())

    async def action_ask(self) -> None:
        model = self.mau_app.model
        model.stats = None
        model.records_errors.pop("get_stats", None)
        self.refresh_records()
        await self.mau_app.send(GetStats(LEADERS))

    def reconnected(self) -> None:
        if self.mau_app.model.stats is None:
            self.run_worker(self.action_ask())

    def action_close(self) -> None:
        self.dismiss(None)

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        model = self.mau_app.model
        table = self.query_one("#leaders", DataTable)
        line = self.query_one("#leaders-you", Static)
        table.clear()
        problem = model.records_errors.get("get_stats")
        stats = model.stats
        if problem:
            table.display = False
            line.update(Text(problem, style="bold"))
            return
        if stats is None:
            table.display = False
            line.update("Asking the server...")
            return
        table.display = bool(stats.leaders)
        mine = None
        for rank, player in enumerate(stats.leaders, start=1):
            me = player["name"] == model.name
            if me:
                mine = rank - 1
            name = Text(player["name"] + (" (you)" if me else ""), style="bold" if me else "")
            table.add_row(
                Text(str(rank), justify="right"),
                name,
                Text(str(player["matches"]), justify="right"),
                Text(str(player["wins"]), justify="right"),
                Text(str(player["rounds_won"]), justify="right"),
                Text(f"{player['average_score']:.1f}", justify="right"),
            )
        if mine is not None:
            table.move_cursor(row=mine)
        you = stats.you
        text = Text()
        if not stats.leaders:
            text.append("No finished matches with players yet.\n")
        if you is None:
            text.append(f"You ({model.name}) have no finished match yet.")
        elif mine is not None:
            text.append(f"You ({model.name}) are number {mine + 1}.")
        else:
            text.append(
                f"You ({you['name']}): {counted(you['matches'], 'match', 'matches')}, "
                f"{counted(you['wins'], 'win')}, {counted(you['rounds_won'], 'round')} won, "
                f"average score {you['average_score']:.1f}"
            )
        line.update(text)


class HistoryScreen(RecordsScreen, AsciiAware, Screen[None]):
    """Finished matches, newest first (``list_matches``); Enter replays one."""

    BINDINGS = [
        Binding("enter", "replay", "replay", show=False),
        Binding("m", "mine", "mine/all"),
        Binding("r", "ask", "refresh"),
        Binding("q", "close", "back"),
        Binding("escape", "close", "back", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.mine = False

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="history-title", classes="title")
        yield MatchList(id="matches", cursor_type="row", zebra_stripes=True)
        yield Static("", id="match-detail")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#matches", DataTable)
        # The columns and their padding take 52 of 80; the players get the rest, less
        # room for a scrollbar.
        players = max(16, self.app.size.width - 52 - 2)
        table.add_column("finished", width=16, key="when")
        table.add_column("table", width=12, key="table")
        table.add_column("game", width=8, key="game")
        table.add_column("rounds", width=6, key="rounds")
        table.add_column(f"players ({self._won_mark()} won)", width=players, key="p")
        self.players_width = players
        self.run_worker(self.action_ask())

    def _won_mark(self) -> str:
        return "*" if self.mau_app.ascii_only else "✓"

    async def action_ask(self) -> None:
        model = self.mau_app.model
        model.matches = None
        model.records_errors.pop("list_matches", None)
        self.refresh_records()
        await self.mau_app.send(ListMatches(MATCHES, self.mine))

    def reconnected(self) -> None:
        if self.mau_app.model.matches is None:
            self.run_worker(self.action_ask())

    async def action_mine(self) -> None:
        self.mine = not self.mine
        await self.action_ask()

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return self._selected() is not None
        return True

    def _selected(self) -> dict[str, Any] | None:
        matches = self.mau_app.model.matches
        if matches is None or not matches.matches or not self.is_mounted:
            return None
        row = self.query_one("#matches", DataTable).cursor_row
        return matches.matches[row] if 0 <= row < len(matches.matches) else None

    def action_replay(self) -> None:
        summary = self._selected()
        if summary is not None:
            self.mau_app.open_replay(summary)

    @on(DataTable.RowSelected)
    def row_selected(self) -> None:
        self.action_replay()

    @on(DataTable.RowHighlighted)
    def row_highlighted(self) -> None:
        self._draw_detail()

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        app = self.mau_app
        dot = "-" if app.ascii_only else "·"
        title = Text(" maumau  ", style="bold")
        title.append(f"match history {dot} {'your matches' if self.mine else 'all players'}")
        where = literal(app.server_label)
        title.append(" " * max(1, 79 - len(title.plain) - len(where)))
        title.append_text(where)
        self.query_one("#history-title", Static).update(title)
        table = self.query_one("#matches", DataTable)
        keep = table.cursor_row
        table.clear()
        matches = app.model.matches
        for summary in matches.matches if matches is not None else ():
            table.add_row(
                when(summary["finished"]),
                literal(summary["table"][:12]),
                game_name(summary["variant"]),
                Text(str(summary["rounds"]), justify="right"),
                self._players(summary),
                key=str(summary["id"]),
            )
        if matches is not None and matches.matches:
            table.move_cursor(row=max(0, min(keep, len(matches.matches) - 1)))
        table.display = bool(matches and matches.matches)
        if table.display:
            table.focus()  # hiding it took the focus away, and with it its keys
        self._draw_detail()
        self.refresh_bindings()

    def _players(self, summary: dict[str, Any]) -> Text:
        text = Text()
        scores = summary["scores"]
        for seat, (name, score) in enumerate(zip(summary["names"], scores, strict=False)):
            if seat:
                text.append("  ")
            won = seat == summary["winner"]
            text.append(name + (self._won_mark() if won else ""), style="bold" if won else "")
            text.append(f" {score}")
        if len(text) > self.players_width:
            cut = "..." if self.mau_app.ascii_only else "…"
            text.truncate(self.players_width - len(cut))
            text.append(cut)
        return text

    def _draw_detail(self) -> None:
        app = self.mau_app
        detail = self.query_one("#match-detail", Static)
        problem = app.model.records_errors.get("list_matches")
        matches = app.model.matches
        if problem:
            detail.update(Text(f" {problem}", style="bold"))
            return
        if matches is None:
            detail.update(" Asking the server...")
            return
        if not matches.matches:
            who = "You have" if self.mine else "This server has"
            detail.update(f" {who} no finished match yet.")
            return
        summary = self._selected()
        if summary is None:
            return
        dot = "-" if app.ascii_only else "·"
        text = Text(
            f" Match {summary['id']} {dot} {summary['table']} {dot} "
            f"{game_name(summary['variant'])} {dot} {counted(summary['rounds'], 'round')} "
            f"{dot} finished {when(summary['finished'])}\n ",
            style="bold",
        )
        scores = summary["scores"]
        for seat, (name, score) in enumerate(zip(summary["names"], scores, strict=False)):
            if seat:
                text.append(f" {dot} ")
            bot = seat < len(summary["bots"]) and summary["bots"][seat]
            won = seat == summary["winner"]
            text.append(name + (" (bot)" if bot else ""), style="bold" if won else "")
            text.append(f" {score}" + (" (won)" if won else ""))
        text.append("\n Enter replays it: every hand revealed, step by step.", style="dim")
        detail.update(text)


class ReplayScreen(RecordsScreen, AsciiAware, Screen[None]):
    """A finished match, step by step, every hand revealed (``get_replay`` pages)."""

    BINDINGS = [
        Binding("right", "step(1)", "step", key_display="←→"),
        Binding("left", "step(-1)", "step", show=False),
        Binding("space", "step(1)", "step", show=False),
        Binding("pagedown", "step(10)", "10 steps", key_display="PgUp/PgDn"),
        Binding("pageup", "step(-10)", "10 steps", show=False),
        Binding("home", "first", "first"),
        Binding("end", "last", "last"),
        Binding("n", "round(1)", "round", key_display="n/p"),
        Binding("p", "round(-1)", "round", show=False),
        Binding("q", "back", "back"),
        Binding("escape", "back", "back", show=False),
    ]

    def __init__(self, match: int, summary: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.match = match
        self.summary = summary
        self.n = 0  # the step shown
        self.seek = 0  # +1 / -1: on the way to the next / previous round start
        self.note = ""  # a word about the last key, until the next one

    @property
    def book(self) -> ReplayBook:
        model = self.mau_app.model
        if model.replay is None or model.replay.match != self.match:
            model.replay = ReplayBook(self.match)
            if self.summary is not None:
                model.replay.names = tuple(self.summary["names"])
                model.replay.bots = tuple(self.summary["bots"])
                model.replay.table = self.summary["table"]
                model.replay.variant = self.summary["variant"]
        return model.replay

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="replay-title", classes="title")
        yield Static("", id="replay-hands")
        yield Static("", id="replay-table")
        yield Static("", id="replay-lines")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replay-hands", Static).border_title = "every hand"
        self.query_one("#replay-lines", Static).border_title = "what happened"
        self.book.error = None
        self._fetch()
        self.refresh_records()

    # --- fetching ------------------------------------------------------------------

    def _fetch(self) -> None:
        """Ask for the page of the step shown, and those a few steps either side."""
        book = self.book
        last = book.last
        around = [self.n, self.n + PREFETCH, self.n - PREFETCH]
        for k in around:
            k = max(0, k if last is None else min(k, last))
            start = book.wants(k)
            if start is not None:
                self.run_worker(self.mau_app.send(GetReplay(self.match, start, REPLAY_PAGE)))

    def reconnected(self) -> None:
        self._fetch()
        self.refresh_records()

    # --- keys ------------------------------------------------------------------------

    def _go(self, n: int) -> None:
        last = self.book.last
        self.n = max(0, n if last is None else min(n, last))
        self._fetch()
        self.refresh_records()

    def action_step(self, step: int) -> None:
        self.seek, self.note = 0, ""
        self._go(self.n + step)

    def action_first(self) -> None:
        self.seek, self.note = 0, ""
        self._go(0)

    def action_last(self) -> None:
        self.seek, self.note = 0, ""
        last = self.book.last
        if last is not None:
            self._go(last)

    def action_round(self, direction: int) -> None:
        self.seek, self.note = direction, ""
        self._carry_on_seek()
        self.refresh_records()

    def _carry_on_seek(self) -> None:
        if not self.seek:
            return
        book = self.book
        found, missing = (book.next_round if self.seek > 0 else book.previous_round)(self.n)
        if found is not None:
            self.seek = 0
            self._go(found)
        elif missing is not None:
            start = book.wants(missing)
            if start is not None:
                self.run_worker(self.mau_app.send(GetReplay(self.match, start, REPLAY_PAGE)))
            self.note = "looking for the round start..."
        else:
            self.seek = 0
            self.note = "this is the last round"

    async def action_back(self) -> None:
        self.dismiss(None)

    # --- drawing ---------------------------------------------------------------------

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        app = self.mau_app
        book = self.book
        if book.error and book.total is None and app.replay_match is not None:
            app.exit(return_code=1, message=literal(f"maumau-client: {book.error}"))
            return
        if self.seek and book.steps:
            self._carry_on_seek()
        if book.last is not None and self.n > book.last:
            self.n = book.last
        ascii_only = app.ascii_only
        width, height = app.size.width or 80, app.size.height or 24
        self.query_one("#replay-title", Static).update(
            render.replay_title(book, self.n, ascii_only, width)
        )
        hands = self.query_one("#replay-hands", Static)
        table = self.query_one("#replay-table", Static)
        lines = self.query_one("#replay-lines", Static)
        step = book.steps.get(self.n)
        if step is None:
            hands.update(Text(f" {book.error}" if book.error else " loading...", style="bold"))
            table.update("")
            lines.update("")
            return
        room = height - 1 - 1 - 2 - 4 - 2 - 1  # title, footer, pile, log, borders, header
        hands.update(render.replay_hands(book, step, ascii_only, width - 4, room))
        winner = self.summary["winner"] if self.summary is not None else None
        if winner is None and step["phase"] == "match_over":
            # Only the winner reaches the target, so the highest score is the winner's.
            winner = max(range(len(step["scores"])), key=lambda seat: step["scores"][seat])
        table.update(render.replay_table(book, step, ascii_only, winner))
        text = Text()
        for line in step["lines"]:
            text.append(plain(line, ascii_only) + "\n")
        if not step["lines"]:
            text.append("(nothing visible happened)\n", style="dim")
        if self.note or book.error:
            text.append(f"({self.note or book.error})", style="italic")
        lines.update(text)


class LoneReplayScreen(ReplayScreen):
    """``maumau-client --replay``: the only screen; leaving it quits the client."""

    BINDINGS = [
        Binding("q", "back", "quit"),
        Binding("escape", "back", "quit", show=False),
    ]

    async def action_back(self) -> None:
        await self.mau_app.action_quit()

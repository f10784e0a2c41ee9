"""The leaderboard (``get_stats``): the best human players and the player's own line.

Asks when it opens and on r; draws only what the model holds
(:mod:`.records_base` says how answers reach it).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from maumau.protocol.messages import GetStats

from ..render import counted
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .records_base import CLOSE_KEYS, RecordsScreen

LEADERS = 20  # players on the leaderboard


class LeaderboardScreen(RecordsScreen, AsciiAware, ModalScreen[None]):
    """The leaderboard (``get_stats``): rank, name, matches, wins, rounds won and
    average final score of the best human players, and the player's own line."""

    BINDINGS = [
        *CLOSE_KEYS,
        Binding("r", "ask", "refresh"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="leaderboard"):
            yield Static("Leaderboard", classes="title")
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static("", id="leaders-you")
            yield Static("Esc or q closes, r refreshes", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#leaders", DataTable)
        for title in ("#", "player", "matches", "wins", "rounds won", "avg score"):
            table.add_column(title, key=title)
        self.run_worker(self.action_ask())  # once mounted: the table is laid out first

    async def action_ask(self) -> None:
        model = self.host.model
        model.stats = None
        model.records_errors.pop("get_stats", None)
        self.refresh_records()
        self.ask(GetStats(LEADERS))

    def reconnected(self) -> None:
        if self.host.model.stats is None:
            self.run_worker(self.action_ask())

    def action_close(self) -> None:
        self.dismiss(None)

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        model = self.host.model
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

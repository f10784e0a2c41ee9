"""The leaderboard (``get_stats``): the best human players and the player's own line.

Asks when it opens and on r; draws only what the model holds
(:mod:`.records_base` says how answers reach it).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from maumau.protocol.messages import GetStats

from ..i18n import N_, _, ngettext
from ..widgets.action_bar import RoomAware, TapButton, TapOutsideCloses
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .records_base import CLOSE_KEYS, RecordsScreen

LEADERS = 20  # players on the leaderboard

# The columns, by key; their headers are translated when drawn (the table sizes each
# column to its header and cells, so a longer word makes its column wider).
COLUMNS = (
    ("rank", "#"),
    # NOTE: leaderboard column headers: keep them short (at 60 columns the six
    # headers and the widest name share 56 cells; about 9 a header).
    ("player", N_("player")),
    ("matches", N_("matches")),
    ("wins", N_("wins")),
    ("rounds_won", N_("rounds won")),
    ("average_score", N_("avg score")),
)


class LeaderboardScreen(RecordsScreen, RoomAware, TapOutsideCloses, AsciiAware, ModalScreen[None]):
    """The leaderboard (``get_stats``): rank, name, matches, wins, rounds won and
    average final score of the best human players, and the player's own line."""

    BINDINGS = [
        *CLOSE_KEYS,
        Binding("r", "ask", N_("refresh")),
        Binding("g", "game", N_("game")),
    ]

    GAMES: tuple[str | None, ...] = ("classic", "american", None)  # g goes round them

    def __init__(self) -> None:
        super().__init__()
        self.game: str | None = "classic"  # whose matches count: one game, or both (None)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="leaderboard"):
            yield Static(self._title(), classes="title", id="leaders-title")
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static("", id="leaders-you")
            # NOTE: the keys of the leaderboard: g shows the other game's (or both).
            yield Static(_("Esc or q closes, r refreshes, g: another game"), classes="hint")
            with Horizontal(classes="dialog-buttons close-buttons"):
                yield TapButton(_("close"), id="leaders-close", variant="primary", compact=True)
        yield KeyFooter()

    def _title(self) -> str:
        if self.game == "classic":
            game = _("Mau Mau")
        elif self.game == "american":
            game = _("American Mau-Mau")
        else:
            # NOTE: the leaderboard's title when it counts the matches of both games.
            game = _("both games")
        return _("Leaderboard: {game}").format(game=game)

    async def action_game(self) -> None:
        """The leaderboard of the next game (Mau Mau, American Mau-Mau, both)."""
        self.game = self.GAMES[(self.GAMES.index(self.game) + 1) % len(self.GAMES)]
        self.query_one("#leaders-title", Static).update(self._title())
        await self.action_ask()

    def on_mount(self) -> None:
        self.run_worker(self.action_ask())  # once mounted: the table is laid out first

    def _columns(self, table: DataTable[object]) -> None:
        """Give the table its columns, headed in the current language (again when
        the language changed or the screen was composed anew)."""
        headers = [_(title) if title != "#" else title for _key, title in COLUMNS]
        if [str(column.label) for column in table.columns.values()] == headers:
            return
        table.clear(columns=True)
        for (key, _title), header in zip(COLUMNS, headers, strict=True):
            table.add_column(header, key=key)

    async def action_ask(self) -> None:
        model = self.host.model
        model.stats = None
        model.records_errors.pop("get_stats", None)
        self.refresh_records()
        self.ask(GetStats(LEADERS, self.game))

    def reconnected(self) -> None:
        if self.host.model.stats is None:
            self.run_worker(self.action_ask())

    @on(Button.Pressed, "#leaders-close")
    def close_pressed(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        model = self.host.model
        table: DataTable[object] = self.query_one("#leaders", DataTable)
        line = self.query_one("#leaders-you", Static)
        self._columns(table)
        table.clear()
        problem = model.records_errors.get("get_stats")
        stats = model.stats
        if stats is not None and stats.variant != self.game:
            stats = None  # the answer for the game shown before: this one's is coming
        if problem:
            table.display = False
            line.update(Text(problem, style="bold"))
            return
        if stats is None:
            table.display = False
            line.update(_("Asking the server..."))
            return
        table.display = bool(stats.leaders)
        mine = None
        for rank, player in enumerate(stats.leaders, start=1):
            me = player["name"] == model.name
            if me:
                mine = rank - 1
            shown = _("{name} (you)").format(name=player["name"]) if me else player["name"]
            name = Text(shown, style="bold" if me else "")
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
            text.append(_("No finished matches with players yet.") + "\n")
        if you is None:
            text.append(_("You ({name}) have no finished match yet.").format(name=model.name))
        elif mine is not None:
            text.append(_("You ({name}) are number {rank}.").format(name=model.name, rank=mine + 1))
        else:
            matches, wins, rounds = you["matches"], you["wins"], you["rounds_won"]
            text.append(
                _("You ({name}): {matches}, {wins}, {rounds}, average score {average}").format(
                    name=you["name"],
                    matches=ngettext("{n} match", "{n} matches", matches).format(n=matches),
                    wins=ngettext("{n} win", "{n} wins", wins).format(n=wins),
                    rounds=ngettext("{n} round won", "{n} rounds won", rounds).format(n=rounds),
                    average=f"{you['average_score']:.1f}",
                )
            )
        line.update(text)

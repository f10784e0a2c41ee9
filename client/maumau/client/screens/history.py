"""The match history (``list_matches``): finished matches, newest first.

m shows only the player's own matches, or everybody's; Enter replays the match under
the cursor (the app opens the replay, :class:`~.messages.ReplayRequested`). Asks
when it opens; draws only what the model holds (:mod:`.records_base`).
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

from maumau.protocol.messages import ListMatches

from ..i18n import N_, _, ngettext, pgettext
from ..literal import literal
from ..render import game_name, when
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.ascii_aware import AsciiAware
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from ..widgets.pick_list import PickList
from .messages import ReplayRequested
from .records_base import CLOSE_KEYS, RecordsScreen

MATCHES = 50  # matches in the history
# The fixed columns' least widths: a finish time (2025-05-01 21:30), a table name as
# cut, a game's name, a round count; each grows to its header in the player's
# language. The players column gets the rest.
WHEN_WIDTH, TABLE_WIDTH, GAME_WIDTH, ROUNDS_WIDTH = 16, 12, 8, 6
CELL_PADDING = 2  # a DataTable pads each cell by one on either side
SCROLLBAR = 2  # room left for the table's scrollbar


class MatchList(PickList):
    """The history's matches: Enter replays the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", N_("replay"))]


class HistoryScreen(RecordsScreen, AsciiAware, Screen[None]):
    """Finished matches, newest first (``list_matches``); Enter replays one."""

    BINDINGS = [
        Binding("enter", "replay", N_("replay"), show=False),
        Binding("m", "mine", N_("mine/all")),
        Binding("r", "ask", N_("refresh")),
        *CLOSE_KEYS,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.mine = False
        self.players_width = 16

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="history-title", classes="title")
        yield MatchList(id="matches", cursor_type="row", zebra_stripes=True)
        yield Static("", id="match-detail")
        taps = ("replay", "mine", "ask", "close")
        yield ActionBar(described(self.BINDINGS, taps), id="history-actions")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.run_worker(self.action_ask())

    def _columns(self, table: DataTable[object]) -> None:
        """Give the table its columns, headed in the current language (again when the
        language changed or the screen was composed anew). Each fixed column is as
        wide as its header or its widest cell; in English they and their padding take
        52 of 80. The players get the rest, less room for a scrollbar."""
        headers = [
            # NOTE: history column headers: when the match ended, its table, its game,
            # how many rounds it had, and the players with their scores.
            pgettext("history column", "finished"),
            pgettext("history column", "table"),
            pgettext("history column", "game"),
            pgettext("history column", "rounds"),
            _("players ({mark} won)").format(mark=self._won_mark()),
        ]
        if [str(column.label) for column in table.columns.values()] == headers:
            return
        games = max(cell_len(game_name(variant)) for variant in ("classic", "american"))
        least = (WHEN_WIDTH, TABLE_WIDTH, max(GAME_WIDTH, games), ROUNDS_WIDTH)
        widths = [
            max(width, cell_len(header)) for width, header in zip(least, headers[:4], strict=True)
        ]
        used = sum(widths) + CELL_PADDING * (len(widths) + 1) + SCROLLBAR
        self.players_width = max(16, self.app.size.width - used)
        widths.append(self.players_width)
        table.clear(columns=True)
        for key, header, width in zip(
            ("when", "table", "game", "rounds", "p"), headers, widths, strict=True
        ):
            table.add_column(header, width=width, key=key)

    def _won_mark(self) -> str:
        return "*" if self.host.ascii_only else "✓"

    async def action_ask(self) -> None:
        model = self.host.model
        model.matches = None
        model.records_errors.pop("list_matches", None)
        self.refresh_records()
        self.ask(ListMatches(MATCHES, self.mine))

    def reconnected(self) -> None:
        if self.host.model.matches is None:
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
        matches = self.host.model.matches
        if matches is None or not matches.matches or not self.is_mounted:
            return None
        row = self.query_one("#matches", DataTable).cursor_row
        return matches.matches[row] if 0 <= row < len(matches.matches) else None

    def action_replay(self) -> None:
        summary = self._selected()
        if summary is not None:
            self.app.post_message(ReplayRequested(summary))

    @on(DataTable.RowSelected)
    def row_selected(self) -> None:
        self.action_replay()

    @on(DataTable.RowHighlighted)
    def row_highlighted(self) -> None:
        self._draw_detail()

    def on_resize(self) -> None:
        fit_room(self)
        self.query_one(ActionBar).sync()

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        fit_room(self)
        self.query_one(ActionBar).sync()
        host = self.host
        dot = "-" if host.ascii_only else "·"
        title = Text(" maumau  ", style="bold")
        whose = _("your matches") if self.mine else _("all players")
        heading = _("match history")
        title.append(f"{heading} {dot} {whose}")
        where = literal(host.server_label)
        title.append(" " * max(1, 79 - title.cell_len - where.cell_len))
        title.append_text(where)
        self.query_one("#history-title", Static).update(title)
        table: DataTable[object] = self.query_one("#matches", DataTable)
        self._columns(table)
        keep = table.cursor_row
        table.clear()
        matches = host.model.matches
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
            cut = "..." if self.host.ascii_only else "…"
            text.truncate(self.players_width - len(cut))
            text.append(cut)
        return text

    def _draw_detail(self) -> None:
        host = self.host
        detail = self.query_one("#match-detail", Static)
        problem = host.model.records_errors.get("list_matches")
        matches = host.model.matches
        if problem:
            detail.update(Text(f" {problem}", style="bold"))
            return
        if matches is None:
            detail.update(" " + _("Asking the server..."))
            return
        if not matches.matches:
            if self.mine:
                detail.update(" " + _("You have no finished match yet."))
            else:
                detail.update(" " + _("This server has no finished match yet."))
            return
        summary = self._selected()
        if summary is None:
            return
        dot = "-" if host.ascii_only else "·"
        rounds = summary["rounds"]
        facts = (
            _("Match {number}").format(number=summary["id"]),
            summary["table"],
            game_name(summary["variant"]),
            ngettext("{n} round", "{n} rounds", rounds).format(n=rounds),
            _("finished {when}").format(when=when(summary["finished"])),
        )
        text = Text(" " + f" {dot} ".join(facts) + "\n ", style="bold")
        scores = summary["scores"]
        for seat, (name, score) in enumerate(zip(summary["names"], scores, strict=False)):
            if seat:
                text.append(f" {dot} ")
            bot = seat < len(summary["bots"]) and summary["bots"][seat]
            won = seat == summary["winner"]
            shown = _("{name} (bot)").format(name=name) if bot else name
            text.append(shown, style="bold" if won else "")
            text.append(" " + (_("{score} (won)").format(score=score) if won else str(score)))
        text.append("\n " + _("Enter replays it: every hand revealed, step by step."), style="dim")
        detail.update(text)

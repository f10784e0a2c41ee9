"""The match history (``list_matches``): finished matches, newest first.

m shows only the player's own matches, or everybody's; Enter replays the match under
the cursor (the app opens the replay, :class:`~.messages.ReplayRequested`). Asks
when it opens; draws only what the model holds (:mod:`.records_base`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from maumau.protocol.messages import ListMatches

from ..literal import literal
from ..render import counted, game_name, when
from ..widgets.ascii_aware import AsciiAware
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from ..widgets.pick_list import PickList
from .messages import ReplayRequested
from .records_base import CLOSE_KEYS, RecordsScreen

MATCHES = 50  # matches in the history


class MatchList(PickList):
    """The history's matches: Enter replays the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", "replay")]


class HistoryScreen(RecordsScreen, AsciiAware, Screen[None]):
    """Finished matches, newest first (``list_matches``); Enter replays one."""

    BINDINGS = [
        Binding("enter", "replay", "replay", show=False),
        Binding("m", "mine", "mine/all"),
        Binding("r", "ask", "refresh"),
        *CLOSE_KEYS,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.mine = False

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="history-title", classes="title")
        yield MatchList(id="matches", cursor_type="row", zebra_stripes=True)
        yield Static("", id="match-detail")
        yield KeyFooter()

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

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        host = self.host
        dot = "-" if host.ascii_only else "·"
        title = Text(" maumau  ", style="bold")
        title.append(f"match history {dot} {'your matches' if self.mine else 'all players'}")
        where = literal(host.server_label)
        title.append(" " * max(1, 79 - len(title.plain) - len(where)))
        title.append_text(where)
        self.query_one("#history-title", Static).update(title)
        table = self.query_one("#matches", DataTable)
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
            detail.update(" Asking the server...")
            return
        if not matches.matches:
            who = "You have" if self.mine else "This server has"
            detail.update(f" {who} no finished match yet.")
            return
        summary = self._selected()
        if summary is None:
            return
        dot = "-" if host.ascii_only else "·"
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

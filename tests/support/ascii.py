"""The ASCII tests' screen sizes and readers of what a screen shows, used wherever a
test reads a screen as text."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.app import App
from textual.screen import Screen

from maumau.client import render
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.help import HelpScreen, rules_summary
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.password import PasswordScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import Message
from support.client_snapshots import (
    MATCHES,
    STATS,
    AnsweringApp,
    StillApp,
    american_replay,
    american_table,
    classic_replay,
    classic_table,
    lobby,
    round_over,
)

SIZES = [(80, 24), (60, 20)]


def screen_text(app: App[Any]) -> str:
    """Every character on the terminal now, the screens under a dialog included."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def result_text(messages: list[Message]) -> Any:
    app = StillApp(messages, TableScreen)
    for message in messages:
        app.model.apply(message)
    return render.round_result(app.model, ascii_only=True)


def over_table(messages: list[Message], dialog: Callable[[], Screen[Any]]) -> StillApp:
    """A dialog over the table screen."""

    class Over(StillApp):
        def start(self) -> None:
            super().start()
            self.push_screen(dialog())

    return Over(messages, TableScreen)


def over_lobby(dialog: Callable[[], Screen[Any]]) -> StillApp:
    """A dialog over the lobby."""

    class Over(StillApp):
        def start(self) -> None:
            super().start()
            self.push_screen(dialog())

    return Over(lobby(), LobbyScreen)


# Each case: the app to draw, and the keys to press before looking.
CASES: dict[str, tuple[Callable[[], App[Any]], list[str]]] = {
    "connect": (lambda: StillApp([], lambda: ConnectScreen("", "Ann", "Refused")), ["x"]),
    "lobby": (lambda: StillApp(lobby(), LobbyScreen), []),
    "lobby chat": (lambda: StillApp(lobby(), LobbyScreen), ["tab", "h", "i"]),
    "new table": (lambda: over_lobby(NewTableScreen), ["tab", "space", "tab", "tab"]),
    "new table rules": (
        lambda: over_lobby(NewTableScreen),
        ["tab", "tab", "tab", "tab", "tab", "tab", "space"],
    ),
    "password": (lambda: over_lobby(PasswordScreen), ["s", "e"]),
    "help": (lambda: over_lobby(HelpScreen), []),
    "help at a table": (
        lambda: over_table(classic_table(), lambda: HelpScreen(rules_summary({}))),
        ["end"],
    ),
    "classic table": (lambda: StillApp(classic_table(), TableScreen), []),
    "american table": (lambda: StillApp(american_table(), TableScreen), []),
    "table chat": (lambda: StillApp(classic_table(), TableScreen), ["tab", "h", "i"]),
    "suit picker": (
        lambda: over_table(classic_table(), lambda: SuitPicker("JD", list("SHDC"), True)),
        [],
    ),
    "leave?": (
        lambda: over_table(classic_table(), lambda: ConfirmScreen("Leave the table?")),
        [],
    ),
    "round result": (
        lambda: over_table(
            round_over(), lambda: ResultScreen(result_text(round_over()), match_over=False)
        ),
        [],
    ),
    "match result": (
        lambda: over_table(
            round_over(), lambda: ResultScreen(result_text(round_over()), match_over=True)
        ),
        [],
    ),
    "leaderboard": (lambda: AnsweringApp(LeaderboardScreen, stats=STATS), []),
    "history": (lambda: AnsweringApp(HistoryScreen, matches=MATCHES), ["down"]),
    "replay": (
        lambda: AnsweringApp(lambda: ReplayScreen(1, MATCHES.matches[0]), replay=classic_replay()),
        ["pagedown", "right"],
    ),
    "replay of ten": (lambda: AnsweringApp(lambda: ReplayScreen(2), replay=american_replay()), []),
}


def drawn_in_ascii(make: Callable[[], App[Any]], keys: list[str]) -> dict[str, str]:
    """The screen after ``keys``, drawn at each size (the terminal is resized in
    between, as a player would)."""
    app = make()
    app.ascii_only = True  # type: ignore[attr-defined]
    drawn: dict[str, str] = {}

    async def scenario() -> None:
        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            for width, height in SIZES:
                await pilot.resize_terminal(width, height)
                await pilot.pause(0.05)
                drawn[f"{width}x{height}"] = screen_text(app)

    asyncio.run(scenario())
    return drawn

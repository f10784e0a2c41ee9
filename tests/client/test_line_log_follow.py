"""The table's log keeps following new lines while a dialog covers it.

A log that is scrolled to its end follows each new line. Lines written while a dialog
(the help, a suit choice, the round's result) covers the table used to leave the log
short of its end once the dialog closed, and from then on it counted as "scrolled
back by the player" and stopped following for good: decision lines went unseen. A
player who scrolls back with the wheel still keeps their place.
"""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult
from textual.events import MouseScrollUp
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Static

from maumau.client.widgets.line_log import LineLog


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LineLog(id="log")


def at_end(log: LineLog) -> bool:
    return log.max_scroll_y > 0 and log.scroll_offset.y >= log.max_scroll_y


async def settled(pilot: Pilot[None]) -> None:
    """Let the log draw and scroll (a scroll to the end waits for a refresh)."""
    await pilot.pause()
    await pilot.pause()


async def written(pilot: Pilot[None], log: LineLog, *lines: str) -> None:
    for line in lines:
        log.write(Text(line))
    await settled(pilot)


def lines(n: int, what: str = "line") -> list[str]:
    return [f"{what} {i}" for i in range(n)]


def test_lines_written_under_a_dialog_are_followed_once_it_closes() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(60, 12)) as pilot:
            log = app.query_one(LineLog)
            await written(pilot, log, *lines(30))
            assert at_end(log)
            app.push_screen(Dialog())
            await pilot.pause()
            for line in lines(30, "under the dialog"):
                await written(pilot, log, line)
            app.pop_screen()
            await settled(pilot)
            assert at_end(log), (log.scroll_offset.y, log.max_scroll_y)
            await written(pilot, log, "after the dialog")
            assert at_end(log), (log.scroll_offset.y, log.max_scroll_y)

    asyncio.run(run())


def test_a_log_left_short_of_its_end_by_the_app_still_follows() -> None:
    """What a dialog could do: the log ends up above its end without the player
    scrolling. The next line still goes to the end."""

    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(60, 12)) as pilot:
            log = app.query_one(LineLog)
            await written(pilot, log, *lines(40))
            log.scroll_to(y=log.max_scroll_y - 5, animate=False)
            await pilot.pause()
            assert not at_end(log)
            await written(pilot, log, "the decision line")
            assert at_end(log), (log.scroll_offset.y, log.max_scroll_y)

    asyncio.run(run())


def test_a_player_who_scrolled_back_keeps_their_place() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(60, 12)) as pilot:
            log = app.query_one(LineLog)
            await written(pilot, log, *lines(40))
            for _ in range(3):  # the wheel, as a player scrolls back
                log.post_message(MouseScrollUp(log, 0, 0, 0, 0, 0, False, False, False))
            await pilot.pause()
            place = log.scroll_offset.y
            assert place < log.max_scroll_y
            await written(pilot, log, "a new line")
            assert log.scroll_offset.y == place

    asyncio.run(run())

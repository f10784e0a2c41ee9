"""The table screen's layout: pictures at 80x24 and at the minimum size, and checks
that the log wraps, the opponents keep their places and a small terminal is told so.

The pictures reuse the fixed messages of ``test_client_snapshots``; the long log
lines are the ones a player found cut at 80x24 (issue 13).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import GameEvent, Message, TableInfo, View
from maumau.protocol.sentences import event_line
from support.client_snapshots import SIZE, StillApp, american_table, classic_table

SMALL = (60, 20)

LONG_LINES: list[dict[str, Any]] = [  # the facts of long log lines
    {"kind": "round_dealt", "round": 1, "dealer": 1, "top": "9H", "first": 2, "returned": 1},
    {"kind": "reshuffled", "count": 87},
    {"kind": "challenge_decided", "challenger": 0, "target": 3, "upheld": False},
    {"kind": "card_played", "seat": 3, "card": "JD", "named": "S", "cards_left": 0},
]


def with_long_lines(messages: list[Message]) -> list[Message]:
    """The table's messages with the long log lines before its view."""
    *before, view = messages
    assert isinstance(view, View)
    events = [GameEvent.from_facts(view.table, 200 + i, f) for i, f in enumerate(LONG_LINES)]
    return [*before, *events, view]


def test_classic_table_long_log(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(classic_table()), TableScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_classic_table_long_log_small(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(classic_table()), TableScreen)
    assert snap_compare(app, terminal_size=SMALL)


def test_american_table_ten_seats_long_log(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(american_table()), TableScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_american_table_ten_seats_long_log_small(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(american_table()), TableScreen)
    assert snap_compare(app, terminal_size=SMALL)


def test_american_table_ten_seats_ascii(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(american_table()), TableScreen)
    app.ascii_only = True
    assert snap_compare(app, terminal_size=SIZE)


def test_classic_table_ascii_small(snap_compare: Any) -> None:
    app = StillApp(with_long_lines(classic_table()), TableScreen)
    app.ascii_only = True
    assert snap_compare(app, terminal_size=SMALL)


def test_too_small(snap_compare: Any) -> None:
    app = StillApp(classic_table(), TableScreen)
    assert snap_compare(app, terminal_size=(50, 15))


# --- behaviour ----------------------------------------------------------------------


def screen_text(app: StillApp) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def words_on_screen(app: StillApp) -> list[str]:
    return screen_text(app).replace("│", " ").replace("|", " ").split()


async def settled(pilot: Any, check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``check()`` holds (layout and scrolling settle after a few
    refreshes, later on a loaded machine); the assertions that follow say what is
    wrong if it never does."""
    deadline = time.monotonic() + timeout
    await pilot.pause(0.05)
    while not check() and time.monotonic() < deadline:
        await pilot.pause(0.05)


def test_long_log_lines_wrap_whole() -> None:
    # Every word of every long line is on screen, at both sizes: nothing is cut.
    messages = american_table()
    info = next(m for m in messages if isinstance(m, TableInfo))
    names = [seat["name"] for seat in info.seats]
    lines = [event_line(facts, names) or "" for facts in LONG_LINES[-2:]]
    assert all(len(line) > 40 for line in lines)  # long enough to wrap

    async def scenario(size: tuple[int, int]) -> None:
        app = StillApp(with_long_lines(messages), TableScreen)
        async with app.run_test(size=size) as pilot:
            wanted = [word for line in lines for word in line.split()]
            await settled(pilot, lambda: set(wanted) <= set(words_on_screen(app)))
            shown = words_on_screen(app)
            for line in lines:  # the last two fit the smallest log
                for word in line.split():
                    assert word in shown, (size, word, screen_text(app))

    asyncio.run(scenario(SIZE))
    asyncio.run(scenario(SMALL))


def test_ten_seats_all_visible() -> None:
    # Every opponent, with card count and points, the MAU! mark and the turn mark,
    # above the fold at 80x24 and at 60x20; the hand and the log are there too.
    async def scenario(size: tuple[int, int]) -> None:
        app = StillApp(american_table(), TableScreen)
        async with app.run_test(size=size) as pilot:
            await settled(
                pilot, lambda: "your hand" in screen_text(app) and "Nia" in screen_text(app)
            )
            text = screen_text(app)
            rows = text.splitlines()
            for name, cards, points in [("Eve", 3, 120), ("Finn", 1, 40), ("Ola", 7, 0)]:
                row = next(r for r in rows if f" {name} " in r)
                cell = row.split("│")[0] if row.index(name) < len(row) // 2 else row
                assert f" {cards} " in cell and f" {points}" in cell, (name, row)
            for name in ("Ivy", "Jon", "Kai (bot)", "Lea (bot)", "Max", "Nia"):
                assert name in text, (size, name, text)
            assert "MAU!" in text and "▶ Eve" in text
            assert "your hand" in text and "W+4" in text
            tops = [i for i, r in enumerate(rows) if r.startswith("╭")]
            assert len(tops) == 2, text  # the hand and the log
            log_rows = next(i for i, r in enumerate(rows) if i > tops[1] and r.startswith("╰"))
            assert log_rows - tops[1] - 1 >= 3, text  # three lines of log at the least

    asyncio.run(scenario(SIZE))
    asyncio.run(scenario(SMALL))


def opponents_order(app: StillApp) -> list[str]:
    text = str(app.screen.query_one("#opponents").content)  # type: ignore[attr-defined]
    names = ["Bob", "Cleo", "Dan", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia"]
    names += ["Ola"]
    found = [(text.index(n), n) for n in names if n in text]
    return [n for _, n in sorted(found)]


def test_opponents_keep_their_places_when_direction_changes() -> None:
    # A Reverse turns the arrows, not the seats: the order stays the seat order
    # starting after mine, in both layouts.
    async def scenario(messages: list[Message], first: list[str]) -> None:
        app = StillApp(messages, TableScreen)
        async with app.run_test(size=SIZE) as pilot:
            await settled(pilot, lambda: len(opponents_order(app)) >= len(first))
            before = opponents_order(app)
            text_before = str(app.screen.query_one("#opponents").content)  # type: ignore[attr-defined]
            view = app.model.view
            assert view is not None
            turned = dataclasses.replace(view, seq=view.seq + 1, direction=-view.direction)
            app.model.apply(turned)
            app.screen.refresh_model()  # type: ignore[attr-defined]
            await pilot.pause(0.1)
            after = opponents_order(app)
            text_after = str(app.screen.query_one("#opponents").content)  # type: ignore[attr-defined]
            assert before == after
            assert before[: len(first)] == first
            assert text_before != text_after  # the arrows turned

    asyncio.run(scenario(classic_table(), ["Bob", "Cleo", "Dan"]))
    # In columns, read downwards: Eve Finn Ivy Jon Kai | Lea Max Nia Ola.
    row_by_row = ["Eve", "Lea", "Finn", "Max", "Ivy", "Nia", "Jon", "Ola", "Kai"]
    asyncio.run(scenario(american_table(), row_by_row))


def test_too_small_says_so_and_keeps_keys_from_the_table() -> None:
    async def scenario() -> None:
        app = StillApp(classic_table(), TableScreen)
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)

        app.send = send  # type: ignore[method-assign]
        async with app.run_test(size=(59, 24)) as pilot:
            await settled(pilot, lambda: "make the window" in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert "make the window larger (needs 60x20, now 59x24)" in text
            assert "your hand" not in text
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert sent == []
            await pilot.resize_terminal(*SMALL)
            await settled(pilot, lambda: "your hand" in screen_text(app))
            text = screen_text(app)
            assert "make the window larger" not in text and "your hand" in text
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert [type(m).__name__ for m in sent] == ["PlayCard"]

    asyncio.run(scenario())

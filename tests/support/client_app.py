"""Running the real client against a real server: the app run in asyncio, a server
process, waiting until a condition holds, making a table and taking a turn, and a
proxy whose connection a test can cut."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.css.query import NoMatches

from maumau.client.app import MauMauApp
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.client.widgets.seat_plan import SeatPlan


def run_async(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(fn(*args, **kwargs), 120))

    return wrapper


@contextlib.contextmanager
def running_server(*extra: str) -> Iterator[int]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "maumau.server.cli",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--seed",
            "11",
            "--bot-delay",
            "0.05",
            *(
                ()
                if "--no-db" in extra
                else ("--db", str(Path(tempfile.mkdtemp(prefix="maumau-db-")) / "server.db"))
            ),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    port = 0
    deadline = time.monotonic() + 20
    while not port and time.monotonic() < deadline:
        found = re.search(r"listening on port (\d+)", process.stdout.readline())
        port = int(found.group(1)) if found else 0
    assert port
    try:
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()


def text_of(app: MauMauApp, selector: str) -> str:
    try:
        return str(app.screen.query_one(selector).content)
    except NoMatches:
        return ""


async def until(pilot: Any, condition: Callable[[], Any], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        await pilot.pause(0.02)


async def create_table(pilot: Any, app: MauMauApp, variant: str = "classic") -> None:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
    if variant == "american":
        app.screen.query_one("#t-variant").value = "american"
    app.screen.query_one(SeatPlan).choices[1] = "normal"  # three bots, no open seat
    app.screen.query_one("#t-window").value = "300"
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    await pilot.press("s")  # the creator starts the match
    await until(pilot, lambda: app.model.view is not None and app.model.view.hand)


async def take_turn(pilot: Any, app: MauMauApp, arm_mau: bool = False) -> str:
    """Play the first legal card by keys (naming the first suit), else draw/keep/take."""
    model = app.model
    screen = app.screen
    assert isinstance(screen, TableScreen)
    cards = model.hand()
    playable = [i for i, c in enumerate(cards) if c in model.playable()]
    if playable:
        index = playable[0]
        if arm_mau and len(cards) == 2:
            await pilot.press("m")
        await pilot.press(str(index + 1))
        await pilot.press("enter")
        if model.needs_name(cards[index]):
            await until(pilot, lambda: isinstance(app.screen, SuitPicker))
            await pilot.press("1")
        return "play"
    if model.legal("pass"):
        await pilot.press("k")
        return "keep"
    if model.view is not None and model.view.penalty:
        await pilot.press("t")
        return "take"
    await pilot.press("d")
    return "draw"


class CuttableProxy:
    """A TCP proxy on 127.0.0.1 whose connections the test can cut."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.writers: list[asyncio.StreamWriter] = []
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self.server = server

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers = []


@pytest.fixture(autouse=True)
def config_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

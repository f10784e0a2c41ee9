"""The Textual client against a real ``maumau-server`` subprocess, driven by keys.

Textual runs on asyncio, so these are plain tests that run their scenario with
``asyncio.run`` (pytest-trio would claim an ``async def`` test). Waiting is done by
polling the app's view model with a deadline, since ``pilot.pause()`` does not wait
for network data.
"""

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
from maumau.client.screens.result import ResultScreen
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


@pytest.fixture
def server() -> Iterator[int]:
    with running_server() as port:
        yield port


@pytest.fixture
def forgetful_server() -> Iterator[int]:
    with running_server("--bot-forgets", "1", "--bot-delay", "0.2") as port:
        yield port


@pytest.fixture(autouse=True)
def config_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


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


@run_async
async def test_connect_create_a_table_and_play_a_round_by_keys(server: int) -> None:
    app = MauMauApp("127.0.0.1", server, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await create_table(pilot, app)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert len(app.model.hand()) == 5
        moves: list[str] = []
        armed_plays = 0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            view = app.model.view
            if isinstance(app.screen, ResultScreen):
                break
            if view is not None and app.model.my_turn and isinstance(app.screen, TableScreen):
                seq = view.seq
                before = len(app.model.hand())
                moves.append(await take_turn(pilot, app, arm_mau=True))
                if moves[-1] == "play" and before == 2:
                    armed_plays += 1
                await until(
                    pilot,
                    lambda seq=seq: (
                        isinstance(app.screen, ResultScreen)
                        or (app.model.view is not None and app.model.view.seq > seq)
                    ),
                )
            elif app.model.owes_call():
                await pilot.press("m")
            await pilot.pause(0.02)
        assert isinstance(app.screen, ResultScreen), f"no round result after {moves}"
        assert moves
        await until(pilot, lambda: app.screen.query("Static"))  # composed
        result = app.screen.query_one("Static").content
        assert "goes out" in str(result)
        if armed_plays:
            assert any('saying "Mau"' in line for line in app.model.log)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))


@run_async
async def test_illegal_card_is_explained_and_not_sent(server: int) -> None:
    app = MauMauApp("127.0.0.1", server, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await create_table(pilot, app)
        await until(pilot, lambda: app.model.my_turn, timeout=30)
        cards = app.model.hand()
        blocked = [i for i, c in enumerate(cards) if c not in app.model.playable()]
        assert blocked, "the seeded deal should give Ann a card that does not fit"
        seq = app.model.view.seq
        await pilot.press(str(blocked[0] + 1))
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.model.view.seq == seq  # nothing was sent
        assert len(app.model.hand()) == len(cards)


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


@run_async
async def test_lost_connection_shows_a_banner_and_the_table_comes_back(server: int) -> None:
    proxy = CuttableProxy(server)
    await proxy.start()
    app = MauMauApp("127.0.0.1", proxy.port, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await create_table(pilot, app)
        hand_before = sorted(app.model.view.hand)
        table_id = app.model.table.id
        banner = app.screen.query_one("#banner")
        proxy.cut()
        await until(pilot, lambda: banner.display and "reconnecting" in str(banner.content))
        await until(pilot, lambda: not banner.display, timeout=20)
        await until(pilot, lambda: app.model.view is not None and app.model.table.id == table_id)
        assert isinstance(app.screen, TableScreen)
        view = app.model.view
        assert view.hand is not None and len(view.hand) >= 1
        assert app.model.table.you == 0
        assert sorted(view.hand) == hand_before or view.round >= 1
    proxy.server.close()


@run_async
async def test_refused_connection_is_a_message_not_a_crash(tmp_path: Any) -> None:
    app = MauMauApp("127.0.0.1", 9, "Ann")  # nothing listens on the discard port
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "cannot reach" in text_of(app, "#connect-message"), timeout=30)
        assert "cannot reach 127.0.0.1:9" in text_of(app, "#connect-message")


@run_async
async def test_leave_goes_back_to_the_lobby_after_confirmation(server: int) -> None:
    app = MauMauApp("127.0.0.1", server, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await create_table(pilot, app)
        await pilot.press("q")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("q")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.model.table is None


@run_async
async def test_catch_a_bot_that_forgot_to_say_mau(forgetful_server: int) -> None:
    app = MauMauApp("127.0.0.1", forgetful_server, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await create_table(pilot, app)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if any(line.startswith("Ann catches") for line in app.model.log):
                break
            if isinstance(app.screen, ResultScreen):
                await pilot.press("enter")
            elif app.model.catch_targets() and isinstance(app.screen, TableScreen):
                await pilot.press("c")
            elif app.model.my_turn and isinstance(app.screen, TableScreen):
                seq = app.model.view.seq
                await take_turn(pilot, app)
                await until(
                    pilot,
                    lambda seq=seq: (
                        isinstance(app.screen, ResultScreen) or app.model.view.seq > seq
                    ),
                )
            await pilot.pause(0.01)
        caught = [line for line in app.model.log if line.startswith("Ann catches")]
        assert caught, "Ann never caught a bot"
        assert "draws 2" in caught[0] and "without saying Mau" in caught[0]
        assert any("Ann caught" in line and "'s play" in line for line in app.model.log)

"""The Textual client against a real ``maumau-server`` subprocess, driven by keys.

Textual runs on asyncio, so these are plain tests that run their scenario with
``asyncio.run`` (pytest-trio would claim an ``async def`` test). Waiting is done by
polling the app's view model with a deadline, since ``pilot.pause()`` does not wait
for network data.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from maumau.client.app import MauMauApp
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from support.client_app import (
    CuttableProxy,
    config_home,  # noqa: F401 (an autouse fixture)
    create_table,
    run_async,
    running_server,
    take_turn,
    text_of,
    until,
)


@pytest.fixture
def server() -> Iterator[int]:
    with running_server() as port:
        yield port


@pytest.fixture
def forgetful_server() -> Iterator[int]:
    with running_server("--bot-forgets", "1", "--bot-delay", "0.2") as port:
        yield port


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

"""Secrets, bot levels, the leaderboard, the match history and replays in the client.

The first tests drive the screens by keys with answers from fixed data (see
``AnsweringApp``), so they can count exactly what the client asks for. The others run
the real client against a real ``maumau-server`` subprocess with a database.

To have finished matches quickly, :func:`finish_matches` makes tables that end at the
first round (``target_score`` 1): a protocol client creates each table with bots,
starts it and drops its connection; with ``reconnect_grace_s`` 0 a bot plays the
human seat at once, and the match is over in a second or two, with the human's result
recorded under its name.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maumau.client.app import MauMauApp
from maumau.client.net import ServerLink
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.replay import LoneReplayScreen, ReplayScreen
from maumau.client.widgets.seat_plan import SeatPlan
from maumau.protocol.messages import (
    CreateTable,
    GetReplay,
    ListMatches,
    Matches,
    Message,
    StartMatch,
    Welcome,
)
from support.client_app import run_async, running_server, text_of, until
from support.client_snapshots import AnsweringApp, StillApp, classic_replay, lobby


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


# --- the create-table dialog -----------------------------------------------------------


class DialogApp(StillApp):
    def __init__(self) -> None:
        super().__init__(lobby(), NewTableScreen)
        self.sent: list[Message] = []

    async def send(self, message: Message) -> None:
        self.sent.append(message)


def dialog(keys: list[str], seats: str | None = None, variant: str | None = None) -> DialogApp:
    app = DialogApp()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if variant is not None:
                app.screen.query_one("#t-variant").value = variant  # type: ignore[attr-defined]
            if seats is not None:
                app.screen.query_one("#t-seats").value = seats  # type: ignore[attr-defined]
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()

    asyncio.run(scenario())
    return app


def test_the_seat_plan_is_set_by_keys_and_sent_with_levels() -> None:
    # Tab to the plan (name, game, seats, plan); seat 2: Space makes "open" "easy";
    # seat 3: h, hard; seat 4: Up goes back from "normal" to "easy".
    keys = ["tab", "tab", "tab", "space", "right", "h", "right", "up", "ctrl+s"]
    app = dialog(keys)
    [create] = app.sent
    assert isinstance(create, CreateTable)
    assert create.settings["seats"] == 4
    assert create.bots == (1, 2, 3)
    assert create.levels == ("easy", "hard", "easy")


def test_the_default_plan_keeps_a_seat_open_and_two_normal_bots() -> None:
    [create] = dialog(["ctrl+s"]).sent
    assert isinstance(create, CreateTable)
    assert create.bots == (2, 3) and create.levels == ("normal", "normal")


def test_the_plan_follows_the_seat_count() -> None:
    [create] = dialog(["ctrl+s"], seats="2").sent
    assert isinstance(create, CreateTable)
    assert create.settings["seats"] == 2 and create.bots == () and create.levels == ()
    [create] = dialog(["ctrl+s"], seats="7", variant="american").sent
    assert isinstance(create, CreateTable)
    assert create.bots == (2, 3, 4, 5, 6) and create.levels == ("normal",) * 5


def test_a_seat_count_the_game_does_not_allow_is_refused_here() -> None:
    app = dialog(["ctrl+s"], seats="6")
    assert app.sent == []


def test_the_plan_shows_every_seat_and_the_picked_one() -> None:
    plan = SeatPlan()
    plan.seats = 3
    assert plan.bots() == ((2,), ("normal",))
    plan.action_move(1)
    plan.action_set("hard")
    plan.action_move(1)  # wraps to seat 2: seat 1 is the creator's
    assert plan.cursor == 1
    plan.action_cycle(-1)  # "open" goes back to "hard"
    assert plan.bots() == ((1, 2), ("hard", "hard"))


# --- the replay screen, by keys, with pages from fixed data ----------------------------


def replay_app() -> AnsweringApp:
    return AnsweringApp(lambda: ReplayScreen(1), replay=classic_replay(130, 45))


def asked(app: AnsweringApp) -> list[int]:
    return [m.start for m in app.sent if isinstance(m, GetReplay)]


def test_replay_steps_pages_and_jumps_fetching_only_what_it_shows() -> None:
    app = replay_app()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await until(pilot, lambda: 0 in app.model.replay.steps)  # type: ignore[union-attr]
            assert "step 1/130" in text_of(app, "#replay-title")
            await pilot.press("right", "right", "left")
            assert screen.n == 1
            await pilot.press("pagedown")
            assert screen.n == 11
            await pilot.press("end")
            await until(pilot, lambda: "step 130/130" in text_of(app, "#replay-title"))
            assert "Ann wins" in text_of(app, "#replay-table")
            await pilot.press("right")  # past the end: stays
            assert screen.n == 129
            await pilot.press("home")
            assert screen.n == 0
            assert asked(app) == [0, 100]  # the first page, then only the last one
            await pilot.press("pageup")
            assert screen.n == 0

    asyncio.run(scenario())


def test_n_and_p_go_to_round_starts_across_pages() -> None:
    app = replay_app()  # rounds start at steps 0, 45 and 90

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await until(pilot, lambda: 0 in app.model.replay.steps)  # type: ignore[union-attr]
            await pilot.press("n")
            await until(pilot, lambda: screen.n == 45)
            await pilot.press("n")  # needs the page from step 50 first
            await until(pilot, lambda: screen.n == 90)
            assert "round 3" in text_of(app, "#replay-title")
            await pilot.press("n")  # there is no later round
            await until(pilot, lambda: "last round" in text_of(app, "#replay-lines"))
            assert screen.n == 90
            await pilot.press("right", "p")  # from inside round 3: its start
            assert screen.n == 90
            await pilot.press("p")  # at a start: the round before
            assert screen.n == 45
            await pilot.press("q")
            assert not isinstance(app.screen, ReplayScreen)

    asyncio.run(scenario())


# --- against a real server ----------------------------------------------------------------


async def finish_matches(port: int, seats: list[int]) -> list[dict[str, Any]]:
    """One match per entry of ``seats`` (its seat count), each created by its own
    player, who leaves at once; returns the finished matches, newest first."""
    for i, count in enumerate(seats):
        name = f"Player{i + 1}"
        link = await ServerLink.open("127.0.0.1", port, name, None, f"secret-of-{name}-0123")
        got: list[Message] = []
        reader = asyncio.create_task(link.run(got.append))
        while not any(isinstance(m, Welcome) for m in got):
            await asyncio.sleep(0.01)
        settings = {
            "seats": count,
            "target_score": 1,
            "mau_window_ms": 100,
            "reconnect_grace_s": 0,
        }
        levels = ("hard", *["easy"] * (count - 2))
        await link.send(
            CreateTable(f"Quick {i + 1}", settings, tuple(range(1, count)), None, levels)
        )
        await link.send(StartMatch())
        await asyncio.sleep(0.05)
        link.close()  # no bye: the seat stays the player's, and a bot plays it
        reader.cancel()
    link = await ServerLink.open("127.0.0.1", port, "Watcher", None, "secret-of-the-watcher")
    got = []
    reader = asyncio.create_task(link.run(got.append))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        if any(isinstance(m, Welcome) for m in got):
            answers = [m for m in got if isinstance(m, Matches)]
            if answers and len(answers[-1].matches) == len(seats):
                break
            await link.send(ListMatches(100))
    link.close()
    reader.cancel()
    answers = [m for m in got if isinstance(m, Matches)]
    assert answers and len(answers[-1].matches) == len(seats), "the matches did not finish"
    return list(answers[-1].matches)


@pytest.fixture(scope="module")
def records_server() -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """A server with two finished matches: two seats and three seats."""
    with running_server("--bot-delay", "0.02") as port:
        matches = asyncio.run(finish_matches(port, [2, 3]))
        yield port, matches


async def lobby_of(pilot: Any, app: MauMauApp) -> None:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.model.lobby)


@run_async
async def test_leaderboard_from_the_lobby(records_server: tuple[int, Any]) -> None:
    port, _ = records_server
    app = MauMauApp("127.0.0.1", port, "Lea")
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_of(pilot, app)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await until(pilot, lambda: app.model.stats is not None)
        await pilot.pause()
        table = app.screen.query_one("#leaders")
        assert table.row_count == 2  # type: ignore[attr-defined]
        assert {p["name"] for p in app.model.stats.leaders} == {"Player1", "Player2"}
        assert "You (Lea) have no finished match yet" in text_of(app, "#leaders-you")
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


@run_async
async def test_history_then_a_replay_by_keys(records_server: tuple[int, Any]) -> None:
    port, matches = records_server
    app = MauMauApp("127.0.0.1", port, "Hal")
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_of(pilot, app)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.model.matches)
        await pilot.pause()
        newest = matches[0]  # the history lists it first
        detail = text_of(app, "#match-detail")
        assert f"Match {newest['id']}" in detail and "(won)" in detail
        winner = newest["names"][newest["winner"]]
        assert f"{newest['scores'][newest['winner']]} (won)" in detail
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await until(pilot, lambda: "step 1/" in text_of(app, "#replay-title"))
        assert "(bot)" in text_of(app, "#replay-hands")  # the history said who was a bot
        assert "Round 1" in text_of(app, "#replay-lines")
        await pilot.press("right")
        await until(pilot, lambda: "step 2/" in text_of(app, "#replay-title"))
        await pilot.press("end")
        await until(pilot, lambda: "the match is over" in text_of(app, "#replay-table"))
        assert f": {winner}" in text_of(app, "#replay-table")
        await pilot.press("q")
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("q")
        assert isinstance(app.screen, LobbyScreen)


class ExitSpy(MauMauApp):
    """Keeps the message the app leaves with."""

    exit_message: object = None

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        self.exit_message = message
        super().exit(result, return_code, message)


@run_async
async def test_replay_from_the_command_line_and_leaving_quits(
    records_server: tuple[int, Any],
) -> None:
    port, matches = records_server
    app = ExitSpy("127.0.0.1", port, "Rex", replay=matches[-1]["id"])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LoneReplayScreen))
        table = matches[-1]["table"]
        await until(pilot, lambda: table in text_of(app, "#replay-title"))
        await pilot.press("q")
        await until(pilot, lambda: app._exit)
    assert app.return_code == 0


@run_async
async def test_replay_of_an_unknown_match_exits_with_the_reason(
    records_server: tuple[int, Any],
) -> None:
    port, _ = records_server
    app = ExitSpy("127.0.0.1", port, "Rex", replay=999)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app._exit)
    assert app.return_code == 1
    assert "no match 999" in str(app.exit_message)


@run_async
async def test_a_reserved_name_is_refused_with_a_clear_message(
    records_server: tuple[int, Any], config_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port, _ = records_server
    first = MauMauApp("127.0.0.1", port, "Nia")
    async with first.run_test(size=(80, 24)) as pilot:
        await lobby_of(pilot, first)
        await first.action_quit()  # bye: the name is free again, but stays Nia's
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home.parent / "elsewhere"))
    other = MauMauApp("127.0.0.1", port, "Nia")  # another machine: another secret
    async with other.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(other.screen, ConnectScreen))
        await until(pilot, lambda: text_of(other, "#connect-message"))
        message = text_of(other, "#connect-message")
        assert message == "The name Nia belongs to another player; pick another."
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    again = MauMauApp("127.0.0.1", port, "Nia")  # the first machine again
    async with again.run_test(size=(80, 24)) as pilot:
        await lobby_of(pilot, again)
        assert again.model.name == "Nia"


@run_async
async def test_a_server_without_records_says_so() -> None:
    with running_server("--no-db") as port:
        app = MauMauApp("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await lobby_of(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "keeps no records" in text_of(app, "#match-detail"))
            await pilot.press("q", "l")
            await until(pilot, lambda: "keeps no records" in text_of(app, "#leaders-you"))


@run_async
async def test_bot_levels_reach_the_table_and_the_lobby(records_server: tuple[int, Any]) -> None:
    port, _ = records_server
    app = MauMauApp("127.0.0.1", port, "Lev")
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_of(pilot, app)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
        await pilot.press("tab", "tab", "tab", "right", "h", "right", "e", "ctrl+s")
        await until(pilot, lambda: app.model.table is not None)
        await pilot.pause(0.1)
        assert [s.get("level") for s in app.model.table.seats] == [None, None, "hard", "easy"]
        assert "Ada* (hard)" in text_of(app, "#opponents")
        assert "Bert* (easy)" in text_of(app, "#opponents")

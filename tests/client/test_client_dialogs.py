"""The dialogs by keys: the new-table dialog, the password box, help, chat and the
records screens, each in the real app (``run_test``), their footers read from the
screen as drawn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from maumau.client import config
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen, unique_name
from maumau.client.screens.password import PasswordScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import CreateTable, Lobby, Message
from support.ascii import screen_text
from support.client_snapshots import MATCHES, STATS, AnsweringApp, StillApp, classic_table, lobby


class Recording(StillApp):
    """A still app that records what it would send, with a screen over the lobby."""

    def __init__(self, messages: list[Message], screen: Callable[[], Screen[Any]]) -> None:
        super().__init__(messages, LobbyScreen)
        self.dialog = screen
        self.sent: list[Message] = []
        self.answers: list[Any] = []

    def start(self) -> None:
        super().start()
        self.push_screen(self.dialog(), self.answers.append)

    async def send(self, message: Message) -> None:
        self.sent.append(message)


def run(app: StillApp, keys: list[str], size: tuple[int, int] = (80, 24)) -> str:
    """Press ``keys`` and give the screen as drawn after them."""

    async def scenario() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause(0.05)
            return screen_text(app)

    return asyncio.run(scenario())


def footer(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


# --- the new-table dialog ---------------------------------------------------------------


def test_enter_in_the_name_field_creates_and_the_footer_says_so() -> None:
    app = Recording(lobby(), NewTableScreen)
    shown = run(app, [])
    assert "Enter create" in footer(shown) and "Esc cancel" in footer(shown)
    assert "join" not in footer(shown)  # the lobby's keys are not offered
    assert "Create" in shown and "Cancel" in shown
    run(app := Recording(lobby(), NewTableScreen), ["enter"])
    [create] = app.sent
    assert isinstance(create, CreateTable) and create.name == "Ann's table"


def test_enter_in_a_house_rule_or_the_seat_plan_creates_too() -> None:
    # name, game, seats, plan, target, password, first rule: Space turns it off.
    app = Recording(lobby(), NewTableScreen)
    run(app, ["tab"] * 6 + ["space", "enter"])
    [create] = app.sent
    assert isinstance(create, CreateTable) and create.settings["jack_on_jack"] is False
    app = Recording(lobby(), NewTableScreen)
    run(app, ["tab"] * 3 + ["enter"])
    assert len(app.sent) == 1


def test_esc_and_the_cancel_button_close_without_creating() -> None:
    app = Recording(lobby(), NewTableScreen)
    run(app, ["escape"])
    assert app.sent == [] and app.answers == [None]
    assert isinstance(app.screen_stack[-1], LobbyScreen) if app.is_running else True
    app = Recording(lobby(), NewTableScreen)

    async def click_cancel() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.click("#t-cancel")
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)

    asyncio.run(click_cancel())
    assert app.sent == []


def test_the_game_brings_its_own_seats_and_target_unless_typed() -> None:
    app = Recording(lobby(), NewTableScreen)
    run(app, ["tab", "space", "enter"])  # American Mau-Mau
    [create] = app.sent
    assert isinstance(create, CreateTable)
    assert create.settings["variant"] == "american"
    assert create.settings["seats"] == 6 and create.settings["target_score"] == 500
    # The next time, the dialog starts with that table's settings.
    app = Recording(lobby(), NewTableScreen)
    run(app, ["enter"])
    [again] = app.sent
    assert isinstance(again, CreateTable)
    assert again.settings == create.settings and again.bots == create.bots
    # A typed seat count stays when the game changes.
    config.path().unlink()  # from the defaults again (Mau Mau)
    app = Recording(lobby(), NewTableScreen)
    run(app, ["tab", "tab", "backspace", "3", "shift+tab", "space", "enter"])
    [create] = app.sent
    assert isinstance(create, CreateTable)
    assert create.settings["seats"] == 3 and create.settings["target_score"] == 500


def test_the_default_name_is_unique_in_the_lobby() -> None:
    assert unique_name("Ann", set()) == "Ann's table"
    assert unique_name("Ann", {"Ann's table", "Ann's table 2"}) == "Ann's table 3"
    long = "A" * 24
    assert len(unique_name(long, {f"{long}'s table"})) <= 32
    [welcome, summary] = lobby()
    assert isinstance(summary, Lobby)
    tables = (*summary.tables, {**summary.tables[0], "id": 9, "name": "Ann's table"})
    app = Recording([welcome, Lobby(tables, summary.online)], NewTableScreen)
    run(app, ["enter"])
    [create] = app.sent
    assert isinstance(create, CreateTable) and create.name == "Ann's table 2"


def test_house_rules_say_on_and_off_in_marks() -> None:
    shown = run(Recording(lobby(), NewTableScreen), ["tab"] * 6 + ["space"])
    assert "[ ] Jack on Jack" in shown and "[ ] 9 skips with 2" in shown
    shown = run(Recording(lobby(), NewTableScreen), [])
    assert "[x] Jack on Jack" in shown


def test_the_dialog_fits_the_minimum_size_with_ten_seats() -> None:
    keys = ["tab", "space", "tab", "backspace", "1", "0"]
    shown = run(Recording(lobby(), NewTableScreen), keys, size=(60, 20))
    for needed in ("Name", "10 normal", "Rules", "Lag compensation", "Clocks", "Create"):
        assert needed in shown, needed
    assert "Enter create" in footer(shown)


# --- the rules as written in the new-table dialog ---------------------------------------

LEGEND = "* departs from the rules as written"


def test_the_dialog_marks_the_defaults_that_depart_from_the_rules_as_written() -> None:
    shown = run(Recording(lobby(), NewTableScreen), [])
    assert LEGEND in shown  # on the title line
    assert "*[x] Jack on Jack" in shown and "*[x] Window minimum" in shown
    assert " [ ] 9 skips with 2" in shown and " [ ] Lag compensation" in shown
    assert "Target  150" in shown and "penalty  2" in shown and "false catch  0" in shown
    shown = run(Recording(lobby(), NewTableScreen), ["tab", "space"])  # American
    assert "*[x] Reverse skips w/ 2" in shown and " [ ] Draw 2 on Draw 2" in shown
    assert "*[x] Window minimum" in shown and "Target  500" in shown


def test_the_marks_follow_every_change() -> None:
    # name, game, seats, plan, target: 200 points and a penalty of 3 depart; the
    # first house rule (Jack on Jack) switched off no longer does.
    keys = ["tab"] * 4 + ["backspace"] * 3 + ["2", "0", "0"]
    keys += ["tab", "tab", "space"]
    shown = run(app := Recording(lobby(), NewTableScreen), keys)
    assert "Target *200" in shown
    assert " [ ] Jack on Jack" in shown and "*[x] Window minimum" in shown
    assert app.sent == []


def test_as_written_sets_every_rule_to_the_seeds_reading() -> None:
    # The last table was American with every house rule on and its own numbers.
    config.save(
        {
            "new_table": {
                "settings": {
                    "variant": "american",
                    "seats": 5,
                    "target_score": 300,
                    "mau_penalty": 4,
                    "false_catch_penalty": 1,
                    "stack_draw_two": True,
                    "wild_draw_four_challenge": True,
                    "lag_compensation": True,
                    "turn_timeout_s": 20,
                },
            }
        }
    )
    before = run(Recording(lobby(), NewTableScreen), [])
    for marked in ("Target *300", "penalty *4", "false catch *1", "*[x] Draw 2 on Draw 2"):
        assert marked in before, marked
    app = Recording(lobby(), NewTableScreen)
    shown = run(app, ["ctrl+r"])
    assert "*[" not in shown and "Target  500" in shown and "penalty  2" in shown
    assert "^R as written" in footer(shown)
    app = Recording(lobby(), NewTableScreen)
    run(app, ["ctrl+r", "enter"])
    [create] = app.sent
    assert isinstance(create, CreateTable)
    assert create.settings == {
        "variant": "american",
        "seats": 5,  # the seats and the clocks are not rules: they stay
        "target_score": 500,
        "reverse_skips_with_two": False,
        "stack_draw_two": False,
        "wild_draw_four_challenge": False,
        "mau_window_minimum": False,
        "lag_compensation": False,
        "mau_penalty": 2,
        "false_catch_penalty": 0,
        "mau_window_ms": 1500,
        "turn_timeout_s": 20,
        "reconnect_grace_s": 60,
    }


def test_the_as_written_button_and_the_marks_in_ascii_at_the_minimum_size() -> None:
    app = Recording(lobby(), NewTableScreen)
    app.ascii_only = True

    async def scenario() -> tuple[str, str]:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            before = screen_text(app)
            await pilot.click("#t-as-written")
            await pilot.pause(0.05)
            return before, screen_text(app)

    before, after = asyncio.run(scenario())
    assert before.isascii() and after.isascii()
    assert LEGEND in before and "*[x] Jack on Jack" in before
    assert " [ ] Jack on Jack" in after and " [ ] Window minimum" in after
    assert "*" not in after.replace(LEGEND, "")


# --- the password box -------------------------------------------------------------------


def test_the_password_box_says_what_enter_does() -> None:
    shown = run(Recording(lobby(), lambda: PasswordScreen(watch=True)), [])
    assert "Enter watch" in footer(shown) and "Enter watches" in shown and "join" not in shown
    shown = run(Recording(lobby(), PasswordScreen), [])
    assert "Enter join" in footer(shown) and "Enter joins" in shown


def test_an_empty_password_is_refused_here() -> None:
    app = Recording(lobby(), PasswordScreen)
    shown = run(app, ["enter"])
    assert app.answers == [] and "password first" in shown
    app = Recording(lobby(), PasswordScreen)
    run(app, ["p", "w", "enter"])
    assert app.answers == ["pw"]


# --- help, chat and the records: Esc in the footer ---------------------------------------


def test_help_and_chat_show_esc() -> None:
    assert "Esc close" in footer(run(Recording(lobby(), HelpScreen), []))
    assert "Esc close chat" in footer(run(StillApp(lobby(), LobbyScreen), ["tab"]))
    assert "Esc close chat" in footer(run(StillApp(classic_table(), TableScreen), ["tab"]))


def test_the_leaderboard_and_the_history_close_alike() -> None:
    for screen in (
        lambda: AnsweringApp(LeaderboardScreen, stats=STATS),
        lambda: AnsweringApp(HistoryScreen, matches=MATCHES),
    ):
        assert "Esc/q close" in footer(run(screen(), []))
        for key in ("escape", "q"):
            app = screen()

            async def scenario(app: AnsweringApp = app, key: str = key) -> None:
                async with app.run_test(size=(80, 24)) as pilot:
                    await pilot.pause()
                    records = app.screen
                    await pilot.press(key)
                    await pilot.pause()
                    assert app.screen is not records

            asyncio.run(scenario())

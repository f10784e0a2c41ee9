"""Playing by click and tap: every screen by the mouse alone.

The hand picks a card at the first click and plays it at the second (as Enter); the
footer's keys run their actions when clicked (a pair such as ``←→`` by the half
clicked); a screen as tall as a phone's page in the browser (60x64) shows buttons for
the keys that mean something now, and an 80x24 screen shows none (its layout and
snapshots are as they were). The dialogs, the lobby, the tournament screen, the
result and the replay are driven by clicks too, and a whole round is played by clicks
alone against a real server with bots, at both sizes.

Plain tests that run their scenario with ``asyncio.run`` (see STACK.md).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Input, OptionList, Static

from maumau.client import i18n, render
from maumau.client.app import MauMauApp
from maumau.client.connection import ServerMessage
from maumau.client.model_moves import label
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import GameChoice, NewTableScreen
from maumau.client.screens.password import PasswordScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TAP_ACTIONS, TableScreen
from maumau.client.screens.table_keys import key_means_something
from maumau.client.screens.tournament import TournamentScreen
from maumau.client.widgets.action_bar import ROOMY_ROWS, ActionBar, TapButton
from maumau.client.widgets.hand import Hand
from maumau.client.widgets.key_footer import PairKey
from maumau.client.widgets.seat_plan import SeatPlan
from maumau.protocol.discovery import Found
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CreateTable,
    DrawCard,
    JoinTable,
    JoinTournament,
    LeaveTable,
    PlayCard,
    Ready,
    Rematch,
    WatchTable,
)
from support.ascii import CASES as ASCII_CASES
from support.ascii import screen_text as ascii_screen_text
from support.client_app import running_server
from support.client_clicks import (
    AMERICAN_MANY,
    CLASSIC_ALL,
    DESKTOP,
    DIALOG_BUTTONS,
    PENALTY_TURN,
    PHONE,
    PHONE_412,
    SMALL,
    TALL_ASCII,
    WELCOME_,
    button,
    click,
    click_card,
    click_footer,
    finished,
    footer_key,
    long_lobby,
    model_with_hand,
    outside,
    play_a_turn,
    press,
    region_height,
    round_over_table,
    run,
    sent_of,
    shown_buttons,
    tap,
    tap_outside,
    until,
)
from support.client_keys import JACK_TURN, RecordingApp, position
from support.client_snapshots import MATCHES, AnsweringApp, classic_replay, lobby
from support.client_tournament import Answering
from support.client_tournament_data import registering, tournament
from support.snapshots_results import Recording, american_rounds, classic_match_over


@pytest.fixture(autouse=True)
def config_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
def test_the_hand_layout_is_where_every_card_is_drawn(ascii_only: bool) -> None:
    for cards in (CLASSIC_ALL[:3], CLASSIC_ALL[:9], CLASSIC_ALL, AMERICAN_MANY):
        model = model_with_hand(cards).model
        for width in (78, 58, 40, 24):
            for boxes in (True, False):
                places = render.hand_layout(model, ascii_only, width, boxes)
                text = render.hand(model, 0, ascii_only, None, width, None, boxes).plain
                lines = text.split("\n")
                assert len(places) == len(cards)
                for code, place in zip(model.hand(), places, strict=True):
                    face = label(code, ascii_only)
                    if place.lines == 1:  # [face] in its cells
                        drawn = lines[place.line][place.start : place.end]
                        assert f"[{face}]" in drawn, (width, boxes, code, drawn)
                    else:  # the box's middle line
                        drawn = lines[place.line + 1][place.start : place.end]
                        assert face[:5] in drawn, (width, boxes, code, drawn)
                for before, after in itertools.pairwise(places):
                    assert (before.line, before.end) <= (after.line, after.start)
                if not boxes or len(cards) > width // 8:
                    # lines of cards wrap between cards, never past the width
                    assert all(cell_len(line) <= width for line in lines[:-1]), lines
                    if 1 + sum(p.end - p.start for p in places) > width:
                        assert len({p.line for p in places}) > 1


def test_a_click_picks_a_card_and_a_second_click_plays_it() -> None:
    app = RecordingApp(position(**JACK_TURN))  # sorted hand: 7S JD KC; JD and KC fit

    async def scenario() -> None:
        async with app.run_test(size=DESKTOP) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await click_card(pilot, app, 2)
            assert screen.cursor == 2 and app.sent == []
            await click_card(pilot, app, 2)
            assert app.sent == [PlayCard("KC", None, None)]
            # The picked card that does not fit: said why under the hand, not sent.
            await click_card(pilot, app, 0)
            assert screen.cursor == 0
            await click_card(pilot, app, 0)
            assert screen.problem is not None and "does not fit" in screen.problem
            assert app.sent == [PlayCard("KC", None, None)]
            # The Jack asks for the suit: a click on hearts picks it, a second names it.
            await click_card(pilot, app, 1)
            await click_card(pilot, app, 1)
            picker = app.screen
            assert isinstance(picker, SuitPicker)
            suits = picker.query_one("#suits")
            first = suits.content_region.height - 1 - 4  # the suits are the last lines
            await click(pilot, suits, (5, first + 1))
            assert picker.cursor == 1 and app.screen is picker
            await click(pilot, suits, (5, first + 1))
            assert app.sent[-1] == PlayCard("JD", "H", None)
            assert isinstance(app.screen, TableScreen)

    run(scenario)


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize("size", [DESKTOP, (60, 20), PHONE, (140, 45)], ids=str)
def test_every_card_of_a_long_hand_is_picked_where_it_is_drawn(
    size: tuple[int, int], ascii_only: bool
) -> None:
    for cards in (CLASSIC_ALL[:6], CLASSIC_ALL[:14], AMERICAN_MANY):
        app = RecordingApp(position(hand=tuple(cards), hand_counts=(len(cards), 4, 1, 6)))
        app.ascii_only = ascii_only

        async def scenario(app: RecordingApp = app, count: int = len(cards)) -> None:
            async with app.run_test(size=size) as pilot:
                screen = app.screen
                assert isinstance(screen, TableScreen)
                await pilot.pause()
                for index in [*range(count - 1, -1, -1), count // 2]:
                    await click_card(pilot, app, index)
                    assert screen.cursor == index, (size, count, index)
                assert app.sent == []  # a new card each time: picked, never played

        run(scenario)


def test_the_footer_keys_run_their_actions_when_clicked() -> None:
    app = RecordingApp(position(**JACK_TURN))

    async def scenario() -> None:
        async with app.run_test(size=DESKTOP) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert shown_buttons(app) == []  # no room for buttons: the layout is as before
            assert not screen.query_one(ActionBar).display
            assert isinstance(footer_key(app, "cursor(-1)"), PairKey)
            await click_footer(pilot, app, "cursor(-1)", half=2)  # the → of ←→
            assert screen.cursor == 1
            await click_footer(pilot, app, "cursor(-1)", half=2)
            await click_footer(pilot, app, "cursor(-1)", half=1)  # the ←
            assert screen.cursor == 1
            await click_footer(pilot, app, "play")  # JD: the suit picker
            assert isinstance(app.screen, SuitPicker)
            await click(pilot, app.screen.query_one("#suit-cancel"))
            assert isinstance(app.screen, TableScreen) and app.sent == []
            await click_footer(pilot, app, "draw")
            assert app.sent == [DrawCard()]
            await click_footer(pilot, app, "help")
            assert type(app.screen).__name__ == "HelpScreen"
            await click_footer(pilot, app, "close")
            assert app.screen is screen

    run(scenario)


def test_a_tall_screen_has_buttons_for_the_moves_that_mean_something_now() -> None:
    app = RecordingApp(position(**JACK_TURN))

    async def scenario() -> None:
        async with app.run_test(size=PHONE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.has_class("roomy")
            await pilot.pause()
            meant = [a for a in TAP_ACTIONS if key_means_something(app.model, a)]
            assert shown_buttons(app) == meant == ["play", "draw", "help", "leave"]
            for action in meant:  # finger-sized, in sight, above the log
                widget = button(app, action)
                assert widget.region.height == 3 and widget.region.y < 64 - 10
                assert not widget.can_focus
            await tap(pilot, app, "draw")
            assert app.sent == [DrawCard()]
            await click_card(pilot, app, 2)
            await tap(pilot, app, "play")
            assert app.sent[-1] == PlayCard("KC", None, None)
            assert app.focused is None  # the keys stay the table's
            # The leave question, answered by its buttons.
            await tap(pilot, app, "leave")
            assert isinstance(app.screen, ConfirmScreen)
            await click(pilot, app.screen.query_one("#confirm-no"))
            assert app.screen is screen and not sent_of(app, LeaveTable)
            await tap(pilot, app, "leave")
            await click(pilot, app.screen.query_one("#confirm-yes"))
            assert sent_of(app, LeaveTable)

    run(scenario)


def test_the_buttons_follow_the_position_and_wrap_in_sixty_columns() -> None:
    # Two cards, a catch to make, a Jack: Mau, Mau Mau and catch are meant too.
    changes = dict(
        JACK_TURN,
        hand=("JD", "KC"),
        hand_counts=(2, 4, 1, 6),
        legal=(
            {"kind": "play", "card": "KC"},
            *({"kind": "play", "card": "JD", "named": s} for s in "SHDC"),
            {"kind": "draw"},
        ),
    )
    app = RecordingApp(position(**changes))

    async def scenario() -> None:
        async with app.run_test(size=PHONE) as pilot:
            await pilot.pause()
            shown = shown_buttons(app)
            assert {"play", "draw", "mau", "maumau", "help", "leave"} <= set(shown)
            bar = app.screen.query_one(ActionBar)
            assert bar.region.height == 6  # two rows of three-row buttons
            assert max(button(app, a).region.right for a in shown) <= 60
            await tap(pilot, app, "mau")  # armed for the next play
            assert app.screen.armed == "mau"  # type: ignore[attr-defined]
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: not app.screen.has_class("roomy"))
            assert shown_buttons(app) == []
            await pilot.resize_terminal(60, ROOMY_ROWS)
            await until(pilot, lambda: app.screen.has_class("roomy"))
            assert shown_buttons(app) == shown

    run(scenario)


@pytest.mark.parametrize("case", TALL_ASCII)
def test_the_buttons_are_drawn_in_ascii_too(case: str) -> None:
    make, keys = ASCII_CASES[case]
    app = make()
    app.ascii_only = True  # type: ignore[attr-defined]

    async def scenario() -> None:
        async with app.run_test(size=PHONE) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            for width, height in (PHONE, (140, 45)):
                await pilot.resize_terminal(width, height)
                await pilot.pause(0.05)
                text = ascii_screen_text(app)
                strange = sorted({c for c in text if not c.isascii()})
                assert not strange, f"{case} at {width}x{height}: {strange!r}\n{text}"
            if case not in ("suit picker", "leave?"):
                assert "+---" in text and any(b.region for b in app.screen.query(TapButton))

    run(scenario)


def test_the_result_is_answered_by_clicks() -> None:
    async def phone_ready() -> None:
        app = Recording(american_rounds(6, "round_over"))
        async with app.run_test(size=PHONE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
            assert shown_buttons(app) == ["ready"]
            await tap(pilot, app, "ready")
            await until(pilot, lambda: sent_of(app, Ready))
            assert isinstance(app.screen, TableScreen)

    async def phone_rematch() -> None:
        app = Recording(classic_match_over())
        async with app.run_test(size=PHONE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
            assert shown_buttons(app) == ["rematch", "close", "leave"]
            await tap(pilot, app, "rematch")
            await until(pilot, lambda: sent_of(app, Rematch))

    async def desktop() -> None:
        app = Recording(classic_match_over())
        async with app.run_test(size=DESKTOP) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
            assert shown_buttons(app) == []
            await click_footer(pilot, app, "leave")
            await until(pilot, lambda: sent_of(app, LeaveTable))

    run(phone_ready)
    run(phone_rematch)
    run(desktop)


def test_the_lobby_joins_by_clicks() -> None:
    async def rows() -> None:
        app = Answering(lobby())
        async with app.run_test(size=DESKTOP) as pilot:
            await pilot.pause()
            tables = app.screen.query_one("#tables")
            await click(pilot, tables, (3, 2))  # the second table: picked
            assert tables.cursor_row == 1 and app.sent == []  # type: ignore[attr-defined]
            await click(pilot, tables, (30, 2))  # again, elsewhere in its row: joined
            assert sent_of(app, JoinTable) == [JoinTable(2, None, None)]
            await click_footer(pilot, app, "watch")
            assert app.sent[-1] == WatchTable(2, None)
            await click_footer(pilot, app, "new_table")
            assert isinstance(app.screen, NewTableScreen)
            await click(pilot, app.screen.query_one("#t-cancel"))
            assert isinstance(app.screen, LobbyScreen)

    async def buttons() -> None:
        app = Answering(lobby())
        async with app.run_test(size=PHONE) as pilot:
            await pilot.pause()
            shown = shown_buttons(app)
            assert {"join", "watch", "new_table", "app.history"} <= set(shown)
            await tap(pilot, app, "join")
            assert app.sent == [JoinTable(1, None, None)]
            await tap(pilot, app, "new_table")
            assert isinstance(app.screen, NewTableScreen)

    run(rows)
    run(buttons)


def test_the_new_table_dialog_and_the_password_by_clicks() -> None:
    async def new_table() -> None:
        app = Answering(lobby())
        async with app.run_test(size=DESKTOP) as pilot:
            await pilot.pause()
            await click_footer(pilot, app, "new_table")
            dialog = app.screen
            assert isinstance(dialog, NewTableScreen)
            game = dialog.query_one(GameChoice)
            await click(pilot, game)
            assert game.value == "american"
            plan = dialog.query_one(SeatPlan)
            cell = SeatPlan.CELL
            await click(pilot, plan, (2 * cell + 3, 1))  # seat 3: picked
            assert plan.cursor == 2 and plan.choices[2] == "normal"
            await pilot.pause()
            await click(pilot, plan, (2 * cell + 5, 1))  # again: changed
            assert plan.choices[2] == "hard"
            await click(pilot, plan, (3, 1))  # seat 1 is the creator's own
            assert plan.cursor == 2 and plan.choices[0] == "you"
            await click(pilot, dialog.query_one("#t-create"))
            await until(pilot, lambda: sent_of(app, CreateTable))
            made = sent_of(app, CreateTable)[0]
            assert isinstance(made, CreateTable) and made.settings["variant"] == "american"
            assert made.levels is not None and made.levels[list(made.bots).index(2)] == "hard"

    async def password() -> None:
        app = Answering(lobby())
        async with app.run_test(size=DESKTOP) as pilot:
            await pilot.pause()
            tables = app.screen.query_one("#tables")
            await click(pilot, tables, (3, 3))  # the locked table: picked
            await click(pilot, tables, (3, 3))  # joined: its password first
            assert isinstance(app.screen, PasswordScreen)
            await pilot.press(*"sesame")
            await click_footer(pilot, app, "submit")  # the footer's "Enter join"
            assert app.sent == [JoinTable(3, None, "sesame")]
            assert isinstance(app.screen, LobbyScreen)

    run(new_table)
    run(password)


def test_the_tournament_screen_by_clicks() -> None:
    async def phone() -> None:
        app = Answering([WELCOME_, registering()], TournamentScreen, answer=registering(you=1))
        async with app.run_test(size=PHONE) as pilot:
            await pilot.pause()
            assert "register" in shown_buttons(app) and "go" not in shown_buttons(app)
            await tap(pilot, app, "register")
            assert app.sent == [JoinTournament(7, None)]
            await until(pilot, lambda: "unregister" in shown_buttons(app))

    async def desktop() -> None:
        app = Answering([WELCOME_, tournament()], TournamentScreen)
        async with app.run_test(size=DESKTOP) as pilot:
            await pilot.pause()
            series = app.screen.query_one("#series-tables")
            row = series.cursor_row  # type: ignore[attr-defined]
            above = 1 + 1 + row - 1  # under its top border and its header
            await click(pilot, series, (3, above))  # the row above the player's: picked
            assert series.cursor_row == row - 1 and app.sent == []  # type: ignore[attr-defined]
            await click(pilot, series, (12, above))
            assert app.sent == [WatchTable(11, None)]
            await click_footer(pilot, app, "withdraw")
            assert isinstance(app.screen, ConfirmScreen)
            await click(pilot, app.screen.query_one("#confirm-no"))
            assert isinstance(app.screen, TournamentScreen)

    run(phone)
    run(desktop)


def test_the_replay_steps_by_clicks() -> None:
    async def phone() -> None:
        app = AnsweringApp(lambda: ReplayScreen(1), replay=classic_replay(130, 45))
        async with app.run_test(size=PHONE) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await until(pilot, lambda: 0 in app.model.replay.steps)  # type: ignore[union-attr]
            await pilot.pause()
            for action, n in (
                ("step(1)", 1),
                ("step(1)", 2),
                ("step(-1)", 1),
                ("last", 129),
                ("first", 0),
                ("round(1)", 45),
                ("round(-1)", 0),
            ):
                await tap(pilot, app, action)
                await until(pilot, lambda n=n: screen.n == n, 3)

    async def desktop() -> None:
        app = AnsweringApp(lambda: ReplayScreen(1), replay=classic_replay(130, 45))
        async with app.run_test(size=DESKTOP) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await until(pilot, lambda: 0 in app.model.replay.steps)  # type: ignore[union-attr]
            assert shown_buttons(app) == []
            for action, half, n in (
                ("step(1)", 2, 1),  # the → of ←→
                ("step(1)", 2, 2),
                ("step(1)", 1, 1),  # the ←
                ("step(10)", 2, 11),  # PgDn of PgUp/PgDn
                ("step(10)", 1, 1),  # PgUp
                ("last", 0, 129),
                ("first", 0, 0),
                ("round(1)", 1, 45),  # n of n/p
                ("round(1)", 2, 0),  # p
            ):
                await click_footer(pilot, app, action, half)
                await until(pilot, lambda n=n: screen.n == n, 3)

    run(phone)
    run(desktop)


def test_the_history_opens_a_replay_by_clicks() -> None:
    app = AnsweringApp(HistoryScreen, matches=MATCHES, replay=classic_replay(130, 45))

    async def scenario() -> None:
        async with app.run_test(size=DESKTOP) as pilot:
            await until(pilot, lambda: app.model.matches is not None)
            await pilot.pause()
            matches = app.screen.query_one("#matches")
            await click(pilot, matches, (3, 2))  # the second match: picked
            assert isinstance(app.screen, HistoryScreen)
            assert matches.cursor_row == 1  # type: ignore[attr-defined]
            await click(pilot, matches, (20, 2))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            await click_footer(pilot, app, "back")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await click_footer(pilot, app, "close")
            assert not isinstance(app.screen, HistoryScreen)

    run(scenario)


@pytest.fixture
def server() -> Iterator[int]:
    with running_server() as port:
        yield port


def test_the_connect_screen_connects_by_its_button(server: int) -> None:
    app = MauMauApp(None, None, "")  # no address: the connect screen asks

    async def scenario() -> None:
        async with app.run_test(size=DESKTOP) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{server}"
            go = app.screen.query_one("#connect-go")
            await click(pilot, go)  # no name yet: said so, not connected
            assert "Type a name" in str(app.screen.query_one("#connect-message").render())
            app.screen.query_one("#name", Input).value = "Zed"
            await click(pilot, go)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

    run(scenario)


def test_the_connect_screen_lists_the_servers_found_and_a_tap_connects(server: int) -> None:
    """The servers announced on the LAN (fed to the screen as its browser would) are
    listed as they call themselves, literally; a tap on one connects to it."""
    app = MauMauApp(None, None, "Zed")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
            screen = app.screen
            assert isinstance(screen, ConnectScreen)
            listed = screen.query_one("#servers", OptionList)
            assert not listed.display  # nothing found yet: no list
            screen.found(
                [
                    Found("Party [b]room[/b]", "127.0.0.1", server, PROTOCOL_VERSION, 3, None),
                    Found("Old box", "127.0.0.1", 9, 7, 0, None),
                ]
            )
            await pilot.pause()
            assert listed.display and listed.option_count == 2
            first = str(listed.get_option_at_index(0).prompt)
            assert first == f"Party [b]room[/b]  127.0.0.1:{server}  3 online"
            assert "protocol 7" in str(listed.get_option_at_index(1).prompt)
            assert listed.highlighted == 0  # Enter on the list takes the first
            hint = str(screen.query_one("#connect-hint", Static).render())
            assert "Shift+Tab picks a server found" in hint
            await click(pilot, listed, (3, 1))  # (row 0 is its border)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert (app.connection.host, app.connection.port) == ("127.0.0.1", server)

    run(scenario)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_whole_round_by_clicks_against_bots(server: int, size: tuple[int, int]) -> None:
    app = MauMauApp("127.0.0.1", server, "Ann")

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause()
            await press(pilot, app, "new_table")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await click(pilot, app.screen.query_one("#t-create"))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await until(pilot, lambda: key_means_something(app.model, "start"))
            await press(pilot, app, "start")  # bots take the free seats
            await until(pilot, lambda: app.model.view is not None and app.model.view.hand)
            moves: list[str] = []
            deadline = time.monotonic() + 100
            while not isinstance(app.screen, ResultScreen):
                assert time.monotonic() < deadline, f"no round result after {moves}"
                view = app.model.view
                if isinstance(app.screen, TableScreen) and view is not None:
                    if app.model.my_turn and view.phase == "playing":
                        seq = view.seq
                        moves.append(await play_a_turn(pilot, app))
                        await until(
                            pilot,
                            lambda seq=seq: (
                                isinstance(app.screen, ResultScreen)
                                or (app.model.view is not None and app.model.view.seq > seq)
                            ),
                        )
                    elif app.model.owes_call():
                        await press(pilot, app, "mau")
                await pilot.pause(0.02)
            assert "play" in moves, moves
            await pilot.pause()
            result = app.screen
            await press(pilot, app, "ready")  # the footer's "Enter ready", or the button
            await until(pilot, lambda: app.screen is not result)
            assert isinstance(app.screen, TableScreen)

    run(scenario)


@pytest.mark.parametrize("size", [PHONE_412, DESKTOP, SMALL], ids=str)
def test_the_dialogs_buttons_are_a_fingers_height_on_a_tall_screen(
    size: tuple[int, int],
) -> None:
    """On a phone a button one row tall (13 pixels) is missed by a finger: on a tall
    screen the dialogs' buttons are three rows, as the action bar's; below that they
    stay one row (the footer's keys are there too)."""
    tall = size[1] >= ROOMY_ROWS
    want = 3 if tall else 1

    async def dialogs() -> None:
        app = Answering(lobby())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for make, ids in DIALOG_BUTTONS:
                await app.push_screen(make())
                await pilot.pause()
                assert app.screen.has_class("roomy") == tall
                for selector in ids:
                    assert region_height(app, selector) == want, (make, selector)
                    widget = app.screen.query_one(selector)
                    assert widget.region.bottom <= size[1] - 1  # above the footer
                app.pop_screen()
                await pilot.pause()

    async def connect() -> None:
        app = MauMauApp(None, None, "")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
            await pilot.pause()
            assert region_height(app, "#connect-go") == want

    async def suits_by_tap() -> None:
        """On a tall screen each suit is a big button: one tap names it."""
        app = RecordingApp(position(**JACK_TURN))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await click_card(pilot, app, 1)
            await click_card(pilot, app, 1)  # the Jack, played: the picker
            await until(pilot, lambda: isinstance(app.screen, SuitPicker))
            await pilot.pause()
            if not tall:
                assert region_height(app, "#suit-buttons") == 0
                return
            for i in range(4):
                assert region_height(app, f"#suit-{i}") == 3
            await click(pilot, app.screen.query_one("#suit-2"))
            await until(pilot, lambda: app.sent)
            assert app.sent == [PlayCard("JD", "D")]

    run(dialogs)
    run(connect)
    run(suits_by_tap)


@pytest.mark.parametrize("size", [PHONE_412, DESKTOP], ids=str)
def test_help_and_leaderboard_close_by_a_button_or_a_tap_outside(size: tuple[int, int]) -> None:
    """The help and the leaderboard have a close button where the screen has room,
    and a tap outside a dialog closes it where Escape would (the yes/no question
    says no, the suit picker cancels); never the new table (what was typed would be
    lost) nor the result."""
    tall = size == PHONE_412

    async def closing() -> None:
        app = Answering(lobby())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            lobby_screen = app.screen
            for make, button_id in (
                (HelpScreen, "#help-close"),
                (LeaderboardScreen, "#leaders-close"),
            ):
                await app.push_screen(make())
                await pilot.pause()
                assert region_height(app, button_id) == (3 if tall else 0)
                if tall:
                    await click(pilot, app.screen.query_one(button_id))
                    await until(pilot, lambda: app.screen is lobby_screen, 3)
                    await app.push_screen(make())
                    await pilot.pause()
                await tap_outside(pilot, app)
                await until(pilot, lambda: app.screen is lobby_screen, 3)
            answers: list[object] = []
            for dialog in (
                ConfirmScreen("Leave the table?"),
                SuitPicker("JC", list("SHDC"), False),
            ):
                await app.push_screen(dialog, answers.append)
                await pilot.pause()
                await tap_outside(pilot, app)
                await until(pilot, lambda: app.screen is lobby_screen, 3)
            assert answers == [False, None]
            await app.push_screen(NewTableScreen())
            await pilot.pause()
            await tap_outside(pilot, app)
            await pilot.pause(0.1)
            assert isinstance(app.screen, NewTableScreen)

    async def result_stays() -> None:
        app = Recording(american_rounds(6, "round_over"))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
            if outside(app) is None:
                return  # the result fills the screen
            await tap_outside(pilot, app)
            await pilot.pause(0.1)
            assert isinstance(app.screen, ResultScreen) and not sent_of(app, Ready)

    run(closing)
    run(result_stays)


def test_the_action_bar_stays_put_when_the_hint_wraps() -> None:
    """On a tall screen the hint (or complaint) under the hand always takes two
    lines: a longer one does not push the action bar down under a finger."""
    app = RecordingApp(position(**JACK_TURN))

    async def scenario() -> None:
        async with app.run_test(size=PHONE_412) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            bar = screen.query_one(ActionBar)
            hand = screen.query_one(Hand)
            where = (bar.region.y, hand.region.height)
            for problem in (
                "That card does not fit.",
                "A complaint long enough to wrap onto a second line at sixty-two columns.",
                "A complaint so long that it would take three lines or more at sixty-two "
                "columns, which is about as much as any language says under the hand.",
            ):
                screen.show_problem(problem)
                await pilot.pause()
                assert (bar.region.y, hand.region.height) == where, problem
                assert problem.split()[0] in ascii_screen_text(app)

    run(scenario)


def test_the_table_says_ready_once_the_result_is_closed() -> None:
    """After "ready" on the result, the line under the pile no longer asks for a key
    on the result (it is closed): it says the player is ready and whom the next deal
    waits for."""
    people = ["Eve", "Finn", "Ivy", "Jon", "Max", "Nia", "Ola"]  # Ann's opponents

    async def scenario() -> None:
        messages = american_rounds(6, "round_over")
        messages[1] = round_over_table()
        app = Recording(messages)
        async with app.run_test(size=PHONE_412) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
            await tap(pilot, app, "ready")
            await until(pilot, lambda: sent_of(app, Ready))
            assert isinstance(app.screen, TableScreen)
            # The server says Ann is ready (the others not yet).
            app.post_message(ServerMessage(round_over_table("Ann")))
            await until(pilot, lambda: "you are ready" in ascii_screen_text(app), 3)
            text = ascii_screen_text(app)
            assert "press a key on the result" not in text
            assert "waiting for Eve" in text
            app.post_message(ServerMessage(round_over_table("Ann", *people[:-1])))
            await until(pilot, lambda: "waiting for Ola" in ascii_screen_text(app), 3)
            app.post_message(ServerMessage(round_over_table("Ann", *people)))
            await until(pilot, lambda: "waiting for" not in ascii_screen_text(app), 3)
            assert "round over: you are ready" in ascii_screen_text(app)

    run(scenario)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", [SMALL, PHONE_412, (62, 24), DESKTOP], ids=str)
def test_the_penalty_line_fits_the_width(language: str, size: tuple[int, int]) -> None:
    """The line under the pile says the penalty whole at 60 and 62 columns, in
    German too: the clock's bar gives way first, then the penalty's second half."""
    penalty, ends = {
        "en": ("penalty: draw 4", ("penalty: draw 4", "or answer with a 7")),
        "de": ("Strafe: 4 ziehen", ("Strafe: 4 ziehen", "mit 7 kontern")),
    }[language]

    async def scenario() -> None:
        app = RecordingApp(position(**PENALTY_TURN))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            lines = [line for line in ascii_screen_text(app).splitlines() if penalty in line]
            assert len(lines) == 1, lines
            assert lines[0].rstrip().endswith(ends), lines[0]
            assert "27 s" in lines[0]  # the seconds stay
            if size[0] >= 80:
                assert "or answer with a 7" in lines[0] or "kontern" in lines[0]

    i18n.set_language(language)
    try:
        run(scenario)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", [SMALL, PHONE_412, DESKTOP], ids=str)
def test_the_lobby_list_fits_the_width(language: str, size: tuple[int, int]) -> None:
    """At 60 and 62 columns the table list fits without a horizontal scrollbar: the
    players column gives way, the tables' names and states stay whole."""

    async def scenario() -> None:
        app = Answering(long_lobby())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            table = app.screen.query_one("#tables")
            assert isinstance(table, DataTable)
            await pilot.pause()
            assert table.virtual_size.width <= table.scrollable_content_region.width
            assert not table.show_horizontal_scrollbar
            text = ascii_screen_text(app)
            for name, state in (("Ann's table", finished()), ("Friday", ""), ("Private", "")):
                row = [line for line in text.splitlines() if name in line]
                assert row, (name, text)
                assert state in row[0]

    i18n.set_language(language)
    try:
        run(scenario)
    finally:
        i18n.set_language("en")

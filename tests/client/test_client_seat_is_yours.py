"""The client's side of "your seat is yours": the away banner and any key, the leave
question, the rematch by consent, help on the rules (and the clock stopped for one
alone with bots), the cards that fit marked and explained, the cursor on a drawn card,
local play that starts once the table is shown, the waiting room's ready key, the
lobby's house rules, the leaderboard of one game, a replay's password, the footer
that keeps every key, ASCII for a terminal that has nothing else, and the title's
target never cut.

Real Textual apps through ``run_test``, their server messages posted as the network
worker posts them (:class:`ServerMessage`), what they send recorded.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from textual.screen import Screen

from maumau.client import i18n, render
from maumau.client.app import MauMauApp, ascii_driver
from maumau.client.cli import parse_args
from maumau.client.connection import ServerMessage
from maumau.client.literal import ascii_fold
from maumau.client.model import Model
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import (
    Back,
    GetReplay,
    GetStats,
    JoinTable,
    Lobby,
    Message,
    Pause,
    PlayCard,
    Ready,
    Rematch,
    StartMatch,
    TableInfo,
    Tournament,
    View,
)
from support.client_snapshots import WELCOME, StillApp, classic_table, lobby, seat
from support.client_tournament_data import tournament
from support.snapshots_results import classic_match_over, screen_text, shows, until


class Recording(StillApp):
    """A StillApp that keeps what it would send; server messages are posted to it
    as the network worker posts them."""

    def __init__(self, messages: list[Message], screen: Any = TableScreen, **kw: Any) -> None:
        super().__init__(messages, screen)
        self.sent: list[Message] = []
        for key, value in kw.items():
            setattr(self, key, value)

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    def arrive(self, message: Message) -> None:
        self.post_message(ServerMessage(message))


def info_of(messages: list[Message]) -> TableInfo:
    return next(m for m in messages if isinstance(m, TableInfo))


def changed_info(messages: list[Message], **changes: Any) -> TableInfo:
    return dataclasses.replace(info_of(messages), **changes)


def view_of(messages: list[Message]) -> View:
    return [m for m in messages if isinstance(m, View)][-1]


def go(scenario: Any) -> None:
    asyncio.run(scenario)


# --- 1. away, and back with any key ------------------------------------------------------


def test_an_away_player_is_told_and_any_key_takes_the_seat_back() -> None:
    messages = classic_table()
    info = info_of(messages)
    seats = list(info.seats)
    seats[0] = seat("Ann", away=True)

    async def scenario() -> None:
        app = Recording(messages)
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
            cursor = app.screen.cursor
            app.arrive(dataclasses.replace(info, seats=tuple(seats)))
            await shows(pilot, app, "A bot plays for you: press any key to take your seat back")
            await pilot.press("right")
            await pilot.press("d")
            await until(pilot, lambda: Back() in app.sent)
            # The key's one job was the seat: no cursor move, no draw, one "back".
            assert app.sent == [Back()]
            assert app.screen.cursor == cursor
            app.arrive(info)  # the server: not away any more
            await until(pilot, lambda: "A bot plays for you" not in screen_text(app))
            await pilot.press("t")  # takes the 7's penalty: keys are moves again
            await until(pilot, lambda: len(app.sent) == 2)
            assert type(app.sent[1]).__name__ == "DrawCard"

    go(scenario())


# --- 2. a seat kept when one steps out, a rematch by consent ----------------------------------


def test_the_leave_question_says_the_seat_is_kept_and_how_to_come_back() -> None:
    async def scenario() -> None:
        app = Recording(classic_table())
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            question = app.screen.question
            assert "A bot plays your seat until you come back" in question
            assert "Enter on this table in the lobby" in question

    go(scenario())


def test_the_rematch_waits_for_everyone_and_says_for_whom() -> None:
    messages = classic_match_over()
    info = info_of(messages)
    bob_asks = list(info.seats)
    bob_asks[1] = {**bob_asks[1], "ready": True}
    for i in (0, 2):
        bob_asks[i] = {**bob_asks[i], "ready": False}

    async def scenario() -> None:
        app = Recording(messages)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            app.arrive(dataclasses.replace(info, seats=tuple(bob_asks), rematch_ms=25_000))
            await shows(pilot, app, "Bob asks for a rematch: r agrees (it starts in 2")
            await pilot.press("r")
            await until(pilot, lambda: Rematch() in app.sent)
            mine = list(bob_asks)
            mine[0] = {**mine[0], "ready": True}
            app.arrive(dataclasses.replace(info, seats=tuple(mine), rematch_ms=20_000))
            text = await shows(pilot, app, "rematch in", "waiting for Cleo")
            assert "r rematch" not in text.splitlines()[-1]  # asked already: no r
            assert app.sent.count(Rematch()) == 1

    go(scenario())


def test_enter_on_a_table_where_the_seat_waits_takes_it_back_without_a_password() -> None:
    welcome, summary = lobby()
    assert isinstance(summary, Lobby)
    kept = {
        "id": 7,
        "name": "Locked",
        "variant": "classic",
        "seats": (seat("Bob"), {**seat("Ann"), "connected": False, "away": True}),
        "spectators": 0,
        "state": "playing",
        "round": 2,
        "locked": True,
        "rules": {"jack_on_jack": False, "turn_timeout_s": 90},
    }
    messages = [welcome, dataclasses.replace(summary, tables=(kept, *summary.tables))]

    async def scenario() -> None:
        app = Recording(messages, LobbyScreen)
        async with app.run_test(size=(80, 24)) as pilot:
            # Its line says whose seat waits there; the line under the tables its rules.
            await shows(pilot, app, "Locked (your seat)", "turn 90 s", "no Jack on Jack")
            await pilot.press("enter")
            await until(pilot, lambda: bool(app.sent))
            assert app.sent == [JoinTable(7, None, None)]

    go(scenario())


# --- 4. rules for a newcomer -------------------------------------------------------------------


def alone_with_bots() -> list[Message]:
    messages = classic_table()
    info = info_of(messages)
    bots = (seat("Ann"), seat("Ada*", bot=True), seat("Bert*", bot=True), seat("Cleo*", bot=True))
    alone = dataclasses.replace(info, seats=bots, spectators=())
    return [alone if m is info else m for m in messages]


def test_the_help_opens_on_the_rules_and_stops_the_clock_of_one_alone_with_bots() -> None:
    async def scenario() -> None:
        app = Recording(alone_with_bots())
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            first = await shows(pilot, app, "Mau Mau: the rules in short")
            # It opens on the rules: how cards match and what each special card does.
            assert "matches the top card in suit or rank" in first
            assert "misses the turn" in first and "direction of play turns" in first
            assert app.sent == [Pause(True)]
            await pilot.press("escape")
            await until(pilot, lambda: len(app.sent) == 2)
            assert app.sent == [Pause(True), Pause(False)]

    go(scenario())


def test_the_clock_runs_on_for_others_while_the_help_is_open() -> None:
    async def scenario() -> None:
        app = Recording(classic_table())  # Bob and Cleo are people
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not any(isinstance(m, Pause) for m in app.sent)

    go(scenario())


def test_the_help_says_where_the_table_departs_from_the_rules() -> None:
    settings = {"variant": "classic", "seats": 4, "jack_on_jack": False, "mau_penalty": 3}
    messages = classic_table()
    info = info_of(messages)
    messages = [dataclasses.replace(info, settings=settings) if m is info else m for m in messages]

    async def scenario() -> None:
        app = Recording(messages)
        async with app.run_test(size=(80, 40)) as pilot:
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            text = str(app.screen.query_one("#help-text").render())
            assert "you draw 3." in text  # the rules, with this table's numbers
            assert "a Jack goes on any card but a Jack" in text  # and its house rules
            assert "Departing from the rules as written" in text
            assert "A player caught without Mau draws 3 cards." in text
            # A Jack not on a Jack is the rules as written; the call window's least
            # time (a default) is not.
            assert "A Jack may go on a Jack." not in text
            assert "The call window stays open at least 1.5 s" in text
            # The settings that depart are marked, and the mark explained.
            assert "  * Caught without Mau: draw 3" in text
            assert "  * Call window at least 1500 ms" in text
            assert "    Jack on Jack: no" in text
            assert "* departs from the rules as written" in text

    go(scenario())


def test_the_cards_that_fit_are_marked_and_the_mark_explained() -> None:
    async def scenario() -> None:
        app = Recording(classic_table())  # a 7 is pending: only 7S answers it
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
        plain = Recording(positioned(penalty=0, penalty_kind=None, top="9C"))
        async with plain.run_test(size=(80, 24)) as pilot:
            text = await shows(pilot, plain, "✓ fits: the suit or rank of 9♣, or a Jack")
            marks = [line for line in text.splitlines() if "✓" in line and "fits" not in line]
            assert marks and marks[0].count("✓") == 2  # 9H and JD fit, the others not

    go(scenario())


def positioned(**changes: Any) -> list[Message]:
    messages = classic_table()
    view = view_of(messages)
    legal = ({"kind": "play", "card": "9H"}, {"kind": "play", "card": "JD", "named": "S"})
    fields = {"legal": (*legal, {"kind": "draw"}), **changes}
    new = dataclasses.replace(view, **fields)
    return [new if m is view else m for m in messages]


def test_after_a_draw_the_cursor_is_on_the_drawn_card() -> None:
    messages = positioned(penalty=0, penalty_kind=None, top="8C", legal=({"kind": "draw"},))
    view = view_of(messages)

    async def scenario() -> None:
        app = Recording(messages)
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn")
            assert app.screen.cursor == 0
            drawn = dataclasses.replace(
                view,
                seq=view.seq + 1,
                hand=(*view.hand, "KC"),
                hand_counts=(6, 4, 1, 6),
                drawn="KC",
                legal=({"kind": "play", "card": "KC"}, {"kind": "pass"}),
            )
            app.arrive(drawn)
            await shows(pilot, app, "play the drawn card or keep it (k)")
            await pilot.press("enter")
            await until(pilot, lambda: bool(app.sent))
            assert app.sent == [PlayCard("KC", None, None)]

    go(scenario())


def test_local_play_starts_once_the_table_is_on_the_screen() -> None:
    messages = classic_table()
    info = info_of(messages)
    waiting = dataclasses.replace(info, state="waiting", seats=alone_with_bots()[1].seats)

    async def scenario() -> None:
        app = Recording([WELCOME, waiting], local=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: StartMatch() in app.sent)
            assert isinstance(app.screen, TableScreen) and app.screen.drawn
            app.arrive(waiting)
            await pilot.pause(0.1)
            assert app.sent == [StartMatch()]  # once
        away = Recording([WELCOME, waiting])  # not local: the creator starts it with s
        async with away.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert away.sent == []

    go(scenario())


def test_local_play_shows_no_lobby_before_its_table() -> None:
    welcome, summary = lobby()

    async def scenario() -> None:
        app = Recording([welcome], lambda: Screen(), local=True)
        async with app.run_test(size=(80, 24)) as pilot:
            app.arrive(summary)
            await pilot.pause(0.2)
            assert not isinstance(app.screen, LobbyScreen)

    go(scenario())


def test_enter_in_the_waiting_room_says_ready() -> None:
    info = dataclasses.replace(
        info_of(classic_table()), state="waiting", seats=(seat("Ann"), seat("Bob"), seat(None))
    )
    unready = dataclasses.replace(
        info, seats=({**seat("Ann"), "ready": False}, seat("Bob"), seat(None))
    )

    async def scenario() -> None:
        app = Recording([WELCOME, unready])
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "Enter: ready")
            await pilot.press("enter")
            await until(pilot, lambda: bool(app.sent))
            assert app.sent == [Ready(True)]

    go(scenario())


# --- 5. the smaller things -----------------------------------------------------------------


def test_the_leaderboard_shows_one_game_at_a_time() -> None:
    async def scenario() -> None:
        app = Recording([WELCOME], LeaderboardScreen)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: bool(app.sent))
            await shows(pilot, app, "Leaderboard: Mau Mau")
            await pilot.press("g")
            await shows(pilot, app, "Leaderboard: American Mau-Mau")
            await pilot.press("g")
            await shows(pilot, app, "Leaderboard: both games")
            assert [m.variant for m in app.sent if isinstance(m, GetStats)] == [
                "classic",
                "american",
                None,
            ]

    go(scenario())


def test_a_replay_of_a_locked_tables_match_can_be_given_its_password() -> None:
    args = parse_args(["--replay", "4", "--password", "s3cret", "127.0.0.1:7766"])
    assert args.password == "s3cret"
    app = Recording([WELCOME], lambda: Screen())
    app.replay_match, app.replay_password = 4, "s3cret"

    async def scenario() -> None:
        from maumau.client.screens.replay import LoneReplayScreen

        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(LoneReplayScreen(4, password=app.replay_password))
            await until(pilot, lambda: any(isinstance(m, GetReplay) for m in app.sent))
            (first, *_rest) = [m for m in app.sent if isinstance(m, GetReplay)]
            assert first.password == "s3cret" and first.match == 4

    go(scenario())


def test_a_german_footer_keeps_every_key_at_sixty_columns() -> None:
    busy = positioned(
        penalty=0,
        penalty_kind=None,
        top="9C",
        hand=("9H", "JD"),
        hand_counts=(2, 4, 1, 6),
        windows=({"id": 38, "seat": 2, "final": False, "called": None, "catchable": True},),
        legal=(
            {"kind": "play", "card": "9H"},
            {"kind": "play", "card": "JD", "named": "S"},
            {"kind": "draw"},
            {"kind": "catch", "target": 2},
        ),
    )
    i18n.set_language("de")
    try:

        async def scenario() -> None:
            app = Recording(busy)
            async with app.run_test(size=(60, 20)) as pilot:
                text = await shows(pilot, app, "du bist dran")
                footer = text.splitlines()[-1]
                assert footer.rstrip().endswith("q verlassen"), footer
                assert "c" in footer and "M" in footer

        go(scenario())
    finally:
        i18n.set_language("en")


def test_an_ascii_terminal_gets_only_ascii_of_the_same_width() -> None:
    assert ascii_fold("Zoë: für Ärger, ß") == "Zoe: fur Arger, s"
    assert ascii_fold("7♥ → ▶ · ✓ …") == "7H > > - + ~"
    assert ascii_fold("你好🎲") == "??????"  # wide: two cells each, two marks each
    assert ascii_fold("e\u0301") == "e"  # a combining accent takes no cell
    assert ascii_fold("▌┌─┐") == "#+-+"
    assert ascii_fold("\x1b[1mplain") == "\x1b[1mplain"

    written: list[str] = []

    class Terminal:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def write(self, data: str) -> None:
            written.append(data)

    driver = ascii_driver(Terminal)()  # type: ignore[arg-type]
    driver.write("Zoë sagt: schön ♥")
    assert written == ["Zoe sagt: schon H"]
    assert MauMauApp(None, None, "Ann", ascii_only=True).driver_class.__name__ == "AsciiDriver"
    assert MauMauApp(None, None, "Ann").driver_class.__name__ != "AsciiDriver"


def test_the_title_gives_up_the_table_name_never_the_target() -> None:
    messages = classic_table()
    info = info_of(messages)
    long = dataclasses.replace(
        info, name="The very long table name", settings={**info.settings, "variant": "american"}
    )
    model = Model()
    for message in [WELCOME, long, view_of(messages)]:
        model.apply(message)
    for width in (60, 70, 80):
        title = render.title(model, False, width).plain
        assert "to 150" in title and len(title) <= width, title
        assert "to 1…" not in title


def test_players_not_in_the_final_are_told_it_has_started() -> None:
    before = tournament(state="break", series_no=3, you=6)
    final = dataclasses.replace(before, state="final", series_no=4)
    assert isinstance(final, Tournament)

    async def scenario() -> None:
        app = Recording([WELCOME, *lobby()[1:]], LobbyScreen)
        async with app.run_test(size=(80, 24)) as pilot:
            app.model.follow()
            app.arrive(before)
            await pilot.pause(0.1)
            app.arrive(final)
            await until(pilot, lambda: any("has started" in n.message for n in app._notifications))

    go(scenario())

"""Keys to protocol messages, on fixed positions: what each key sends, and when a
key sends nothing. The app is fed server messages directly and records its sends."""

from __future__ import annotations

import asyncio

from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import (
    CatchPlayer,
    ChallengeCard,
    Chat,
    DrawCard,
    PlayCard,
    SayMau,
    TableInfo,
    View,
)
from support.client_keys import (
    JACK_TURN,
    WILD_DRAW_FOUR,
    RecordingApp,
    american,
    footer,
    position,
    run,
)
from support.client_snapshots import WELCOME, lobby, seat


def test_jack_asks_for_a_suit_then_plays() -> None:
    # Sorted hand: 7S JD KC -> JD is card 2.
    app = run(position(**JACK_TURN), ["2", "enter"])
    assert app.last_screen == SuitPicker.__name__ and app.sent == []
    app = run(position(**JACK_TURN), ["2", "enter", "3"])
    assert app.sent == [PlayCard("JD", "D")]


def test_escape_in_the_suit_picker_plays_nothing() -> None:
    app = run(position(**JACK_TURN), ["2", "enter", "escape"])
    assert app.sent == []
    assert app.last_screen == "TableScreen"


def test_a_card_that_does_not_fit_is_not_sent_and_says_why() -> None:
    app = run(position(**JACK_TURN), ["1", "enter"])  # 7S on 9C
    assert app.sent == []
    assert app.problem == "7♠ does not fit on 9♣."


def test_arrows_pick_and_enter_plays() -> None:
    app = run(position(**JACK_TURN), ["right", "right", "enter"])
    assert app.sent == [PlayCard("KC")]


def test_armed_mau_rides_on_the_play() -> None:
    two = dict(JACK_TURN, hand=("JD", "KC"), hand_counts=(2, 4, 1, 6))
    app = run(position(**two), ["m", "2", "enter"])
    assert app.sent == [PlayCard("KC", None, "mau")]


def test_armed_mau_mau_when_keeping_a_jack() -> None:
    two = dict(JACK_TURN, hand=("JD", "KC"), hand_counts=(2, 4, 1, 6))
    app = run(position(**two), ["M", "2", "enter"])
    assert app.sent == [PlayCard("KC", None, "maumau")]


def test_m_after_the_play_says_mau() -> None:
    owed = dict(
        JACK_TURN,
        turn=1,
        hand=("KC",),
        hand_counts=(1, 4, 1, 6),
        windows=({"id": 7, "seat": 0, "final": False, "called": None, "catchable": True},),
        legal=({"kind": "say_mau", "call": "mau"}, {"kind": "say_mau", "call": "maumau"}),
    )
    app = run(position(**owed), ["m"])
    assert app.sent == [SayMau("mau")]


def test_c_catches_the_player_who_forgot() -> None:
    forgot = dict(
        JACK_TURN,
        turn=1,
        windows=({"id": 9, "seat": 2, "final": False, "called": None, "catchable": True},),
        legal=({"kind": "catch", "target": 2},),
    )
    app = run(position(**forgot), ["c"])
    assert app.sent == [CatchPlayer(2)]


def test_keys_that_mean_nothing_now_send_nothing() -> None:
    waiting = dict(JACK_TURN, turn=1, legal=())
    app = run(position(**waiting), ["enter", "d", "t", "k", "c", "m"])
    assert app.sent == []


def test_t_takes_the_penalty() -> None:
    app = run(position(), ["t"])  # the fixed table has a pending 7 with 7S in hand
    assert app.sent == [DrawCard()]


def test_ten_player_table_keys_work_too() -> None:
    names = ["Ann", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia", "Ola"]
    info = TableInfo(
        4, "T", {"variant": "american"}, tuple(seat(n) for n in names), (), "playing", "Ann", 0
    )
    view = View(
        table=4,
        seq=80,
        seat=0,
        phase="playing",
        round=2,
        dealer=9,
        turn=0,
        direction=1,
        top="G7",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(2,) + (5,) * 9,
        scores=(0,) * 10,
        target=500,
        stock=30,
        discard=12,
        windows=(),
        last_round=None,
        winner=None,
        hand=("G2", "W"),
        drawn=None,
        legal=(
            {"kind": "play", "card": "G2"},
            *({"kind": "play", "card": "W", "named": c} for c in "RYGB"),
            {"kind": "draw"},
        ),
        turn_deadline_ms=None,
    )
    app = run([WELCOME, info, view], ["2", "enter", "4"])
    assert app.sent == [PlayCard("W", "B")]


def test_a_pending_wild_draw_four_offers_take_and_challenge_not_draw() -> None:
    messages = american(**dict(WILD_DRAW_FOUR, hand=("G2", "R5", "Y7")))
    keys = footer(messages)
    assert {"t", "x"} <= keys and "d" not in keys and "left" not in keys
    app = run(messages, ["d"])
    assert app.sent == []
    assert app.problem == "Take the penalty with t (4 cards), not d."
    app = run(messages, ["x"])
    assert app.sent == [ChallengeCard()]


def test_the_arrows_are_offered_on_every_turn_with_a_choice_and_only_then() -> None:
    assert "left" in footer(position(**JACK_TURN))  # the log has the focus: still offered
    assert "left" in footer(position())  # a 7 to answer with
    assert "left" not in footer(position(**dict(JACK_TURN, turn=1, legal=())))  # not my turn
    no_fit = dict(JACK_TURN, legal=({"kind": "draw"},))
    assert "left" not in footer(position(**no_fit))  # nothing to choose: d draws
    assert "d" in footer(position(**no_fit))


def test_the_arrows_still_pick_ahead_off_turn() -> None:
    app = RecordingApp(position(**dict(JACK_TURN, turn=1, legal=())))
    cursors: list[int] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            for key in ("right", "right", "left"):
                await pilot.press(key)
                cursors.append(screen.cursor)
            assert screen.problem is None

    asyncio.run(scenario())
    assert cursors == [1, 2, 1]


def test_mau_with_five_cards_says_why_next_to_the_hand() -> None:
    five = dict(JACK_TURN, hand=("7S", "9H", "10S", "QH", "JD"))
    app = run(position(**five), ["m"])
    assert app.sent == []
    assert app.problem == "You have 5 cards: Mau is for your last but one."


def test_catch_with_nobody_to_catch_says_why() -> None:
    app = run(position(**JACK_TURN), ["c"])
    assert app.sent == []
    assert app.problem == "Nobody to catch: c catches a player who forgot to say Mau."


def test_a_move_off_turn_says_it_is_not_your_turn() -> None:
    app = run(position(**dict(JACK_TURN, turn=1, legal=())), ["d"])
    assert app.sent == [] and app.problem == "It is not your turn."


def test_chat_typing_keeps_its_letters_and_arrows() -> None:
    app = run(position(**JACK_TURN), ["tab", "m", "d", "left", "enter"])
    assert app.sent == [Chat("table", "md")]
    assert app.problem is None


def test_the_lobby_chat_sends_the_line_typed_and_esc_gives_the_tables_back() -> None:
    """Tab opens the lobby's chat line, Enter sends it (a blank line sends nothing),
    and Esc closes it: the cursor is on the tables again."""
    app = RecordingApp(lobby())
    app.make_screen = LobbyScreen
    focused: list[str | None] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ["tab", "h", "i", "enter", "space", "enter"]:
                await pilot.press(key)
                await pilot.pause()
            focused.append(app.focused.id if app.focused else None)
            await pilot.press("escape")
            await pilot.pause()
            focused.append(app.focused.id if app.focused else None)

    asyncio.run(scenario())
    assert app.sent == [Chat("lobby", "hi")]
    assert focused == ["lobby-input", "tables"]

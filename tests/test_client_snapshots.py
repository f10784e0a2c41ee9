"""Snapshots of the client's screens at 80x24, drawn from fixed server messages.

The app is fed messages directly (no network, no clock-dependent text), so the
pictures are the same on every run. Review changes with ``pytest --snapshot-update``
and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from maumau.client import render
from maumau.client.app import MauMauApp
from maumau.client.screens import LobbyScreen, ResultScreen, SuitPicker, TableScreen
from maumau.protocol.messages import (
    GameEvent,
    Lobby,
    Message,
    TableInfo,
    View,
    Welcome,
)

SIZE = (80, 24)


def seat(name: str | None, bot: bool = False, away: bool = False) -> dict[str, Any]:
    return {"name": name, "bot": bot, "connected": True, "away": away, "ready": True}


class StillApp(MauMauApp):
    """The client with a fixed model and one screen, for pictures."""

    def __init__(self, messages: list[Message], screen: Callable[[], Screen[Any]]) -> None:
        super().__init__(None, None, "Ann", remember=False)
        self.messages = messages
        self.make_screen = screen

    def start(self) -> None:
        for message in self.messages:
            self.model.apply(message)
        self.push_screen(self.make_screen())


WELCOME = Welcome(1, "s", "r", "Ann", False)


def classic_table() -> list[Message]:
    seats = (seat("Ann"), seat("Bob"), seat("Cleo"), seat("Dan", bot=True))
    info = TableInfo(
        3,
        "Friday",
        {"variant": "classic", "target_score": 150, "turn_timeout_s": 45},
        seats,
        ("Eve",),
        "playing",
        "Ann",
        0,
    )
    view = View(
        table=3,
        seq=40,
        seat=0,
        phase="playing",
        round=3,
        dealer=2,
        turn=0,
        direction=1,
        top="7H",
        named=None,
        penalty=4,
        penalty_kind="seven",
        hand_counts=(5, 4, 1, 6),
        scores=(12, 62, 88, 40),
        target=150,
        stock=14,
        discard=6,
        windows=({"id": 38, "seat": 2, "final": False, "called": "mau", "catchable": False},),
        last_round=None,
        winner=None,
        hand=("7S", "9H", "10S", "QH", "JD"),
        drawn=None,
        legal=({"kind": "play", "card": "7S"}, {"kind": "draw"}),
        turn_deadline_ms=None,
    )
    lines = [
        "Bob plays 7♣: Cleo must draw 2 or answer with a 7",
        'Cleo plays 7♥, saying "Mau": last card',
        "Ann must draw 4 or answer with a 7",
    ]
    events = [GameEvent(3, 36 + i, "event", text) for i, text in enumerate(lines)]
    return [WELCOME, info, *events, view]


def american_table() -> list[Message]:
    names = ["Ann", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia", "Ola"]
    seats = tuple(seat(n, bot=n in ("Kai", "Lea")) for n in names)
    info = TableInfo(
        4, "Newbies", {"variant": "american", "target_score": 500}, seats, (), "playing", "Eve", 0
    )
    view = View(
        table=4,
        seq=80,
        seat=0,
        phase="playing",
        round=2,
        dealer=9,
        turn=1,
        direction=-1,
        top="G7",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(6, 3, 1, 7, 5, 4, 8, 2, 6, 7),
        scores=(0, 120, 40, 10, 0, 0, 55, 0, 90, 0),
        target=500,
        stock=30,
        discard=12,
        windows=(),
        last_round=None,
        winner=None,
        hand=("G2", "GS", "R7", "Y+2", "W", "W4"),
        drawn=None,
        legal=(),
        turn_deadline_ms=None,
    )
    return [WELCOME, info, view]


def round_over() -> list[Message]:
    messages = classic_table()
    view = messages[-1]
    assert isinstance(view, View)
    last = {
        "round": 3,
        "winner": 2,
        "points": 43,
        "hands": (("7S", "9H"), ("QC", "KC"), (), ("8D",)),
        "hand_points": (16, 20, 0, 8),
        "scores": (12, 62, 131, 40),
    }
    done = View(
        **{
            **{f: getattr(view, f) for f in View.SCHEMA},
            "phase": "round_over",
            "last_round": last,
            "scores": (12, 62, 131, 40),
            "legal": (),
            "penalty": 0,
            "penalty_kind": None,
        }
    )
    return [*messages[:-1], done]


def lobby() -> list[Message]:
    tables = (
        {
            "id": 1,
            "name": "Friday",
            "variant": "classic",
            "seats": (seat("Bob"), seat("Cleo"), seat("Dan", bot=True), seat(None)),
            "spectators": 0,
            "state": "playing",
            "round": 3,
            "locked": False,
        },
        {
            "id": 2,
            "name": "Newbies",
            "variant": "american",
            "seats": (seat("Eve"), seat("Finn"), *[seat(None)] * 4),
            "spectators": 1,
            "state": "waiting",
            "round": 0,
            "locked": False,
        },
        {
            "id": 3,
            "name": "Private",
            "variant": "classic",
            "seats": (seat("Gus"), seat(None)),
            "spectators": 0,
            "state": "waiting",
            "round": 0,
            "locked": True,
        },
    )
    return [WELCOME, Lobby(tables, ("Ann", "Bob", "Cleo", "Eve", "Finn", "Gus"))]


def test_lobby(snap_compare: Any) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SIZE)


def test_classic_table_four_players(snap_compare: Any) -> None:
    assert snap_compare(StillApp(classic_table(), TableScreen), terminal_size=SIZE)


def test_american_table_ten_players(snap_compare: Any) -> None:
    assert snap_compare(StillApp(american_table(), TableScreen), terminal_size=SIZE)


def test_suit_picker(snap_compare: Any) -> None:
    app = StillApp(classic_table(), lambda: SuitPicker("JD", ["S", "H", "D", "C"], False))
    assert snap_compare(app, terminal_size=SIZE)


def test_round_result(snap_compare: Any) -> None:
    messages = round_over()
    model_app = StillApp(messages, TableScreen)
    for message in messages:
        model_app.model.apply(message)
    text = render.round_result(model_app.model, ascii_only=False)
    app = StillApp(messages, lambda: ResultScreen(text, match_over=False))
    assert snap_compare(app, terminal_size=SIZE)

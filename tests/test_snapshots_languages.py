"""Snapshots at 80x24 in German (the longest words) and Czech: the lobby, the new-table
dialog, a 4-seat Mau Mau table with its log, a 10-seat American table, a round result
and the help.

Drawn from fixed server messages with the helpers of ``test_client_snapshots``; the
table's log lines come as protocol-4 facts, so the client writes them in the
language. Review changes with ``pytest --snapshot-update`` and read the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.screen import Screen

from maumau.client import i18n, render
from maumau.client.screens.help import HelpScreen, rules_summary
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import GameEvent, MauDecision, Message, TableInfo
from test_client_snapshots import StillApp, american_table, classic_table, lobby, round_over

SIZE = (80, 24)
LANGUAGES = ["de", "cs"]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The client speaks the language for one test, then English again."""
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


def facts_events(table: int, first_seq: int) -> list[Message]:
    """A log as the server sends it: facts with the English text beside them."""
    facts: list[tuple[str, dict[str, Any]]] = [
        ("Bob plays 7♣", {"kind": "card_played", "seat": 1, "card": "7C", "cards_left": 4}),
        (
            "Cleo must draw 2 or answer with a 7",
            {
                "kind": "penalty_pending",
                "seat": 2,
                "amount": 2,
                "answer": "seven",
                "can_challenge": False,
            },
        ),
        (
            'Cleo plays 7♥, saying "Mau", and has one card left',
            {"kind": "card_played", "seat": 2, "card": "7H", "call": "mau", "cards_left": 1},
        ),
        (
            "Ann must draw 4 or answer with a 7",
            {
                "kind": "penalty_pending",
                "seat": 0,
                "amount": 4,
                "answer": "seven",
                "can_challenge": False,
            },
        ),
    ]
    lines: list[Message] = [
        GameEvent.from_facts(table, first_seq + i, fact) for i, (_text, fact) in enumerate(facts)
    ]
    stamp = {"seat": 2, "what": "call", "after_ms": 420.0, "shift_ms": 0.0, "call": "mau"}
    decision = MauDecision(table, first_seq + len(lines), 38, 2, "called", (stamp,))
    return [*lines, decision]


def classic_with_log() -> list[Message]:
    messages = [m for m in classic_table() if not isinstance(m, GameEvent)]
    *before, view = messages
    return [*before, *facts_events(3, 35), view]


def table_settings(messages: list[Message]) -> dict[str, Any]:
    info = next(m for m in messages if isinstance(m, TableInfo))
    return dict(info.settings)


def result_screen() -> Callable[[], Screen[Any]]:
    messages = round_over()
    model_app = StillApp(messages, TableScreen)
    for message in messages:
        model_app.model.apply(message)

    def make() -> Screen[Any]:
        text = render.round_result(model_app.model, ascii_only=False)
        return ResultScreen(text, match_over=False)

    return make


def test_lobby(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SIZE)


def test_new_table(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(lobby(), NewTableScreen), terminal_size=SIZE)


def test_classic_table_four_seats(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(classic_with_log(), TableScreen), terminal_size=SIZE)


def test_american_table_ten_seats(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(american_table(), TableScreen), terminal_size=SIZE)


def test_round_result(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(round_over(), result_screen()), terminal_size=SIZE)


def test_help(snap_compare: Any, language: str) -> None:
    messages = classic_table()
    settings = table_settings(messages)

    def make() -> Screen[Any]:
        return HelpScreen(rules_summary(settings), settings=settings)

    assert snap_compare(StillApp(messages, make), terminal_size=SIZE)

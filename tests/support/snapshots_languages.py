"""The languages the result and table screens are drawn in, with tables and events
written from facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from maumau.client import render
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import GameEvent, MauDecision, Message, TableInfo
from support.client_snapshots import StillApp, classic_table, round_over

SIZE = (80, 24)


LANGUAGES = ["de", "cs"]


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

"""An app that records what the keys send, and table positions for the key tests."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import (
    Message,
    TableInfo,
    View,
)
from support.client_snapshots import StillApp, classic_table


class RecordingApp(StillApp):
    def __init__(self, messages: list[Message]) -> None:
        super().__init__(messages, TableScreen)
        self.sent: list[Message] = []
        self.last_screen = ""
        self.problem: str | None = None

    async def send(self, message: Message) -> None:
        self.sent.append(message)


def position(**changes: Any) -> list[Message]:
    messages = classic_table()
    view = messages[-1]
    assert isinstance(view, View)
    fields = {name: getattr(view, name) for name in View.SCHEMA}
    fields.update(changes)
    return [*messages[:-1], View(**fields)]


def run(messages: list[Message], keys: list[str]) -> RecordingApp:
    app = RecordingApp(messages)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            app.last_screen = type(app.screen).__name__
            if isinstance(app.screen, TableScreen):
                app.problem = app.screen.problem

    asyncio.run(scenario())
    return app


JACK_TURN = dict(
    penalty=0,
    penalty_kind=None,
    top="9C",
    hand=("7S", "JD", "KC"),
    hand_counts=(3, 4, 1, 6),
    legal=(
        {"kind": "play", "card": "KC"},
        *({"kind": "play", "card": "JD", "named": s} for s in "SHDC"),
        {"kind": "draw"},
    ),
)


def footer(messages: list[Message]) -> set[str]:
    """The keys the table's footer shows (shown bindings that are on), as typed."""
    app = RecordingApp(messages)
    keys: set[str] = set()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            keys.update(
                key
                for key, active in app.screen.active_bindings.items()
                if active.binding.show and active.enabled
            )

    asyncio.run(scenario())
    return keys


WILD_DRAW_FOUR = dict(
    JACK_TURN,
    top="W4",
    named="R",
    penalty=4,
    penalty_kind="wild_draw_four",
    legal=({"kind": "draw"}, {"kind": "challenge"}),
)


def american(**changes: Any) -> list[Message]:
    messages = position(**changes)
    info = messages[1]
    assert isinstance(info, TableInfo)
    return [messages[0], dataclasses.replace(info, settings={"variant": "american"}), *messages[2:]]

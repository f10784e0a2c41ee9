"""A clock moved by hand, a tournament view model, an app answering tournament
requests, and the words a tournament screen shows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from maumau.client.connection import ServerMessage
from maumau.client.model import Model
from maumau.client.screens.lobby import LobbyScreen
from maumau.protocol.messages import (
    CreateTournament,
    JoinTournament,
    Message,
    Tournament,
    WatchTournament,
)
from support.ascii import screen_text
from support.client_snapshots import StillApp
from support.client_tournament_data import (
    tournament,
)


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def model_with(*messages: Message, clock: Clock | None = None) -> Model:
    model = Model()
    model.clock = clock or Clock()
    for message in messages:
        model.apply(message)
    return model


class Answering(StillApp):
    """The client over fixed messages; what it sends is recorded, and each
    ``watch_tournament`` / ``create_tournament`` / ``join_tournament`` is answered with
    ``answer`` (a ``tournament`` message), as the server does."""

    def __init__(
        self,
        messages: list[Message],
        screen: Callable[[], Screen[Any]] = LobbyScreen,
        answer: Tournament | None = None,
    ) -> None:
        super().__init__(messages, screen)
        self.answer = answer if answer is not None else tournament()
        self.sent: list[Message] = []
        self.model.clock = Clock()
        self.shown: Screen[Any] | None = None  # the screen on top when the keys were done

    async def send(self, message: Message) -> None:
        self.sent.append(message)
        asks = isinstance(message, WatchTournament | CreateTournament | JoinTournament)
        if asks and getattr(message, "tournament", 1) is not None:
            self.post_message(ServerMessage(self.answer))


def drive(
    app: Answering,
    keys: list[str],
    then: Callable[[Answering], None] | None = None,
    size: tuple[int, int] = (80, 24),
) -> str:
    """Press ``keys``, let the answers arrive, and give the screen as drawn."""

    async def scenario() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            await pilot.pause(0.05)
            if then is not None:
                then(app)
                await pilot.pause(0.05)
            app.shown = app.screen
            return screen_text(app)

    return asyncio.run(scenario())


def footer(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


TOURNAMENT_NAMES = {"Friday", "Cup", "Newbies", "Open", "Hal", "Jon", "Kim", "Ivy", "Table"}

"""The client while the server cannot save: the table says it is paused, the banner
says why, and the move keys do nothing until play resumes."""

from __future__ import annotations

import asyncio
import dataclasses

from maumau.client.app import PAUSED_TEXT, MauMauApp
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.table import TableScreen
from maumau.client.widgets.banner import Banner
from maumau.protocol.messages import DrawCard, Lobby, TableInfo
from support.client_app import until
from support.client_hostile import FakeServer, screen_is, seat, view, welcome

SIZE = (80, 24)


def test_a_paused_table_says_so_and_refuses_nothing_it_cannot_keep() -> None:
    info = TableInfo(
        5,
        "Friday",
        {"variant": "classic"},
        (seat("Ann"), seat("Bob"), seat("Cora"), seat("Ada", bot=True)),
        (),
        "playing",
        "Ann",
        0,
        "cannot_save",
    )
    server = FakeServer([[welcome("Ann"), Lobby((), ("Ann",))]])
    mine = view(5, 0)

    def banner(app: MauMauApp) -> str:
        found = app.screen.query_one(Banner)
        return str(found.render()) if found.display else ""

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, screen_is(app, LobbyScreen))
                await server.push(info, mine)
                await until(pilot, screen_is(app, TableScreen))
                await until(pilot, lambda: app.model.view is not None)
                assert PAUSED_TEXT in banner(app)
                await pilot.press("d")
                await pilot.pause(0.2)
                assert not [m for m in server.received if isinstance(m, DrawCard)]

                await server.push(dataclasses.replace(info, paused=None))
                await until(pilot, lambda: not app.model.paused)
                await until(pilot, lambda: banner(app) == "")
                await pilot.press("d")
                await until(pilot, lambda: any(isinstance(m, DrawCard) for m in server.received))

    asyncio.run(scenario())

"""A tournament played through the real client against the real ``maumau-server``.

Ann makes a tournament with the dialog, registers with ``r`` and says go with ``g``;
two protocol players register too. When the series starts the client takes Ann to
her table (the server seats her), she leaves it with ``q`` (a bot plays her seat) and
is back on the tournament screen, which follows the series to its end and shows the
final standings. The protocol players leave their seats to bots as well, so the
server's bots play the one table of three to its end.
"""

from __future__ import annotations

import asyncio
from typing import Any

from maumau.client.app import MauMauApp
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_tournament import NewTournamentScreen
from maumau.client.screens.table import TableScreen
from maumau.client.screens.tournament import TournamentScreen
from maumau.protocol.codec import NEED_DATA, PEER_CLOSED, Connection
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Hello,
    JoinTournament,
    LeaveTable,
    Message,
    Ping,
    Pong,
    TableInfo,
    Tournament,
    Welcome,
)
from support.ascii import screen_text
from support.client_app import config_home, run_async, running_server, until  # noqa: F401


class Player:
    """A protocol player on asyncio: registers, and leaves every seat it is given."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.codec = Connection("client")
        self.tournaments: list[Tournament] = []

    @classmethod
    async def connect(cls, port: int, name: str) -> Player:
        player = cls(*await asyncio.open_connection("127.0.0.1", port))
        await player.send(Hello(PROTOCOL_VERSION, name))
        while not isinstance(await player.receive(), Welcome):
            pass
        return player

    async def send(self, message: Message) -> None:
        self.writer.write(self.codec.send(message))
        await self.writer.drain()

    async def receive(self) -> Any:
        while True:
            event = self.codec.next_event()
            if event is NEED_DATA:
                self.codec.receive_data(await self.reader.read(65536))
                continue
            if event is PEER_CLOSED:
                raise ConnectionError("the server closed the connection")
            if isinstance(event, Ping):
                await self.send(Pong(event.nonce))
            if isinstance(event, Tournament):
                self.tournaments.append(event)
            return event

    async def leave_every_seat(self) -> None:
        while True:
            message = await self.receive()
            if isinstance(message, TableInfo) and message.you is not None:
                await self.send(LeaveTable())


@run_async
async def test_a_tournament_made_joined_and_followed_through_the_client() -> None:
    with running_server("--tournament-break", "0.5", "--bot-delay", "0.02") as port:
        app = MauMauApp("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("T")
            await until(pilot, lambda: isinstance(app.screen, NewTournamentScreen))
            dialog = app.screen
            dialog.query_one("#n-seats").value = "3"
            dialog.query_one("#n-series").value = "1"
            dialog.query_one("#n-deals").value = "1"
            dialog.query_one("#n-final").value = False
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen))
            following = app.model.tournament
            assert following is not None
            tid = following.info.id
            await pilot.press("r")
            await until(pilot, lambda: app.model.tournament.info.you is not None)
            players = [await Player.connect(port, name) for name in ("Bob", "Cid")]
            for player in players:
                await player.send(JoinTournament(tid))
            tasks = [asyncio.create_task(p.leave_every_seat()) for p in players]
            await until(pilot, lambda: len(app.model.tournament.info.standings) == 3)
            await pilot.press("g")
            await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
            await pilot.press("y")
            # The server seats Ann: the client shows her table, marked with its tournament.
            await until(pilot, lambda: isinstance(app.screen, TableScreen), timeout=20)
            assert app.model.table is not None
            assert app.model.table.tournament == {"id": tid, "series": 1}
            await pilot.press("q")
            await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen))
            await until(pilot, lambda: app.model.tournament.info.state == "finished", timeout=90)
            await pilot.pause(0.2)
            shown = screen_text(app)
            final = app.model.tournament.info
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    assert [line["rank"] for line in final.standings] == [1, 2, 3]
    assert {line["name"] for line in final.standings} == {"Ann", "Bob", "Cid"}
    [table] = final.tables
    assert table["state"] == "finished" and sorted(table["names"]) == ["Ann", "Bob", "Cid"]
    assert all(p.tournaments and p.tournaments[-1].state == "finished" for p in players)
    assert "finished" in shown
    for line in final.standings:  # every line of the final standings on the screen
        assert any(line["name"] in row and str(line["rank"]) in row for row in shown.splitlines())

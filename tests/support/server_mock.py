"""A server started in the test's trio nursery (MockClock-ready), connections to it,
and positions a test sets at a table."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from wireclient import WireClient

from maumau.protocol.messages import (
    CreateTable,
    JoinTable,
    MauDecision,
    StartMatch,
    TableInfo,
    View,
)
from maumau.server.config import ServerConfig
from maumau.server.latency import Latency
from maumau.server.server import Server
from maumau.server.table import Table
from support.positions import table as position


async def connect(server: Server, nursery: trio.Nursery, name: str, resume: str | None = None):
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    return await WireClient.open(client_stream, name, resume)


async def start_server(nursery: trio.Nursery, **options) -> Server:
    store = options.pop("store", None)
    server = Server(ServerConfig(seed=5, **options), store)
    server.start_background(nursery)
    return server


async def seat_players(
    server: Server, nursery: trio.Nursery, names: list[str], settings: dict, bots: tuple = ()
) -> tuple[list[WireClient], Table]:
    clients = [await connect(server, nursery, name) for name in names]
    await clients[0].send(CreateTable("T", settings, bots))
    info = await clients[0].wait_for(TableInfo)
    for seat, client in enumerate(clients[1:], start=1):
        await client.send(JoinTable(info.id, seat))
        await client.wait_for(lambda m, s=seat: isinstance(m, TableInfo) and m.you == s)
    await clients[0].send(StartMatch())
    for client in clients:
        await client.wait_for(View)
    return clients, server.tables[info.id]


async def set_position(table: Table, clients: list[WireClient], **kwargs) -> None:
    state = position(variant=table.settings.variant, **kwargs)
    assert state.settings == table.settings, "position settings must match the table's"
    state.action_no = 1000
    table.match = state
    table.flow.after_change([], turn_ended=True)
    for client in clients:
        await client.wait_for(
            lambda m: (
                isinstance(m, View)
                and m.hand_counts == tuple(len(h.split()) for h in kwargs["hands"])
            )
        )


async def decision_for(client: WireClient) -> MauDecision:
    return await client.wait_for(MauDecision)


THREE = ["Ann", "Bob", "Cora"]


CLASSIC3 = {"variant": "classic", "seats": 3}


HANDS = ["QH KS", "KH 10D 9D", "AC AD 8S"]


def steady_link(server: Any, name: str, rtt: float) -> None:
    """The named player's connection, as if five pings had each taken ``rtt``."""
    session = next(s for s in server.sessions.values() if s.name == name)
    session.latency = Latency()
    for i in range(5):
        session.latency.add(i, i + rtt)


async def compensated_table(nursery: trio.Nursery) -> tuple[Server, list[WireClient]]:
    """Ann (to play QH and keep KS), Bob and Cora at a table with lag compensation;
    Ann's link is steady at 20 ms; the server pings no more on its own."""
    server = await start_server(nursery, ping_interval=1000, play_ping_interval=1000)
    settings = {**CLASSIC3, "lag_compensation": True}
    clients, table = await seat_players(server, nursery, THREE, settings)
    await set_position(table, clients, hands=HANDS, top="10H", stock="7C 8C", lag_compensation=True)
    steady_link(server, "Ann", 0.020)
    return server, clients


STRICT3 = {**CLASSIC3, "mau_window_minimum": False}  # the window as the seeds write it

"""Tournaments on a mock server: making one, reading it, its errors, registering
players and playing their tables on."""

from __future__ import annotations

import random
from typing import Any

import trio
import trio.testing
from wireclient import WireClient

from maumau.protocol.messages import (
    CreateTournament,
    Error,
    JoinTournament,
    Tournament,
)
from maumau.server.server import Server
from support.server_mock import connect
from support.wire import play_scripted

FAST = {"mau_window_ms": 100, "turn_timeout_s": 5, "reconnect_grace_s": 0}


def create(name: str = "Friday", **options: Any) -> CreateTournament:
    values: dict[str, Any] = {
        "settings": {"variant": "classic", "seats": 4, **FAST},
        "series": 2,
        "final": False,
        "bots": False,
        "late_join": True,
        "deals": 1,
    }
    values.update(options)
    return CreateTournament(name=name, **values)


async def tournament_of(
    client: WireClient, predicate=lambda t: True, timeout: float = 60
) -> Tournament:
    return await client.wait_for(
        lambda m: isinstance(m, Tournament) and predicate(m), timeout=timeout
    )


async def error_of(client: WireClient, timeout: float = 10) -> Error:
    return await client.wait_for(Error, timeout=timeout)


async def registered(server: Server, nursery: trio.Nursery, names: list[str], **options: Any):
    """A director (the first name) who makes a tournament, and everyone registered."""
    clients = [await connect(server, nursery, name) for name in names]
    await clients[0].send(create(**options))
    made = await tournament_of(clients[0])
    for client in clients:
        await client.send(JoinTournament(made.id))
        await tournament_of(client, lambda t, c=client: t.you is not None)
    return clients, made.id


async def play_on(clients: list[WireClient], nursery: trio.Nursery, seed: int = 1) -> None:
    """Each client plays whatever table it is seated at, series after series."""

    async def player(client: WireClient, rng: random.Random) -> None:
        while True:
            await play_scripted(client, rng, act_on_current=False)

    for i, client in enumerate(clients):
        nursery.start_soon(player, client, random.Random(seed + i))


def server_session(server: Server, name: str):
    return next(s for s in server.sessions.values() if s.name == name)


async def connect_with_secret(server: Server, nursery: trio.Nursery, name: str) -> WireClient:
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    return await WireClient.open(client_stream, name, None, f"secret-of-{name}-0123456789")

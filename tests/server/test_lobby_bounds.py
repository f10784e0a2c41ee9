"""The lobby stays bounded under a flood of connect, ``create_table``, close from one
address: open tables within the caps, a real table with a player listed first in a
newcomer's lobby, abandoned tables closed and seatless sessions forgotten (in memory
and in the database), restored ones too. Real TCP on 127.0.0.1, real SQLite files,
an in-process server; the last test runs ``scripts/flood-lobby`` against the real
``maumau-server``.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import trio
from wireclient import WireClient

from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CreateTable,
    Error,
    Hello,
    JoinTable,
    Lobby,
    StartMatch,
    TableInfo,
    View,
)
from maumau.server import bounds as bounds_module
from maumau.server import lobby as lobby_module
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from maumau.server.store import Store

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"variant": "american", "seats": 10}  # large summaries: few fit in a frame


async def serve_tcp(nursery: trio.Nursery, **options: object) -> tuple[Server, int]:
    store = options.pop("store", None)
    server = Server(ServerConfig(seed=2, bot_delay=0.0, **options), store)  # type: ignore[arg-type]
    port: int = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    return server, port


async def connect(port: int, name: str) -> WireClient:
    return await WireClient.connect("127.0.0.1", port, name)


async def create(client: WireClient, name: str, settings: dict = SETTINGS) -> str:
    """``client`` asks for a table: "table" if it got one, else the error's code."""
    await client.send(CreateTable(name, settings, ()))
    answer = await client.wait_for(
        lambda m: (
            (isinstance(m, TableInfo) and m.name == name and m.creator == client.name)
            or (isinstance(m, Error) and m.ref == "create_table")
        )
    )
    return "table" if isinstance(answer, TableInfo) else str(answer.code)


async def flood(
    server: Server, port: int, count: int, prefix: str, loops: int = 1
) -> tuple[Counter[str], int]:
    """The play-tester's loop, ``loops`` of them at once: connect, ``create_table``,
    close, ``count`` times in all. The outcomes, and the most tables that nobody
    connected was at after any iteration."""
    outcomes: Counter[str] = Counter()
    most = 0

    async def loop(first: int) -> None:
        nonlocal most
        for i in range(first, count, loops):
            client = await connect(port, f"{prefix}{i}")
            outcomes[await create(client, "flood")] += 1
            await client.aclose()
            left = sum(1 for t in server.tables.values() if not t.has_connected_humans())
            most = max(most, left)

    async with trio.open_nursery() as nursery:
        for first in range(loops):
            nursery.start_soon(loop, first)
    return outcomes, most


async def first_lobby(port: int, name: str) -> tuple[WireClient, Lobby]:
    """A new client, and the lobby frame it gets right after ``welcome``."""
    client = await connect(port, name)
    lobby: Lobby = await client.wait_for(Lobby)
    return client, lobby


def stored_sessions(store: Store) -> int:
    store.commit()
    return int(store.db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])


@pytest.mark.deadline(60)
async def test_a_flood_of_tables_stays_within_the_caps_and_goes_away(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    store = Store(tmp_path / "s.db")
    server, port = await serve_tcp(
        nursery, store=store, idle_timeout=1.0, tables_per_address=10, max_tables=50
    )
    real = await connect(port, "Real")
    assert await create(real, "Real table", {"seats": 4}) == "table"

    outcomes, most = await flood(server, port, 300, "flood", loops=4)
    assert outcomes["table"] >= 10 and outcomes["too_many_tables"] > 0
    assert set(outcomes) == {"table", "too_many_tables"}
    assert most <= 10  # the address's ten abandoned tables, at any moment

    _newcomer, lobby = await first_lobby(port, "Newcomer")
    assert lobby.tables[0]["name"] == "Real table"
    assert len(lobby.tables) + lobby.more <= 11 and lobby.more == 0
    seated = sum(1 for t in server.tables.values() for s in t.seats if s.session is not None)
    assert len(server.sessions) <= 2 + seated + 300  # nothing else is kept

    await trio.sleep(1.0 * 1.25 + 0.5)  # the idle timeout, and one look after it
    assert [t.name for t in server.tables.values()] == ["Real table"]
    assert sorted(s.name for s in server.sessions.values()) == ["Newcomer", "Real"]
    assert stored_sessions(store) == 2
    assert [r.name for r in store.open_tables()] == ["Real table"]


async def test_tables_with_people_come_first_in_a_full_lobby_frame(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A tenth of the frame's budget: about a dozen ten-seat tables fit, not a hundred,
    # so a short flood fills it (the flood above runs within the caps).
    monkeypatch.setattr(lobby_module, "LOBBY_BUDGET", lobby_module.LOBBY_BUDGET // 10)
    server, port = await serve_tcp(nursery, tables_per_address=10_000, max_tables=10_000)
    outcomes, _ = await flood(server, port, 40, "flood")
    assert outcomes == {"table": 40}
    real = await connect(port, "Real")
    assert await create(real, "Real table") == "table"  # the newest: listed last before
    _newcomer, lobby = await first_lobby(port, "Newcomer")
    assert lobby.more > 0, "the frame should be too small for every table"
    assert lobby.tables[0]["name"] == "Real table"
    assert all(t["name"] == "flood" for t in lobby.tables[1:])


async def test_the_server_wide_and_per_session_caps(nursery: trio.Nursery) -> None:
    server, port = await serve_tcp(nursery, max_tables=1, tables_per_session=2)
    ann = await connect(port, "Ann")
    assert await create(ann, "one") == "table"
    assert await create(ann, "two") == "table"  # leaving "one" closes it: it does not count
    carla = await connect(port, "Carla")
    assert await create(carla, "three") == "lobby_full"
    assert carla.table is None and len(server.tables) == 1  # the refusal changed nothing

    server.max_tables = 100
    two = next(t.id for t in server.tables.values() if t.name == "two")
    await carla.send(JoinTable(two))
    await carla.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    assert await create(ann, "five") == "table"  # "two" stays: Carla holds it now
    dirk = await connect(port, "Dirk")
    five = next(t.id for t in server.tables.values() if t.name == "five")
    await dirk.send(JoinTable(five))
    await dirk.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    assert await create(ann, "six") == "too_many_tables"  # "two" and "five" wait
    await carla.send(StartMatch())
    await carla.wait_for(View)
    assert await create(ann, "six") == "table"  # "two" is playing now


async def test_restored_tables_and_sessions_obey_the_same_reaping(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    async with trio.open_nursery() as first:
        store = Store(path)
        _, port = await serve_tcp(first, store=store)
        dora = await connect(port, "Dora")
        assert await create(dora, "Dora's") == "table"
        bob = await connect(port, "Bob")
        await bob.wait_for(Lobby)
        first.cancel_scope.cancel()  # the server stops; Dora keeps her seat
    store.close()
    assert dora.welcome is not None

    store = Store(path)
    server, port = await serve_tcp(nursery, store=store, idle_timeout=0.5)
    assert len(server.tables) == 1 and len(server.sessions) == 2
    await trio.sleep(0.5 * 1.25 + 0.3)
    assert server.tables == {} and server.sessions == {}
    assert store.open_tables() == [] and stored_sessions(store) == 0
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    late = WireClient(stream, "Dora")
    await late.send(Hello(PROTOCOL_VERSION, "Dora", dora.welcome.resume))
    assert (await late.wait_for(Error)).code == "unknown_resume"


async def test_dropped_sessions_without_a_seat_are_capped(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bounds_module, "LINGERING_MAX", 5)
    server, port = await serve_tcp(nursery)
    for i in range(20):
        client = await connect(port, f"visitor{i}")
        await client.aclose()
    with trio.fail_after(5):
        while any(s.connected for s in server.sessions.values()):
            await trio.sleep(0.01)
    assert len(server.sessions) == 20
    server.reap()
    assert sorted(s.name for s in server.sessions.values()) == [
        f"visitor{i}" for i in range(15, 20)
    ]


def test_the_flood_script_runs_against_the_real_server() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "flood-lobby"),
            "--seconds",
            "2",
            "--idle-timeout",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=80,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    checks = next(line["checks"] for line in lines if "checks" in line)
    assert all(checks.values()), (checks, result.stdout, result.stderr[-2000:])
    flood_line = next(line["flood"] for line in lines if "flood" in line)
    assert flood_line["iterations"] > 30
    assert result.returncode == 0

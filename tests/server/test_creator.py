"""A table belongs to its creator's session, not to a name: over real TCP, with a real
SQLite file, and across a restart of the real ``maumau-server``.

The bug this guards against: Dora creates a table and leaves; a new connection that
merely calls itself Dora sends ``start_match`` and the match starts. Now the table
passes to the next seated player when its creator leaves, and only the creator's own
session (taken back with its resume token or the name's secret) may start it.
"""

from __future__ import annotations

import functools
import json
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CreateTable,
    Error,
    Hello,
    JoinTable,
    LeaveTable,
    Lobby,
    Message,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
)
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from maumau.server.session import Session
from maumau.server.store import SCHEMA, SCHEMA_VERSION, Store, digest
from maumau.server.table import TableError
from support.crash_recovery import start
from support.wire import free_port

DORA = "dora-secret-0123456789"
BOB = "bob-secret-0123456789"
GUS = "gus-secret-0123456789"


async def serve_tcp(nursery: trio.Nursery, store: Store) -> int:
    server = Server(ServerConfig(seed=3, bot_delay=0.0), store)
    port: int = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    return port


def info_where(check: object) -> object:
    """A ``wait_for`` predicate: a ``table`` message for which ``check`` holds."""
    return lambda m: isinstance(m, TableInfo) and check(m)  # type: ignore[operator]


async def refused(port: int, name: str, secret: str | None = None) -> Error:
    """The fatal error a hello gets (and the server closes the connection)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    client = WireClient(stream, name)
    await client.send(Hello(PROTOCOL_VERSION, name, None, secret))
    error: Error = await client.wait_for(Error)
    assert error.fatal
    with pytest.raises(ServerClosed):
        while True:
            await client.receive()
    return error


async def make_table(port: int, creator: str, secret: str | None, joiner: str) -> tuple:
    """``creator`` makes a three-seat table and ``joiner`` (with a secret) sits down."""
    owner = await WireClient.connect("127.0.0.1", port, creator, secret=secret)
    await owner.send(CreateTable(f"{creator}'s", {"seats": 3}, ()))
    info = await owner.wait_for(TableInfo)
    assert info.creator == creator
    guest = await WireClient.connect("127.0.0.1", port, joiner, secret=joiner + "-secret-0123456")
    await guest.send(JoinTable(info.id, 1))
    await guest.wait_for(info_where(lambda m: m.you == 1))
    return owner, guest, info.id


async def starts(client: WireClient) -> None:
    """``client`` sends ``start_match`` and the match starts."""
    await client.send(StartMatch())
    message: Message = await client.wait_for(lambda m: isinstance(m, View | Error))
    assert isinstance(message, View), message


async def not_creator(client: WireClient) -> None:
    await client.send(StartMatch())
    error = await client.wait_for(Error)
    assert error.code == "not_creator", error


async def test_after_the_creator_leaves_a_namesake_cannot_start_the_table(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port = await serve_tcp(nursery, Store(tmp_path / "s.db"))
    dora, bob, table_id = await make_table(port, "Dora", None, "Bob")
    await dora.send(LeaveTable())
    await dora.wait_for(Lobby)
    handed = await bob.wait_for(info_where(lambda m: m.creator == "Bob"))
    assert handed.you == 1 and handed.seats[0]["name"] is None
    await dora.aclose()  # gone; the name is anybody's again (it has no secret)

    namesake = await WireClient.connect("127.0.0.1", port, "Dora")
    assert namesake.welcome is not None and not namesake.welcome.resumed
    await namesake.send(JoinTable(table_id, 0))
    await namesake.wait_for(info_where(lambda m: m.you == 0))
    await not_creator(namesake)
    await starts(bob)


async def test_the_creator_keeps_the_table_while_disconnected_and_takes_it_back(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port = await serve_tcp(nursery, Store(tmp_path / "s.db"))
    dora, bob, _ = await make_table(port, "Dora", DORA, "Bob")
    await dora.aclose()
    info = await bob.wait_for(info_where(lambda m: not m.seats[0]["connected"]))
    assert info.creator == "Dora"
    await not_creator(bob)
    assert (await refused(port, "Dora")).code == "name_reserved"

    back = await WireClient.connect("127.0.0.1", port, "Dora", secret=DORA)  # no token
    assert back.welcome is not None and back.welcome.resumed
    await starts(back)

    # The token works as well as the secret.
    carla, fritz, _ = await make_table(port, "Carla", None, "Fritz")
    assert carla.welcome is not None
    await carla.aclose()
    await fritz.wait_for(info_where(lambda m: not m.seats[0]["connected"]))
    assert (await refused(port, "Carla")).code == "name_taken"  # she keeps her seat
    resumed = await WireClient.connect("127.0.0.1", port, "Carla", resume=carla.welcome.resume)
    await starts(resumed)


async def test_the_creator_is_a_session_id_not_a_name(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    server = Server(ServerConfig(seed=3, bot_delay=0.0), Store(tmp_path / "s.db"))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    dora, _, table_id = await make_table(port, "Dora", None, "Bob")
    table = server.tables[table_id]
    assert dora.welcome is not None and table.creator_session == dora.welcome.session
    namesake = Session("0123456789abcdef", "Dora", "some-token")
    with pytest.raises(TableError) as refusal:
        table.start(namesake)
    assert refusal.value.code == "not_creator"
    assert server.store is not None
    server.commit()
    (stored,) = server.store.db.execute(
        "SELECT creator_session FROM tables WHERE id=?", (table_id,)
    ).fetchone()
    assert stored == dora.welcome.session


def stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


@pytest.mark.deadline(90)
async def test_the_creator_rule_holds_across_a_restart_of_the_real_server(
    tmp_path: Path,
) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    process = start(db, port)
    try:
        dora, _bob, _ = await make_table(port, "Dora", DORA, "Bob")
        carla, fritz, carlas_table = await make_table(port, "Carla", None, "Fritz")
        gus, _hal, _ = await make_table(port, "Gus", GUS, "Hal")
        # Bots fill every seat: Ivy only watches her table (with Jon), so no seat of
        # hers names her session; only the table's record does.
        ivy = await WireClient.connect("127.0.0.1", port, "Ivy", secret="ivy-secret-0123456789")
        await ivy.send(CreateTable("Ivy's", {"seats": 2}, (0, 1)))
        ivys_table = (await ivy.wait_for(info_where(lambda m: m.you is None))).id
        jon = await WireClient.connect("127.0.0.1", port, "Jon")
        await jon.send(WatchTable(ivys_table))
        await ivy.wait_for(info_where(lambda m: "Jon" in m.spectators))
        await carla.send(LeaveTable())
        await fritz.wait_for(info_where(lambda m: m.creator == "Fritz"))
        assert dora.welcome is not None and fritz.welcome is not None
        assert ivy.welcome is not None
        tokens = {"Dora": dora.welcome.resume, "Fritz": fritz.welcome.resume}
        tokens["Ivy"] = ivy.welcome.resume
        for client in (dora, carla, gus, ivy):
            await client.aclose()
        await trio.sleep(0.3)  # all committed
        process.send_signal(signal.SIGKILL)  # a crash: nobody's leaving is seen
        process.wait(10)

        process = start(db, port)
        assert (await refused(port, "Dora")).code == "name_reserved"
        namesake = await WireClient.connect("127.0.0.1", port, "Carla")
        await namesake.send(JoinTable(carlas_table, 0))
        await namesake.wait_for(info_where(lambda m: m.you == 0 and m.creator == "Fritz"))
        await not_creator(namesake)
        fritz = await WireClient.connect("127.0.0.1", port, "Fritz", resume=tokens["Fritz"])
        await starts(fritz)
        dora = await WireClient.connect("127.0.0.1", port, "Dora", resume=tokens["Dora"])
        await starts(dora)
        gus = await WireClient.connect("127.0.0.1", port, "Gus", secret=GUS)
        assert gus.welcome is not None and gus.welcome.resumed
        await starts(gus)
        ivy = await WireClient.connect("127.0.0.1", port, "Ivy", resume=tokens["Ivy"])
        await ivy.wait_for(info_where(lambda m: m.you is None and m.creator == "Ivy"))
        await starts(ivy)
    finally:
        if process.poll() is None:
            stop(process)


def older_database(path: Path, version: str) -> None:
    """A database as schema ``version`` (1 or 2) left it: ``tables`` without
    ``creator_session``, one open waiting table where Dora (by her session) sits at
    seat 0 and Bob at seat 1, both sessions kept."""
    old_schema = SCHEMA.replace(",\n    creator_session TEXT", "")
    assert old_schema != SCHEMA
    seats = [
        {"name": "Dora", "bot": False, "level": "normal", "away": False, "ready": False,
         "session": "d0d0d0d0d0d0d0d0"},
        {"name": "Bob", "bot": False, "level": "normal", "away": False, "ready": False,
         "session": "b0b0b0b0b0b0b0b0"},
        {"name": None, "bot": False, "level": "normal", "away": False, "ready": False,
         "session": None},
    ]  # fmt: skip
    with sqlite3.connect(path) as db:
        db.executescript(old_schema)
        db.execute("INSERT INTO meta VALUES ('schema', ?)", (version,))
        db.execute(
            "INSERT INTO tables VALUES (1, 'Old', ?, 'Dora', NULL, 'waiting', ?, 4, NULL, 1)",
            (json.dumps({"variant": "classic", "seats": 3}), json.dumps(seats)),
        )
        for token, session_id, name in (
            ("dora-token", "d0d0d0d0d0d0d0d0", "Dora"),
            ("bob-token", "b0b0b0b0b0b0b0b0", "Bob"),
        ):
            db.execute(
                "INSERT INTO sessions VALUES (?, ?, ?, 1, strftime('%s','now'))",
                (digest(token), session_id, name),
            )
    db.close()


@pytest.mark.parametrize("version", ["1", "2"])
async def test_an_older_database_is_upgraded_in_place_and_its_creator_found_by_seat(
    nursery: trio.Nursery, tmp_path: Path, version: str
) -> None:
    path = tmp_path / "old.db"
    older_database(path, version)
    store = Store(path)
    columns = [row[1] for row in store.db.execute("PRAGMA table_info(tables)")]
    assert columns[-1] == "creator_session"
    (schema,) = store.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    assert schema == str(SCHEMA_VERSION) == "6"
    assert store.tournaments() == []  # version 4's table is there, empty
    (record,) = store.open_tables()
    assert record.creator == "Dora" and record.creator_session is None

    port = await serve_tcp(nursery, store)
    bob = await WireClient.connect("127.0.0.1", port, "Bob", resume="bob-token")
    info = await bob.wait_for(TableInfo)
    assert info.creator == "Dora"
    await not_creator(bob)
    dora = await WireClient.connect("127.0.0.1", port, "Dora", resume="dora-token")
    await starts(dora)
    store.commit()
    (stored,) = store.db.execute("SELECT creator_session FROM tables WHERE id=1").fetchone()
    assert stored == "d0d0d0d0d0d0d0d0"

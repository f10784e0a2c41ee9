"""The host keeps order: the host key and ``--admin`` names bring the host's powers
and nothing else does (every host message from a guest and from a spoofed name is
refused), kick, mute, bans (by name and address, for the server's life and for
good, across a restart), closing a table or a tournament, the server password and
announcements (protocol clients on memory streams, the mock clock; docs/protocol.md,
"The host")."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from wireclient import Refused, WireClient

from maumau.protocol import host_key
from maumau.protocol.messages import (
    BANS_MAX,
    Announce,
    Ban,
    CancelTournament,
    Chat,
    ChatLine,
    CloseTable,
    CreateTable,
    Error,
    Goodbye,
    HostList,
    HostView,
    JoinTable,
    JoinTournament,
    Kick,
    Lobby,
    Message,
    Mute,
    Notice,
    SetPassword,
    StartMatch,
    TableInfo,
    Unban,
    View,
)
from maumau.server.host_rights import HostRights, key_file
from maumau.server.server import Server
from maumau.server.store import Store
from support.server_mock import start_server
from support.tournament_server import create, tournament_of

KEY = bytes(range(32))
WIRE_HOST = "('192.168.1.10', 50000)"  # where the guests' connections come from


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def arrive(
    server: Server,
    nursery: trio.Nursery,
    name: str,
    peer: str = WIRE_HOST,
    **hello: Any,
) -> WireClient:
    """A client from ``peer`` that says hello (with ``hello``'s extra fields)."""
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.connections.handle, server_stream, peer)
    return await WireClient.open(client_stream, name, **hello)


async def refused(server: Server, nursery: trio.Nursery, name: str, **hello: Any) -> Error:
    """The refusal of a hello (which must be refused)."""
    with pytest.raises(Refused) as caught:
        await arrive(server, nursery, name, **hello)
    assert caught.value.error.fatal
    return caught.value.error


async def host(server: Server, nursery: trio.Nursery, name: str = "Hana") -> WireClient:
    """The host, on the server's own machine, proving the key."""
    client = await arrive(
        server,
        nursery,
        name,
        "('127.0.0.1', 40000)",
        host_proof=host_key.make(KEY, name, time.time()),
    )
    assert client.welcome is not None and client.welcome.host
    return client


async def answer(client: WireClient, kind: type[Message] = Error) -> Any:
    return await client.wait_for(kind)


async def view_of(client: WireClient) -> HostView:
    await client.send(HostList())
    return await answer(client, HostView)


def session_id(server: Server, name: str) -> str:
    return next(s.id for s in server.lobby.sessions.values() if s.name == name)


HOST_REQUESTS: list[Message] = [
    HostList(),
    Kick("0123456789abcdef", "go"),
    Mute("0123456789abcdef", 60),
    Ban("name", "Zed", "life"),
    Ban("address", "10.0.0.9", "ever"),
    Unban("name", "Zed"),
    CloseTable(1, "closing"),
    SetPassword("letmein"),
    SetPassword(None),
    Announce("free beer"),
]


async def test_a_guest_and_spoofed_names_reach_none_of_the_hosts_powers(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Every host message is ``not_host`` to a guest; so it is to a session called by
    the ``--admin`` name without its secret (or by a look-alike of it), to one with
    a proof of another key, to one that replays the host's own proof, and to one
    whose proof is stale."""
    store = Store(tmp_path / "h.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, host_key=KEY, admins=["Hana"])
        # The first hello with a secret claims the name; only a name claimed before
        # it proves anything (else whoever came first as Hana would be the host).
        first = await arrive(server, nursery, "Hana", secret="secret-of-Hana-0123456789")
        assert first.welcome is not None and not first.welcome.host
        await first.send(HostList())
        assert (await answer(first)).code == "not_host"
        await first.aclose()
        await trio.sleep(1)
        owner = await arrive(server, nursery, "Hana", secret="secret-of-Hana-0123456789")
        assert owner.welcome is not None and owner.welcome.host  # --admin, with its secret
        await owner.aclose()
        proof = host_key.make(KEY, "Olga", time.time())
        real = await arrive(server, nursery, "Olga", host_proof=proof)
        assert real.welcome is not None and real.welcome.host
        guests = [
            await arrive(server, nursery, "Gus"),
            await arrive(
                server, nursery, "Kim", host_proof=host_key.make(bytes(32), "Kim", time.time())
            ),
            await arrive(server, nursery, "Olga2", host_proof=proof),  # overheard, for another name
            await arrive(
                server, nursery, "Pia", host_proof=host_key.make(KEY, "Pia", time.time() - 900)
            ),
        ]
        # Without the secret, the name and its look-alikes (a Cyrillic a) are no way in.
        for spoof in ("Hana", "Hаna"):
            assert (await refused(server, nursery, spoof)).code == "name_reserved"
        error = await refused(server, nursery, "Hana", secret="secret-of-Zed-0123456789")
        assert error.code == "name_reserved"
        for guest in guests:
            assert guest.welcome is not None and not guest.welcome.host
            for request in HOST_REQUESTS:
                await guest.send(request)
                error = await answer(guest)
                assert (error.code, error.ref) == ("not_host", request.TYPE)
        # The replayed proof, whole (same name and nonce), is spent.
        await real.aclose()
        await trio.sleep(1)
        again = await arrive(server, nursery, "Olga", host_proof=proof)
        assert again.welcome is not None and not again.welcome.host
        await guests[0].send(CreateTable("T", {"seats": 2}, ()))
        await answer(guests[0], TableInfo)
        table = next(iter(server.tables.values()))
        await guests[0].send(CloseTable(table.id))
        assert (await answer(guests[0])).code == "not_host"
        assert not table.closed
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(600)
async def test_the_host_lists_kicks_and_mutes(autojump_clock: trio.testing.MockClock) -> None:
    """``host_view`` lists who is connected, from where, at which table, how fast
    they send; a kicked guest is told by whom and why and its session is gone; a
    muted one is told, cannot chat until the time is over, and can after."""
    async with trio.open_nursery() as nursery:
        # (pinged once only: the clients read nothing while the mute runs out)
        server = await start_server(nursery, host_key=KEY, ping_interval=1000)
        hana = await host(server, nursery)
        zed = await arrive(server, nursery, "Zed", "('192.168.1.66', 1234)")
        amy = await arrive(server, nursery, "Amy")
        await amy.send(CreateTable("Amy's", {"seats": 2}, ()))
        info = await answer(amy, TableInfo)
        for _ in range(5):
            await zed.send(Chat("lobby", "spam"))
        await trio.sleep(2)
        shown = await view_of(hana)
        lines = {line["name"]: line for line in shown.connections}
        assert set(lines) == {"Hana", "Zed", "Amy"} and shown.connections_total == 3
        assert lines["Zed"]["address"] == "192.168.1.66"
        assert lines["Amy"]["table"] == info.id and "table" not in lines["Zed"]
        assert lines["Zed"]["rate"] > lines["Amy"]["rate"]
        assert lines["Hana"]["host"] and not lines["Zed"]["host"]
        assert lines["Zed"]["since"] >= 2 and not shown.password

        await hana.send(Mute(session_id(server, "Amy"), 120, "[b]calm down[/b]"))
        told = await answer(amy, Notice)
        assert (told.kind, told.by, told.text, told.seconds) == (
            "muted",
            "Hana",
            "[b]calm down[/b]",
            120,
        )
        await amy.send(Chat("table", "hello?"))
        error = await answer(amy)
        assert error.code == "muted" and 100 < error.details["seconds"] <= 120
        assert (await view_of(hana)).connections[2]["muted"] > 100
        await trio.sleep(121)
        await amy.send(Chat("table", "back"))
        line = await answer(amy, ChatLine)
        assert line.text == "back"

        zed_key = session_id(server, "Zed")
        await hana.send(Kick(zed_key, "flooding the chat"))
        bye = await answer(zed, Goodbye)
        assert (bye.code, bye.by, bye.note) == ("kicked", "Hana", "flooding the chat")
        assert all(s.id != zed_key for s in server.lobby.sessions.values())
        # It may come back, as a newcomer.
        await arrive(server, nursery, "Zed", "('192.168.1.66', 1235)")
        # The host cannot send itself away.
        await hana.send(Kick(session_id(server, "Hana")))
        error = await answer(hana)
        assert (error.code, error.details) == ("bad_target", {"why": "own"})
        nursery.cancel_scope.cancel()


async def test_a_ban_for_good_holds_across_a_restart_and_one_for_life_does_not(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """A name ban sends its holder away and keeps out its look-alikes; an address
    ban keeps out every name from there; the server's own machine cannot be banned
    by address; after a restart only the bans for good hold, and lifting one lets
    its name in again."""
    path = tmp_path / "bans.db"
    store = Store(path)
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, host_key=KEY)
        server.restore()
        hana = await host(server, nursery)
        zed = await arrive(server, nursery, "Zed", "('192.168.1.66', 1)")
        await hana.send(Ban("name", "Zed", "ever", "cheating"))
        bye = await answer(zed, Goodbye)
        assert (bye.code, bye.by, bye.note) == ("banned", "Hana", "cheating")
        for name in ("Zed", "ZED", "Zеd"):  # (a Cyrillic e)
            error = await refused(server, nursery, name)
            assert (error.code, error.details["why"]) == ("banned", "name")
        await hana.send(Ban("address", "127.0.0.1", "life"))
        assert (await answer(hana)).details == {"why": "loopback"}
        await hana.send(Ban("address", "not an address", "life"))
        assert (await answer(hana)).code == "bad_target"
        await hana.send(Ban("address", "192.168.1.77", "life"))
        await answer(hana, HostView)
        error = await refused(server, nursery, "Newby", peer="('192.168.1.77', 9)")
        assert (error.code, error.details) == ("banned", {"why": "address"})
        await hana.send(Ban("name", "Max", "life"))
        bans = (await answer(hana, HostView)).bans
        assert [(b["what"], b["target"], b["lasting"], b["by"]) for b in bans] == [
            ("name", "Zed", "ever", "Hana"),
            ("address", "192.168.1.77", "life", "Hana"),
            ("name", "Max", "life", "Hana"),
        ]
        store.commit()
        nursery.cancel_scope.cancel()
    store.close()

    store = Store(path)
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, host_key=KEY)
        server.restore()
        assert (await refused(server, nursery, "zed")).code == "banned"
        await arrive(server, nursery, "Max")
        await arrive(server, nursery, "Newby", peer="('192.168.1.77', 9)")
        hana = await host(server, nursery)
        await hana.send(Unban("name", "ZED"))
        assert [b["target"] for b in (await answer(hana, HostView)).bans] == []
        await arrive(server, nursery, "Zed")
        store.commit()
        nursery.cancel_scope.cancel()
    store.close()
    store = Store(path)
    assert store.bans() == []
    store.close()


@pytest.mark.deadline(600)
async def test_bans_have_an_end(autojump_clock: trio.testing.MockClock) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, host_key=KEY)
        hana = await host(server, nursery)
        await hana.send(Ban("name", "x", "ever"))  # no database: for the server's life only
        assert (await answer(hana)).code == "no_store"
        for n in range(BANS_MAX):
            await trio.sleep(0.1)  # (within the rate limit)
            await hana.send(Ban("name", f"pest{n}", "life"))
            await answer(hana, HostView)
        await hana.send(Ban("name", "one-more", "life"))
        error = await answer(hana)
        assert (error.code, error.details) == ("too_many_bans", {"limit": BANS_MAX})
        await hana.send(Ban("name", "pest3", "life", "again"))  # a ban renewed is no new one
        await answer(hana, HostView)
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(600)
async def test_the_server_password(autojump_clock: trio.testing.MockClock) -> None:
    """Newcomers must give it; a resumed session, the host, and a session of the
    name's secret need not; the host sets and clears it at run time; one address
    guesses wrong ten times a minute at most."""
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, host_key=KEY, password="swordfish")
        assert (await refused(server, nursery, "Ann")).code == "password_required"
        error = await refused(server, nursery, "Ann", password="salmon")
        assert error.code == "wrong_password"
        ann = await arrive(server, nursery, "Ann", password="swordfish")
        assert ann.welcome is not None
        await ann.aclose()
        await trio.sleep(1)
        back = await arrive(server, nursery, "Ann", resume=ann.welcome.resume)
        assert back.welcome is not None and back.welcome.resumed
        hana = await host(server, nursery)
        await hana.send(SetPassword(None))
        assert not (await answer(hana, HostView)).password
        await arrive(server, nursery, "Bea")
        await hana.send(SetPassword("tuna"))
        assert (await answer(hana, HostView)).password
        assert (await refused(server, nursery, "Cid", password="swordfish")).code == (
            "wrong_password"
        )
        for _ in range(8):  # ten wrong in all from this address
            await refused(server, nursery, "Cid", password="guess")
        error = await refused(server, nursery, "Cid", password="tuna")
        assert error.code == "too_many_tries"
        other = await arrive(server, nursery, "Dot", "('192.168.1.99', 3)", password="tuna")
        assert other.welcome is not None
        await trio.sleep(61)
        await arrive(server, nursery, "Cid", password="tuna")
        nursery.cancel_scope.cancel()


async def test_the_host_closes_a_running_table_and_a_tournament(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """The players of a closed table are told why and are in the lobby, the table is
    gone and its match is recorded as abandoned; a tournament's table is closed by
    cancelling the tournament, whose players are told why; an announcement reaches
    everyone."""
    store = Store(tmp_path / "c.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, host_key=KEY)
        hana = await host(server, nursery)
        ann = await arrive(server, nursery, "Ann")
        bob = await arrive(server, nursery, "Bob")
        await ann.send(CreateTable("Ann's", {"seats": 2}, ()))
        info = await answer(ann, TableInfo)
        await bob.send(JoinTable(info.id, 1))
        await answer(bob, TableInfo)
        await ann.send(StartMatch())
        await answer(ann, View)
        match_id = server.tables[info.id].match_id
        await hana.send(CloseTable(info.id, "time for dinner"))
        for player in (ann, bob):
            notice = await answer(player, Notice)
            assert (notice.kind, notice.by, notice.text, notice.table) == (
                "table_closed",
                "Hana",
                "time for dinner",
                info.id,
            )
            lobby = await answer(player, Lobby)
            assert all(t["id"] != info.id for t in lobby.tables)
        assert info.id not in server.tables
        assert all(s.table is None for s in server.lobby.sessions.values())
        store.commit()
        row = store.db.execute(
            "SELECT finished, abandoned FROM matches WHERE id=?", (match_id,)
        ).fetchone()
        assert row[0] is None and "time for dinner" in row[1] and "Hana" in row[1]

        await ann.send(create())
        made = await tournament_of(ann)
        await bob.send(JoinTournament(made.id))
        await tournament_of(bob, lambda t: t.you is not None)
        await hana.send(CancelTournament(made.id, "the room closes"))
        notice = await answer(bob, Notice)
        assert (notice.kind, notice.text, notice.tournament) == (
            "tournament_cancelled",
            "the room closes",
            made.id,
        )
        assert (await tournament_of(ann, lambda t: t.state == "cancelled")).id == made.id

        await hana.send(Announce("last round at midnight"))
        for person in (ann, bob, hana):
            notice = await answer(person, Notice)
            assert (notice.kind, notice.by, notice.text) == (
                "announcement",
                "Hana",
                "last round at midnight",
            )
        nursery.cancel_scope.cancel()


def test_the_host_key_file_is_the_users_alone(tmp_path: Path) -> None:
    path = tmp_path / "data" / "host.key"
    key = key_file(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key_file(path) == key  # kept
    os.chmod(path, 0o644)  # others could read it: it is replaced
    fresh = key_file(path)
    assert fresh != key and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("not a key")
    os.chmod(path, 0o600)
    assert key_file(path) != fresh


def test_a_proof_counts_once_and_only_near_the_servers_time() -> None:
    from maumau.protocol.messages import Hello

    now = 1_800_000_000.0
    rights = HostRights(KEY, clock=lambda: now)
    rights.started = now - 120
    proof = host_key.make(KEY, "Hana", now - 60)
    assert rights.proves_key(Hello(9, "Hana", host=proof), "peer")
    assert not rights.proves_key(Hello(9, "Hana", host=proof), "peer")  # spent
    assert not rights.proves_key(Hello(9, "Hana", host=host_key.make(KEY, "Hana", now + 400)), "")
    assert not rights.proves_key(Hello(9, "Ivo", host=host_key.make(KEY, "Hana", now)), "")
    assert rights.proves_key(Hello(9, "Ivo", host=host_key.make(KEY, "Ivo", now)), "")
    # A proof made before the server started was for an earlier run of it (whose
    # spent nonces this run never saw): refused.
    later = HostRights(KEY, clock=lambda: now + 100)
    assert not later.proves_key(Hello(9, "Hana", host=host_key.make(KEY, "Hana", now + 99)), "")
    assert later.proves_key(Hello(9, "Hana", host=host_key.make(KEY, "Hana", now + 100)), "")

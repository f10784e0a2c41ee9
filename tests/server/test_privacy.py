"""The matches of a table with a password stay private: ``list_matches`` and
``get_replay`` give them only to those who sat there (proven by their name's secret)
or, for a replay, to whoever sends the table's password. To anybody else they do not
exist. Real TCP on 127.0.0.1, a real SQLite file, an in-process server (restarted on
the same file where a test says so).
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import trio
from wireclient import WireClient

from maumau.protocol.messages import (
    Bye,
    CreateTable,
    Error,
    GetReplay,
    JoinTable,
    ListMatches,
    Matches,
    Message,
    Replay,
    StartMatch,
    TableInfo,
    View,
)
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from maumau.server.store import Store
from support.wire import play_scripted

FAST = {"target_score": 1, "mau_window_ms": 100}
SECRETS = {name: f"{name.lower()}-secret-0123456789" for name in ("Ann", "Bob", "Mal", "Nora")}


async def serve_tcp(nursery: trio.Nursery, store: Store) -> int:
    server = Server(ServerConfig(seed=11, bot_delay=0.0), store)
    port: int = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    return port


async def connect(port: int, name: str, secret: bool = True, resume: str | None = None):
    return await WireClient.connect(
        "127.0.0.1", port, name, resume=resume, secret=SECRETS[name] if secret else None
    )


async def play_a_match(players: list[WireClient], password: str | None) -> int:
    """The first player makes a table (a bot in every seat the others leave), the
    others join, and all play one round to the match's end; the match's id."""
    first = players[0]
    seats = max(2, len(players))
    bots = tuple(range(len(players), seats))
    await first.send(CreateTable("T", {"seats": seats, **FAST}, bots, password))
    info = await first.wait_for(TableInfo)
    for seat, other in enumerate(players[1:], start=1):
        await other.send(JoinTable(info.id, seat, password))
        await other.wait_for(lambda m, s=seat: isinstance(m, TableInfo) and m.you == s)
    await first.send(StartMatch())
    async with trio.open_nursery() as nursery:
        for seat, player in enumerate(players):
            nursery.start_soon(play_scripted, player, random.Random(seat))
    await first.send(ListMatches(mine=True))
    listed = (await first.wait_for(Matches)).matches
    return int(listed[0]["id"])


async def listed(client: WireClient, mine: bool = False) -> set[int]:
    await client.send(ListMatches(mine=mine))
    return {m["id"] for m in (await client.wait_for(Matches)).matches}


async def replay(client: WireClient, match: int, password: str | None = None) -> Message:
    """The answer to a ``get_replay``: a ``replay`` or an ``error``."""
    await client.send(GetReplay(match, 0, 5, password))
    message: Message = await client.wait_for(lambda m: isinstance(m, Replay | Error))
    return message


def no_such_match(message: Message) -> bool:
    return isinstance(message, Error) and message.code == "no_such_match"


async def test_only_the_players_or_the_password_open_a_private_match(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port = await serve_tcp(nursery, Store(tmp_path / "s.db"))
    ann = await connect(port, "Ann")
    nora = await connect(port, "Nora", secret=False)  # sat there, but proves nothing
    private = await play_a_match([ann, nora], "pw")
    bob = await connect(port, "Bob")
    public = await play_a_match([bob], None)
    mal = await connect(port, "Mal")

    assert await listed(ann) == {private, public}
    assert await listed(ann, mine=True) == {private}
    assert isinstance(await replay(ann, private), Replay)  # now in the replay cache

    for outsider in (mal, bob, nora):
        assert await listed(outsider) == {public}
        assert no_such_match(await replay(outsider, private))
        assert no_such_match(await replay(outsider, private, "wrong"))
        answer = await replay(outsider, private, "pw")
        assert isinstance(answer, Replay) and answer.match == private
        assert len(answer.steps[0]["hands"]) == 2
    assert await listed(nora, mine=True) == set()
    assert isinstance(await replay(mal, public), Replay)
    assert isinstance(await replay(mal, public, "anything"), Replay)
    assert no_such_match(await replay(mal, private + public + 1))

    # A resumed session keeps what its first hello proved.
    assert ann.welcome is not None
    await ann.aclose()
    again = await connect(port, "Ann", secret=False, resume=ann.welcome.resume)
    assert await listed(again) == {private, public}


async def test_a_running_private_match_is_not_revealed_either(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    store = Store(tmp_path / "s.db")
    port = await serve_tcp(nursery, store)
    ann = await connect(port, "Ann")
    await ann.send(CreateTable("T", {"seats": 2}, (1,), "pw"))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    await ann.wait_for(View)
    (running,) = [row[0] for row in store.db.execute("SELECT id FROM matches")]
    mal = await connect(port, "Mal")
    assert no_such_match(await replay(mal, running))
    answer = await replay(mal, running, "pw")
    assert isinstance(answer, Error) and answer.code == "match_running"
    answer = await replay(ann, running)
    assert isinstance(answer, Error) and answer.code == "match_running"


async def test_a_name_claimed_after_the_match_does_not_open_it(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port = await serve_tcp(nursery, Store(tmp_path / "s.db"))
    ann = await connect(port, "Ann")
    nora = await connect(port, "Nora", secret=False)
    private = await play_a_match([ann, nora], "pw")
    await nora.send(Bye())
    await trio.sleep(0.2)
    claimer = await connect(port, "Nora")  # claims the free name with a secret now
    assert claimer.welcome is not None and not claimer.welcome.resumed
    assert await listed(claimer) == set()
    assert no_such_match(await replay(claimer, private))


async def test_the_secret_is_checked_again_after_a_restart(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    async with trio.open_nursery() as first:
        store = Store(path)
        port = await serve_tcp(first, store)
        ann = await connect(port, "Ann")
        private = await play_a_match([ann], "pw")
        assert ann.welcome is not None
        token = ann.welcome.resume
        first.cancel_scope.cancel()
    store.close()

    port = await serve_tcp(nursery, Store(path))
    without = await connect(port, "Ann", secret=False, resume=token)
    assert await listed(without) == set()  # a token alone proves no name after a restart
    assert no_such_match(await replay(without, private))
    await without.aclose()
    proven = await connect(port, "Ann", resume=token)
    assert proven.welcome is not None and proven.welcome.resumed
    assert await listed(proven) == {private}
    assert isinstance(await replay(proven, private), Replay)

"""What the server keeps in its store: finished matches, statistics, replays, names
reserved by secrets, and bot levels. In-process server, virtual time."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    CreateTable,
    Error,
    GetReplay,
    GetStats,
    Hello,
    ListMatches,
    ListTables,
    Lobby,
    Matches,
    Rematch,
    Replay,
    StartMatch,
    Stats,
    TableInfo,
    View,
    WatchTable,
)
from maumau.protocol.sentences import event_line
from maumau.server.store import Store
from support.server_mock import connect, seat_players, start_server


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def finish_a_match(server, nursery, bots: tuple[int, ...] = (1,)) -> tuple[WireClient, View]:
    settings = {"variant": "classic", "seats": 1 + len(bots), "target_score": 1}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=bots)
    table.seats[0].away = True  # a bot plays Ann's seat too
    table.schedule.update()
    view = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "match_over", 600)
    return ann, view


async def test_finished_match_is_listed_ranked_and_replayable(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    store = Store(tmp_path / "s.db")
    server = await start_server(nursery, bot_delay=0.1, store=store)
    ann, final = await finish_a_match(server, nursery)

    await ann.send(ListMatches())
    (summary,) = (await ann.wait_for(Matches)).matches
    assert summary["names"] == ("Ann", "Ada*") and summary["bots"] == (False, True)
    assert summary["scores"] == final.scores and summary["winner"] == final.winner
    assert summary["rounds"] == final.round

    await ann.send(GetStats())
    stats = await ann.wait_for(Stats)
    assert [row["name"] for row in stats.leaders] == ["Ann"]  # the bot is not ranked
    assert stats.you is not None and stats.you["matches"] == 1
    assert stats.you["wins"] == int(final.winner == 0)

    journaled = store.journal_length(summary["id"])
    steps: list[dict] = []
    total = None
    while total is None or len(steps) < total:
        await ann.send(GetReplay(summary["id"], len(steps), 50))
        page = await ann.wait_for(Replay)
        total = total or page.total
        assert page.total == total and page.start == len(steps) and page.steps
        assert page.bots == (False, True)
        steps += page.steps
    assert 0 < total <= journaled + 1
    assert [s["n"] for s in steps] == list(range(total))
    assert all(s["events"] for s in steps[1:])  # every step shows what happened
    first, last = steps[0], steps[-1]
    assert [len(hand) for hand in first["hands"]] == [5, 5]  # every hand revealed
    assert last["phase"] == "match_over" and last["scores"] == final.scores
    names = ["Ann", "Ada*"]
    written = [event_line(facts, names) for s in steps for facts in s["events"]]
    assert None not in written and any("Ann" in line for line in written if line)

    # A start past the end gives the last step; a running match cannot be replayed.
    await ann.send(GetReplay(summary["id"], total + 100, 5))
    assert (await ann.wait_for(Replay)).steps[0]["n"] == total - 1
    await ann.send(Rematch())
    await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "playing")
    await ann.send(GetReplay(summary["id"] + 1))
    assert (await ann.wait_for(Error)).code == "match_running"
    await ann.send(GetReplay(summary["id"] + 99))
    assert (await ann.wait_for(Error)).code == "no_such_match"


async def test_a_name_belongs_to_its_secret(nursery, autojump_clock, tmp_path: Path) -> None:
    server = await start_server(nursery, store=Store(tmp_path / "s.db"))

    async def hello(secret: str | None) -> WireClient:
        client_stream, server_stream = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, server_stream)
        client = WireClient(client_stream, "Ann")
        await client.send(Hello(PROTOCOL_VERSION, "Ann", None, secret))
        return client

    ann = await hello("ann-secret-0123456789")
    await ann.wait_for(lambda m: m.TYPE == "welcome")
    await ann.send(Bye())
    await trio.sleep(0.1)
    for other in ("not-ann-at-all-12345", None):
        impostor = await hello(other)
        error = await impostor.wait_for(Error)
        assert (error.code, error.fatal) == ("name_reserved", True)
        with pytest.raises(ServerClosed):
            await impostor.receive()
    again = await hello("ann-secret-0123456789")
    assert (await again.wait_for(lambda m: m.TYPE == "welcome")).name == "Ann"


async def test_without_a_store_there_are_no_records(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    for request in (GetStats(), ListMatches(), GetReplay(1)):
        await ann.send(request)
        assert (await ann.wait_for(Error)).code == "no_store"


async def test_bot_levels_are_chosen_per_seat(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.1, hard_budget=0.01)
    ann = await connect(server, nursery, "Ann")
    await ann.send(CreateTable("T", {"seats": 4}, bots=(1, 2), levels=("easy",)))
    assert (await ann.wait_for(Error)).code == "bad_settings"
    await ann.send(CreateTable("T", {"seats": 4}, bots=(1, 2, 3), levels=("easy", "hard", "hard")))
    info = await ann.wait_for(TableInfo)
    assert [s.get("level") for s in info.seats] == [None, "easy", "hard", "hard"]
    await ann.send(CreateTable("U", {"seats": 3}, bots=(2,)))
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.name == "U")
    assert [s.get("level") for s in info.seats] == [None, None, "normal"]


async def test_hard_bots_think_in_a_thread_and_finish_a_match(nursery) -> None:
    """Real time: the hard bot thinks in a worker thread while the table's timers run
    on (a virtual clock would jump ahead while the thread works)."""
    server = await start_server(nursery, bot_delay=0.01, hard_budget=0.005)
    ann = await connect(server, nursery, "Ann")
    settings = {"variant": "american", "seats": 3, "target_score": 1}
    await ann.send(CreateTable("T", settings, bots=(1, 2), levels=("hard", "hard")))
    info = await ann.wait_for(TableInfo)
    table = server.tables[info.id]
    thoughts = 0
    think = table.timer.think

    async def counted(seat: int, action_no: int) -> None:
        nonlocal thoughts
        thoughts += 1
        await think(seat, action_no)

    table.timer.think = counted  # type: ignore[method-assign]
    await ann.send(StartMatch())
    await ann.wait_for(View)
    table.seats[0].away = True
    table.schedule.update()
    final = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "match_over", 60)
    assert final.winner is not None
    assert thoughts > 0


async def test_a_restart_brings_back_players_spectators_and_finishes_abandoned_tables(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    settings = {"variant": "classic", "seats": 2, "target_score": 1, "reconnect_grace_s": 5}
    async with trio.open_nursery() as first_life:
        store = Store(path)
        server = await start_server(first_life, bot_delay=0.5, store=store)
        ann, bob, cy = [await connect(server, first_life, n) for n in ("Ann", "Bob", "Cy")]
        await ann.send(CreateTable("Kept", settings, bots=(1,)))
        kept = await ann.wait_for(TableInfo)
        await bob.send(WatchTable(kept.id))
        await bob.wait_for(TableInfo)
        await cy.send(CreateTable("Abandoned", settings, bots=(1,)))
        abandoned = await cy.wait_for(TableInfo)
        for client in (ann, cy):
            await client.send(StartMatch())
        ann_view = await ann.wait_for(View)
        await bob.wait_for(View)
        await cy.wait_for(View)
        tokens = {c.name: c.welcome.resume for c in (ann, bob, cy)}
        first_life.cancel_scope.cancel()  # the server dies with everything in it
    store.close()

    server = await start_server(nursery, bot_delay=0.5, store=Store(path))
    server.restore()
    assert set(server.tables) == {kept.id, abandoned.id}
    ann = await connect(server, nursery, "Ann", tokens["Ann"])
    assert ann.welcome.resumed
    view = await ann.wait_for(View)
    assert (view.hand, view.turn, view.top) == (ann_view.hand, ann_view.turn, ann_view.top)
    bob = await connect(server, nursery, "Bob", tokens["Bob"])
    info = await bob.wait_for(TableInfo)
    assert info.id == kept.id and info.you is None and "Bob" in info.spectators
    assert (await bob.wait_for(View)).hand is None  # the public view

    # Cy never comes back: after the grace a bot plays Cy's seat to the end, and the
    # finished table, with nobody to see it, closes.
    with trio.fail_after(3600):
        while abandoned.id in server.tables:
            await trio.sleep(1)
    assert kept.id in server.tables
    await ann.send(ListMatches())
    (finished,) = (await ann.wait_for(Matches)).matches
    assert finished["table"] == "Abandoned"


async def test_the_names_secret_takes_the_seat_back_without_the_token(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    server = await start_server(nursery, store=Store(tmp_path / "s.db"))
    secret = "ann-secret-0123456789"
    ann = await connect_with_secret(server, nursery, "Ann", secret)
    await ann.send(CreateTable("T", {"seats": 2}, bots=(1,)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    before = await ann.wait_for(View)
    old_token = ann.welcome.resume
    await ann.aclose()  # the client died with its token
    await trio.sleep(1)

    again = await connect_with_secret(server, nursery, "Ann", secret)
    assert again.welcome.resumed and again.welcome.resume != old_token
    view = await again.wait_for(View)
    assert view.seat == 0 and view.hand is not None
    assert view.round == before.round
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    stale = WireClient(client_stream, "Ann")
    await stale.send(Hello(PROTOCOL_VERSION, "Ann", old_token))
    assert (await stale.wait_for(Error)).code == "unknown_resume"


async def connect_with_secret(server, nursery, name: str, secret: str) -> WireClient:
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    return await WireClient.open(client_stream, name, None, secret)


async def test_a_name_in_use_without_a_secret_cannot_be_claimed_from_under_it(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    server = await start_server(nursery, store=Store(tmp_path / "s.db"))
    ann = await connect(server, nursery, "Ann")  # an old client: no secret
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    thief = WireClient(client_stream, "Ann")
    await thief.send(Hello(PROTOCOL_VERSION, "Ann", None, "thief-secret-0123456789"))
    assert (await thief.wait_for(Error)).code == "name_taken"
    await ann.send(ListTables())
    assert isinstance(await ann.wait_for(Lobby), Lobby)  # Ann keeps her session
    assert server.store is not None
    assert server.store.check_player("Ann", None) == "free"  # and nobody reserved it

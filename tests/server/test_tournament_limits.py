"""Tournaments that cannot be jammed: the director calls one off, one nobody is at
closes by itself (across a restart too), the caps count sessions and addresses
(loopback per session only), registrations are people (away ones dropped, floods
bounded, a real secret wins its name back), a series never opens more tables than
the server allows, and a tournament of 500 players over 20 series is told in
windows far below the frame limit (protocol clients on memory streams, the mock
clock; docs/protocol.md, "Its end" and `tournament`)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from wireclient import WireClient

from maumau.protocol.codec import DEFAULT_MAX_FRAME as MAX_FRAME
from maumau.protocol.messages import (
    NAME_MAX,
    TOURNAMENT_PLAYERS_MAX,
    TOURNAMENT_SERIES_MAX,
    TOURNAMENT_STANDINGS_PAGE,
    TOURNAMENT_TABLES_PAGE,
    CancelTournament,
    JoinTournament,
    Lobby,
    StartTournament,
    TableInfo,
    WatchTournament,
    Welcome,
)
from maumau.server.server import Server
from maumau.server.store import Store
from maumau.server.tournament.state import Entry, SeriesTable
from maumau.server.tournament.window import Window
from maumau.server.tournaments import (
    AWAY_PER_ADDRESS,
    OPEN_MAX,
    PER_ADDRESS,
    PER_SESSION,
    REGISTRATIONS_PER_ADDRESS,
)
from support.server_mock import connect, start_server
from support.tournament_server import (
    connect_with_secret,
    create,
    error_of,
    play_on,
    registered,
    tournament_of,
)


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


def session_of(server: Server, name: str):
    return next(s for s in server.lobby.sessions.values() if s.name == name)


async def connect_from(
    server: Server, nursery: trio.Nursery, name: str, address: str
) -> WireClient:
    """A client whose connection comes from ``address`` (as a socket's would)."""
    client = await connect(server, nursery, name)
    link = session_of(server, name).link
    assert link is not None
    link.peer = str((address, 40000))
    return client


async def made(server: Server, nursery: trio.Nursery, **options: Any) -> tuple[WireClient, int]:
    """Dee, connected, who has made a tournament: (Dee, the tournament's id)."""
    dee = await connect(server, nursery, "Dee")
    await dee.send(create(**options))
    return dee, (await tournament_of(dee)).id


async def register(client: WireClient, tid: int) -> None:
    """``client`` registers for tournament ``tid`` (and is told so)."""
    await client.send(JoinTournament(tid))
    await tournament_of(client, lambda t: t.id == tid and t.you is not None)


# --- its end -------------------------------------------------------------------------


async def test_the_director_calls_a_tournament_off_before_and_during_play(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0)
        clients, tid = await registered(server, nursery, ["Dee", "Ann", "Bob", "Cid"])
        dee, ann = clients[0], clients[1]
        await ann.send(CancelTournament(tid))
        assert (await error_of(ann)).code == "not_director"
        await dee.send(CancelTournament(tid))
        off = await tournament_of(ann, lambda t: t.state == "cancelled")
        assert off.you is not None  # its standings stay as they were
        assert tid not in server.tournaments.open
        listed = server.lobby.lobby_message().tournaments
        assert [(t["id"], t["state"]) for t in listed] == [(tid, "cancelled")]
        await dee.send(CancelTournament(tid))
        assert (await error_of(dee)).code == "no_such_tournament"

        # During play: the tables of the series play on as ordinary matches.
        await dee.send(create("Second", series=2))
        second = (await tournament_of(dee, lambda t: t.name == "Second")).id
        for client in clients:
            await client.send(JoinTournament(second))
            await tournament_of(client, lambda t: t.id == second and t.you is not None)
        await dee.send(StartTournament(second))
        info = await ann.wait_for(TableInfo)
        assert info.tournament == {"id": second, "series": 1}
        table = server.tables[info.id]
        await dee.send(CancelTournament(second))
        await tournament_of(ann, lambda t: t.id == second and t.state == "cancelled")
        assert table.tournament is None and not table.closed
        async with trio.open_nursery() as players:
            await play_on(clients, players)
            while table.status != "finished":
                await trio.sleep(1)
            players.cancel_scope.cancel()
        record = server.tournaments.finished[-1]
        assert record.id == second and record.state == "cancelled"
        assert all(t.scores is None for t in record.tables)  # its result did not count
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(600)
async def test_a_tournament_nobody_is_at_is_cancelled_after_the_idle_timeout_and_a_restart(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    """20 tournaments, every director gone: once the idle timeout has passed (counted
    again from a restart), none is open, and a new one can be made."""
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=3600)
        for n in range(OPEN_MAX):
            director = await connect_from(server, nursery, f"D{n}", f"10.0.0.{n // 2 + 1}")
            await director.send(create(f"T{n}"))
            await tournament_of(director)
            await director.aclose()
        late = await connect_from(server, nursery, "Late", "10.0.1.1")
        await late.send(create("Late"))
        assert (await error_of(late)).code == "too_many_tournaments"
        await late.aclose()
        await trio.sleep(5)
        assert server.commit()
        nursery.cancel_scope.cancel()
    store.close()

    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=30)
        server.restore()
        assert len(server.tournaments.open) == OPEN_MAX  # counted again from the restart
        await trio.sleep(20)
        assert len(server.tournaments.open) == OPEN_MAX
        await trio.sleep(15)  # past the idle timeout, and the 2 s between looks
        assert server.tournaments.open == {}
        assert all(t.state == "cancelled" for t in server.tournaments.finished)
        assert server.commit()
        assert store.tournaments(open_only=True) == []
        zoe = await connect_from(server, nursery, "Zoe", "10.0.1.1")
        await zoe.send(create("Zoe's"))
        assert (await tournament_of(zoe)).state == "registering"
        assert server.commit()
        nursery.cancel_scope.cancel()
    store.close()

    # Called off, they stay in the history: listed (the last five) and shown.
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store)
        server.restore()
        listed = server.lobby.lobby_message().tournaments
        states = [t["state"] for t in listed]
        assert states[0] == "registering" and set(states[1:]) == {"cancelled"}
        zed = await connect(server, nursery, "Zed")
        for tid in (1, OPEN_MAX):  # the oldest is read back from the store
            await zed.send(WatchTournament(tid))
            shown = await tournament_of(zed, lambda t, tid=tid: t.id == tid)
            assert shown.state == "cancelled"
        nursery.cancel_scope.cancel()
    store.close()


async def test_a_tournament_with_someone_connected_is_kept(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=5)
        dee, tid = await made(server, nursery)
        with trio.move_on_after(60):  # Dee stays, answering the pings
            while True:
                await dee.receive()
        assert tid in server.tournaments.open
        nursery.cancel_scope.cancel()


# --- the caps ------------------------------------------------------------------------


async def test_caps_count_sessions_and_addresses_and_loopback_per_session_only(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery)
        # One session directs at most PER_SESSION open tournaments.
        ann = await connect_from(server, nursery, "Ann", "127.0.0.1")
        for n in range(PER_SESSION):
            await ann.send(create(f"Ann {n}"))
            await tournament_of(ann, lambda t, n=n: t.name == f"Ann {n}")
        await ann.send(create("Ann again"))
        refused = await error_of(ann)
        assert (refused.code, refused.details) == ("too_many_tournaments", {"count": PER_SESSION})
        # The SSH party's guests all come from loopback: each may make their own.
        for name in ("Bob", "Cid", "Dee"):
            guest = await connect_from(server, nursery, name, "127.0.0.1")
            await guest.send(create(f"{name}'s"))
            assert (await tournament_of(guest)).name == f"{name}'s"
        # Another address: PER_ADDRESS, whatever its sessions.
        for n in range(PER_ADDRESS + 1):
            lan = await connect_from(server, nursery, f"Lan{n}", "192.168.1.7")
            await lan.send(create(f"Lan {n}"))
            if n < PER_ADDRESS:
                await tournament_of(lan, lambda t, n=n: t.name == f"Lan {n}")
        assert (await error_of(lan)).code == "too_many_tournaments"
        # Over ones count for nothing.
        first = next(t.id for t in server.tournaments.open.values() if t.name == "Ann 0")
        await ann.send(CancelTournament(first))
        await ann.send(create("Ann again"))
        await tournament_of(ann, lambda t: t.name == "Ann again")
        nursery.cancel_scope.cancel()


async def test_registrations_from_one_address_are_capped_except_on_loopback(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery)
        _dee, tid = await made(server, nursery, late_join=False)
        for n in range(REGISTRATIONS_PER_ADDRESS + 1):
            player = await connect_from(server, nursery, f"N{n}", "192.168.1.9")
            await player.send(JoinTournament(tid))
            if n < REGISTRATIONS_PER_ADDRESS:
                await tournament_of(player, lambda t: t.you is not None)
        refused = await error_of(player)
        assert refused.code == "too_many_registrations"
        assert refused.details == {
            "count": REGISTRATIONS_PER_ADDRESS,
            "limit": REGISTRATIONS_PER_ADDRESS,
        }
        for n in range(REGISTRATIONS_PER_ADDRESS + 4):
            guest = await connect_from(server, nursery, f"G{n}", "127.0.0.1")
            await register(guest, tid)
        nursery.cancel_scope.cancel()


async def test_a_flood_of_connect_register_close_never_fills_a_tournament(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """200 throwaway sessions from one address (loopback, as at the SSH party) keep
    at most AWAY_PER_ADDRESS registrations; the real player still gets in."""
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=3600)
        _dee, tid = await made(server, nursery)
        for n in range(TOURNAMENT_PLAYERS_MAX // 2 + 10):
            throwaway = await connect_from(server, nursery, f"X{n}", "127.0.0.1")
            await register(throwaway, tid)
            await throwaway.aclose()
            await trio.sleep(0.1)
        held = server.tournaments.open[tid].active()
        assert len(held) <= AWAY_PER_ADDRESS + 1
        zoe = await connect_from(server, nursery, "Zoe", "127.0.0.1")
        await register(zoe, tid)
        # The dropped sessions are no longer kept (the reaper forgets them as any
        # dropped session, and their names are free now).
        kept = [s for s in server.lobby.sessions.values() if server.lobby.keeps(s)]
        assert len(kept) <= AWAY_PER_ADDRESS + 1
        again = await connect(server, nursery, "X0")
        assert again.welcome.name == "X0"
        nursery.cancel_scope.cancel()


async def test_a_registration_away_for_the_idle_timeout_is_dropped_and_frees_its_name(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=10)
        dee, tid = await made(server, nursery)
        zoe = await connect(server, nursery, "Zoe")
        await register(zoe, tid)
        await zoe.aclose()
        await trio.sleep(3)
        assert server.tournaments.open[tid].entries  # not yet: it may be a blip
        with trio.move_on_after(15):  # Dee stays, answering the pings
            while True:
                await dee.receive()
        assert server.tournaments.open[tid].entries == []
        again = await connect(server, nursery, "Zoe")  # the name is free again
        assert again.welcome.name == "Zoe"
        nursery.cancel_scope.cancel()


async def test_a_real_players_secret_wins_the_name_back_from_a_session_without_connection(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=3600)
        _dee, tid = await made(server, nursery)
        squatter = await connect(server, nursery, "Zoe")  # no secret
        await register(squatter, tid)
        await squatter.aclose()
        await trio.sleep(1)
        zoe = await connect_with_secret(server, nursery, "Zoe")
        assert isinstance(zoe.welcome, Welcome) and zoe.welcome.name == "Zoe"
        assert not zoe.welcome.resumed
        assert server.tournaments.open[tid].entries == []  # the squatter's registration
        await register(zoe, tid)
        # A connected holder of the name keeps it.
        await zoe.aclose()
        await trio.sleep(1)
        nursery.cancel_scope.cancel()
    store.close()


# --- the tables a series opens ---------------------------------------------------------


async def test_a_series_never_opens_more_tables_than_the_server_allows(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, max_tables=3, idle_timeout=3600)
        names = [f"P{n:02d}" for n in range(16)]  # four tables of four
        clients, tid = await registered(server, nursery, names)
        await clients[0].send(StartTournament(tid))
        refused = await error_of(clients[0])
        assert (refused.code, refused.details) == ("lobby_full", {"limit": 3, "count": 4})
        assert server.tables == {}
        assert server.tournaments.open[tid].state == "registering"
        # A start time that comes: it waits and tries again, opening nothing meanwhile.
        await clients[0].send(create("Timed", starts_in=5))
        timed = (await tournament_of(clients[0], lambda t: t.name == "Timed")).id
        for client in clients:
            await client.send(JoinTournament(timed))
            await tournament_of(client, lambda t: t.id == timed and t.you is not None)
        await trio.sleep(30)
        assert server.tables == {}
        assert server.tournaments.open[timed].state == "registering"
        assert server.tournaments.open[timed].starts_at is not None  # it tries again
        server.max_tables = 4
        await trio.sleep(12)
        assert server.tournaments.open[timed].state == "playing"
        assert len(server.tables) == 4
        nursery.cancel_scope.cancel()


# --- no frame is ever too big ------------------------------------------------------------


def big_tournament(server: Server, players: int, series: int) -> int:
    """A tournament of ``players`` with the longest names in bytes, ``series`` series
    played at tables of 3 (the most tables), put straight into the server."""
    from maumau.server.tournament.state import TournamentState

    wide = "\U0001d544" * (NAME_MAX - 4)  # 4 bytes a character
    entries = [Entry(f"k{n}", f"{wide}{n:04d}") for n in range(players)]
    tables = []
    table_id = 1
    for number in range(1, series + 1):
        for first in range(0, players, 3):
            keys: list[str | None] = [e.key for e in entries[first : first + 3]]
            tables.append(
                SeriesTable(
                    table_id,
                    number,
                    keys,
                    [e.name for e in entries[first : first + 3]],
                    [(first * 7 + number * 13 + i * 101) % 900 for i in range(len(keys))],
                    rounds=3,
                )
            )
            table_id += 1
    state = TournamentState(
        id=1,
        name="\U0001d544" * 32,
        director=entries[0].name,
        director_key="k0",
        settings={"variant": "american", "seats": 3},
        series=series,
        deals=None,
        final=False,
        bots=False,
        late_join=False,
        password=None,
        seed=5,
        state="break",
        series_no=series,
        entries=entries,
        tables=tables,
        lot=[e.key for e in entries],
    )
    server.tournaments.open[1] = state
    return 1


def frame_size(message: Any) -> int:
    return len(msgpack.packb(message.to_wire()))


async def test_a_tournament_of_500_players_and_20_series_is_told_in_windows_below_the_limit(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery)
        players, series = TOURNAMENT_PLAYERS_MAX, TOURNAMENT_SERIES_MAX
        tid = big_tournament(server, players, series)
        tournaments = server.tournaments
        state = tournaments.open[tid]
        assert len(state.tables) == series * 167
        largest = 0
        # The top, a player at the bottom, a follower paging: every window is small.
        for key, window in [
            (None, Window()),
            ("k499", Window()),
            ("k0", Window(standings_from=450, series=3, tables_from=150)),
            (None, Window(standings_from=10_000, series=1, tables_from=10_000)),
        ]:
            message = tournaments.message(state, key, window)
            largest = max(largest, frame_size(message))
            assert message.players == players
            assert len(message.standings) <= TOURNAMENT_STANDINGS_PAGE + 1
            assert len(message.tables) <= TOURNAMENT_TABLES_PAGE + 1
            if key is not None:
                assert message.standings[message.you]["name"] == state.entry(key).name
        assert largest < MAX_FRAME * 0.75, largest
        # Paging shows every line once, and every table of a series.
        seen = []
        start = 0
        while start < players:
            page = tournaments.message(state, None, Window(standings_from=start))
            seen += [line["line"] for line in page.standings]
            start += TOURNAMENT_STANDINGS_PAGE
        assert seen == list(range(players))
        shown = []
        start = 0
        while start < 167:
            page = tournaments.message(state, None, Window(series=7, tables_from=start))
            assert page.tables_total == 167
            shown += [t["no"] for t in page.tables]
            start += TOURNAMENT_TABLES_PAGE
        assert shown == list(range(1, 168))
        # Through the server: a watch is answered (it used to get nothing at all).
        zed = await connect(server, nursery, "Zed")
        await zed.send(WatchTournament(tid, standings_from=100, series=2))
        told = await tournament_of(zed)
        assert told.standings[0]["line"] == 100 and told.tables[0]["series"] == 2
        lobby = server.lobby.lobby_message()
        assert isinstance(lobby, Lobby) and frame_size(lobby) < MAX_FRAME
        nursery.cancel_scope.cancel()


# --- what a review found ------------------------------------------------------------------


async def test_a_late_arrival_never_drops_a_player_of_a_running_tournament(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """After the start, registered players whose connection dropped keep their place
    (their seats wait for them), however many more come from the same address."""
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, bot_delay=0.05, hard_budget=0, idle_timeout=3600)
        dee = await connect_from(server, nursery, "Dee", "127.0.0.1")
        await dee.send(create(late_join=True, bots=True, series=3))
        tid = (await tournament_of(dee)).id
        players = []
        for n in range(8):
            player = await connect_from(server, nursery, f"P{n}", "127.0.0.1")
            await register(player, tid)
            players.append(player)
        await dee.send(StartTournament(tid))
        await trio.sleep(1)
        for player in players[:6]:
            await player.aclose()
        await trio.sleep(1)
        late = await connect_from(server, nursery, "Late", "127.0.0.1")
        await register(late, tid)
        state = server.tournaments.open[tid]
        assert not any(e.withdrawn for e in state.entries)
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(600)
async def test_a_pause_while_the_store_cannot_save_does_not_count_as_away(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=30)
        dee, tid = await made(server, nursery)
        zoe = await connect(server, nursery, "Zoe")
        await register(zoe, tid)
        await zoe.aclose()
        await dee.aclose()
        await trio.sleep(5)
        server.outbox.holding = True  # a commit failed: nobody can come back
        await trio.sleep(100)
        server.saver._saving_restored(100)  # it saves again
        await trio.sleep(3)
        state = server.tournaments.open[tid]  # neither cancelled
        assert [e.name for e in state.entries] == ["Zoe"]  # nor dropped
        await trio.sleep(30)  # the rest of the idle timeout: now both
        assert tid not in server.tournaments.open
        nursery.cancel_scope.cancel()


async def test_a_refused_hello_takes_nobodys_name_and_a_freed_name_follows_nothing(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=3600, max_clients=2)
        _dee, tid = await made(server, nursery)
        squatter = await connect(server, nursery, "Zoe")
        await register(squatter, tid)
        await squatter.aclose()
        await trio.sleep(1)
        other = await connect(server, nursery, "Other")  # the server is full now
        zoe_stream, server_stream = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, server_stream)
        with pytest.raises(Exception):  # noqa: B017 (refused: server_full)
            await WireClient.open(zoe_stream, "Zoe", None, "secret-of-Zoe-0123456789")
        assert [e.name for e in server.tournaments.open[tid].entries] == ["Zoe"]
        await other.aclose()
        await trio.sleep(1)
        # A name freed by the next hello lets go of what its session followed.
        for _ in range(20):
            visitor = await connect(server, nursery, "Vic")
            await visitor.send(WatchTournament(tid))
            await tournament_of(visitor)
            await visitor.aclose()
            await trio.sleep(0.5)
        assert (
            sum(f.session.name == "Vic" for f in server.tournaments.audience.followers.values())
            <= 1
        )
        nursery.cancel_scope.cancel()
    store.close()


async def test_the_caps_per_address_hold_across_a_restart(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=3600)
        for n in range(PER_ADDRESS):
            director = await connect_from(server, nursery, f"D{n}", "192.168.1.7")
            await director.send(create(f"T{n}"))
            await tournament_of(director)
        assert server.commit()
        nursery.cancel_scope.cancel()
    store.close()
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store, idle_timeout=3600)
        server.restore()
        late = await connect_from(server, nursery, "Late", "192.168.1.7")
        await late.send(create("Late"))
        assert (await error_of(late)).code == "too_many_tournaments"
        nursery.cancel_scope.cancel()
    store.close()

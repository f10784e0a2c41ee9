"""Tournaments through the server: registering, the director's go, series of tables,
standings, late arrivals, withdrawals and the errors (protocol clients on memory
streams, the mock clock; see test_tournament_tcp.py for whole tournaments over TCP)."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from maumau.protocol.messages import (
    Bye,
    JoinTournament,
    LeaveTable,
    LeaveTournament,
    Lobby,
    Rematch,
    StartTournament,
    TableInfo,
    Tournament,
    View,
    WatchTable,
    WatchTournament,
)
from maumau.server.store import Store
from maumau.server.tournament.standings import placing_points
from maumau.server.tournaments import HANDOVER_S
from support.server_mock import connect, start_server
from support.tournament_server import (
    FAST,
    connect_with_secret,
    create,
    error_of,
    play_on,
    registered,
    server_session,
    tournament_of,
)


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def test_a_tournament_is_made_listed_joined_and_started_by_its_director(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0)
        ann = await connect(server, nursery, "Ann")
        await ann.send(create("Friday [b]night[/b]"))
        made = await tournament_of(ann)
        assert made.state == "registering"
        assert made.director == "Ann"
        assert made.you is None  # the director is not registered by making it
        assert made.standings == ()
        bob = await connect(server, nursery, "Bob")
        listed = await bob.wait_for(Lobby)
        assert listed is not None and listed.tournaments[0]["name"] == "Friday [b]night[/b]"
        assert listed.tournaments[0]["open"] is True
        # Only the director can start it, and not with fewer than two players.
        await bob.send(StartTournament(made.id))
        assert (await error_of(bob)).code == "not_director"
        await ann.send(StartTournament(made.id))
        refused = await error_of(ann)
        assert refused.code == "too_few_players"
        assert refused.details == {"count": 0}
        clients = [ann, bob] + [await connect(server, nursery, n) for n in ("Cid", "Dee", "Eve")]
        for client in clients:
            await client.send(JoinTournament(made.id))
            joined = await tournament_of(client, lambda t: t.you is not None)
        assert [line["name"] for line in joined.standings] != []
        await bob.send(JoinTournament(made.id))
        assert (await error_of(bob)).code == "already_registered"
        # Eve changes her mind before the start: she is gone from the list.
        await clients[4].send(LeaveTournament(made.id))
        left = await tournament_of(clients[4], lambda t: t.you is None)
        assert len(left.standings) == 4
        await ann.send(StartTournament(made.id))
        # Everyone registered is seated at once and told so, as if they had joined.
        infos = [await client.wait_for(TableInfo) for client in clients[:4]]
        assert {info.tournament["id"] for info in infos} == {made.id}
        assert {info.tournament["series"] for info in infos} == {1}
        assert len({info.id for info in infos}) == 1  # four players: one table of four
        assert all(info.state == "playing" for info in infos)
        # Anyone may follow it: a tournament message now and on every change.
        zed = await connect(server, nursery, "Zed")
        await zed.send(WatchTournament(made.id))
        started = await tournament_of(zed, lambda t: t.state == "playing")
        assert started.series_no == 1
        assert started.you is None
        assert started.clock is not None and started.starts_in is None
        assert [line["table"] for line in started.standings] == [infos[0].id] * 4
        async with trio.open_nursery() as players:
            await play_on(clients[:4], players)
            over = await tournament_of(zed, lambda t: t.state == "break", timeout=600)
            players.cancel_scope.cancel()
        assert over.starts_in is not None and 0 < over.starts_in <= 5.0
        [table] = over.tables
        assert table["state"] == "finished"
        assert list(table["points"]) == placing_points(table["scores"])
        # A tournament's table has no rematch: the next series is drawn by the tournament.
        await ann.send(Rematch())
        refused = await error_of(ann)
        assert (refused.code, refused.details) == ("tournament_table", {"tournament": made.id})
        # Leaving the table brings the lobby, then the tournament the player is in.
        await bob.send(LeaveTable())
        await bob.wait_for(Lobby)
        back = await bob.receive()
        assert isinstance(back, Tournament) and back.id == made.id and back.you is not None
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(24 * 3600)  # of the mock clock's time
async def test_series_by_standings_then_a_final_then_the_standings_are_kept(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(
            nursery, store=store, tournament_break=3.0, bot_delay=0.05, hard_budget=0
        )
        names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
        clients, tid = await registered(
            server,
            nursery,
            names,
            series=2,
            final=True,
            settings={"variant": "classic", "seats": 3, **FAST},
        )
        zed = await connect(server, nursery, "Zed")
        await zed.send(WatchTournament(tid))
        await clients[0].send(StartTournament(tid))
        await play_on(clients, nursery)
        done = await tournament_of(zed, lambda t: t.state == "finished", timeout=3600)
        # The message shows the last series' tables; a watch asks for another's.
        assert {table["series"] for table in done.tables} == {3}
        by_series: dict[int, list[dict]] = {}
        for n in (1, 2, 3):
            await zed.send(WatchTournament(tid, series=n))
            shown = await tournament_of(zed, lambda t, n=n: t.tables[0]["series"] == n)
            assert shown.tables_total == len(shown.tables)
            by_series[n] = list(shown.tables)
        nursery.cancel_scope.cancel()
    assert done.series_no == 3  # two series, then the final
    assert done.players == len(done.standings) == 6
    assert [line["line"] for line in done.standings] == list(range(6))
    assert [len(by_series[n]) for n in (1, 2, 3)] == [2, 2, 1]
    for tables in by_series.values():
        for table in tables:
            assert table["state"] == "finished"
            assert table["round"] == 1  # one deal a series: the rounds it had, kept
            assert list(table["points"]) == placing_points(table["scores"])
    # Everyone played both series (six players: two tables of three, no byes).
    for n in (1, 2):
        seated = [name for t in by_series[n] for name in t["names"]]
        assert sorted(seated) == sorted(names)
    # The standings add up the tables' points and scores; the final's three come first,
    # in the order of the final's scores.
    points = {name: 0 for name in names}
    scores = {name: 0 for name in names}
    for table in [t for tables in by_series.values() for t in tables]:
        for name, p, s in zip(table["names"], table["points"], table["scores"], strict=True):
            points[name] += p
            scores[name] += s
    for line in done.standings:
        assert (line["points"], line["score"]) == (points[line["name"]], scores[line["name"]])
    [final] = by_series[3]
    top = [line["name"] for line in done.standings[:3]]
    assert sorted(top) == sorted(final["names"])
    final_score = dict(zip(final["names"], final["scores"], strict=True))
    assert [final_score[n] for n in top] == sorted(final["scores"], reverse=True)
    assert [line["rank"] for line in done.standings] == [1, 2, 3, 4, 5, 6]
    # The store keeps the tournament, finished, with its standings, and every match
    # of its tables for replays.
    saved = store.tournament(tid)
    assert saved is not None and saved["state"] == "finished"
    finished = {
        table_id
        for (table_id,) in store.db.execute(
            "SELECT table_id FROM matches WHERE finished IS NOT NULL"
        )
    }
    assert {t["id"] for tables in by_series.values() for t in tables} <= finished
    store.close()


async def test_requests_that_cannot_be_granted_are_refused_with_their_codes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0)
        ann = await connect(server, nursery, "Ann")
        bob = await connect(server, nursery, "Bob")
        await ann.send(create(settings={"variant": "classic", "seats": 2}))
        refused = await error_of(ann)
        assert (refused.code, refused.details) == ("bad_settings", {"field": "seats"})
        await ann.send(create(settings={"variant": "classic", "seats": 4, "deals": 2}))
        assert (await error_of(ann)).details == {"field": "deals"}
        await ann.send(create("a" + "\u0301" * 12))
        assert (await error_of(ann)).code == "bad_name"
        await bob.send(JoinTournament(99))
        refused = await error_of(bob)
        assert (refused.code, refused.details) == ("no_such_tournament", {"tournament": 99})
        await ann.send(create("Locked", password="club", late_join=False))
        locked = await tournament_of(ann)
        await bob.send(JoinTournament(locked.id))
        assert (await error_of(bob)).code == "wrong_password"
        await bob.send(WatchTournament(locked.id, password="nope"))
        assert (await error_of(bob)).code == "wrong_password"
        await bob.send(LeaveTournament(locked.id))
        assert (await error_of(bob)).code == "not_registered"
        for client in (ann, bob):
            await client.send(JoinTournament(locked.id, password="club"))
            await tournament_of(client, lambda t: t.you is not None)
        await ann.send(StartTournament(locked.id))
        await ann.wait_for(TableInfo)
        await ann.send(StartTournament(locked.id))
        assert (await error_of(ann)).code == "tournament_running"
        cid = await connect(server, nursery, "Cid")
        await cid.send(JoinTournament(locked.id, password="club"))
        assert (await error_of(cid)).code == "registration_closed"
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(24 * 3600)  # of the mock clock's time
async def test_late_arrivals_play_from_the_next_series_and_withdrawals_keep_their_line(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=30.0, bot_delay=0.05, hard_budget=0)
        clients, tid = await registered(
            server,
            nursery,
            ["Ann", "Bob", "Cid"],
            series=3,
            bots=True,
            settings={"variant": "classic", "seats": 3, **FAST},
        )
        zed = await connect(server, nursery, "Zed")
        await zed.send(WatchTournament(tid))
        await clients[0].send(StartTournament(tid))
        for client in clients:
            await client.wait_for(TableInfo)
        # Dee registers while the first series runs: she plays from the second.
        dee = await connect(server, nursery, "Dee")
        await dee.send(JoinTournament(tid))
        late = await tournament_of(dee, lambda t: t.you is not None)
        assert late.state == "playing" and late.series_no == 1
        assert "table" not in late.standings[late.you]
        # Cid withdraws: he plays out his table but no later series.
        await clients[2].send(LeaveTournament(tid))
        await tournament_of(zed, lambda t: any(line["withdrawn"] for line in t.standings))
        await play_on(clients, nursery)
        first = await tournament_of(zed, lambda t: t.state == "break", timeout=3600)
        await clients[0].send(StartTournament(tid))  # the director cuts the break short
        second = await tournament_of(zed, lambda t: t.series_no == 2 and t.state == "playing")
        await dee.wait_for(TableInfo)
        nursery.cancel_scope.cancel()
    # Series 1: Ann, Bob and Cid at one table of three. Series 2: Ann, Bob and Dee.
    [one] = [t for t in first.tables if t["series"] == 1]
    assert sorted(one["names"]) == ["Ann", "Bob", "Cid"]
    [two] = [t for t in second.tables if t["series"] == 2]
    assert sorted(two["names"]) == ["Ann", "Bob", "Dee"]
    lines = {line["name"]: line for line in second.standings}
    assert lines["Cid"]["withdrawn"] and lines["Cid"]["played"] == 1
    assert lines["Dee"]["played"] == 0 and not lines["Dee"]["withdrawn"]


async def test_a_player_away_at_the_start_has_a_seat_kept_played_by_a_bot_until_they_return(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(
            nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0, idle_timeout=8.0
        )
        clients, tid = await registered(
            server,
            nursery,
            ["Ann", "Bob", "Cid"],
            series=1,
            settings={"variant": "classic", "seats": 3, **FAST, "reconnect_grace_s": 1},
        )
        ann, bob, cid = clients
        token = cid.welcome.resume
        await cid.aclose()
        await trio.sleep(5)
        server.reap()  # a registered session is kept (until the idle timeout drops it)
        assert any(s.name == "Cid" for s in server.sessions.values())
        await ann.send(StartTournament(tid))
        info = await ann.wait_for(TableInfo)
        seats = {seat["name"]: seat for seat in info.seats}
        assert not seats["Cid"]["connected"] and not seats["Cid"]["bot"]
        table = server.tables[info.id]
        # After the grace a bot plays Cid's seat; the match goes on without him.
        async with trio.open_nursery() as players:
            await play_on([ann, bob], players)
            await trio.sleep(20)
            assert table.match is not None and table.match.action_no > 6
            back = await connect(server, nursery, "Cid", resume=token)
            mine = await back.wait_for(TableInfo)
            assert mine.id == info.id and mine.you is not None
            assert mine.tournament == {"id": tid, "series": 1}
            view = await back.wait_for(View)
            assert view.seat == mine.you
            players.cancel_scope.cancel()
        nursery.cancel_scope.cancel()


async def test_a_player_who_left_their_seat_takes_it_back_by_watching_their_table(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0)
        clients, tid = await registered(
            server,
            nursery,
            ["Ann", "Bob", "Cid"],
            series=1,
            deals=5,
            settings={"variant": "classic", "seats": 3, **FAST},
        )
        await clients[0].send(StartTournament(tid))
        infos = [await client.wait_for(TableInfo) for client in clients]
        bob = clients[1]
        seat = infos[1].you
        await bob.send(LeaveTable())
        await bob.wait_for(Lobby)
        await tournament_of(bob, lambda t: True)
        table = server.tables[infos[0].id]
        assert table.seats[seat].session is None and table.seats[seat].away
        # Watching his own table gives Bob his seat back from the bot.
        await bob.send(WatchTable(infos[1].id))
        back = await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you is not None)
        assert back.you == seat and not back.seats[seat]["away"]
        assert table.seat_of(server_session(server, "Bob")) == seat
        # Anyone else watching it is a spectator, as at any table.
        zed = await connect(server, nursery, "Zed")
        await zed.send(WatchTable(infos[1].id))
        watched = await zed.wait_for(TableInfo)
        assert watched.you is None and "Zed" in watched.spectators
        nursery.cancel_scope.cancel()


async def test_a_start_time_that_comes_while_the_store_cannot_save_waits_for_it(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, tournament_break=5.0, bot_delay=0.05, hard_budget=0)
        _, tid = await registered(server, nursery, ["Ann", "Bob"], starts_in=10)
        server.outbox.holding = True  # as when a commit has failed: play is paused
        await trio.sleep(30)
        assert server.tournaments.open[tid].state == "registering"
        assert not any(t.tournament for t in server.tables.values())
        server.outbox.holding = False  # it saves again: the start that was due comes
        await trio.sleep(3)
        assert server.tournaments.open[tid].series_no == 1
        nursery.cancel_scope.cancel()


async def test_what_a_tournament_tells_is_held_back_while_the_store_cannot_save(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery)
        ann = await connect(server, nursery, "Ann")
        await ann.send(create())
        made = await tournament_of(ann)
        session = server_session(server, "Ann")
        assert session.link is not None and not session.link.held
        server.outbox.holding = True  # a commit failed: nothing unsaved may be told
        server.tournaments.audience.send(session, server.tournaments.open[made.id])
        assert len(session.link.held) == 1
        nursery.cancel_scope.cancel()


async def test_followers_are_forgotten_with_their_sessions(autojump_clock: Any) -> None:
    """connect, watch a tournament, close: once the server forgets those sessions (the
    idle timeout of a dropped player without a seat), nothing of them is kept as a
    follower (3,000 such loops used to keep about 420 bytes each, for ever)."""
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=5)
        director = await connect(server, nursery, "Dee")
        await director.send(create())
        made = await tournament_of(director)

        async def visits(first: int, count: int) -> None:
            for number in range(first, first + count):
                visitor = await connect(server, nursery, f"V{number}")
                await visitor.send(WatchTournament(made.id))
                await tournament_of(visitor)
                await visitor.aclose()
            await trio.sleep(1)
            assert len(server.tournaments.audience.followers) > 1  # they did follow it
            await trio.sleep(30)  # past the idle timeout: the dropped sessions are forgotten

        await visits(0, 1000)
        left = [f.session.name for f in server.tournaments.audience.followers.values()]
        assert left == ["Dee"] or left == [], left
        assert not any(s.name.startswith("V") for s in server.lobby.sessions.values())
        nursery.cancel_scope.cancel()


async def test_a_director_who_said_bye_comes_back_to_the_role_by_the_names_secret(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    """The director is a session, not a connection: after ``bye`` (the session is
    forgotten), a new connection with the name's secret may start the tournament."""
    store = Store(tmp_path / "t.db")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, store=store)
        dee = await connect_with_secret(server, nursery, "Dee")
        await dee.send(create())
        tid = (await tournament_of(dee)).id
        players = [await connect(server, nursery, name) for name in ("Ann", "Bob", "Cid")]
        for client in players:
            await client.send(JoinTournament(tid))
            await tournament_of(client, lambda t: t.you is not None)
        await dee.send(Bye())
        await dee.aclose()
        await trio.sleep(1)
        assert not any(s.name == "Dee" for s in server.lobby.sessions.values())

        ann = players[0]
        await ann.send(StartTournament(tid))  # not the director, who was not away long
        assert (await error_of(ann)).code == "not_director"

        back = await connect_with_secret(server, nursery, "Dee")
        await back.send(StartTournament(tid))
        await trio.sleep(1)
        assert server.tournaments.open[tid].series_no == 1
        nursery.cancel_scope.cancel()


@pytest.mark.deadline(600)  # of the mock clock's time
async def test_a_registered_player_may_start_once_the_director_has_been_away_long(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The director dropped and is not back: a registered player's go is refused until
    the director has been away for the documented time, then it starts the tournament."""
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, idle_timeout=3600)
        clients, tid = await registered(server, nursery, ["Dee", "Ann", "Bob", "Cid"])
        director, ann = clients[0], clients[1]
        await director.aclose()  # dropped, not gone: the session is kept meanwhile
        await trio.sleep(10)
        await ann.send(StartTournament(tid))
        refused = await error_of(ann)
        assert refused.code == "not_director"
        with trio.move_on_after(HANDOVER_S):  # Ann stays, answering the pings
            while True:
                await ann.receive()
        await ann.send(StartTournament(tid))
        await trio.sleep(1)
        assert server.tournaments.open[tid].series_no == 1
        nursery.cancel_scope.cancel()

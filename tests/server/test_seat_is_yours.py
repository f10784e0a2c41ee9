"""A seat is its player's: back from away with ``back``, a seat kept when one steps
out, a rematch by consent, the clock stopped for one alone with bots, and the bots'
names (with their ``*``) leaving every person's name free.

Over in-memory streams on trio's MockClock, and ``back`` over real TCP too.
"""

from __future__ import annotations

import functools

import pytest
import trio
import trio.testing
from wireclient import WireClient

from maumau.protocol.messages import (
    Back,
    Bye,
    CreateTable,
    DrawCard,
    Error,
    GameEvent,
    JoinTable,
    LeaveTable,
    Lobby,
    Pause,
    Ready,
    Rematch,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
)
from maumau.server.bots import BOT_MARK
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from maumau.server.table.state import REMATCH_WAIT_S
from support.names_server import refused
from support.server_mock import connect, seat_players, start_server

QUICK = {"variant": "classic", "seats": 2, "turn_timeout_s": 5, "target_score": 1}


async def until(check, *clients: WireClient, limit: float = 1000) -> None:
    """Let time pass, every client reading (and so answering the server's pings),
    until ``check()`` holds."""
    with trio.fail_after(limit):
        while not check():
            for client in clients:
                with trio.move_on_after(0.2):
                    while True:
                        await client.receive()


async def pass_time(seconds: float, *clients: WireClient) -> None:
    """Let ``seconds`` pass, the clients reading all the while."""
    end = trio.current_time() + seconds
    await until(lambda: trio.current_time() >= end, *clients, limit=seconds + 10)


def away(info: TableInfo, seat: int) -> bool:
    return bool(info.seats[seat]["away"])


async def time_out_three_times(client: WireClient) -> TableInfo:
    """Let the client's turn clock run out until its seat is away; the table then."""
    return await client.wait_for(
        lambda m: isinstance(m, TableInfo) and away(m, m.you or 0), timeout=1000
    )


# --- 1. away and back ------------------------------------------------------------------


@pytest.mark.deadline(1000)
async def test_back_takes_an_away_seat_back_at_once(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 2, "turn_timeout_s": 5}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    await time_out_three_times(ann)
    assert table.seats[0].away
    await ann.send(Back())
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and not away(m, 0))
    assert info.you == 0 and not table.seats[0].away
    # Her turns are hers again: the bot (0.5 s) no longer moves for her; the clock does.
    view = await ann.wait_for(
        lambda m: isinstance(m, View) and m.turn == 0 and (m.turn_deadline_ms or 0) > 4000
    )
    before = table.match.action_no
    await trio.sleep(2)
    assert table.match.action_no == before, "a bot moved for a player who is back"
    timed_out = await ann.wait_for(lambda m: isinstance(m, GameEvent) and m.kind == "timed_out")
    assert timed_out.seat == 0 and view.seq < timed_out.seq
    # From a player who is not away it changes nothing and says nothing.
    count = len(ann.errors)
    await ann.send(Back())
    await trio.sleep(1)
    assert len(ann.errors) == count


@pytest.mark.deadline(1000)
async def test_any_move_takes_an_away_seat_back(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=3.0)
    settings = {"variant": "classic", "seats": 2, "turn_timeout_s": 5}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    await time_out_three_times(ann)
    while table.match.turn != 0 or table.match.phase != "playing":
        await trio.sleep(0.1)
    await ann.send(DrawCard())  # before the bot's 3 s are up
    await ann.wait_for(lambda m: isinstance(m, TableInfo) and not away(m, 0))
    assert not table.seats[0].away


@pytest.mark.deadline(1000)
async def test_a_rematch_does_not_carry_away_over(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    (ann,), table = await seat_players(server, nursery, ["Ann"], QUICK, bots=(1,))
    await time_out_three_times(ann)
    await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "match_over", timeout=1000)
    assert table.seats[0].away
    await ann.send(Rematch())  # alone with a bot: her word is everyone's
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.state == "playing")
    assert not away(info, 0) and not table.seats[0].away


async def test_back_over_tcp(nursery) -> None:
    server = Server(ServerConfig(seed=7, bot_delay=0.2))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(CreateTable("T", {"variant": "classic", "seats": 2}, (1,)))
    info = await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    await ann.wait_for(View)
    table = server.tables[info.id]
    table.seats[0].away = True  # as after three timeouts (45 s each by default)
    table.changed()
    await ann.wait_for(lambda m: isinstance(m, TableInfo) and away(m, 0))
    await ann.send(Back())
    back = await ann.wait_for(lambda m: isinstance(m, TableInfo) and not away(m, 0))
    assert back.you == 0
    await ann.send(LeaveTable())
    await ann.wait_for(Lobby)
    await ann.send(Back())
    assert (await ann.wait_for(Error)).code == "not_at_table"


# --- 2. a seat kept when one steps out ---------------------------------------------------


async def test_leaving_mid_match_keeps_the_seat_and_joining_takes_it_back(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 3, "turn_timeout_s": 300}
    (_ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    await bob.send(LeaveTable())
    await bob.wait_for(Lobby)
    assert table.seats[1].kept and table.seats[1].away and table.seats[1].name == "Bob"
    await trio.sleep(10)  # the bot plays Bob's seat meanwhile
    hand = tuple(table.match.hands[1])
    await bob.send(JoinTable(table.id))
    info = await bob.wait_for(TableInfo)
    view = await bob.wait_for(View)
    assert info.you == 1 and not away(info, 1)
    assert view.seat == 1 and tuple(sorted(view.hand)) == tuple(sorted(hand_codes(hand)))
    assert not table.seats[1].kept and table.seats[1].session is not None
    # Watching the table takes it back too, as at a tournament's table.
    await bob.send(LeaveTable())
    await bob.wait_for(Lobby)
    await bob.send(WatchTable(table.id))
    assert (await bob.wait_for(TableInfo)).you == 1


@pytest.mark.deadline(1000)
async def test_a_kept_seat_keeps_its_dropped_player_past_the_idle_timeout(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.5, idle_timeout=20)
    settings = {"variant": "classic", "seats": 3, "turn_timeout_s": 300}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    token = bob.welcome.resume
    await bob.send(LeaveTable())
    await bob.wait_for(Lobby)
    await bob.aclose()  # in the lobby, then gone: a seat still waits for him
    await pass_time(60, ann)
    impostor = await refused(server, nursery, "Bob")  # his name waits with his seat
    assert impostor.code == "name_taken"
    back = await connect(server, nursery, "Bob", resume=token)
    assert back.welcome.resumed
    await back.send(JoinTable(table.id))
    assert (await back.wait_for(TableInfo)).you == 1


def hand_codes(cards: tuple[int, ...]) -> list[str]:
    from maumau.protocol.cards import CODE_OF

    return [CODE_OF[c] for c in cards]


async def test_sitting_down_elsewhere_or_bye_lets_a_kept_seat_go(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 3, "turn_timeout_s": 300}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    await bob.send(LeaveTable())
    await bob.wait_for(Lobby)
    await bob.send(CreateTable("Bob's", {"variant": "classic", "seats": 2}, ()))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.id != table.id)
    await trio.sleep(0.1)
    seat = table.seats[1]
    assert seat.owner is None and seat.away and seat.name == "Bob"  # a bot plays it to the end
    await ann.send(Bye())
    await trio.sleep(1)
    assert table.closed  # nobody can come back to it any more


@pytest.mark.deadline(1000)
async def test_leaving_a_finished_table_keeps_the_seat_for_the_rematch(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    settings = {**QUICK, "seats": 3, "turn_timeout_s": 300}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    await bob.send(LeaveTable())  # a bot finishes his match for him
    await ann.send(LeaveTable())  # (and hers: the match ends sooner)
    await until(lambda: table.status == "finished", ann, bob)
    assert table.seats[1].kept and table.seats[0].kept
    await bob.send(JoinTable(table.id))  # as Enter on the table in the lobby does
    info = await bob.wait_for(TableInfo)
    assert info.you == 1 and info.state == "finished"
    view = await bob.wait_for(View)
    assert view.phase == "match_over" and view.seat == 1


# --- 2. a rematch by consent ---------------------------------------------------------------


async def finished_pair(server: Server, nursery: trio.Nursery):
    settings = {**QUICK, "seats": 3, "turn_timeout_s": 300}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    for client in (ann, bob):
        await client.send(LeaveTable())
        await client.wait_for(Lobby)
    await until(lambda: table.status == "finished", ann, bob)
    for client in (ann, bob):
        await client.send(JoinTable(table.id))
        await client.wait_for(lambda m: isinstance(m, View) and m.phase == "match_over")
    return ann, bob, table


@pytest.mark.deadline(2000)
async def test_one_players_rematch_waits_for_the_others(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    ann, bob, table = await finished_pair(server, nursery)
    await ann.send(Rematch())
    asked = await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.seats[0]["ready"])
    assert asked.state == "finished" and asked.rematch_ms is not None
    assert asked.rematch_ms == pytest.approx(REMATCH_WAIT_S * 1000, abs=1000)
    await trio.sleep(REMATCH_WAIT_S / 2)
    assert table.status == "finished", "one player's key started the rematch"
    await bob.send(Rematch())
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.state == "playing")
    assert info.rematch_ms is None
    assert not any(s["away"] for s in info.seats)


@pytest.mark.deadline(2000)
async def test_a_rematch_starts_after_its_time_with_the_absent_seat_played_by_a_bot(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    ann, bob, table = await finished_pair(server, nursery)
    await bob.send(LeaveTable())  # to look at the leaderboard, say
    await bob.wait_for(Lobby)
    await ann.send(Ready(True))  # ready, after a match, asks for the rematch too
    started = trio.current_time()
    await until(lambda: table.status == "playing", ann, bob, limit=100)
    assert trio.current_time() - started >= REMATCH_WAIT_S - 0.01
    info = table.info(None)
    assert away(info, 1) and info.seats[1]["name"] == "Bob" and not away(info, 0)
    await bob.send(JoinTable(table.id))  # and he takes his seat back from the bot
    assert (await bob.wait_for(TableInfo)).you == 1
    assert not table.seats[1].away


@pytest.mark.deadline(2000)
async def test_a_rematch_nobody_asks_for_any_more_does_not_start(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    ann, bob, table = await finished_pair(server, nursery)
    await ann.send(Rematch())
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.seats[0]["ready"])
    await ann.send(Ready(False))
    await pass_time(REMATCH_WAIT_S * 2, ann, bob)
    assert table.status == "finished" and table.clock.rematch_due is None


# --- 3. bots never take a name people have ----------------------------------------------------


async def test_people_may_have_the_bots_names_and_sit_with_them(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    people = ["Ada", "Bert", "Jo"]
    clients = [await connect(server, nursery, name) for name in people]
    assert [c.welcome.name for c in clients] == people
    await clients[0].send(CreateTable("T", {"variant": "american", "seats": 6}, (3, 4, 5)))
    info = await clients[0].wait_for(TableInfo)
    for seat, client in enumerate(clients[1:], start=1):
        await client.send(JoinTable(info.id, seat))
        await client.wait_for(lambda m, s=seat: isinstance(m, TableInfo) and m.you == s)
    names = [s["name"] for s in server.tables[info.id].seating.seat_infos()]
    assert names[:3] == people
    assert all(n.endswith(BOT_MARK) for n in names[3:]) and len(set(names)) == 6


async def test_no_bot_is_named_after_a_person_at_its_table(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ada = await connect(server, nursery, "Ada")
    await ada.send(CreateTable("T", {"variant": "classic", "seats": 3}, (1, 2)))
    info = await ada.wait_for(TableInfo)
    assert [s["name"] for s in info.seats] == ["Ada", "Bert*", "Cleo*"]


@pytest.mark.deadline(1000)
async def test_a_seat_let_go_after_the_match_keeps_its_name_until_the_rematch(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    ann, bob, table = await finished_pair(server, nursery)
    await bob.send(CreateTable("Bob's", {"variant": "classic", "seats": 2}, ()))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.id != table.id)
    await until(lambda: table.seats[1].owner is None, ann, bob)
    assert table.seats[1].name == "Bob" and not table.seats[1].bot  # the result names him
    await ann.send(Rematch())  # the only player left: it starts at once
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.state == "playing")
    assert info.seats[1]["bot"] and info.seats[1]["name"].endswith(BOT_MARK)


# --- 4. the clock stops for a player alone with bots ------------------------------------------


@pytest.mark.deadline(1000)
async def test_the_clock_stops_while_a_lone_player_asks(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 3, "turn_timeout_s": 10}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1, 2))
    await ann.send(Pause(True))
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.paused == "player")
    assert info.paused == "player"
    before = table.match.action_no
    await pass_time(120, ann)  # no timeout, no bot move
    assert table.match.action_no == before
    await ann.send(Pause(False))
    await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.paused is None)
    await pass_time(30, ann)
    assert table.match.action_no > before


async def test_the_clock_stops_for_nobody_at_a_table_of_people(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 3, "turn_timeout_s": 10}
    (ann, _bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings, bots=(2,))
    await ann.send(Pause(True))
    error = await ann.wait_for(Error)
    assert error.code == "not_alone" and error.ref == "pause"
    assert not table.clock.pauses


async def test_leaving_or_dropping_starts_a_stopped_clock_again(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 2, "turn_timeout_s": 10}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    await ann.send(Pause(True))
    await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.paused == "player")
    await ann.aclose()
    await trio.sleep(1)
    assert not table.clock.pauses and table.clock.paused_at is None


def test_an_older_database_gets_its_bots_renamed(tmp_path) -> None:
    import json
    import sqlite3

    from maumau.server.store import SCHEMA, Store

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.execute("INSERT INTO meta VALUES ('schema', '4')")
        seats = [{"name": "Ann", "bot": False}, {"name": "Ada", "bot": True, "level": "hard"}]
        db.execute(
            "INSERT INTO tables VALUES (1, 'Old', ?, 'Ann', NULL, 'waiting', ?, 4, NULL, 1, NULL)",
            (json.dumps({"variant": "classic", "seats": 2}), json.dumps(seats)),
        )
        db.execute(
            "INSERT INTO matches VALUES "
            "(1, 1, 'Old', '{}', 3, ?, ?, 1.0, 2.0, 1, '[0, 150]', NULL)",
            (json.dumps(["Ann", "Jo"]), json.dumps([False, True])),
        )
        db.executemany(
            "INSERT INTO results VALUES (1, ?, ?, ?, ?, ?, 1)",
            [(0, "Ann", 0, 0, 0), (1, "Jo", 1, 150, 1)],
        )
        data = {"tables": [{"keys": ["s1", None], "names": ["Ann", "Bert"]}]}
        db.execute(
            "INSERT INTO tournaments VALUES (1, 'Cup', 'finished', ?, 0, 1.0)", (json.dumps(data),)
        )
    store = Store(path)
    (table,) = store.open_tables()
    assert [s["name"] for s in table.seats] == ["Ann", "Ada*"]
    assert store.match(1).names == ["Ann", "Jo*"]
    names = [row[0] for row in store.db.execute("SELECT name FROM results ORDER BY seat")]
    assert names == ["Ann", "Jo*"]
    (text,) = store.db.execute("SELECT data FROM tournaments").fetchone()
    assert json.loads(text)["tables"][0]["names"] == ["Ann", "Bert*"]
    (schema,) = store.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    assert schema == "6"
    store.close()

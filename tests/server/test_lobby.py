"""The lobby over in-memory streams: tables, seats, spectators, passwords, chat,
who is online, leaving, rematch, and the per-connection limits."""

from __future__ import annotations

import contextlib

import pytest
import trio
import trio.testing
from wireclient import ServerClosed, WireClient

from maumau.protocol.codec import encode_frame
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    CatchPlayer,
    Chat,
    ChatLine,
    CreateTable,
    Error,
    JoinTable,
    LeaveTable,
    ListTables,
    Lobby,
    MauDecision,
    PlayCard,
    Ready,
    Rematch,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
)
from support.server_mock import connect, seat_players, start_server


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def test_tables_are_listed_with_seats_state_and_lock(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(CreateTable("Private", {"variant": "american", "seats": 6}, (3,), "s3cret"))
    await ann.wait_for(TableInfo)
    await bob.send(ListTables())
    lobby = await bob.wait_for(lambda m: isinstance(m, Lobby) and m.tables)
    (table,) = lobby.tables
    assert table["name"] == "Private" and table["variant"] == "american"
    assert table["locked"] and table["state"] == "waiting"
    assert [s["name"] for s in table["seats"]][:1] == ["Ann"]
    assert table["seats"][3]["bot"] and table["seats"][3]["name"]
    assert sum(1 for s in table["seats"] if s["name"] is None) == 4
    assert set(lobby.online) == {"Ann", "Bob"}


async def test_password_lock(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(CreateTable("Private", {"variant": "classic", "seats": 2}, (), "s3cret"))
    info = await ann.wait_for(TableInfo)
    await bob.send(JoinTable(info.id, 1, "wrong"))
    assert (await bob.wait_for(Error)).code == "wrong_password"
    await bob.send(WatchTable(info.id))
    assert (await bob.wait_for(Error)).code == "wrong_password"
    await bob.send(JoinTable(info.id, 1, "s3cret"))
    joined = await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    assert [s["name"] for s in joined.seats] == ["Ann", "Bob"]


async def test_seat_taken_and_table_full(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    cleo = await connect(server, nursery, "Cora")
    await ann.send(CreateTable("Two", {"variant": "classic", "seats": 2}, ()))
    info = await ann.wait_for(TableInfo)
    await bob.send(JoinTable(info.id, 0))
    assert (await bob.wait_for(Error)).code == "seat_taken"
    await bob.send(JoinTable(info.id, 5))
    assert (await bob.wait_for(Error)).code == "no_such_seat"
    await bob.send(JoinTable(info.id))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    await cleo.send(JoinTable(info.id))
    assert (await cleo.wait_for(Error)).code == "table_full"


async def test_match_starts_when_every_seat_is_ready(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(CreateTable("Two", {"variant": "classic", "seats": 2}, ()))
    info = await ann.wait_for(TableInfo)
    await bob.send(JoinTable(info.id))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    await bob.send(StartMatch())
    assert (await bob.wait_for(Error)).code == "not_creator"
    await ann.send(Ready(True))
    await bob.send(Ready(True))
    view = await bob.wait_for(View)
    assert view.seat == 1 and view.phase == "playing"


async def test_creator_starts_and_bots_fill_empty_seats(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    await ann.send(CreateTable("Solo", {"variant": "classic", "seats": 4}, ()))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.state == "playing")
    assert [s["bot"] for s in info.seats] == [False, True, True, True]
    assert (await ann.wait_for(View)).hand_counts == (5, 5, 5, 5)


async def test_spectators_see_the_public_view_only(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (_ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    eve = await connect(server, nursery, "Eve")
    await eve.send(WatchTable(table.id))
    info = await eve.wait_for(TableInfo)
    assert info.spectators == ("Eve",) and info.you is None
    view = await eve.wait_for(View)
    assert view.seat is None and view.hand is None and view.legal == ()
    await eve.send(PlayCard("7H"))
    assert (await eve.wait_for(Error)).code == "not_seated"


async def test_chat_in_lobby_and_at_table_is_limited(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(Chat("lobby", "anyone for american?"))
    line = await bob.wait_for(ChatLine)
    assert (line.scope, line.sender, line.text) == ("lobby", "Ann", "anyone for american?")
    await bob.send(Chat("table", "hi"))
    assert (await bob.wait_for(Error)).code == "not_at_table"
    # Too long a line is refused by the codec, naming the field.
    await ann.stream.send_all(encode_frame({"type": "chat", "scope": "lobby", "text": "x" * 201}))
    error = await ann.wait_for(Error)
    assert error.code == "bad_message" and "chat.text" in error.message
    # Five lines at once are fine; the sixth within the same second is refused.
    for i in range(6):
        await ann.send(Chat("lobby", f"line {i}"))
    error = await ann.wait_for(Error)
    assert error.code == "rate_limited"
    await trio.sleep(2)
    await ann.send(Chat("lobby", "later"))
    line = await bob.wait_for(lambda m: isinstance(m, ChatLine) and m.text == "later")
    assert line.sender == "Ann"


async def test_flooding_closes_the_connection_but_not_the_others(nursery, autojump_clock) -> None:
    server = await start_server(nursery, move_rate=5, move_burst=5)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    with pytest.raises(trio.BrokenResourceError):
        for _ in range(100):
            await ann.send(ListTables())
            await trio.sleep(0.001)
    with pytest.raises(ServerClosed):
        await ann.wait_for(lambda m: False, timeout=30)
    assert any(e.code == "abuse" and e.fatal for e in ann.errors)
    await bob.send(ListTables())
    assert isinstance(await bob.wait_for(Lobby), Lobby)
    assert "Ann" not in server.online()


async def test_leave_before_the_match_frees_the_seat(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(CreateTable("T", {"variant": "classic", "seats": 2}, ()))
    info = await ann.wait_for(TableInfo)
    await bob.send(JoinTable(info.id))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    await bob.send(LeaveTable())
    await bob.wait_for(Lobby)
    seats = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.seats[1]["name"] is None)
    assert seats.seats[1]["name"] is None


async def test_rematch_after_the_match(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.2)
    settings = {"variant": "classic", "seats": 2, "target_score": 1}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    await ann.send(Rematch())
    assert (await ann.wait_for(Error)).code == "match_running"
    # Let the bot play for Ann until the match (to 1 point) is over.
    table.seats[0].away = True
    table.schedule.update()
    await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "match_over", timeout=600)
    await ann.send(Rematch())
    view = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "playing")
    assert view.round == 1 and view.scores == (0, 0)


async def test_names_must_be_printable_and_unique(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    await connect(server, nursery, "Ann")

    for name, code in (("", "bad_message"), ("a\x07b", "bad_message"), ("x" * 25, "bad_message")):
        client_stream, server_stream = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, server_stream)
        client = WireClient(client_stream, "?")
        await client_stream.send_all(
            encode_frame({"type": "hello", "version": PROTOCOL_VERSION, "name": name})
        )
        error = await client.wait_for(Error)
        assert error.code == code and "hello.name" in error.message
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    client = WireClient(client_stream, "Ann")
    await client_stream.send_all(
        encode_frame({"type": "hello", "version": PROTOCOL_VERSION + 1, "name": "Zed"})
    )
    with pytest.raises(ServerClosed):
        await client.wait_for(lambda m: False)
    assert client.errors[0].code == "version_mismatch"


async def test_resume_sends_the_table_once_and_spectators_watch_again(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    (ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    eve = await connect(server, nursery, "Eve")
    await eve.send(WatchTable(table.id))
    await eve.wait_for(View)
    tokens = {"Ann": ann.welcome.resume, "Eve": eve.welcome.resume}
    await ann.aclose()
    await eve.aclose()
    await trio.sleep(1)
    ann = await connect(server, nursery, "Ann", resume=tokens["Ann"])
    await ann.wait_for(View)
    assert sum(isinstance(m, TableInfo) for m in ann.received) == 1
    eve = await connect(server, nursery, "Eve", resume=tokens["Eve"])
    view = await eve.wait_for(View)
    assert view.seat is None
    assert eve.table is not None and "Eve" in eve.table.spectators


async def test_a_dropped_spectator_does_not_hold_the_name(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (_ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    eve = await connect(server, nursery, "Eve")
    await eve.send(WatchTable(table.id))
    await eve.wait_for(View)
    await eve.aclose()
    await trio.sleep(1)
    again = await connect(server, nursery, "Eve")
    assert not again.welcome.resumed


async def test_refused_create_or_join_keeps_the_current_table(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    await ann.send(CreateTable("Mine", {"variant": "classic", "seats": 2}, ()))
    mine = await ann.wait_for(TableInfo)
    await ann.send(CreateTable("Bad", {"variant": "classic", "seats": 9}, ()))
    assert (await ann.wait_for(Error)).code == "bad_settings"
    await ann.send(CreateTable("Bad", {"variant": "classic", "seats": 2}, (5,)))
    assert (await ann.wait_for(Error)).code == "no_such_seat"
    await ann.send(JoinTable(mine.id + 99))
    assert (await ann.wait_for(Error)).code == "no_such_table"
    assert server.tables[mine.id].seats[0].name == "Ann"
    assert len(server.tables) == 1


async def test_bye_updates_who_is_online(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await bob.wait_for(lambda m: isinstance(m, Lobby) and set(m.online) == {"Ann", "Bob"})
    await ann.send(Bye())
    lobby = await bob.wait_for(lambda m: isinstance(m, Lobby) and m.online == ("Bob",))
    assert lobby.online == ("Bob",)


async def test_a_running_table_everyone_let_go_of_is_closed(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    await ann.send(LeaveTable())
    await ann.wait_for(Lobby)
    await trio.sleep(1)
    # Her seat is kept for her (a bot plays it): the table stays while she may come back.
    assert table.id in server.tables and table.seats[0].away and table.seats[0].kept
    await ann.send(CreateTable("Another", {"variant": "classic", "seats": 2}, ()))
    await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.id != table.id)
    await trio.sleep(1)
    assert table.id not in server.tables
    assert table.closed


async def test_false_catch_with_penalty_is_no_decision(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    settings = {"variant": "classic", "seats": 3, "false_catch_penalty": 1}
    (ann, bob, cleo), table = await seat_players(server, nursery, ["Ann", "Bob", "Cora"], settings)
    from support.positions import table as position

    state = position(
        hands=["QH KS", "KH 10D 9D", "AC AD 8S"], top="10H", stock="7C 8C 9C", **settings
    )
    table.match = state
    table.flow.after_change([], turn_ended=True)
    await ann.send(PlayCard("QH", call="mau"))
    await ann.wait_for(lambda m: isinstance(m, View) and m.hand_counts[0] == 1)
    await bob.send(CatchPlayer(0))
    await bob.wait_for(lambda m: isinstance(m, View) and m.hand_counts[1] == 4)
    await cleo.wait_for(lambda m: isinstance(m, View) and m.hand_counts[1] == 4)
    decisions = [m for m in cleo.received if type(m).__name__ == "MauDecision"]
    assert [d.outcome for d in decisions] == ["called"]


async def test_the_lobby_fits_one_frame_and_says_how_many_are_left_out(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, max_clients=300)
    players = [await connect(server, nursery, f"P{i}") for i in range(200)]
    for i, player in enumerate(players):
        await player.send(CreateTable(f"Table {i}", {"variant": "american", "seats": 10}, ()))
        await player.wait_for(TableInfo)
    watcher = await connect(server, nursery, "Watcher")
    lobby = await watcher.wait_for(Lobby)
    assert lobby.more > 0
    assert len(lobby.tables) + lobby.more == 200


async def test_invalid_frames_count_as_violations(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    with pytest.raises(trio.BrokenResourceError):
        for _ in range(100):
            await ann.stream.send_all(encode_frame({"type": "play", "card": "XX"}))
            await trio.sleep(0.01)
    with pytest.raises(ServerClosed):
        await ann.wait_for(lambda m: False)
    assert any(e.code == "abuse" for e in ann.errors)


@pytest.mark.deadline(1000)
async def test_pings_measure_the_round_trip_and_silent_peers_are_dropped(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, ping_interval=5)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")

    async def keep_reading() -> None:
        with contextlib.suppress(ServerClosed):
            while True:
                await ann.receive()  # answers each ping with a pong

    async with trio.open_nursery() as reader:
        reader.start_soon(keep_reading)
        start = trio.current_time()
        # Bob reads nothing, so he answers no ping (sent at 0, 5 and 10 s): dropped
        # when the fourth is due.
        while "Bob" in server.online():
            await trio.sleep(1)
        assert 14 <= trio.current_time() - start <= 16
        assert "Ann" in server.online()
        session = next(s for s in server.sessions.values() if s.name == "Ann")
        assert session.rtt is not None and session.rtt < 0.01
        assert bob.welcome is not None
        reader.cancel_scope.cancel()


async def test_watching_or_joining_ones_own_table_keeps_it_open(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    await ann.send(CreateTable("Mine", {"variant": "classic", "seats": 2}, (1,)))
    info = await ann.wait_for(TableInfo)
    await ann.send(WatchTable(info.id))
    assert (await ann.wait_for(Error)).code == "already_here"
    assert info.id in server.tables and not server.tables[info.id].closed
    eve = await connect(server, nursery, "Eve")
    await eve.send(CreateTable("Solo", {"variant": "classic", "seats": 2}, (0, 1)))
    solo = await eve.wait_for(TableInfo)
    assert solo.you is None and solo.spectators == ("Eve",)  # all seats are bots: she watches
    await eve.send(WatchTable(solo.id))
    assert (await eve.wait_for(Error)).code == "already_here"
    assert solo.id in server.tables


async def test_ready_flags_are_cleared_for_everyone_to_see_at_round_end(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    settings = {"variant": "classic", "seats": 2}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings)
    from support.positions import table as position

    table.match = position(hands=["QH", "KH 10D"], top="10H", **settings)
    table.flow.after_change([], turn_ended=True)
    await ann.send(Ready(True))
    await bob.send(Ready(True))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and all(s["ready"] for s in m.seats))
    await ann.send(PlayCard("QH"))
    await bob.wait_for(lambda m: isinstance(m, View) and m.phase == "round_over")
    assert bob.table is not None  # the latest table info, sent with the round's end
    assert [s["ready"] for s in bob.table.seats] == [False, False]


async def test_a_burst_of_calls_still_makes_a_valid_decision(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    settings = {"variant": "classic", "seats": 2}
    (ann, bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings)
    from support.positions import table as position

    table.match = position(hands=["QH KS", "KH 10D 9D"], top="10H", stock="7C 8C", **settings)
    table.flow.after_change([], turn_ended=True)
    await ann.send(PlayCard("QH"))
    await ann.wait_for(lambda m: isinstance(m, View) and m.hand_counts[0] == 1)
    frames = b"".join(encode_frame({"type": "say_mau", "call": "mau"}) for _ in range(25))
    await ann.stream.send_all(frames)
    decision = await bob.wait_for(MauDecision)  # bob's codec checks it against the schema
    assert decision.outcome == "called" and len(decision.stamps) <= 20

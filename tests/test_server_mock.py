"""Lobby, table, arbiter and timers over in-memory streams, on trio's MockClock.

Positions are set up exactly: after the match starts, the table's match state is
replaced with one built by ``helpers.table`` and every seat is sent its view again.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio
import trio.testing
from wireclient import ServerClosed, WireClient

from helpers import table as position
from maumau.protocol.messages import (
    CatchPlayer,
    CreateTable,
    DrawCard,
    Error,
    GameEvent,
    JoinTable,
    MauDecision,
    Ping,
    PlayCard,
    SayMau,
    StartMatch,
    TableInfo,
    View,
)
from maumau.protocol.sentences import decision_line
from maumau.server.config import ServerConfig
from maumau.server.latency import Latency
from maumau.server.server import Server
from maumau.server.table import Table


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def connect(server: Server, nursery: trio.Nursery, name: str, resume: str | None = None):
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    return await WireClient.open(client_stream, name, resume)


async def start_server(nursery: trio.Nursery, **options) -> Server:
    store = options.pop("store", None)
    server = Server(ServerConfig(seed=5, **options), store)
    server.start_background(nursery)
    return server


async def seat_players(
    server: Server, nursery: trio.Nursery, names: list[str], settings: dict, bots: tuple = ()
) -> tuple[list[WireClient], Table]:
    clients = [await connect(server, nursery, name) for name in names]
    await clients[0].send(CreateTable("T", settings, bots))
    info = await clients[0].wait_for(TableInfo)
    for seat, client in enumerate(clients[1:], start=1):
        await client.send(JoinTable(info.id, seat))
        await client.wait_for(lambda m, s=seat: isinstance(m, TableInfo) and m.you == s)
    await clients[0].send(StartMatch())
    for client in clients:
        await client.wait_for(View)
    return clients, server.tables[info.id]


async def set_position(table: Table, clients: list[WireClient], **kwargs) -> None:
    state = position(variant=table.settings.variant, **kwargs)
    assert state.settings == table.settings, "position settings must match the table's"
    state.action_no = 1000
    table.match = state
    table.flow.after_change([], turn_ended=True)
    for client in clients:
        await client.wait_for(
            lambda m: (
                isinstance(m, View)
                and m.hand_counts == tuple(len(h.split()) for h in kwargs["hands"])
            )
        )


async def decision_for(client: WireClient) -> MauDecision:
    return await client.wait_for(MauDecision)


THREE = ["Ann", "Bob", "Cora"]
CLASSIC3 = {"variant": "classic", "seats": 3}
HANDS = ["QH KS", "KH 10D 9D", "AC AD 8S"]


async def test_hello_timeout_closes_a_silent_connection(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    client = WireClient(client_stream, "silent")
    start = trio.current_time()
    with pytest.raises(ServerClosed):
        await client.wait_for(lambda m: False, timeout=60)
    assert client.errors[0].code == "hello_timeout"
    assert 10 <= trio.current_time() - start < 11


@pytest.mark.parametrize("catch_first", [True, False])
async def test_call_and_catch_one_millisecond_apart(nursery, autojump_clock, catch_first) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C 9C 10C")
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.2)
    first, second = (bob, ann) if catch_first else (ann, bob)
    await first.send(CatchPlayer(0) if first is bob else SayMau("mau"))
    await trio.sleep(0.001)
    await second.send(CatchPlayer(0) if second is bob else SayMau("mau"))
    decision = await decision_for(cleo)
    assert decision.outcome == ("caught" if catch_first else "called")
    stamps = [(s["seat"], s["what"], round(s["after_ms"], 3)) for s in decision.stamps]
    if catch_first:
        assert stamps[0] == (1, "catch", 200.0)
        assert table.match.hands[0] != [] and len(table.match.hands[0]) == 3
        error = await ann.wait_for(Error)
        assert error.code == "nothing_to_call"
    else:
        assert stamps[0] == (0, "call", 200.0)
        assert len(table.match.hands[0]) == 1
        error = await bob.wait_for(Error)
        assert error.code == "nothing_to_catch"
    assert decision.seat == 0


async def test_exact_tie_goes_to_the_caller(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C")
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.5)
    await bob.send(CatchPlayer(0))  # decoded at the same instant as the call below
    await ann.send(SayMau("mau"))
    decision = await decision_for(cleo)
    assert decision.outcome == "called"
    assert [s["what"] for s in decision.stamps] == ["call", "catch"]
    assert decision.stamps[0]["after_ms"] == decision.stamps[1]["after_ms"] == 500.0
    assert len(table.match.hands[0]) == 1


def steady_link(server: Any, name: str, rtt: float) -> None:
    """The named player's connection, as if five pings had each taken ``rtt``."""
    session = next(s for s in server.sessions.values() if s.name == name)
    session.latency = Latency()
    for i in range(5):
        session.latency.add(i, i + rtt)


@pytest.mark.parametrize(
    ("rtt", "late", "wins"),
    [
        (0.020, 0.005, "called"),  # 5 ms late, 10 ms lag: the call was first
        (0.600, 0.250, "caught"),  # 250 ms late; the 300 ms lag is capped at 200 ms
    ],
)
async def test_lag_compensation(nursery, autojump_clock, rtt, late, wins) -> None:
    server = await start_server(nursery)
    settings = {**CLASSIC3, "lag_compensation": True}
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, settings)
    await set_position(
        table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C", lag_compensation=True
    )
    steady_link(server, "Ann", rtt)
    steady_link(server, "Bob", 0.0)
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.3)
    await bob.send(CatchPlayer(0))
    await trio.sleep(late)  # Ann's call arrives later on the server's clock
    await ann.send(SayMau("mau"))
    decision = await decision_for(cleo)
    assert decision.outcome == wins
    if wins == "called":
        shift = min(rtt / 2, 0.2) * 1000
        ann_stamp, bob_stamp = decision.stamps
        assert ann_stamp["seat"] == 0 and bob_stamp["seat"] == 1
        assert ann_stamp["shift_ms"] == pytest.approx(shift)
        assert ann_stamp["after_ms"] == pytest.approx(300 + late * 1000 - shift)
        assert bob_stamp["after_ms"] == pytest.approx(300)
    else:
        # Decided once the cap had passed after the catch; the call came too late.
        assert [s["seat"] for s in decision.stamps] == [1]
        error = await ann.wait_for(Error)
        assert error.code == "nothing_to_call"


async def compensated_table(nursery: trio.Nursery) -> tuple[Server, list[WireClient]]:
    """Ann (to play QH and keep KS), Bob and Cora at a table with lag compensation;
    Ann's link is steady at 20 ms; the server pings no more on its own."""
    server = await start_server(nursery, ping_interval=1000, play_ping_interval=1000)
    settings = {**CLASSIC3, "lag_compensation": True}
    clients, table = await seat_players(server, nursery, THREE, settings)
    await set_position(table, clients, hands=HANDS, top="10H", stock="7C 8C", lag_compensation=True)
    steady_link(server, "Ann", 0.020)
    return server, clients


@pytest.mark.parametrize(
    ("reaction_ms", "shift_ms", "basis"),
    [
        # Waited 300 ms, of which it reports 280 ms thinking: a 20 ms exchange, like its
        # pings, so half of it counts, measured on this claim.
        (280.0, 10.0, "measured"),
        # Reports it thought longer than the 300 ms that passed: refused, the usual
        # delay (half the 20 ms median ping) counts.
        (450.0, 10.0, "refused"),
        # Reports 100 ms less than it thought: a 120 ms exchange on a link whose pings
        # all took 20 ms is beyond the allowance, refused.
        (180.0, 10.0, "refused"),
        # Reports nothing: the usual delay.
        (None, 10.0, "usual"),
    ],
)
async def test_a_claim_reporting_its_reaction_is_credited_by_the_rules(
    nursery, autojump_clock, reaction_ms, shift_ms, basis
) -> None:
    _, (ann, _, cleo) = await compensated_table(nursery)
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.3)
    await ann.send(SayMau("mau", reaction_ms=reaction_ms))
    decision = await decision_for(cleo)
    (stamp,) = decision.stamps
    assert (stamp["shift_ms"], stamp["basis"]) == (pytest.approx(shift_ms), basis)
    assert stamp["after_ms"] == pytest.approx(300 - shift_ms)
    note = {"measured": "measured", "usual": "usual delay", "refused": "report refused"}[basis]
    assert decision_line(decision.seat, decision.outcome, decision.stamps, THREE) == (
        "Ann said Mau 0.29 s after playing; "
        f"Ann's call counted 10 ms earlier for their connection ({note})"
    )


@pytest.mark.parametrize("lag", [True, False])
async def test_pings_come_every_second_while_a_compensated_table_plays(
    nursery, autojump_clock, lag
) -> None:
    server = await start_server(nursery)
    lobby_only = await connect(server, nursery, "Dora")
    settings = {**CLASSIC3, "lag_compensation": lag}
    (ann, _, _), _ = await seat_players(server, nursery, THREE, settings)
    started = trio.current_time()
    arrivals: dict[str, list[float]] = {"Ann": [], "Dora": []}

    async def note_pings(client: WireClient) -> None:
        with trio.move_on_after(12):
            while True:
                if isinstance(await client.receive(), Ping):
                    arrivals[client.name].append(trio.current_time() - started)

    async with trio.open_nursery() as both:
        both.start_soon(note_pings, ann)
        both.start_soon(note_pings, lobby_only)
    # With compensation: from the first ping after the match started, every second.
    # Without it, and in the lobby, every five seconds.
    assert arrivals["Ann"][0] <= 5.0
    gaps = [b - a for a, b in itertools.pairwise(arrivals["Ann"])]
    assert gaps and all(g == pytest.approx(1.0 if lag else 5.0) for g in gaps), arrivals
    gaps = [b - a for a, b in itertools.pairwise(arrivals["Dora"])]
    assert gaps and all(g == pytest.approx(5.0) for g in gaps), arrivals


async def test_a_peer_is_dropped_once_a_ping_went_unanswered_for_15_s(
    nursery, autojump_clock
) -> None:
    """Pinged every second while playing, a player who stops answering is still given
    15 s (not three pings' worth) before the connection is closed."""
    server = await start_server(nursery)
    await seat_players(server, nursery, THREE, {**CLASSIC3, "lag_compensation": True})
    ann = next(s for s in server.sessions.values() if s.name == "Ann")
    # Nobody reads (or answers) from here on.
    while not ann.pings:
        await trio.sleep(0.1)
    unanswered = min(ann.pings.values())
    while ann.connected:
        await trio.sleep(0.1)
    assert 15.0 <= trio.current_time() - unanswered <= 16.1


async def test_a_call_that_lost_to_a_catch_decided_with_it_is_in_the_decision(
    nursery, autojump_clock
) -> None:
    """Decided together (within the compensation's wait), the catch wins and closes
    the window; the call it beat is still listed, with what it was credited, so that
    the decision says why it lost."""
    server, (ann, bob, cleo) = await compensated_table(nursery)
    steady_link(server, "Bob", 0.0)
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.3)
    await bob.send(CatchPlayer(0))
    await trio.sleep(0.05)  # 50 ms later, with 10 ms of lag: too late, but still pending
    await ann.send(SayMau("mau"))
    decision = await decision_for(cleo)
    assert decision.outcome == "caught"
    stamps = [(s["seat"], s["what"], s["after_ms"], s.get("basis")) for s in decision.stamps]
    assert stamps == [(1, "catch", 300.0, "usual"), (0, "call", 340.0, "usual")]
    assert decision_line(decision.seat, decision.outcome, decision.stamps, THREE) == (
        "Bob caught Ann 0.30 s after Ann's play; Ann's call came 0.04 s later; "
        "Ann's call counted 10 ms earlier for their connection (usual delay)"
    )
    assert (await ann.wait_for(Error)).code == "nothing_to_call"


async def test_without_lag_compensation_the_later_call_loses(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C")
    steady_link(server, "Ann", 0.020)
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.3)
    await bob.send(CatchPlayer(0))
    await trio.sleep(0.005)
    await ann.send(SayMau("mau"))
    decision = await decision_for(cleo)
    assert decision.outcome == "caught"
    assert all(s["shift_ms"] == 0 for s in decision.stamps)


async def test_window_stays_open_after_next_action_until_time_has_passed(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C 9C")
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.1)
    await bob.send(DrawCard())  # the next player acts at once
    await trio.sleep(1.0)
    await cleo.send(CatchPlayer(0))  # 1.1 s after the play: still open
    decision = await decision_for(cleo)
    assert decision.outcome == "caught"


async def test_window_closed_by_next_action_after_the_time(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C 9C")
    await ann.send(PlayCard("QH"))
    await trio.sleep(2.0)
    assert table.match.windows, "no next action yet: the window is still open"
    await bob.send(DrawCard())
    await bob.wait_for(lambda m: isinstance(m, GameEvent) and m.kind == "call_window_closed")
    await cleo.send(CatchPlayer(0))
    error = await cleo.wait_for(Error)
    assert error.code == "nothing_to_catch"


async def test_window_closed_by_time_after_next_action(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=HANDS, top="10H", stock="7C 8C 9C")
    await ann.send(PlayCard("QH"))
    start = trio.current_time()
    await bob.send(DrawCard())
    await cleo.wait_for(lambda m: isinstance(m, GameEvent) and m.kind == "call_window_closed")
    assert trio.current_time() - start == pytest.approx(1.5)


STRICT3 = {**CLASSIC3, "mau_window_minimum": False}  # the window as the seeds write it


async def test_as_written_the_window_closes_the_moment_the_next_player_acts(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, STRICT3)
    await set_position(
        table,
        [ann, bob, cleo],
        hands=HANDS,
        top="10H",
        stock="7C 8C 9C",
        mau_window_minimum=False,
    )
    await ann.send(PlayCard("QH"))
    await trio.sleep(0.1)
    start = trio.current_time()
    await bob.send(DrawCard())  # 0.1 s after the play, far below mau_window_ms
    await cleo.wait_for(lambda m: isinstance(m, GameEvent) and m.kind == "call_window_closed")
    assert trio.current_time() - start < 0.01  # closed with the move, not by a timer
    await cleo.send(CatchPlayer(0))
    error = await cleo.wait_for(Error)
    assert error.code == "nothing_to_catch"


async def test_as_written_the_window_waits_for_the_next_player_however_long(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, STRICT3)
    await set_position(
        table,
        [ann, bob, cleo],
        hands=HANDS,
        top="10H",
        stock="7C 8C 9C",
        mau_window_minimum=False,
    )
    await ann.send(PlayCard("QH"))
    await trio.sleep(5.0)  # more than three times mau_window_ms: still open
    assert table.match.windows
    await cleo.send(CatchPlayer(0))
    decision = await decision_for(cleo)
    assert decision.outcome == "caught"
    assert decision.stamps[0]["after_ms"] == pytest.approx(5000)


async def test_going_out_on_a_jack_after_only_mau_and_being_caught(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    hands = ["QH JS", "KH 10D 9D", "AH AD 8S"]
    await set_position(table, [ann, bob, cleo], hands=hands, top="10H", stock="7C 8C 9C")
    await ann.send(PlayCard("QH", call="mau"))
    await trio.sleep(0.1)
    await bob.send(PlayCard("KH"))
    await trio.sleep(0.1)
    await cleo.send(PlayCard("AH"))
    await trio.sleep(0.1)
    await ann.send(PlayCard("JS", "D"))
    await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "ending")
    await trio.sleep(0.4)
    await bob.send(CatchPlayer(0))
    decision = await cleo.wait_for(lambda m: isinstance(m, MauDecision) and m.outcome == "caught")
    assert decision.stamps[0]["after_ms"] == pytest.approx(400)
    view = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "playing")
    assert view.hand == ("7C", "8C")
    assert view.named == "D"
    assert view.turn == 1


async def test_round_ends_one_window_after_the_last_card(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    (ann, bob, cleo), table = await seat_players(server, nursery, THREE, CLASSIC3)
    await set_position(table, [ann, bob, cleo], hands=["QH", "KH 10D", "AS AD"], top="10H")
    await ann.send(PlayCard("QH"))
    start = trio.current_time()
    view = await bob.wait_for(lambda m: isinstance(m, View) and m.phase == "round_over")
    assert trio.current_time() - start == pytest.approx(1.5)
    assert view.last_round["winner"] == 0
    assert view.last_round["hands"][1] == ("KH", "10D")


@pytest.mark.deadline(1000)
async def test_turn_timeout_then_away_then_bot_plays(nursery, autojump_clock) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    (ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    start = trio.current_time()
    timeouts = 0
    while timeouts < 3:
        event = await ann.wait_for(GameEvent, timeout=1000)
        if event.kind == "timed_out":
            timeouts += 1
            if table.match.phase not in ("playing", "ending"):
                break
    assert trio.current_time() - start >= 45
    info = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.seats[0]["away"])
    assert info.seats[0]["away"]
    # From now on a bot plays Ann's seat without her.
    before = table.match.action_no
    await trio.sleep(5)
    assert table.match.action_no > before


async def test_dropped_player_keeps_seat_and_bot_takes_over_after_grace(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    settings = {"variant": "classic", "seats": 2, "reconnect_grace_s": 60, "turn_timeout_s": 300}
    (ann, _bob), table = await seat_players(server, nursery, ["Ann", "Bob"], settings)
    token = ann.welcome.resume
    await ann.aclose()
    await trio.sleep(1)
    assert table.seats[0].name == "Ann" and not table.seats[0].away
    await trio.sleep(60)
    assert table.seats[0].away
    back = await connect(server, nursery, "Ann", resume=token)
    assert back.welcome.resumed
    view = await back.wait_for(View)
    assert view.seat == 0 and view.hand is not None
    assert not table.seats[0].away


@pytest.mark.parametrize("seed", range(15))
async def test_bot_catches_a_forgetful_player_after_human_delay(
    nursery, autojump_clock, seed
) -> None:
    server = await start_server(nursery, bot_delay=0.5)
    server.rng.seed(seed)
    (ann,), table = await seat_players(
        server, nursery, ["Ann"], {"variant": "classic", "seats": 2}, bots=(1,)
    )
    await set_position(table, [ann], hands=["QH KS", "KH 10D 9D"], top="10H", stock="7C 8C")
    await ann.send(PlayCard("QH"))
    decision = await decision_for(ann)
    assert decision.outcome == "caught"
    assert decision.stamps[0]["seat"] == 1
    assert 300 <= decision.stamps[0]["after_ms"] <= 1500


async def test_a_bot_catches_a_player_who_goes_out_on_a_jack_without_mau_mau(
    nursery, autojump_clock
) -> None:
    server = await start_server(nursery)
    settings = {"variant": "classic", "seats": 2, "mau_window_ms": 5000}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    table.seats[1].level = "hard"  # notices every time
    await set_position(
        table, [ann], hands=["JH", "KH 10D 9D"], top="10H", stock="7C 8C 9C", mau_window_ms=5000
    )
    await ann.send(PlayCard("JH", "S"))  # out, on a Jack, without "Mau Mau"
    decision = await decision_for(ann)
    assert decision.outcome == "caught" and decision.seat == 0
    assert [(s["seat"], s["what"]) for s in decision.stamps] == [(1, "catch")]
    assert len(table.match.hands[0]) > 0  # Ann holds the penalty cards and plays on


@pytest.mark.parametrize("with_the_play", [True, False])
async def test_a_call_is_stamped_as_it_counts_however_it_came(
    nursery, autojump_clock, with_the_play
) -> None:
    """In American a "maumau" counts as "mau": the decision's stamp says "mau" whether
    it came with the play or by itself (docs/protocol.md, `mau_decision`)."""
    server = await start_server(nursery)
    (ann, bob), table = await seat_players(
        server, nursery, ["Ann", "Bob"], {"variant": "american", "seats": 2}
    )
    await set_position(table, [ann, bob], hands=["R5 G7", "B1 B2 B3"], top="R9", stock="Y1 Y2")
    if with_the_play:
        await ann.send(PlayCard("R5", call="maumau"))
    else:
        await ann.send(PlayCard("R5"))
        await trio.sleep(0.2)
        await ann.send(SayMau("maumau"))
    decision = await decision_for(bob)
    assert [s["call"] for s in decision.stamps] == ["mau"]
    said = [m for m in bob.received if isinstance(m, GameEvent) and m.call is not None]
    assert [m.call for m in said] == ["mau"]


async def test_every_request_a_client_may_send_has_one_handler(nursery) -> None:
    """The dispatcher is a table from message type to handler: every client message
    but those of the connection itself (hello, ping, pong, bye) has one."""
    from maumau.protocol.messages import MESSAGE_TYPES

    server = await start_server(nursery)
    requests = {t for t, cls in MESSAGE_TYPES.items() if cls.SENDER == "client"}
    assert set(server.dispatcher.handlers) == requests - {"hello", "bye"}

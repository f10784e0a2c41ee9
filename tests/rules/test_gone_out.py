"""A player who has gone out makes no claims in that round's final window, end to end.

Three scripted players over real TCP on 127.0.0.1, at a table with
``false_catch_penalty`` 1. The table's match is set to an exact position (as the
server-mock tests do): Bob forgets Mau with his second-to-last card, Cora plays, and
Ann goes out while Bob's window is still open. Ann's catches (a false one of Cora and
one of Bob, who could be caught) are refused with ``already_out``; she never gets a
card back and the round ends with her the winner. The others' claims work as before:
Cora catches Bob, and Bob's false catch of Ann costs him the false-catch penalty.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from wireclient import WireClient

from maumau.protocol.messages import (
    CatchPlayer,
    CreateTable,
    Error,
    JoinTable,
    Lobby,
    PlayCard,
    StartMatch,
    TableInfo,
    View,
)
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from support.positions import table as position

# Per variant: the hands of Ann, Bob and Cora, the top card, the stock (in draw order),
# and the cards Bob (his second-to-last), Cora and Ann (her last) play.
POSITIONS: dict[str, dict[str, Any]] = {
    "classic": {
        "hands": ["KH", "QH 9S", "AH AD AS"],
        "top": "10H",
        "stock": "7C 8C 9C 10C",
        "plays": ("QH", "AH", "KH"),
    },
    "american": {
        "hands": ["R3", "R9 B2", "R1 R2 Y5"],
        "top": "R5",
        "stock": "G3 G4 G5 G6",
        "plays": ("R9", "R1", "R3"),
    },
}


@pytest.fixture
async def tcp_server(nursery: trio.Nursery) -> AsyncIterator[tuple[Server, int]]:
    server = Server(ServerConfig(seed=7, bot_delay=0.0, move_rate=1000, move_burst=1000))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    yield server, port


async def seat_three(port: int, settings: dict[str, Any]) -> tuple[list[WireClient], int]:
    """Ann makes a table, Bob and Cora sit down, Ann starts the match."""
    clients = [await WireClient.connect("127.0.0.1", port, n) for n in ("Ann", "Bob", "Cora")]
    ann = clients[0]
    await ann.wait_for(Lobby)
    await ann.send(CreateTable("Gone out", settings, ()))
    info = await ann.wait_for(TableInfo)
    for seat, client in enumerate(clients[1:], start=1):
        await client.send(JoinTable(info.id, seat))
        await client.wait_for(lambda m, s=seat: isinstance(m, TableInfo) and m.you == s)
    await ann.send(StartMatch())
    for client in clients:
        await client.wait_for(View)
    return clients, info.id


@pytest.mark.parametrize("variant", ["classic", "american"])
async def test_gone_out_player_catches_are_refused_and_the_round_ends(
    tcp_server: tuple[Server, int], variant: str
) -> None:
    server, port = tcp_server
    rules = {"seats": 3, "false_catch_penalty": 1, "mau_window_ms": 1500}
    (ann, bob, cleo), table_id = await seat_three(port, {"variant": variant, **rules})
    table = server.tables[table_id]
    spec = POSITIONS[variant]
    state = position(
        variant, hands=spec["hands"], top=spec["top"], stock=spec["stock"], turn=1, **rules
    )
    assert state.settings == table.settings
    state.action_no = 1000
    table.match = state
    table.flow.after_change([], turn_ended=True)
    counts = tuple(len(h.split()) for h in spec["hands"])
    for client in (ann, bob, cleo):
        await client.wait_for(lambda m: isinstance(m, View) and m.hand_counts == counts)

    bob_card, cleo_card, ann_card = spec["plays"]
    await bob.send(PlayCard(bob_card))  # forgets Mau: his window stays open
    await cleo.wait_for(lambda m: isinstance(m, View) and m.turn == 2 and m.seat == 2)
    await cleo.send(PlayCard(cleo_card))
    await ann.wait_for(lambda m: isinstance(m, View) and m.turn == 0 and m.phase == "playing")
    await ann.send(PlayCard(ann_card))
    out = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "ending")
    assert out.hand == () and out.legal == ()
    assert [(w["seat"], w["final"]) for w in out.windows] == [(1, False), (0, True)]

    await ann.send(CatchPlayer(2))  # a false catch: with the bug, Ann drew a card here
    await ann.send(CatchPlayer(1))  # Bob could be caught, but not by Ann, who is out
    for _ in range(2):
        error = await ann.wait_for(Error)
        assert (error.code, error.ref) == ("already_out", "catch"), error
        assert "last card" in error.message

    await cleo.send(CatchPlayer(1))  # the others' claims still work: Bob draws 2
    await bob.send(CatchPlayer(0))  # a false catch of Ann costs Bob 1 card
    ended = await ann.wait_for(lambda m: isinstance(m, View) and m.phase == "round_over")
    assert ended.last_round is not None and ended.last_round["winner"] == 0
    assert ended.hand == ()
    assert ended.hand_counts == (0, 1 + 2 + 1, 2)

    # From going out to the round's end Ann held no card and was offered nothing.
    views = [m for m in ann.received if isinstance(m, View) and m.seq >= out.seq]
    assert views[-1] is ended
    assert all(v.hand_counts[0] == 0 and v.legal == () for v in views)
    assert [e.code for e in ann.errors] == ["already_out", "already_out"]
    assert bob.errors == [] and cleo.errors == []

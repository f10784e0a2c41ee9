"""The server over real TCP on 127.0.0.1: full matches, leaks, resume, garbage."""

from __future__ import annotations

import functools
import random
import struct
from collections import Counter
from collections.abc import AsyncIterator

import msgpack
import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.cards import AMERICAN_DECK, CLASSIC_DECK, CODE_OF
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CreateTable,
    Error,
    Goodbye,
    Hello,
    JoinTable,
    Lobby,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
    Welcome,
)
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from support.wire import play_scripted, wait_view

FAST = {"mau_window_ms": 100}
# Errors a client gets for acting on a view that a newer one has already replaced.
STALE = {"not_your_turn", "round_ending", "round_over", "window_closed", "already_called"}


@pytest.fixture
async def tcp_server(nursery: trio.Nursery) -> AsyncIterator[tuple[Server, int]]:
    server = Server(ServerConfig(seed=7, bot_delay=0.0, move_rate=1000, move_burst=1000))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    yield server, port


def check_no_leaks(views_by_seat: dict[int | None, list[View]]) -> int:
    """Each seat's view shows its own hand only: same size as its count, and no card
    in two seats' hands at the same sequence number. Returns views checked."""
    checked = 0
    by_seq: dict[int, dict[int, Counter[str]]] = {}
    for seat, views in views_by_seat.items():
        for v in views:
            checked += 1
            assert v.seat == seat
            if seat is None:
                assert v.hand is None and v.legal == () and v.drawn is None
                continue
            assert v.hand is not None
            assert len(v.hand) == v.hand_counts[seat]
            assert v.drawn is None or v.drawn in v.hand
            by_seq.setdefault(v.seq, {})[seat] = Counter(v.hand)
    deck = Counter(CODE_OF[c] for c in (*CLASSIC_DECK, *AMERICAN_DECK))
    for hands in by_seq.values():
        seen: Counter[str] = Counter()
        for cards in hands.values():
            seen += cards
        assert seen <= deck, "a card shows in more hands than the deck holds"
    return checked


@pytest.mark.parametrize("variant", ["classic", "american"])
async def test_full_match_between_scripted_clients_and_bots(
    tcp_server: tuple[Server, int], variant: str
) -> None:
    server, port = tcp_server
    target = 150 if variant == "classic" else 500
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    bob = await WireClient.connect("127.0.0.1", port, "Bob")
    eve = await WireClient.connect("127.0.0.1", port, "Eve")
    await ann.wait_for(Lobby)
    settings = {"variant": variant, "seats": 4, "target_score": target, **FAST}
    await ann.send(CreateTable("Friday", settings, (2,)))
    info = await ann.wait_for(TableInfo)
    assert info.you == 0 and info.seats[2]["bot"]
    await bob.send(JoinTable(info.id, 1))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    await eve.send(WatchTable(info.id))
    await eve.wait_for(TableInfo)
    await ann.send(StartMatch())

    views: dict[int | None, list[View]] = {0: [], 1: [], None: []}
    async with trio.open_nursery() as nursery:
        for client, seat, seed in ((ann, 0, 1), (bob, 1, 2)):
            nursery.start_soon(
                functools.partial(
                    play_scripted,
                    client,
                    random.Random(seed),
                    on_view=views[seat].append,
                )
            )

        async def watch() -> None:
            def record(v: View) -> bool:
                views[None].append(v)
                return v.phase == "match_over"

            view = await wait_view(eve, record, 100)
            assert view.winner is not None

        nursery.start_soon(watch)
    final = views[0][-1]
    assert final.phase == "match_over"
    assert max(final.scores) >= target
    assert final.scores[final.winner] == max(final.scores)
    assert check_no_leaks(views) > 20
    assert final.round >= 2, "the match should take more than one round"
    for client in (ann, bob, eve):
        real = [e for e in client.errors if e.code not in STALE]
        assert real == [], real
    table = next(iter(server.tables.values()))
    assert table.match is not None and table.match.phase == "match_over"
    for client in (ann, bob, eve):
        await client.aclose()


async def test_disconnect_and_resume_mid_round(tcp_server: tuple[Server, int]) -> None:
    _, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(CreateTable("Resume", {"variant": "classic", "seats": 2}, (1,)))
    info = await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    before = await wait_view(ann, lambda v: v.phase == "playing")
    token = ann.welcome.resume
    await ann.aclose()
    await trio.sleep(0.1)
    again = await WireClient.connect("127.0.0.1", port, "Ann", resume=token)
    assert again.welcome.resumed
    table = await again.wait_for(TableInfo)
    assert table.id == info.id and table.you == 0
    after = await wait_view(again, lambda v: True)
    assert after.seat == 0
    assert after.round == before.round
    assert after.hand is not None and len(after.hand) == after.hand_counts[0]
    # A second connection with the same token replaces the first.
    third = await WireClient.connect("127.0.0.1", port, "Ann", resume=token)
    goodbye = await again.wait_for(Goodbye)
    assert "replaced" in goodbye.reason
    assert third.welcome.resumed
    await third.aclose()


async def test_garbage_and_oversized_frames_do_not_disturb_another_table(
    tcp_server: tuple[Server, int],
) -> None:
    server, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(CreateTable("Quiet", {"variant": "classic", "seats": 2, **FAST}, (1,)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())

    async def attacker(payload: bytes) -> bytes:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(payload)
        received = b""
        with trio.move_on_after(5):
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    break
                received += data
        await stream.aclose()
        return received

    hello = msgpack.packb({"type": "hello", "version": PROTOCOL_VERSION, "name": "Mallory"})
    garbage = struct.pack(">I", len(hello)) + hello + struct.pack(">I", 9) + b"\xc1" * 9
    oversized = struct.pack(">I", 10_000_000) + b"x" * 1000
    answers: list[bytes] = []
    async with trio.open_nursery() as nursery:

        async def run(payload: bytes) -> None:
            answers.append(await attacker(payload))

        nursery.start_soon(run, garbage)
        nursery.start_soon(run, oversized)
        nursery.start_soon(
            functools.partial(
                play_scripted,
                ann,
                random.Random(3),
                stop=lambda v: v.round >= 2 or v.phase == "match_over",
            )
        )
    assert any(b"undecodable" in a for a in answers)
    assert any(b"frame_too_large" in a for a in answers)
    assert ann.view is not None and (ann.view.round >= 2 or ann.view.phase == "match_over")
    assert [e for e in ann.errors if e.code not in STALE] == []
    assert "Mallory" not in server.online()
    await ann.aclose()


async def test_bad_requests_get_clear_errors(tcp_server: tuple[Server, int]) -> None:
    _, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(CreateTable("Bad", {"variant": "classic", "seats": 7}, ()))
    error = await ann.wait_for(Error)
    assert error.code == "bad_settings" and "seats" in error.message
    await ann.send(JoinTable(99))
    error = await ann.wait_for(Error)
    assert error.code == "no_such_table"
    twin = WireClient(await trio.open_tcp_stream("127.0.0.1", port), "Ann")
    await twin.send(Hello(PROTOCOL_VERSION, "Ann"))
    with pytest.raises(ServerClosed):
        await twin.wait_for(Welcome)
    assert [e.code for e in twin.errors] == ["name_taken"]
    assert twin.errors[0].fatal
    await ann.aclose()


async def test_a_peer_that_stops_reading_is_dropped_and_play_goes_on(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    """Frames the socket does not take wait in the connection's backlog; past the
    server's limit the peer is dropped, and nobody else waits for it."""
    server = Server(ServerConfig(seed=3, bot_delay=0.001, max_backlog=4096))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    stalled = trio.socket.socket()
    stalled.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 4096)
    await stalled.connect(("127.0.0.1", port))
    stream = trio.SocketStream(stalled)
    watcher = WireClient(stream, "Stalled")
    await watcher.send(Hello(PROTOCOL_VERSION, "Stalled"))
    await watcher.wait_for(Welcome)
    # Every seat a bot: the creator watches them play, and then reads no more.
    busy = {"variant": "american", "seats": 4, **FAST}
    await watcher.send(CreateTable("Busy", busy, (0, 1, 2, 3)))
    await watcher.wait_for(TableInfo)
    await watcher.send(StartMatch())
    table = next(iter(server.tables.values()))
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(WatchTable(table.id))
    seen: list[int] = []

    async def keep_reading() -> None:
        while True:
            message = await ann.receive()
            if isinstance(message, View):
                seen.append(message.seq)

    nursery.start_soon(keep_reading)
    started = trio.current_time()
    with trio.fail_after(20):
        while any(s.name == "Stalled" and s.connected for s in server.sessions.values()):
            await trio.sleep(0.05)
        dropped_after = trio.current_time() - started
        seq = table.seq
        while not seen or seen[-1] <= seq:  # the others still get every change
            await trio.sleep(0.01)
    assert "cannot keep up" in caplog.text
    assert any(s.name == "Ann" and s.connected for s in server.sessions.values())
    assert dropped_after < 20
    await stream.aclose()


async def test_a_link_never_writes_to_its_socket_after_the_connection_ends(
    tcp_server: tuple[Server, int],
) -> None:
    """The flusher may still hold a link whose connection has just ended; by then the
    socket's number may belong to a new connection, so the link must not write."""
    server, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    (link,) = server.links
    assert link.fd is not None
    await ann.stream.aclose()
    with trio.fail_after(5):
        while link in server.links:
            await trio.sleep(0.01)
    assert link.fd is None
    link.send_frame(Goodbye, b"\x00\x00\x00\x01\xc0")  # queued after the end: dropped
    link.flush()
    assert link.out == [] and link.out_bytes == 0
    bob = await WireClient.connect("127.0.0.1", port, "Bob")  # may reuse the number
    assert bob.welcome is not None

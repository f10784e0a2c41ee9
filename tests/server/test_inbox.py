"""The inbox (``maumau.server.inbox``): one task reads every welcomed connection.

Through real TCP on 127.0.0.1: what came in the same packet as the hello is handled
before the inbox takes the socket over; a connection leaves the inbox's set however it
ends (so that a descriptor's number reused by a new connection never meets an old
handler); a peer flooding the server is dropped while others are answered; and a
server whose inbox is not running still reads its connections.
"""

from __future__ import annotations

import functools

import pytest
import trio

from maumau.protocol.codec import NEED_DATA, Connection, encode_frame
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    Chat,
    CreateTable,
    Error,
    Hello,
    Lobby,
    Message,
    Ping,
    Pong,
    TableInfo,
    Welcome,
)
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from support.wire import WireClient

pytestmark = pytest.mark.deadline(60)


async def start(nursery: trio.Nursery, **config: object) -> tuple[Server, int]:
    server = Server(ServerConfig(seed=3, **config))  # type: ignore[arg-type]
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    return server, port


async def until(condition: object, seconds: float = 10) -> None:
    with trio.fail_after(seconds):
        while not callable(condition) or not condition():
            await trio.sleep(0.01)


async def test_messages_sent_with_the_hello_are_answered(nursery: trio.Nursery) -> None:
    """Hello, a table and a ping in one write: the codec holds the last two when the
    welcome is sent, and they must not wait for more bytes. (This client answers no
    ping, which would bring more bytes.)"""
    server, port = await start(nursery)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    codec = Connection("client")
    codec.send(Hello(PROTOCOL_VERSION, "Ann"))  # (the codec now awaits a welcome)
    frames = [
        encode_frame(message.to_wire())
        for message in (
            Hello(PROTOCOL_VERSION, "Ann"),
            CreateTable("Early", {"variant": "classic"}, ()),
            Ping(7),
        )
    ]
    await stream.send_all(b"".join(frames))
    seen: list[Message] = []
    with trio.fail_after(5):
        while not any(isinstance(m, Pong) for m in seen):
            event = codec.next_event()
            if event is NEED_DATA:
                codec.receive_data(bytes(await stream.receive_some(65536)))
            elif isinstance(event, Message):
                seen.append(event)
            else:
                raise AssertionError(f"the server closed: {event}")
    assert isinstance(seen[0], Welcome)
    assert [m.name for m in seen if isinstance(m, TableInfo)] == ["Early"]
    assert [m.nonce for m in seen if isinstance(m, Pong)] == [7]
    assert len(server.connections.inbox.readings) == 1
    await stream.aclose()


async def test_a_connection_leaves_the_inbox_however_it_ends(nursery: trio.Nursery) -> None:
    server, port = await start(nursery)
    inbox = server.connections.inbox
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    bob = await WireClient.connect("127.0.0.1", port, "Bob")
    cid = await WireClient.connect("127.0.0.1", port, "Cid")
    await until(lambda: len(inbox.readings) == 3)
    await ann.send(Bye())  # a goodbye of its own
    await bob.aclose()  # the peer closes
    # Cid is taken over by a new connection of the same session.
    assert cid.welcome is not None
    again = await WireClient.connect("127.0.0.1", port, "Cid", resume=cid.welcome.resume)
    await until(lambda: len(inbox.readings) == 1)
    (reading,) = inbox.readings.values()
    (session,) = [s for s in server.sessions.values() if s.name == "Cid"]
    assert reading.link is session.link is not None
    await again.aclose()
    await until(lambda: not inbox.readings)
    await cid.aclose()


async def test_a_flooding_peer_is_dropped_and_others_are_answered(nursery: trio.Nursery) -> None:
    """One peer writes chat as fast as it can (rate limited, then disconnected for
    its violations); another's ping is answered meanwhile, not after the flood."""
    server, port = await start(nursery, move_rate=1000.0)
    flood = await WireClient.connect("127.0.0.1", port, "Flo")
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.wait_for(Lobby)
    chat = flood.codec.send(Chat("lobby", "x" * 200))
    burst = chat * 2000  # about 450 KB: several reads' worth

    async def pour() -> None:
        with trio.move_on_after(5):
            try:
                while True:
                    await flood.stream.send_all(burst)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    async with trio.open_nursery() as inner:
        inner.start_soon(pour)
        await trio.sleep(0.05)
        await ann.send(Ping(1))
        pong = await ann.wait_for(Pong, 5)
        assert pong.nonce == 1
        inner.cancel_scope.cancel()
    # The flooder broke the limits and is gone; Ann is still here.
    await until(lambda: flood.name not in server.online())
    assert [e.code for e in ann.errors] == []
    await ann.send(Ping(2))
    assert (await ann.wait_for(Pong)).nonce == 2
    await ann.aclose()
    await flood.aclose()


async def test_without_the_inbox_connections_read_themselves(nursery: trio.Nursery) -> None:
    """A server whose background tasks were never started (as some tests build one)
    still reads its connections, each in its own task."""
    server = Server(ServerConfig(seed=3))
    listeners = await nursery.start(functools.partial(trio.serve_tcp, server.handle, 0))
    port = listeners[0].socket.getsockname()[1]
    nursery.start_soon(server.outbox.run)
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    assert not server.connections.inbox.running
    await ann.send(Ping(5))
    assert (await ann.wait_for(Pong)).nonce == 5
    await ann.send(Hello(PROTOCOL_VERSION, "Ann"))
    refused = await ann.wait_for(Error)
    assert refused.code == "already_hello"
    await ann.aclose()

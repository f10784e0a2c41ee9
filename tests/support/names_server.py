"""Look-alike names and the refusals they get."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Hello,
)
from maumau.server.server import Server

CYRILLIC_ANN = "\u0410nn"  # А (Cyrillic capital A), n, n


async def refused(server: Server, nursery: trio.Nursery, name: str, secret: str | None = None):
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    client = WireClient(client_stream, name)
    await client.send(Hello(PROTOCOL_VERSION, name, None, secret))
    with pytest.raises(ServerClosed):
        while True:
            await client.receive()
    assert client.welcome is None and client.errors, name
    error = client.errors[-1]
    assert error.fatal and error.ref == "hello"
    return error


async def _pair(server: Server, nursery: trio.Nursery) -> tuple[trio.abc.Stream]:
    client_stream, server_stream = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, server_stream)
    return (client_stream,)

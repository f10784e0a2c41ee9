"""A small trio client of the maumau protocol, for tests, benchmarks and bots.

It is the protocol at its plainest: open a stream, send ``hello``, then send messages
and read them back, answering the server's pings. Every received message is kept in
``received`` (tests check them for hidden-information leaks); the latest ``view`` and
``table`` are kept at hand.

Each pong carries ``clock_ms``, the client's own clock when it answered (the server
places the client's clock with it, for lag compensation): ``clock`` gives it in
milliseconds, by default ``time.monotonic()`` (any origin will do); with ``clock``
None the pongs carry no clock, as a client of protocol 4 sent them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import trio

from maumau.protocol.codec import NEED_DATA, PEER_CLOSED, Connection
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    Lobby,
    Message,
    Ping,
    Pong,
    TableInfo,
    Tournament,
    View,
    Welcome,
)


class ServerClosed(Exception):
    """The server ended the stream."""


class Refused(ServerClosed):
    """The server refused the hello (and closes the stream): ``error`` says why."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


def monotonic_ms() -> float:
    """This process's monotonic clock in milliseconds: a pong's default ``clock_ms``."""
    return time.monotonic() * 1000


class WireClient:
    def __init__(
        self,
        stream: trio.abc.Stream,
        name: str,
        clock: Callable[[], float] | None = monotonic_ms,
    ) -> None:
        self.stream = stream
        self.name = name
        self.clock = clock  # the pongs' clock_ms (see the module docstring)
        self.codec = Connection("client")
        self.received: list[Message] = []
        self.view: View | None = None
        self.view_at = 0.0  # when the latest view was read (trio's clock)
        self.table: TableInfo | None = None
        self.lobby: Lobby | None = None
        self.tournament: Tournament | None = None
        self.welcome: Welcome | None = None
        self.errors: list[Error] = []
        self.closed = False
        self._sending = trio.Lock()

    @classmethod
    async def open(
        cls,
        stream: trio.abc.Stream,
        name: str,
        resume: str | None = None,
        secret: str | None = None,
        password: str | None = None,
        host_proof: dict[str, Any] | None = None,
    ) -> WireClient:
        """Say hello (with the server ``password`` and the host key's proof, if
        given) and read until the welcome; a refusal raises ``Refused``."""
        client = cls(stream, name)
        await client.send(Hello(PROTOCOL_VERSION, name, resume, secret, password, host_proof))
        answer = await client.wait_for(lambda m: isinstance(m, Welcome | Error))
        if isinstance(answer, Error):
            raise Refused(answer)
        client.welcome = answer
        return client

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        resume: str | None = None,
        secret: str | None = None,
        password: str | None = None,
        host_proof: dict[str, Any] | None = None,
    ) -> WireClient:
        stream = await trio.open_tcp_stream(host, port)
        return await cls.open(stream, name, resume, secret, password, host_proof)

    async def send(self, message: Message) -> None:
        async with self._sending:  # pongs from receive() may meet another task's send
            await self.stream.send_all(self.codec.send(message))

    async def _pong(self, nonce: int) -> None:
        """Answer a ping, reading the clock once the stream is free, just before the
        bytes go."""
        async with self._sending:
            clock_ms = None if self.clock is None else self.clock()
            await self.stream.send_all(self.codec.send(Pong(nonce, clock_ms)))

    async def receive(self) -> Message:
        while True:
            event = self.codec.next_event()
            if event is NEED_DATA:
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
                self.codec.receive_data(bytes(data))
                continue
            if event is PEER_CLOSED:
                self.closed = True
                raise ServerClosed(self.name)
            assert isinstance(event, Message)
            self.received.append(event)
            if isinstance(event, Ping):
                # If the server is gone, reading on reports it.
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await self._pong(event.nonce)

            elif isinstance(event, View):
                self.view = event
                self.view_at = trio.current_time()
            elif isinstance(event, TableInfo):
                self.table = event
            elif isinstance(event, Lobby):
                self.lobby = event
            elif isinstance(event, Tournament):
                self.tournament = event
            elif isinstance(event, Error):
                self.errors.append(event)
            return event

    async def wait_for(
        self, kind: type[Message] | Callable[[Message], bool], timeout: float = 10.0
    ) -> Any:
        """Read until a message of type ``kind`` (or one ``kind(m)`` accepts) arrives."""
        with trio.fail_after(timeout):
            while True:
                message = await self.receive()
                if isinstance(kind, type):
                    if isinstance(message, kind):
                        return message
                elif kind(message):
                    return message

    async def aclose(self) -> None:
        await self.stream.aclose()

"""The client's connection: asyncio streams and the shared sans-IO codec.

Textual runs on asyncio, so the client reads the socket in an asyncio task (the app's
``@work`` network loop) and feeds each chunk to :class:`maumau.protocol.codec.Connection`.
:class:`ServerLink` answers pings by itself and hands every other message to a
callback; sending encodes through the same codec, so the client can never send what
the protocol forbids. Every message is cleaned as it arrives
(:func:`maumau.client.literal.clean_message`): no escape sequence or control
character the server sends gets any further than this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from maumau.protocol.codec import (
    NEED_DATA,
    PEER_CLOSED,
    Connection,
    LocalProtocolError,
    RemoteProtocolError,
)
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Error,
    Goodbye,
    Hello,
    Message,
    Ping,
    Pong,
)

from .literal import clean_message

CONNECT_TIMEOUT = 10.0


class LinkClosed(Exception):
    """The connection ended; ``reason`` says why, in words."""

    def __init__(
        self, reason: str, fatal_error: Error | None = None, goodbye: str | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fatal_error = fatal_error
        self.goodbye = goodbye  # the reason of the server's goodbye, if it said one

    @property
    def replaced(self) -> bool:
        """The server closed this connection because the session was resumed on
        another (its goodbye says "replaced by a new connection")."""
        return self.goodbye is not None and "replaced" in self.goodbye


class ServerLink:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.codec = Connection("client")

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        name: str,
        resume: str | None = None,
        secret: str | None = None,
    ) -> ServerLink:
        """Connect and say ``hello`` (with the resume token and the name's secret)."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), CONNECT_TIMEOUT
            )
        except TimeoutError:
            raise LinkClosed(f"no answer from {host}:{port}") from None
        except OSError as error:
            why = "refused" if isinstance(error, ConnectionRefusedError) else error.strerror
            raise LinkClosed(f"cannot reach {host}:{port}: {why or error}") from None
        link = cls(reader, writer)
        await link.send(Hello(PROTOCOL_VERSION, name, resume, secret))
        return link

    async def send(self, message: Message) -> None:
        """Send one message. Raises LinkClosed when the connection is gone, and also
        before ``welcome`` (the codec refuses to send anything but ``hello`` then)."""
        try:
            self.writer.write(self.codec.send(message))
            await self.writer.drain()
        except (ConnectionError, OSError) as error:
            raise LinkClosed(f"connection lost: {error}") from None
        except LocalProtocolError as error:
            raise LinkClosed(f"not connected yet ({error.message})") from None

    async def run(self, deliver: Callable[[Message], None]) -> None:
        """Read until the connection ends; raises LinkClosed with the reason."""
        fatal: Error | None = None
        goodbye: str | None = None
        while True:
            try:
                event = self.codec.next_event()
            except RemoteProtocolError as error:
                raise LinkClosed(f"the server sent something invalid: {error.message}") from None
            if event is NEED_DATA:
                try:
                    data = await self.reader.read(65536)
                except (ConnectionError, OSError) as error:
                    raise LinkClosed(f"connection lost: {error}") from None
                self.codec.receive_data(data)
                continue
            if event is PEER_CLOSED:
                reason = fatal.message if fatal else goodbye or "the server closed the connection"
                raise LinkClosed(reason, fatal, goodbye)
            assert isinstance(event, Message)
            event = clean_message(event)
            if isinstance(event, Ping):
                await self.send(Pong(event.nonce))
                continue
            if isinstance(event, Error) and event.fatal:
                fatal = event
            if isinstance(event, Goodbye):
                goodbye = event.reason  # e.g. "the server is shutting down"
            deliver(event)

    def close(self) -> None:
        self.writer.close()

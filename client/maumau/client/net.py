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

from .i18n import _
from .literal import clean_message
from .words import error_line, goodbye_line

CONNECT_TIMEOUT = 10.0


class LinkClosed(Exception):
    """The connection ended; ``reason`` says why, in words."""

    def __init__(
        self,
        reason: str,
        fatal_error: Error | None = None,
        goodbye: str | None = None,
        goodbye_code: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fatal_error = fatal_error
        self.goodbye = goodbye  # the reason of the server's goodbye, if it said one
        self.goodbye_code = goodbye_code  # and its code (protocol 4)

    @property
    def replaced(self) -> bool:
        """The server closed this connection because the session was resumed on
        another (its goodbye's code is "replaced")."""
        return self.goodbye_code == "replaced"


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
            raise LinkClosed(
                _("no answer from {address}").format(address=f"{host}:{port}")
            ) from None
        except OSError as error:
            if isinstance(error, ConnectionRefusedError):
                text = _("cannot reach {address}: refused")
            else:
                text = _("cannot reach {address}: {why}")
            address = f"{host}:{port}"
            raise LinkClosed(text.format(address=address, why=error.strerror or error)) from None
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
            raise LinkClosed(_("connection lost: {why}").format(why=error)) from None
        except LocalProtocolError as error:
            raise LinkClosed(_("not connected yet ({why})").format(why=error.message)) from None

    async def run(self, deliver: Callable[[Message], None]) -> None:
        """Read until the connection ends; raises LinkClosed with the reason."""
        fatal: Error | None = None
        goodbye: str | None = None
        goodbye_code: str | None = None
        while True:
            try:
                event = self.codec.next_event()
            except RemoteProtocolError as error:
                text = _("the server sent something invalid: {why}")
                raise LinkClosed(text.format(why=error.message)) from None
            if event is NEED_DATA:
                try:
                    data = await self.reader.read(65536)
                except (ConnectionError, OSError) as error:
                    raise LinkClosed(_("connection lost: {why}").format(why=error)) from None
                self.codec.receive_data(data)
                continue
            if event is PEER_CLOSED:
                if fatal is not None:
                    details = fatal.details
                    reason = error_line(fatal.code, details, fatal.message)
                elif goodbye is not None:
                    reason = goodbye_line(goodbye_code, goodbye)
                else:
                    reason = _("the server closed the connection")
                raise LinkClosed(reason, fatal, goodbye, goodbye_code)
            assert isinstance(event, Message)
            event = clean_message(event)
            if isinstance(event, Ping):
                await self.send(Pong(event.nonce))
                continue
            if isinstance(event, Error) and event.fatal:
                fatal = event
            if isinstance(event, Goodbye):
                goodbye = event.reason  # e.g. "the server is shutting down"
                goodbye_code = event.code
            deliver(event)

    def close(self) -> None:
        self.writer.close()

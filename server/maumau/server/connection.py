"""Connections: from a socket to messages and back, one nursery per connection.

Theory of operation
-------------------
Each connection (:meth:`Connections.handle`, the handler ``trio.serve_tcp`` calls) gets
one nursery with its tasks: its own, which reads until the hello, feeding the sans-IO
codec; a writer that is needed only when the peer does not keep up (see
:mod:`maumau.server.link`); and once the hello is answered a pinger. The first
message must be ``hello`` within ``hello_timeout``; the handshake
(:mod:`maumau.server.handshake`) answers it. From then on the server's one
:class:`~maumau.server.inbox.Inbox` reads the socket (a stream that is not a socket,
as in tests, goes on being read by the connection's own task) and hands each message
to the connection's handler (:meth:`Connections._handler`). There every message is
rate limited (token buckets per connection for moves, chat and catches), stamped
with ``trio.current_time()`` right after its frame is decoded (the Mau arbiter's
clock), and dispatched (:mod:`maumau.server.dispatch`) synchronously, so changes are
applied one at a time in arrival order. Each violation of the limits
or the protocol is answered with an error; a connection that keeps violating is
closed. Any exception while handling one connection is logged and ends only that
connection.

The pinger pings at once and then every ``ping_interval`` (every
``play_ping_interval``, about once a second, while the session's table plays with lag
compensation on); the pongs measure the round trip and place the client's clock, and
with each pong the kernel's own round-trip figures for the socket are read
(``TCP_INFO``, see :mod:`maumau.server.kernel_rtt`), which bound what the pongs may
claim (for lag compensation, see :mod:`maumau.server.latency`); and a peer that
leaves a ping unanswered for DEAD_AFTER seconds is disconnected. When a connection
ends, its session keeps its seat (see :mod:`maumau.server.session`).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

import trio

from maumau.protocol.codec import NEED_DATA, PEER_CLOSED, Connection, RemoteProtocolError
from maumau.protocol.messages import Bye, Error, Goodbye, Hello, Message, Ping, Pong

from .dispatch import Dispatcher
from .errors import TableError
from .handshake import Handshake
from .inbox import Inbox, Reading
from .kernel_rtt import read as kernel_rtt
from .link import Link, Outbox
from .lobby import Lobby
from .rules import IllegalAction
from .saving import Saver
from .session import Session

log = logging.getLogger("maumau.server")

HELLO_TIMEOUT = 10.0
PING_INTERVAL = 5.0  # between pings, unless PLAY_PING_INTERVAL applies
PLAY_PING_INTERVAL = 1.0  # while it plays with lag compensation (which wants samples)
DEAD_AFTER = 15.0  # seconds a ping may go unanswered before the peer counts as gone
READ_SIZE = 65536
SHUTDOWN_GRACE = 1.0


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = trio.current_time()

    def take(self, now: float) -> bool:
        """Take a token at ``now`` (``trio.current_time()``), if there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Peer:
    """One connection's link, and the session its hello took (None before, or once the
    session has said ``bye``)."""

    link: Link
    session: Session | None = None


class Connections:
    """Every live connection (see the module docstring)."""

    def __init__(
        self,
        outbox: Outbox,
        saver: Saver,
        lobby: Lobby,
        handshake: Handshake,
        dispatcher: Dispatcher,
        links: set[Link],
        ping_interval: float = PING_INTERVAL,
        hello_timeout: float = HELLO_TIMEOUT,
        play_ping_interval: float = PLAY_PING_INTERVAL,
        move_rate: float = 20.0,
        move_burst: float = 40.0,
    ) -> None:
        self.outbox = outbox
        self.saver = saver
        self.lobby = lobby
        self.handshake = handshake
        self.dispatcher = dispatcher
        self.links = links
        self.ping_interval = ping_interval
        self.play_ping_interval = play_ping_interval
        self.hello_timeout = hello_timeout
        self.move_rate = move_rate
        self.move_burst = move_burst
        self.inbox = Inbox()  # reads every welcomed connection (run by the server)

    async def handle(self, stream: trio.abc.Stream, peer: str = "?") -> None:
        """One connection, from hello to close. Never raises. ``peer`` is where a
        stream that is no socket comes from (a socket says it itself)."""
        fd: int | None = None
        if isinstance(stream, trio.SocketStream):
            with contextlib.suppress(OSError):
                peer = str(stream.socket.getpeername())
                fd = stream.socket.fileno()
        link = Link(self.outbox, Connection("server"), fd)
        link.peer = peer
        attached = Peer(link)
        try:
            async with trio.open_nursery() as nursery:
                link.scope = nursery.cancel_scope
                nursery.start_soon(self._writer, stream, link)
                self.links.add(link)
                await self._run_connection(stream, attached, nursery)
                link.close()
        except Exception:
            log.exception("connection %s failed", link.peer)
        finally:
            self.links.discard(link)
            self.inbox.discard(link, fd)  # before the socket closes (see Inbox)
            link.detach()  # before the socket closes and its number can be reused
            session = attached.session
            if session is not None and session.link is link:
                session.link = None
                log.info("%s disconnected (%s)", session.name, link.peer)
                table = session.table
                if table is not None:
                    table.disconnected(session)
                    if not table.has_humans():
                        self.lobby.close_if_empty(table)
                    self.lobby.left(table)
                self.lobby.lobby_changed()
            with trio.move_on_after(0.5) as cleanup:
                cleanup.shield = True
                await trio.aclose_forcefully(stream)

    async def _writer(self, stream: trio.abc.Stream, link: Link) -> None:
        """Write what the flusher could not (a full socket, or a stream that is not a
        socket), and after :meth:`Link.close` what is left; then end the connection."""
        fd = link.fd
        try:
            while True:
                await link.writer_wakeup.wait()
                link.writer_wakeup = trio.Event()
                while link.out:
                    self.saver.commit()  # nothing leaves before what caused it is journaled
                    if fd is None:
                        data = b"".join(link.out)
                        link.out.clear()
                        await stream.send_all(data)
                        link.out_bytes -= len(data)
                        continue
                    await trio.lowlevel.wait_writable(fd)
                    # Frames may have come while it waited: commit them too (a failed
                    # commit holds them, and only what may go is left to write).
                    self.saver.commit()
                    if link.out:
                        with contextlib.suppress(BlockingIOError):
                            link.write_some()
                if link.closing:
                    break
                link.backlogged = fd is None
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        if link.scope is not None:
            link.scope.cancel()

    async def _run_connection(
        self, stream: trio.abc.Stream, attached: Peer, nursery: trio.Nursery
    ) -> None:
        link = attached.link
        sock = stream.socket if isinstance(stream, trio.SocketStream) else None
        hello: Hello | None = None
        with trio.move_on_after(self.hello_timeout):
            while hello is None:
                message = await self._next_message(stream, link)
                if message is None:
                    return
                if isinstance(message, Hello):
                    hello = message
        if hello is None:
            link.send(
                Error(
                    "hello_timeout",
                    f"no hello within {self.hello_timeout:g} s",
                    None,
                    True,
                    {"seconds": self.hello_timeout},
                )
            )
            return
        session = self.handshake.welcome(link, hello)
        if session is None:
            return
        attached.session = session
        nursery.start_soon(self._pinger, session, link)
        handle = self._handler(attached, session, sock)

        def drain() -> bool:
            """Handle every message the codec holds; False: the connection ends."""
            while True:
                message = self._next_buffered(link)
                if message is NEED_DATA:
                    return True
                if not isinstance(message, Message) or not handle(message):
                    return False

        if not drain():
            return
        if link.fd is not None and self.inbox.running:
            # From now on the inbox reads this socket (see maumau.server.inbox).
            def feed(data: bytes) -> bool:
                link.codec.receive_data(data)
                return drain()

            reading = Reading(link, feed)
            if self.inbox.add(reading):
                await reading.done.wait()
            return
        while True:
            message = await self._next_message(stream, link)
            if message is None or not handle(message):
                return

    def _handler(
        self, attached: Peer, session: Session, sock: trio.socket.SocketType | None
    ) -> Callable[[Message], bool]:
        """What a welcomed connection does with each message: rate limits, pongs,
        then the dispatcher (see the module docstring). The handler returns False
        when the connection ends."""
        link = attached.link
        moves = TokenBucket(self.move_rate, self.move_burst)
        chats = TokenBucket(1, 5)
        catches = TokenBucket(2, 4)
        dispatch = self.dispatcher.dispatch

        def handle(message: Message) -> bool:
            if session.link is not link:
                return False  # replaced by a newer connection
            stamp = trio.current_time()
            session.rate.add(stamp)
            if isinstance(message, Ping):
                link.send(Pong(message.nonce))
                return True
            if isinstance(message, Pong):
                sent = session.pings.pop(message.nonce, None)
                if sent is not None:
                    session.latency.add(sent, stamp, message.clock_ms, kernel_rtt(sock))
                return True
            if isinstance(message, Bye):
                self.lobby.forget(session)
                attached.session = None
                self.lobby.lobby_changed()
                return False
            if isinstance(message, Hello):
                link.send(Error("already_hello", "hello was already answered", "hello"))
                return True
            bucket = chats if message.TYPE == "chat" else moves
            allowed = bucket.take(stamp) and (message.TYPE != "catch" or catches.take(stamp))
            if not allowed:
                link.send(Error("rate_limited", "slow down: too many messages", message.TYPE))
                return link.violation()
            try:
                dispatch(session, message, stamp)
            except (TableError, IllegalAction) as error:
                reason = error.message
                link.send(Error(error.code, reason[:500], message.TYPE, False, error.details))
            return True

        return handle

    def _next_buffered(self, link: Link) -> Message | object | None:
        """The next valid message the codec holds, NEED_DATA when it needs more
        bytes first, or None when the connection should end."""
        codec = link.codec
        while True:
            try:
                event = codec.next_event()
            except RemoteProtocolError as error:
                ref = error.ref if error.ref is None else error.ref[:32]
                link.send(Error(error.code, error.message[:500], ref, error.fatal, error.details))
                if error.fatal or not link.violation():
                    return None
                continue
            if event is PEER_CLOSED:
                return None
            return event

    async def _next_message(self, stream: trio.abc.Stream, link: Link) -> Message | None:
        """The next valid message, or None when the connection should end."""
        codec = link.codec
        while True:
            event = self._next_buffered(link)
            if event is NEED_DATA:
                fd = link.fd
                if fd is None:
                    try:
                        data = await stream.receive_some(READ_SIZE)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return None
                    codec.receive_data(bytes(data))
                    continue
                # A socket is read directly: wait, then read once. (The stream's
                # receive_some tries a read first, which mostly fails here, and yields
                # again after it: twice the system calls and task switches.)
                await trio.lowlevel.wait_readable(fd)
                try:
                    codec.receive_data(os.read(fd, READ_SIZE))
                except BlockingIOError:
                    pass
                except OSError:
                    return None
                continue
            assert event is None or isinstance(event, Message)
            return event

    async def _pinger(self, session: Session, link: Link) -> None:
        """Ping at once, then every ``ping_interval`` (``play_ping_interval`` while the
        session's table plays with lag compensation on); the pongs measure the round
        trip (for lag compensation), and a peer that leaves a ping unanswered for
        DEAD_AFTER seconds is disconnected."""
        nonce = 0
        last = -float("inf")
        while not link.closing:
            now = trio.current_time()
            due = last + (self.play_ping_interval if session.racing else self.ping_interval)
            if now < due:
                # A match that starts meanwhile is noticed at the next ping: a call
                # window comes many turns after the deal, and the earlier pings count.
                await trio.sleep(due - now)
                continue
            if session.link is not link:
                return
            last = now
            if session.pings and now - min(session.pings.values()) >= DEAD_AFTER:
                log.info("%s stopped answering pings", session.name)
                link.abort()
                return
            nonce += 1
            session.pings[nonce] = now
            link.send(Ping(nonce))

    async def goodbye(self) -> None:
        """Tell everybody goodbye and give their writers a moment to flush."""
        log.info("shutting down: telling %d connections", len(self.links))
        for link in list(self.links):
            link.send(Goodbye("the server is shutting down", "shutdown"))
            link.close()
        with trio.move_on_after(SHUTDOWN_GRACE):
            while self.links:
                await trio.sleep(0.02)

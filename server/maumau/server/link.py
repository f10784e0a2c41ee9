"""Connections' writes: the :class:`Link` of each connection and the :class:`Outbox`
that writes them all.

Theory of operation
-------------------
Sending is cheap because it is batched. A message for a connection is queued on its
:class:`Link` (encoded once, however many connections get it). One *flusher* task for
the whole server (:meth:`Outbox.run`) then runs after each batch of changes, at most
once every ``interval`` (2 ms; group commit): it commits the store, so that nothing
leaves before what caused it is journaled, and writes every waiting link's frames with
one non-blocking ``writev``. Only what a socket does not take is left to that
connection's writer task (see :mod:`maumau.server.connection`), which waits until the
socket can take more. Past ``max_backlog`` bytes waiting, the peer is disconnected
rather than slowing anybody else. (Streams that are not sockets, as in tests, always
go through the writer task.)

While the store cannot save, the outbox is *holding*: every link keeps back the frames
it has (:meth:`Link.hold`), and from then on the frames that tell of a table
(``table``, ``view``, ``event``, ``mau_decision``) are held too, while everything else
(pings, errors, chat, the lobby) still goes out; once the store saves again they go
out in order (:meth:`Link.release`). See :mod:`maumau.server.saving`.

This layer knows frames and sockets only: not sessions, tables or the store.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable

import trio

from maumau.protocol.codec import Connection, LocalProtocolError, encode_frame
from maumau.protocol.messages import (
    Error,
    GameEvent,
    MauDecision,
    Message,
    TableInfo,
    Tournament,
    View,
)

log = logging.getLogger("maumau.server")

FLUSH_INTERVAL = 0.002  # seconds: at most one commit-and-write round per interval
WRITEV_MAX = 512  # buffers in one writev (the system allows at least 1024)
MAX_BACKLOG = 1 << 20  # bytes waiting for one connection before it is dropped
MAX_VIOLATIONS = 20
# What is held back while the store cannot save: what tells of tables' matches, and of
# tournaments (their registrations and results are saved with the same commits).
TABLE_STATE: frozenset[type[Message]] = frozenset(
    {TableInfo, View, GameEvent, MauDecision, Tournament}
)


class Outbox:
    """The links with frames waiting, and the one task that writes them (see the
    module docstring). ``commit`` is called before every round of writes; it returns
    whether what was written so far is saved (if not, the outbox is holding)."""

    def __init__(self, interval: float = FLUSH_INTERVAL, max_backlog: int = MAX_BACKLOG) -> None:
        self.interval = interval
        self.max_backlog = max_backlog
        self.holding = False  # the store cannot save: frames about tables wait
        self.commit: Callable[[], bool] = lambda: True
        self.to_flush: list[Link] = []  # links with frames waiting for the flusher
        self.wakeup = trio.Event()

    def queue(self, link: Link) -> None:
        """Have ``link`` written in the next round."""
        link.queued = True
        if not self.to_flush:  # (the first of a round wakes the flusher)
            self.wakeup.set()
        self.to_flush.append(link)

    def wake(self) -> None:
        """Run a round soon (to commit, even with nothing to write)."""
        self.wakeup.set()

    async def run(self) -> None:
        """After each batch of changes: commit the store, then write every waiting
        link's frames (see :class:`Link`). One task for all connections costs far less
        than waking a writer task per connection for every change."""
        last = -math.inf
        while True:
            await self.wakeup.wait()
            if self.interval > 0:
                # Group commit: at most one flush per interval; under load each then
                # carries more changes, and commits fewer times.
                wait = last + self.interval - trio.current_time()
                if wait > 0:
                    await trio.sleep(wait)
            self.wakeup = trio.Event()
            self.commit()  # nothing leaves before what caused it is journaled
            links, self.to_flush = self.to_flush, []
            for link in links:
                link.flush()
            last = trio.current_time()


class Link:
    """One live connection: the codec, the frames waiting to go out, its cancel scope.

    Frames are written by the server's flusher, straight from the event loop: after
    every batch of changes it commits the store and writes each waiting connection's
    frames with one non-blocking ``writev``. Only what the socket does not take (or
    everything, on a stream that is not a socket) is left to the connection's writer
    task, which waits until the stream can take more. A backlog over the server's
    ``max_backlog`` bytes means the peer is not reading: it is disconnected.
    """

    def __init__(self, outbox: Outbox, codec: Connection, fd: int | None) -> None:
        self.outbox = outbox
        self.codec = codec
        self.fd = fd
        self.out: list[bytes | memoryview] = []  # frames not yet written, in order
        self.held: list[bytes] = []  # frames waiting for the store to save again
        self.out_bytes = 0
        self.queued = False  # on the server's list of links to flush
        self.backlogged = fd is None  # the writer task, not the flusher, writes now
        self.writer_wakeup = trio.Event()
        self.scope: trio.CancelScope | None = None
        self.closing = False
        self.peer = "?"
        self.violations = 0

    def violation(self) -> bool:
        """Count one broken rule; False (after telling the peer) once there were too many."""
        self.violations += 1
        if self.violations >= MAX_VIOLATIONS:
            self.send(Error("abuse", "too many violations; closing", None, True))
            return False
        return True

    def send(self, message: Message, frame: bytes | None = None) -> None:
        if frame is None:
            frame = encode_frame(message.to_wire())
        self.send_frame(type(message), frame)

    def send_frame(self, kind: type[Message], frame: bytes) -> None:
        self.send_frames((kind,), frame)

    def send_frames(
        self, kinds: tuple[type[Message], ...], frames: bytes, urgent: bool = False
    ) -> None:
        """Queue ready-made frames holding messages of the given classes. While the
        store cannot save, frames about a table's state are held (unless ``urgent``:
        the news of the pause itself)."""
        if self.closing:
            return
        try:
            frame = self.codec.send_frames(kinds, frames)
        except LocalProtocolError as error:
            log.warning("not sent to %s: %s", self.peer, error)
            return
        if self.outbox.holding and not urgent and not TABLE_STATE.isdisjoint(kinds):
            self.held.append(frame)
            self.out_bytes += len(frame)
            if self.out_bytes > self.outbox.max_backlog:
                log.warning("%s: too much held for it; disconnecting", self.peer)
                self.abort()
            return
        self.out.append(frame)
        self.out_bytes += len(frame)
        if self.out_bytes > self.outbox.max_backlog:
            log.warning("%s cannot keep up; disconnecting", self.peer)
            self.abort()
        elif self.backlogged:
            self.writer_wakeup.set()
        elif not self.queued:
            self.outbox.queue(self)

    def flush(self) -> None:
        """Write what is waiting, without blocking (the store is committed already)."""
        self.queued = False
        if not self.out or self.scope is None:
            return
        if self.backlogged or self.fd is None:
            self.writer_wakeup.set()
            return
        try:
            done = self.write_some()
        except BlockingIOError:
            done = False
        except OSError:
            self.abort()  # the peer is gone; the reader ends the connection
            return
        if not done:
            self.backlogged = True
            self.writer_wakeup.set()

    def write_some(self) -> bool:
        """One ``writev`` of the waiting frames to the socket; True if all went.

        The frames are written as they are, without joining them: many are shared
        by every connection at a table, so what a slow peer has not taken yet stays
        one copy for all (a written part is dropped by slicing a view of it)."""
        assert self.fd is not None
        out = self.out
        written = os.writev(self.fd, out[:WRITEV_MAX])
        self.out_bytes -= written
        done = 0
        while done < len(out) and written >= len(out[done]):
            written -= len(out[done])
            done += 1
        del out[:done]
        if written:
            out[0] = memoryview(out[0])[written:]
        return not out

    def hold(self) -> None:
        """The store failed to commit what the waiting frames depend on: keep them back
        (all but a frame partly written already, which was saved before; and on a
        closing connection its last frame, the goodbye or error that ends it, which
        nothing comes after)."""
        out = self.out
        first = 1 if out and isinstance(out[0], memoryview) else 0
        last = len(out) - 1 if self.closing and len(out) > first else len(out)
        self.held[:0] = [bytes(frame) for frame in out[first:last]]
        del out[first:last]

    def release(self) -> None:
        """The store saved again: send what was held, in order."""
        if not self.held:
            return
        self.out.extend(self.held)
        self.held.clear()
        if self.backlogged:
            self.writer_wakeup.set()
        elif not self.queued:
            self.outbox.queue(self)

    def close(self) -> None:
        """Stop queueing; the writer sends what is queued, then the connection ends."""
        self.closing = True
        self.backlogged = True
        self.writer_wakeup.set()

    def detach(self) -> None:
        """The connection has ended: drop what waits, and never touch its socket
        again (the flusher may still hold this link; the descriptor's number may
        soon belong to another connection)."""
        self.closing = True
        self.fd = None
        self.backlogged = True
        self.out.clear()
        self.held.clear()
        self.out_bytes = 0

    def abort(self) -> None:
        """End the connection now, dropping whatever is queued (for a dead peer)."""
        self.closing = True
        self.out.clear()
        self.held.clear()
        self.out_bytes = 0
        if self.scope is not None:
            self.scope.cancel()

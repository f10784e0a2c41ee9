"""Reading every connection past its hello from one task: the :class:`Inbox`.

Theory of operation
-------------------
A connection's own task reads its ``hello`` (see :mod:`maumau.server.connection`).
Once the hello is answered, a connection on a socket is handed to the inbox: one task
for the whole server that waits on an epoll set of its own (level-triggered, every
such socket in it), which trio watches as one more file descriptor. When any socket
is readable the task wakes once, reads each ready socket once (``READ_SIZE`` at most,
so one busy peer cannot starve the others: what it sent beyond waits for the next
round) and hands every complete message to the connection's handler, synchronously,
in the order the kernel reported the sockets ready.

Waiting per connection would cost, for every message, a trio task switch and a
change of trio's own epoll registration (it uses one-shot events); this costs one of
each per round, however many messages the round carries. Rounds are short (no
``await`` inside one), so nothing else at the server waits long behind them, and a
socket cannot close during one: a connection ends in its own task, after the round.

When a handler says the connection ends (a ``bye``, a fatal error, too many
violations, a session taken over) or the peer has closed or broken the socket, the
socket leaves the set and the connection's task is told (:attr:`Reading.done`); it
then ends as it would have after its own last read. Its task also takes the socket
out of the set (:meth:`Inbox.discard`) before closing it, whatever ended it, so that
a number reused by a new connection never finds an old one's handler.

This layer knows sockets, the codec and a handler callback only.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from .link import Link

log = logging.getLogger("maumau.server")

READ_SIZE = 65536  # bytes read from one socket in one round
MAX_EVENTS = 1024  # sockets served in one round (the rest are served in the next)


@dataclass(eq=False)
class Reading:
    """A connection the inbox reads: its link, what handles the bytes read (False:
    the connection ends), and the event its own task waits for."""

    link: Link
    feed: Callable[[bytes], bool]
    done: trio.Event = field(default_factory=trio.Event)


class Inbox:
    """The one task that reads every connection past its hello (see the module
    docstring). Until :meth:`run` has started, :attr:`running` is False and
    connections read themselves, as before their hello."""

    def __init__(self) -> None:
        self.epoll = select.epoll()
        self.readings: dict[int, Reading] = {}
        self.running = False

    def add(self, reading: Reading) -> bool:
        """Read ``reading``'s socket from now on; False if it cannot be (closed)."""
        fd = reading.link.fd
        if fd is None:
            return False
        try:
            self.epoll.register(fd, select.EPOLLIN)
        except OSError:
            return False
        self.readings[fd] = reading
        return True

    def discard(self, link: Link, fd: int | None) -> None:
        """Stop reading ``link``'s socket ``fd`` (before it is closed)."""
        if fd is None:
            return
        reading = self.readings.get(fd)
        if reading is None or reading.link is not link:
            return
        del self.readings[fd]
        with contextlib.suppress(OSError, ValueError):
            self.epoll.unregister(fd)
        reading.done.set()

    async def run(self) -> None:
        """The inbox's task: a round of reads each time a socket in the set is
        readable. Ends only when cancelled (the server stops). A second start while
        it runs returns at once: one task reads them all."""
        if self.running:
            return
        self.running = True
        epoll = self.epoll
        try:
            while True:
                await trio.lowlevel.wait_readable(epoll.fileno())
                for fd, _flags in epoll.poll(0, MAX_EVENTS):
                    self._read(fd)
        finally:
            # Every connection it read ends with it. (The epoll set is closed with this
            # object: a server may be served again.)
            self.running = False
            for fd, reading in list(self.readings.items()):
                self.discard(reading.link, fd)

    def _read(self, fd: int) -> None:
        reading = self.readings.get(fd)
        if reading is None:
            return
        link = reading.link
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        try:
            going = bool(data) and reading.feed(data) and not link.closing
        except Exception:  # one connection's failure ends only that connection
            log.exception("connection %s failed", link.peer)
            going = False
        if not going:
            self.discard(link, fd)

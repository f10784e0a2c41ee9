"""A TCP proxy that adds a fixed one-way delay in each direction, for lag experiments.

Theory of operation
-------------------
Most of a network path's latency is a fixed delay: the time bytes take to cross it
when nothing is queued. The proxy models only that. For each direction of each
connection one task reads chunks from one side and stamps each with
``trio.current_time() + delay``; a second task takes the chunks in the order they were
read, sleeps until each one's moment and writes it to the other side. Every chunk of a
direction gets the same delay, so the moments never decrease and a single queue per
direction keeps the bytes in order: the other side receives exactly the bytes that
were sent, in the same order, ``delay`` later (chunk boundaries may differ, as TCP's do
anyway).

The delay is a lower bound, counted from when the proxy read the bytes. A chunk goes
out later than its moment by however long the event loop takes to wake the writer
(well under a millisecond on an idle machine, more under load), plus any time the
receiver takes to accept it. A round trip through the proxy therefore takes at least
``delay + return_delay`` plus two loopback hops. With ``return_delay`` different from
``delay`` the path is asymmetric, which a server estimating one-way delay as half the
round trip cannot see.

An end of stream from one side reaches the other side after the same delay, as a
half-close where the stream supports it; once both directions have ended, or either
side breaks, both connections are closed. Bandwidth, jitter, loss and reordering are
not modelled. :class:`LagProxy` listens on loopback unless told otherwise.

Use::

    proxy = LagProxy("127.0.0.1", server_port, delay=0.080)
    port = await nursery.start(proxy.run)  # connect here instead of server_port

:func:`relay` does the same between any two trio streams (for example in-memory
streams under ``trio.testing.MockClock``).
"""

from __future__ import annotations

import functools

import trio

CHUNK = 65536
QUEUE = 256  # chunks in flight per direction before reading pauses (backpressure)


async def _read(
    src: trio.abc.ReceiveStream, out: trio.MemorySendChannel[tuple[float, bytes]], delay: float
) -> None:
    """Stamp each chunk with its delivery moment; an empty chunk marks the end."""
    async with out:
        while True:
            data = bytes(await src.receive_some(CHUNK))
            await out.send((trio.current_time() + delay, data))
            if not data:
                return


async def _write(
    queue: trio.MemoryReceiveChannel[tuple[float, bytes]], dst: trio.abc.SendStream
) -> None:
    """Deliver each chunk at its moment, in the order read."""
    async with queue:
        async for due, data in queue:
            await trio.sleep_until(due)
            if not data:
                if isinstance(dst, trio.abc.HalfCloseableStream):
                    await dst.send_eof()
                else:
                    await dst.aclose()
                return
            await dst.send_all(data)


async def _direction(
    src: trio.abc.ReceiveStream,
    dst: trio.abc.SendStream,
    delay: float,
    scope: trio.CancelScope,
) -> None:
    """One direction; if either side breaks, the whole connection ends."""
    send, receive = trio.open_memory_channel[tuple[float, bytes]](QUEUE)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_read, src, send, delay)
            nursery.start_soon(_write, receive, dst)
    except* (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError):
        scope.cancel()


async def relay(
    a: trio.abc.Stream, b: trio.abc.Stream, delay: float, return_delay: float | None = None
) -> None:
    """Carry bytes from ``a`` to ``b`` ``delay`` seconds late, and from ``b`` to ``a``
    ``return_delay`` (default: ``delay``) seconds late, until both directions have
    ended or one side breaks. Closes both streams."""
    if delay < 0 or (return_delay is not None and return_delay < 0):
        raise ValueError("delays cannot be negative")
    back = delay if return_delay is None else return_delay
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_direction, a, b, delay, nursery.cancel_scope)
            nursery.start_soon(_direction, b, a, back, nursery.cancel_scope)
    finally:
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(a)
            await trio.aclose_forcefully(b)


class LagProxy:
    """Listens on ``host`` and forwards each connection to ``target_host:target_port``,
    ``delay`` seconds late towards the target and ``return_delay`` (default: the same)
    seconds late back. ``connections`` counts the connections accepted so far."""

    def __init__(
        self,
        target_host: str,
        target_port: int,
        delay: float,
        return_delay: float | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        if delay < 0 or (return_delay is not None and return_delay < 0):
            raise ValueError("delays cannot be negative")
        self.target_host = target_host
        self.target_port = target_port
        self.delay = delay
        self.return_delay = delay if return_delay is None else return_delay
        self.host = host
        self.port: int | None = None
        self.connections = 0

    async def run(
        self, port: int = 0, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Serve until cancelled; ``task_status.started`` gets the bound port."""
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(
                functools.partial(trio.serve_tcp, self._handle, port, host=self.host)
            )
            self.port = int(listeners[0].socket.getsockname()[1])
            task_status.started(self.port)

    async def _handle(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        try:
            upstream = await trio.open_tcp_stream(self.target_host, self.target_port)
        except OSError:
            await trio.aclose_forcefully(stream)
            return
        await relay(stream, upstream, self.delay, self.return_delay)

"""A TCP proxy that delays each direction by a fixed delay plus jitter, for lag experiments.

Theory of operation
-------------------
Most of a network path's latency is a fixed delay: the time bytes take to cross it
when nothing is queued. On top of it comes *jitter*: queues in routers and radio
links add a varying wait, mostly small with a long tail (Wi-Fi), sometimes in rare
large spikes (a retransmission, a busy access point). The proxy models both, per
chunk. For each direction of each connection one task reads chunks from one side and
stamps each with its delivery moment; a second task takes the chunks in the order
they were read, sleeps until each one's moment and writes it to the other side.

A chunk read at time ``t`` is due at ``max(t + max(0, delay + j), previous)``: ``j``
is drawn for this chunk from the direction's :class:`Jitter`, and ``previous`` is the
moment of the chunk read before it. So a chunk never overtakes an earlier one (as on
a TCP connection, a late segment holds up everything behind it), and a single queue
per direction keeps the bytes in order: the other side receives exactly the bytes
that were sent, in the same order (chunk boundaries may differ, as TCP's do anyway).
The jitter modes (``Jitter.mode``; ``ms`` and ``p`` are its parameters):

- ``none``: ``j = 0``; every chunk is exactly ``delay`` late.
- ``uniform``: ``j`` uniform in ``[-ms, +ms]``: the delay wanders symmetrically
  around ``delay`` (never below zero in total).
- ``exponential``: ``j`` exponential with mean ``ms``: never below ``delay``, mostly
  a little above it, with a long tail (about 5 % of chunks more than 3 ``ms`` late).
- ``spike``: ``j = ms`` with probability ``p``, else 0: a steady link with rare
  large spikes.

Each direction draws from its own ``random.Random``, seeded from the proxy's ``seed``,
the connection's number and the direction (:func:`direction_rng`), so a run with the
same seed and the same chunks gets the same delays, whatever else runs concurrently.
A chunk is whatever one read returned, so on real TCP the chunking (and with it
which draw a message gets) depends on timing; on in-memory streams under
``trio.testing.MockClock`` it is exact.

The delay is a lower bound, counted from when the proxy read the bytes. A chunk goes
out later than its moment by however long the event loop takes to wake the writer
(well under a millisecond on an idle machine, more under load), plus any time the
receiver takes to accept it. A round trip through the proxy therefore takes at least
``delay + return_delay`` (plus the jitter) plus two loopback hops. With
``return_delay`` different from ``delay`` the path is asymmetric, which a server
estimating one-way delay as half the round trip cannot see.

An end of stream from one side reaches the other side after the same delay, as a
half-close where the stream supports it; once both directions have ended, or either
side breaks, both connections are closed. Bandwidth, loss and reordering are not
modelled. :class:`LagProxy` listens on loopback unless told otherwise.

Use::

    proxy = LagProxy("127.0.0.1", server_port, delay=0.080,
                     jitter=Jitter("exponential", 15), seed=1)
    port = await nursery.start(proxy.run)  # connect here instead of server_port

:func:`relay` does the same between any two trio streams (for example in-memory
streams under ``trio.testing.MockClock``).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import trio

CHUNK = 65536
QUEUE = 256  # chunks in flight per direction before reading pauses (backpressure)
JITTER_MODES = ("none", "uniform", "exponential", "spike")


@dataclass(frozen=True, slots=True)
class Jitter:
    """How much each chunk's delay wanders (see the module docstring): ``ms`` is the
    half-width (uniform), the mean (exponential) or the spike's size (spike), in
    milliseconds; ``p`` is the share of chunks that get a spike."""

    mode: str = "none"
    ms: float = 0.0
    p: float = 0.0

    def __post_init__(self) -> None:
        if self.mode not in JITTER_MODES:
            raise ValueError(f"jitter mode must be one of {', '.join(JITTER_MODES)}")
        if self.ms < 0:
            raise ValueError("jitter ms cannot be negative")
        if not 0 <= self.p <= 1:
            raise ValueError("spike probability must be within 0..1")

    def draw(self, rng: random.Random) -> float:
        """One chunk's jitter in seconds (negative only for ``uniform``)."""
        if self.mode == "uniform":
            return rng.uniform(-self.ms, self.ms) / 1000
        if self.mode == "exponential":
            return rng.expovariate(1 / self.ms) / 1000 if self.ms > 0 else 0.0
        if self.mode == "spike":
            return self.ms / 1000 if rng.random() < self.p else 0.0
        return 0.0

    def __str__(self) -> str:
        if self.mode == "uniform":
            return f"uniform ±{self.ms:g} ms"
        if self.mode == "exponential":
            return f"exponential {self.ms:g} ms"
        if self.mode == "spike":
            return f"{self.p * 100:g}% spikes of {self.ms:g} ms"
        return "none"


NO_JITTER = Jitter()


def direction_rng(seed: int | str, direction: str) -> random.Random:
    """The random source of one direction: ``direction`` is "there" (from the first
    stream to the second) or "back"."""
    return random.Random(f"{seed}:{direction}")


async def _read(
    src: trio.abc.ReceiveStream,
    out: trio.MemorySendChannel[tuple[float, bytes]],
    delay: float,
    jitter: Jitter,
    rng: random.Random,
) -> None:
    """Stamp each chunk with its delivery moment; an empty chunk marks the end."""
    previous = float("-inf")
    async with out:
        while True:
            data = bytes(await src.receive_some(CHUNK))
            own = trio.current_time() + max(0.0, delay + jitter.draw(rng))
            previous = max(own, previous)
            await out.send((previous, data))
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
    jitter: Jitter,
    rng: random.Random,
    scope: trio.CancelScope,
) -> None:
    """One direction; if either side breaks, the whole connection ends."""
    send, receive = trio.open_memory_channel[tuple[float, bytes]](QUEUE)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_read, src, send, delay, jitter, rng)
            nursery.start_soon(_write, receive, dst)
    except* (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError):
        scope.cancel()


async def relay(
    a: trio.abc.Stream,
    b: trio.abc.Stream,
    delay: float,
    return_delay: float | None = None,
    jitter: Jitter = NO_JITTER,
    seed: int | str = 0,
) -> None:
    """Carry bytes from ``a`` to ``b`` ``delay`` seconds late, and from ``b`` to ``a``
    ``return_delay`` (default: ``delay``) seconds late, each chunk plus its own draw of
    ``jitter`` (from ``direction_rng(seed, "there")`` and ``direction_rng(seed,
    "back")``), until both directions have ended or one side breaks. Closes both
    streams."""
    if delay < 0 or (return_delay is not None and return_delay < 0):
        raise ValueError("delays cannot be negative")
    back = delay if return_delay is None else return_delay
    there_rng, back_rng = direction_rng(seed, "there"), direction_rng(seed, "back")
    try:
        async with trio.open_nursery() as nursery:
            scope = nursery.cancel_scope
            nursery.start_soon(_direction, a, b, delay, jitter, there_rng, scope)
            nursery.start_soon(_direction, b, a, back, jitter, back_rng, scope)
    finally:
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(a)
            await trio.aclose_forcefully(b)


class LagProxy:
    """Listens on ``host`` and forwards each connection to ``target_host:target_port``,
    ``delay`` seconds late towards the target and ``return_delay`` (default: the same)
    seconds late back, each chunk plus its draw of ``jitter``. Connection ``n``
    (counting from 1) relays with the seed ``f"{seed}/{n}"``. ``connections`` counts
    the connections accepted so far."""

    def __init__(
        self,
        target_host: str,
        target_port: int,
        delay: float,
        return_delay: float | None = None,
        host: str = "127.0.0.1",
        jitter: Jitter = NO_JITTER,
        seed: int | str = 0,
    ) -> None:
        if delay < 0 or (return_delay is not None and return_delay < 0):
            raise ValueError("delays cannot be negative")
        self.target_host = target_host
        self.target_port = target_port
        self.delay = delay
        self.return_delay = delay if return_delay is None else return_delay
        self.host = host
        self.jitter = jitter
        self.seed = seed
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
        seed = f"{self.seed}/{self.connections}"
        try:
            upstream = await trio.open_tcp_stream(self.target_host, self.target_port)
        except OSError:
            await trio.aclose_forcefully(stream)
            return
        await relay(stream, upstream, self.delay, self.return_delay, self.jitter, seed)

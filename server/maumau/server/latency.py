"""A connection's delays, and how much earlier a Mau claim counts for them.

Theory of operation
-------------------
The server pings every connection (about once a second while its table plays, see
:mod:`maumau.server.connection`). Each pong gives a :class:`Sample`: when the ping
left, when the pong arrived, both on the server's clock, and, if the client sent it,
the client's own monotonic clock when it answered (``clock_ms``). With each pong the
connection also reads the kernel's own figures for the same TCP connection, a
:class:`Kernel` (see :mod:`maumau.server.kernel_rtt`): its smoothed round trip and
its smallest, measured from the acknowledgements of the server's bytes, which the
client's kernel sends whatever the client's program does. :class:`Latency` keeps
the last :data:`SAMPLES` of both and derives, without averaging away the spikes into
everything:

- the *usual* one-way delay: half the median round trip. One slow ping moves a median
  by one place, not the estimate for tens of seconds as an exponential average would.
- the *base*: half the smallest round trip seen, the link's delay with nothing queued.
- the *clock offset* between the client's clock and the server's, from the sample with
  the smallest round trip (as NTP's clock filter does): its pong left the client about
  half-way through that round trip, and the smaller the round trip, the less room for
  error. No clock is ever set; the offset is only used to read a claim's ``clock_ms``.
- the *excess* of each sample's one-way delay from the client over the base: how much
  this link's delay wanders. With clocks, each pong's own uplink delay is read
  directly; without, half of each round trip stands in for it.
- from the kernel: its *floor*, the smallest round trip it measured (``min_rtt``: it
  leaves out acknowledgements it suspects were delayed, and includes the
  handshake's); its *usual queueing*, the lower quartile of its smoothed round trips
  above the floor; and the *ceiling*: half the floor plus the *kernel allowance*,
  :data:`KERNEL_FACTOR` times the usual queueing, at least :data:`MIN_ALLOWANCE` and
  at most :data:`MAX_ALLOWANCE`.

The pongs are the client's word: its program decides when to answer and what clock to
tell. The kernel's figures are not: a client can make its pongs as slow or as jittery
as it likes, but not its kernel's acknowledgements faster than the link, nor (short of
tampering with its own kernel) much slower. So the pongs *place* a claim and the
kernel *bounds* it. The kernel's smoothed round trip is taken at its lower quartile
because delayed acknowledgements (a client's kernel waits up to 40 ms to acknowledge
data its program does not answer) inflate it now and then, on honest links too, while
a link's own jitter shows in every reading; the floor is what the kernel vouches for
best.

A claim (``say_mau`` or ``catch``) may report its own exchange: ``reaction_ms``, how
long after the frame that opened the call window reached the client it sent the claim,
and ``clock_ms``, the client's clock when it sent it. The server knows when the window
opened (its frames left then) and when the claim arrived, so the *response time* ``R``
is measured; ``R - reaction`` is this exchange's round trip. :func:`credit` decides how
much earlier the claim counts:

1. No report (or only a clock that cannot be read yet): the usual delay, ``basis``
   "usual"; before the first pong, nothing. With kernel figures the usual delay is at
   most half the kernel's usual round trip (its floor plus its usual queueing).
2. A reaction longer than the measured response time is impossible: refused (the
   usual delay, ``basis`` "refused"). A reaction so long that the exchange's round
   trip would be shorter than the fastest ping is cut to fit (it only lowers the credit).
3. The uplink delay of this claim: with the client's clock placed (at least
   :data:`MIN_CLOCKED` clocked pongs), the claim's arrival minus its ``clock_ms`` read
   on the server's clock; otherwise half the exchange's round trip. Never more than
   the exchange's round trip or the response time, never below zero.
4. Plausibility against the pongs: the uplink delay may exceed the base by at most one
   and a half times the largest excess among the recent samples, at least
   :data:`MIN_ALLOWANCE` and at most :data:`MAX_ALLOWANCE`. A claim beyond that is
   refused (the usual delay). An honest claim is refused only when its delay was
   well beyond anything its own link showed in the last minute.
5. The kernel's ceiling: no credit, measured or usual, is more than half the kernel's
   floor plus the kernel allowance. A measured uplink above it is cut to it.
6. Capped at the table's ``lag_compensation_max_ms``.

Without kernel figures (a stream that is not a TCP socket, or a system without
``TCP_INFO``) rules 1 and 5 have no kernel part and the pongs alone decide, as before.

What a client gains by lying: a made-up report at most the kernel allowance above the
kernel's base (on a steady link :data:`MIN_ALLOWANCE`; on a jittery one about twice
its usual queueing, never :data:`MAX_ALLOWANCE` or more); slow pongs, late pongs with
a lying clock, or both, nothing beyond that: they widen the pongs' allowance (rule 4)
and their usual delay, but not the kernel's. The clock offset trusts the client only
as far as the round trips allow: a lie in the pongs' clocks shows as a claim whose
uplink is out of line with the pongs' and is refused by rule 4, and no pong's excess
counts for more than its round trip's excess over the fastest. What the kernel cannot
see, it cannot vouch for: a delay added by a program that relays the stream (a proxy
that ends the TCP connection, an SSH tunnel) is outside the connection the kernel
measures, and is not credited.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

SAMPLES = 64  # the pongs kept: about a minute while a compensated table plays
MIN_CLOCKED = 4  # clocked pongs needed before a claim's clock_ms is read
MIN_ALLOWANCE = 0.010  # seconds of uplink excess always allowed (scheduling noise)
MAX_ALLOWANCE = 0.095  # seconds of uplink excess never allowed, however jittery the link
ALLOWANCE_FACTOR = 1.5  # times the largest excess among the samples
KERNEL_FACTOR = 2.0  # the kernel's allowance: times its usual queueing above its floor
KERNEL_QUANTILE = 0.25  # which of the kernel's readings is its usual one: the lower quartile

Basis = Literal["measured", "usual", "refused"]


@dataclass(frozen=True, slots=True)
class Sample:
    """One ping's round trip: sent and received on the server's clock (seconds), and
    the client's clock when it answered (seconds, its own origin), if it said."""

    sent: float
    received: float
    clock: float | None = None

    @property
    def rtt(self) -> float:
        return self.received - self.sent


@dataclass(frozen=True, slots=True)
class Kernel:
    """The kernel's TCP round-trip figures for the connection (seconds), as read at a
    pong (see :mod:`maumau.server.kernel_rtt`): smoothed, its mean deviation, and the
    smallest of the last five minutes (None where the kernel does not report it)."""

    rtt: float
    rttvar: float
    min_rtt: float | None = None


@dataclass(frozen=True, slots=True)
class Credit:
    """How much earlier a claim counts (seconds), and on what basis."""

    shift: float
    basis: Basis | None  # None: compensation off, or nothing known about the link


@dataclass(eq=False)
class Latency:
    """The recent round trips of one connection (see the module docstring)."""

    samples: deque[Sample] = field(default_factory=lambda: deque(maxlen=SAMPLES))
    kernel: deque[Kernel] = field(default_factory=lambda: deque(maxlen=SAMPLES))

    def add(
        self,
        sent: float,
        received: float,
        clock_ms: float | None = None,
        kernel: Kernel | None = None,
    ) -> None:
        clock = None if clock_ms is None else clock_ms / 1000
        self.samples.append(Sample(sent, received, clock))
        if kernel is not None:
            self.kernel.append(kernel)

    @property
    def rtt(self) -> float | None:
        """The median round trip in seconds, or None before the first pong."""
        if not self.samples:
            return None
        return statistics.median(s.rtt for s in self.samples)

    @property
    def min_rtt(self) -> float | None:
        if not self.samples:
            return None
        return min(s.rtt for s in self.samples)

    def kernel_floor(self) -> float | None:
        """The kernel's smallest round trip (seconds): its latest ``min_rtt``, or where
        it has none the smallest smoothed round trip read; None without readings."""
        if not self.kernel:
            return None
        latest = self.kernel[-1].min_rtt
        return latest if latest is not None else min(k.rtt for k in self.kernel)

    def kernel_excess(self) -> float | None:
        """The kernel's usual queueing (seconds): the lower quartile of its smoothed
        round trips, read at the pongs, above its floor; None without readings."""
        floor = self.kernel_floor()
        if floor is None:
            return None
        ordered = sorted(max(0.0, k.rtt - floor) for k in self.kernel)
        return ordered[int(KERNEL_QUANTILE * (len(ordered) - 1))]

    def kernel_allowance(self) -> float | None:
        """How far above half the kernel's floor a credit may go (rule 5); None
        without readings."""
        excess = self.kernel_excess()
        if excess is None:
            return None
        return min(MAX_ALLOWANCE, max(MIN_ALLOWANCE, KERNEL_FACTOR * excess))

    def ceiling(self) -> float | None:
        """The most any claim of this connection is credited (seconds, rule 5): half
        the kernel's floor plus its allowance; None without kernel readings."""
        floor, allowance = self.kernel_floor(), self.kernel_allowance()
        if floor is None or allowance is None:
            return None
        return floor / 2 + allowance

    def usual(self) -> float | None:
        """The usual one-way delay (seconds): half the pongs' median round trip, but at
        most half the kernel's usual round trip (its floor plus its usual queueing)
        and the ceiling; None before the first pong."""
        rtt = self.rtt
        if rtt is None:
            return None
        usual = rtt / 2
        floor, excess, ceiling = self.kernel_floor(), self.kernel_excess(), self.ceiling()
        if floor is not None and excess is not None and ceiling is not None:
            usual = min(usual, (floor + excess) / 2, ceiling)
        return usual

    def offset(self) -> float | None:
        """The client's clock minus the server's (seconds), from the clocked sample with
        the smallest round trip; None with fewer than MIN_CLOCKED clocked samples."""
        clocked = [s for s in self.samples if s.clock is not None]
        if len(clocked) < MIN_CLOCKED:
            return None
        best = min(clocked, key=lambda s: s.rtt)
        assert best.clock is not None
        return best.clock - (best.sent + best.received) / 2

    def excess(self, offset: float | None) -> list[float]:
        """Each sample's uplink delay above the base (seconds): read with the clock
        offset when there is one (clocked samples only), else half its round trip."""
        least = self.min_rtt or 0.0
        base = least / 2
        if offset is None:
            return [s.rtt / 2 - base for s in self.samples]
        # A pong's uplink cannot have taken more than its round trip less the fastest
        # downlink (half the fastest round trip): a pong clock that says otherwise is
        # not believed beyond that, so lying in pongs alone cannot widen the allowance.
        return [
            min(s.received - (s.clock - offset) - base, s.rtt - least)
            for s in self.samples
            if s.clock is not None
        ]

    def pong_allowance(self, offset: float | None) -> float:
        """How far above the base a claim's uplink delay may be (rule 4)."""
        excess = self.excess(offset)
        if not excess:
            return MIN_ALLOWANCE
        return min(MAX_ALLOWANCE, max(MIN_ALLOWANCE, ALLOWANCE_FACTOR * max(excess)))

    def allowance(self, offset: float | None) -> float:
        """How far above the link's base a claim can count: the pongs' allowance
        (rule 4), and no more than the kernel's (rule 5) where it reports one."""
        allowance = self.pong_allowance(offset)
        kernel = self.kernel_allowance()
        return allowance if kernel is None else min(allowance, kernel)


def credit(
    latency: Latency,
    enabled: bool,
    cap_ms: int,
    opened: float | None,
    arrived: float,
    reaction_ms: float | None = None,
    clock_ms: float | None = None,
) -> Credit:
    """How much earlier a claim that arrived at ``arrived`` counts; ``opened`` is when
    the call window it is about opened (None: unknown). See the module docstring."""
    usual = latency.usual()
    if not enabled or usual is None:
        return Credit(0.0, None)
    ceiling = latency.ceiling()
    limit = cap_ms / 1000 if ceiling is None else min(cap_ms / 1000, ceiling)

    def fallback(basis: Basis) -> Credit:
        return Credit(min(usual, limit), basis)

    if opened is None or (reaction_ms is None and clock_ms is None):
        return fallback("usual")
    min_rtt = latency.min_rtt
    assert min_rtt is not None
    response = max(0.0, arrived - opened)
    exchange = response  # the longest this exchange's round trip can have been
    if reaction_ms is not None:
        reaction = reaction_ms / 1000
        if reaction > response:
            return fallback("refused")
        exchange = max(min(min_rtt, response), response - reaction)
    offset = latency.offset()
    if clock_ms is not None and offset is not None:
        uplink = arrived - (clock_ms / 1000 - offset)
    elif reaction_ms is not None:
        uplink = exchange / 2
    else:
        return fallback("usual")  # a clock without a placed offset says nothing yet
    uplink = min(max(uplink, 0.0), exchange)
    if uplink - min_rtt / 2 > latency.pong_allowance(offset):
        return fallback("refused")
    return Credit(min(uplink, limit), "measured")

"""A connection's delays, and how much earlier a Mau claim counts for them.

Theory of operation
-------------------
The server pings every connection (about once a second while its table plays, see
:mod:`maumau.server.connection`). Each pong gives a :class:`Sample`: when the ping
left, when the pong arrived, both on the server's clock, and, if the client sent it,
the client's own monotonic clock when it answered (``clock_ms``). :class:`Latency`
keeps the last :data:`SAMPLES` of them and derives, without averaging away the spikes
into everything:

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

A claim (``say_mau`` or ``catch``) may report its own exchange: ``reaction_ms``, how
long after the frame that opened the call window reached the client it sent the claim,
and ``clock_ms``, the client's clock when it sent it. The server knows when the window
opened (its frames left then) and when the claim arrived, so the *response time* ``R``
is measured; ``R - reaction`` is this exchange's round trip. :func:`credit` decides how
much earlier the claim counts:

1. No report (or only a clock that cannot be read yet): the usual delay, ``basis``
   "usual"; before the first pong, nothing.
2. A reaction longer than the measured response time is impossible: refused (the
   usual delay, ``basis`` "refused"). A reaction so long that the exchange's round
   trip would be shorter than the fastest ping is cut to fit (it only lowers the credit).
3. The uplink delay of this claim: with the client's clock placed (at least
   :data:`MIN_CLOCKED` clocked pongs), the claim's arrival minus its ``clock_ms`` read
   on the server's clock; otherwise half the exchange's round trip. Never more than
   the exchange's round trip or the response time, never below zero.
4. Plausibility: the uplink delay may exceed the base by at most one and a half times
   the largest excess among the recent samples, at least :data:`MIN_ALLOWANCE` and at
   most :data:`MAX_ALLOWANCE`. A claim beyond that is refused (the usual delay). This
   is what a client that under-reports can gain: at most the allowance, which is about
   the link's own jitter, and never :data:`MAX_ALLOWANCE` or more. An honest claim is
   refused only when its delay was well beyond anything its own link showed in the
   last minute (with exponential jitter of mean 15 ms, about 1 claim in 300), or more
   than :data:`MAX_ALLOWANCE` above the base.
5. Capped at the table's ``lag_compensation_max_ms``.

The clock offset trusts the client only as far as the round trips allow: a client that
lies in its pongs moves the offset, but every sample's uplink is read with the same
offset, so a lie shows as a claim whose uplink is out of line with the pongs' and is
refused by rule 4; and no pong's excess counts for more than its round trip's excess
over the fastest. What a client *can* do is answer some pings late, which makes its
link look as jittery as it likes: its allowance then grows, but never to
:data:`MAX_ALLOWANCE` or beyond. Only the fastest round trip cannot be faked.
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
class Credit:
    """How much earlier a claim counts (seconds), and on what basis."""

    shift: float
    basis: Basis | None  # None: compensation off, or nothing known about the link


@dataclass(eq=False)
class Latency:
    """The recent round trips of one connection (see the module docstring)."""

    samples: deque[Sample] = field(default_factory=lambda: deque(maxlen=SAMPLES))

    def add(self, sent: float, received: float, clock_ms: float | None = None) -> None:
        clock = None if clock_ms is None else clock_ms / 1000
        self.samples.append(Sample(sent, received, clock))

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

    def allowance(self, offset: float | None) -> float:
        """How far above the base a claim's uplink delay may be (rule 4)."""
        excess = self.excess(offset)
        if not excess:
            return MIN_ALLOWANCE
        return min(MAX_ALLOWANCE, max(MIN_ALLOWANCE, ALLOWANCE_FACTOR * max(excess)))


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
    usual = latency.rtt
    if not enabled or usual is None:
        return Credit(0.0, None)
    cap = cap_ms / 1000

    def fallback(basis: Basis) -> Credit:
        return Credit(min(usual / 2, cap), basis)

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
    if uplink - min_rtt / 2 > latency.allowance(offset):
        return fallback("refused")
    return Credit(min(uplink, cap), "measured")

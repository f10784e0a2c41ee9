"""The Mau arbiter: who said or caught "Mau" first, on the server's clock.

Every say-Mau and every catch is a :class:`Claim`, stamped with ``trio.current_time()``
when its frame was decoded. With lag compensation on, the stamp moves earlier by the
delay the claim's connection is credited with (:func:`maumau.server.latency.credit`):
measured on the claim's own exchange when the client reported it and the report is
plausible, else the connection's usual one-way delay; capped at
``lag_compensation_max_ms``. The order is always decided on the server's clock.

Claims are not applied at once: the table collects them and decides a little later,
so that a claim that arrives later but carries an earlier (compensated) stamp still
wins. The delay is the compensation cap when compensation is on, and one millisecond
otherwise (enough for claims decoded at the same instant to meet). Claims are also
decided at once, before anything else, whenever a turn action or a window's end is
about to be applied, so a claim is never lost to a later action.

Order: earliest stamp first; on an exact tie the call (the player protecting
themselves) goes first; then the order of arrival.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

SETTLE_WITHOUT_COMPENSATION = 0.001


@dataclass(slots=True)
class Claim:
    """A say-Mau or a catch, as the server's clock saw it."""

    kind: Literal["call", "catch"]
    seat: int
    stamp: float
    shift: float
    arrival: int
    target: int = -1
    call: Literal["mau", "maumau"] = "mau"
    sender: Any = field(default=None, compare=False)
    basis: str | None = None  # how ``shift`` was found (see maumau.server.latency)
    window: int | None = None  # the call window it was about when it arrived

    @property
    def effective(self) -> float:
        return self.stamp - self.shift

    def order_key(self) -> tuple[float, int, int]:
        return (self.effective, 0 if self.kind == "call" else 1, self.arrival)


class Arbiter:
    """Collects claims for one table and hands them back in the order that decides."""

    def __init__(self) -> None:
        self._pending: list[Claim] = []
        self._arrivals = 0

    def add(
        self,
        kind: Literal["call", "catch"],
        seat: int,
        stamp: float,
        shift: float,
        target: int = -1,
        call: Literal["mau", "maumau"] = "mau",
        sender: Any = None,
    ) -> Claim:
        self._arrivals += 1
        claim = Claim(kind, seat, stamp, shift, self._arrivals, target, call, sender)
        self._pending.append(claim)
        return claim

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def decide_at(self, settle: float) -> float | None:
        """When the oldest pending claim should be decided, or None."""
        if not self._pending:
            return None
        return min(c.stamp for c in self._pending) + max(settle, SETTLE_WITHOUT_COMPENSATION)

    def postpone(self, seconds: float) -> None:
        """Move every pending claim later by ``seconds`` (the table was paused), keeping
        their order and their distances to the windows they are about."""
        for claim in self._pending:
            claim.stamp += seconds

    def take(self) -> list[Claim]:
        """All pending claims, in deciding order."""
        claims = sorted(self._pending, key=Claim.order_key)
        self._pending = []
        return claims

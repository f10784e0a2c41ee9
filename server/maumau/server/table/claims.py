"""Mau calls and catches at a table: handing the arbiter's decisions to the engine.

Say-Mau and catch claims wait in the table's :class:`~maumau.server.arbiter.Arbiter`
until it decides (see its module); then each is applied to the match in the order the
arbiter gives, and one ``mau_decision`` per call window tells everybody who was first,
with every claim's time after the window opened and the lag compensation it got.

:class:`Claims` keeps the arbiter and each open call window's times: when it opened
(claims count from then) and when its minimum time is up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from maumau.protocol.codec import encode_frame
from maumau.protocol.messages import (
    Error,
    MauDecision,
)

from ..arbiter import Arbiter, Claim
from ..rules import (
    Action,
    Catch,
    Event,
    IllegalAction,
    MatchState,
    SayMau,
    apply,
    view,
)
from ..rules.events import FalseCatch
from .state import (
    MAX_STAMPS,
    TableState,
)
from .views import Audience

# What follows a change to the match (see MatchFlow.after_change).
AfterChange = Callable[[list[Event], bool, Action | None], None]


class Claims:
    """Deciding Mau claims (see the module docstring)."""

    def __init__(self, state: TableState, audience: Audience) -> None:
        self.state = state
        self.audience = audience
        self.arbiter = Arbiter()
        self.window_opened: dict[int, float] = {}
        self.window_due: dict[int, float] = {}

    def decide(self, after_change: AfterChange) -> None:
        """Apply the claims the arbiter has decided, each followed by ``after_change``,
        then tell each window's decision."""
        if not self.arbiter.pending or self.state.match is None:
            return
        match = self.state.match
        by_window: dict[int, tuple[int, list[Claim], list[str], float]] = {}
        for claim in self.arbiter.take():
            target = claim.seat if claim.kind == "call" else claim.target
            # The window it is about now; if an earlier claim closed it (a catch
            # before this call), the one it was about when it arrived, so that the
            # decision lists it too.
            window = window_for(match, claim)
            if window is None:
                window = claim.window
            opened = self.window_opened.get(window, claim.stamp) if window is not None else 0.0
            action: Action = (
                SayMau(claim.seat, claim.call)
                if claim.kind == "call"
                else Catch(claim.seat, claim.target)
            )
            try:
                events = apply(match, action)
            except IllegalAction as error:
                if claim.sender is not None:
                    claim.sender.send(
                        Error(error.code, error.message, claim_type(claim), False, error.details)
                    )
                if window is not None and window in by_window:
                    by_window[window][1].append(claim)
                continue
            if window is not None and not any(isinstance(e, FalseCatch) for e in events):
                outcome = "called" if claim.kind == "call" else "caught"
                by_window.setdefault(window, (target, [], [], opened))
                by_window[window][1].append(claim)
                by_window[window][2].append(outcome)
            after_change(events, False, action)
        for window, (target, claims, outcomes, opened) in by_window.items():
            self.send_decision(window, target, outcomes[0], claims, opened)

    def send_decision(
        self, window: int, seat: int, outcome: str, claims: list[Claim], opened: float
    ) -> None:
        state = self.state
        state.seq += 1
        stamps = tuple(_stamp(c, opened) for c in claims[:MAX_STAMPS])
        decision = MauDecision(state.id, state.seq, window, seat, outcome, stamps)
        frame = encode_frame(decision.to_wire())
        self.audience.recent.append(frame)  # for whoever arrives during this round
        self.audience.broadcast(decision, frame)

    def follow(self, match: MatchState, now: float) -> None:
        """After a change: time the windows it opened, forget those it closed."""
        opened, due = self.window_opened, self.window_due
        open_ids = {w.id for w in match.windows}
        for window in match.windows:
            if window.id not in opened:
                opened[window.id] = now
                due[window.id] = now + self.state.settings.mau_window_ms / 1000
        for gone in [w for w in opened if w not in open_ids]:
            del opened[gone]
            due.pop(gone, None)

    def clear(self) -> None:
        """A new match: no window is open."""
        self.window_opened.clear()
        self.window_due.clear()

    def postpone(self, shift: float) -> None:
        """The table's clock stopped for ``shift`` seconds: so did the windows and the
        claims waiting for the arbiter."""
        for timers in (self.window_due, self.window_opened):
            for key in timers:
                timers[key] += shift
        self.arbiter.postpone(shift)


def _stamp(claim: Claim, opened: float) -> dict[str, Any]:
    """A claim as a ``mau_decision`` stamp; a call names what was said."""
    stamp: dict[str, Any] = {
        "seat": claim.seat,
        "what": claim.kind,
        "after_ms": round((claim.effective - opened) * 1000, 3),
        "shift_ms": round(claim.shift * 1000, 3),
    }
    if claim.kind == "call":
        stamp["call"] = claim.call
    if claim.basis is not None:
        stamp["basis"] = claim.basis
    return stamp


def window_for(match: MatchState, claim: Claim) -> int | None:
    """The call window a claim is about: the caller's own, or the target's catchable one."""
    if claim.kind == "call":
        mine = [w for w in match.windows if w.seat == claim.seat and not w.final]
        for w in mine:
            if w.called is None or (w.called == "mau" and claim.call == "maumau"):
                return w.id
        return mine[0].id if mine else None
    target = claim.target
    views = view(match, None).windows
    for wv in views:
        if wv.seat == target and wv.catchable:
            return wv.id
    for wv in views:
        if wv.seat == target:
            return wv.id
    return None


def claim_type(claim: Claim) -> str:
    return "say_mau" if claim.kind == "call" else "catch"

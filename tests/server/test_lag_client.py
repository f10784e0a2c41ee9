"""The client's link reports its own exchange for lag compensation (protocol 5), over
real TCP against a real server.

The server runs in this process (trio, in a thread of its own) so that the test can
lay out a position and read what the server measured; the players are the client's
own :class:`maumau.client.net.ServerLink` on asyncio, as the app uses it. Every pong
must carry the client's monotonic clock, and a ``say_mau`` and a ``catch`` sent a
known time after their window's view arrived must report that time as their
reaction, and be credited on their own measured exchange (basis "measured").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
import trio
import trio.from_thread

from maumau.client.net import ServerLink
from maumau.protocol.cards import NO_SUIT
from maumau.protocol.messages import (
    CatchPlayer,
    CreateTable,
    JoinTable,
    MauDecision,
    Message,
    PlayCard,
    SayMau,
    StartMatch,
    TableInfo,
    View,
    Welcome,
)
from maumau.server import latency
from maumau.server.config import ServerConfig
from maumau.server.rules import MatchState
from maumau.server.server import Server, serve
from maumau.server.table import match as table_match
from support.positions import cards

T = TypeVar("T")
WINDOW = 1000  # the id of the call window Ann's play opens
WAITS = {"Ann": 0.25, "Bob": 0.33}  # how long each waits after the window's view arrived
CAP_MS = 300  # the table decides this long after the first claim: Bob's catch is in time


class ServerThread:
    """A real server on 127.0.0.1 (an ephemeral port), run by trio in its own thread."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.port = 0
        self.token: trio.lowlevel.TrioToken | None = None
        self._ready = threading.Event()
        self._stop: trio.Event | None = None
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)

    async def _main(self) -> None:
        self._stop = trio.Event()
        async with trio.open_nursery() as nursery:
            self.port = await nursery.start(functools.partial(serve, self.server, 0, "127.0.0.1"))
            self.token = trio.lowlevel.current_trio_token()
            self._ready.set()
            await self._stop.wait()
            nursery.cancel_scope.cancel()

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the server's thread, between its tasks' steps."""
        return trio.from_thread.run_sync(fn, trio_token=self.token)

    @contextlib.contextmanager
    def running(self) -> Iterator[ServerThread]:
        self._thread.start()
        assert self._ready.wait(10), "the server did not start"
        try:
            yield self
        finally:
            if self._stop is not None:
                self.call(self._stop.set)
            self._thread.join(10)


class Player:
    """A client link that reads all the time, keeping every message."""

    def __init__(self, link: ServerLink) -> None:
        self.link = link
        self.got: list[Message] = []
        self.reader = asyncio.create_task(link.run(self.got.append))

    @classmethod
    async def connect(cls, port: int, name: str) -> Player:
        player = cls(await ServerLink.open("127.0.0.1", port, name, None, f"secret-of-{name}-0123"))
        await player.wait(lambda m: isinstance(m, Welcome))
        return player

    async def wait(self, accept: Callable[[Message], bool], timeout: float = 5.0) -> Any:
        """The first message ``accept`` takes (waiting for it), in arrival order."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.got:
                if accept(message):
                    return message
            await asyncio.sleep(0.002)
        raise AssertionError(f"waited in vain; the last messages: {self.got[-5:]}")

    def close(self) -> None:
        self.reader.cancel()
        self.link.close()


def opened(view: Message) -> bool:
    return isinstance(view, View) and any(w["id"] == WINDOW for w in view.windows)


Report = tuple[object, str, float | None, float | None]


@pytest.fixture
def reports(monkeypatch: pytest.MonkeyPatch) -> list[Report]:
    """Every claim's report as the server decoded it, with the basis it was credited
    on: (the connection's latency, basis, reaction_ms, clock_ms)."""
    seen: list[Report] = []
    real = latency.credit

    def credit(*args: Any, **kwargs: Any) -> latency.Credit:
        reaction_ms, clock_ms = args[5], args[6]
        given = real(*args, **kwargs)
        seen.append((args[0], given.basis or "", reaction_ms, clock_ms))
        return given

    monkeypatch.setattr(table_match, "credit", credit)
    return seen


def test_pongs_carry_the_clock_and_claims_their_measured_reaction(
    reports: list[Report],
) -> None:
    server = Server(
        ServerConfig(seed=3, bot_delay=0.0, ping_interval=0.05, move_rate=1000, move_burst=1000)
    )
    start = time.monotonic()
    with ServerThread(server).running() as thread:
        asyncio.run(asyncio.wait_for(race(thread, start, reports), 20))


async def race(thread: ServerThread, start: float, reports: list[Report]) -> None:
    ann = await Player.connect(thread.port, "Ann")
    bob = await Player.connect(thread.port, "Bob")
    try:
        settings = {
            "variant": "classic",
            "seats": 2,
            "lag_compensation": True,
            "lag_compensation_max_ms": CAP_MS,
            "mau_window_ms": 2000,
            "turn_timeout_s": 3600,
        }
        await ann.link.send(CreateTable("lag", settings, ()))
        info = await ann.wait(lambda m: isinstance(m, TableInfo) and m.you == 0)
        await bob.link.send(JoinTable(info.id, 1))
        await bob.wait(lambda m: isinstance(m, TableInfo) and m.you == 1)
        await ann.link.send(StartMatch())
        await bob.wait(lambda m: isinstance(m, View))
        sessions = thread.call(
            lambda: {s.name: s for s in thread.server.sessions.values() if s.name}
        )

        # The server reads a claim's clock once it has a few clocked pongs.
        def clocked(name: str) -> list[float]:
            samples = thread.call(lambda: list(sessions[name].latency.samples))
            return [s.clock for s in samples if s.clock is not None]

        deadline = time.monotonic() + 5
        while min(len(clocked("Ann")), len(clocked("Bob"))) < latency.MIN_CLOCKED:
            assert time.monotonic() < deadline, "the pongs carry no clock"
            await asyncio.sleep(0.02)
        for name in ("Ann", "Bob"):
            # The client's clock is this process's monotonic clock (in seconds here).
            assert all(start <= clock <= time.monotonic() for clock in clocked(name))

        # Ann holds two cards and plays one without saying Mau: a call window opens.
        def lay_out() -> None:
            table = thread.server.tables[info.id]
            state = MatchState(table.settings, seed=0)
            state.hands = [cards("QH KS"), cards("KH 10D 9D")]
            state.stock = list(reversed(cards("7C 8C 9C 10C AC AD")))
            state.discard = cards("10H")
            state.turn, state.dealer, state.direction = 0, 1, 1
            state.round_no, state.named = 1, NO_SUIT
            state.action_no = WINDOW
            table.match = state
            table.flow.after_change([], turn_ended=True)

        thread.call(lay_out)
        await ann.wait(lambda m: isinstance(m, View) and m.hand_counts == (2, 3))
        await ann.link.send(PlayCard("QH"))
        await ann.wait(opened)
        ann_saw = time.monotonic()
        await bob.wait(opened)
        bob_saw = time.monotonic()

        # Views that list the window again do not move when it was first seen.
        await asyncio.sleep(min(WAITS.values()) / 2)
        before = [sum(map(opened, p.got)) for p in (ann, bob)]
        thread.call(lambda: thread.server.tables[info.id].flow.after_change([], turn_ended=False))
        for player, count in zip((ann, bob), before, strict=True):
            await player.wait(lambda _, p=player, n=count: sum(map(opened, p.got)) > n)

        # Each claims a while after its first view of the window arrived, and says so.
        await asyncio.sleep(max(0.0, ann_saw + WAITS["Ann"] - time.monotonic()))
        said = time.monotonic()
        await ann.link.send(SayMau("mau"))
        await asyncio.sleep(max(0.0, bob_saw + WAITS["Bob"] - time.monotonic()))
        caught = time.monotonic()
        await bob.link.send(CatchPlayer(0))

        decision = await bob.wait(lambda m: isinstance(m, MauDecision) and m.window == WINDOW)
        assert decision.outcome == "called"
        assert [(s["what"], s.get("basis")) for s in decision.stamps] == [
            ("call", "measured"),
            ("catch", "measured"),
        ]
        by_name = {name: sessions[name].latency for name in ("Ann", "Bob")}
        assert [(r[0], r[1]) for r in reports] == [
            (by_name["Ann"], "measured"),
            (by_name["Bob"], "measured"),
        ]
        for (_, _, reaction_ms, clock_ms), sent, saw in zip(
            reports, (said, caught), (ann_saw, bob_saw), strict=True
        ):
            assert reaction_ms is not None and clock_ms is not None
            # Counted from when the view's bytes arrived: a little before the test saw it.
            assert (sent - saw) * 1000 <= reaction_ms < (sent - saw) * 1000 + 100
            assert sent * 1000 <= clock_ms <= time.monotonic() * 1000
    finally:
        ann.close()
        bob.close()

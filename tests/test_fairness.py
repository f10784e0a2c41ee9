"""Fairness under lag: the delaying proxy, and Mau races between a slow and a fast link.

The proxy is checked exactly on trio's MockClock (in-memory streams): its fixed
delays, and each jitter mode's delays for a seeded random source, in order. Its
delay is checked roughly on real loopback TCP. The races use
``scripts/bench-fairness``: on the MockClock, where the outcome is exact (the slow
player's stamp moves by exactly half its round trip), and once end to end over
loopback with a margin of 40 ms either way.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import random
import statistics
import struct
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import trio
import trio.testing
from lagproxy import Jitter, LagProxy, direction_rng, relay

from maumau.server.server import Server

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "bench-fairness"


def load_bench() -> ModuleType:
    loader = SourceFileLoader("bench_fairness", str(SCRIPT))
    spec = importlib.util.spec_from_loader("bench_fairness", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fairness"] = module  # dataclasses look their module up there
    loader.exec_module(module)
    return module


bench = load_bench()


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


# --- the proxy ------------------------------------------------------------------------


async def test_relay_delays_each_direction_exactly(nursery, autojump_clock) -> None:
    client, near = trio.testing.memory_stream_pair()
    far, server = trio.testing.memory_stream_pair()
    nursery.start_soon(relay, near, far, 0.080, 0.050)
    start = trio.current_time()
    await client.send_all(b"ping")
    assert await server.receive_some() == b"ping"
    assert trio.current_time() - start == pytest.approx(0.080)
    await server.send_all(b"pong")
    assert await client.receive_some() == b"pong"
    assert trio.current_time() - start == pytest.approx(0.130)
    await client.send_eof()
    assert await server.receive_some() == b""
    assert trio.current_time() - start == pytest.approx(0.210)


async def test_relay_keeps_byte_order_of_many_small_writes(nursery, autojump_clock) -> None:
    client, near = trio.testing.memory_stream_pair()
    far, server = trio.testing.memory_stream_pair()
    nursery.start_soon(relay, near, far, 0.080)
    sent = b"".join(struct.pack(">I", i) for i in range(3000))
    received = bytearray()

    async def reader() -> None:
        while len(received) < len(sent):
            received.extend(await server.receive_some())

    async with trio.open_nursery() as inner:
        inner.start_soon(reader)
        for i in range(0, len(sent), 4):
            await client.send_all(sent[i : i + 4])
            if i % 40 == 0:
                await trio.sleep(0.001)
    assert bytes(received) == sent


@pytest.mark.parametrize(
    ("mode", "ms", "p", "low", "high", "mean"),
    [
        ("uniform", 20, 0.0, -20, 20, 0.0),
        ("exponential", 15, 0.0, 0, math.inf, 15.0),
        ("spike", 150, 0.05, 0, 150, 7.5),
        ("none", 15, 0.0, 0, 0, 0.0),
    ],
)
def test_jitter_draws_follow_their_mode(mode, ms, p, low, high, mean) -> None:
    jitter = Jitter(mode, ms, p)
    rng = random.Random(3)
    draws = [jitter.draw(rng) * 1000 for _ in range(4000)]
    assert low <= min(draws) and max(draws) <= high
    assert statistics.fmean(draws) == pytest.approx(mean, abs=1.0)
    if mode == "spike":
        assert set(draws) == {0.0, 150.0}
    if mode == "exponential":
        # A long tail: about e**-3 (5 %) of the draws beyond three means.
        assert sum(d > 3 * ms for d in draws) / len(draws) == pytest.approx(math.exp(-3), abs=0.01)


@pytest.mark.parametrize(
    ("delay", "jitter"),
    [
        (0.080, Jitter("uniform", 20)),
        (0.010, Jitter("uniform", 20)),  # the total delay stops at 0
        (0.080, Jitter("exponential", 15)),
        (0.080, Jitter("spike", 150, 0.2)),
    ],
)
async def test_relay_jitter_delays_each_chunk_and_keeps_order(
    nursery, autojump_clock, delay, jitter
) -> None:
    """Each chunk is due ``delay`` plus its own draw after it was read (never less
    than 0), but never before the chunk read before it, with the direction's seeded
    draws; the bytes arrive in order."""
    client, near = trio.testing.memory_stream_pair()
    far, server = trio.testing.memory_stream_pair()
    nursery.start_soon(relay, near, far, delay, None, jitter, "seed")
    count = 60
    sent: list[float] = []
    arrived: dict[int, float] = {}
    order = bytearray()

    async def reader() -> None:
        while len(order) < count:
            data = await server.receive_some()
            for byte in data:
                arrived[byte] = trio.current_time()
            order.extend(data)

    async with trio.open_nursery() as inner:
        inner.start_soon(reader)
        for i in range(count):
            sent.append(trio.current_time())
            await client.send_all(bytes([i]))
            await trio.sleep(0.010)
    assert bytes(order) == bytes(range(count))
    rng = direction_rng("seed", "there")
    expected, held, previous = [], 0, -math.inf
    for at in sent:
        own = at + max(0.0, delay + jitter.draw(rng))
        held += own < previous
        previous = max(own, previous)
        expected.append(previous)
    assert [arrived[i] for i in range(count)] == pytest.approx(expected, abs=1e-9)
    # The draws vary, and some chunks waited for an earlier, later-drawn one.
    assert len({round(e - s, 6) for e, s in zip(expected, sent, strict=True)}) > 5
    assert held > 0
    if delay < 0.020:
        assert min(e - s for e, s in zip(expected, sent, strict=True)) == pytest.approx(0.0)


async def echo(stream: trio.SocketStream) -> None:
    async with stream:
        while data := await stream.receive_some():
            await stream.send_all(data)


@pytest.mark.deadline(30)
async def test_proxy_adds_the_delay_on_loopback(nursery) -> None:
    delay = 0.050
    listeners = await nursery.start(functools.partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
    target = listeners[0].socket.getsockname()[1]
    proxy = LagProxy("127.0.0.1", target, delay)
    port = await nursery.start(proxy.run)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    trips = []
    for _ in range(5):
        start = trio.current_time()
        await stream.send_all(b"x")
        assert await stream.receive_some() == b"x"
        trips.append(trio.current_time() - start)
    assert min(trips) >= 2 * delay
    # Close to the delay; the slack is for a busy machine's scheduling.
    assert min(trips) < 2 * delay + 0.020, trips
    assert proxy.connections == 1

    sent = b"".join(struct.pack(">I", i) for i in range(5000))
    received = bytearray()

    async def reader() -> None:
        while len(received) < len(sent):
            received.extend(await stream.receive_some())

    async with trio.open_nursery() as inner:
        inner.start_soon(reader)
        for i in range(0, len(sent), 4):
            await stream.send_all(sent[i : i + 4])
    assert bytes(received) == sent
    await stream.aclose()


# --- races ------------------------------------------------------------------------------


async def mock_pairs(nursery: trio.Nursery, up: float, down: float) -> list[Any]:
    """Both tables on an in-memory server; S's streams pass through ``relay``."""
    server = Server(seed=1, ping_interval=bench.PING_INTERVAL)
    server.start_background(nursery)

    async def direct(name: str) -> Any:
        client, end = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, end)
        return await bench.greet(client, name)

    async def slow(name: str) -> Any:
        client, near = trio.testing.memory_stream_pair()
        far, end = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, end)
        nursery.start_soon(relay, near, far, up, down)
        return await bench.greet(client, name)

    pairs = [await bench.open_pair(server, nursery, direct, slow, lag) for lag in (True, False)]
    await bench.settle(pairs, 3.0)
    return pairs


@pytest.mark.parametrize(
    ("up", "down", "lead", "picked_with", "shift_ms"),
    [
        # 80 ms each way, S 30 ms first: compensation moves S's call back by exactly
        # 80 ms, so it counts 30 ms before the catch; without it, 50 ms after.
        (0.080, 0.080, 0.030, {True: True, False: False}, 80.0),
        # The delay exceeds the 100 ms cap: S's call still counts 20 ms late.
        (0.150, 0.150, 0.030, {True: False, False: False}, None),
        # An asymmetric link (80 ms up, none down): half the RTT is 40 ms, too little.
        (0.080, 0.0, 0.030, {True: False, False: False}, None),
    ],
)
async def test_races_on_the_mock_clock(
    nursery, autojump_clock, up, down, lead, picked_with, shift_ms
) -> None:
    pairs = await mock_pairs(nursery, up, down)
    for pair in pairs:
        assert pair.slow_session.rtt == pytest.approx(up + down)
        assert pair.fast_session.rtt == pytest.approx(0.0)
    for number in range(3):
        for pair in pairs:
            result = await bench.race(pair, number, lead, max(up, down) + 0.1)
            assert result.slow_picked == picked_with[pair.lag], result.text
            assert result.lead_ms == pytest.approx(lead * 1000)
            assert result.slow_saw_first_ms > 0
            if pair.lag and shift_ms is not None:
                assert result.shift_ms == pytest.approx(shift_ms)
                assert result.gap_ms == pytest.approx((up - lead) * 1000)
            if not pair.lag:
                assert result.shift_ms in (None, 0.0)


@pytest.mark.deadline(60)
def test_bench_script_end_to_end_on_loopback() -> None:
    """A few real races through the TCP proxy: with compensation S (30..40 ms of
    margin after jitter) wins every one, without it S (40 ms late) loses every one."""
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--races",
            "5",
            "--delay-ms",
            "80",
            "--lead-ms",
            "40",
            "--settle-s",
            "1",
            "--check",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0, out.stdout + out.stderr
    modes = {line["mode"]: line for line in lines if "mode" in line}
    on, off = modes["compensation_on"], modes["compensation_off"]
    assert on["races"] == off["races"] == 5
    assert on["slow_picked"] == 5, on
    assert off["slow_picked"] == 0, off
    assert 75 <= on["mean_shift_ms"] <= 100
    fairness = next(line["fairness"] for line in lines if "fairness" in line)
    assert fairness["met"] is True
    assert fairness["slow_picked_pct_compensation_off"] == 0.0

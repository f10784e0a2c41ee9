"""The kernel's round trips bound lag compensation (maumau.server.kernel_rtt and rule 5
of maumau.server.latency), on real TCP over loopback.

``struct tcp_info`` is parsed from made-up bytes (its offsets, a struct too short for
``tcpi_min_rtt``, one with nothing measured yet) and read from a real connection.
Then the cheats of the fairness issue race against the real server on 127.0.0.1,
with the real clock: a client that answers every ping 200 ms late and claims without
a report, and one that answers one ping in eight 70 ms late with a clock as if it
had answered at once and claims 94 ms earlier than true. Their pongs make the link
look slow or jittery, but the kernel measured loopback's round trip (microseconds),
so neither is credited more than a few milliseconds, and neither wins a race it
truly lost by 30 ms. Nothing here asserts how fast anything is: the bounds are far
from the cheats' claims (100 ms and 94 ms) on any machine.
"""

from __future__ import annotations

import functools
import random
import socket
import struct
import sys
from types import ModuleType
from typing import Any

import pytest
import trio

from maumau.server import kernel_rtt
from maumau.server.config import ServerConfig
from maumau.server.latency import MAX_ALLOWANCE, Kernel
from maumau.server.server import Server, serve
from support.wire import load_script


def load_bench() -> ModuleType:
    return load_script("bench-fairness", "bench_fairness")


bench = load_bench()
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="TCP_INFO is Linux's")


def tcp_info(size: int, rtt_us: int, rttvar_us: int, min_rtt_us: int = 0) -> bytes:
    data = bytearray(size)
    if size >= 76:
        struct.pack_into("=II", data, 68, rtt_us, rttvar_us)
    if size >= 152:
        struct.pack_into("=I", data, 148, min_rtt_us)
    return bytes(data)


def test_the_figures_are_read_at_their_offsets() -> None:
    got = kernel_rtt.parse(tcp_info(232, 80_500, 2_250, 80_125))
    assert got == Kernel(0.0805, 0.00225, 0.080125)


def test_a_struct_too_short_for_a_figure_leaves_it_out() -> None:
    # Before Linux 4.6 the struct ended at 104 bytes (no tcpi_min_rtt).
    assert kernel_rtt.parse(tcp_info(104, 80_500, 2_250)) == Kernel(0.0805, 0.00225, None)
    assert kernel_rtt.parse(tcp_info(72, 80_500, 0)) is None


def test_nothing_measured_yet_is_none() -> None:
    assert kernel_rtt.parse(tcp_info(232, 0, 0, 0)) is None
    assert kernel_rtt.parse(tcp_info(232, 500, 250, 0xFFFFFFFF)) == Kernel(0.0005, 0.00025, None)


def test_no_socket_no_figures() -> None:
    assert kernel_rtt.read(None) is None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        assert kernel_rtt.read(udp) is None


@linux_only
def test_a_loopback_connection_is_measured_by_its_kernel() -> None:
    assert kernel_rtt.available()[0]
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
        with client, server:
            for _ in range(5):
                server.sendall(b"ping")
                assert client.recv(4) == b"ping"
                client.sendall(b"pong")
                assert server.recv(4) == b"pong"
            got = kernel_rtt.read(server)
    assert got is not None and got.min_rtt is not None
    # Loopback: well under the 100 ms the cheats below are after, on any machine.
    assert 0 < got.min_rtt <= got.rtt < 0.050


# --- the cheats of the fairness issue on real TCP --------------------------------------


async def cheat_lanes(nursery: trio.Nursery, rows: list[Any], pongs: int) -> list[Any]:
    """A real server on 127.0.0.1 (pings every 0.1 s) and a lane for each row, both
    players on direct TCP connections; settled with ``pongs`` pongs of each."""
    server = Server(ServerConfig(seed=1, ping_interval=0.1, play_ping_interval=0.1))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    connect = functools.partial(bench.tcp_peer, port)
    lanes = [
        await bench.open_lane(server, nursery, connect, connect, row, i)
        for i, row in enumerate(rows)
    ]
    await bench.settle(lanes, 0.0, pongs, 0.1)
    return lanes


@linux_only
@pytest.mark.deadline(60)
async def test_slow_pongs_earn_no_credit_the_kernel_did_not_measure(nursery) -> None:
    """Every ping answered 200 ms late, claims without a report: the pongs say the
    link takes 100 ms each way (today's cap, and before the kernel's figures, the
    credit), the kernel says microseconds."""
    row = bench.Row("slow pongs", slow_first=False, pong_late_ms=200, report=False, cap_ms=300)
    (lane,) = await cheat_lanes(nursery, [row], 8)
    latency = lane.slow_session.latency
    assert latency.rtt is not None and latency.rtt >= 0.2
    for number in range(3):
        result = await bench.race(lane, number, random.Random(number))
        assert not result.slow_picked, result.text
        assert result.basis in ("usual", "late"), result
        assert result.shift_ms is not None and result.shift_ms < 15, result


@linux_only
@pytest.mark.deadline(60)
async def test_a_lying_pong_clock_does_not_widen_what_a_claim_can_gain(nursery) -> None:
    """One ping in eight answered 70 ms late with a clock as if at once: the pongs'
    allowance grows to the most there is, but the kernel saw no jitter, so a claim
    94 ms earlier than true gains only the kernel's small allowance."""
    row = bench.Row(
        "lying clock",
        slow_first=False,
        pong_late_ms=70,
        late_every=8,
        clock_lie=True,
        cheat_ms=94,
        cap_ms=300,
    )
    (lane,) = await cheat_lanes(nursery, [row], 24)
    latency = lane.slow_session.latency
    offset = latency.offset()
    assert latency.pong_allowance(offset) > 0.060  # the cheat worked on the pongs...
    assert latency.allowance(offset) < 0.025 < MAX_ALLOWANCE  # ...not on the kernel
    for number in range(3):
        result = await bench.race(lane, number, random.Random(number))
        assert not result.slow_picked, result.text
        assert result.shift_ms is not None and result.shift_ms < 25, result

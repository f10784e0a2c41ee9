#!/usr/bin/env python3
"""A delay line for IP packets between two network namespaces, through TUN devices,
as ``tc qdisc ... netem delay`` would add it (started by ``netns.DelayLine``).

Theory of operation
-------------------
It makes ``--pairs`` pairs of TUN devices, one of each pair in each namespace (it is
handed a descriptor of each and enters them in turn: a device is made in the
namespace of the thread that asks). Pair ``i`` links the addresses ``10.R.i.1``
(near) and ``10.R.i.2`` (far), ``R`` being ``--subnet``: each device gets its own
address with the other as its point-to-point peer. Then it says ``ready`` on its
standard output. From then on the kernel
of each namespace routes the packets for the other's address to its device, and this
program reads each packet and writes it to the other device at its moment, where the
kernel takes it as if it had come from a wire. So both ends' TCP see the delay: their
round-trip estimates, their acknowledgements and their retransmissions include it,
as on a real slow link.

A packet read at ``t`` is due at ``max(t + max(0, delay + j), previous)``, ``j`` a
draw of the jitter (as ``lagproxy.Jitter``: none, uniform, exponential, spike) from
the direction's own random source (seeded by ``--seed``, the pair's number counted
from 1 and the direction, as ``lagproxy`` seeds a connection), ``previous`` the moment
of the packet read before it in the same direction of the same pair: a packet never
overtakes an earlier one, as netem keeps order when it is given a rate. Pure
acknowledgements are packets like any other and are delayed the same way. Loss,
reordering and bandwidth are not modelled.
The program waits with ``select`` (microseconds); it wakes late by the machine's
scheduling, well under a millisecond when idle. It ends on SIGTERM, when its standard
input ends (the parent holds the other end of that pipe, which closes when the parent
ends, however it ends), or when a device fails; its devices go with it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lagproxy import JITTER_MODES, Jitter, direction_rng
from netns import setns

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
PACKET = 65536


def make_tun(name: str) -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH22x", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def configure(name: str, address: str, peer: str) -> None:
    for args in (
        ["addr", "add", address, "peer", peer, "dev", name],
        ["link", "set", name, "up"],
    ):
        subprocess.run(["ip", *args], check=True, capture_output=True)


class Direction:
    """Packets read from one device, each due at its moment, in order."""

    def __init__(self, src: int, dst: int, delay: float, jitter: Jitter, rng_name: str) -> None:
        self.src, self.dst = src, dst
        self.delay, self.jitter = delay, jitter
        seed, _, way = rng_name.rpartition(":")
        self.rng = direction_rng(seed, way)
        self.queue: deque[tuple[float, bytes]] = deque()
        self.previous = 0.0

    def read(self, now: float) -> None:
        while True:
            try:
                packet = os.read(self.src, PACKET)
            except BlockingIOError:
                return
            own = now + max(0.0, self.delay + self.jitter.draw(self.rng))
            self.previous = max(own, self.previous)
            self.queue.append((self.previous, packet))

    def write_due(self, now: float) -> None:
        while self.queue and self.queue[0][0] <= now:
            _, packet = self.queue.popleft()
            with contextlib.suppress(BlockingIOError):
                os.write(self.dst, packet)  # a full device queue drops it, as a wire would

    def next_due(self) -> float | None:
        return self.queue[0][0] if self.queue else None


def address(subnet: int, pair: int, end: int) -> str:
    """The address of pair ``pair``'s near (1) or far (2) end."""
    return f"10.{subnet}.{pair}.{end}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--near-fd", type=int, required=True)
    parser.add_argument("--far-fd", type=int, required=True)
    parser.add_argument("--subnet", type=int, required=True, help="R of 10.R.i.1 (1..254)")
    parser.add_argument("--pairs", type=int, default=1, help="device pairs (1..250)")
    parser.add_argument("--delay-ms", type=float, default=80.0)
    parser.add_argument("--jitter", choices=JITTER_MODES, default="none")
    parser.add_argument("--jitter-ms", type=float, default=0.0)
    parser.add_argument("--spike-p", type=float, default=0.0)
    parser.add_argument("--seed", default="0")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    jitter = Jitter(args.jitter, args.jitter_ms, args.spike_p)
    delay = args.delay_ms / 1000
    directions: dict[int, Direction] = {}
    for pair in range(args.pairs):
        name = f"mm{args.subnet}p{pair}"
        near_address, far_address = address(args.subnet, pair, 1), address(args.subnet, pair, 2)
        setns(args.near_fd)
        near = make_tun(name + "n")
        configure(name + "n", near_address, far_address)
        setns(args.far_fd)
        far = make_tun(name + "f")
        configure(name + "f", far_address, near_address)
        seed = f"{args.seed}/{pair + 1}"
        directions[near] = Direction(near, far, delay, jitter, f"{seed}:there")
        directions[far] = Direction(far, near, delay, jitter, f"{seed}:back")
    os.close(args.near_fd)
    os.close(args.far_fd)
    print("ready", flush=True)
    while True:
        now = time.monotonic()
        dues = [d for d in (x.next_due() for x in directions.values()) if d is not None]
        timeout = None if not dues else max(0.0, min(dues) - now)
        readable, _, _ = select.select([0, *directions], [], [], timeout)
        now = time.monotonic()
        for fd in readable:
            if fd == 0:
                if not os.read(0, 4096):
                    return  # the parent has ended
                continue
            directions[fd].read(now)
        for direction in directions.values():
            direction.write_due(now)


if __name__ == "__main__":
    main()

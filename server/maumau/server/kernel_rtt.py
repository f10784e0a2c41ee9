"""The kernel's own measure of a TCP connection's round trip (``TCP_INFO``, Linux).

Theory of operation
-------------------
A pong's round trip is the client's word: its program decides when to answer. The
kernel's TCP keeps its own estimate of the same connection's round trip, measured
from the acknowledgements of the bytes the server sent (a client's kernel sends them
by itself, whatever its program does), and ``getsockopt(IPPROTO_TCP, TCP_INFO)``
hands it out. :func:`read` takes three figures of ``struct tcp_info`` (see
``include/uapi/linux/tcp.h``), all unsigned 32-bit microseconds:

- ``tcpi_rtt`` at byte 68: the smoothed round trip (7/8 old, 1/8 new sample);
- ``tcpi_rttvar`` at byte 72: its smoothed mean deviation;
- ``tcpi_min_rtt`` at byte 148 (Linux 4.6 and later): the smallest round trip of the
  last five minutes (``net.ipv4.tcp_min_rtt_wlen``), leaving out acknowledgements
  the kernel suspects were delayed. It includes the handshake's, which the client's
  kernel answers at once.

The kernel fills in as much of the struct as it has and says how much; a figure past
the end of what it returned is not read (an older kernel has no ``tcpi_min_rtt``).
Reading it is one system call, cheap enough for every pong. Where ``TCP_INFO`` does
not exist (not Linux), :func:`available` says why and :func:`read` returns None:
lag compensation then trusts the pongs alone, as before (see
:mod:`maumau.server.latency`).
"""

from __future__ import annotations

import socket
import struct
from typing import Protocol

from .latency import Kernel

RTT_AT = 68  # byte offsets in struct tcp_info
RTTVAR_AT = 72
MIN_RTT_AT = 148
INFO_SIZE = MIN_RTT_AT + 4  # the bytes asked for: up to and including tcpi_min_rtt
TCP_INFO: int | None = getattr(socket, "TCP_INFO", None)


class Socket(Protocol):
    """What :func:`read` needs of a socket (the standard library's or trio's)."""

    def getsockopt(self, level: int, optname: int, buflen: int, /) -> bytes: ...


def available() -> tuple[bool, str]:
    """Whether this system reports TCP round trips, and if not, why (for the log)."""
    if TCP_INFO is None:
        return False, "this system has no TCP_INFO"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            data = probe.getsockopt(socket.IPPROTO_TCP, TCP_INFO, INFO_SIZE)
    except OSError as error:
        return False, f"TCP_INFO cannot be read ({error})"
    if len(data) < RTTVAR_AT + 4:
        return False, f"TCP_INFO is too short ({len(data)} bytes)"
    if len(data) < INFO_SIZE:
        return True, "TCP_INFO without tcpi_min_rtt (its smallest smoothed round trip stands in)"
    return True, "TCP_INFO"


def parse(data: bytes) -> Kernel | None:
    """The figures in a ``struct tcp_info`` of ``len(data)`` bytes; None before the
    kernel has measured a round trip (or if the struct is too short to hold one)."""
    if len(data) < RTTVAR_AT + 4:
        return None
    rtt, rttvar = struct.unpack_from("=II", data, RTT_AT)
    if rtt == 0:
        return None
    least = None
    if len(data) >= MIN_RTT_AT + 4:
        (least_us,) = struct.unpack_from("=I", data, MIN_RTT_AT)
        # ~0U: no sample yet.
        least = None if least_us in (0, 0xFFFFFFFF) else least_us / 1e6
    return Kernel(rtt / 1e6, rttvar / 1e6, least)


def read(sock: Socket | None) -> Kernel | None:
    """The kernel's figures for ``sock``'s connection, or None (not a TCP socket, no
    TCP_INFO, closed, or nothing measured yet)."""
    if sock is None or TCP_INFO is None:
        return None
    try:
        return parse(sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, INFO_SIZE))
    except (OSError, ValueError):
        return None

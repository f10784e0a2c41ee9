"""Network namespaces of this process's own, and a delay line between two of them whose
delay the kernel's TCP sees (for ``scripts/bench-fairness``; Linux, as root).

Theory of operation
-------------------
A delay added by a program that relays a TCP stream (``lagproxy.py``) is invisible to
the kernels at both ends: each sees a connection to the relay, with the relay's
round trip. Lag compensation bounds what it credits by the kernel's measure of the
round trip (``TCP_INFO``, see ``maumau.server.kernel_rtt``), so a delay it should
credit has to be one the packets themselves take. ``tc qdisc ... netem`` adds such a
delay, but not every kernel has netem (``CONFIG_NET_SCH_NETEM``); a TUN device works
on any Linux: the kernel hands the program the IP packets routed to the device, and
the packets the program writes to it arrive as if from a wire.

:class:`Namespaces` makes network namespaces with no name: :meth:`Namespaces.enter_own`
moves the calling thread into a fresh one (the bench's server, its fast players and
its proxies live there, on its own loopback, and nothing is sent on the machine's own
interfaces), and :meth:`Namespaces.new` makes one more and keeps it open by a file
descriptor. A socket stays in the namespace it was made in, so :meth:`Namespaces.inside`
makes a player's socket in another namespace and returns. A namespace without a name
lives only as long as something holds it (a descriptor, a socket, a process, a TUN
device's descriptor): when the bench ends, however it ends, they all go, with their
devices; nothing is left to clean up.

:class:`DelayLine` starts ``tundelay.py`` in a child process: it makes one TUN device
in each of two namespaces, gives them a point-to-point pair of addresses, and carries
every packet from one to the other late by the delay plus a draw of its jitter (see
``tundelay.py``). The child ends with the bench (its standard input is a pipe from the
bench, which closes when the bench ends, however it ends) and is also ended by
:meth:`DelayLine.stop`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import trio
from lagproxy import Jitter

CLONE_NEWNET = 0x40000000
HERE = Path(__file__).resolve().parent
_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def setns(fd: int) -> None:
    """Move the calling thread into the network namespace ``fd`` refers to."""
    _check(_libc.setns(fd, CLONE_NEWNET), "setns")


def _this_namespace() -> int:
    return os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)


def supported() -> tuple[bool, str]:
    """Whether namespaces and TUN devices can be made here, and if not, why."""
    if not sys.platform.startswith("linux"):
        return False, "network namespaces are Linux's"
    if os.geteuid() != 0:
        return False, "making network namespaces needs root"
    if not os.path.exists("/dev/net/tun"):
        return False, "no /dev/net/tun"
    if shutil.which("ip") is None:
        return False, "no ip command (iproute2)"
    return True, "network namespaces and TUN devices"


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


class Namespaces:
    """Network namespaces without names (see the module docstring)."""

    def __init__(self) -> None:
        self.home = _this_namespace()
        self.made: list[int] = []

    def enter_own(self) -> int:
        """Move this thread into a fresh namespace with its loopback up; it becomes
        the one :meth:`inside` returns to. Returns its descriptor."""
        _check(_libc.unshare(CLONE_NEWNET), "unshare")
        fd = _this_namespace()
        os.close(self.home)
        self.home = fd
        _ip("link", "set", "lo", "up")
        return fd

    def new(self) -> int:
        """A fresh namespace with its loopback up; this thread stays where it was."""
        _check(_libc.unshare(CLONE_NEWNET), "unshare")
        try:
            fd = _this_namespace()
            _ip("link", "set", "lo", "up")
        finally:
            setns(self.home)
        self.made.append(fd)
        return fd

    @contextlib.contextmanager
    def inside(self, fd: int) -> Iterator[None]:
        """Run the body in namespace ``fd`` (sockets made there stay there)."""
        setns(fd)
        try:
            yield
        finally:
            setns(self.home)

    def close(self) -> None:
        for fd in self.made:
            os.close(fd)
        self.made.clear()


class DelayLine:
    """``tundelay.py`` between namespaces ``near`` and ``far``: ``pairs`` links, link
    ``i`` from :meth:`near_address` in ``near`` to :meth:`far_address` in ``far``
    (``subnet``, 1..254, tells one line's addresses from another's); every packet each
    way is ``delay`` seconds late plus a draw of ``jitter`` (seeded by ``seed``)."""

    def __init__(
        self,
        near: int,
        far: int,
        subnet: int,
        pairs: int,
        delay: float,
        jitter: Jitter,
        seed: str,
    ) -> None:
        if not 1 <= subnet <= 254 or not 1 <= pairs <= 250:
            raise ValueError("subnet is within 1..254 and pairs within 1..250")
        self.near, self.far = near, far
        self.subnet, self.pairs = subnet, pairs
        self.delay = delay
        self.jitter = jitter
        self.seed = seed
        self.process: trio.Process | None = None

    def near_address(self, pair: int) -> str:
        return f"10.{self.subnet}.{pair}.1"

    def far_address(self, pair: int) -> str:
        return f"10.{self.subnet}.{pair}.2"

    async def start(self) -> None:
        """Start the child and wait until its devices are up."""
        command = [
            sys.executable,
            str(HERE / "tundelay.py"),
            "--near-fd",
            str(self.near),
            "--far-fd",
            str(self.far),
            "--subnet",
            str(self.subnet),
            "--pairs",
            str(self.pairs),
            "--delay-ms",
            str(self.delay * 1000),
            "--jitter",
            self.jitter.mode,
            "--jitter-ms",
            str(self.jitter.ms),
            "--spike-p",
            str(self.jitter.p),
            "--seed",
            self.seed,
        ]
        self.process = await trio.lowlevel.open_process(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            pass_fds=(self.near, self.far),
        )
        assert self.process.stdout is not None
        seen = b""
        with trio.fail_after(10 + self.pairs):
            while b"\n" not in seen:
                data = await self.process.stdout.receive_some()
                if not data:
                    raise RuntimeError(f"tundelay.py ended: {self.process.poll()}")
                seen += data
        if not seen.startswith(b"ready"):
            raise RuntimeError(f"tundelay.py: {seen.decode(errors='replace')}")

    def stop(self, grace: float = 5.0) -> None:
        """End the child (if it has not ended yet), by its PID: SIGTERM, then SIGKILL
        if it is still there after ``grace`` seconds; its devices go with it. (Outside
        trio: the PID stays the child's until it is reaped, so it is safe to signal.)"""
        if self.process is None:
            return
        pid = self.process.pid
        if not _running(pid):
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if _running(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (not gone, not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")

"""A client ends with its terminal: the real ``maumau-client`` leaves within seconds
when its terminal goes away, or when it is signalled while its terminal is not read,
and the server keeps its seat for a resume.

Each test runs a real ``maumau-server`` on 127.0.0.1 (no database, no announcing) and
the real client on a terminal of its own:

- on a pseudo-terminal the test holds (``pty.openpty``), started in a session of its
  own without a controlling terminal: closing the master is then all the client is
  told (no SIGHUP), as when its terminal is gone but nobody signals it; or, with the
  master never read, the client blocks writing its frames, and is then signalled;
- in tmux (80x24, TERM=xterm, on a tmux server of the test's own), with ``exec`` (the
  pane's process is the client, and is sent SIGHUP by the hang-up) or under a shell
  (the shell is, and the client gets SIGHUP when the shell has gone).

The client's own bound is 2 seconds (see ``maumau.client.exit_guard``); the tests
allow :data:`DEADLINE` under load, and print the time measured. Every process a test
starts is ended by its pid at the end, if it is still there.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import secrets
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from wireclient import WireClient

from maumau.protocol.messages import Lobby
from support.processes import (
    blocked_on_terminal,
    cmdline,
    descendants,
    running,
    started,
    wait_gone,
)
from support.wire import start_server_process, stop_server_process

DEADLINE = 5.0  # seconds a test allows the client to leave (its own bound is 2)
SHOWN = 20.0  # seconds for a screen to appear


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("w") as out:
        server, port = start_server_process(
            "--host", "127.0.0.1", "--port", "0", "--no-db", "--no-announce",
            "--bot-delay", "0.2", "--log-level", "WARNING",
            stderr=out,
        )  # fmt: skip
    try:
        yield port
    finally:
        stop_server_process(server)


def client_command(port: int, name: str) -> list[str]:
    return [sys.executable, "-m", "maumau.client.cli", f"127.0.0.1:{port}", "--name", name]


def client_env(home: Path) -> dict[str, str]:
    return dict(os.environ, TERM="xterm", LANG="C.UTF-8", XDG_CONFIG_HOME=str(home))


class PtyClient:
    """The real client on a pseudo-terminal of 80x24 whose master the test holds."""

    def __init__(self, port: int, name: str, home: Path) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            client_command(port, name),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=client_env(home),
            start_new_session=True,  # no controlling terminal: no SIGHUP from the pty
        )
        os.close(slave)
        self.seen = bytearray()

    def read_until(self, wanted: bytes, timeout: float = SHOWN) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            assert time.monotonic() < deadline, f"never saw {wanted!r}: {bytes(self.seen[-500:])!r}"
            assert self.process.poll() is None, bytes(self.seen[-2000:])
            if select.select([self.master], [], [], 0.1)[0]:
                self.seen.extend(os.read(self.master, 65536))

    def type(self, keys: bytes, then: bytes) -> None:
        """Type ``keys`` and read until ``then`` appears after them."""
        del self.seen[:]
        os.write(self.master, keys)
        self.read_until(then)

    def unread(self) -> int:
        """How many bytes the client wrote that nobody read yet."""
        buffer = fcntl.ioctl(self.master, termios.FIONREAD, b"\0\0\0\0")
        return int(struct.unpack("i", buffer)[0])

    def resize(self, rows: int, columns: int) -> None:
        """A new size, and SIGWINCH (which the kernel sends only to a terminal's
        foreground group): the client draws its whole screen again."""
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process.send_signal(signal.SIGWINCH)

    def gone_within(self, seconds: float) -> float | None:
        """The seconds until the process ended, or None if it still runs after ``seconds``."""
        start = time.monotonic()
        while self.process.poll() is None:
            if time.monotonic() - start > seconds:
                return None
            time.sleep(0.01)
        return time.monotonic() - start

    def close_terminal(self) -> None:
        os.close(self.master)
        self.master = -1

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


@contextlib.contextmanager
def pty_client(port: int, name: str, home: Path) -> Iterator[PtyClient]:
    client = PtyClient(port, name, home)
    try:
        client.read_until(b"online (")
        yield client
    finally:
        client.stop()


def lobby_seats(port: int, name: str) -> list[dict[str, Any]]:
    """The seats ``name`` holds, as the lobby shows them to another player."""

    async def look() -> list[dict[str, Any]]:
        with trio.fail_after(10):
            watcher = await WireClient.connect("127.0.0.1", port, f"Look{secrets.token_hex(3)}")
            try:
                lobby = watcher.lobby or await watcher.wait_for(Lobby)
            finally:
                await watcher.aclose()
        return [seat for table in lobby.tables for seat in table["seats"] if seat["name"] == name]

    return trio.run(look)


def test_a_closed_terminal_ends_the_client_and_the_seat_is_kept(port: int, tmp_path: Path) -> None:
    """Seated at a table with bots, mid-match; the terminal's other end is closed (and
    no signal comes): the client leaves, without a bye, and its seat waits for it."""
    with pty_client(port, "Ann", tmp_path) as ann:
        ann.type(b"n", b"New table")
        ann.type(b"\r", b"Press s to start")
        ann.type(b"s", b"your hand")
        seats = lobby_seats(port, "Ann")
        assert [(seat["bot"], seat["connected"]) for seat in seats] == [(False, True)], seats
        ann.close_terminal()
        took = ann.gone_within(DEADLINE)
        print(f"closed terminal: the client left after {took} s")
        assert took is not None, f"the client still runs {DEADLINE} s after its terminal closed"
        assert ann.process.returncode == 128 + signal.SIGHUP
    # No bye was said: the seat is still Ann's, disconnected, for her return.
    seats = lobby_seats(port, "Ann")
    assert [(seat["bot"], seat["connected"]) for seat in seats] == [(False, False)], seats


def fill_the_terminal(client: PtyClient) -> int:
    """Never read the terminal and have the client draw again and again, until its
    writes are blocked (what is unread stops growing, its writer thread waits in the
    kernel's write and its loop on the writer's full queue); how much is unread then."""
    deadline = time.monotonic() + SHOWN
    unread, still = client.unread(), 0
    size = 0
    while still < 15:
        assert time.monotonic() < deadline, f"the terminal never filled ({unread} bytes)"
        assert client.process.poll() is None
        size += 1
        client.resize(24 + size % 3, 80 + size % 5)
        time.sleep(0.03)
        now = client.unread()
        blocked = blocked_on_terminal(client.process.pid)
        still = still + 1 if now == unread and now > 0 and blocked else 0
        unread = now
    return unread


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_client_blocked_writing_to_an_unread_terminal_ends_on_a_signal(
    port: int, tmp_path: Path, signum: signal.Signals
) -> None:
    """Nobody reads the terminal (a stalled connection): the client's writes block,
    and then it is signalled. It leaves all the same, with 128 + the signal."""
    with pty_client(port, f"Bo{signum}", tmp_path) as bo:
        unread = fill_the_terminal(bo)
        start = time.monotonic()
        bo.process.send_signal(signum)
        took = bo.gone_within(DEADLINE)
        print(f"{signum.name} while blocked writing ({unread} bytes unread): left after {took} s")
        assert took is not None, f"the client still runs {DEADLINE} s after {signum.name}"
        assert bo.process.returncode == 128 + signum
        assert time.monotonic() - start < DEADLINE


class Tmux:
    """A tmux server of the test's own (its own socket), killed at the end."""

    def __init__(self) -> None:
        self.socket = f"maumau-gone-{os.getpid()}-{secrets.token_hex(3)}"
        self.socket_path = ""

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )

    def wait_for(self, session: str, text: str) -> str:
        deadline = time.monotonic() + SHOWN
        while True:
            screen = self("capture-pane", "-t", session, "-p").stdout
            if text in screen:
                return screen
            assert time.monotonic() < deadline, f"{session} never showed {text!r}:\n{screen}"
            time.sleep(0.1)

    def close(self) -> None:
        self("kill-server")
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


# How the pane runs the client: as the pane's process (the session leader, which the
# hang-up sends SIGHUP); under a shell (which the hang-up ends, and the client, in the
# terminal's foreground group, is then sent SIGHUP); under a shell that ignores
# SIGHUP (nobody signals the client: the hang-up is all it is told).
PANES = {
    "exec": "exec {client}",
    "shell": "{client}; exit $?",
    "no-signal": "trap '' HUP; {client}; exit $?",
}


@pytest.mark.parametrize("how", list(PANES))
def test_tmux_kill_session_ends_the_client(port: int, tmp_path: Path, how: str) -> None:
    """``tmux kill-session`` (as scripts/bench-client does) while the client shows the
    lobby: the client leaves, however the pane runs it (:data:`PANES`)."""
    if shutil.which("tmux") is None or not Path("/proc/self/stat").exists():
        pytest.skip("needs tmux and /proc")
    command = " ".join(client_command(port, f"Cy{how}"))
    client = f"env TERM=xterm LANG=C.UTF-8 XDG_CONFIG_HOME={tmp_path} {command}"
    tmux = Tmux()
    ours: list[tuple[int, int | None]] = []  # the pane's processes, started by this test
    try:
        line = PANES[how].format(client=client)
        done = tmux("new-session", "-d", "-s", "cy", "-x", "80", "-y", "24", line)
        assert done.returncode == 0, done.stderr
        tmux.socket_path = tmux("display-message", "-p", "#{socket_path}").stdout.strip()
        pane = int(tmux("list-panes", "-t", "cy", "-F", "#{pane_pid}").stdout.split()[0])
        tmux.wait_for("cy", "online (")
        ours = [(pid, started(pid)) for pid in [pane, *descendants(pane)]]
        clients = [(pid, since) for pid, since in ours if "maumau.client.cli" in cmdline(pid)]
        assert len(clients) == 1, [cmdline(pid) for pid, _ in ours]
        assert (clients[0][0] == pane) == (how == "exec")
        tmux("kill-session", "-t", "cy")
        took = wait_gone(clients, DEADLINE)
        print(f"tmux kill-session ({how}): the client left after {took} s")
        assert took is not None, f"the client still runs {DEADLINE} s after kill-session"
    finally:
        tmux.close()
        for pid, since in ours:
            if running(pid, since):  # started by this test: ended by its pid
                os.kill(pid, signal.SIGKILL)

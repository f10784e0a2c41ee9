"""Processes for the browser guests' tests: ``maumau-server --web`` and ``maumau-web`` as
real subprocesses whose output lines are read as they come, and a look at any process
through ``/proc``.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "maumau.server.cli"]
WEB = [sys.executable, "-m", "maumau.client.web"]
HOST_SECRET = "xyz-host-secret-7d1f"


class Running:
    """A subprocess whose stdout and stderr lines are read by threads as they come."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.changed = threading.Condition()
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()

    def _read(self, stream: Any, lines: list[str]) -> None:
        for line in stream:
            with self.changed:
                lines.append(line)
                self.changed.notify_all()

    @property
    def pid(self) -> int:
        return self.process.pid

    def find(self, pattern: str | re.Pattern[str], err: bool = True, start: int = 0) -> Any:
        """The first match of ``pattern`` in the lines from ``start`` on, or None."""
        for line in (self.err if err else self.out)[start:]:
            if found := re.search(pattern, line):
                return found
        return None

    def wait(
        self, pattern: str | re.Pattern[str], err: bool = True, start: int = 0, timeout: float = 20
    ) -> Any:
        """The first match of ``pattern`` in the lines from ``start`` on, waiting up to
        ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while (found := self.find(pattern, err, start)) is None:
                left = deadline - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self.changed.wait(0.2)):
                    lines = "".join((self.err if err else self.out)[-30:])
                    raise AssertionError(f"no {pattern!r} within {timeout} s; last lines:\n{lines}")
                self.changed.wait(min(left, 0.2))
            return found

    async def await_line(self, pattern: str | re.Pattern[str], **kwargs: Any) -> Any:
        return await asyncio.to_thread(self.wait, pattern, **kwargs)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


class WebAlone(Running):
    """``maumau-web`` alone on 127.0.0.1, for a game nobody logs in to (port 9): its
    port. ``options`` come after the defaults, so they may repeat one of them."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        super().__init__(
            [
                *WEB,
                "127.0.0.1:9",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--key-file",
                str(tmp_path / "web.key"),
                "--no-qr",
                *options,
            ]
        )
        self.port = int(self.wait(r"maumau-web on port (\d+)", err=False, timeout=30)[1])


class Party(Running):
    """``maumau-server --web 0`` on 127.0.0.1: the game's port, the web server's port
    and the web server's PID."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        super().__init__(
            [
                *SERVER,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                str(tmp_path / "server.db"),
                "--bot-delay",
                "0.05",
                "--web",
                "0",
                *options,
            ],
            env={"MAUMAU_TEST_HOST_SECRET": HOST_SECRET},
        )
        self.game = int(self.wait(r"listening on port (\d+)", err=False, timeout=30)[1])
        self.web = int(self.wait(r"maumau-web on port (\d+)", err=False, timeout=30)[1])
        web_children = [p for p in children(self.pid) if b"maumau.client.web" in cmdline(p)]
        assert len(web_children) == 1, web_children
        self.web_pid = web_children[0]

    @property
    def url(self) -> str:
        """The page's address, as a guest on this machine opens it."""
        return f"http://127.0.0.1:{self.web}/"


@contextlib.contextmanager
def party(tmp_path: Path, *options: str) -> Iterator[Party]:
    running = Party(tmp_path, *options)
    try:
        yield running
    finally:
        running.stop()


def children(pid: int) -> list[int]:
    """The PIDs whose parent is ``pid``."""
    found = []
    for path in glob.glob("/proc/[0-9]*/stat"):
        try:
            data = Path(path).read_text()
        except OSError:
            continue
        if int(data[data.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(path.split("/")[2]))
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def environment(pid: int) -> dict[str, str]:
    data = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.decode().partition("=") for item in data.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def ended(pid: int) -> bool:
    """Whether ``pid`` has ended (gone, or a zombie nobody has reaped yet)."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return data[data.rindex(")") + 2 :].split()[0] in ("Z", "X")

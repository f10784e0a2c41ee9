"""The terminal is given back on SIGTERM, SIGHUP and SIGINT: the real client runs on
a pseudo-terminal (as in a terminal window or an SSH session), is sent the signal by
pid, and must leave the alternate screen (``ESC [?1049l``) and show the cursor
again before it exits with 128 + the signal's number. (A terminal that is gone, or
not read: tests/e2e/test_client_terminal_gone.py.)"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.wire import free_port

ENTER_ALT_SCREEN = b"\x1b[?1049h"
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
SHOW_CURSOR = b"\x1b[?25h"


def read_until(fd: int, seen: bytearray, wanted: bytes, timeout: float) -> bool:
    """Read the pty into ``seen`` until ``wanted`` is in it, or EOF or the timeout."""
    deadline = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the client closed the terminal's other end
                return wanted in seen
            if not chunk:
                break
            seen.extend(chunk)
    return wanted in seen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_leaves_the_terminal_as_it_was(signum: signal.Signals, tmp_path: Path) -> None:
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", LANG="C.UTF-8", XDG_CONFIG_HOME=str(tmp_path))
    # Nothing listens on the port: the client shows its connect screen and waits.
    address = f"127.0.0.1:{free_port()}"
    client = subprocess.Popen(
        [sys.executable, "-m", "maumau.client.cli", address, "--name", "Ann"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = bytearray()
    try:
        assert read_until(master, seen, ENTER_ALT_SCREEN, 20), bytes(seen[-300:])
        assert read_until(master, seen, b"onnect", 20)  # the connect screen is drawn
        drawn = len(seen)
        client.send_signal(signum)
        status = client.wait(10)
        read_until(master, seen, b"\x00never", 1)  # what is left to read
        after = bytes(seen[drawn:])
        assert LEAVE_ALT_SCREEN in after, after[-300:]
        assert SHOW_CURSOR in after[after.index(LEAVE_ALT_SCREEN) - 200 :]
        assert status == 128 + signum
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        os.close(master)

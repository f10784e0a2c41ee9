"""A server process a test can kill and start again on the same database, and a
quiet turn to wait for."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

from maumau.client.app import MauMauApp
from support.client_app import until


def start_server(port: int, *store: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "maumau.server.cli"),
            *("--host", "127.0.0.1", "--port", str(port), "--seed", "11"),
            *("--bot-delay", "0.05", *store),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if re.search(r"listening on port", process.stdout.readline()):
            return process
    process.kill()
    raise AssertionError("the server did not start")


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def quiet_turn(pilot: object, app: MauMauApp) -> None:
    """Wait until it is our turn, no call window is open, and nothing has changed
    for half a second."""
    while True:
        await until(pilot, lambda: app.model.my_turn and not app.model.view.windows, 30)
        view = app.model.view
        await pilot.pause(0.5)  # type: ignore[attr-defined]
        if app.model.view is view:
            return

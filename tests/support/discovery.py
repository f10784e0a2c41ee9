"""Network namespaces for the discovery tests: running a command in one, the
sightings a client makes, a server started and ended there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


BROWSER = textwrap.dedent(
    """
    import json, socket, sys, time
    from maumau.client.discovery import Discovery

    def changed(servers):
        for found in servers:
            try:
                with socket.create_connection((found.host, found.port), timeout=3):
                    reached = True
            except OSError:
                reached = False
            line = dict(name=found.name, host=found.host, port=found.port,
                        version=found.version, players=found.players, reached=reached)
            print(json.dumps(line), flush=True)

    discovery = Discovery(changed)
    assert discovery.start()
    time.sleep(float(sys.argv[1]))
    discovery.close()
    """
)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


def in_ns(ns: str, *command: str) -> list[str]:
    return ["ip", "netns", "exec", ns, *command]


def sightings(browser: subprocess.Popen[str], want: Any, seconds: float) -> dict[str, Any]:
    """The first line the browser prints that ``want`` accepts."""
    assert browser.stdout is not None
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        line = browser.stdout.readline()
        if not line:
            break
        found = json.loads(line)
        seen.append(found)
        if want(found):
            return found
    problems = browser.stderr.read() if browser.poll() is not None and browser.stderr else ""
    raise AssertionError(f"not seen: {seen} {problems}")


ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(str(ROOT / p) for p in ("protocol", "server", "client")),
    "PYTHONUNBUFFERED": "1",
}


SERVER = [sys.executable, "-m", "maumau.server.cli", "--port", "0", "--no-db"]


def started(ns: str, *command: str) -> subprocess.Popen[str]:
    """``command`` in namespace ``ns``, in a session of its own (ended by its group)."""
    return subprocess.Popen(
        in_ns(ns, *command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )


def ended(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

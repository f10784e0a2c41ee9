"""scripts/bench-client end to end, small: its figures; and a client that outlives its
tmux session is an error, ended by PID, never left running."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench-client"), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_bench_client_prints_its_figures() -> None:
    result = bench("--runs", "1", "--presses", "3", "--deadline", "50")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    measures = {line["measure"]: line for line in lines}
    assert measures["cold_start_to_lobby"]["runs"] == 1
    assert 0 < measures["cold_start_to_lobby"]["median_s"] < 20
    assert measures["keypress_to_updated_screen"]["presses"] == 3


def test_a_client_that_outlives_its_tmux_session_is_an_error(tmp_path: Path) -> None:
    # A "client" that draws the lobby's line, then ignores SIGHUP and SIGTERM (as a
    # client that does not end with its terminal would), with a child of its own.
    stubborn = tmp_path / "stubborn"
    stubborn.write_text("#!/bin/bash\ntrap '' HUP TERM\necho 'online (1)'\nsleep 120 &\nwait\n")
    stubborn.chmod(0o755)
    started = time.monotonic()
    result = bench("--runs", "1", "--presses", "0", "--client", str(stubborn))
    assert result.returncode == 1, result.stdout + result.stderr
    assert time.monotonic() - started < 30
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["runs"] == 1
    error = lines[-1]["error"]
    assert "still running 3 s after tmux kill-session, ended by PID" in error
    pids = [int(pid) for pid in re.findall(r"(\d+) \(", error)]
    assert len(pids) == 2, error  # the stubborn script and its sleep
    assert not any(running(pid) for pid in pids)

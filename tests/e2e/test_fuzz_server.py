"""``scripts/fuzz-server``, shortened: abuse, idle connections and a bots' match on the
real ``maumau-server``; the script exits 0 only if every check holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_survives_a_short_fuzz_run() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "fuzz-server"),
            "--seconds",
            "4",
            "--connections",
            "30",
            "--idle",
            "400",
            "--hello-timeout",
            "2",
            "--target",
            "40",
            "--match-deadline",
            "90",
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    checks = next(line["checks"] for line in lines if "checks" in line)
    assert all(checks.values()), (checks, result.stdout, result.stderr[-2000:])
    abuse = next(line["abuse"] for line in lines if "abuse" in line)
    assert abuse["connections"] > 30 and not abuse["silent"]
    assert result.returncode == 0

"""scripts/bench-server end to end, small: its phases, figures and target line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_server_prints_its_figures() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench-server"),
            "--clients",
            "16",
            "--idle",
            "8",
            "--seconds",
            "1.5",
            "--paced-seconds",
            "3",
            "--rate",
            "40",
            "--targets",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert not any("errors" in line for line in lines), lines
    idle = next(line for line in lines if "idle_clients" in line)
    assert idle["idle_clients"] == 8
    phases = {line["phase"]: line for line in lines if "phase" in line}
    assert set(phases) == {"flat_out", "paced"}
    flat, paced = phases["flat_out"], phases["paced"]
    assert flat["tables"] == 4 and flat["actions"] > 100
    assert flat["server_cpu_ms_per_action"] > 0
    # Paced at 40 actions/s over 4 tables: the tables keep to it.
    assert paced["offered_per_s"] == 40
    assert 30 <= paced["actions_per_s"] <= 42
    assert paced["p50_ms"] < 200
    targets = next(line["targets"] for line in lines if "targets" in line)
    assert set(targets) == {
        "actions_per_s_at_least_5000",
        "p99_at_most_50_ms",
        "idle_at_most_20_kib",
    }
    assert targets["actions_per_s_at_least_5000"] is False  # 40/s is not 5,000/s
    journal = next(line for line in lines if "journal_rows" in line)
    assert journal["journal_rows"] >= flat["actions"]

"""scripts/bench-web end to end, small: its figures, and nothing left running."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_web_prints_its_figures_and_ends_what_it_started() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench-web"),
            "--tabs",
            "2",
            "--idle-seconds",
            "1",
            "--play-seconds",
            "3",
            "--deadline",
            "90",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["tabs"] == 2 and lines[0]["play"] == "a table each, 3 bots"
    phases = {line["phase"]: line for line in lines if "phase" in line}
    assert set(phases) == {"idle_in_lobby", "play"}
    assert phases["play"]["moves_journaled"] > 0
    assert phases["play"]["guest_cpu_pct_avg"] > phases["idle_in_lobby"]["guest_cpu_pct_avg"]
    memory = {line["rss"]: line for line in lines if "rss" in line}
    assert set(memory) == {"in_lobby", "after_play"}
    assert memory["in_lobby"]["guests"] == 2
    assert 10 < memory["in_lobby"]["guest_rss_mib_avg"] < 500
    assert memory["in_lobby"]["web_server_rss_mib"] > 10
    stop = lines[-1]["stop"]
    assert stop["exit"] == 0 and stop["killed"] == []


def test_bench_web_stops_at_its_deadline_and_still_ends_what_it_started() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench-web"),
            "--tabs",
            "1",
            "--idle-seconds",
            "30",
            "--deadline",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1] == {"error": "not done within --deadline 5 s"}
    stop = lines[-2]["stop"]
    assert stop["exit"] == 0 and stop["killed"] == []

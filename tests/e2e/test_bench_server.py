"""scripts/bench-server end to end, small: its phases, figures and target line; a
refusal or its deadline stops it at once with an error; a sweep of table counts;
the tables spread over several servers."""

from __future__ import annotations

import io
import json
import pstats
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def run_bench(*arguments: str, timeout: float = 60) -> tuple[int, list[dict[str, Any]], str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench-server"), *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return (
        result.returncode,
        [json.loads(line) for line in result.stdout.splitlines()],
        result.stderr,
    )


def test_bench_server_stops_at_once_with_the_servers_refusal() -> None:
    # The server takes two tables; the bench asks for four: the third create_table is
    # refused, and the bench says so and stops instead of waiting for its answer.
    started = time.monotonic()
    status, lines, stderr = run_bench(
        "--clients", "16", "--seconds", "30", "--no-db", "--server-arg=--max-tables=2"
    )  # fmt: skip
    assert status == 1, (lines, stderr)
    assert time.monotonic() - started < 20
    error = lines[-1]["error"]
    assert "refused create_table: lobby_full" in error, lines
    assert "lobby_full" in stderr
    assert not any("phase" in line for line in lines)


def test_bench_server_stops_at_its_deadline() -> None:
    started = time.monotonic()
    status, lines, _ = run_bench(
        "--clients", "8", "--seconds", "60", "--paced-seconds", "0", "--no-db", "--deadline", "3"
    )  # fmt: skip
    assert status == 1
    assert time.monotonic() - started < 20
    assert lines[-1] == {"error": "not done within --deadline 3 s"}


def test_a_sweep_prints_a_line_per_table_count_and_a_summary() -> None:
    status, lines, stderr = run_bench(
        "--tables", "2,3", "--seconds", "1", "--paced-seconds", "0", "--no-db"
    )  # fmt: skip
    assert status == 0, stderr
    sweep = [line["sweep"] for line in lines if "sweep" in line]
    assert [figures["tables"] for figures in sweep] == [2, 3]
    for figures in sweep:
        flat = figures["flat_out"]
        assert flat["actions_per_s"] > 0 and flat["server_cpu_ms_per_action"] > 0
        assert 0 < flat["p50_ms"] <= flat["p99_ms"]
        assert "paced" not in figures  # not asked for
    setups = [line["setup"] for line in lines if "setup" in line]
    # Each table's players from a loopback address of their own.
    assert [(s["tables"], s["clients"], s["source_addresses"]) for s in setups] == [
        (2, 8, 2),
        (3, 12, 3),
    ]
    assert lines[-1]["summary"] == sweep


def test_bench_server_spreads_the_tables_over_several_servers() -> None:
    """``--servers 2``: two servers, the tables round-robin; the phase line has each
    server's actions and CPU, and their actions add up to the total."""
    status, lines, stderr = run_bench(
        "--servers", "2", "--clients", "16", "--seconds", "1", "--paced-seconds", "0", "--no-db"
    )  # fmt: skip
    assert status == 0, stderr
    flat = next(line for line in lines if line.get("phase") == "flat_out")
    servers = flat["servers"]
    assert [(s["server"], s["tables"]) for s in servers] == [(0, 2), (1, 2)]
    assert all(s["actions"] > 0 and s["cpu_s"] > 0 for s in servers), servers
    assert sum(s["actions"] for s in servers) == flat["actions"]
    assert abs(sum(s["cpu_s"] for s in servers) - flat["server_cpu_s"]) <= 0.02
    assert (
        len(next(line for line in lines if "servers_peak_rss_mib" in line)["servers_peak_rss_mib"])
        == 2
    )


def test_a_refusal_names_the_server_that_refused() -> None:
    # Each of the two servers takes one table; the second table of either is refused.
    status, lines, stderr = run_bench(
        "--servers", "2", "--clients", "16", "--seconds", "30", "--no-db",
        "--server-arg=--max-tables=1",
    )  # fmt: skip
    assert status == 1, (lines, stderr)
    error = lines[-1]["error"]
    assert re.search(r"server [01] \(port \d+\) refused create_table: lobby_full", error), error


def test_bench_server_profiles_the_server(tmp_path: Path) -> None:
    profile = tmp_path / "server.prof"
    status, lines, stderr = run_bench(
        "--clients", "8", "--seconds", "1", "--paced-seconds", "0", "--no-db",
        "--profile", str(profile),
    )  # fmt: skip
    assert status == 0, stderr
    assert {"profile": str(profile), "bytes": profile.stat().st_size} in lines
    listing = io.StringIO()
    pstats.Stats(str(profile), stream=listing).print_stats()
    assert "maumau/server/" in listing.getvalue()


def test_profile_server_says_where_an_actions_time_goes(tmp_path: Path) -> None:
    """scripts/profile-server samples the server during the flat-out phase only (not
    while it sets the tables up) and splits its time into the stages of an action."""
    command = [sys.executable, str(ROOT / "scripts" / "profile-server"), "--clients", "16"]
    result = subprocess.run(
        [*command, "--seconds", "3", "--no-db", "--keep", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["bench"]["phase"] == "flat_out"
    samples = next(line["samples"] for line in lines if "samples" in line)
    assert samples > 0
    stages = {line["stage"]: line["share_pct"] for line in lines if "stage" in line}
    assert 99 <= sum(stages.values()) <= 101
    assert stages["views (packing and queueing each seat's)"] > 0
    assert "inbox.py:run" in (tmp_path / "server.samples").read_text()


def test_the_sampler_samples_only_while_switched_on(tmp_path: Path) -> None:
    """``sampler.py --paused`` counts stacks only between SIGUSR1 and SIGUSR2 (how
    bench-server --sample leaves out the setting up of its tables)."""
    (tmp_path / "spin.py").write_text(
        "import os, signal, time\n"
        "def spin(seconds):\n"
        "    end = time.process_time() + seconds\n"
        "    while time.process_time() < end:\n"
        "        pass\n"
        "def before(): spin(0.4)\n"
        "def during(): spin(0.4)\n"
        "def after(): spin(0.4)\n"
        "before()\n"
        "os.kill(os.getpid(), signal.SIGUSR1)\n"
        "during()\n"
        "os.kill(os.getpid(), signal.SIGUSR2)\n"
        "after()\n"
    )
    out = tmp_path / "spin.samples"
    sampler = ROOT / "scripts" / "lib" / "sampler.py"
    done = subprocess.run(
        [sys.executable, str(sampler), str(out), "--paused", "-m", "spin"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    counts = {}
    for line in out.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        counts[stack.split(";")[-2] if ";" in stack else stack] = int(count)
    functions = {stack.split(":")[-1] for stack in counts}
    assert "during" in functions
    assert not functions & {"before", "after"}, counts

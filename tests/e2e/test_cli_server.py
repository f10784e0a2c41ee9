"""End to end: the real ``maumau-server`` command in a subprocess."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import CreateTable, Goodbye, StartMatch, TableInfo
from support.wire import play_scripted

SERVER = [sys.executable, "-m", "maumau.server.cli"]


def start_server(*args: str) -> tuple[subprocess.Popen[str], int]:
    """Start ``maumau-server``; without ``--db`` among ``args`` it keeps no database."""
    db = [] if "--db" in args else ["--no-db"]
    process = subprocess.Popen(
        [*SERVER, "--host", "127.0.0.1", "--port", "0", *db, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 20
    port = 0
    lines = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        match = re.search(r"listening on port (\d+)", line)
        if match:
            port = int(match.group(1))
            break
    assert port, f"server did not start: {lines}"
    address = process.stdout.readline()
    assert address.strip() == f"maumau-client 127.0.0.1:{port}"
    return process, port


@pytest.fixture
def server_process() -> Iterator[tuple[subprocess.Popen[str], int]]:
    process, port = start_server("--seed", "3", "--bot-delay", "0")
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


async def test_play_a_match_through_the_real_command_then_sigint(server_process) -> None:
    process, port = server_process
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    settings = {"variant": "classic", "seats": 3, "target_score": 60, "mau_window_ms": 100}
    await ann.send(CreateTable("E2E", settings, (1, 2)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    with trio.fail_after(60):
        await play_scripted(ann, random.Random(4))
    assert ann.view is not None and ann.view.phase == "match_over"
    assert max(ann.view.scores) >= 60

    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    goodbye = await ann.wait_for(Goodbye, timeout=5)
    assert "shutting down" in goodbye.reason
    with pytest.raises(ServerClosed):
        await ann.wait_for(lambda m: False, timeout=5)
    code = await trio.to_thread.run_sync(lambda: process.wait(5))
    assert time.monotonic() - started < 2.0
    assert code == 0
    out, err = process.communicate(timeout=5)
    assert "stopped" in out
    assert "Ann connected" in err and "match starts" in err


def test_sigterm_stops_an_idle_server() -> None:
    process, _ = start_server()
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    assert process.wait(5) == 0
    assert time.monotonic() - started < 2.0


def test_help_and_bad_arguments() -> None:
    done = subprocess.run([*SERVER, "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    for flag in ("--host", "--port", "--seed", "--max-clients", "--log-level"):
        assert flag in done.stdout
    bad = subprocess.run([*SERVER, "--port", "70000"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "--port" in bad.stderr


def test_port_in_use_is_a_clear_error() -> None:
    process, port = start_server()
    try:
        clash = subprocess.run(
            [*SERVER, "--host", "127.0.0.1", "--port", str(port), "--no-db"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert clash.returncode == 1
        assert f"cannot listen on port {port}" in clash.stderr
        assert "Traceback" not in clash.stderr
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(5)


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "maumau-server"
    assert script.exists()


async def test_server_stays_responsive_after_a_seated_player_drops_before_the_match() -> None:
    process, port = start_server("--bot-delay", "0")
    try:
        ann = await WireClient.connect("127.0.0.1", port, "Ann")
        settings = {"variant": "classic", "seats": 2, "reconnect_grace_s": 1}
        await ann.send(CreateTable("Waiting", settings, ()))
        await ann.wait_for(TableInfo)
        await ann.aclose()  # Ann keeps her seat at a table that has not started
        await trio.sleep(2.5)  # past the reconnect grace
        with trio.fail_after(5):
            bob = await WireClient.connect("127.0.0.1", port, "Bob")
        assert bob.welcome is not None
        await bob.aclose()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(5) == 0

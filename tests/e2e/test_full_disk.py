"""A real full disk under the real ``maumau-server``: nothing a client was told is lost.

The database lives on a small tmpfs mounted for the test (this needs root, as CI
has; ``MAUMAU_REQUIRE_TMPFS=1`` makes a missing mount a failure rather than a skip).
A file fills the rest of it while a match runs, so the next commit of the journal
fails with "database or disk is full". Then:

- the table pauses and says so, and every view the client got is in the committed
  journal;
- ``kill -9`` while the disk is full, a restart with room again: the table comes back
  exactly as the client last saw it;
- or room again while the server runs: play resumes by itself, and after a later
  ``kill -9`` and a restart the table is again exactly as last seen (the journal has
  no gap).
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from wireclient import WireClient

from maumau.protocol.messages import (
    CreateTable,
    DrawCard,
    Error,
    Ready,
    StartMatch,
    TableInfo,
    View,
)
from support.crash_recovery import compared, drain_until_quiet
from support.wire import free_port, move_for, start_server_process


@contextlib.contextmanager
def small_disk(where: Path, size: str = "4m") -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        if os.environ.get("MAUMAU_REQUIRE_TMPFS"):
            pytest.fail(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Fill the filesystem to the last byte; the filler's path."""
    filler = disk / "filler"
    chunk = b"\0" * 65536
    with open(filler, "wb", buffering=0) as out:
        size = len(chunk)
        while size:
            try:
                out.write(chunk[:size])
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                size //= 2
    return filler


def start(db: Path, port: int, log: Path) -> subprocess.Popen[str]:
    options = ["--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    with open(log, "a") as stderr:  # the child keeps its own copy
        return start_server_process(*options, "--bot-delay", "0.05", stderr=stderr)[0]


def committed_seq(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as check:
        (seq,) = check.execute(
            "SELECT MAX(seq) FROM (SELECT seq FROM live_journal UNION ALL SELECT seq FROM journal)"
        ).fetchone()
    return int(seq or 0)


async def play_until(ann: WireClient, rng: random.Random, done) -> object:
    """Ann plays whatever is legal (never near the end of a round) until ``done``
    accepts a message; that message."""
    acted = ready = -1
    message: object = ann.view  # act on the view already there first
    while True:
        if message is not None and done(message):
            return message
        view = ann.view
        if isinstance(message, View | Error) and view is not None and view.seq > acted:
            if view.phase == "round_over" and ready != view.round:
                ready = view.round
                await ann.send(Ready(True))
            turn = [a for a in view.legal if a["kind"] in ("play", "draw", "pass", "challenge")]
            if view.phase == "playing" and view.turn == view.seat and turn:
                plays = [a for a in turn if a["kind"] == "play"]
                plays = plays if len(view.hand or ()) > 3 else []
                acted = view.seq
                await ann.send(move_for(rng.choice(plays) if plays else turn[-1]))
        message = await ann.receive()


async def seat_ann(port: int) -> WireClient:
    ann = await WireClient.connect("127.0.0.1", port, "Ann", secret="ann-secret-0123456789")
    settings = {"seats": 2, "target_score": 500, "turn_timeout_s": 60}
    await ann.send(CreateTable("Full", settings, bots=(1,)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    await ann.wait_for(View)
    return ann


def stop(server: subprocess.Popen[str]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGKILL)
        server.wait(10)


async def pause_on_full_disk(disk: Path, db: Path, ann: WireClient) -> tuple[View, Path]:
    rng = random.Random(3)
    await play_until(ann, rng, lambda m: isinstance(m, View) and m.seq >= 8)  # a few moves
    filler = fill(disk)
    paused = await play_until(ann, rng, lambda m: isinstance(m, TableInfo) and m.paused)
    assert isinstance(paused, TableInfo)
    assert paused.paused == "cannot_save"
    seen = ann.view
    assert seen is not None
    assert committed_seq(db) >= seen.seq, "a client was told of something not saved"
    await ann.send(DrawCard())
    refused = await ann.wait_for(Error)
    assert refused.code == "cannot_save"
    with trio.move_on_after(1.5):
        while True:  # nothing about the table comes while the disk is full
            message = await ann.receive()
            assert not isinstance(message, View), message
    return seen, filler


async def resume_and_compare(port: int, ann: WireClient, seen: View) -> WireClient:
    assert ann.welcome is not None
    again = await WireClient.connect("127.0.0.1", port, "Ann", resume=ann.welcome.resume)
    view = await again.wait_for(View)
    assert compared(view) == compared(seen)
    return again


@pytest.mark.deadline(120)
async def test_kill_9_on_a_full_disk_then_room_again_loses_nothing(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db, port, log = disk / "server.db", free_port(), tmp_path / "server.log"
        server = start(db, port, log)
        try:
            ann = await seat_ann(port)
            seen, filler = await pause_on_full_disk(disk, db, ann)
            stop(server)
            filler.unlink()
            server = start(db, port, log)
            again = await resume_and_compare(port, ann, seen)
            await again.aclose()
        finally:
            stop(server)
        assert "the database cannot save" in log.read_text()


@pytest.mark.deadline(120)
async def test_room_again_while_running_resumes_play_without_a_gap(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db, port, log = disk / "server.db", free_port(), tmp_path / "server.log"
        server = start(db, port, log)
        try:
            ann = await seat_ann(port)
            seen, filler = await pause_on_full_disk(disk, db, ann)
            filler.unlink()
            resumed = await ann.wait_for(lambda m: isinstance(m, TableInfo) and not m.paused, 15)
            assert resumed.state == "playing"
            # Play on for a while, then kill -9 at a quiet moment.
            target = seen.seq + 12
            await play_until(
                ann, random.Random(4), lambda m: isinstance(m, View) and m.seq >= target
            )
            await drain_until_quiet(ann, 1.5)
            last = ann.view
            assert last is not None and last.seq > seen.seq
            stop(server)
            server = start(db, port, log)
            again = await resume_and_compare(port, ann, last)
            await again.aclose()
        finally:
            stop(server)
        text = log.read_text()
        assert "the database saves again" in text
        assert "could not be restored" not in text

"""Crash recovery, end to end: ``kill -9`` of the real ``maumau-server`` in the middle
of a round, a restart on the same database, and protocol clients that resume with
their tokens and play on.

The table has two protocol players and two bots (hard and easy). The kill happens
while it is a human's turn and the table is quiet (no timer due for seconds), after
each client has read everything the server sent, so the last ``view`` each client
saw is the server's state at the kill. Everything in it must come back: hand, hand
counts, scores, turn, top card, named suit, penalty, stock and discard sizes, open
call windows; and the turn timer must go on with the time it had left at the kill
(not at the last action: the server marks every second that it still runs).
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import CreateTable, JoinTable, Ready, View
from support.crash_recovery import (
    compared,
    drain_until_quiet,
    play_moves,
    start,
)
from support.wire import free_port, play_scripted


@pytest.mark.deadline(120)
async def test_kill_9_in_the_middle_of_a_round_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    server = start(db, port)
    try:
        ann = await WireClient.connect("127.0.0.1", port, "Ann", secret="ann-secret-0123456789")
        await ann.send(CreateTable("Crash", {"seats": 4}, bots=(1, 3), levels=("hard", "easy")))
        table = await ann.wait_for(lambda m: getattr(m, "TYPE", "") == "table")
        bob = await WireClient.connect("127.0.0.1", port, "Bob", secret="bob-secret-0123456789")
        await bob.send(JoinTable(table.id, seat=2))
        await ann.send(Ready(True))
        await bob.send(Ready(True))
        await ann.wait_for(View)
        seated = {0: ann, 2: bob}
        rng = random.Random(4)
        for _attempt in range(10):
            await play_moves(ann, bob, 6, rng)
            for client in (ann, bob):
                await drain_until_quiet(client, 2.5)  # bots moved, call windows ended
            views = [client.view for client in seated.values()]
            if all(v is not None and v.phase == "playing" and v.turn in seated for v in views):
                break
            if any(v is not None and v.phase == "round_over" for v in views):
                for client in seated.values():
                    await client.send(Ready(True))
        before = {seat: client.view for seat, client in seated.items()}
        assert all(v is not None and v.phase == "playing" for v in before.values())
        assert before[0].turn in seated, "the kill must come while a human is to move"  # type: ignore[union-attr]
        tokens = {seat: c.welcome.resume for seat, c in seated.items()}  # type: ignore[union-attr]

        # Each timer ran on after its view, until the kill: that time is not given back.
        ran = {seat: trio.current_time() - client.view_at for seat, client in seated.items()}
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        for client in seated.values():
            with pytest.raises(ServerClosed):
                while True:
                    await client.receive()  # everything sent before the kill, then EOF

        # Every accepted action is in the journal, in order.
        with sqlite3.connect(db) as check:
            (journaled,) = check.execute(
                "SELECT (SELECT COUNT(*) FROM journal) + (SELECT COUNT(*) FROM live_journal)"
            ).fetchone()
        assert journaled >= 12

        server = start(db, port)
        after: dict[int, View] = {}
        resumed: dict[int, WireClient] = {}
        for seat, name in ((0, "Ann"), (2, "Bob")):
            client = await WireClient.connect("127.0.0.1", port, name, resume=tokens[seat])
            assert client.welcome is not None and client.welcome.resumed
            after[seat] = await client.wait_for(View)
            resumed[seat] = client
        for seat in seated:
            old, new = before[seat], after[seat]
            assert old is not None
            assert compared(new) == compared(old)
            assert new.seq > old.seq
            assert old.turn_deadline_ms is not None and new.turn_deadline_ms is not None
            # What it had at the kill, within the server's heartbeat (1 s) and a margin.
            assert ran[seat] >= 2.5
            at_kill = old.turn_deadline_ms - ran[seat] * 1000
            assert at_kill - 200 <= new.turn_deadline_ms <= at_kill + 1300
        table_info = resumed[0].table
        assert table_info is not None
        levels = [s.get("level") for s in table_info.seats]
        assert levels == [None, "hard", None, "easy"]

        # And the match plays on to the end of the round, bots included.
        async with trio.open_nursery() as nursery:
            for seat, client in resumed.items():
                nursery.start_soon(
                    play_scripted,
                    client,
                    random.Random(seat),
                    True,
                    None,
                    lambda v: v.phase in ("round_over", "match_over"),
                    True,
                )
        last = resumed[0].view
        assert last is not None and last.phase in ("round_over", "match_over")
        assert last.last_round is not None
        assert last.last_round["round"] == before[0].round  # type: ignore[union-attr]
        for client in resumed.values():
            await client.aclose()
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()

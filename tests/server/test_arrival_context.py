"""Context on arrival: whoever comes to a running match is told the round so far.

The real ``maumau-server`` over TCP on 127.0.0.1, protocol clients that play, watch,
drop and resume. A spectator who arrives mid-round, a player who resumes after a
dropped connection, and a player who resumes after the server restarted each get the
table's recent ``event`` (and ``mau_decision``) lines again, with the ``seq`` they
were sent with, before their ``view``; and the client's model, which may already
hold some of them, logs each line once.
"""

from __future__ import annotations

import random
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from wireclient import WireClient

from maumau.client.model import Model
from maumau.protocol.messages import (
    CreateTable,
    GameEvent,
    MauDecision,
    Message,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
)
from maumau.server.table.state import RECENT_LINES
from support.wire import free_port, play_scripted, start_server_process

Line = tuple[int, Message]  # (seq, the event or decision)


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[str]]]:
    """The server processes a test starts, stopped (by their pid) at its end."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def start(servers: list[subprocess.Popen[str]], *options: str) -> int:
    process, port = start_server_process(
        "--host", "127.0.0.1", "--bot-delay", "0.05", "--seed", "3", *options
    )
    servers.append(process)
    return port


def lines(messages: list[Message], events_only: bool = False) -> list[Line]:
    kinds = (GameEvent,) if events_only else (GameEvent, MauDecision)
    return [(m.seq, m) for m in messages if isinstance(m, kinds)]


def round_so_far(messages: list[Message], upto: int, events_only: bool = False) -> list[Line]:
    """What a newcomer should be told at ``upto``: the lines of the round being played
    (from its deal), at most the last RECENT_LINES of them."""
    dealt = [m.seq for m in messages if isinstance(m, GameEvent) and m.kind == "round_dealt"]
    start = max(seq for seq in dealt if seq <= upto)
    told = [line for line in lines(messages, events_only) if start <= line[0] <= upto]
    return told[-RECENT_LINES:]


async def until_view(client: WireClient) -> tuple[list[Message], View]:
    """Everything that arrives up to and with the next view."""
    first = len(client.received)
    view = await client.wait_for(View)
    return client.received[first:], view


async def play_until_my_turn(client: WireClient, seq: int) -> View:
    """Play (bots at the other seats) until it is the client's turn again, the table's
    seq at least ``seq``; then the bots wait for it (45 s of turn timer)."""
    await play_scripted(
        client,
        random.Random(7),
        stop=lambda v: v.seq >= seq and v.phase == "playing" and v.turn == v.seat,
    )
    assert client.view is not None
    return client.view


async def drain(client: WireClient, quiet: float) -> None:
    """Read (answering pings) until nothing arrives for ``quiet`` seconds: call
    windows closed, bots' claims decided."""
    while True:
        with trio.move_on_after(quiet) as scope:
            await client.receive()
        if scope.cancelled_caught:
            return


async def sit_with_bots(port: int) -> WireClient:
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.send(CreateTable("Context", {"variant": "classic", "seats": 4}, bots=(1, 2, 3)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    return ann


@pytest.mark.deadline(60)
async def test_a_spectator_arriving_mid_round_is_told_the_round_so_far(
    servers: list[subprocess.Popen[str]],
) -> None:
    port = start(servers, "--port", "0", "--no-db")
    ann = await sit_with_bots(port)
    await play_until_my_turn(ann, 25)
    await drain(ann, 2.0)
    assert ann.table is not None

    zoe = await WireClient.connect("127.0.0.1", port, "Zoe")
    await zoe.send(WatchTable(ann.table.id))
    arrived, view = await until_view(zoe)
    told = lines(arrived)
    assert told == round_so_far(ann.received, view.seq)
    assert told and told[-1][0] == view.seq  # up to the view, which holds them all
    assert [seq for seq, _ in told] == sorted({seq for seq, _ in told})
    first_table = next(i for i, m in enumerate(arrived) if isinstance(m, TableInfo))
    first_line = next(i for i, m in enumerate(arrived) if isinstance(m, GameEvent))
    assert first_table < first_line  # table, then the round so far, then the view

    # Only the newcomer is told again: Ann's lines keep counting up, none twice.
    await ann.send(WatchTable(ann.table.id))  # refused: she sits here; nothing resent
    await drain(ann, 0.5)
    seqs = [seq for seq, _ in lines(ann.received)]
    assert seqs == sorted(set(seqs))

    # A client model fed what Zoe got shows the round so far, once.
    model = Model()
    for message in zoe.received:
        model.apply(message)
    assert list(model.log) == [model.line_text(line) for _, line in told]


@pytest.mark.deadline(60)
async def test_a_resumed_player_is_told_the_round_again_and_the_model_logs_it_once(
    servers: list[subprocess.Popen[str]],
) -> None:
    port = start(servers, "--port", "0", "--no-db")
    ann = await sit_with_bots(port)
    await play_until_my_turn(ann, 20)
    await drain(ann, 2.0)
    before = list(ann.received)
    assert ann.welcome is not None and ann.table is not None
    token, table = ann.welcome.resume, ann.table.id
    await ann.aclose()

    back = await WireClient.connect("127.0.0.1", port, "Ann", resume=token)
    assert back.welcome is not None and back.welcome.resumed
    arrived, view = await until_view(back)
    assert view.table == table and view.seat == 0
    told = lines(arrived)
    assert told == round_so_far(before, view.seq)

    # The client kept its log across the drop: what it is told again is not logged
    # twice; a client that starts afresh gets the round so far.
    kept = Model()
    for message in before:
        kept.apply(message)
    logged = list(kept.log)
    assert all(not kept.apply(m) for m in arrived if isinstance(m, GameEvent | MauDecision))
    for message in arrived:
        kept.apply(message)
    assert list(kept.log) == logged
    fresh = Model()
    for message in arrived:
        fresh.apply(message)
    assert list(fresh.log) == [fresh.line_text(line) for _, line in told]

    # New lines after the resume are logged as usual.
    await play_scripted(
        back, random.Random(3), stop=lambda v: v.seq > view.seq, act_on_current=True
    )
    new = [kept.line_text(line) for seq, line in lines(back.received) if seq > view.seq]
    assert new
    for message in back.received[len(arrived) :]:
        kept.apply(message)
    assert list(kept.log) == logged + new


@pytest.mark.deadline(90)
async def test_after_a_restart_the_round_so_far_is_rebuilt_from_the_journal(
    servers: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    start(servers, "--port", str(port), "--db", str(db))
    ann = await sit_with_bots(port)
    # Past the first round's deal (which is not journaled) and some actions; a second
    # round's deal (which is) if the first round ends soon.
    await play_until_my_turn(ann, 30)
    await drain(ann, 2.5)
    assert ann.welcome is not None
    token = ann.welcome.resume
    seq_at_kill = ann.view.seq if ann.view is not None else 0

    servers[0].send_signal(signal.SIGKILL)
    servers[0].wait(10)
    await ann.aclose()
    start(servers, "--port", str(port), "--db", str(db))

    back = await WireClient.connect("127.0.0.1", port, "Ann", resume=token)
    assert back.welcome is not None and back.welcome.resumed
    arrived, view = await until_view(back)
    assert view.seq > seq_at_kill  # the counter jumped on: these are old lines
    told = lines(arrived)
    assert told, "the restored table tells the round so far"
    assert told == round_so_far(ann.received, seq_at_kill, events_only=True)

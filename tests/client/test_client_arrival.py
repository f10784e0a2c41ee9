"""The Textual client arriving at a running match, and ``--local --bots`` limits.

A real ``maumau-server`` subprocess and the real app (see ``test_client_app``): the
player watches a table where bots play, mid-round, and its log shows the round so far
at once; its connection is cut and it resumes with its log kept, and no line is
shown twice. The command line refuses a number of bots
the game has no seats for, naming the limits, before anything starts.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from maumau.client.app import MauMauApp
from maumau.client.cli import parse_args
from maumau.client.screens.table import TableScreen
from maumau.client.widgets.line_log import LineLog
from maumau.protocol.codec import Connection, encode_frame
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CreateTable,
    Hello,
    Message,
    StartMatch,
    View,
    WatchTable,
)
from support.client_app import CuttableProxy, run_async, running_server, until

SLOW_BOTS = ("--bot-delay", "0.3")  # rounds of some seconds: no deal during a step


@pytest.fixture(autouse=True)
def config_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def shown(app: MauMauApp) -> list[str]:
    """The table screen's log as drawn, one entry per line written to it."""
    log = app.screen.query_one("#log", LineLog)
    return [entry.plain for entry in log.entries]


async def table_of_bots(port: int) -> int:
    """Ann (a bare protocol client) makes a table with three bots and starts it, then
    her connection drops: with no reconnect grace a bot plays her seat at once, which
    stays hers, so the table plays on by itself. Returns the table's id."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    settings = {"variant": "classic", "seats": 4, "reconnect_grace_s": 0}
    for message in (
        Hello(PROTOCOL_VERSION, "Ann", None, None),
        CreateTable("Bots", settings, (1, 2, 3)),
        StartMatch(),
    ):
        writer.write(encode_frame(message.to_wire()))
    codec = Connection("client")
    while True:
        data = await asyncio.wait_for(reader.read(65536), 10)
        assert data, "the server closed the connection"
        codec.receive_data(data)
        while isinstance(event := codec.next_event(), Message):
            if isinstance(event, View):
                writer.transport.abort()
                return event.table


async def watch(pilot: Any, app: MauMauApp, table: int) -> None:
    await until(pilot, lambda: app.model.lobby is not None)
    await app.send(WatchTable(table))
    await until(pilot, lambda: app.model.view is not None)


@run_async
async def test_watching_mid_round_shows_the_round_so_far_at_once() -> None:
    with running_server(*SLOW_BOTS) as port:
        table = await table_of_bots(port)
        app = MauMauApp("127.0.0.1", port, "Zoe")
        async with app.run_test(size=(80, 24)) as pilot:
            await asyncio.sleep(2.0)  # the bots play some cards
            await watch(pilot, app, table)
            # The lines came before the view: the log is full when the table shows.
            view = app.model.view
            assert view is not None
            log = list(app.model.log)
            assert len(log) >= 3
            assert log[0].startswith(f"Round {view.round}: ")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await until(pilot, lambda: any(line.startswith("Round ") for line in shown(app)))
            assert shown(app)[0].startswith(f"Round {view.round}: ")


@run_async
async def test_a_resume_that_kept_the_log_shows_no_line_twice() -> None:
    with running_server(*SLOW_BOTS) as port:
        table = await table_of_bots(port)
        proxy = CuttableProxy(port)
        await proxy.start()
        app = MauMauApp("127.0.0.1", proxy.port, "Zoe")
        async with app.run_test(size=(80, 24)) as pilot:
            await watch(pilot, app, table)
            model = app.model
            await until(pilot, lambda: len(model.log) >= 5)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            # Each line logged once: seq first, first + 1, ... log_seq.
            first = model.log_seq - len(model.log)
            banner = app.screen.query_one("#banner")
            proxy.cut()
            await until(pilot, lambda: banner.display)
            await until(pilot, lambda: not banner.display, timeout=20)
            seq = model.log_seq
            await until(pilot, lambda: model.log_seq > seq)  # lines flow again
            assert len(model.log) == model.log_seq - first
            assert model.view is not None
            deal = f"Round {model.view.round}: "
            assert sum(line.startswith(deal) for line in model.log) == 1
            assert sum(line.startswith(deal) for line in shown(app)) == 1
        proxy.server.close()


def test_too_many_bots_for_mau_mau_is_refused_naming_the_limits() -> None:
    command = [sys.executable, "-m", "maumau.client.cli", "--local", "--bots", "5"]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert "--bots: 1 to 3 for Mau Mau (4 seats at most), not 5" in done.stderr
    assert "American Mau-Mau (--variant american) takes 1 to 9" in done.stderr
    command = [*command[:-2], "--variant", "american", "--bots", "10"]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert "--bots: 1 to 9 for American Mau-Mau (10 seats at most), not 10" in done.stderr
    assert parse_args(["--local", "--variant", "american", "--bots", "5"]).bots == 5
    assert parse_args(["--local", "--bots", "3"]).bots == 3

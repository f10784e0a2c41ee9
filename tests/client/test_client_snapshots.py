"""Snapshots of the client's screens at 80x24, drawn from fixed server messages.

The app is fed messages directly (no network, no clock-dependent text), so the
pictures are the same on every run. Review changes with ``pytest --snapshot-update``
and look at the SVGs before committing them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from maumau.client import render
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import (
    Error,
)
from support.client_snapshots import (
    MATCHES,
    SIZE,
    STATS,
    AnsweringApp,
    StillApp,
    american_replay,
    american_table,
    classic_replay,
    classic_table,
    lobby,
    round_over,
)


def test_lobby(snap_compare: Any) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SIZE)


def test_classic_table_four_players(snap_compare: Any) -> None:
    assert snap_compare(StillApp(classic_table(), TableScreen), terminal_size=SIZE)


def test_american_table_ten_players(snap_compare: Any) -> None:
    assert snap_compare(StillApp(american_table(), TableScreen), terminal_size=SIZE)


def test_suit_picker(snap_compare: Any) -> None:
    app = StillApp(classic_table(), lambda: SuitPicker("JD", ["S", "H", "D", "C"], False))
    assert snap_compare(app, terminal_size=SIZE)


def test_round_result(snap_compare: Any) -> None:
    messages = round_over()
    model_app = StillApp(messages, TableScreen)
    for message in messages:
        model_app.model.apply(message)
    text = render.round_result(model_app.model, ascii_only=False)
    app = StillApp(messages, lambda: ResultScreen(text, match_over=False))
    assert snap_compare(app, terminal_size=SIZE)


@pytest.fixture
def utc() -> Iterator[None]:
    """Local time is UTC, so that the history's times are the same everywhere."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_new_table_dialog_seat_plan(snap_compare: Any) -> None:
    # Tab to the seat plan; seat 3 becomes hard, seat 4 easy.
    app = StillApp(lobby(), NewTableScreen)
    keys = ["tab", "tab", "tab", "right", "h", "right", "e"]
    assert snap_compare(app, press=keys, terminal_size=SIZE)


def test_leaderboard(snap_compare: Any) -> None:
    app = AnsweringApp(LeaderboardScreen, stats=STATS)
    assert snap_compare(app, terminal_size=SIZE)


def test_history(snap_compare: Any, utc: None) -> None:
    app = AnsweringApp(HistoryScreen, matches=MATCHES)
    assert snap_compare(app, press=["down"], terminal_size=SIZE)


def test_history_without_records(snap_compare: Any) -> None:
    refuse = Error("no_store", "this server keeps no records", "list_matches")
    app = AnsweringApp(HistoryScreen, refuse=refuse)
    assert snap_compare(app, terminal_size=SIZE)


def test_replay_classic(snap_compare: Any) -> None:
    summary = MATCHES.matches[0]
    app = AnsweringApp(lambda: ReplayScreen(1, summary), replay=classic_replay())
    keys = ["pagedown", "pagedown", "pagedown", *["right"] * 7]  # to step 37
    assert snap_compare(app, press=keys, terminal_size=SIZE)


def test_replay_american_ten_players_ascii(snap_compare: Any) -> None:
    app = AnsweringApp(lambda: ReplayScreen(2), replay=american_replay())
    app.ascii_only = True
    assert snap_compare(app, press=["end"], terminal_size=SIZE)

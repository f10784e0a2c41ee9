"""Snapshots of the dialogs and the lobby at 80x24 and at the minimum size 60x20.

Drawn from fixed server messages with the helpers of ``test_client_snapshots``;
review changes with ``pytest --snapshot-update`` and look at the SVGs before
committing them.
"""

from __future__ import annotations

from typing import Any

from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.password import PasswordScreen
from support.client_snapshots import StillApp, lobby

SIZE = (80, 24)
SMALL = (60, 20)
TEN_SEATS = ["tab", "space", "tab", "backspace", "1", "0"]  # American, 10 seats


def test_lobby(snap_compare: Any) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SIZE)


def test_lobby_small(snap_compare: Any) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SMALL)


def test_new_table(snap_compare: Any) -> None:
    assert snap_compare(StillApp(lobby(), NewTableScreen), terminal_size=SIZE)


def test_new_table_ten_seats(snap_compare: Any) -> None:
    app = StillApp(lobby(), NewTableScreen)
    assert snap_compare(app, press=TEN_SEATS, terminal_size=SIZE)


def test_new_table_ten_seats_small(snap_compare: Any) -> None:
    app = StillApp(lobby(), NewTableScreen)
    assert snap_compare(app, press=TEN_SEATS, terminal_size=SMALL)


def test_new_table_ascii_small(snap_compare: Any) -> None:
    # A house rule turned off, the password typed: [ ] and * in plain ASCII.
    app = StillApp(lobby(), NewTableScreen)
    app.ascii_only = True
    keys = ["tab"] * 5 + ["s", "e", "c", "tab", "space"]
    assert snap_compare(app, press=keys, terminal_size=SMALL)


def test_password_ascii(snap_compare: Any) -> None:
    app = StillApp(lobby(), lambda: PasswordScreen(watch=True))
    app.ascii_only = True
    assert snap_compare(app, press=["enter"], terminal_size=SIZE)

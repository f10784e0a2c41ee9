"""Snapshots of the table while the connection is down, and of the suit picker, at
80x24 and at the minimum size 60x20.

While reconnecting the table is frozen: the banner says so, the footer offers no
move (help, chat and leave only), the turn's countdown is replaced by "clock
stopped" and the hint under the hand says the moves wait. Built like
``test_client_snapshots`` (fixed messages, no network, no clock).
"""

from __future__ import annotations

from typing import Any

import pytest

from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import Message
from support.client_keys import position
from support.client_snapshots import StillApp, american_table, classic_table

SIZES = [(80, 24), (60, 20)]
BANNER = "Connection lost: the table is frozen; reconnecting in 2 s (connection reset)"


class OfflineApp(StillApp):
    """The table as it looks while the connection is down."""

    def start(self) -> None:
        for message in self.messages:
            self.model.apply(message)
        self.model.lost_connection()
        self.banner_text = BANNER
        self.push_screen(self.make_screen())


def timed_classic() -> list[Message]:
    """The four-player table on the player's turn, with 27 s left on the clock."""
    return position(turn_deadline_ms=27_000)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_reconnecting_table(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(OfflineApp(timed_classic(), TableScreen), terminal_size=size)


def test_reconnecting_ten_seat_table(snap_compare: Any) -> None:
    assert snap_compare(OfflineApp(american_table(), TableScreen), terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_suit_picker_sizes(snap_compare: Any, size: tuple[int, int]) -> None:
    app = StillApp(classic_table(), lambda: SuitPicker("JD", ["S", "H", "D", "C"], False))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
def test_colour_picker_ten_seats_ascii(snap_compare: Any, size: tuple[int, int]) -> None:
    def picker() -> SuitPicker:
        return SuitPicker("W4", ["R", "Y", "G", "B"], True)

    app = StillApp(american_table(), picker)
    app.ascii_only = True
    assert snap_compare(app, terminal_size=size)

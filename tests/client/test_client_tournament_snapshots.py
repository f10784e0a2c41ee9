"""Snapshots of the tournament screens at 80x24 (and the minimum 60x20): the
tournament in its second series, before its start in ASCII, in German, the
new-tournament dialog, the lobby with tournaments above ten tables, and the result
of a tournament's table.

Drawn from fixed server messages (``support.client_tournament_data``) with the clock
the model reads held still, so the series clock always says 12:34. Review changes
with ``pytest --snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.screen import Screen

from maumau.client import i18n
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_tournament import NewTournamentScreen
from maumau.client.screens.table import TableScreen
from maumau.client.screens.tournament import TournamentScreen
from maumau.protocol.messages import Message
from support.client_snapshots import WELCOME, StillApp
from support.client_tournament_data import (
    registering,
    tournament,
    tournament_lobby,
    tournament_table,
)

SIZE = (80, 24)
SMALL = (60, 20)


class Still(StillApp):
    """A still app whose clock stands still too."""

    def __init__(self, messages: list[Message], screen: Callable[[], Screen[Any]]) -> None:
        super().__init__(messages, screen)
        self.model.clock = lambda: 1000.0


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    try:
        yield
    finally:
        i18n.set_language("en")


def test_tournament_screen(snap_compare: Any) -> None:
    app = Still([WELCOME, tournament()], TournamentScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_tournament_screen_registering_ascii_small(snap_compare: Any) -> None:
    app = Still([WELCOME, registering(you=1, starts_in=300.0)], TournamentScreen)
    app.ascii_only = True
    assert snap_compare(app, terminal_size=SMALL)


def test_tournament_screen_german(snap_compare: Any, german: None) -> None:
    app = Still([WELCOME, tournament()], TournamentScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_new_tournament_dialog(snap_compare: Any) -> None:
    app = Still(tournament_lobby(), NewTournamentScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_lobby_with_tournaments_and_ten_tables(snap_compare: Any) -> None:
    app = Still(tournament_lobby(tables=10), LobbyScreen)
    assert snap_compare(app, terminal_size=SIZE)


def test_result_of_a_tournament_table(snap_compare: Any) -> None:
    app = Still([*tournament_table(), tournament()], TableScreen)
    assert snap_compare(app, terminal_size=SIZE)

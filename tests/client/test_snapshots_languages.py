"""Snapshots at 80x24 in German (the longest words) and Czech: the lobby, the new-table
dialog, a 4-seat Mau Mau table with its log, a 10-seat American table, a round result
and the help.

Drawn from fixed server messages with the helpers of ``test_client_snapshots``; the
table's log lines come as protocol-4 facts, so the client writes them in the
language. Review changes with ``pytest --snapshot-update`` and read the SVGs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.screen import Screen

from maumau.client import i18n
from maumau.client.screens.help import HelpScreen, rules_summary
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.table import TableScreen
from support.client_snapshots import StillApp, american_table, classic_table, lobby, round_over
from support.snapshots_languages import (
    LANGUAGES,
    SIZE,
    classic_with_log,
    result_screen,
    table_settings,
)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The client speaks the language for one test, then English again."""
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


def test_lobby(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(lobby(), LobbyScreen), terminal_size=SIZE)


def test_new_table(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(lobby(), NewTableScreen), terminal_size=SIZE)


def test_classic_table_four_seats(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(classic_with_log(), TableScreen), terminal_size=SIZE)


def test_american_table_ten_seats(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(american_table(), TableScreen), terminal_size=SIZE)


def test_round_result(snap_compare: Any, language: str) -> None:
    assert snap_compare(StillApp(round_over(), result_screen()), terminal_size=SIZE)


def test_help(snap_compare: Any, language: str) -> None:
    messages = classic_table()
    settings = table_settings(messages)

    def make() -> Screen[Any]:
        return HelpScreen(rules_summary(settings), settings=settings)

    assert snap_compare(StillApp(messages, make), terminal_size=SIZE)

"""The language changes from the help screen: ``L`` speaks the next language at once,
the help and the table under it are drawn again in it, and the choice is
remembered in the client's config."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maumau.client import i18n
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.table import TableScreen
from test_client_snapshots import StillApp, classic_table


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """English to begin with, a config of the test's own, and English again after."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    i18n.set_language("en")
    try:
        yield tmp_path / "maumau" / "client.json"
    finally:
        i18n.set_language("en")


def screen_text(app: StillApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


async def shows(pilot: Any, app: StillApp, *words: str) -> str:
    deadline = time.monotonic() + 5
    while not all(word in (text := screen_text(app)) for word in words):
        assert time.monotonic() < deadline, f"not on screen: {words!r} in\n{text}"
        await pilot.pause(0.02)
    return text


def test_l_on_the_help_switches_the_language_at_once_and_remembers_it(english: Path) -> None:
    async def scenario() -> None:
        app = StillApp(classic_table(), TableScreen)
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn", "? help")
            await pilot.press("question_mark")
            await shows(pilot, app, "Keys in the lobby", "L language")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("L")
            await shows(pilot, app, "Tasten in der Lobby", "L Sprache")
            assert i18n.language() == "de"
            await pilot.press("escape")
            text = await shows(pilot, app, "du bist dran", "? Hilfe")
            assert "your turn" not in text
            await pilot.press("question_mark")
            await pilot.press("L")  # on to Czech
            await shows(pilot, app, "Klávesy v lobby")
            assert i18n.language() == "cs"
            assert json.loads(english.read_text())["language"] == "cs"

    asyncio.run(scenario())

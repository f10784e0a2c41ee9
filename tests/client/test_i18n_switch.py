"""The language changes from the help screen: ``L`` speaks the next language at once,
the help and the table under it (its log too) are drawn again in it, and the choice
is remembered in the client's config; the pile's line fits a narrow screen in any
language."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from maumau.client import i18n, render
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import View
from support.client_snapshots import StillApp
from support.snapshots_languages import classic_with_log


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
        app = StillApp(classic_with_log(), TableScreen)
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "your turn", "? help", "Bob plays 7♣")
            await pilot.press("question_mark")
            # At a table the help opens on the game's rules.
            await shows(pilot, app, "Mau Mau: the rules in short", "L language")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("L")
            await shows(pilot, app, "Mau Mau: die Regeln kurz", "L Sprache")
            assert i18n.language() == "de"
            await pilot.press("pagedown")  # the help still scrolls by keys
            help_box = app.screen.query_one("#help")
            deadline = time.monotonic() + 5
            while help_box.scroll_y == 0:
                assert time.monotonic() < deadline, "the help does not scroll after L"
                await pilot.pause(0.02)
            await pilot.press("escape")
            # The log is written again in German, from the lines' facts.
            text = await shows(pilot, app, "du bist dran", "? Hilfe", "Bob spielt 7♣")
            assert "your turn" not in text and "Bob plays" not in text
            await pilot.press("question_mark")
            await pilot.press("L")  # on to Czech
            await shows(pilot, app, "Mau Mau: pravidla v kostce")
            assert i18n.language() == "cs"
            assert json.loads(english.read_text())["language"] == "cs"

    asyncio.run(scenario())


def test_the_pile_line_fits_sixty_columns_in_every_language(english: Path) -> None:
    """A named suit after a long direction: the direction shrinks to its arrow."""
    messages = classic_with_log()
    *before, view = messages
    assert isinstance(view, View)
    named = dataclasses.replace(view, top="JS", named="D")
    app = StillApp([*before, named], TableScreen)
    for message in app.messages:
        app.model.apply(message)
    for code in i18n.LANGUAGES:
        i18n.set_language(code)
        for ascii_only in (False, True):
            first = render.pile(app.model, ascii_only, 30.0, width=60).plain.splitlines()[0]
            assert cell_len(first) <= 60, (code, first)
            wide = render.pile(app.model, ascii_only, 30.0, width=120).plain.splitlines()[0]
            assert len(wide.split()) > len(first.split()) or cell_len(wide) <= 60, (code, wide)

"""Every word on the client's screens comes through the catalogs: a pseudo-locale.

The AST check (``test_i18n_visible.py``) sees literals passed to display calls; this
sees what the player sees. The client's messages are extracted from the code afresh
with Babel (as ``scripts/catalogs`` does), and a pseudo catalog is built from them on
the spot: each translation is its message with every ASCII letter turned into a
look-alike accented letter one cell wide (``Leave the table?`` → ``Ĺéáʋé ťĥé ťáƀĺé?``),
its ``{placeholders}``, Rich markup tags and line breaks kept. Installed with
:func:`maumau.client.i18n.use`, it leaves English only where a word went around the
catalogs: a literal never wrapped, or a message wrapped in ``_()`` but never marked
for extraction (``_(variable)`` of an unmarked table).

The real app is then driven at 80x24, and each screen's text, as the compositor hands
it to the terminal (the screens under a dialog included), may hold no run of three
plain ASCII letters except known data: the names of players, bots and tables the test
chose, the program's name and key names. Two runs: one from fixed server messages (the
connect screen, lobby, new-table dialog, help, suit picker, results, leaderboard,
history, a replay, the confirm-leave dialog), and one against a real server with bots
(a table whose log has event lines and a Mau decision, its help, a move the server
refuses, the round's result). The second needs a protocol-4 server: the log is written
from the events' facts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len

from maumau.client import i18n
from maumau.client.app import MauMauApp
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import Error, MauDecision, Message, PlayCard
from support.ascii import screen_text
from support.client_app import create_table, running_server, take_turn, until
from support.i18n_pseudo import (
    LOWER,
    SCREENS,
    UPPER,
    Pseudo,
    check,
    extracted,
    look,
    pseudo,
    run_async,
)


@pytest.fixture
def pseudo_locale() -> Iterator[None]:
    """The client speaks the pseudo-locale during the test, English after it."""
    before = i18n.language()
    # As German: an offered language other than English (whose errors would be the
    # server's own English words).
    i18n.use(Pseudo(extracted()), "de")
    try:
        yield
    finally:
        i18n.set_language(before if before in i18n.LANGUAGES else i18n.DEFAULT)


def test_the_pseudo_letters_are_one_cell_each_and_all_different() -> None:
    assert len(set(LOWER + UPPER)) == 52
    assert all(len(c) == 1 and cell_len(c) == 1 and not c.isascii() for c in LOWER + UPPER)
    assert pseudo("{name} plays [b]{card}[/b]\n") == "{name} ƥĺáýš [b]{card}[/b]\n"
    assert len(extracted()) > 100


@pytest.mark.parametrize("case", list(SCREENS))
def test_fixed_screens_say_every_word_through_the_catalogs(case: str, pseudo_locale: None) -> None:
    make, keys = SCREENS[case]
    app = make()
    drawn: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause(0.05)
            drawn.append(screen_text(app))

    asyncio.run(scenario())
    check(case, drawn[0])


@run_async
async def test_a_real_table_says_every_word_through_the_catalogs(pseudo_locale: None) -> None:
    with running_server() as port:
        app = MauMauApp("127.0.0.1", port, "Ann", remember=False)
        seen: list[Message] = []
        async with app.run_test(size=(80, 24)) as pilot:
            apply = app.model.apply

            def recorded(message: Message) -> Any:
                seen.append(message)
                return apply(message)

            app.model.apply = recorded  # type: ignore[method-assign]
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await look(pilot, app, "lobby (live)")
            await create_table(pilot, app)
            await look(pilot, app, "table (live, dealt)")

            # A move the server refuses (sent around the client's own check).
            await until(pilot, lambda: app.model.my_turn, timeout=20)
            cards = app.model.hand()
            blocked = [c for c in cards if c not in app.model.playable()]
            if blocked:
                await app.send(PlayCard(blocked[0]))
                await until(pilot, lambda: any(isinstance(m, Error) for m in seen))
                await pilot.pause(0.05)
                await look(pilot, app, "a refused move (live)")

            # Play on until the log has a Mau decision, then to the round's result.
            deadline = time.monotonic() + 40
            checked_log = False
            while time.monotonic() < deadline and not isinstance(app.screen, ResultScreen):
                decided = any(isinstance(m, MauDecision) for m in seen)
                if decided and not checked_log and isinstance(app.screen, TableScreen):
                    await look(pilot, app, "table with a Mau decision (live)")
                    await pilot.press("question_mark")
                    await until(pilot, lambda: isinstance(app.screen, HelpScreen))
                    await look(pilot, app, "help at the table (live)")
                    await pilot.press("end")  # the table's own rules, below the keys
                    await look(pilot, app, "help at the table, its rules (live)")
                    await pilot.press("escape")
                    await until(pilot, lambda: isinstance(app.screen, TableScreen))
                    checked_log = True
                if app.model.my_turn and isinstance(app.screen, TableScreen):
                    seq = app.model.view.seq
                    await take_turn(pilot, app, arm_mau=True)
                    await until(
                        pilot,
                        lambda seq=seq: (
                            isinstance(app.screen, ResultScreen) or app.model.view.seq > seq
                        ),
                    )
                elif app.model.owes_call() and isinstance(app.screen, TableScreen):
                    await pilot.press("m")
                await pilot.pause(0.02)
            assert checked_log, "no Mau decision was logged in a round"
            assert isinstance(app.screen, ResultScreen), "the round did not end"
            await until(pilot, lambda: app.screen.query("Static"))
            await pilot.pause(0.05)
            await look(pilot, app, "round result (live)")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await look(pilot, app, "leave? (live)")

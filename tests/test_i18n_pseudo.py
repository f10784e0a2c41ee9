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
import functools
import gettext
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.screen import Screen

from maumau.client import i18n, render
from maumau.client.app import MauMauApp
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import Error, GameEvent, MauDecision, Message, PlayCard
from test_ascii import screen_text
from test_client_app import create_table, running_server, take_turn, until
from test_client_snapshots import (
    MATCHES,
    STATS,
    AnsweringApp,
    StillApp,
    classic_replay,
    classic_table,
    lobby,
    round_over,
)
from test_i18n_catalogs import extracted as catalog_messages

LOWER = "áƀçďéƒğĥíĵķĺɱñóƥʠŕšťúʋŵẋýž"
UPPER = "ÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŤÚṼŴẌÝŽ"
ACCENTED = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", LOWER + UPPER)
# Kept as they are: {placeholders} (and {{ }}), Rich markup tags ([b], [/b], [/],
# [bold red], [@click=...]).
KEPT = re.compile(r"(\{\{|\}\}|\{[^{}]*\}|\[/?[a-z@#][^\[\]]*\]|\[/\])")

# Known data, not words: the names the test data and the server's bots use, the
# program's name, key names.
NAMES = {
    # players and tables of the fixed messages (test_client_snapshots)
    "Ann",
    "Bob",
    "Cleo",
    "Dan",
    "Eve",
    "Finn",
    "Gus",
    "Ada",
    "Bert",
    "Kai",
    "Lea",
    "Max",
    "Friday",
    "Newbies",
    "Private",
    "Quick",
    "very",
    "long",
    "table",
    "name",
    # the server's bots (maumau.server.bots.BOT_NAMES)
    "Edda",
    "Greta",
    "Hugo",
    "Ines",
}
# The languages' own names (the help screen offers them as they call themselves).
LANGUAGE_NAMES = {"English", "Deutsch", "tina", "idhlig"}
# The example address in the connect screen's empty field.
EXAMPLES = {"lan", "party", "box"}
# The program's name and key names (the footer writes them in lower case).
KEYS = {"maumau", "Enter", "Esc", "Tab", "PgUp", "PgDn", "Home", "End", "Space", "Ctrl"}
ALLOWED = EXAMPLES | NAMES | KEYS | {k.lower() for k in KEYS} | LANGUAGE_NAMES
WORD = re.compile(r"[A-Za-z]{3,}")


def pseudo(message: str) -> str:
    """``message`` in the pseudo-locale: letters accented, the rest kept."""
    return "".join(
        part if KEPT.fullmatch(part) else part.translate(ACCENTED) for part in KEPT.split(message)
    )


@functools.cache
def extracted() -> frozenset[tuple[str | None, str | tuple[str, ...]]]:
    """Every message of the client's code, with its context."""
    return frozenset((context, message) for message, context in catalog_messages())


class Pseudo(gettext.NullTranslations):
    """Translates exactly the extracted messages into the pseudo-locale; anything
    else stays as it came (and so is found on the screen)."""

    def __init__(self, messages: frozenset[tuple[str | None, str | tuple[str, ...]]]) -> None:
        super().__init__()
        self.messages = messages

    def gettext(self, message: str) -> str:
        return pseudo(message) if (None, message) in self.messages else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return pseudo(chosen) if (None, (msgid1, msgid2)) in self.messages else chosen

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message) if (context, message) in self.messages else message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return pseudo(chosen) if (context, (msgid1, msgid2)) in self.messages else chosen


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


def bare_words(text: str) -> list[str]:
    """The lines of ``text`` with a run of plain ASCII letters that is not known data."""
    return [line for line in text.splitlines() if any(w not in ALLOWED for w in WORD.findall(line))]


def check(where: str, text: str) -> None:
    assert text.strip(), f"{where}: nothing was drawn"
    bare = bare_words(text)
    assert not bare, (
        f"{where}: words that did not go through the catalogs:\n"
        + "\n".join(f"  {line.strip()!r}" for line in bare)
        + f"\n--- the screen ---\n{text}"
    )


def run_async(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(fn(*args, **kwargs), 60))

    return wrapper


# --- from fixed server messages ---------------------------------------------------------


def over(base: Callable[[], StillApp], dialog: Callable[[], Screen[Any]]) -> StillApp:
    """``dialog`` over the screen of ``base``."""
    app = base()
    start = app.start

    def started() -> None:
        start()
        app.push_screen(dialog())

    app.start = started  # type: ignore[method-assign]
    return app


def result(match_over: bool) -> StillApp:
    model_app = StillApp(round_over(), TableScreen)
    for message in round_over():
        model_app.model.apply(message)
    return over(
        lambda: StillApp(round_over(), TableScreen),
        lambda: ResultScreen(render.round_result(model_app.model, False), match_over=match_over),
    )


def replay_with_facts() -> Any:
    """The snapshot's replay, its lines given as events' facts (protocol 4)."""
    whole = classic_replay(total=50)
    steps = []
    for step in whole.steps:
        step = dict(step)
        step["events"] = (
            {"kind": "card_played", "seat": 2, "card": "7H", "call": "mau", "cards_left": 1},
            {
                "kind": "penalty_pending",
                "seat": 0,
                "amount": 4,
                "answer": "seven",
                "can_challenge": False,
            },
        )
        steps.append(step)
    return type(whole)(
        *[
            getattr(whole, f)
            for f in ("match", "table", "variant", "names", "bots", "total", "start")
        ],
        tuple(steps),
    )


def quiet_table() -> list[Message]:
    """The snapshot's table without its log: those events carry no facts, so they
    could only be shown in the server's English (the live test checks the log)."""
    return [m for m in classic_table() if not isinstance(m, GameEvent)]


# The lobby, the help, the round result and the leave question are drawn in the real
# game below (test_a_real_table_says_every_word_through_the_catalogs), not again here.
SCREENS: dict[str, tuple[Callable[[], App[Any]], list[str]]] = {
    "connect": (lambda: StillApp([], lambda: ConnectScreen("", "Ann")), []),
    "connect, nothing typed": (
        lambda: StillApp([], lambda: ConnectScreen("", "Ann")),
        ["enter"],
    ),
    "new table": (lambda: over(lambda: StillApp(lobby(), LobbyScreen), NewTableScreen), []),
    "new table, american": (
        lambda: over(lambda: StillApp(lobby(), LobbyScreen), NewTableScreen),
        ["tab", "down", "enter", "tab", "tab", "tab", "tab"],
    ),
    "suit picker": (
        lambda: over(
            lambda: StillApp(quiet_table(), TableScreen),
            lambda: SuitPicker("JD", list("SHDC"), False),
        ),
        [],
    ),
    "match result": (lambda: result(True), []),
    "leaderboard": (lambda: AnsweringApp(LeaderboardScreen, stats=STATS), []),
    "history": (lambda: AnsweringApp(HistoryScreen, matches=MATCHES), ["down"]),
    "replay": (
        lambda: AnsweringApp(
            lambda: ReplayScreen(1, MATCHES.matches[0]), replay=replay_with_facts()
        ),
        ["pagedown", "right"],
    ),
}


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


# --- against a real server with bots ------------------------------------------------------


async def look(pilot: Any, app: App[Any], where: str) -> None:
    """Check the screen once it is drawn."""
    await pilot.pause(0.05)
    await until(pilot, lambda: screen_text(app).strip(), timeout=5)
    check(where, screen_text(app))


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

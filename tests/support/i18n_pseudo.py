"""A pseudo-language that marks every translated word, and checks that a screen shows
no English word left untranslated."""

from __future__ import annotations

import asyncio
import functools
import gettext
import re
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.screen import Screen

from maumau.client import render
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import GameEvent, Message
from support.ascii import screen_text
from support.client_app import until
from support.client_snapshots import (
    MATCHES,
    STATS,
    AnsweringApp,
    StillApp,
    classic_replay,
    classic_table,
    lobby,
    round_over,
)
from support.i18n_catalogs import extracted as catalog_messages

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


async def look(pilot: Any, app: App[Any], where: str) -> None:
    """Check the screen once it is drawn."""
    await pilot.pause(0.05)
    await until(pilot, lambda: screen_text(app).strip(), timeout=5)
    check(where, screen_text(app))

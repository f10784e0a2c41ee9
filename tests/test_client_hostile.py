"""Text from the server or from other players is shown literally: never as markup,
never as a terminal escape, whatever it holds.

Theory of operation
-------------------
A prankster names a table ``[/]`` or ``[@click=app.quit]Free beer[/]``, chats an
escape sequence, or a modified server sends anything its wire schema allows. The
client must stay up, fire no action, and show the text as written (less control
characters, escape sequences and bidi overrides, which never reach the terminal).

:class:`FakeServer` is a small server of one script: real TCP on 127.0.0.1, the real
sans-IO codec, no game logic. It answers each ``hello`` as the test says (a refusal,
a goodbye, or a welcome and what follows), answers the records requests from the
test's data, and lets the test push more messages. Every string field the client
handles is filled from a pool of hostile strings (a fixed list, and hypothesis'
mixtures of its fragments), each cut to what the wire schema allows for its field
(a name is at most 24 printable characters) and checked with the client's decoder.

The real client app is driven with a Pilot through every screen. At each stop the
test checks (:func:`check`) that the app still runs and sent no ``bye`` (no quit
fired); that nothing drawn holds a control character, a bidi override, a link or an
action to click; and that each value's probe is drawn: its first characters up to
the first control character, compared without white space (so wrapping does not
matter) and without case (the client capitalizes a refusal's first letter), in the
rendered lines of some widget of the screen (toasts included). The last tests hold
the cleaning itself to its promise, character by character.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import itertools
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from maumau.client.app import MauMauApp
from maumau.client.literal import clean, literal
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.history import HistoryScreen
from maumau.client.screens.leaderboard import LeaderboardScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.replay import ReplayScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.codec import NEED_DATA, PEER_CLOSED, Connection, RemoteProtocolError
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    ChatLine,
    Error,
    GameEvent,
    GetReplay,
    GetStats,
    Goodbye,
    Hello,
    JoinTable,
    ListMatches,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Ready,
    Replay,
    Stats,
    TableInfo,
    View,
    Welcome,
    decode_message,
)
from test_client_app import until

SIZE = (120, 40)

NASTY = (
    "[/]",
    "[@click=app.quit]Free beer[/]",
    "[b]",
    "[reverse blink]x[/]",
    "[",
    "]",
    "[[",
    "\\[b]",
    "w" * 200,
    "\x1b[2J",
    "ann\u202eevil",
    "[@click=app.quit]x[/]",
    "[link=http://example.invalid]x[/link]",
    ":thumbs_up:",
    "\x1b]0;owned\x07ok",
    "a\x9b31mb",
    "tab\there\nnew line",
    "{rules} %s {0}",
    "[on red]red[/on red]\\",
)
FRAGMENTS = (
    *NASTY,
    "x",
    " ",
    "[",
    "]",
    "/",
    "=",
    "\\",
    "@click=app.quit",
    "\x1b",
    "\x00",
    "\x7f",
    "\x85",
    "\u202e",
    "\u2066",
    "\n",
    "漢字",
)


def hostile() -> st.SearchStrategy[str]:
    """A string made of nasty fragments."""
    return st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=5).map("".join)


def pools() -> st.SearchStrategy[list[str]]:
    return st.lists(hostile(), min_size=1, max_size=12)


# --- hostile values, as each field allows ---------------------------------------------


class Words:
    """Hands out the pool's strings in turn, each cut to fit a field of the schema."""

    def __init__(self, pool: Sequence[str]) -> None:
        self.pool = itertools.cycle(pool)

    def raw(self, most: int) -> str:
        return next(self.pool)[:most]

    def name(self) -> str:
        """A player name: 1 to 24 printable characters, no white space at the ends."""
        value = "".join(c for c in next(self.pool) if c.isprintable())[:24].strip()
        return value or "n"

    def line(self, most: int = 500) -> str:
        """Any text of 1 to ``most`` characters (table names: 32, event texts: 500)."""
        return self.raw(most) or "t"

    def chat(self) -> str:
        """A chat line: 1 to 200 printable characters."""
        return "".join(c for c in next(self.pool) if c.isprintable())[:200] or "c"


def valid(message: Message) -> Message:
    """``message`` as the client will decode it (the test must not send what the
    client's own decoder refuses: that would test the decoder, not the screens)."""
    decoded = decode_message(message.to_wire(), "server")
    assert decoded == message
    return message


# --- the fake server ------------------------------------------------------------------


class FakeServer:
    """Answers the n-th ``hello`` with ``greetings[n]`` (the last one repeats); a
    greeting without a welcome closes the connection after it. ``answer`` gives the
    reply to any other request."""

    def __init__(
        self,
        greetings: list[list[Message]],
        answer: Callable[[Message], list[Message]] = lambda message: [],
    ) -> None:
        self.greetings = greetings
        self.answer = answer
        self.hellos = 0
        self.open = asyncio.Event()  # cleared: a hello waits for its answer until set
        self.open.set()
        self.received: list[Message] = []
        self.codec: Connection | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.port = 0

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[FakeServer]:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        try:
            yield self
        finally:
            server.close()
            if self.writer is not None:
                self.writer.close()

    async def push(self, *messages: Message) -> None:
        """Send ``messages`` on the latest connection."""
        assert self.codec is not None and self.writer is not None
        for message in messages:
            self.writer.write(self.codec.send(valid(message)))
        await self.writer.drain()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        codec = Connection("server")
        # Cancelled when the test's loop ends: this task is the connection's own.
        quiet = (ConnectionError, OSError, RemoteProtocolError, asyncio.CancelledError)
        with contextlib.suppress(*quiet):
            while data := await reader.read(65536):
                codec.receive_data(data)
                while (event := codec.next_event()) not in (NEED_DATA, PEER_CLOSED):
                    assert isinstance(event, Message)
                    self.received.append(event)
                    if isinstance(event, Hello):
                        await self.open.wait()
                        greeting = self.greetings[min(self.hellos, len(self.greetings) - 1)]
                        self.hellos += 1
                        self.codec, self.writer = codec, writer
                        await self.push(*greeting)
                        if not any(isinstance(m, Welcome) for m in greeting):
                            writer.close()
                            return
                    else:
                        replies = self.answer(event)
                        if replies:
                            await self.push(*replies)
        writer.close()


def welcome(name: str) -> Welcome:
    return Welcome(PROTOCOL_VERSION, "session", "resume-token", name, False)


# --- what the screen shows --------------------------------------------------------------

BIDI = {
    "\u061c",
    "\u200e",
    "\u200f",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
}


def rendered(widget: Widget) -> list[Strip]:
    """The lines ``widget`` draws (all of them, also those scrolled out of view)."""
    width, height = widget.outer_size  # borders and padding included
    if not width or not height:
        return []
    return widget.render_lines(Region(0, 0, width, height))


def drawn(screen: Screen[Any]) -> list[list[Strip]]:
    """The lines of every widget on ``screen`` (toasts included)."""
    return [rendered(widget) for widget in screen.query("*")]


def squeezed(text: str) -> str:
    return "".join(text.split()).casefold()


def probe(value: str, most: int = 10) -> str:
    """What of ``value`` must be on screen: its first characters up to the first
    control character (what follows depends on how escapes are removed)."""
    shown = ""
    for char in value:
        if not char.isprintable():
            break
        shown += char
    return squeezed(shown[:most])


def missing(app: MauMauApp, server: FakeServer, values: Iterable[str], most: int) -> list[str]:
    """Those of ``values`` not drawn now. Raises if the app quit, or if anything drawn
    holds a control character, a bidi override, a link or an action to click."""
    assert app.is_running and app.return_code is None, "the client quit"
    assert not any(isinstance(m, Bye) for m in server.received), "the client said bye"
    texts = []
    for strips in drawn(app.screen):
        for strip in strips:
            for segment in strip:
                style = segment.style
                if style is not None and style.link:
                    raise AssertionError(f"a link on screen: {segment!r}")
                if style is not None and "@click" in (style.meta or {}):
                    raise AssertionError(f"an action on screen: {segment!r}")
        text = "".join(strip.text for strip in strips)
        bad = [c for c in text if unicodedata.category(c) == "Cc" or c in BIDI]
        assert not bad, f"control characters on screen: {bad!r} in {text!r}"
        texts.append(squeezed(text))
    return [value for value in values if not any(probe(value, most) in t for t in texts)]


async def check(
    pilot: Any, app: MauMauApp, server: FakeServer, values: Iterable[str] = (), most: int = 10
) -> None:
    """Wait until every one of ``values`` is drawn (the screen may not be laid out
    yet), checking at each look that nothing drawn is a control, a link or an action."""
    values = list(values)
    deadline = time.monotonic() + 10
    while left := missing(app, server, values, most):
        if time.monotonic() > deadline:
            raise AssertionError(f"not on screen: {left!r}; banner: {app.banner_text!r}")
        await pilot.pause(0.05)


async def click_lines(pilot: Any, app: MauMauApp, *selectors: str) -> None:
    """Click the start of each widget's first line (hostile text, and a link if the
    client had made one)."""
    for selector in selectors:
        await pilot.click(selector, offset=(2, 0))


def screen_is(app: MauMauApp, kind: type[Screen[Any]]) -> Callable[[], bool]:
    return lambda: isinstance(app.screen, kind) and app.screen.is_mounted


# --- messages full of hostile text --------------------------------------------------------


def seat(name: str | None, bot: bool = False) -> dict[str, Any]:
    info: dict[str, Any] = {"name": name, "bot": bot, "connected": True, "away": False}
    info["ready"] = True
    if bot:
        info["level"] = "hard"
    return info


def view(table: int, seat_no: int | None, **changes: Any) -> View:
    fields: dict[str, Any] = {
        "table": table,
        "seq": 40,
        "seat": seat_no,
        "phase": "playing",
        "round": 1,
        "dealer": 2,
        "turn": 0,
        "direction": 1,
        "top": "7H",
        "named": None,
        "penalty": 0,
        "penalty_kind": None,
        "hand_counts": (5, 4, 1, 6),
        "scores": (12, 62, 88, 40),
        "target": 150,
        "stock": 14,
        "discard": 6,
        "windows": ({"id": 38, "seat": 2, "final": False, "called": None, "catchable": True},),
        "last_round": None,
        "winner": None,
        "hand": ("7S", "9H", "10S", "QH", "JD") if seat_no is not None else None,
        "drawn": None,
        "legal": ({"kind": "play", "card": "7S"}, {"kind": "draw"}, {"kind": "catch", "target": 2})
        if seat_no is not None
        else (),
        "turn_deadline_ms": 30_000,
    }
    fields.update(changes)
    return View(**fields)


def last_round(round_no: int, winner: int) -> dict[str, Any]:
    return {
        "round": round_no,
        "winner": winner,
        "points": 43,
        "hands": (("7S", "9H"), ("QC", "KC"), (), ("8D",)),
        "hand_points": (16, 20, 0, 8),
        "scores": (12, 62, 131, 40),
    }


# --- the scenarios ----------------------------------------------------------------------

# No shrinking: each run of a scenario drives a whole app for seconds, so a failure is
# reported as found (with its example) instead of being shrunk for many minutes.
EXAMPLES = settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    phases=[Phase.explicit, Phase.generate],
)


@EXAMPLES
@given(pool=pools())
@example(pool=list(NASTY))
def test_refusals_and_goodbyes_before_the_welcome(pool: list[str]) -> None:
    words = Words(pool)
    refusal, goodbye, typed = words.line(500), words.line(200), words.name()
    reserved = Error("name_reserved", words.line(500), "hello", fatal=True)
    server = FakeServer(
        [
            [Error("name_taken", refusal, "hello", fatal=True)],
            [reserved],
            [Goodbye(goodbye, "shutdown")],
        ]
    )

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                await until(pilot, lambda: server.hellos == 1 and screen_is(app, ConnectScreen)())
                await check(pilot, app, server, [refusal])
                # The name the player types is echoed in the next refusal.
                app.screen.query_one("#name").value = typed  # type: ignore[attr-defined]
                app.screen.query_one("#name").focus()
                await pilot.press("enter")
                await until(pilot, lambda: server.hellos == 2 and screen_is(app, ConnectScreen)())
                await check(pilot, app, server, [typed], most=24)
                await pilot.press("enter")
                await until(pilot, lambda: server.hellos == 3 and screen_is(app, ConnectScreen)())
                await check(pilot, app, server, [goodbye])

    asyncio.run(asyncio.wait_for(scenario(), 60))


@EXAMPLES
@given(pool=pools())
@example(pool=list(NASTY))
def test_lobby_chat_refusals_and_records(pool: list[str]) -> None:
    words = Words(pool)
    me = words.name()
    tables: list[dict[str, Any]] = [
        {
            "id": i + 1,
            "name": words.line(32),
            "variant": "classic" if i % 2 == 0 else "american",
            "seats": (seat(words.name()), seat(words.name(), bot=True), seat(None)),
            "spectators": 0,
            "state": ("waiting", "playing", "finished")[i],
            "round": i,
            "locked": False,
        }
        for i in range(3)
    ]
    online = (me, words.name(), words.name())
    lobby = Lobby(tuple(tables), online)
    chat = ChatLine("lobby", words.name(), words.chat())
    refusal = words.line(500)
    leaders: list[dict[str, Any]] = [
        {"name": words.name(), "matches": 3, "wins": 1, "rounds_won": 4, "average_score": 80.5}
        for _ in range(3)
    ]
    mine = {"name": me, "matches": 1, "wins": 0, "rounds_won": 1, "average_score": 12.0}
    matches: list[dict[str, Any]] = [
        {
            "id": 10 + i,
            "table": words.line(32),
            "variant": "classic",
            "names": (words.name(), words.name()),
            "bots": (False, True),
            "scores": (150, 20),
            "winner": 0,
            "finished": 1_746_131_400.0,
            "rounds": 3,
        }
        for i in range(2)
    ]
    history_refusal = words.line(500)
    replay_names = (words.name(), words.name())
    steps: tuple[dict[str, Any], ...] = tuple(
        {
            "n": n,
            # Kinds this client does not know: it says so, naming them as sent.
            "events": ({"kind": words.line(32)}, {"kind": words.line(32)}),
            "round": 1,
            "phase": "playing",
            "turn": n % 2,
            "direction": 1,
            "top": "8H",
            "named": None,
            "penalty": 0,
            "hands": (("7S", "9H"), ("QC",)),
            "scores": (0, 0),
            "stock": 10,
        }
        for n in range(3)
    )
    replay_table = words.line(32)

    def answer(message: Message) -> list[Message]:
        if isinstance(message, JoinTable):
            return [Error("table_full", refusal, "join_table")]
        if isinstance(message, GetStats):
            return [Stats(tuple(leaders), mine, message.variant)]
        if isinstance(message, ListMatches):
            if message.mine:
                return [Error("no_such_thing", history_refusal, "list_matches")]
            return [Matches(tuple(matches))]
        if isinstance(message, GetReplay):
            page = steps[message.start : message.start + message.count]
            return [Replay(10, replay_table, "classic", replay_names, (False, True), 3, 0, page)]
        return []

    server = FakeServer([[welcome(me), lobby, chat]], answer)

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                await until(pilot, lambda: screen_is(app, LobbyScreen)() and app.model.lobby_chat)
                names = [t["seats"][0]["name"] for t in tables]
                await check(pilot, app, server, [me, *online, chat.sender, chat.text])
                await check(pilot, app, server, [t["name"] for t in tables] + names)
                # Clicking a table row joins it (and nothing else); the refusal is a toast.
                for row in range(3):
                    await pilot.click("#tables", offset=(3, 1 + row))
                await until(pilot, lambda: sum(isinstance(m, JoinTable) for m in server.received))
                await until(pilot, lambda: app.screen.query("Toast"))
                await check(pilot, app, server, [refusal])
                await click_lines(pilot, app, "#lobby-title", "#online")

                await pilot.press("s")
                await until(pilot, lambda: screen_is(app, LeaderboardScreen)() and app.model.stats)
                await check(pilot, app, server, [leader["name"] for leader in leaders])
                await pilot.press("escape")
                await pilot.press("h")
                await until(pilot, lambda: screen_is(app, HistoryScreen)() and app.model.matches)
                detail = [*matches[0]["names"], matches[0]["table"]]
                tables_shown = [m["table"] for m in matches]
                await check(
                    pilot, app, server, [*detail, *(n for m in matches for n in m["names"])], most=8
                )
                await check(pilot, app, server, tables_shown, most=8)
                await pilot.press("enter")
                await until(pilot, lambda: screen_is(app, ReplayScreen)() and app.model.replay)
                await until(pilot, lambda: app.model.replay and app.model.replay.steps)
                kinds = [e["kind"] for e in steps[0]["events"]]
                await check(pilot, app, server, [replay_table, *replay_names, *kinds])
                await pilot.press("right")
                await check(pilot, app, server, [e["kind"] for e in steps[1]["events"]])
                await pilot.press("q")
                await until(pilot, screen_is(app, HistoryScreen))
                await pilot.press("m")  # only mine: the server refuses, in hostile words
                await until(pilot, lambda: "list_matches" in app.model.records_errors)
                await check(pilot, app, server, [history_refusal])

    asyncio.run(asyncio.wait_for(scenario(), 60))


@EXAMPLES
@given(pool=pools())
@example(pool=list(NASTY))
# Found once: an emoji code and escaped markup among the settings shown in the help.
@example(
    pool=[
        "漢字/][[",
        "\x1b]0;owned\x07ok",
        "]/x@click=app.quit[@click=app.quit]Free beer[/]",
        "\x1b\u202e漢字\\\x7f",
        "漢字[@click=app.quit]Free beer[/]@click=app.quit\x7f[b]",
        "\\[b]:thumbs_up:[@click=app.quit]x[/]",
        "漢字",
        "[/][@click=app.quit]Free beer[/]\x1b[reverse blink]x[/][on red]red[/on red]\\",
        ":thumbs_up:",
        "[b]",
        "[@click=app.quit]x[/]漢字",
        "\x1b]0;owned\x07ok/a\x9b31mb[b]",
    ]
)
def test_table_seated_and_watching(pool: list[str]) -> None:
    words = Words(pool)
    me = words.name()
    names = [me, words.name(), words.name(), words.name()]
    settings_words = {
        key: words.line(60)
        for key in (
            *("seats", "target_score", "mau_penalty", "false_catch_penalty"),
            *("mau_window_ms", "turn_timeout_s", "reconnect_grace_s"),
        )
    }
    table_settings = {"variant": "classic", **settings_words}
    creator = words.name()
    seats = tuple(seat(n, bot=i == 3) for i, n in enumerate(names))
    info = TableInfo(
        5, words.line(32), table_settings, seats, (words.name(),), "waiting", creator, 0
    )
    # (The events' and the decision's English lines of protocols up to 9 are drawn
    # still, so that every value, and so each example's layout, stays as it was.)
    events = []
    for i in range(2):
        events.append(GameEvent(5, 41 + i, words.line(32)))
        words.line(500)
    decision = MauDecision(5, 43, 38, 2, "caught", ())
    words.line(500)
    chat = ChatLine("table", words.name(), words.chat())
    problem = words.line(500)
    watch_names = [words.name() for _ in range(4)]
    watching = TableInfo(
        6,
        words.line(32),
        table_settings,
        tuple(seat(n) for n in watch_names),
        (me,),
        "playing",
        watch_names[0],
        None,
    )
    server = FakeServer([[welcome(me), Lobby((), (me,))]])

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                await until(pilot, screen_is(app, LobbyScreen))
                await server.push(info)
                await until(pilot, screen_is(app, TableScreen))
                # Waiting for the creator: the seats by name.
                await check(pilot, app, server, [info.name, creator, *names], most=8)
                await server.push(
                    dataclasses.replace(info, state="playing"),
                    view(5, 0),
                    *events,
                    decision,
                    chat,
                )
                await until(pilot, lambda: len(app.model.log) == 3 and app.model.chat)
                # Events of kinds the client does not know are shown by their kind, as
                # sent; the decision is written from its seat (a name checked above).
                lines = [e.kind for e in events] + [chat.sender, chat.text]
                await check(pilot, app, server, [info.name, *names[1:], *lines], most=8)
                await server.push(Error("not_your_turn", problem, "play_card"))
                await until(pilot, lambda: app.screen.problem is not None)  # type: ignore[attr-defined]
                await check(pilot, app, server, [problem])
                await click_lines(pilot, app, "#title", "#opponents")
                await pilot.press("question_mark")
                await until(pilot, screen_is(app, HelpScreen))
                await check(pilot, app, server, settings_words.values())
                await pilot.press("escape")
                await until(pilot, screen_is(app, TableScreen))
                # A round result, then the match result, every name in them.
                await server.push(
                    view(5, 0, phase="round_over", legal=(), last_round=last_round(1, 2))
                )
                await until(pilot, screen_is(app, ResultScreen))
                await check(pilot, app, server, names, most=8)
                await pilot.press("enter")
                await until(pilot, lambda: any(isinstance(m, Ready) for m in server.received))
                await server.push(
                    view(5, 0, phase="match_over", legal=(), last_round=last_round(2, 1), winner=1)
                )
                await until(pilot, screen_is(app, ResultScreen))
                await check(pilot, app, server, names, most=8)
                await pilot.press("enter")
                await until(pilot, screen_is(app, TableScreen))
                # Watching another table.
                await server.push(watching, view(6, None, turn=1, windows=()))
                await until(pilot, lambda: app.model.table is not None and app.model.table.id == 6)
                await until(pilot, lambda: app.model.view is not None and app.model.view.table == 6)
                await check(pilot, app, server, [watching.name, me, *watch_names], most=8)
                await click_lines(pilot, app, "#title")
                await check(pilot, app, server)

    asyncio.run(asyncio.wait_for(scenario(), 60))


@EXAMPLES
@given(pool=pools())
@example(pool=list(NASTY))
def test_goodbye_after_the_welcome_is_a_banner(pool: list[str]) -> None:
    words = Words(pool)
    me, reason = words.name(), words.line(200)
    server = FakeServer([[welcome(me), Lobby((), (me,))]])

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                await until(pilot, screen_is(app, LobbyScreen))
                server.open.clear()  # the banner stays until the client is welcomed again
                await server.push(Goodbye(reason, "shutdown"))
                assert server.writer is not None
                server.writer.close()
                await until(pilot, lambda: app.banner_text is not None)
                await check(pilot, app, server, [reason])
                server.open.set()
                await until(pilot, lambda: server.hellos == 2 and app.banner_text is None)

    asyncio.run(asyncio.wait_for(scenario(), 60))


@EXAMPLES
@given(pool=pools())
@example(pool=list(NASTY))
def test_a_refused_lone_replay_says_why_as_written(pool: list[str]) -> None:
    reason = " ".join(pool)[:500]  # every string of the pool in one refusal

    def answer(message: Message) -> list[Message]:
        if isinstance(message, GetReplay):
            return [Error("no_such_match", reason, "get_replay")]
        return []

    server = FakeServer([[welcome("viewer")]], answer)
    printed = io.StringIO()

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False, replay=7)
            with contextlib.redirect_stderr(printed):
                async with app.run_test(size=SIZE, notifications=True) as pilot:
                    await until(pilot, lambda: app.return_code is not None)
            assert app.return_code == 1

    asyncio.run(asyncio.wait_for(scenario(), 60))
    text = printed.getvalue()
    bad = [c for c in text if (unicodedata.category(c) == "Cc" and c != "\n") or c in BIDI]
    assert not bad, f"control characters printed: {bad!r}"
    assert squeezed(clean(reason)) in squeezed(text)  # as written, no emoji made of :codes:


# --- the cleaning itself ------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(hostile(), st.text()))
def test_cleaning_drops_every_control_and_keeps_the_rest_in_order(text: str) -> None:
    cleaned = clean(text)
    assert not [c for c in cleaned if unicodedata.category(c) == "Cc" or c in BIDI]
    assert clean(cleaned) == cleaned
    # What is left is the text's own characters, in order (a break became a space).
    rest = iter(text.translate({ord(c): " " for c in "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"}))
    assert all(char in rest for char in cleaned)
    shown = literal(text)
    assert shown.plain == cleaned and not shown.spans


@given(text=st.text(st.characters(exclude_categories=("Cc", "Cf", "Zl", "Zp"))))
def test_printable_text_is_shown_exactly_as_written(text: str) -> None:
    assert clean(text) == text
    assert literal(text).plain == text
    assert literal(f"{text}\n{text}", lines=True).plain == f"{text}\n{text}"


def test_escape_sequences_go_whole() -> None:
    assert clean("a\x1b[2Jb\x1b[1;31mc\x9b0md") == "abcd"
    assert clean("\x1b]0;title\x07ok \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\") == "ok link"
    assert clean("x\x1bcy\x1b(Bz") == "xyz"
    assert clean("tab\there\nline\u2028end") == "tab here line end"
    assert clean("ann\u202eevil\u2066x\u2069") == "annevilx"
    assert clean("[/] [@click=app.quit]x[/]") == "[/] [@click=app.quit]x[/]"

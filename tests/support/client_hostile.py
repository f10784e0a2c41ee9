"""Hostile text and frames: the nasty strings, the pools hypothesis draws from, a fake
server that sends what a test gives it, and checks of what the screen shows."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from maumau.client.app import MauMauApp
from maumau.protocol.codec import NEED_DATA, PEER_CLOSED, Connection, RemoteProtocolError
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    Hello,
    Message,
    View,
    Welcome,
    decode_message,
)

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


# No shrinking: each run of a scenario drives a whole app for seconds, so a failure is
# reported as found (with its example) instead of being shrunk for many minutes.
EXAMPLES = settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    phases=[Phase.explicit, Phase.generate],
)

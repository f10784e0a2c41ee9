"""Browser guests in a real Chromium, against ``maumau-server --web``.

Two browser guests (each their own browser context: their own visitor) and one
terminal client (the real Textual client, run headless in this process) play a whole
round of Mau Mau together; then a guest reloads the page and, with the same name and
PIN, is back in the seat; a second visitor who types the name without the PIN
cannot take it. Every request the pages make is watched: the test fails on any
request that is not to loopback (each is refused, as it would be at a party without
internet) and on any request that fails.

The pages draw on a canvas, so the test reads the game from the terminal client's
view model (whose turn, how many cards) and from the server's log, and plays the
guests' turns with keys, as a guest at a keyboard would: each card in turn (its
number, then Enter: a card that does not fit only complains), "1" after a Jack for
the suit, else take the penalty, draw and keep.

Chromium is Debian's (``chromium``), driven by playwright-python with
``executable_path``: playwright's own browser download is not used. Without
Chromium or playwright the tests skip, unless ``MAUMAU_REQUIRE_CHROMIUM`` is set
(``.ci/run`` sets it when it installed Chromium): then they fail.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import shutil
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from maumau.client.app import MauMauApp
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import CreateTable
from support.web import party

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = bool(os.environ.get("MAUMAU_REQUIRE_CHROMIUM"))
try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    async_playwright = None  # type: ignore[assignment]

if REQUIRED:
    assert CHROMIUM, "MAUMAU_REQUIRE_CHROMIUM is set but there is no chromium"
    assert async_playwright is not None, "MAUMAU_REQUIRE_CHROMIUM is set but no playwright"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or async_playwright is None, reason="needs Debian's chromium and playwright"
)

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]
LOOPBACK = ("127.0.0.1", "localhost")


def run_async(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(fn(*args, **kwargs), 240))

    return wrapper


class Visitor:
    """One visitor: a browser context of their own and its page."""

    def __init__(self, browser: Any, url: str, watch: Watch) -> None:
        self.browser = browser
        self.url = url
        self.watch = watch
        self.context: Any = None
        self.page: Any = None

    async def open(self, width: int = 1280, height: int = 800) -> None:
        self.context = await self.browser.new_context(viewport={"width": width, "height": height})
        await self.context.route("**/*", self.watch.route)
        self.page = await self.context.new_page()
        self.page.on("requestfailed", self.watch.failed)
        await self.load()

    async def load(self, reload: bool = False) -> None:
        if reload:
            await self.page.reload()
        else:
            await self.page.goto(self.url)
        await self.page.wait_for_selector("body.-first-byte", state="attached", timeout=30_000)
        await asyncio.sleep(0.5)  # the login screen is drawn and has the focus

    async def login(self, name: str, pin: str) -> None:
        keyboard = self.page.keyboard
        await keyboard.type(name)
        await keyboard.press("Enter")
        await asyncio.sleep(0.3)  # the PIN field takes the focus
        await keyboard.type(pin)
        await keyboard.press("Enter")

    async def press(self, *keys: str, pause: float = 0.05) -> None:
        for key in keys:
            await self.page.keyboard.press(key)
            await asyncio.sleep(pause)


class Watch:
    """Every request of every page: loopback ones go on, others are refused and
    recorded; failed ones are recorded too."""

    def __init__(self) -> None:
        self.external: list[str] = []
        self.failures: list[str] = []
        self.seen: list[str] = []

    async def route(self, route: Any) -> None:
        url = route.request.url
        self.seen.append(url)
        host = urlsplit(url).hostname or ""
        if url.startswith("data:") or host in LOOPBACK:
            await route.continue_()
        else:
            self.external.append(url)
            await route.abort("internetdisconnected")

    def failed(self, request: Any) -> None:
        self.failures.append(f"{request.url}: {request.failure}")


async def until(pilot: Any, condition: Callable[[], Any], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        await pilot.pause(0.05)


def seat_of(app: MauMauApp, name: str) -> int | None:
    table = app.model.table
    if table is None:
        return None
    for index, seat in enumerate(table.seats):
        if seat.get("name") == name:
            return index
    return None


async def terminal_turn(pilot: Any, app: MauMauApp) -> None:
    """The terminal player's turn by keys: the first card that fits, else take,
    draw and keep (as a player reading the screen would)."""
    model = app.model
    cards = model.hand()
    playable = [i for i, c in enumerate(cards) if c in model.playable()]
    if playable and playable[0] < 9:
        index = playable[0]
        if len(cards) == 2:
            await pilot.press("m")  # arm Mau for the second-last card
        await pilot.press(str(index + 1), "enter")
        if model.needs_name(cards[index]):
            await pilot.pause(0.3)
            await pilot.press("1")
        return
    if model.legal("pass"):
        await pilot.press("k")
    elif model.view is not None and model.view.penalty:
        await pilot.press("t")
    else:
        await pilot.press("d")


async def guest_turn(
    pilot: Any, app: MauMauApp, guest: Visitor, seat: int, plays: list[str]
) -> None:
    """A browser guest's turn by keys: each card in turn, until one fits (the turn
    moves on); else take the penalty, draw, and keep."""
    view = app.model.view
    assert view is not None
    seq = view.seq

    def moved() -> bool:
        now = app.model.view
        return now is None or now.seq != seq or now.turn != seat

    count = min(view.hand_counts[seat], 9)
    for number in range(1, count + 1):
        await guest.press(str(number), "Enter")
        await asyncio.sleep(0.25)
        if moved():
            plays.append("play")
            return
        await guest.press("1")  # a Jack asked for the suit: the first one
        await asyncio.sleep(0.25)
        if moved():
            plays.append("play")
            return
    for key in ("t", "d", "k"):
        await guest.press(key)
        await asyncio.sleep(0.25)
        if moved():
            plays.append(key)
            return


@run_async
async def test_two_browser_guests_and_a_terminal_client_play_a_round(tmp_path: Path) -> None:
    watch = Watch()
    with party(tmp_path) as server:
        assert async_playwright is not None and CHROMIUM is not None
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                pia, raj = Visitor(browser, server.url, watch), Visitor(browser, server.url, watch)
                await pia.open()
                await raj.open(412, 915)  # a phone's page
                # The page fits the client's narrowest layout to the phone's width and
                # takes the keys at once (the logins below type without a click).
                for guest, most in ((pia, 16), (raj, 11)):
                    size = await guest.page.evaluate(
                        "[Number(document.getElementById('terminal').dataset.fontSize),"
                        " document.querySelector('.xterm-screen').getBoundingClientRect().width,"
                        " innerWidth]"
                    )
                    assert 8 <= size[0] <= most and size[1] <= size[2], size
                    assert size[2] / (size[0] * 0.6) >= 60, size
                app = MauMauApp("127.0.0.1", server.game, "Tom", remember=False)
                async with app.run_test(size=(80, 24)) as pilot:
                    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                    await pia.login("Pia", "4711")
                    await raj.login("Raj", "")
                    await until(
                        pilot,
                        lambda: (
                            app.model.lobby is not None
                            and {"Pia", "Raj"} <= set(app.model.lobby.online)
                        ),
                    )
                    await app.send(CreateTable("Party", {"variant": "classic", "seats": 3}, ()))
                    await until(pilot, lambda: isinstance(app.screen, TableScreen))
                    await asyncio.sleep(0.5)  # the guests' lobbies list the table
                    for guest in (pia, raj):
                        await guest.press("Enter")  # join the table under the cursor
                    await until(pilot, lambda: seat_of(app, "Pia") and seat_of(app, "Raj"))
                    for guest in (pia, raj):
                        await guest.press("Enter")  # ready
                    await pilot.press("s")
                    await until(pilot, lambda: app.model.view is not None and app.model.view.hand)
                    plays: list[str] = []
                    deadline = time.monotonic() + 150
                    while not isinstance(app.screen, ResultScreen):
                        assert time.monotonic() < deadline, f"no result after {plays}"
                        view = app.model.view
                        if view is None or view.turn is None:
                            await pilot.pause(0.05)
                            continue
                        turn = view.turn
                        if turn == view.seat and isinstance(app.screen, TableScreen):
                            seq = view.seq
                            await terminal_turn(pilot, app)
                            await until(
                                pilot,
                                lambda seq=seq: (
                                    isinstance(app.screen, ResultScreen)
                                    or (app.model.view is not None and app.model.view.seq != seq)
                                ),
                            )
                        elif turn in (seat_of(app, "Pia"), seat_of(app, "Raj")):
                            guest = pia if turn == seat_of(app, "Pia") else raj
                            await guest_turn(pilot, app, guest, turn, plays)
                        elif app.model.owes_call():
                            await pilot.press("m")
                        await pilot.pause(0.05)
                    log = "\n".join(app.model.log)
                    assert re.search(r"\b(Pia|Raj) plays ", log), log  # the guests played cards
                    assert "play" in plays
                    pia_seat = seat_of(app, "Pia")
                    assert pia_seat is not None

                    # A reload is a new process: with the same name and PIN, the same seat.
                    await pia.load(reload=True)
                    await pia.login("Pia", "4711")
                    await until(pilot, lambda: any("Pia resumed" in line for line in server.err))
                    assert seat_of(app, "Pia") == pia_seat

                    # Another visitor with the name and no PIN is refused the name.
                    mallory = Visitor(browser, server.url, watch)
                    await mallory.open()
                    before = len(server.err)
                    await mallory.login("Pia", "")
                    await until(
                        pilot,
                        lambda: any("name_reserved" in line for line in server.err[before:]),
                    )
                    later = server.err[before:]
                    assert not any(
                        "Pia resumed" in line or "Pia connected" in line for line in later
                    )
                    table = app.model.table
                    assert table is not None and table.seats[pia_seat]["connected"]
            finally:
                await browser.close()
    assert watch.seen, "no request was watched"
    assert watch.external == [], f"requests left loopback: {watch.external}"
    assert watch.failures == [], f"requests failed: {watch.failures}"

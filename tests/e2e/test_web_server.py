"""The browser guests' web server, without a browser: real processes on loopback.

``maumau-server --web 0`` and ``maumau-web`` run as subprocesses of the real
commands; each tab is a websocket opened as the page opens it (``/ws?width=&height=``),
keys go in as ``["stdin", keys]`` text frames and the guest's screen comes back as
binary frames of terminal output, searched for the words the client draws. A guest's
process is found by the PID the web server logs when a tab opens ("a tab from ...
opened (guest process PID)"), and checked in ``/proc``. Every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st
from wireclient import WireClient

from maumau.client.web import identity
from maumau.client.web.server import languages
from maumau.protocol.messages import Lobby
from support.web import (
    HOST_SECRET,
    SERVER,
    WEB,
    Party,
    Running,
    WebAlone,
    children,
    cmdline,
    ended,
    environment,
    party,
)

LOGIN_TEXT = b"maumau party"  # "Welcome to the maumau party (host:port)."
LOBBY_TEXT = b"new table"  # the lobby's footer and button
OPENED = re.compile(r"a tab from (\S+) opened \(guest process (\d+)\)")

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def run_async(seconds: float) -> Callable[[Callable[..., Awaitable[None]]], Callable[..., None]]:
    """A sync test running the coroutine on asyncio (aiohttp's loop) within a deadline."""

    def decorate(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            asyncio.run(asyncio.wait_for(fn(*args, **kwargs), seconds))

        return wrapper

    return decorate


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Party]:
    """One party for the tests that share it (each uses names of its own)."""
    with party(tmp_path_factory.mktemp("web")) as running:
        yield running


async def until(condition: Callable[[], Any], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


# --- tabs -----------------------------------------------------------------------------


class Tab:
    """One browser tab's websocket: what the guest drew, and how the tab closed."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.screen = bytearray()
        self.texts: list[str] = []
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, session: aiohttp.ClientSession, port: int, origin: str | None = "same"
    ) -> Tab:
        if origin == "same":
            origin = f"http://127.0.0.1:{port}"
        websocket = await session.ws_connect(
            f"ws://127.0.0.1:{port}/ws?width=100&height=30", origin=origin, autoping=True
        )
        return cls(websocket)

    async def _read(self) -> None:
        try:
            async for message in self.websocket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.screen.extend(message.data)
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.texts.append(message.data)
        finally:
            self.close_code = self.websocket.close_code
            self.closed.set()

    def saw(self, text: bytes, since: int = 0) -> bool:
        return text in self.screen[since:]

    async def wait_for(self, text: bytes, timeout: float = 20, since: int = 0) -> None:
        await until(
            lambda: self.saw(text, since) or self.closed.is_set(), timeout, f"{text!r} drawn"
        )
        assert self.saw(text, since), f"the tab closed ({self.close_code}) before {text!r}"

    async def keys(self, keys: str) -> None:
        await self.websocket.send_json(["stdin", keys])

    async def resize(self, width: int, height: int) -> None:
        await self.websocket.send_json(["resize", {"width": width, "height": height}])

    async def login(self, name: str, pin: str) -> None:
        """Type the name, Enter, then the PIN, Enter, as a visitor would."""
        await self.wait_for(LOGIN_TEXT)
        await self.keys(name + "\r")
        await asyncio.sleep(0.4)
        await self.keys(pin + "\r")

    async def close(self) -> None:
        await self.websocket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


async def open_guest(
    session: aiohttp.ClientSession, running: Running, port: int, origin: str | None = "same"
) -> tuple[Tab, int]:
    """A tab whose guest process has started: the tab and that process's PID."""
    start = len(running.err)
    tab = await Tab.open(session, port, origin)
    found = await running.await_line(OPENED, start=start)
    return tab, int(found[2])


async def online(game_port: int, watcher: str) -> tuple[str, ...]:
    """Who is online, as an ordinary wire client connecting now sees it."""

    async def ask() -> tuple[str, ...]:
        client = await WireClient.connect("127.0.0.1", game_port, watcher)
        try:
            lobby = await client.wait_for(Lobby, timeout=10)
            return tuple(lobby.online)
        finally:
            await client.aclose()

    return await asyncio.to_thread(trio.run, ask)


# --- the page and the files -------------------------------------------------------------

URL_IN_PAGE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)""")


@run_async(30)
async def test_the_page_is_relative_offline_and_nothing_else_is_served(server: Party) -> None:
    base = f"http://127.0.0.1:{server.web}"
    async with aiohttp.ClientSession() as session:
        async with session.get(base + "/") as response:
            assert response.status == 200
            page = await response.text()
            headers = response.headers
        policy = headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy
        assert re.search(r'<meta name="viewport" content="[^"]*width=device-width', page)
        # What the browser reads (comments aside) names no address and no other site.
        code = re.sub(r"(?sm)<!--.*?-->|/\*.*?\*/|^\s*//[^\n]*$", "", page)
        for absolute in ("0.0.0.0", "127.0.0.1", "http://", "https://", "fonts.googleapis"):
            assert absolute not in code, absolute
        urls = [a or b for a, b in URL_IN_PAGE.findall(page)]
        assert "static/js/textual.js" in urls
        assert any(url.startswith("static/fonts/") for url in urls)
        for url in urls:
            if url.startswith("data:"):
                continue
            assert not re.match(r"^(?:[a-z][a-z0-9+.-]*:|/)", url, re.I), f"not relative: {url}"
            async with session.get(f"{base}/{url}") as response:
                assert response.status == 200, url
                assert len(await response.read()) > 100, url
        async with session.get(base + "/static/js/textual.js") as response:
            assert response.status == 200
            assert "javascript" in response.headers.get("Content-Type", "")
        for path in ("/static/", "/static/js/", "/static/fonts/"):
            async with session.get(base + path) as response:
                assert response.status in (403, 404), path
                assert "textual.js" not in await response.text(), path
        for path in (
            "/download/x",
            "/static/../server.py",
            "/static/%2e%2e/app_service.py",
            "/favicon.ico",
            "/ws/x",
        ):
            async with session.get(base + path) as response:
                assert response.status in (403, 404), path
        async with session.post(base + "/") as response:
            assert response.status == 405


# --- who may open a tab ---------------------------------------------------------------


@run_async(40)
async def test_a_tab_from_another_sites_page_starts_no_process(server: Party) -> None:
    async with aiohttp.ClientSession() as session:
        start = len(server.err)
        evil = await Tab.open(session, server.web, origin="http://evil.example")
        await asyncio.wait_for(evil.closed.wait(), 10)
        assert evil.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
        assert not evil.screen
        await server.await_line("refused a tab from another site's page", start=start)
        assert server.find(OPENED, start=start) is None
        assert children(server.web_pid) == []

        # The same site's page (and a client that sends no Origin) gets a client.
        for origin in ("same", None):
            tab, pid = await open_guest(session, server, server.web, origin)
            await tab.wait_for(LOGIN_TEXT)
            assert pid in children(server.web_pid)
            assert b"maumau.client.web.guest" in cmdline(pid)
            await tab.close()
            await until(lambda pid=pid: ended(pid), 10, "the guest process ends")


@run_async(40)
async def test_a_page_for_another_name_is_refused_unless_allowed(tmp_path: Path) -> None:
    """DNS rebinding: a site that renames itself to this machine's address sends its
    own name as Host. Neither the page nor a tab is served for it, unless the host
    allowed that name (``--allow-host``); IP addresses and localhost always work."""
    web = WebAlone(tmp_path, "--allow-host", "party.example")
    try:
        port = web.port
        base = f"http://127.0.0.1:{port}/"
        async with aiohttp.ClientSession() as session:
            for host, status in (
                ("rebound.example", 421),
                (f"rebound.example:{port}", 421),
                ("party.example", 200),
                (f"PARTY.example:{port}", 200),
                (f"localhost:{port}", 200),
                (f"[::1]:{port}", 200),
                (f"127.0.0.1:{port}", 200),
            ):
                async with session.get(base, headers={"Host": host}) as response:
                    assert response.status == status, host
            start = len(web.err)
            rebound = f"rebound.example:{port}"
            websocket = await session.ws_connect(
                f"ws://127.0.0.1:{port}/ws",
                headers={"Host": rebound},
                origin=f"http://{rebound}",
            )
            tab = Tab(websocket)
            await asyncio.wait_for(tab.closed.wait(), 10)
            assert tab.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
            assert not tab.screen
            assert web.find(OPENED, start=start) is None
            assert children(web.pid) == []
    finally:
        web.stop()


@run_async(60)
async def test_the_browser_seats_cap_and_the_full_page(tmp_path: Path) -> None:
    with party(tmp_path, "--web-max", "1") as running:
        base = f"http://127.0.0.1:{running.web}/"
        async with aiohttp.ClientSession() as session:
            async with session.get(base) as response:
                assert response.status == 200
            first, _ = await open_guest(session, running, running.web)
            await first.wait_for(LOGIN_TEXT)
            start = len(running.err)
            second = await Tab.open(session, running.web)
            await asyncio.wait_for(second.closed.wait(), 10)
            assert second.close_code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
            assert not second.screen
            await running.await_line("the browser seats are taken", start=start)
            assert running.find(OPENED, start=start) is None
            async with session.get(base) as response:
                assert response.status == 503
                full = await response.text()
            assert 'id="full"' in full and "textual.js" not in full
            assert "1 at most" in full
            assert re.search(r'<meta name="viewport"', full)

            await first.close()
            await until(lambda: not children(running.web_pid), 10, "the first guest ends")
            # The seat is free once the web server has reaped the guest's process,
            # which may come a moment after the process is gone.
            for _ in range(100):
                async with session.get(base) as response:
                    status, page = response.status, await response.text()
                if status != 503:
                    break
                await asyncio.sleep(0.1)
            assert status == 200
            assert "textual.js" in page
            again, _ = await open_guest(session, running, running.web)
            await again.wait_for(LOGIN_TEXT)

            # Tabs opened and closed at once never run more guests than the cap: a
            # closed tab's seat is free only once its process has ended.
            await again.close()
            peak = 0
            done = False

            async def sample() -> None:
                nonlocal peak
                while not done:
                    peak = max(peak, len(children(running.web_pid)))
                    await asyncio.sleep(0.01)

            sampler = asyncio.create_task(sample())
            for _ in range(8):
                tab = await Tab.open(session, running.web)
                await asyncio.sleep(0.05)
                await tab.close()
            await until(lambda: not children(running.web_pid), 15, "every guest ends")
            done = True
            await sampler
            assert peak <= 1, f"{peak} guest processes at once with --web-max 1"


@run_async(40)
async def test_the_per_address_cap(tmp_path: Path) -> None:
    """``maumau-web --max-per-address 1``: a second tab from 127.0.0.1 is refused, one
    from 127.0.0.2 (another visitor) is not."""
    web = WebAlone(tmp_path, "--max", "5", "--max-per-address", "1")
    try:
        port = web.port
        base = f"http://127.0.0.1:{port}/"
        other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with (
            aiohttp.ClientSession() as session,
            aiohttp.ClientSession(connector=other) as elsewhere,
        ):
            first, _ = await open_guest(session, web, port)
            await first.wait_for(LOGIN_TEXT)
            start = len(web.err)
            second = await Tab.open(session, port)
            await asyncio.wait_for(second.closed.wait(), 10)
            assert second.close_code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
            assert not second.screen
            assert web.find(OPENED, start=start) is None
            async with session.get(base) as response:
                assert response.status == 503
            async with elsewhere.get(base) as response:
                assert response.status == 200
            third, _ = await open_guest(elsewhere, web, port)
            await third.wait_for(LOGIN_TEXT)
            assert web.find(r"a tab from 127\.0\.0\.2 opened", start=start)
            assert len(children(web.pid)) == 2
            await first.close()
            await third.close()
            await until(lambda: not children(web.pid), 10, "the guests end")
    finally:
        web.stop()
    assert web.process.returncode == 0


# --- a guest's process ----------------------------------------------------------------


@run_async(30)
async def test_a_guest_has_a_private_home_and_none_of_the_hosts_environment(
    server: Party,
) -> None:
    async with aiohttp.ClientSession() as session:
        tab, pid = await open_guest(session, server, server.web)
        await tab.wait_for(LOGIN_TEXT)
        assert HOST_SECRET in environment(server.pid).values()
        assert HOST_SECRET in environment(server.web_pid).values()
        guest = environment(pid)
        assert "MAUMAU_TEST_HOST_SECRET" not in guest
        assert HOST_SECRET.encode() not in Path(f"/proc/{pid}/environ").read_bytes()
        assert guest["MAUMAU_WEB_GAME"] == f"127.0.0.1:{server.game}"
        home = Path(guest["HOME"])
        assert home.name.startswith("maumau-web-guest-") and home.is_dir()
        assert stat.S_IMODE(home.stat().st_mode) == 0o700
        assert Path(os.readlink(f"/proc/{pid}/cwd")) == home
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            assert Path(guest[name]).is_relative_to(home), name
        host = environment(server.pid)
        shared = {k for k in host if k in guest and host[k] == guest[k]}
        assert shared <= {"LANG", "LANGUAGE", "PYTHONDONTWRITEBYTECODE"}, shared
        await tab.close()
        await until(lambda: ended(pid), 10, "the guest process ends")
        await until(lambda: not home.exists(), 5, "its home is removed")


@run_async(60)
async def test_a_tab_closed_mid_game_ends_its_process_and_removes_its_home(
    server: Party,
) -> None:
    async with aiohttp.ClientSession() as session:
        tab, pid = await open_guest(session, server, server.web)
        start = len(server.err)
        await tab.login("Mia", "")
        await tab.wait_for(LOBBY_TEXT)
        await server.await_line("Mia connected", start=start)
        home = Path(environment(pid)["HOME"])
        await tab.keys("n")  # a new table, its dialog's defaults, bots in the free seats
        await tab.wait_for(b"Create", since=len(tab.screen))
        await asyncio.sleep(0.3)
        await tab.keys("\r")
        await server.await_line(r"\"Mia's table\": Mia sits", start=start)
        await asyncio.sleep(0.5)
        await tab.keys("s")
        await server.await_line(r"\"Mia's table\": match starts", start=start)
        assert home.is_dir() and not ended(pid)

        started = time.monotonic()
        await tab.close()
        await until(lambda: ended(pid), 10, "the guest process ends")
        await until(lambda: not home.exists(), 5, "its home is removed")
        assert time.monotonic() - started < 8
        await server.await_line(r"Mia \(seat 0\) disconnected; the seat is kept", start=start)
        assert pid not in children(server.web_pid)


@run_async(30)
async def test_a_guest_process_that_dies_closes_its_tab(server: Party) -> None:
    """A killed client sends no "exit": its tab is closed all the same, and its
    browser seat and home freed."""
    async with aiohttp.ClientSession() as session:
        tab, pid = await open_guest(session, server, server.web)
        await tab.wait_for(LOGIN_TEXT)
        home = Path(environment(pid)["HOME"])
        start = len(server.err)
        os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(tab.closed.wait(), 5)
        await server.await_line(rf"closed \(guest process {pid} ended\)", start=start, timeout=5)
        assert not home.exists()
        assert pid not in children(server.web_pid)


@run_async(40)
async def test_an_idle_tab_is_closed(tmp_path: Path) -> None:
    """``--web-idle 10``: a tab without input is closed (the server looks every 5 s),
    on time even beside an idle tab that never answers the close; a tab that keeps
    resizing is not closed."""
    with party(tmp_path, "--web-idle", "10") as running:
        async with aiohttp.ClientSession() as session:
            start = len(running.err)
            mute = await session.ws_connect(
                f"ws://127.0.0.1:{running.web}/ws", autoclose=False, autoping=False
            )
            mute_pid = int((await running.await_line(OPENED, start=start))[2])
            idle, idle_pid = await open_guest(session, running, running.web)
            opened = time.monotonic()
            busy, busy_pid = await open_guest(session, running, running.web)
            await idle.wait_for(LOGIN_TEXT)
            await busy.wait_for(LOGIN_TEXT)
            while not idle.closed.is_set() and time.monotonic() - opened < 22:
                await busy.resize(100 + int(time.monotonic()) % 2, 30)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(idle.closed.wait(), 2)
            took = time.monotonic() - opened
            assert idle.closed.is_set(), "the idle tab was not closed"
            assert 8 <= took <= 20, took
            assert idle.close_code == aiohttp.WSCloseCode.GOING_AWAY
            await until(lambda: ended(idle_pid), 8, "the idle guest's process ends")
            assert running.find("closing an idle tab")
            assert not busy.closed.is_set() and not ended(busy_pid)
            await until(lambda: ended(mute_pid), 15, "the unanswering tab's process ends")
            await busy.close()
            await mute.close()


@run_async(40)
async def test_sigterm_ends_the_server_the_web_server_and_every_guest(tmp_path: Path) -> None:
    with party(tmp_path) as running:
        async with aiohttp.ClientSession() as session:
            first, first_pid = await open_guest(session, running, running.web)
            second, second_pid = await open_guest(session, running, running.web)
            await first.login("Ola", "")
            await first.wait_for(LOBBY_TEXT)
            await second.wait_for(LOGIN_TEXT)
            homes = [Path(environment(pid)["HOME"]) for pid in (first_pid, second_pid)]
            assert sorted(children(running.web_pid)) == sorted([first_pid, second_pid])
            started = time.monotonic()
            running.process.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(running.process.wait, 10)
            took = time.monotonic() - started
            assert code == 0
            for pid in (running.web_pid, first_pid, second_pid):
                await until(lambda pid=pid: ended(pid), 3, f"process {pid} ends")
            assert took < 6, took
            assert not any(home.exists() for home in homes)
            await asyncio.wait_for(first.closed.wait(), 5)
            await asyncio.wait_for(second.closed.wait(), 5)
        assert any("maumau-web stopped." in line for line in running.out)
        assert any("maumau-server stopped." in line for line in running.out)
        assert not any("Traceback" in line for line in running.err)


@run_async(40)
async def test_a_killed_server_leaves_no_web_server_behind(tmp_path: Path) -> None:
    """SIGKILL to maumau-server: its web server notices and stops, with its guests."""
    with party(tmp_path) as running:
        async with aiohttp.ClientSession() as session:
            tab, pid = await open_guest(session, running, running.web)
            await tab.wait_for(LOGIN_TEXT)
            home = Path(environment(pid)["HOME"])
            running.process.kill()
            running.process.wait(5)
            try:
                await until(lambda: ended(running.web_pid), 6, "the web server ends")
                await until(lambda: ended(pid), 6, "the guest ends")
                assert not home.exists()
            finally:
                for leftover in (running.web_pid, pid):
                    if not ended(leftover):
                        os.kill(leftover, signal.SIGKILL)


@run_async(30)
async def test_the_server_says_when_its_web_server_ends(tmp_path: Path) -> None:
    """The web child killed: maumau-server logs that browser guests cannot play, and
    plays on for everyone else."""
    with party(tmp_path) as running:
        start = len(running.err)
        os.kill(running.web_pid, signal.SIGKILL)
        await running.await_line(r"maumau-web ended \(exit -9\)", start=start)
        assert running.process.poll() is None
        assert "Ann" in await online(running.game, "Ann")


@run_async(30)
async def test_a_killed_web_server_leaves_no_guest_nor_home(tmp_path: Path) -> None:
    """SIGKILL to maumau-web: the kernel ends its guests (SIGTERM), and each removes
    its own home, which the web server no longer can."""
    web = WebAlone(tmp_path)
    try:
        port = web.port
        async with aiohttp.ClientSession() as session:
            tab, pid = await open_guest(session, web, port)
            await tab.wait_for(LOGIN_TEXT)
            home = Path(environment(pid)["HOME"])
            web.process.kill()
            web.process.wait(5)
            try:
                await until(lambda: ended(pid), 6, "the guest ends")
                await until(lambda: not home.exists(), 3, "its home is removed")
            finally:
                if not ended(pid):
                    os.kill(pid, signal.SIGKILL)
                shutil.rmtree(home, ignore_errors=True)
    finally:
        web.stop()


# --- start-up errors ------------------------------------------------------------------


def test_a_taken_web_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                *SERVER,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                str(tmp_path / "server.db"),
                "--web",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=40,
        )
    assert done.returncode == 1
    assert f"maumau-server: --web {port}: " in done.stderr
    assert f"cannot listen on port {port}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--web", "70000"], "--web must be a port"),
        (["--web", "0", "--web-max", "0"], "--web-max must be"),
        (["--web", "0", "--web-per-address", "0"], "--web-per-address must be"),
        (["--web", "0", "--web-idle", "5"], "--web-idle must be"),
    ],
)
def test_maumau_server_web_usage_errors(arguments: list[str], said: str) -> None:
    done = subprocess.run(
        [*SERVER, "--no-db", "--port", "0", *arguments], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["nonsense"], "GAME must be host:port"),
        (["127.0.0.1:70000"], "GAME must be host:port"),
        (["127.0.0.1:7766", "--max", "0"], "--max must be"),
        (["127.0.0.1:7766", "--max", "many"], "--max"),
        (["127.0.0.1:7766", "--max-per-address", "0"], "--max-per-address must be"),
        (["127.0.0.1:7766", "--idle", "1"], "--idle must be"),
    ],
)
def test_maumau_web_usage_errors(arguments: list[str], said: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [*WEB, *arguments, "--key-file", str(tmp_path / "web.key"), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "usage: maumau-web" in done.stderr and said in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "web.key").exists()


# --- identity and languages -----------------------------------------------------------


def test_a_name_and_pin_give_one_secret() -> None:
    key = bytes(range(32))
    secret = identity.name_secret("Ann", "1234", key)
    assert secret == identity.name_secret("Ann", "1234", key)
    assert re.fullmatch(r"[0-9a-f]{64}", secret)
    others = {
        identity.name_secret("Ann", "1235", key),
        identity.name_secret("Ann", "", key),
        identity.name_secret("Anna", "1234", key),
        identity.name_secret("ann", "1234", key),
        identity.name_secret("Ann", "1234", bytes(32)),
        identity.name_secret("Ann1", "234", key),  # the separator keeps them apart
    }
    assert secret not in others and len(others) == 6


def test_the_key_file(tmp_path: Path) -> None:
    path = tmp_path / "data" / "maumau" / "web.key"
    key = identity.load_key(path)
    assert len(key) == identity.KEY_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert identity.load_key(path) == key
    assert identity.load_key(tmp_path / "other.key") != key
    for damaged in ("not a key\n", "", "abcd\n", "zz" * 32):
        path.write_text(damaged)
        with pytest.raises(ValueError, match="holds no key"):
            identity.load_key(path)


def test_accept_language_becomes_language() -> None:
    assert languages("de-AT,en;q=0.8") == "de_AT:en"
    assert languages("en;q=0.5, cs, gd;q=0.9") == "cs:gd:en"
    assert languages("") == ""
    assert languages("*") == ""
    assert languages("de;q=0, fr") == "fr"
    assert languages("de;q=nan, fr;q=abc, en") == "en"
    assert languages("../../etc/passwd, de") == "de"
    assert languages("de:en, cs") == "cs"
    assert languages("$(reboot), en_US, cs") == "cs"
    assert languages("x" * 9 + ", en") == "en"
    assert languages(",".join(["de"] * 40)).count("de") == 16


@given(st.text(max_size=300))
def test_any_accept_language_gives_a_harmless_language(accept: str) -> None:
    value = languages(accept)
    assert re.fullmatch(r"(?:[A-Za-z0-9_]+(?::[A-Za-z0-9_]+)*)?", value), value
    assert len(value.split(":")) <= 16


@given(st.lists(st.sampled_from(["de", "en", "cs", "gd", "fr-CA"]), max_size=6), st.data())
def test_the_preferred_language_comes_first(tags: list[str], data: st.DataObject) -> None:
    weights = [data.draw(st.integers(1, 9)) for _ in tags]
    accept = ", ".join(f"{tag};q=0.{w}" for tag, w in zip(tags, weights, strict=True))
    value = languages(accept)
    if tags:
        best = max(weights)
        assert value.split(":")[0] == tags[weights.index(best)].replace("-", "_")
        assert len(value.split(":")) == len(tags)


# --- a whole login --------------------------------------------------------------------


@run_async(60)
async def test_a_login_a_wrong_pin_and_taking_the_session_back(server: Party) -> None:
    async with aiohttp.ClientSession() as session:
        first, _ = await open_guest(session, server, server.web)
        start = len(server.err)
        await first.login("Ann", "1234")
        await first.wait_for(LOBBY_TEXT)
        await server.await_line("Ann connected", start=start)
        assert "Ann" in await online(server.game, "Watcher")

        # Someone else types the name with another PIN: refused; Ann plays on.
        intruder, _ = await open_guest(session, server, server.web)
        await intruder.login("Ann", "9999")
        await intruder.wait_for(b"belongs to another player")
        await server.await_line(r"refused a hello \(name_reserved\)", start=start)
        assert not intruder.saw(LOBBY_TEXT)
        await intruder.close()
        assert "Ann" in await online(server.game, "Watcher")
        assert not first.closed.is_set()
        assert server.find("Ann disconnected", start=start) is None
        assert server.find("Ann resumed", start=start) is None

        # The same name and PIN in another tab (a reload, a phone) takes it back.
        mark = len(first.screen)
        again, _ = await open_guest(session, server, server.web)
        await again.login("Ann", "1234")
        await again.wait_for(LOBBY_TEXT)
        await server.await_line("Ann resumed", start=start)
        await first.wait_for(b"took over", since=mark)
        assert (await online(server.game, "Watcher")).count("Ann") == 1
        await first.close()
        await again.close()


# --- the address guests type ------------------------------------------------------------


def qr_modules(lines: list[str]) -> list[list[bool]]:
    """The modules a QR code printed with half blocks shows (True: dark), two rows a
    line: a light module is drawn, a dark one left blank."""
    top = {"█": True, "▀": True, "▄": False, " ": False}
    bottom = {"█": True, "▀": False, "▄": True, " ": False}
    rows: list[list[bool]] = []
    for line in lines:
        rows.append([not top[c] for c in line])
        rows.append([not bottom[c] for c in line])
    return rows


def test_the_guests_address_is_printed_and_shown_as_a_qr_code(tmp_path: Path) -> None:
    """Listening on every address, maumau-web prints the URLs of this machine's
    addresses (never 0.0.0.0) and the first as a QR code that holds exactly it."""
    import segno

    web = Running(
        [*WEB, "127.0.0.1:9", "--port", "0", "--key-file", str(tmp_path / "web.key")],
        env={"PYTHONIOENCODING": "utf-8"},
    )
    try:
        web.wait(r"a phone's camera opens", err=False, timeout=30)
        port = int(web.find(r"maumau-web on port (\d+)", err=False)[1])
        urls = [line.strip() for line in web.out if line.strip().startswith("http://")]
        assert urls and all(url.endswith(f":{port}/") for url in urls), web.out
        assert not any("0.0.0.0" in line for line in web.out)
        assert urls[-1] == f"http://127.0.0.1:{port}/" or len(urls) == 1  # loopback last
        drawn = [line.rstrip("\n") for line in web.out if set(line.strip()) <= set("█▀▄ ")]
        drawn = [line for line in drawn if line.strip()]
        code = segno.make(urls[0], error="m")
        size = len(code.matrix)
        modules = qr_modules(drawn)
        border = (len(modules[0]) - size) // 2
        shown = [row[border : border + size] for row in modules[border : border + size]]
        assert shown == [[bool(m) for m in row] for row in code.matrix]
    finally:
        web.stop()


def test_a_browser_guest_cannot_choose_another_server() -> None:
    """In web mode the client asks only for a name and PIN: a refused connection shows
    the login again with the reason (never the connect screen, where an address could
    be typed), and a request to connect elsewhere is ignored."""
    from maumau.client.app import MauMauApp
    from maumau.client.screens.connect import ConnectScreen
    from maumau.client.screens.messages import ConnectRequested
    from maumau.client.screens.web_login import WebLoginScreen

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: refused

    async def scenario() -> None:
        app = MauMauApp("127.0.0.1", port, "", remember=False, web_key=b"k" * 32)
        async with app.run_test(size=(62, 40)) as pilot:
            assert isinstance(app.screen, WebLoginScreen)
            await pilot.press(*"Pia", "enter")
            await pilot.pause(0.2)
            await pilot.press("enter")
            deadline = time.monotonic() + 10
            while not str(app.screen.query_one("#login-message").render()).strip():
                assert time.monotonic() < deadline, "no reason shown"
                await pilot.pause(0.05)
            assert isinstance(app.screen, WebLoginScreen)
            assert not any(isinstance(s, ConnectScreen) for s in app.screen_stack)
            app.post_message(ConnectRequested("127.0.0.2", 9, "Pia"))
            await pilot.pause(0.2)
            assert (app.connection.host, app.connection.port) == ("127.0.0.1", port)

    asyncio.run(asyncio.wait_for(scenario(), 30))

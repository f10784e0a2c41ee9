"""The web server: one page, the package's assets, and a client process per tab.

:class:`GuestServer` is textual-serve's ``Server`` with its routes replaced:

- ``GET /``: the page (``templates/page.html``). Every URL in it is relative to the
  address the browser used, so a server listening on all addresses never tells a
  phone to load ``0.0.0.0``; the font is the package's own (no request leaves the
  host); the terminal is focused on load; a viewport for phones, and a font size
  that fits :data:`MIN_COLUMNS` columns in the width of the screen. When the party's
  browser seats are all taken, the page says so instead (``templates/full.html``,
  HTTP 503) and tries again by itself.
- ``GET /ws``: the tab's websocket. It starts a :class:`~.service.GuestService` (one
  client process), unless :attr:`GuestServer.max_guests` tabs are open, or
  :attr:`GuestServer.max_per_address` from the visitor's address, or the request comes
  from a page of another site (its ``Origin`` is not this server).
- Both answer only requests for this machine by a name it has (:meth:`GuestServer.
  known_host`: an IP address, ``localhost``, the machine's host name, or a name the
  host allowed): a web page of another site that renames itself to this machine's
  address (DNS rebinding) cannot open a guest's tab through a visitor's browser.
- ``GET /static/...``: textual-serve's script, style and font, without a listing.

Nothing else: no file downloads, no other routes. A tab without a key, click, tap or
resize for :attr:`GuestServer.idle_seconds` is closed (its client quits; the game
server keeps the seat as for any dropped player). Stopping the web server (SIGINT,
SIGTERM) stops every tab's process first, within a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
import textual_serve.server
from aiohttp import WSCloseCode, web
from textual_serve.server import Server

from .service import GuestService

log = logging.getLogger("maumau.web")

TEMPLATES = Path(__file__).with_name("templates")
STATICS = Path(textual_serve.server.__file__).with_name("static")
MIN_COLUMNS = 60  # the client's narrowest layout (widgets/too_small.py)
IDLE_CHECK_SECONDS = 5.0
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


def languages(accept: str) -> str:
    """``Accept-Language`` as a ``LANGUAGE`` value for gettext (``de-AT,en;q=0.8`` →
    ``de_AT:en``): the tags in the browser's order of preference; anything that is
    not a plain language tag is dropped."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept.split(",")[:16]):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not LANGUAGE_TAG.match(tag):
            continue
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if weight > 0:
            ranked.append((-weight, index, tag.replace("-", "_")))
    return ":".join(tag for _, _, tag in sorted(ranked))


class GuestServer(Server):
    """Serves the client to browsers (see the module docstring)."""

    def __init__(
        self,
        game: str,
        key: bytes,
        host: str = "0.0.0.0",
        port: int = 8080,
        max_guests: int = 20,
        max_per_address: int = 4,
        idle_seconds: float = 1800.0,
        allowed_hosts: tuple[str, ...] = (),
    ) -> None:
        super().__init__("maumau", host=host, port=port, title="maumau")
        self.game = game
        self.key = key
        self.max_guests = max_guests
        self.max_per_address = max_per_address
        self.idle_seconds = idle_seconds
        machine = socket.gethostname().lower()
        self.host_names = {
            "localhost",
            machine,
            machine.split(".")[0],
            machine.split(".")[0] + ".local",
            *(name.lower() for name in allowed_hosts),
        }
        self.guests: dict[web.WebSocketResponse, tuple[GuestService, str]] = {}
        self._reaper: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None

    # --- the pages ----------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        aiohttp_jinja2.setup(
            app, loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=jinja2.select_autoescape()
        )
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", STATICS, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def full_for(self, address: str) -> bool:
        """Whether a new tab from ``address`` would pass a cap."""
        if len(self.guests) >= self.max_guests:
            return True
        return sum(1 for _, peer in self.guests.values() if peer == address) >= self.max_per_address

    async def handle_index(self, request: web.Request) -> web.Response:
        if not self.known_host(request):
            return web.Response(status=421, text="maumau: not a name of this server\n")
        context = {"min_columns": MIN_COLUMNS, "max_guests": self.max_guests}
        if self.full_for(request.remote or ""):
            response = aiohttp_jinja2.render_template("full.html", request, context, status=503)
        else:
            response = aiohttp_jinja2.render_template("page.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' "
            "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'"
        )
        return response

    # --- the tabs -----------------------------------------------------------------------

    def known_host(self, request: web.Request) -> bool:
        """Whether the request names this machine: an IP address, or one of its names."""
        name = urlsplit(f"//{request.host}").hostname or ""
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name.rstrip(".").lower() in self.host_names
        return True

    def same_site(self, request: web.Request) -> bool:
        """A browser says which page opened the websocket: only this server's own."""
        origin = request.headers.get("Origin")
        return origin is None or urlsplit(origin).netloc == request.host

    def guest_environment(self, request: web.Request) -> dict[str, str]:
        return {
            "MAUMAU_WEB_GAME": self.game,
            "MAUMAU_WEB_KEY": self.key.hex(),
            "LANGUAGE": languages(request.headers.get("Accept-Language", "")) or "en",
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=64 * 1024)
        await websocket.prepare(request)
        address = request.remote or ""
        if not (self.known_host(request) and self.same_site(request)):
            log.warning("refused a tab from another site's page (%s)", address)
            await websocket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"other site")
            return websocket
        if self.full_for(address):
            log.warning("refused a tab from %s: the browser seats are taken", address)
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"full")
            return websocket
        width = _int(request.query.get("width"), 80)
        height = _int(request.query.get("height"), 24)

        async def close() -> None:
            await websocket.close()

        service = GuestService(
            environment=self.guest_environment(request),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
        )
        self.guests[websocket] = (service, address)
        try:
            await service.start(width, height)
            log.info("a tab from %s opened (guest process %s)", address, service.pid)
            await self._process_messages(websocket, service)
        except (asyncio.CancelledError, ConnectionError):
            pass
        except Exception:
            log.exception("a tab from %s failed", address)
        finally:
            # The tab's seat is free once its process has ended, not before: else tabs
            # opened and closed at once would run any number of processes.
            try:
                with contextlib.suppress(Exception):
                    await websocket.close()
                await service.stop()
            finally:
                del self.guests[websocket]
            log.info("a tab from %s closed (guest process %s ended)", address, service.pid)
        return websocket

    async def _process_messages(  # type: ignore[override]
        self, websocket: web.WebSocketResponse, app_service: GuestService
    ) -> None:
        """textual-serve's loop over the tab's messages, robust to what a page may send
        (anything that is not one of its messages is ignored)."""
        async for message in websocket:
            if message.type != web.WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind = envelope[0]
                if kind == "stdin" and isinstance(envelope[1], str):
                    await app_service.send_bytes(envelope[1].encode("utf-8"))
                elif kind == "resize":
                    width, height = int(envelope[1]["width"]), int(envelope[1]["height"])
                    if 1 <= width <= 1000 and 1 <= height <= 1000:
                        await app_service.set_terminal_size(width, height)
                elif kind == "ping":
                    await websocket.send_json(["pong", str(envelope[1])[:32]])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()
            except (ValueError, TypeError, KeyError, IndexError):
                continue

    async def reap_idle(self) -> None:
        """Close the tabs whose visitor has done nothing for :attr:`idle_seconds`."""
        while True:
            await asyncio.sleep(IDLE_CHECK_SECONDS)
            now = time.monotonic()
            for websocket, (service, address) in list(self.guests.items()):
                if now - service.last_input >= self.idle_seconds and not websocket.closed:
                    log.info("closing an idle tab from %s", address)
                    await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"idle")

    # --- start and stop -----------------------------------------------------------------

    async def on_startup(self, app: web.Application) -> None:
        self._reaper = asyncio.create_task(self.reap_idle())

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every tab's process (each bounded), then close their websockets."""
        if self._reaper is not None:
            self._reaper.cancel()
        guests = list(self.guests.items())
        await asyncio.gather(
            *(service.stop() for service, _ in (value for _, value in guests)),
            return_exceptions=True,
        )
        for websocket, _ in guests:
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")

    async def run(self, ready: Callable[[int], None] | None = None) -> None:
        """Serve until cancelled; ``ready`` gets the port once it listens."""
        runner = web.AppRunner(await self._make_app(), handle_signals=False)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host or None, self.port)
            await site.start()
            sockets = runner.addresses
            port = sockets[0][1] if sockets else self.port
            if ready is not None:
                ready(port)
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()


def _int(value: Any, default: int) -> int:
    try:
        return max(1, min(1000, int(value)))
    except (TypeError, ValueError):
        return default

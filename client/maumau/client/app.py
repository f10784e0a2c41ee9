"""The Textual app: one network worker, one view model, a screen per place.

Theory of operation
-------------------
:meth:`MauMauApp.network` is an ``@work`` task on the app's own asyncio loop. It
connects, sends ``hello`` (with the resume token after a drop), and turns every
server message into a :class:`ServerMessage` posted to the app. The handler folds
the message into the :class:`~maumau.client.model.Model` and tells the screen on top
to redraw; it also moves between the lobby and table screens when the server says
the player sat down or left.

A lost connection never ends the app: a banner says so, and the worker reconnects
with backoff using the resume token, so the table comes back as it was. A refused
hello (a taken name, a full server) goes back to the connect screen with the reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message as TextualMessage
from textual.widgets import Static

from maumau.protocol.messages import (
    Bye,
    ChatLine,
    CreateTable,
    Error,
    GameEvent,
    Lobby,
    MauDecision,
    Message,
    StartMatch,
    TableInfo,
    View,
    Welcome,
)

from . import config
from .model import Model
from .net import LinkClosed, ServerLink
from .screens import ConnectScreen, LobbyScreen, TableScreen

BACKOFF = (0.5, 1, 2, 4, 8)
ASCII_KEYS = {"⏎": "Enter", "←→": "<->", "⇥": "Tab", "↑": "Up", "↓": "Down"}


class ServerMessage(TextualMessage):
    """A message from the server, delivered on the app's loop."""

    def __init__(self, message: Message) -> None:
        super().__init__()
        self.message = message


class ConnectionChanged(TextualMessage):
    def __init__(self, text: str | None, fatal: bool = False) -> None:
        super().__init__()
        self.text = text
        self.fatal = fatal


class MauMauApp(App[None]):
    """maumau's terminal client."""

    CSS_PATH = Path(__file__).with_name("maumau.tcss")
    TITLE = "maumau"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        host: str | None,
        port: int | None,
        name: str,
        ascii_only: bool = False,
        on_welcome: Callable[[MauMauApp], object] | None = None,
        remember: bool = True,
    ) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.player = name
        self.ascii_only = ascii_only
        self.on_welcome = on_welcome
        self.remember = remember
        self.model = Model()
        self.link: ServerLink | None = None
        self.connected = False

    @property
    def server_label(self) -> str:
        return f"{self.host}:{self.port}" if self.host else ""

    def on_mount(self) -> None:
        self.mount(Static("", id="banner"))
        self.query_one("#banner", Static).display = False
        self.start()

    def start(self) -> None:
        """Connect, or ask where to."""
        if self.host and self.port:
            self.connect_to(self.host, self.port, self.player)
        else:
            saved = config.load()
            address = saved.get("server", "")
            self.push_screen(ConnectScreen(address, self.player or saved.get("name", "")))

    @staticmethod
    def parse_address(text: str) -> tuple[str, int] | None:
        host, _, port = text.strip().rpartition(":")
        host = host.strip("[]")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            return None
        return host, int(port)

    def connect_to(self, host: str, port: int, name: str) -> None:
        self.host, self.port, self.player = host, port, name
        self.model = Model()
        self.network()

    # --- the network worker -------------------------------------------------------

    @work(exclusive=True, group="net", exit_on_error=False)
    async def network(self) -> None:
        attempt = 0
        assert self.host is not None and self.port is not None
        while True:
            try:
                self.link = await ServerLink.open(
                    self.host, self.port, self.player, self.model.resume
                )
                await self.link.run(self._deliver)
            except LinkClosed as closed:
                self.link = None
                if self.connected:
                    attempt = 0  # it worked before this drop: start the backoff again
                self.connected = False
                fatal = closed.fatal_error
                if fatal is not None and fatal.code == "unknown_resume":
                    self.model.resume = None  # the server forgot us: start afresh
                    continue
                never_welcomed = self.model.resume is None
                refused = fatal is not None and fatal.code != "abuse"
                if refused or never_welcomed:
                    # A refused hello or an unreachable server: ask the player.
                    self.post_message(ConnectionChanged(closed.reason, fatal=True))
                    return
                delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
                attempt += 1
                self.post_message(
                    ConnectionChanged(
                        f"Connection lost ({closed.reason}); reconnecting in {delay:g} s"
                    )
                )
                await asyncio.sleep(delay)
            else:
                return

    def _deliver(self, message: Message) -> None:
        self.post_message(ServerMessage(message))

    async def send(self, message: Message) -> None:
        if self.link is None:
            self.show_error("Not connected; reconnecting...")
            return
        try:
            await self.link.send(message)
        except LinkClosed as closed:
            self.show_error(closed.reason)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            return ASCII_KEYS.get(shown, binding.key)
        return shown

    def show_error(self, text: str) -> None:
        """At the table, under the hand (next to what caused it); elsewhere a toast."""
        screen = self._table_screen()
        if screen is not None and self.screen is screen:
            screen.show_problem(text)
        else:
            self.notify(text, severity="warning", timeout=4)

    # --- messages from the worker ---------------------------------------------------

    def on_connection_changed(self, event: ConnectionChanged) -> None:
        banner = self.query_one("#banner", Static)
        if event.fatal:
            banner.display = False
            self.switch_to_connect(event.text or "")
            return
        banner.update(event.text or "")
        banner.display = bool(event.text)

    def switch_to_connect(self, message: str) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(ConnectScreen(self.server_label, self.player, message))

    async def on_server_message(self, event: ServerMessage) -> None:
        message = event.message
        model = self.model
        if not model.apply(message):
            return
        if isinstance(message, Welcome):
            self.connected = True
            self.query_one("#banner", Static).display = False
            if self.remember and self.host:
                config.save({"server": self.server_label, "name": message.name})
            if self.on_welcome is not None and not message.resumed:
                callback, self.on_welcome = self.on_welcome, None
                await callback(self)  # type: ignore[misc]
            return
        if isinstance(message, Lobby):
            if model.table is None:
                self.show_lobby()
        elif isinstance(message, TableInfo):
            self._show_table(full=True)
        elif isinstance(message, View):
            screen = self._table_screen()
            if screen is not None:
                screen.refresh_model()
            else:
                self._show_table(full=True)
        elif isinstance(message, (GameEvent, MauDecision)):
            screen = self._table_screen()
            if screen is not None:
                screen.add_log(message.text)
        elif isinstance(message, ChatLine):
            screen = self._table_screen()
            if message.scope == "table" and screen is not None:
                screen.add_chat(f"{message.sender}: {message.text}")
            lobby = self._lobby_screen()
            if message.scope == "lobby" and lobby is not None:
                lobby.refresh_model()
        elif isinstance(message, Error):
            if message.ref == "leave_table" or message.code == "not_at_table":
                model.left_table()
            self.show_error(message.message)

    def _table_screen(self) -> TableScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def _lobby_screen(self) -> LobbyScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                return screen
        return None

    def show_lobby(self) -> None:
        lobby = self._lobby_screen()
        if lobby is None:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.push_screen(LobbyScreen())
            return
        # Back from a table: close it (and its dialogs); dialogs over the lobby stay.
        while self._table_screen() is not None and len(self.screen_stack) > 1:
            self.pop_screen()
        lobby.refresh_model()

    def _show_table(self, full: bool) -> None:
        screen = self._table_screen()
        if screen is None:
            self.push_screen(TableScreen())
            return
        screen.refresh_model(full=full)

    async def action_quit(self) -> None:
        if self.link is not None:
            await self.send(Bye())
            self.link.close()
        self.exit()


async def create_local_table(app: MauMauApp, variant: str, bots: int) -> None:
    """After the welcome of ``--local`` play: make a table with bots and start it."""
    seats = bots + 1
    await app.send(
        CreateTable("Local", {"variant": variant, "seats": seats}, tuple(range(1, seats)))
    )
    await app.send(StartMatch())

"""The Textual app: one network worker, one view model, a screen per place.

Theory of operation
-------------------
:meth:`MauMauApp.network` is an ``@work`` task on the app's own asyncio loop. It
connects, sends ``hello`` (with the resume token after a drop), and turns every
server message into a :class:`ServerMessage` posted to the app. The handler folds
the message into the :class:`~maumau.client.model.Model` and tells the screen on top
to redraw; it also moves between the lobby and table screens when the server says
the player sat down or left.

A lost connection never ends the app: a banner on every screen says so, and the
worker reconnects with backoff using the resume token, so the table comes back as it
was. That holds across a server restart too (a crash included): a server that keeps
records knows the token again after it starts, and the worker keeps trying, every
few seconds, for as long as the app runs. Every ``hello`` carries the name's secret
from :mod:`maumau.client.config`; on a server that keeps records the secret also
takes the player's session back when the token is lost, so a client closed without
quitting (a closed terminal, a crash) is back at its table on its next run. If the
session is taken back by another client that way, this one is told so
(``goodbye``, "replaced") and does not fight for it. A refused hello (a taken name,
a name reserved by another player's secret, a full server) goes back to the connect
screen with the reason.

The records (leaderboard, history, replays; :mod:`maumau.client.records`) are
screens over the lobby. Their answers are folded into the model like everything
else, and the app tells each records screen that is open to redraw. With
``--replay MATCH`` the app shows only that replay: the lobby and tables the server
sends are kept in the model but not shown, and leaving the replay quits.

Whatever the server or other players wrote is shown as written, never as markup or
a terminal escape (:mod:`maumau.client.literal`): the link cleans each message, the
screens give their widgets ``Text``, and :meth:`MauMauApp.notify` never reads markup.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message as TextualMessage
from textual.notifications import SeverityLevel

from maumau.protocol.messages import (
    Bye,
    ChatLine,
    CreateTable,
    Error,
    GameEvent,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Replay,
    StartMatch,
    Stats,
    TableInfo,
    View,
    Welcome,
)

from . import config
from .literal import clean, literal
from .model import RECORDS_REQUESTS, Model
from .net import LinkClosed, ServerLink
from .records import (
    HistoryScreen,
    LeaderboardScreen,
    LoneReplayScreen,
    RecordsScreen,
    ReplayScreen,
)
from .screens import Banner, ConnectScreen, LobbyScreen, TableScreen

BACKOFF = (0.5, 1, 2, 4, 8)
PAUSED_TEXT = "Paused: the server cannot save (its disk may be full). Nothing is lost."
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
        replay: int | None = None,
    ) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.player = name
        self.ascii_only = ascii_only
        self.on_welcome = on_welcome
        self.remember = remember
        self.replay_match = replay  # maumau-client --replay: show only this match
        self.secret: str | None = None
        self.forgotten = False  # the server did not know our resume token any more
        self.quitting = False
        self.welcomed = False  # on this server, once: then a drop is worth retrying
        self.banner_text: str | None = None  # why the connection is down, while it is
        self.paused_text: str | None = None  # why the table is paused, while it is
        self.model = Model()
        self.link: ServerLink | None = None
        self.connected = False

    @property
    def server_label(self) -> str:
        return f"{self.host}:{self.port}" if self.host else ""

    def on_mount(self) -> None:
        self.start()

    def set_banner(self, text: str | None) -> None:
        """Show ``text`` at the top of every screen (None hides it); while there is
        none, the table's pause, if any, is shown there."""
        self.banner_text = text
        shown = self.shown_banner
        for screen in self.screen_stack:
            for banner in screen.query(Banner):
                banner.show(shown)

    @property
    def shown_banner(self) -> str | None:
        return self.banner_text or self.paused_text

    def set_paused(self, paused: str | None) -> None:
        """The table says whether it is paused (``table.paused``)."""
        text = PAUSED_TEXT if paused else None
        if text != self.paused_text:
            self.paused_text = text
            self.set_banner(self.banner_text)

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
        # The embedded server of --local keeps no records: no secret to keep for it.
        # --replay only watches: with the secret it would take the player's own
        # session over (seat included) from the client they play with, so it comes
        # as a viewer without a secret, under a name that reserves nothing.
        if self.replay_match is not None:
            self.player, self.secret = f"{name[:15].rstrip()} (replay)", None
        else:
            self.secret = config.secret_for(name) if self.remember else None
        self.model = Model()
        self.welcomed = False
        self.network()

    # --- the network worker -------------------------------------------------------

    @work(exclusive=True, group="net", exit_on_error=False)
    async def network(self) -> None:
        attempt = 0
        assert self.host is not None and self.port is not None
        while True:
            try:
                self.link = await ServerLink.open(
                    self.host, self.port, self.player, self.model.resume, self.secret
                )
                await self.link.run(self._deliver)
            except LinkClosed as closed:
                self.link = None
                if self.quitting:
                    return
                if self.connected:
                    attempt = 0  # it worked before this drop: start the backoff again
                self.connected = False
                fatal = closed.fatal_error
                if fatal is not None and fatal.code == "unknown_resume":
                    # The server forgot the token (it restarted without records, or
                    # the session was taken back with the secret elsewhere): hello
                    # afresh. With the secret that may still bring the seat back;
                    # otherwise it is the lobby.
                    self.forgotten = self.model.table is not None
                    self.model.resume = None
                    self.model.table = self.model.view = None
                    continue
                taken = fatal is not None and fatal.code in ("name_taken", "name_reserved")
                if taken and self.replay_match is not None and not self.welcomed:
                    # Only watching a replay: any other name will do.
                    self.player = f"viewer-{secrets.token_hex(3)}"
                    continue
                if closed.replaced:
                    # Another client took this session back (the same player, by the
                    # name's secret): it has the seat now; taking it back again would
                    # start a tug of war.
                    self.post_message(
                        ConnectionChanged(
                            "Another client took over this session (same name and secret).",
                            fatal=True,
                        )
                    )
                    return
                never_welcomed = not self.welcomed
                refused = fatal is not None and fatal.code != "abuse"
                if refused or never_welcomed:
                    # A refused hello or an unreachable server: ask the player.
                    reason = closed.reason
                    if fatal is not None and fatal.code == "name_reserved":
                        reason = f"The name {self.player} belongs to another player; pick another."
                    self.post_message(ConnectionChanged(reason, fatal=True))
                    return
                delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
                attempt += 1
                self.post_message(
                    ConnectionChanged(
                        f"Connection lost; reconnecting in {delay:g} s ({closed.reason})"
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

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A toast, its text shown as written: toasts often carry the server's words,
        so this client never has them read as markup (``markup`` is ignored)."""
        super().notify(
            clean(message), title=clean(title), severity=severity, timeout=timeout, markup=False
        )

    def show_error(self, text: str) -> None:
        """At the table, under the hand (next to what caused it); elsewhere a toast.
        ``text`` may hold the server's or the system's words: it is cleaned first."""
        text = clean(text)
        screen = self._table_screen()
        if screen is not None and self.screen is screen:
            screen.show_problem(text)
        else:
            self.notify(text, severity="warning", timeout=4)

    # --- messages from the worker ---------------------------------------------------

    def on_connection_changed(self, event: ConnectionChanged) -> None:
        if self.quitting or not self.is_running:
            return  # shutting down: the screens are going away
        if event.fatal and self.replay_match is not None:
            self.exit(return_code=1, message=literal(f"maumau-client: {event.text}"))
            return
        if event.fatal:
            self.set_banner(None)
            self.switch_to_connect(event.text or "")
            return
        self.set_banner(event.text)

    def switch_to_connect(self, message: str) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(ConnectScreen(self.server_label, self.player, message))

    async def on_server_message(self, event: ServerMessage) -> None:
        if not self.is_running:
            return  # shutting down: the screens are going away
        message = event.message
        model = self.model
        if not model.apply(message):
            return
        if isinstance(message, Welcome):
            self.connected = self.welcomed = True
            self.set_banner(None)
            if self.forgotten and not message.resumed:
                self.notify("The server forgot your session: back to the lobby.")
            self.forgotten = False
            if self.remember and self.host and self.replay_match is None:
                config.save({"server": self.server_label, "name": message.name})
            if self.on_welcome is not None and not message.resumed:
                callback, self.on_welcome = self.on_welcome, None
                await callback(self)  # type: ignore[misc]
            if self.replay_match is not None and not self._records_screens():
                self.push_screen(LoneReplayScreen(self.replay_match))
            for records in self._records_screens():
                records.reconnected()
            return
        if isinstance(message, (Stats, Matches, Replay)) or (
            isinstance(message, Error) and message.ref in RECORDS_REQUESTS
        ):
            screens = self._records_screens()
            for records in screens:
                records.refresh_records()
            if not screens and isinstance(message, Error):
                self.show_error(message.message)
            return
        if self.replay_match is not None:
            return  # only the replay is shown
        if isinstance(message, Lobby):
            if model.table is None:
                self.show_lobby()
        elif isinstance(message, TableInfo):
            self.set_paused(message.paused)
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
            if not (message.fatal and message.ref == "hello"):  # the connect screen says it
                self.show_error(message.message)

    def _records_screens(self) -> list[RecordsScreen]:
        return [s for s in self.screen_stack if isinstance(s, RecordsScreen)]

    def action_leaderboard(self) -> None:
        self.push_screen(LeaderboardScreen())

    def action_history(self) -> None:
        self.push_screen(HistoryScreen())

    def open_replay(self, summary: dict[str, Any]) -> None:
        """Replay a match from the history (its summary names the bots)."""
        self.push_screen(ReplayScreen(int(summary["id"]), summary))

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
        self.set_paused(None)  # a pause is the table's
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
        self.quitting = True  # the network worker must not report the close it sees
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

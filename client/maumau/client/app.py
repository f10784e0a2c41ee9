"""The Textual app: it owns the connection, the view model and the navigation.

Theory of operation
-------------------
The app owns a :class:`~maumau.client.connection.Connection`, run by the
:meth:`MauMauApp.network` worker on the app's own asyncio loop, which posts every
server message to the app (:class:`~maumau.client.connection.ServerMessage`) and
says when the connection is lost or refused
(:class:`~maumau.client.connection.ConnectionChanged`). What the app does with them
is the work of two parts that hold their own state, each with its theory:

- :class:`~maumau.client.app_connect.Connecting`: where the app connects and as
  whom (given, asked on the connect screen, a browser guest's login), a fresh
  :class:`~maumau.client.model.Model` for every connection, and what a refused
  connection or a ``welcome`` means (the connect screen again; the session
  remembered);
- :class:`~maumau.client.app_routes.Routes`: every server message held to the
  protocol's invariants, folded into the model, and shown: which screens redraw,
  and the moves between the lobby, the tables, a tournament and the records. A lost
  connection freezes the table and shows a banner on every screen while the
  connection reconnects, until the next ``welcome``.

The app itself keeps what every screen shares: the banner (a lost connection, a
paused table, a bot playing the player's seat), the minimum size (below it a screen
shows only what to do, and keys reach none), toasts and errors, and the Textual
handlers, which hand each request to its part. Screens never import the app. They
read its state through :class:`~maumau.client.host.Host` and post what they want done
(:mod:`maumau.client.screens.messages`): :meth:`on_to_server` sends a protocol
message, :meth:`on_connect_requested` connects, :meth:`on_table_left` goes back to
the lobby, :meth:`on_replay_requested` opens a replay. The parts see the app as a
:class:`~maumau.client.app_shell.Shell`.

Given ``exit_signals`` (the CLI and a browser guest give SIGTERM, SIGHUP and SIGINT),
an :class:`~maumau.client.exit_guard.ExitGuard` owns them and watches the terminal
from a thread of its own: a signal, or the terminal gone, ends the app as a quit does
(:meth:`MauMauApp.exit_on_signal`, no ``bye``: the seat is kept), and should that not
finish within a second (a terminal gone or not read blocks Textual's writes), the
guard ends the process.

With ``--replay MATCH`` the app shows only that replay, and leaving it quits. With
``--local`` (:mod:`maumau.client.local`) it plays against bots of an embedded server.

Whatever the server or other players wrote is shown as written, never as markup or
a terminal escape (:mod:`maumau.client.literal`): the link cleans each message, the
screens give their widgets ``Text``, and :meth:`MauMauApp.notify` never reads markup.

The server's host (protocol 9): with the server's host key (``host_key``, given by
the CLI only, never to a browser guest) every hello proves it, and a ``welcome``
with ``host`` gives the session the host's powers: H in the lobby opens the host
screen (:class:`~maumau.client.screens.host.HostScreen`).
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen

from maumau.protocol.messages import Back, Bye, Message

from .address import server_label
from .app_connect import Connecting
from .app_routes import Routes
from .connection import Connection, ConnectionChanged, ServerMessage
from .exit_guard import ExitGuard
from .i18n import N_, _
from .literal import ascii_fold, clean
from .model import Model
from .screens.help import LanguageChanged
from .screens.history import HistoryScreen
from .screens.leaderboard import LeaderboardScreen
from .screens.messages import (
    ConnectRequested,
    ReplayRequested,
    TableLeft,
    ToServer,
    TournamentClosed,
    TournamentWanted,
)
from .screens.replay import ReplayScreen
from .screens.table import TableScreen
from .screens.web_login import WebLoginRequested
from .widgets.banner import Banner
from .widgets.too_small import TooSmall, fits

PAUSED_TEXT = N_("Paused: the server cannot save (its disk may be full). Nothing is lost.")
HELD_TEXT = N_("Paused: the clock stands still while you read the help.")
AWAY_TEXT = N_("A bot plays for you: press any key to take your seat back.")

ASCII_KEYS = {"⏎": "Enter", "←→": "<->", "⇥": "Tab", "↑": "Up", "↓": "Down"}


def ascii_driver(base: type[Driver]) -> type[Driver]:
    """``base`` (the terminal's driver), writing only ASCII: under ``--ascii`` (or a
    terminal that is not UTF-8) whatever is drawn, other people's words and the
    catalogs' accents included, reaches the terminal folded to ASCII of the same width
    (:func:`~maumau.client.literal.ascii_fold`), the last guard behind the screens'
    own ASCII drawing."""

    class AsciiDriver(base):  # type: ignore[valid-type,misc]
        def write(self, data: str) -> None:
            super().write(ascii_fold(data))

    return AsciiDriver


class MauMauApp(App[None]):
    """maumau's terminal client."""

    CSS_PATH = Path(__file__).with_name("maumau.tcss")
    TITLE = "maumau"
    ENABLE_COMMAND_PALETTE = False
    # Whether the connect screen lists the servers announced on the LAN (set by
    # maumau-client started without an address; off in tests and for web guests).
    discover = False

    def __init__(
        self,
        host: str | None,
        port: int | None,
        name: str,
        ascii_only: bool = False,
        on_welcome: Callable[[MauMauApp], Awaitable[object]] | None = None,
        remember: bool = True,
        replay: int | None = None,
        local: bool = False,
        web_key: bytes | None = None,
        host_key: bytes | None = None,
        key_only_here: bool = False,
    ) -> None:
        super().__init__()
        if ascii_only:
            self.driver_class = ascii_driver(self.driver_class)
        self.connection = Connection(self.post_message)
        self.connection.host, self.connection.port = host, port
        self.connection.name = name
        self.connection.replay_only = replay is not None
        # The server's host key (maumau-client --admin-key, or the key file of a server
        # on this machine): every hello proves it. Never a browser guest's.
        self.connection.host_key = host_key if web_key is None else None
        self.connection.key_only_here = key_only_here  # (the key file found, not given)
        self.ascii_only = ascii_only
        self.replay_match = replay  # maumau-client --replay: show only this match
        self.replay_password: str | None = None  # --password: the replayed match's table's
        self.local = local  # maumau-client --local (see Host.local)
        self.back_sent = False  # "back" is on its way (until the next table message)
        self.banner_text: str | None = None  # why the connection is down, while it is
        self.paused_text: str | None = None  # why the table is paused, while it is
        self.model = Model()
        self.connecting = Connecting(self, remember, web_key, on_welcome)
        self.routes = Routes(self, self.connecting.welcomed)
        # Signals that end the app as a quit does, the terminal restored (set by the
        # CLI: SIGTERM, SIGINT, and SIGHUP when the terminal or the SSH connection goes
        # away). With any, an ExitGuard also ends the app when its terminal is gone,
        # and ends the process if the app's own exit does not finish in time.
        self.exit_signals: tuple[signal.Signals, ...] = ()
        # Called (each at most a moment) before the guard ends the process by force.
        self.last_words: list[Callable[[], object]] = []
        self.exit_guard: ExitGuard | None = None

    @property
    def server_label(self) -> str:
        return server_label(self.connection.host, self.connection.port)

    def on_mount(self) -> None:
        if self.exit_signals and os.name == "posix":
            self.exit_guard = ExitGuard(
                self.exit_signals,
                self.exit_on_signal,
                last_words=[self.restore_terminal_modes, *self.last_words],
            )
            self.exit_guard.start(asyncio.get_running_loop())
        self.screen_change_signal.subscribe(self, self._check_size)
        self.start()

    def exit_on_signal(self, signum: signal.Signals) -> None:
        """An exit signal, or the terminal gone (as SIGHUP): leave as Textual does on
        quit (alternate screen left, cursor and mouse modes reset), without saying bye:
        the server keeps the seat for the player's return, as after any dropped
        connection. Should this not finish in time (the terminal gone or not read),
        the :class:`~maumau.client.exit_guard.ExitGuard` ends the process."""
        self.connection.quitting = True
        if self.connection.link is not None:
            self.connection.link.close()
        self.exit(return_code=128 + signum)

    def restore_terminal_modes(self) -> None:
        """Put the terminal's modes back as they were before the app (echo, lines,
        signals), as the guard's last words: ``TCSANOW`` does not wait for the output
        that nobody reads. Nothing for a driver that changed none."""
        import termios  # (POSIX only, as the guard)

        attrs = getattr(self._driver, "attrs_before", None)
        fileno = getattr(self._driver, "fileno", None)
        if attrs is not None and isinstance(fileno, int):
            termios.tcsetattr(fileno, termios.TCSANOW, attrs)

    # --- the minimum size -----------------------------------------------------------

    @property
    def too_small(self) -> bool:
        """Whether the terminal is below the size the screens are laid out for."""
        return not fits(*self.size)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(self.screen, event.size.width, event.size.height)

    def _check_size(
        self, screen: Screen[object], width: int | None = None, height: int | None = None
    ) -> None:
        """Below the minimum size, the current screen shows only what to do (a
        :class:`TooSmall` in place of everything else), until the terminal is large
        enough again."""
        if width is None or height is None:
            width, height = self.size
        if fits(width, height):
            for shown in self.screen_stack:
                shown.remove_class("too-small")
                shown.query(TooSmall).remove()
            return
        covers = screen.query_children(TooSmall)
        if covers:
            covers.first().show(width, height)
        else:
            screen.mount(TooSmall(width, height))
        screen.add_class("too-small")  # the stylesheet hides everything else on it

    async def on_event(self, event: events.Event) -> None:
        """While the terminal is too small, keys reach no screen (nothing a player
        cannot see is done by a key they press); Ctrl+C and Ctrl+Q still quit."""
        if (
            isinstance(event, events.Key)
            and self.too_small
            and event.key not in ("ctrl+c", "ctrl+q")
        ):
            return
        if (
            isinstance(event, events.Key)
            and self.model.away
            and not self.model.offline
            and isinstance(self.screen, TableScreen)
            and event.key not in ("ctrl+c", "ctrl+q")
        ):
            # A bot plays for the player: any key takes the seat back, and only that.
            if not self.back_sent:
                self.back_sent = True
                await self.send(Back())
            return
        await super().on_event(event)

    # --- what every screen shows ------------------------------------------------------

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

    def set_paused(self, paused: str | None, away: bool = False) -> None:
        """The table says whether it is paused (``table.paused``: the server cannot
        save, or the player stopped its clock) or a bot plays the player's seat
        (``away``): the banner says so."""
        text = None
        if paused == "cannot_save":
            text = _(PAUSED_TEXT)
        elif away:
            text = _(AWAY_TEXT)
        elif paused:
            text = _(HELD_TEXT)
        if text != self.paused_text:
            self.paused_text = text
            self.set_banner(self.banner_text)

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
        screen = self.routes.find(TableScreen)
        if screen is not None and self.screen is screen:
            screen.show_problem(text)
        else:
            self.notify(text, severity="warning", timeout=4)

    # --- the connection ---------------------------------------------------------------

    def start(self) -> None:
        """Connect, or ask where to (a browser guest: as whom)."""
        self.connecting.start()

    @work(exclusive=True, group="net", exit_on_error=False)
    async def network(self) -> None:
        await self.connection.run(self.model)

    async def send(self, message: Message) -> None:
        problem = await self.connection.send(message)
        if problem is not None:
            self.show_error(problem)

    def on_connection_changed(self, event: ConnectionChanged) -> None:
        if self.connection.quitting or not self.is_running:
            return  # shutting down: the screens are going away
        if event.fatal:
            self.connecting.refused(event)
        else:
            self.routes.frozen(event.text)

    async def on_server_message(self, event: ServerMessage) -> None:
        if not self.is_running:
            return  # shutting down: the screens are going away
        await self.routes.arrived(event.message)

    # --- what the screens ask ---------------------------------------------------------

    async def on_to_server(self, event: ToServer) -> None:
        await self.send(event.message)

    def on_connect_requested(self, event: ConnectRequested) -> None:
        self.connecting.requested(event)

    def on_web_login_requested(self, event: WebLoginRequested) -> None:
        self.connecting.web_login(event)

    def on_table_left(self, event: TableLeft) -> None:
        self.routes.table_left()

    def on_tournament_wanted(self, event: TournamentWanted) -> None:
        self.routes.tournament_wanted(event.tournament, event.password)

    def on_tournament_closed(self, event: TournamentClosed) -> None:
        if event.unfollow:
            self.model.unfollow()

    def on_replay_requested(self, event: ReplayRequested) -> None:
        """Replay a match from the history (its summary names the bots)."""
        self.push_screen(ReplayScreen(int(event.summary["id"]), event.summary))

    def action_leaderboard(self) -> None:
        self.push_screen(LeaderboardScreen())

    def action_history(self) -> None:
        self.push_screen(HistoryScreen())

    def on_language_changed(self, event: LanguageChanged) -> None:
        """Another language was chosen: every screen is drawn again in it (see
        :meth:`~maumau.client.app_routes.Routes.language_changed`), the banner too."""
        self.paused_text = None
        self.routes.language_changed()

    async def action_quit(self) -> None:
        self.connection.quitting = True  # the network worker must not report the close
        if self.connection.link is not None:
            await self.send(Bye())
            self.connection.link.close()
        self.exit()

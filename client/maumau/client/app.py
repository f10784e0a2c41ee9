"""The Textual app: it owns the connection, the view model and the navigation.

Theory of operation
-------------------
The app owns a :class:`~maumau.client.connection.Connection`, run by the
:meth:`MauMauApp.network` worker on the app's own asyncio loop, which posts every
server message to the app (:class:`~maumau.client.connection.ServerMessage`) and
says when the connection is lost or refused
(:class:`~maumau.client.connection.ConnectionChanged`). :meth:`on_server_message`
first holds each message to the protocol's invariants
(:func:`maumau.client.checks.admitted`: one that breaks them is skipped and
logged), then folds it into the :class:`~maumau.client.model.Model` and tells the
screens that show it to redraw; it also moves between the lobby and table screens
when the server says the player sat down or left. When the server moves the player
to another table (a ``table`` message for another id than the one shown: the next
series of a tournament), the old table's screen goes with every dialog over it (a
"Leave this table?" answered there would leave the new table), and so does a
question left open over the screen the table covers ("Withdraw from the
tournament?"); the new table gets a screen of its own. A lost connection shows a banner
on every screen while the connection reconnects, and freezes the table (the model
is ``offline``: no move is offered, the turn's countdown stops) until the next
``welcome`` and the views after it; a refused one goes back to the connect screen
with the reason. Every ``hello`` carries the name's secret from
:mod:`maumau.client.config` (a server that keeps records then gives the player's
session back after a crash or a closed terminal).

Screens never import the app. They read its state through
:class:`~maumau.client.host.Host` and post what they want done
(:mod:`maumau.client.screens.messages`): :meth:`on_to_server` sends a protocol
message, :meth:`on_connect_requested` connects, :meth:`on_table_left` goes back to
the lobby, :meth:`on_replay_requested` opens a replay.

Tournaments: the lobby or the new-tournament dialog say which tournament the player
asked for (:class:`~maumau.client.screens.messages.TournamentWanted`), and the app
shows its screen when the server's ``tournament`` message answers (a refusal says
why instead). While the player follows a tournament every ``tournament`` message
redraws that screen; a series' ``table`` message takes the player to the table over
it, and leaving a table while following a tournament comes back to its screen.

The records (leaderboard, history, replays) are screens over the lobby. Their
answers are folded into the model like everything else, and the app tells each
records screen that is open to redraw. With ``--replay MATCH`` the app shows only
that replay: the lobby and tables the server sends are kept in the model but not
shown, and leaving the replay quits.

Whatever the server or other players wrote is shown as written, never as markup or
a terminal escape (:mod:`maumau.client.literal`): the link cleans each message, the
screens give their widgets ``Text``, and :meth:`MauMauApp.notify` never reads markup.

The server's host (protocol 9): with the server's host key (``host_key``, given by
the CLI only, never to a browser guest) every hello proves it, and a ``welcome``
with ``host`` gives the session the host's powers: H in the lobby opens the host
screen (:class:`~maumau.client.screens.host.HostScreen`), redrawn at every
``host_view``. What the host does to a player arrives as a ``notice``: folded into
the model (an announcement joins the chats, a closed table is left) and said in a
toast here; a closed table's player is taken to the lobby.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen

from maumau.protocol.messages import (
    Back,
    Bye,
    ChatLine,
    CreateTable,
    Error,
    GameEvent,
    HostView,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Notice,
    Replay,
    Stats,
    TableInfo,
    Tournament,
    View,
    Welcome,
)

from . import config
from .address import server_label
from .checks import admitted
from .connection import Connection, ConnectionChanged, ServerMessage
from .i18n import N_, _
from .literal import ascii_fold, clean, literal
from .model import Model
from .model_records import RECORDS_REQUESTS
from .screens.confirm import ConfirmScreen
from .screens.connect import ConnectScreen
from .screens.help import LanguageChanged
from .screens.history import HistoryScreen
from .screens.host import HostScreen
from .screens.leaderboard import LeaderboardScreen
from .screens.lobby import LobbyScreen
from .screens.messages import (
    ConnectRequested,
    ReplayRequested,
    TableLeft,
    ToServer,
    TournamentClosed,
    TournamentWanted,
)
from .screens.records_base import RecordsScreen
from .screens.replay import LoneReplayScreen, ReplayScreen
from .screens.table import TableScreen
from .screens.tournament import TournamentScreen
from .screens.web_login import WebLoginRequested, WebLoginScreen
from .widgets.banner import Banner
from .widgets.too_small import TooSmall, fits
from .words import error_line

S = TypeVar("S")
PAUSED_TEXT = N_("Paused: the server cannot save (its disk may be full). Nothing is lost.")
HELD_TEXT = N_("Paused: the clock stands still while you read the help.")
AWAY_TEXT = N_("A bot plays for you: press any key to take your seat back.")

# The requests a ``tournament`` message answers: a refusal of one shows no screen.
TOURNAMENT_REQUESTS = ("watch_tournament", "create_tournament", "join_tournament")

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


def error_text(error: Error) -> str:
    """A refusal in the player's language (from its code and ``details``)."""
    return error_line(error.code, error.details, error.message)


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
        on_welcome: Callable[[MauMauApp], object] | None = None,
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
        self.on_welcome = on_welcome
        self.remember = remember
        self.replay_match = replay  # maumau-client --replay: show only this match
        self.replay_password: str | None = None  # --password: the replayed match's table's
        self.local = local  # maumau-client --local (see Host.local)
        # A browser guest's client (maumau-web): the server is fixed, the name and PIN
        # asked in the page, the name's secret derived from them with this key.
        self.web_key = web_key
        self.back_sent = False  # "back" is on its way (until the next table message)
        self.banner_text: str | None = None  # why the connection is down, while it is
        self.paused_text: str | None = None  # why the table is paused, while it is
        self.model = Model()
        # A tournament's screen asked for (its id, None: the one being created), shown
        # when the server's ``tournament`` answers.
        self.wants_tournament = False
        self.wanted_tournament: int | None = None
        # Signals that end the app as a quit does, the terminal restored (set by the
        # CLI: SIGTERM, and SIGHUP when the terminal or the SSH connection goes away).
        self.exit_signals: tuple[signal.Signals, ...] = ()

    @property
    def server_label(self) -> str:
        return server_label(self.connection.host, self.connection.port)

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in self.exit_signals:
            loop.add_signal_handler(signum, self.exit_on_signal, signum)
        self.screen_change_signal.subscribe(self, self._check_size)
        self.start()

    def exit_on_signal(self, signum: signal.Signals) -> None:
        """SIGTERM or SIGHUP: leave as Textual does on quit (alternate screen left,
        cursor and mouse modes reset), without saying bye: the server keeps the seat
        for the player's return, as after any dropped connection."""
        self.connection.quitting = True
        if self.connection.link is not None:
            self.connection.link.close()
        self.exit(return_code=128 + signum)

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

    def start(self) -> None:
        """Connect, or ask where to (a browser guest: as whom)."""
        host, port, name = self.connection.host, self.connection.port, self.connection.name
        if self.web_key is not None:
            self.push_screen(WebLoginScreen(self.server_label, name))
        elif host and port:
            self.connect_to(host, port, name)
        else:
            saved = config.load()
            address = saved.get("server", "")
            self.push_screen(
                ConnectScreen(address, name or saved.get("name", ""), discover=self.discover)
            )

    def connect_to(self, host: str, port: int, name: str, password: str | None = None) -> None:
        # The embedded server of --local keeps no records: no secret to keep for it.
        # --replay only watches: with the secret it would take the player's own
        # session over (seat included) from the client they play with, so it comes
        # as a viewer without a secret, under a name that reserves nothing.
        if self.replay_match is not None:
            self.connection.aim(host, port, f"{name[:15].rstrip()} (replay)", None, password)
        else:
            secret = config.secret_for(name) if self.remember else None
            self.connection.aim(host, port, name, secret, password)
        self.model = Model()
        self.network()

    @work(exclusive=True, group="net", exit_on_error=False)
    async def network(self) -> None:
        await self.connection.run(self.model)

    async def send(self, message: Message) -> None:
        problem = await self.connection.send(message)
        if problem is not None:
            self.show_error(problem)

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
        screen = self._find(TableScreen)
        if screen is not None and self.screen is screen:
            screen.show_problem(text)
        else:
            self.notify(text, severity="warning", timeout=4)

    # --- what the screens ask ---------------------------------------------------------

    async def on_to_server(self, event: ToServer) -> None:
        await self.send(event.message)

    def on_connect_requested(self, event: ConnectRequested) -> None:
        if self.web_key is not None:
            return  # a browser guest plays on the host's server only
        password = event.password
        same = (event.host, event.port) == (self.connection.host, self.connection.port)
        if password is None and same:
            password = self.connection.password  # the one typed for this server before
        self.connect_to(event.host, event.port, event.name, password)

    def on_web_login_requested(self, event: WebLoginRequested) -> None:
        """A browser guest's name and PIN: connect to the one server there is, with
        the secret they derive (see :mod:`maumau.client.web.identity`)."""
        from .web.identity import name_secret

        host, port = self.connection.host, self.connection.port
        if self.web_key is None or not host or not port:
            return
        self.connection.name = event.name
        secret = name_secret(event.name, event.pin, self.web_key)
        self.connection.aim(host, port, event.name, secret, event.password)
        self.model = Model()
        self.network()

    def on_table_left(self, event: TableLeft) -> None:
        self.model.left_table()
        self.show_lobby()
        if self.model.tournament is not None:
            self.show_tournament()  # the player follows one: back to its screen

    def on_tournament_wanted(self, event: TournamentWanted) -> None:
        self.model.follow(event.password)
        self.wants_tournament = True
        self.wanted_tournament = event.tournament

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

    # --- what the connection says -------------------------------------------------------

    def on_connection_changed(self, event: ConnectionChanged) -> None:
        if self.connection.quitting or not self.is_running:
            return  # shutting down: the screens are going away
        if event.fatal and self.replay_match is not None:
            self.exit(return_code=1, message=literal(f"maumau-client: {event.text}"))
            return
        if event.fatal:
            self.set_banner(None)
            self.model.offline = False
            self.switch_to_connect(event.text or "", event.password)
            return
        self.model.lost_connection()
        self.set_banner(event.text)
        table = self._find(TableScreen)
        if table is not None:
            table.refresh_model()  # frozen: the moves' keys off, the countdown stopped
        tournament = self._find(TournamentScreen)
        if tournament is not None:
            tournament.refresh_model()  # its keys off while nothing reaches the server

    def switch_to_connect(self, message: str, ask_password: bool = False) -> None:
        """Back to the connect screen, saying why; ``ask_password``: the server wants
        its password (the screen asks for it)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        if self.web_key is not None:  # a browser guest may not choose another server
            self.push_screen(
                WebLoginScreen(self.server_label, self.connection.name, message, ask_password)
            )
            return
        self.push_screen(
            ConnectScreen(
                self.server_label, self.connection.name, message, self.discover, ask_password
            )
        )

    async def on_server_message(self, event: ServerMessage) -> None:
        if not self.is_running:
            return  # shutting down: the screens are going away
        model = self.model
        message = admitted(event.message, model.seats_of(event.message))
        if message is None:
            return  # it breaks the protocol's invariants: skipped (and logged)
        was = model.tournament.info.state if model.tournament is not None else None
        if not model.apply(message):
            return
        if isinstance(message, Welcome):
            await self._welcomed(message)
            return
        if isinstance(message, (Stats, Matches, Replay)) or (
            isinstance(message, Error) and message.ref in RECORDS_REQUESTS
        ):
            screens = self._records_screens()
            for records in screens:
                records.refresh_records()
            if not screens and isinstance(message, Error):
                self.show_error(error_text(message))
            return
        if self.replay_match is not None:
            return  # only the replay is shown
        table = self._find(TableScreen)
        if isinstance(message, Lobby):
            if model.table is None and not self.local:
                self.show_lobby()  # (--local shows only its table: leaving it quits)
        elif isinstance(message, TableInfo):
            self.back_sent = False
            self.set_paused(message.paused, model.away)
            self._show_table(full=True)
        elif isinstance(message, View):
            if table is not None:
                table.refresh_model()
            else:
                self._show_table(full=True)
        elif isinstance(message, Tournament):
            self._tournament_arrived(message, was)
        elif isinstance(message, HostView):
            host_screen = self._find(HostScreen)
            if host_screen is not None:
                host_screen.refresh_model()
        elif isinstance(message, Notice):
            self._noticed(message, table)
        elif isinstance(message, (GameEvent, MauDecision)):
            if table is not None:
                table.add_log(model.log[-1])
        elif isinstance(message, ChatLine):
            if message.scope == "table" and table is not None:
                table.add_chat(f"{message.sender}: {message.text}")
            lobby = self._find(LobbyScreen)
            if message.scope == "lobby" and lobby is not None:
                lobby.refresh_model()
        elif isinstance(message, Error):
            if message.ref in TOURNAMENT_REQUESTS:
                self.wants_tournament = False
            if message.ref == "leave_table" or message.code == "not_at_table":
                model.left_table()
            if not (message.fatal and message.ref == "hello"):  # the connect screen says it
                self.show_error(error_text(message))

    def _noticed(self, notice: Notice, table: TableScreen | None) -> None:
        """What the host did that concerns this player (folded into the model
        already), said in a toast; an announcement is in the chats too, and a
        closed table's player goes to the lobby."""
        text = self.model.notice_text(notice)
        if notice.kind == "announcement":
            self.notify(text, timeout=15)
            lobby = self._find(LobbyScreen)
            if lobby is not None:
                lobby.refresh_model()
            if table is not None and self.model.table is not None:
                table.add_chat(text)
        elif notice.kind == "table_closed":
            if self.model.table is None and table is not None:
                self.show_lobby()
            self.notify(text, severity="warning", timeout=10)
        elif notice.kind == "muted":
            self.notify(text, severity="warning", timeout=10)
        elif text:
            self.notify(text, timeout=10)

    def _tournament_arrived(self, message: Tournament, was: str | None = None) -> None:
        """Redraw the tournament's screen, or show it if the player asked for it. When
        the final starts and the player, not in it, is elsewhere (in the lobby, at
        another table), a toast says so: nothing else would tell them."""
        screen = self._find(TournamentScreen)
        wanted = self.wants_tournament and self.wanted_tournament in (None, message.id)
        if wanted:
            self.wants_tournament = False
        if screen is not None:
            screen.refresh_model()
        elif wanted and self.model.table is None:
            self.show_tournament()
        if message.state == "final" and was not in (None, "final") and self.screen is not screen:
            following = self.model.tournament
            me = following.me() if following is not None else None
            if me is None or me.get("table") is None:
                text = _("The final of {name} has started: t in the lobby opens it, to watch.")
                self.notify(text.format(name=message.name), timeout=8)

    async def _welcomed(self, message: Welcome) -> None:
        self.set_banner(None)  # (the model is back online: Model.apply)
        table = self._find(TableScreen)
        if table is not None:
            table.refresh_model()
        tournament = self._find(TournamentScreen)
        if tournament is not None:
            tournament.refresh_model()
        if self.connection.welcome(message.resumed):
            self.notify(_("The server forgot your session: back to the lobby."))
        if not self.model.is_host:  # (no longer) the host: the host screen goes
            while self._find(HostScreen) is not None and len(self.screen_stack) > 1:
                self.pop_screen()
        lobby = self._find(LobbyScreen)
        if lobby is not None:
            lobby.refresh_bindings()  # H and X are the host's keys
        if self.remember and self.connection.host and self.replay_match is None:
            config.save({"server": self.server_label, "name": message.name})
        if self.on_welcome is not None and not message.resumed:
            callback, self.on_welcome = self.on_welcome, None
            await callback(self)  # type: ignore[misc]
        if self.replay_match is not None and not self._records_screens():
            self.push_screen(LoneReplayScreen(self.replay_match, password=self.replay_password))
        for records in self._records_screens():
            records.reconnected()

    # --- places -------------------------------------------------------------------------

    def _records_screens(self) -> list[RecordsScreen]:
        return [s for s in self.screen_stack if isinstance(s, RecordsScreen)]

    def _find(self, kind: type[S]) -> S | None:
        """The screen of this kind in the stack, if one is open."""
        for screen in self.screen_stack:
            if isinstance(screen, kind):
                return screen
        return None

    def show_lobby(self) -> None:
        self.set_paused(None)  # a pause is the table's
        lobby = self._find(LobbyScreen)
        if lobby is None:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.push_screen(LobbyScreen())
            return
        # Back from a table: close it (and its dialogs); dialogs over the lobby stay.
        while self._find(TableScreen) is not None and len(self.screen_stack) > 1:
            self.pop_screen()
        lobby.refresh_model()

    def show_tournament(self) -> None:
        """The followed tournament's screen, over the lobby (drawn again if open)."""
        screen = self._find(TournamentScreen)
        if screen is not None:
            screen.refresh_model()
            return
        if self._find(LobbyScreen) is None:
            self.show_lobby()
        self.push_screen(TournamentScreen())

    def _show_table(self, full: bool) -> None:
        screen = self._find(TableScreen)
        shown = self.model.table.id if self.model.table is not None else None
        if screen is not None and screen.table_id not in (None, shown):
            # Another table: the old one's screen goes, with the dialogs over it.
            while self._find(TableScreen) is not None and len(self.screen_stack) > 1:
                self.pop_screen()
            screen = None
        if screen is None:
            # A question left open over the screen the table covers is stale too.
            while isinstance(self.screen, ConfirmScreen) and len(self.screen_stack) > 1:
                self.pop_screen()
            self.push_screen(TableScreen(shown))
            return
        screen.refresh_model(full=full)

    def on_language_changed(self, event: LanguageChanged) -> None:
        """Another language was chosen (on the help screen): every screen in the stack
        is drawn again in it, with its footer of keys. The lines of the table's log
        are written again in it, from what they were written from (the chat is
        people's own words); a complaint under the hand goes, as after a move."""
        self.model.rewrite_log()
        paused = self.model.table.paused if self.model.table is not None else None
        self.paused_text = None
        if self._find(TableScreen) is not None:
            self.set_paused(paused, self.model.away)
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.drop_problem()
                screen.refresh_model(full=True)
            elif isinstance(screen, LobbyScreen | TournamentScreen):
                screen.refresh_model()
            elif isinstance(screen, RecordsScreen):
                screen.refresh_records()
            screen.refresh_bindings()

    async def action_quit(self) -> None:
        self.connection.quitting = True  # the network worker must not report the close
        if self.connection.link is not None:
            await self.send(Bye())
            self.connection.link.close()
        self.exit()


async def create_local_table(app: MauMauApp, variant: str, bots: int) -> None:
    """After the welcome of ``--local`` play: make a table with bots (the table
    screen starts its match once it is shown: nobody plays before the player sees
    the table)."""
    seats = bots + 1
    await app.send(
        CreateTable("Local", {"variant": variant, "seats": seats}, tuple(range(1, seats)))
    )

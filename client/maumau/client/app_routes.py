"""Which screens each server message shows or redraws, and the way between them.

Theory of operation
-------------------
:meth:`Routes.arrived` takes every server message the connection delivers. It first
holds the message to the protocol's invariants (:func:`maumau.client.checks.admitted`:
one that breaks them is skipped and logged), then folds it into the
:class:`~maumau.client.model.Model` and tells the screens that show it to redraw; it
also moves between the lobby and table screens when the server says the player sat
down or left. When the server moves the player to another table (a ``table``
message for another id than the one shown: the next series of a tournament), the
old table's screen goes with every dialog over it (a "Leave this table?" answered
there would leave the new table), and so does a question left open over the screen
the table covers ("Withdraw from the tournament?"); the new table gets a screen of
its own. A dropped connection freezes the table and the tournament's keys
(:meth:`Routes.frozen`) until the next ``welcome`` (:meth:`Routes.welcomed`), which
also gives the records screens their requests again.

Tournaments: the lobby or the new-tournament dialog say which tournament the player
asked for (:meth:`Routes.tournament_wanted`), and the tournament's screen is shown
when the server's ``tournament`` message answers (a refusal says why instead).
While the player follows a tournament every ``tournament`` message redraws that
screen; a series' ``table`` message takes the player to the table over it, and
leaving a table while following a tournament comes back to its screen.

The records (leaderboard, history, replays) are screens over the lobby: each open
one redraws at its answers. With ``--replay MATCH`` only that replay is shown: the
lobby and tables the server sends are kept in the model but not shown.

What the host does to a player arrives as a ``notice``: folded into the model (an
announcement joins the chats, a closed table is left) and said in a toast here; a
closed table's player is taken to the lobby. The host screen redraws at every
``host_view``, and goes when a ``welcome`` says the session is not the host's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from maumau.protocol.messages import (
    ChatLine,
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

from .app_shell import Shell
from .checks import admitted
from .i18n import _
from .model_records import RECORDS_REQUESTS
from .screens.confirm import ConfirmScreen
from .screens.host import HostScreen
from .screens.lobby import LobbyScreen
from .screens.records_base import RecordsScreen
from .screens.replay import LoneReplayScreen
from .screens.table import TableScreen
from .screens.tournament import TournamentScreen
from .words import error_line

S = TypeVar("S")

# The requests a ``tournament`` message answers: a refusal of one shows no screen.
TOURNAMENT_REQUESTS = ("watch_tournament", "create_tournament", "join_tournament")


def error_text(error: Error) -> str:
    """A refusal in the player's language (from its code and ``details``)."""
    return error_line(error.code, error.details, error.message)


class Routes:
    """The screens of the app's stack, as the server's messages move them."""

    def __init__(self, app: Shell, welcomed: Callable[[Welcome], Awaitable[None]]) -> None:
        self.app = app
        self.connection_welcomed = welcomed  # what a welcome means to the connection
        # A tournament's screen asked for (its id, None: the one being created), shown
        # when the server's ``tournament`` answers.
        self.wants_tournament = False
        self.wanted_tournament: int | None = None

    # --- the places ----------------------------------------------------------------------

    def find(self, kind: type[S]) -> S | None:
        """The screen of this kind in the stack, if one is open."""
        for screen in self.app.screen_stack:
            if isinstance(screen, kind):
                return screen
        return None

    def records_screens(self) -> list[RecordsScreen]:
        return [s for s in self.app.screen_stack if isinstance(s, RecordsScreen)]

    def _pop_while(self, still: Callable[[], bool]) -> None:
        """Close the screen on top while ``still`` holds (the lowest one stays)."""
        while still() and len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def show_lobby(self) -> None:
        self.app.set_paused(None)  # a pause is the table's
        lobby = self.find(LobbyScreen)
        if lobby is None:
            self._pop_while(lambda: True)
            self.app.push_screen(LobbyScreen())
            return
        # Back from a table: close it (and its dialogs); dialogs over the lobby stay.
        self._pop_while(lambda: self.find(TableScreen) is not None)
        lobby.refresh_model()

    def show_tournament(self) -> None:
        """The followed tournament's screen, over the lobby (drawn again if open)."""
        screen = self.find(TournamentScreen)
        if screen is not None:
            screen.refresh_model()
            return
        if self.find(LobbyScreen) is None:
            self.show_lobby()
        self.app.push_screen(TournamentScreen())

    def show_table(self, full: bool) -> None:
        screen = self.find(TableScreen)
        model = self.app.model
        shown = model.table.id if model.table is not None else None
        if screen is not None and screen.table_id not in (None, shown):
            # Another table: the old one's screen goes, with the dialogs over it.
            self._pop_while(lambda: self.find(TableScreen) is not None)
            screen = None
        if screen is None:
            # A question left open over the screen the table covers is stale too.
            self._pop_while(lambda: isinstance(self.app.screen, ConfirmScreen))
            self.app.push_screen(TableScreen(shown))
            return
        screen.refresh_model(full=full)

    # --- what the screens ask --------------------------------------------------------

    def table_left(self) -> None:
        self.app.model.left_table()
        self.show_lobby()
        if self.app.model.tournament is not None:
            self.show_tournament()  # the player follows one: back to its screen

    def tournament_wanted(self, tournament: int | None, password: str | None) -> None:
        self.app.model.follow(password)
        self.wants_tournament = True
        self.wanted_tournament = tournament

    def language_changed(self) -> None:
        """Another language was chosen (on the help screen): every screen in the stack
        is drawn again in it, with its footer of keys. The lines of the table's log
        are written again in it, from what they were written from (the chat is
        people's own words); a complaint under the hand goes, as after a move."""
        model = self.app.model
        model.rewrite_log()
        paused = model.table.paused if model.table is not None else None
        if self.find(TableScreen) is not None:
            self.app.set_paused(paused, model.away)
        for screen in self.app.screen_stack:
            if isinstance(screen, TableScreen):
                screen.drop_problem()
                screen.refresh_model(full=True)
            elif isinstance(screen, LobbyScreen | TournamentScreen):
                screen.refresh_model()
            elif isinstance(screen, RecordsScreen):
                screen.refresh_records()
            screen.refresh_bindings()

    # --- what the connection says -------------------------------------------------------

    def frozen(self, text: str | None) -> None:
        """The connection dropped (``text`` says why, and when it is tried again): the
        banner says so, and the table and the tournament's keys are frozen."""
        self.app.model.lost_connection()
        self.app.set_banner(text)
        self._redraw_frozen()

    def _redraw_frozen(self) -> None:
        """Redraw the screens that freeze while the connection is down (the table:
        the moves' keys off, the countdown stopped; the tournament: its keys off)."""
        table = self.find(TableScreen)
        if table is not None:
            table.refresh_model()
        tournament = self.find(TournamentScreen)
        if tournament is not None:
            tournament.refresh_model()

    async def arrived(self, received: Message) -> None:
        """A message from the server (see the module's theory)."""
        model = self.app.model
        message = admitted(received, model.seats_of(received))
        if message is None:
            return  # it breaks the protocol's invariants: skipped (and logged)
        was = model.tournament.info.state if model.tournament is not None else None
        if not model.apply(message):
            return
        if isinstance(message, Welcome):
            await self.welcomed(message)
            return
        if isinstance(message, (Stats, Matches, Replay)) or (
            isinstance(message, Error) and message.ref in RECORDS_REQUESTS
        ):
            screens = self.records_screens()
            for records in screens:
                records.refresh_records()
            if not screens and isinstance(message, Error):
                self.app.show_error(error_text(message))
            return
        if self.app.replay_match is not None:
            return  # only the replay is shown
        self._shown(message, was)

    def _shown(self, message: Message, was: str | None) -> None:
        """Redraw (or open) the screens that show ``message``, folded in already
        (``was``: the followed tournament's state before it)."""
        model = self.app.model
        table = self.find(TableScreen)
        if isinstance(message, Lobby):
            if model.table is None and not self.app.local:
                self.show_lobby()  # (--local shows only its table: leaving it quits)
        elif isinstance(message, TableInfo):
            self.app.back_sent = False
            self.app.set_paused(message.paused, model.away)
            self.show_table(full=True)
        elif isinstance(message, View):
            if table is not None:
                table.refresh_model()
            else:
                self.show_table(full=True)
        elif isinstance(message, Tournament):
            self._tournament_arrived(message, was)
        elif isinstance(message, HostView):
            host_screen = self.find(HostScreen)
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
            lobby = self.find(LobbyScreen)
            if message.scope == "lobby" and lobby is not None:
                lobby.refresh_model()
        elif isinstance(message, Error):
            if message.ref in TOURNAMENT_REQUESTS:
                self.wants_tournament = False
            if message.ref == "leave_table" or message.code == "not_at_table":
                model.left_table()
            if not (message.fatal and message.ref == "hello"):  # the connect screen says it
                self.app.show_error(error_text(message))

    def _noticed(self, notice: Notice, table: TableScreen | None) -> None:
        """What the host did that concerns this player (folded into the model
        already), said in a toast; an announcement is in the chats too, and a
        closed table's player goes to the lobby."""
        model = self.app.model
        text = model.notice_text(notice)
        if notice.kind == "announcement":
            self.app.notify(text, timeout=15)
            lobby = self.find(LobbyScreen)
            if lobby is not None:
                lobby.refresh_model()
            if table is not None and model.table is not None:
                table.add_chat(text)
        elif notice.kind == "table_closed":
            if model.table is None and table is not None:
                self.show_lobby()
            self.app.notify(text, severity="warning", timeout=10)
        elif notice.kind == "muted":
            self.app.notify(text, severity="warning", timeout=10)
        elif text:
            self.app.notify(text, timeout=10)

    def _tournament_arrived(self, message: Tournament, was: str | None = None) -> None:
        """Redraw the tournament's screen, or show it if the player asked for it. When
        the final starts and the player, not in it, is elsewhere (in the lobby, at
        another table), a toast says so: nothing else would tell them."""
        screen = self.find(TournamentScreen)
        wanted = self.wants_tournament and self.wanted_tournament in (None, message.id)
        if wanted:
            self.wants_tournament = False
        if screen is not None:
            screen.refresh_model()
        elif wanted and self.app.model.table is None:
            self.show_tournament()
        final = message.state == "final" and was not in (None, "final")
        if final and self.app.screen is not screen:
            following = self.app.model.tournament
            me = following.me() if following is not None else None
            if me is None or me.get("table") is None:
                text = _("The final of {name} has started: t in the lobby opens it, to watch.")
                self.app.notify(text.format(name=message.name), timeout=8)

    async def welcomed(self, message: Welcome) -> None:
        """The server said ``welcome`` (folded into the model: it is back online). The
        banner goes and the frozen screens redraw; what it means to the connection
        comes next (:meth:`~maumau.client.app_connect.Connecting.welcomed`); the host
        screen goes unless the session is the host's; the records screens ask again
        for what they were waiting for."""
        self.app.set_banner(None)
        self._redraw_frozen()
        await self.connection_welcomed(message)
        if not self.app.model.is_host:  # (no longer) the host: the host screen goes
            self._pop_while(lambda: self.find(HostScreen) is not None)
        lobby = self.find(LobbyScreen)
        if lobby is not None:
            lobby.refresh_bindings()  # H and X are the host's keys
        replay = self.app.replay_match
        if replay is not None and not self.records_screens():
            self.app.push_screen(LoneReplayScreen(replay, password=self.app.replay_password))
        for records in self.records_screens():
            records.reconnected()

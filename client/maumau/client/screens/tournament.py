"""The tournament screen: where it stands, the standings, and the series' tables.

Theory of operation
-------------------
The screen draws the followed tournament (:class:`~maumau.client.tournament.Following`
in the view model) and holds no truth of its own. The app redraws it whenever a
``tournament`` message arrives (:meth:`TournamentScreen.refresh_model`); between
messages a one-second tick redraws only the header, whose clock (the series' time,
or the countdown to the next start) is counted on from the moment the last message
arrived.

From the top, at 80x24: the header (name, game, state, clock), a line of the
tournament's settings (director, series length, final, late arrivals), the line
about the player ("you sit at table 2.1", "you have a bye this series"), the
standings (best first; the player's own line marked with a ``▶`` and in bold, never
by colour alone; withdrawn and disconnected players said in words), and the tables
of the series being played, each called by its label (``2.1``, ``final``; never the
server's id), the one the cursor is on watched with Enter or w (``watch_table``;
the app shows the table, and leaving it comes back here; at the player's own table,
which they left, the server seats them again). A finished table is closed: Enter
says its match is in the history instead of asking. PgUp and PgDn scroll the
standings, whatever has the focus.

Keys that need the server become :class:`~.messages.ToServer` messages: r registers
(``join_tournament``), unregisters before the start or, once started, withdraws
after asking (``leave_tournament``); g is the director's go (``start_tournament``),
after asking. Esc goes back to the lobby: a player with series still to play keeps
following the tournament (their next table is sent to them); anyone else stops
(``watch_tournament`` nil).

Every name on it (the tournament's, the players', the director's) is someone
else's words: it reaches a widget only through
:func:`~maumau.client.literal.literal`.

The screen composes parts that draw themselves: the standings
(:class:`~maumau.client.widgets.standings.Standings`, which ask for another page of
lines with ``Standings.LinesWanted``) and the series' tables
(:class:`~maumau.client.widgets.series_tables.SeriesTables`); the words of the
title, the settings and the lists are :mod:`maumau.client.tournament_words`. What
is left here is what the keys ask of the server.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from maumau.protocol.messages import (
    CancelTournament,
    JoinTournament,
    LeaveTournament,
    Message,
    StartTournament,
    WatchTable,
    WatchTournament,
)

from ..host import Host, host_of
from ..i18n import N_, _
from ..literal import literal
from ..model import plain
from ..tournament import Following
from ..tournament_words import about_line, title_line
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from ..widgets.series_tables import SeriesTables
from ..widgets.standings import Standings
from .confirm import ConfirmScreen
from .help import HelpScreen, rules_summary
from .messages import ToServer, TournamentClosed


class TournamentScreen(Screen[None]):
    """The followed tournament: header, standings, the series' tables."""

    BINDINGS = [
        # NOTE: the tournament screen's keys: watch a table, register for the
        # tournament, unregister (before it starts), withdraw (once it runs), the
        # director's go, the director calling it off, the tables of the series
        # before and after the one shown, help, back to the lobby.
        Binding("w", "watch", N_("watch"), show=False),
        Binding("r", "register", N_("register")),
        Binding("r", "unregister", N_("unregister")),
        Binding("r", "withdraw", N_("withdraw")),
        Binding("g", "go", N_("go")),
        Binding("x", "cancel_tournament", N_("call off")),
        Binding("left_square_bracket", "series(-1)", N_("earlier"), key_display="["),
        Binding("right_square_bracket", "series(1)", N_("later"), key_display="]"),
        Binding("pageup", "standings(-1)", N_("standings"), show=False),
        Binding("pagedown", "standings(1)", N_("standings"), show=False),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("escape", "back", N_("lobby"), key_display="Esc"),
    ]

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="tournament-title", classes="title")
        yield Static("", id="tournament-about")
        yield Static("", id="tournament-you")
        yield Standings(id="standings", show_cursor=False, zebra_stripes=True)
        yield SeriesTables(id="series-tables", cursor_type="row")
        taps = ("register", "unregister", "withdraw", "go", "watch", "help", "back")
        # (calling off and the other series: by key, and by tap on the footer)
        yield ActionBar(described(self.BINDINGS, taps), id="tournament-actions")
        yield KeyFooter()

    @property
    def host(self) -> Host:
        return host_of(self.app)

    @property
    def following(self) -> Following | None:
        return self.host.model.tournament

    def on_mount(self) -> None:
        self.drawn = True
        self.set_class(self.host.ascii_only, "ascii")
        self.query_one(SeriesTables).focus()
        self.refresh_model()
        self.set_interval(1.0, self.tick)

    def on_resize(self) -> None:
        self.refresh_model()

    def tick(self) -> None:
        """The clock moves on: only the header changes between messages."""
        self._draw_title()

    # --- drawing ------------------------------------------------------------------

    def refresh_model(self) -> None:
        if not self.drawn:
            return
        self._draw_title()
        following = self.following
        about = self.query_one("#tournament-about", Static)
        you = self.query_one("#tournament-you", Static)
        if following is None:
            about.update(_("Not following a tournament."))
            you.update("")
        else:
            about.update(literal(plain(about_line(following), self.host.ascii_only)))
            words = following.you_words(self.host.model.name, self._seated_at())
            you.update(literal(words, style="bold"))
        self.query_one(Standings).draw()
        self.query_one(SeriesTables).draw(self.size.width or 80)
        fit_room(self)
        self.query_one(ActionBar).sync()
        self.refresh_bindings()

    def _seated_at(self) -> int | None:
        """The table the player sits at now, if any."""
        model = self.host.model
        if model.table is None or model.seat is None:
            return None
        return model.table.id

    def _draw_title(self) -> None:
        if not self.is_mounted:
            return
        host = self.host
        width = self.size.width or 80
        title = title_line(self.following, host.model.clock(), width, host.ascii_only)
        self.query_one("#tournament-title", Static).update(title)

    # --- keys ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        following = self.following
        keys = ("register", "unregister", "withdraw", "go", "watch")
        if action in keys and (following is None or self.host.model.offline):
            return False
        if following is None:
            return True
        name = self.host.model.name
        if action == "register":
            return following.can_register()
        if action == "unregister":
            return following.can_unregister()
        if action == "withdraw":
            return following.can_withdraw()
        if action == "go":
            return following.can_go(name)
        if action == "watch":
            return bool(following.current_tables())
        if action == "cancel_tournament":
            return following.can_cancel(name)
        if action == "series":
            step = int(str(parameters[0])) if parameters else 1
            shown = following.shown_series
            return 1 <= shown + step <= following.info.series_no
        return True

    def action_watch(self) -> None:
        """Watch the table under the cursor (the player's own, which they left: the
        server seats them again); a finished table is closed: say where its match is."""
        table = self.query_one(SeriesTables).selected()
        following = self.following
        if table is None or following is None:
            return
        table_id = int(table["id"])
        if table["state"] == "finished":
            self.app.notify(following.closed_words(table_id), timeout=6)
            return
        self.app.post_message(ToServer(WatchTable(table_id, following.password)))

    @on(DataTable.RowSelected, "#series-tables")
    def row_selected(self) -> None:
        self.action_watch()

    def action_register(self) -> None:
        following = self.following
        if following is not None:
            self.app.post_message(ToServer(JoinTournament(following.id, following.password)))

    def action_unregister(self) -> None:
        following = self.following
        if following is not None:
            self.app.post_message(ToServer(LeaveTournament(following.id)))

    def _ask(self, question: str, request: Message) -> None:
        """Send ``request`` once the player confirms ``question`` (a catalog id)."""

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.post_message(ToServer(request))

        self.app.push_screen(ConfirmScreen(question), answer)

    def action_withdraw(self) -> None:
        following = self.following
        if following is not None:
            self._ask(
                N_("Withdraw from the tournament? Your results so far stay in the standings."),
                LeaveTournament(following.id),
            )

    def action_go(self) -> None:
        following = self.following
        if following is None:
            return
        if following.info.state == "registering":
            question = N_("Start the tournament now, with the players registered so far?")
        else:
            question = N_("Start the next series now?")
        self._ask(question, StartTournament(following.id))

    def action_cancel_tournament(self) -> None:
        following = self.following
        if following is not None:
            self._ask(
                N_("Call the tournament off? A series being played finishes as ordinary matches."),
                CancelTournament(following.id),
            )

    def _watch_window(self, standings_from: int, series: int | None) -> None:
        """Ask for another part of the tournament (see docs/protocol.md,
        watch_tournament): a page of the standings, another series' tables."""
        following = self.following
        if following is None:
            return
        self.app.post_message(
            ToServer(
                WatchTournament(
                    following.id,
                    following.password,
                    standings_from=standings_from,
                    series=series,
                )
            )
        )

    def _series_asked(self, following: Following) -> int | None:
        """The series shown, as asked for again (None: the current one)."""
        shown = following.shown_series
        return None if shown == following.info.series_no else shown

    def action_series(self, step: int) -> None:
        following = self.following
        if following is None:
            return
        number = following.shown_series + step
        if not 1 <= number <= following.info.series_no:
            return
        series = None if number == following.info.series_no else number
        self._watch_window(following.first_line, series)

    def action_standings(self, pages: int) -> None:
        """Scroll the standings a page (past the lines the message holds, they want
        the next or the previous page of them: :meth:`on_standings_lines_wanted`)."""
        self.query_one(Standings).page(pages)

    def on_standings_lines_wanted(self, event: Standings.LinesWanted) -> None:
        following = self.following
        if following is not None:
            self._watch_window(event.start, self._series_asked(following))

    def action_help(self) -> None:
        following = self.following
        settings = following.info.settings if following is not None else None
        if settings is not None and "turn_timeout_s" in settings and "mau_penalty" in settings:
            self.app.push_screen(HelpScreen(rules_summary(settings), settings=settings))
        else:
            self.app.push_screen(HelpScreen())

    def action_back(self) -> None:
        """Back to the lobby; stop following unless there are series to play."""
        following = self.following
        stop = following is None or not following.keeps_following()
        if stop and following is not None:
            self.app.post_message(ToServer(WatchTournament(None)))
        self.app.post_message(TournamentClosed(stop))
        self.dismiss(None)

"""The tournament the client follows, and the words its screens say about it.

Theory of operation
-------------------
A session follows one tournament at a time (``watch_tournament``, or registering
for or creating one). The server then sends a ``tournament`` message now and on
every change; :class:`Following` keeps the latest one together with the moment it
arrived on the client's own monotonic clock. The series clock and the countdown
to the next start are counted on from that moment between messages, so the screen
can redraw them every second without asking the server (a new message sets them
right again). Everything the tournament screen shows is derived here from that one
message: the state in words, whose line is the player's, which tables belong to
the series being played, which keys mean something (register, unregister or
withdraw; the director's go).

Tables are called by their labels, never by the server's table ids: ``1.2`` is the
second table of series 1 (in the order of the message's ``tables``), ``final`` the
final's table (its series is ``series + 1``); the server names the tables the same
way (``Friday Cup 1.2``, ``Friday Cup final``). A finished table is closed: its
match is in the history. A player who left their seat at a table still playing gets
it back by watching that table (the server seats them again).

Names of players, tournaments and directors are other people's words: the text
built here is plain ``str``; the screens turn it into widgets' text with
:func:`~maumau.client.literal.literal` only, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maumau.protocol.messages import TOURNAMENT_STANDINGS_PAGE, Tournament

from .i18n import _, ngettext, pgettext


def game_words(variant: str) -> str:
    """The game's short name, as the lobby's lists say it."""
    return _("Mau Mau") if variant == "classic" else pgettext("game", "American")


def mm_ss(seconds: float) -> str:
    """``12:34`` (minutes may pass 59: ``75:02``); never negative."""
    whole = max(0, int(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"


def series_words(state: str, series_no: int, series: int, final: bool = True) -> str:
    """Where a tournament stands, in a few words: ``registering``, ``series 2 of 3``,
    ``break after series 2 of 3``, ``final``, ``finished``."""
    if state == "registering":
        return pgettext("tournament state", "registering")
    if state == "playing":
        return _("series {number} of {series}").format(number=series_no, series=series)
    if state == "break":
        if series_no >= series and final:
            return _("break before the final")
        return _("break after series {number} of {series}").format(number=series_no, series=series)
    if state == "final":
        return pgettext("tournament state", "final")
    if state == "finished":
        return pgettext("tournament state", "finished")
    if state == "cancelled":
        # NOTE: a tournament its director (or the server, nobody being there) called off.
        return pgettext("tournament state", "cancelled")
    return state  # a state this client does not know: as the server says it


@dataclass
class Following:
    """The followed tournament: its latest ``tournament`` message, when it arrived
    (``arrived``, on the clock the model reads), and the password it was followed
    with (a locked tournament asks for it again to register)."""

    info: Tournament
    arrived: float
    password: str | None = None

    @property
    def id(self) -> int:
        return self.info.id

    # --- the clocks -----------------------------------------------------------------

    def series_clock(self, now: float) -> float | None:
        """Seconds the current series has run, counted on since the message; None
        when no series runs."""
        if self.info.clock is None or self.info.state not in ("playing", "final"):
            return None
        return self.info.clock + max(0.0, now - self.arrived)

    def countdown(self, now: float) -> float | None:
        """Seconds to the next start, counted down since the message; None when the
        next start waits for the director's go (or a series runs)."""
        if self.info.starts_in is None or self.info.state not in ("registering", "break"):
            return None
        return max(0.0, self.info.starts_in - max(0.0, now - self.arrived))

    # --- the player ---------------------------------------------------------------------

    def me(self) -> dict[str, Any] | None:
        """The receiver's line of the standings, or None if not registered."""
        you = self.info.you
        if you is None or not 0 <= you < len(self.info.standings):
            return None
        return self.info.standings[you]

    @property
    def registered(self) -> bool:
        """Registered and not withdrawn: the player is seated in coming series."""
        me = self.me()
        return me is not None and not me["withdrawn"]

    def my_table(self) -> int | None:
        me = self.me()
        return None if me is None else me.get("table")

    def is_director(self, name: str) -> bool:
        return bool(name) and self.info.director == name

    def registration_open(self) -> bool:
        """Whether a player may register now (before the start; between series if
        the director lets late arrivals in)."""
        state = self.info.state
        return state == "registering" or (
            state == "break" and self.info.late_join and self.info.series_no < self.info.series
        )

    def can_register(self) -> bool:
        return self.me() is None and self.registration_open()

    def can_unregister(self) -> bool:
        """Unregister: before the start only."""
        return self.registered and self.info.state == "registering"

    def can_withdraw(self) -> bool:
        """Withdraw: once started, until it is over."""
        return self.registered and self.info.state in ("playing", "break", "final")

    def can_go(self, name: str) -> bool:
        """The director's go: start now, or start the next series during a break; and
        a registered player's, while the start waits for the go (the server lets it
        through once the director has been away two minutes, and says so otherwise)."""
        if self.is_director(name):
            return self.info.state in ("registering", "break")
        return self.registered and self.info.state == "registering" and self.info.starts_in is None

    def can_cancel(self, name: str) -> bool:
        """The director may call the tournament off until it is over."""
        return self.is_director(name) and not self.over

    @property
    def over(self) -> bool:
        return self.info.state in ("finished", "cancelled")

    def keeps_following(self) -> bool:
        """Whether leaving the screen keeps following (the player still has series to
        play: their next table will be sent to them)."""
        return self.registered and not self.over

    # --- the window the message shows --------------------------------------------------

    @property
    def first_line(self) -> int:
        """Where the standings shown start in the whole standings (0: the top)."""
        lines = self.info.standings
        return int(lines[0].get("line", 0)) if lines else 0

    def more_below(self) -> bool:
        """Whether the standings go on below the page shown (the receiver's own line,
        which may follow the page, does not count)."""
        return self.first_line + TOURNAMENT_STANDINGS_PAGE < self.info.players

    @property
    def shown_series(self) -> int:
        """The series whose tables the message shows (the current one when none)."""
        shown = {int(t["series"]) for t in self.info.tables}
        if not shown or self.info.series_no in shown:
            return self.info.series_no
        return min(shown)

    # --- the tables ---------------------------------------------------------------------

    def table(self, table_id: int | None) -> dict[str, Any] | None:
        """The tournament's table with this id, if it is one of its tables: one the
        message lists, or (``series`` and ``no`` only) one of the current series a
        line of the standings names (the message may show another page of tables)."""
        for table in self.info.tables:
            if table["id"] == table_id:
                return table
        for line in self.info.standings:
            number = line.get("table_no")
            if line.get("table") == table_id and isinstance(number, int):
                return {"id": table_id, "series": self.info.series_no, "no": number}
        return None

    def is_final_table(self, table_id: int | None) -> bool:
        table = self.table(table_id)
        return table is not None and table["series"] > self.info.series

    def label(self, table_id: int | None) -> str:
        """A table as its players call it: ``1.2`` (the second table of series 1) or
        ``final``; the id itself for a table the message does not know."""
        table = self.table(table_id)
        if table is None:
            return str(table_id)
        series = table["series"]
        if series > self.info.series:
            # NOTE: the final's table, where a tournament's tables are listed by
            # their numbers (1.2: series 1, its second table).
            return pgettext("tournament table", "final")
        number = table.get("no")
        if not isinstance(number, int):
            same = [t["id"] for t in self.info.tables if t["series"] == series]
            number = same.index(table_id) + 1
        return f"{series}.{number}"

    @property
    def final_next(self) -> bool:
        """The last series is over and the final comes next (a break before it)."""
        info = self.info
        return info.final and info.series_no >= info.series

    def current_tables(self) -> list[dict[str, Any]]:
        """The tables shown: of the series being played or last played, or of the one
        the player asked to see."""
        number = self.shown_series
        return [t for t in self.info.tables if t["series"] == number]

    def players(self) -> int:
        """How many are registered and not withdrawn (of the lines shown, the
        withdrawn ones; the whole standings may be longer than what is shown)."""
        withdrawn = sum(1 for line in self.info.standings if line["withdrawn"])
        return max(0, self.info.players - withdrawn)

    # --- words ------------------------------------------------------------------------

    def state_words(self) -> str:
        info = self.info
        return series_words(info.state, info.series_no, info.series, info.final)

    def where_words(self, table_id: int | None) -> str:
        """Where a player of the standings sits: ``table 1.2``, ``final``."""
        if self.is_final_table(table_id):
            return self.label(table_id)
        return _("table {table}").format(table=self.label(table_id))

    def closed_words(self, table_id: int) -> str:
        """Why a finished table is not shown, and where its match is."""
        if self.is_final_table(table_id):
            return _("The final is over: its match is in the history (h in the lobby).")
        return _("Table {table} is over: its match is in the history (h in the lobby).").format(
            table=self.label(table_id)
        )

    def clock_words(self, now: float) -> str:
        """The clock of the header: the series' time, or when the next start is."""
        running = self.series_clock(now)
        if running is not None:
            # NOTE: how long the series being played has run, minutes:seconds.
            return _("series clock {time}").format(time=mm_ss(running))
        state = self.info.state
        if self.over:
            return ""
        left = self.countdown(now)
        if left is not None:
            if state == "break" and self.final_next:
                # NOTE: the countdown to the final, minutes:seconds.
                return _("final in {time}").format(time=mm_ss(left))
            if state == "break":
                return _("next series in {time}").format(time=mm_ss(left))
            return _("starts in {time}").format(time=mm_ss(left))
        if state in ("registering", "break"):
            if self.info.director:
                return _("waiting for {name}'s go").format(name=self.info.director)
            return _("waiting for the director's go")
        return ""

    def final_size(self) -> int:
        """How many played the final (the places it decided): its table's players,
        else the table size."""
        info = self.info
        for row in info.tables:
            if row["series"] == info.series + 1:
                return len(row["names"])
        seats = info.settings.get("seats")
        return seats if isinstance(seats, int) and not isinstance(seats, bool) else 4

    def length_words(self) -> str:
        """How long a series is: ``3 deals a series`` or ``to 150 points``."""
        info = self.info
        if info.deals is not None:
            return ngettext("{n} deal a series", "{n} deals a series", info.deals).format(
                n=info.deals
            )
        target = info.settings.get("target_score", "?")
        return _("each series to {target} points").format(target=target)

    def you_words(self, name: str, seated_at: int | None = None) -> str:
        """The line about the player: where they sit, or what they may do.
        ``seated_at``: the table the player sits at now, if any (the client's)."""
        me = self.me()
        info = self.info
        state = info.state
        if state == "cancelled":
            return _("The tournament was called off.")
        if me is None:
            if self.registration_open():
                return _("You are not registered: r registers you.")
            if state == "finished":
                if info.final:
                    return _(
                        "The tournament is over. The final decided places 1 to {n}, "
                        "the points the rest."
                    ).format(n=self.final_size())
                return _("The tournament is over.")
            if info.late_join and state == "playing" and info.series_no < info.series:
                return _(
                    "You are following this tournament: late arrivals may register (r) "
                    "in the break after this series."
                )
            return _("You are following this tournament; its registration is closed.")
        if me["withdrawn"]:
            return _("You have withdrawn; your results so far stay in the standings.")
        if state == "registering":
            return ngettext(
                "You are registered ({n} player so far). r unregisters you.",
                "You are registered ({n} players so far). r unregisters you.",
                self.players(),
            ).format(n=self.players())
        if state == "finished":
            if info.final:
                return _(
                    "Final standings: you are number {rank} of {n} (the final decided "
                    "places 1 to {k}, the points the rest)."
                ).format(rank=me["rank"], n=info.players, k=self.final_size())
            return _("Final standings: you are number {rank} of {n}.").format(
                rank=me["rank"], n=info.players
            )
        table = me.get("table")
        if state in ("playing", "final"):
            if table is not None:
                return self._seat_words(table, seated_at)
            if state == "final":
                return _("You are not in the final: watch it with Enter.")
            return _("You have a bye this series.")
        # A break: the next seating is drawn when the next series starts.
        if self.final_next:
            return _("The final's table is drawn when it starts.")
        return _("Your next table is drawn when the next series starts.")

    def _seat_words(self, table_id: int, seated_at: int | None) -> str:
        """The line about the player's own table: over, left (Enter seats them
        again), or where they sit."""
        final = self.is_final_table(table_id)
        label = self.label(table_id)
        row = self.table(table_id)
        if row is not None and row["state"] == "finished":
            if final:
                return _("Your final is over.")
            return _("Your match at table {table} is over.").format(table=label)
        if seated_at != table_id:
            if final:
                return _("You left the final: Enter takes your seat back.")
            return _("You left table {table}: Enter takes your seat back.").format(table=label)
        if final:
            return _("You play in the final.")
        return _("You sit at table {table}.").format(table=label)

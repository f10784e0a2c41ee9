"""Tournaments: registering, drawing the series' tables, following the standings.

Theory of operation
-------------------
A tournament (its data: :class:`~maumau.server.tournament.state.TournamentState`) is
made by its *director* (``create_tournament``). Players register and unregister
(``join_tournament``, ``leave_tournament``) until it starts: at the director's go
(``start_tournament``) or when its start time comes. Then it plays its series one
after another:

1. **Drawing.** The players still in (not withdrawn; late arrivals from the series
   after the one they registered in) are seated by :mod:`.tournament.draw`: the first
   series at random from the tournament's seed, later ones by standings, avoiding
   repeat pairings; byes, if any, are recorded.
2. **Playing.** Every table of the series is made at once, as an ordinary table
   (marked with its tournament and series), its seats given to the drawn players and,
   where the director allowed it, to bots; its match starts at once. Each connected
   player is moved to their table (and told so, as if they had joined it); one who is
   not connected gets the seat kept for them, played by a bot after the reconnect
   grace, as at any table. Everything at the table is the table's own: rules, timers,
   the Mau arbiter, spectators, reconnecting, the journal and crash recovery.
3. **Results.** When a table's match ends, its scores are put in the tournament
   (in the same commit as the match's end: :meth:`Tournaments.match_over`). When every
   table of the series has ended, the series is over: a break of ``break_s`` seconds
   (which the director may cut short), then the next series; after the last one, the
   final (the top players at one table) if the director asked for one; then the
   tournament is finished.

Everyone registered, and whoever follows the tournament (``watch_tournament``), gets
a ``tournament`` message on every change: a page of the standings (see
:mod:`.tournament.standings`), a page of one series' tables with their live rounds
and scores (see "A tournament message is a window" below), the series clock and the
countdown to the next start. While a series runs the
message is refreshed every REFRESH_S seconds if anything in it changed.

Its life has an end whatever its people do. The director may call it off
(``cancel_tournament``) before or during play: it is then ``cancelled``, and the tables
of a series being played finish their matches as ordinary tables (their results no
longer count for it). A tournament that has not started, while neither its director
nor any registered player is connected, is cancelled once that has lasted
``idle_timeout`` (the server's ``--idle-timeout``, as for a waiting table; counted
again from a restart). Before the start, a registration whose session has had no
connection for ``idle_timeout`` is dropped (the session is then reaped and its name
freed as any dropped session's). Finished and cancelled tournaments stay in the
history and count for no cap.

The caps: at most OPEN_MAX tournaments are open on the server; one session directs at
most PER_SESSION of them; one address has made at most PER_ADDRESS; one address has
at most REGISTRATIONS_PER_ADDRESS players registered for one tournament. Every
connection of the SSH party and of the browser guests comes from the host's own
loopback address, each of them a guest the host let in: loopback addresses are
capped per session only. Before the start, from any address, loopback too, at most
AWAY_PER_ADDRESS registrations of one tournament may be of sessions without a
connection: the next registration from that address drops the oldest beyond that
(so connect, register, close in a loop never fills a tournament). The addresses are
saved with the tournament, so the caps hold across a restart. A series never opens
more tables than the server's ``max_tables`` leaves free: the director's go is
refused with ``lobby_full``, and a start that comes due waits RETRY_S and tries
again. Before the start, new registrations are told to everyone at most every CALM_S
(the player who registers is told at once): hundreds registering at once would
otherwise be told to hundreds each.

A tournament message is a window (see :mod:`.tournament.window`): a page of the standings and
of one series' tables, with the receiver's own line and table, so that it stays far
below the frame limit at TOURNAMENT_PLAYERS_MAX players and the most series; a
``watch_tournament`` names the page it wants.

A tournament's state is saved whole with the commit of every change to it, so a server
killed in the middle of a series comes back with the tournament as it was and its
tables as the journal has them (:meth:`Tournaments.restore`). A registered player's
session is kept (it is neither forgotten nor its name given away) while the
tournament is open, as a seated player's is.
"""

from __future__ import annotations

import ipaddress
import logging
import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack
import trio

from maumau.protocol.messages import (
    TOURNAMENT_PLAYERS_MAX,
    CancelTournament,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    Tournament,
    WatchTournament,
)

from . import names
from .errors import TableError
from .lobby import Lobby
from .rules import Settings, SettingsError
from .session import Session
from .table import Table
from .table.state import SeatState
from .tournament import draw
from .tournament.standings import placing_points
from .tournament.state import Entry, SeriesTable, TournamentState
from .tournament.window import TOP, Window
from .tournament.window import cut as window_cut

log = logging.getLogger("maumau.server")

BREAK_S = 30.0  # seconds between two series (the director may start the next sooner)
REFRESH_S = 2.0  # while a series runs, followers are told its tables' progress this often
# Before the start, everyone is told of new registrations at most this often: each
# registration would otherwise be told to everyone registered before (with hundreds
# registering at once, hundreds of messages for each).
CALM_S = 1.0
# A tournament that waits for its director's go, while its director has been away
# this long, may be started by any of its registered players who is connected.
HANDOVER_S = 120.0
OPEN_MAX = 20  # tournaments open at once on one server
PER_SESSION = 2  # open tournaments one session directs
PER_ADDRESS = 2  # open tournaments made from one address (not a loopback one)
REGISTRATIONS_PER_ADDRESS = 8  # players of one tournament from one address (not loopback)
AWAY_PER_ADDRESS = 4  # registrations of one tournament from one address without a connection
RETRY_S = 10.0  # a due start that found too few free tables tries again after this
FINISHED_SHOWN = 5  # finished tournaments the lobby still lists


@dataclass(slots=True)
class Follower:
    """A session that follows a tournament, and the window of it it asked for."""

    session: Session
    tournament: int
    window: Window = TOP


@dataclass(slots=True)
class _Whole:
    """A tournament as every receiver's message is cut from it (see :meth:`_whole`)."""

    fixed: dict[str, Any]  # the fields every receiver gets as they are
    standings: list[dict[str, Any]]
    order: list[str]  # the session id of each line
    tables: list[dict[str, Any]]
    table_keys: list[list[str | None]]
    fingerprint: bytes  # all but the clocks: whether anything changed


class Tournaments:
    """Every open tournament of the server (see the module docstring)."""

    def __init__(
        self,
        lobby: Lobby,
        break_s: float = BREAK_S,
        idle_timeout: float = 60.0,
        free_tables: Callable[[], int] = lambda: 1_000_000,
    ) -> None:
        self.lobby = lobby
        self.break_s = break_s
        self.idle_timeout = idle_timeout
        self.free_tables = free_tables
        self.open: dict[int, TournamentState] = {}
        self.finished: list[TournamentState] = []  # the latest, for the lobby
        self.followers: dict[str, Follower] = {}  # by session id
        # Since when (trio time) nobody of a tournament that has not started has been
        # connected; since when each registered session has had no connection.
        self._idle: dict[int, float] = {}
        self._away: dict[tuple[int, str], float] = {}
        self._due: dict[int, float] = {}  # trio time of a tournament's next start
        self._sent: dict[int, bytes] = {}  # what followers were last told, per tournament
        self._told: dict[int, float] = {}  # when (trio time), per tournament
        self._dirty: set[int] = set()
        # Since when (trio time) a tournament's director has been away (see HANDOVER_S).
        self._director_away: dict[int, float] = {}
        self._wakeup = trio.Event()
        store = lobby.store
        self._ids = store.next_tournament_id() if store is not None else 1
        lobby.match_over_hooks.append(self.match_over)
        lobby.keeps = self.keeps
        lobby.arrival_hooks.append(self.after_leaving_table)
        lobby.forget_hooks.append(self.forgotten)
        lobby.tournament_summaries = self.summaries
        lobby.saver.on_restored.append(self.shift)

    def start(self, nursery: trio.Nursery) -> None:
        nursery.start_soon(self._run)

    def shift(self, paused_for: float) -> None:
        """The server could not save for ``paused_for`` seconds: nobody could come
        back meanwhile, so that time does not count as away (nor as idle)."""
        self._idle = {key: t + paused_for for key, t in self._idle.items()}
        self._away = {key: t + paused_for for key, t in self._away.items()}
        self._director_away = {key: t + paused_for for key, t in self._director_away.items()}

    # --- requests -----------------------------------------------------------------------

    def create(self, session: Session, request: CreateTournament) -> TournamentState:
        problem = names.chat_problem(request.name)
        if problem is not None:
            raise TableError(
                "bad_name", f"the tournament's name: {problem}", {"field": "create_tournament.name"}
            )
        settings = self._check_settings(request)
        if len(self.open) >= OPEN_MAX:
            raise TableError(
                "too_many_tournaments",
                f"{len(self.open)} tournaments are open here; try again when one is over",
                {"count": len(self.open)},
            )
        directed = [t for t in self.open.values() if t.director_key == session.id]
        if len(directed) >= PER_SESSION:
            raise TableError(
                "too_many_tournaments",
                f"you direct {len(directed)} open tournaments; cancel one or let it finish",
                {"count": len(directed)},
            )
        address = session.address
        if address is not None and _per_address(address):
            mine = [t for t in self.open.values() if t.origin == address]
            if len(mine) >= PER_ADDRESS:
                raise TableError(
                    "too_many_tournaments",
                    f"{len(mine)} open tournaments were made from your address",
                    {"count": len(mine)},
                )
        tournament_id = self._ids
        self._ids += 1
        tournament = TournamentState(
            id=tournament_id,
            name=request.name,
            director=session.name,
            director_key=session.id,
            settings=settings,
            series=request.series,
            deals=request.deals,
            final=request.final,
            bots=request.bots,
            late_join=request.late_join,
            password=request.password,
            seed=self.lobby.rng.randrange(2**63),
            origin=address,
        )
        if request.starts_in is not None:
            self._set_due(tournament, request.starts_in)
        self.open[tournament_id] = tournament
        log.info(
            "tournament %d %r made by %s (%d series of %s)",
            tournament_id,
            request.name,
            session.name,
            request.series,
            f"{request.deals} deals" if request.deals else "a match",
        )
        self._follow(session, tournament)
        self._changed(tournament)
        return tournament

    def join(self, session: Session, request: JoinTournament) -> None:
        tournament = self._find(request.tournament)
        if tournament.password is not None and request.password != tournament.password:
            raise TableError("wrong_password", "this tournament is locked; the password is wrong")
        entry = tournament.entry(session.id)
        if entry is not None and not entry.withdrawn:
            raise TableError("already_registered", "you are registered for this tournament")
        if not tournament.registration_open():
            raise TableError(
                "registration_closed",
                "this tournament takes no more players"
                if tournament.state == "registering" or not tournament.late_join
                else "this tournament has started and takes no late arrivals now",
                {"tournament": tournament.id},
            )
        address = session.address
        if address is not None and tournament.state == "registering":
            self._drop_away(tournament, address)
        if entry is None and address is not None and _per_address(address):
            here = sum(1 for e in tournament.active() if e.address == address)
            if here >= REGISTRATIONS_PER_ADDRESS:
                raise TableError(
                    "too_many_registrations",
                    f"{here} players are registered for this tournament from your address",
                    {"count": here, "limit": REGISTRATIONS_PER_ADDRESS},
                )
        if entry is None and len(tournament.entries) >= TOURNAMENT_PLAYERS_MAX:
            raise TableError(
                "tournament_full",
                f"this tournament has its {TOURNAMENT_PLAYERS_MAX} players",
                {"limit": TOURNAMENT_PLAYERS_MAX},
            )
        since = tournament.next_series()
        if entry is None:
            tournament.entries.append(Entry(session.id, session.name, since=since, address=address))
        else:
            entry.withdrawn, entry.since = False, since
            entry.address = address or entry.address
        self._away.pop((tournament.id, session.id), None)
        log.info("tournament %d: %s registers", tournament.id, session.name)
        self._follow(session, tournament)
        self._changed(tournament)
        self._send(session, tournament)  # at once: the others may be told a moment later

    def leave(self, session: Session, request: LeaveTournament) -> None:
        tournament = self._find(request.tournament)
        entry = tournament.entry(session.id)
        if entry is None or entry.withdrawn:
            raise TableError("not_registered", "you are not registered for this tournament")
        self._away.pop((tournament.id, entry.key), None)
        if tournament.state == "registering":
            tournament.entries.remove(entry)
            log.info("tournament %d: %s unregisters", tournament.id, session.name)
        else:
            entry.withdrawn = True
            log.info("tournament %d: %s withdraws", tournament.id, session.name)
        self._send(session, tournament)
        self._changed(tournament)

    def directs(self, session: Session, tournament: TournamentState) -> bool:
        """Whether ``session`` is ``tournament``'s director: the session that made it,
        or a later session of the same name that proved the name's secret (the
        director who said bye, or whose connection was forgotten, comes back to the
        role). A session that proves it takes the role over for the next checks."""
        if session.id == tournament.director_key:
            return True
        director = tournament.director
        if director is None or not session.verified:
            return False
        if session.skeleton != names.skeleton(director):
            return False
        tournament.director_key = session.id
        self._changed(tournament)
        log.info("tournament %d: %s directs it again", tournament.id, session.name)
        return True

    def _director_here(self, tournament: TournamentState) -> bool:
        return any(
            session.connected and self.directs(session, tournament)
            for session in self.lobby.sessions.values()
            if session.id == tournament.director_key or session.verified
        )

    def _handed_over(self, session: Session, tournament: TournamentState) -> bool:
        """Whether ``session``, a registered player, may give the go the director
        should: the tournament waits for the go and its director has been away for
        :data:`HANDOVER_S`."""
        waits = tournament.state == "registering" and tournament.starts_at is None
        away = self._director_away.get(tournament.id)
        entry = tournament.entry(session.id)
        return (
            waits
            and entry is not None
            and not entry.withdrawn
            and away is not None
            and trio.current_time() - away >= HANDOVER_S
            and not self._director_here(tournament)
        )

    def go(self, session: Session, request: StartTournament) -> None:
        tournament = self._find(request.tournament)
        if not self.directs(session, tournament):
            if not self._handed_over(session, tournament):
                who = tournament.director or "nobody"
                raise TableError(
                    "not_director",
                    f"only {who}, who directs this tournament, can start it",
                    {"name": who} if tournament.director else None,
                )
            log.info(
                "tournament %d: %s starts it, its director being away", tournament.id, session.name
            )
        if tournament.state in ("playing", "final"):
            raise TableError("tournament_running", "a series is being played")
        self._start_series(tournament, by_director=True)

    def cancel(self, session: Session, request: CancelTournament) -> None:
        """The director calls the tournament off (see the module docstring)."""
        tournament = self._find(request.tournament)
        if not self.directs(session, tournament):
            who = tournament.director or "nobody"
            raise TableError(
                "not_director",
                f"only {who}, who directs this tournament, can cancel it",
                {"name": who} if tournament.director else None,
            )
        self._cancel(tournament, f"{session.name}, its director, called it off")

    def cancel_for_host(self, tournament_id: int, why: str) -> set[str]:
        """The host calls the tournament off; the ids of the sessions registered for
        it or following it (to be told why)."""
        tournament = self._find(tournament_id)
        told = {entry.key for entry in tournament.entries if not entry.withdrawn}
        told |= {
            key for key, follower in self.followers.items() if follower.tournament == tournament.id
        }
        self._cancel(tournament, why)
        return told

    def _cancel(self, tournament: TournamentState, why: str) -> None:
        """End ``tournament`` as ``cancelled``: the tables of a series being played
        play their matches on as ordinary tables."""
        for record in tournament.tables:
            table = self.lobby.tables.get(record.id)
            if table is not None:
                table.tournament = None  # an ordinary table from now on
                table.save()
        log.info("tournament %d %r is cancelled: %s", tournament.id, tournament.name, why)
        self._close(tournament, "cancelled")

    def forgotten(self, session: Session) -> None:
        """A forgotten session follows nothing any more (its follower would be kept for
        ever: a connect, watch, close loop grew the server by its every session), and
        its registrations go (it withdraws from a tournament that has started)."""
        self.followers.pop(session.id, None)
        for tournament in self.open.values():
            entry = tournament.entry(session.id)
            if entry is None or entry.withdrawn:
                continue
            self._unregister(tournament, entry, "its session is gone")

    def _unregister(self, tournament: TournamentState, entry: Entry, why: str) -> None:
        if tournament.state == "registering":
            tournament.entries.remove(entry)
        else:
            entry.withdrawn = True
        self._away.pop((tournament.id, entry.key), None)
        log.info("tournament %d: %s's registration is dropped: %s", tournament.id, entry.name, why)
        self._changed(tournament)

    def _drop_away(self, tournament: TournamentState, address: str) -> None:
        """At most AWAY_PER_ADDRESS of ``tournament``'s registrations from ``address``
        may be of sessions without a connection: drop the oldest beyond that."""
        by_id = {s.id: s for s in self.lobby.sessions.values()}
        away = [
            e
            for e in tournament.active()
            if e.address == address and not (e.key in by_id and by_id[e.key].connected)
        ]
        for entry in away[: max(0, len(away) - AWAY_PER_ADDRESS)]:
            self._unregister(
                tournament, entry, f"more than {AWAY_PER_ADDRESS} from {address} are away"
            )

    def watch(self, session: Session, request: WatchTournament) -> None:
        if request.tournament is None:
            self.followers.pop(session.id, None)
            return
        tournament = self._find(request.tournament, finished_too=True)
        if (
            tournament.password is not None
            and request.password != tournament.password
            and tournament.entry(session.id) is None
            and session.id != tournament.director_key
        ):
            raise TableError("wrong_password", "this tournament is locked; the password is wrong")
        self._follow(
            session,
            tournament,
            Window(request.standings_from, request.series, request.tables_from),
        )
        self._send(session, tournament)

    def claim_seat(self, session: Session, table: Table) -> None:
        """Mark the seat the series gave ``session`` at ``table`` as its own again, if it
        left it while the match runs (a bot plays it): the table then gives it back as
        any seat one stepped out of (a table restored from an older database did not
        keep whose such a seat was)."""
        if table.tournament is None or table.status != "playing":
            return
        tournament = self.open.get(table.tournament[0])
        record = tournament.table_of(table.id) if tournament is not None else None
        if record is None or session.id not in record.keys:
            return
        seat = table.seats[record.keys.index(session.id)]
        if not seat.bot and seat.session is None:
            seat.owner = session

    def after_leaving_table(self, session: Session) -> None:
        """``session`` is back in the lobby (or has just connected): tell it the
        tournament it follows or is registered for."""
        followed = self._followed(session)
        if followed is not None:
            self._send(session, followed)

    # --- what the lobby asks -------------------------------------------------------------

    def keeps(self, session: Session) -> bool:
        """Whether ``session`` must be kept: it is registered for an open tournament."""
        return any(t.registered(session.id) for t in self.open.values())

    def summaries(self) -> tuple[dict[str, Any], ...]:
        shown = list(self.open.values()) + self.finished[-FINISHED_SHOWN:][::-1]
        return tuple(
            {
                "id": t.id,
                "name": t.name,
                "variant": t.settings.get("variant", "classic"),
                "state": t.state,
                "players": len(t.active()),
                "series_no": t.series_no,
                "series": t.series,
                "director": t.director,
                "locked": t.password is not None,
                "open": t.registration_open(),
            }
            for t in shown
        )

    def match_over(self, table: Table) -> None:
        """A table's match ended: if it is a tournament's, its result counts now."""
        if table.tournament is None or table.match is None:
            return
        tournament = self.open.get(table.tournament[0])
        if tournament is None:
            return
        record = tournament.table_of(table.id)
        if record is None or record.scores is not None:
            return
        record.scores = list(table.match.scores)
        record.rounds = table.match.round_no
        log.info(
            "tournament %d: table %d of series %d ends %s",
            tournament.id,
            table.id,
            record.series,
            record.scores,
        )
        if tournament.series_over():
            self._end_series(tournament)
        else:
            self._changed(tournament)

    # --- the course of a tournament --------------------------------------------------------

    def _start_series(self, tournament: TournamentState, by_director: bool = False) -> None:
        players = [e for e in tournament.active() if e.since <= tournament.next_series()]
        if len(players) < 2 and not (tournament.bots and players):
            if tournament.state == "break":
                self._finish(tournament)  # nobody left to play on with
                return
            if not by_director:
                # The start time came with too few players: wait for the director.
                tournament.starts_at = None
                self._due.pop(tournament.id, None)
                self._changed(tournament)
                return
            raise TableError(
                "too_few_players",
                f"{len(players)} players are registered; a tournament needs at least 2",
                {"count": len(players)},
            )
        number = tournament.series_no + 1
        final = number == tournament.final_no
        keys = [e.key for e in players]
        if final or number > 1:
            rank = {s.key: i for i, s in enumerate(tournament.standings())}
            keys.sort(key=lambda k: rank.get(k, len(rank)))
        size = tournament.size
        if final:
            seating = draw.final_table(keys, size)
        elif number == 1:
            seating = draw.first_series(keys, size, tournament.bots, tournament.seed)
        else:
            seating = draw.later_series(
                keys, size, tournament.bots, tournament.met(), tournament.byes_of()
            )
        # The last series' finished tables close as their players are moved on.
        freed = sum(
            1
            for record in tournament.current_tables()
            if record.id in self.lobby.tables and record.scores is not None
        )
        free = self.free_tables() + freed
        if len(seating.tables) > free:
            log.warning(
                "tournament %d: series %d needs %d tables; the server has %d free",
                tournament.id,
                number,
                len(seating.tables),
                max(0, free),
            )
            if not by_director:
                self._set_due(tournament, RETRY_S)
                self._changed(tournament)
                return
            raise TableError(
                "lobby_full",
                f"the series needs {len(seating.tables)} tables and the server has "
                f"{max(0, free)} free; wait for some to close",
                {"limit": max(0, free), "count": len(seating.tables)},
            )
        if tournament.state == "registering":
            # The last tie-break: a lot drawn from the seed, apart from the first draw.
            order = [e.key for e in tournament.entries]
            random.Random(tournament.seed + 1).shuffle(order)
            tournament.lot = order
        tournament.series_no = number
        tournament.state = "final" if final else "playing"
        tournament.starts_at = None
        tournament.series_started = time.time()
        self._due.pop(tournament.id, None)
        for key in seating.byes:
            tournament.byes.append((number, key))
        log.info(
            "tournament %d: %s starts with %d tables%s",
            tournament.id,
            "the final" if final else f"series {number}",
            len(seating.tables),
            f" and {len(seating.byes)} byes" if seating.byes else "",
        )
        for i, (seated, bots) in enumerate(zip(seating.tables, seating.bots, strict=True)):
            self._open_table(tournament, number, i, seated, bots)
        self._changed(tournament)

    def _open_table(
        self, tournament: TournamentState, number: int, index: int, keys: tuple[str, ...], bots: int
    ) -> None:
        lobby = self.lobby
        values = dict(tournament.settings)
        values["seats"] = len(keys) + bots
        if tournament.deals:
            values.update(deals=tournament.deals, target_score=100_000)
        settings = Settings.from_dict(values)
        label = "final" if number == tournament.final_no else f"{number}.{index + 1}"
        table = Table(
            lobby,
            lobby.new_table_id(),
            f"{tournament.name[:24]} {label}",
            settings,
            None,
            tournament.password,
            {seat: "normal" for seat in range(len(keys), len(keys) + bots)},
            lobby.rng.randrange(2**63),
        )
        table.tournament = (tournament.id, number)
        by_id = {s.id: s for s in lobby.sessions.values()}
        moved: list[Session] = []
        for seat, key in enumerate(keys):
            entry = tournament.entry(key)
            name = entry.name if entry is not None else key
            session = by_id.get(key)
            if session is None:
                # Forgotten (it should not be): a bot plays the seat from the start.
                table.seats[seat] = SeatState(name=name, away=True)
                continue
            table.seats[seat] = SeatState(name=name, session=session, owner=session)
            if not session.connected:
                table.seats[seat].disconnected_at = table.now()
            moved.append(session)
        tournament.tables.append(
            SeriesTable(
                table.id,
                number,
                [*keys, *([None] * bots)],
                [s.name or "" for s in table.seats],
            )
        )
        lobby.open_table(table)
        for session in moved:
            if session.table is not None and session.table is not table:
                lobby.leave_current(session, entering=table)
            session.table = table
            lobby.seated(session, table)
            lobby.save_session(session)
        table.start_drawn()

    def _end_series(self, tournament: TournamentState) -> None:
        number = tournament.series_no
        if number >= tournament.series and not (tournament.final and number < tournament.final_no):
            self._finish(tournament)
            return
        players = tournament.active()
        if number == tournament.series and len(players) < 2:
            self._finish(tournament)  # nobody to hold a final with
            return
        tournament.state = "break"
        self._set_due(tournament, self.break_s)
        log.info("tournament %d: series %d is over", tournament.id, number)
        self._changed(tournament)

    def _finish(self, tournament: TournamentState) -> None:
        self._close(tournament, "finished")
        standings = tournament.standings()
        if standings:
            winner = tournament.entry(standings[0].key)
            log.info(
                "tournament %d %r is over: %s wins",
                tournament.id,
                tournament.name,
                winner.name if winner else "?",
            )
        self._changed(tournament)

    def _close(self, tournament: TournamentState, state: str) -> None:
        """``tournament`` is over (``finished`` or ``cancelled``): out of the open ones
        and their caps, into the history."""
        tournament.state = state
        tournament.starts_at = None
        tournament.finished_at = time.time()
        self._due.pop(tournament.id, None)
        self._idle.pop(tournament.id, None)
        self._director_away.pop(tournament.id, None)
        self._told.pop(tournament.id, None)
        self._sent.pop(tournament.id, None)
        self.open.pop(tournament.id, None)
        for key in [k for k in self._away if k[0] == tournament.id]:
            del self._away[key]
        kept = [t for t in self.finished if t.id != tournament.id][-FINISHED_SHOWN:]
        self.finished = [*kept, tournament]
        self._changed(tournament)

    def _set_due(self, tournament: TournamentState, seconds: float) -> None:
        tournament.starts_at = time.time() + seconds
        self._due[tournament.id] = trio.current_time() + seconds
        self._wakeup.set()

    # --- telling ---------------------------------------------------------------------------

    def message(
        self, tournament: TournamentState, key: str | None, window: Window = TOP
    ) -> Tournament:
        """The ``tournament`` message for the player whose session id is ``key``."""
        return self._cut(self._whole(tournament, [window]), key, window)

    def _whole(self, tournament: TournamentState, windows: list[Window]) -> _Whole:
        """Every line of the standings, and every table of the series that
        ``windows`` show (the current one always), as sent (see
        :mod:`.tournament.window` for what one receiver gets of them)."""
        wanted = {tournament.series_no} | {w.series for w in windows if w.series is not None}
        by_id = {s.id: s for s in self.lobby.sessions.values()}
        tables = {t.id: t for t in self.lobby.tables.values()}
        entries = {e.key: e for e in tournament.entries}
        seated = {
            key: (record.id, number)
            for number, record in enumerate(tournament.current_tables(), start=1)
            for key in record.keys
            if key is not None
        }
        playing = tournament.state in ("playing", "final")
        standings = []
        order = []
        for i, line in enumerate(tournament.standings()):
            order.append(line.key)
            entry = entries.get(line.key)
            session = by_id.get(line.key)
            row: dict[str, Any] = {
                "rank": line.rank,
                "name": entry.name if entry is not None else line.key,
                "points": line.points,
                "score": line.score,
                "firsts": line.firsts,
                "played": line.played,
                "byes": line.byes,
                "withdrawn": entry is None or entry.withdrawn,
                "connected": session is not None and session.connected,
                "line": i,
            }
            if playing and line.key in seated:
                row["table"], row["table_no"] = seated[line.key]
            standings.append(row)
        rows = []
        numbers: dict[int, int] = {}  # the tables drawn so far, by series
        for record in tournament.tables:
            numbers[record.series] = numbers.get(record.series, 0) + 1
            if record.series not in wanted:
                continue  # nobody it is for looks at that series
            live = tables.get(record.id)
            if record.scores is not None:
                scores, state = record.scores, "finished"
            elif live is not None and live.match is not None:
                scores, state = list(live.match.scores), live.status
            else:
                scores, state = [0] * len(record.keys), "waiting"
            rows.append(
                {
                    "id": record.id,
                    "series": record.series,
                    "no": numbers[record.series],
                    "names": tuple(record.names),
                    "bots": tuple(k is None for k in record.keys),
                    "state": state,
                    "round": (
                        record.rounds
                        if record.scores is not None
                        else live.match.round_no
                        if live is not None and live.match
                        else 0
                    ),
                    "scores": tuple(scores),
                    "points": tuple(_points(record)),
                }
            )
        now = time.time()
        starts_in = None
        if tournament.starts_at is not None:
            starts_in = max(0.0, tournament.starts_at - now)
        clock = None
        if tournament.series_started is not None and tournament.state in ("playing", "final"):
            clock = max(0.0, now - tournament.series_started)
        fixed = {
            "id": tournament.id,
            "name": tournament.name,
            "director": tournament.director,
            "settings": tournament.settings,
            "series": tournament.series,
            "deals": tournament.deals,
            "final": tournament.final,
            "bots": tournament.bots,
            "late_join": tournament.late_join,
            "locked": tournament.password is not None,
            "state": tournament.state,
            "series_no": tournament.series_no,
            "players": len(standings),
        }
        fingerprint = msgpack.packb([fixed, standings, rows])
        fixed["starts_in"] = None if starts_in is None else round(starts_in, 1)
        fixed["clock"] = None if clock is None else round(clock, 1)
        keys = [list(r.keys) for r in tournament.tables if r.series in wanted]
        return _Whole(fixed, standings, order, rows, keys, fingerprint)

    def _cut(self, whole: _Whole, key: str | None, window: Window) -> Tournament:
        part = window_cut(
            whole.standings,
            whole.order,
            whole.tables,
            whole.table_keys,
            int(whole.fixed["series_no"]),
            window,
            key,
        )
        return Tournament(
            **whole.fixed,
            standings=part.standings,
            tables=part.tables,
            tables_total=part.tables_total,
            you=part.you,
        )

    def _send(self, session: Session, tournament: TournamentState) -> None:
        follower = self.followers.get(session.id)
        mine = follower is not None and follower.tournament == tournament.id
        window = follower.window if follower is not None and mine else TOP
        session.send(self.message(tournament, session.id, window))

    def _follow(self, session: Session, tournament: TournamentState, window: Window = TOP) -> None:
        self.followers[session.id] = Follower(session, tournament.id, window)

    def _followed(self, session: Session) -> TournamentState | None:
        found = self.followers.get(session.id)
        tournament_id = found.tournament if found is not None else None
        if tournament_id is None:
            for tournament in self.open.values():
                if tournament.registered(session.id):
                    return tournament
            return None
        return self.open.get(tournament_id) or next(
            (t for t in self.finished if t.id == tournament_id), None
        )

    def _audience(self, tournament: TournamentState) -> list[tuple[Session, Window]]:
        """Who is told of ``tournament`` (its registered players and its followers),
        each with the window it asked for."""
        keys = {e.key for e in tournament.entries}
        found: dict[str, tuple[Session, Window]] = {}
        for session in self.lobby.sessions.values():
            if session.id in keys and session.connected:
                follower = self.followers.get(session.id)
                window = (
                    follower.window
                    if follower is not None and follower.tournament == tournament.id
                    else Window()
                )
                found[session.id] = (session, window)
        for follower in self.followers.values():
            if follower.tournament == tournament.id and follower.session.connected:
                found[follower.session.id] = (follower.session, follower.window)
        return list(found.values())

    def _changed(self, tournament: TournamentState) -> None:
        """Save ``tournament`` with the next commit and tell its audience soon."""
        self._save(tournament)
        self._dirty.add(tournament.id)
        self._wakeup.set()
        self.lobby.lobby_changed()

    def _save(self, tournament: TournamentState) -> None:
        """Write ``tournament`` with the next commit (once, however often it changes
        before then: a series' every table's end would write it whole each time)."""
        store = self.lobby.store
        if store is None:
            return

        def write() -> None:
            try:
                store.save_tournament(
                    tournament.id, tournament.name, tournament.state, tournament.to_dict()
                )
            except sqlite3.Error:
                log.exception("tournament %d could not be saved", tournament.id)

        self.lobby.saver.write_later(("tournament", tournament.id), write)

    def _broadcast(self, tournament: TournamentState, force: bool) -> None:
        audience = self._audience(tournament)
        whole = self._whole(tournament, [window for _, window in audience])
        if not force and self._sent.get(tournament.id) == whole.fingerprint:
            return
        if tournament.id in self.open:
            self._sent[tournament.id] = whole.fingerprint
        for session, window in audience:
            session.send(self._cut(whole, session.id, window))

    async def _run(self) -> None:
        """Starts tournaments and series when they are due; tells followers of changes
        (at once) and of running series' progress (every REFRESH_S)."""
        last_refresh = trio.current_time()
        while True:
            now = trio.current_time()
            # While the store cannot save, no series starts (play is paused; see
            # maumau.server.saving): a due start waits until it saves again.
            due_now = (
                []
                if self.lobby.saver.cannot_save
                else sorted(self._due.items(), key=lambda item: item[1])
            )
            for tournament_id, due in due_now:
                if due <= now and tournament_id in self.open:
                    tournament = self.open[tournament_id]
                    self._due.pop(tournament_id, None)
                    try:
                        self._start_series(tournament)
                    except Exception:
                        log.exception("tournament %d could not start its series", tournament_id)
            if self._dirty:
                dirty, self._dirty = self._dirty, set()
                for tournament_id in dirty:
                    changed = self.open.get(tournament_id) or next(
                        (t for t in self.finished if t.id == tournament_id), None
                    )
                    if changed is None:
                        continue
                    told = self._told.get(tournament_id)
                    calm = told is not None and now - told < CALM_S
                    if changed.state == "registering" and calm:
                        self._dirty.add(tournament_id)  # told once CALM_S has passed
                        continue
                    if tournament_id in self.open:
                        self._told[tournament_id] = now
                    self._broadcast(changed, force=True)
            if now - last_refresh >= REFRESH_S:
                last_refresh = now
                self._note_directors(now)
                self._note_idle(now)
                for tournament in list(self.open.values()):
                    if tournament.state in ("playing", "final"):
                        self._broadcast(tournament, force=False)
            wait = REFRESH_S if not self._dirty else CALM_S
            if self._due:
                wait = min(wait, max(0.0, min(self._due.values()) - trio.current_time()))
            self._wakeup = trio.Event()
            with trio.move_on_after(wait):
                await self._wakeup.wait()
            await trio.sleep(0.05)  # gather a burst of changes into one message

    def _note_idle(self, now: float) -> None:
        """Before the start: drop the registrations of sessions away for
        ``idle_timeout``, and cancel a tournament nobody of which has been connected
        for as long (see the module docstring)."""
        if self.lobby.saver.cannot_save:
            return  # nobody could come back meanwhile: it does not count
        by_id = {s.id: s for s in self.lobby.sessions.values()}
        limit = self.idle_timeout
        for tournament in [t for t in self.open.values() if t.state == "registering"]:
            anyone = False
            for entry in tournament.active():
                session = by_id.get(entry.key)
                if session is not None and session.connected:
                    anyone = True
                    self._away.pop((tournament.id, entry.key), None)
                    continue
                since = self._away.setdefault((tournament.id, entry.key), now)
                if now - since >= limit:
                    self._unregister(tournament, entry, f"away for {limit:g} s")
            if anyone or self._director_here(tournament):
                self._idle.pop(tournament.id, None)
            elif now - self._idle.setdefault(tournament.id, now) >= limit:
                self._cancel(tournament, f"nobody of it was connected for {limit:g} s")

    def _note_directors(self, now: float) -> None:
        """Since when each open tournament's director has been away."""
        for tournament in self.open.values():
            if self._director_here(tournament):
                self._director_away.pop(tournament.id, None)
            else:
                self._director_away.setdefault(tournament.id, now)
        for gone in set(self._director_away) - set(self.open):
            del self._director_away[gone]

    # --- helpers -------------------------------------------------------------------------

    def _find(self, tournament_id: int, finished_too: bool = False) -> TournamentState:
        tournament = self.open.get(tournament_id)
        if tournament is None and finished_too:
            tournament = next((t for t in self.finished if t.id == tournament_id), None)
            if tournament is None and self.lobby.store is not None:
                try:
                    data = self.lobby.store.tournament(tournament_id)
                    tournament = TournamentState.from_dict(data) if data is not None else None
                except (sqlite3.Error, ValueError, TypeError):
                    log.exception("tournament %d could not be read", tournament_id)
        if tournament is None:
            raise TableError(
                "no_such_tournament",
                f"there is no tournament {tournament_id}",
                {"tournament": tournament_id},
            )
        return tournament

    @staticmethod
    def _check_settings(request: CreateTournament) -> dict[str, Any]:
        try:
            settings = Settings.from_dict(request.settings)
        except SettingsError as error:
            raise TableError(
                "bad_settings", str(error)[:300], {"field": error.setting[:64] or "settings"}
            ) from None
        if settings.is_classic and not 3 <= settings.seats <= 4:
            raise TableError(
                "bad_settings",
                "seats: a Mau Mau tournament is played at tables of 3 or 4",
                {"field": "seats"},
            )
        if settings.deals:
            raise TableError(
                "bad_settings",
                "deals: give a series' length as the tournament's deals",
                {"field": "deals"},
            )
        return settings.to_dict()

    # --- after a restart -----------------------------------------------------------------

    def restore(self) -> None:
        """Bring back the open tournaments, each linked to its tables again (which the
        store has already restored); finished ones are read when asked for."""
        store = self.lobby.store
        if store is None:
            return
        try:
            saved = store.tournaments(open_only=True)
            for data in store.tournaments(open_only=False, limit=FINISHED_SHOWN):
                if data.get("state") in ("finished", "cancelled"):
                    self.finished.append(TournamentState.from_dict(data))
        except sqlite3.Error:
            log.exception("the tournaments could not be read")
            return
        except (ValueError, TypeError):
            log.exception("a finished tournament could not be read")
            saved = store.tournaments(open_only=True)
        for data in saved:
            try:
                tournament = TournamentState.from_dict(data)
            except (ValueError, TypeError) as error:
                log.error(
                    "tournament %s could not be restored (%s); skipped", data.get("id"), error
                )
                continue
            self.open[tournament.id] = tournament
            self._ids = max(self._ids, tournament.id + 1)
            for record in tournament.tables:
                table = self.lobby.tables.get(record.id)
                if table is not None:
                    table.tournament = (tournament.id, record.series)
                if record.scores is not None or record.series != tournament.series_no:
                    continue
                if table is None:
                    # Its table could not be restored: nobody can finish it.
                    log.error(
                        "tournament %d: table %d is gone; its players score nothing",
                        tournament.id,
                        record.id,
                    )
                    record.scores = [0] * len(record.keys)
                    continue
                if table.status == "finished" and table.match is not None:
                    record.scores = list(table.match.scores)
                    record.rounds = table.match.round_no
            if tournament.state in ("playing", "final") and tournament.series_over():
                self._end_series(tournament)
            elif tournament.starts_at is not None:
                remaining = max(0.0, tournament.starts_at - time.time())
                self._due[tournament.id] = trio.current_time() + remaining
            log.info(
                "tournament %d %r restored (%s)", tournament.id, tournament.name, tournament.state
            )
        if self.open:
            self.lobby.commit_soon()


def _points(record: SeriesTable) -> list[int]:
    """The tournament points of each seat of a finished table (none before)."""
    return [] if record.scores is None else placing_points(record.scores)


def _per_address(address: str | None) -> bool:
    """Whether the caps per address apply to ``address``: an IP address that is not
    one of this machine's own (127.0.0.0/8, ::1: see the module docstring)."""
    if address is None:
        return False
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False  # not an IP address (a stream that is not a socket)

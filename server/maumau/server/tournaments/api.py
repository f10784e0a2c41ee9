"""Tournaments' requests: what players, directors and the host ask of them.

A tournament (its data: :class:`~maumau.server.tournament.state.TournamentState`) is
made by its *director* (``create_tournament``). Players register and unregister
(``join_tournament``, ``leave_tournament``) until it starts: at the director's go
(``start_tournament``) or when its start time comes; a player may join late where the
director allows it. Anyone may follow one (``watch_tournament``), a locked one with its
password. The director, or the host, may call it off (``cancel_tournament``).

Each request is checked here (the caps: :mod:`maumau.server.tournament.caps`), refused
with a :class:`~maumau.server.errors.TableError`, or carried out by the
:class:`~.service.TournamentService`, which runs the tournaments' course and timer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import trio

from maumau.protocol.messages import (
    CancelTournament,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    Tournament,
    WatchTournament,
)

from .. import names
from ..errors import TableError
from ..lobby import Lobby
from ..session import Session
from ..table import Table
from ..tournament import caps
from ..tournament.state import Entry, TournamentState
from ..tournament.window import TOP, Window
from .audience import Audience
from .presence import Presence
from .service import BREAK_S, TournamentService

log = logging.getLogger("maumau.server")


class Tournaments:
    """The requests about tournaments (see the module docstring); ``service`` runs
    them."""

    def __init__(
        self,
        lobby: Lobby,
        break_s: float = BREAK_S,
        idle_timeout: float = 60.0,
        free_tables: Callable[[], int] = lambda: 1_000_000,
    ) -> None:
        self.lobby = lobby
        self.service = TournamentService(lobby, break_s, idle_timeout, free_tables)

    def start(self, nursery: trio.Nursery) -> None:
        self.service.start(nursery)

    @property
    def open(self) -> dict[int, TournamentState]:
        return self.service.open

    @property
    def finished(self) -> list[TournamentState]:
        return self.service.finished

    @property
    def audience(self) -> Audience:
        return self.service.audience

    @property
    def presence(self) -> Presence:
        return self.service.presence

    def create(self, session: Session, request: CreateTournament) -> TournamentState:
        problem = names.chat_problem(request.name)
        if problem is not None:
            raise TableError(
                "bad_name", f"the tournament's name: {problem}", {"field": "create_tournament.name"}
            )
        settings = caps.check_settings(request)
        caps.check_create(self.service.open.values(), session.id, session.address)
        tournament = TournamentState(
            id=self.service.ids,
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
            origin=session.address,
        )
        self.service.ids += 1
        if request.starts_in is not None:
            self.service.set_due(tournament, request.starts_in)
        self.service.open[tournament.id] = tournament
        log.info(
            "tournament %d %r made by %s (%d series of %s)",
            tournament.id,
            request.name,
            session.name,
            request.series,
            f"{request.deals} deals" if request.deals else "a match",
        )
        self.service.audience.follow(session, tournament)
        self.service.changed(tournament)
        return tournament

    def join(self, session: Session, request: JoinTournament) -> None:
        tournament = self.service.find(request.tournament)
        if tournament.password is not None and request.password != tournament.password:
            raise TableError("wrong_password", "this tournament is locked; the password is wrong")
        entry = tournament.entry(session.id)
        caps.check_register(tournament, entry)
        address = session.address
        if address is not None and tournament.state == "registering":
            by_id = {s.id: s for s in self.lobby.sessions.values()}
            gone = caps.away_beyond(
                tournament, address, lambda key: key in by_id and by_id[key].connected
            )
            for old in gone:
                self.service.unregister(
                    tournament, old, f"more than {caps.AWAY_PER_ADDRESS} from {address} are away"
                )
        since = tournament.next_series()
        if entry is None:
            caps.check_room(tournament, address)
            tournament.entries.append(Entry(session.id, session.name, since=since, address=address))
        else:
            entry.withdrawn, entry.since = False, since
            entry.address = address or entry.address
        self.service.presence.back(tournament.id, session.id)
        log.info("tournament %d: %s registers", tournament.id, session.name)
        self.service.audience.follow(session, tournament)
        self.service.changed(tournament)
        self.service.audience.send(session, tournament)  # at once: the others a moment later

    def leave(self, session: Session, request: LeaveTournament) -> None:
        tournament = self.service.find(request.tournament)
        entry = tournament.entry(session.id)
        if entry is None or entry.withdrawn:
            raise TableError("not_registered", "you are not registered for this tournament")
        self.service.presence.back(tournament.id, entry.key)
        if tournament.state == "registering":
            tournament.entries.remove(entry)
            log.info("tournament %d: %s unregisters", tournament.id, session.name)
        else:
            entry.withdrawn = True
            log.info("tournament %d: %s withdraws", tournament.id, session.name)
        self.service.audience.send(session, tournament)
        self.service.changed(tournament)

    def directs(self, session: Session, tournament: TournamentState) -> bool:
        """Whether ``session`` directs ``tournament`` (see :mod:`.presence`)."""
        return self.service.presence.directs(session, tournament)

    def go(self, session: Session, request: StartTournament) -> None:
        tournament = self.service.find(request.tournament)
        if not self.directs(session, tournament):
            if not self.service.presence.handed_over(session, tournament):
                raise _not_director(tournament, "start")
            log.info(
                "tournament %d: %s starts it, its director being away", tournament.id, session.name
            )
        if tournament.state in ("playing", "final"):
            raise TableError("tournament_running", "a series is being played")
        self.service.start_series(tournament, by_director=True)

    def cancel(self, session: Session, request: CancelTournament) -> None:
        """The director calls the tournament off (see the module docstring)."""
        tournament = self.service.find(request.tournament)
        if not self.directs(session, tournament):
            raise _not_director(tournament, "cancel")
        self.service.call_off(tournament, f"{session.name}, its director, called it off")

    def cancel_for_host(self, tournament_id: int, why: str) -> set[str]:
        """The host calls the tournament off; the ids of the sessions registered for
        it or following it (to be told why)."""
        tournament = self.service.find(tournament_id)
        told = {entry.key for entry in tournament.active()} | self.service.audience.following(
            tournament.id
        )
        self.service.call_off(tournament, why)
        return told

    def watch(self, session: Session, request: WatchTournament) -> None:
        if request.tournament is None:
            self.service.audience.forget(session)
            return
        tournament = self.service.find(request.tournament, finished_too=True)
        if (
            tournament.password is not None
            and request.password != tournament.password
            and tournament.entry(session.id) is None
            and session.id != tournament.director_key
        ):
            raise TableError("wrong_password", "this tournament is locked; the password is wrong")
        window = Window(request.standings_from, request.series, request.tables_from)
        self.service.audience.follow(session, tournament, window)
        self.service.audience.send(session, tournament)

    def claim_seat(self, session: Session, table: Table) -> None:
        """Give ``session`` back the seat the series gave it at ``table``, if it left it
        while the match runs (see :meth:`Table.give_back_drawn`)."""
        if table.tournament is None or table.status != "playing":
            return
        tournament = self.service.open.get(table.tournament[0])
        record = tournament.table_of(table.id) if tournament is not None else None
        if record is not None and session.id in record.keys:
            table.give_back_drawn(record.keys.index(session.id), session)

    def after_leaving_table(self, session: Session) -> None:
        """``session`` is back in the lobby (or has just connected): tell it the
        tournament it follows or is registered for."""
        followed = self.service.followed(session)
        if followed is not None:
            self.service.audience.send(session, followed)

    def message(
        self, tournament: TournamentState, key: str | None, window: Window = TOP
    ) -> Tournament:
        """The ``tournament`` message for the player whose session id is ``key``."""
        return self.service.audience.message(tournament, key, window)


def _not_director(tournament: TournamentState, what: str) -> TableError:
    who = tournament.director or "nobody"
    return TableError(
        "not_director",
        f"only {who}, who directs this tournament, can {what} it",
        {"name": who} if tournament.director else None,
    )

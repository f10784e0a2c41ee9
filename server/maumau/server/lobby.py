"""The lobby: the sessions, the table registry, and what the lobby shows.

Theory of operation
-------------------
The lobby holds every :class:`~maumau.server.session.Session` (by the SHA-256 of its
resume token) and every open :class:`~maumau.server.table.Table` (by id). It makes
tables, moves sessions between them, closes tables nobody can use any more, and
forgets sessions. To each table it is the :class:`~maumau.server.table.TableHost`:
the table reaches the store's commits, the lobby's broadcast and the bots' settings
only through it.

The lobby message lists the open tournaments (see :mod:`.tournaments`) and the
tables with people (connected players or spectators) at
them first; within each part, tables waiting for players first, then running, then
finished ones; as many as fit in one frame. Changes are coalesced: one broadcast to
the sessions in the lobby per batch of changes (:meth:`Lobby.lobby_changed`).

Whoever leaves a table may leave it unattended: :attr:`Lobby.left` is called then
(the lobby's bounds close surplus abandoned tables: see :mod:`maumau.server.bounds`).
"""

from __future__ import annotations

import itertools
import logging
import random
import sqlite3
from collections.abc import Callable
from typing import Any, Protocol

import msgpack
import trio

from maumau.protocol.codec import encode_frame
from maumau.protocol.messages import CreateTable
from maumau.protocol.messages import Lobby as LobbyMessage

from . import bots
from .errors import TableError
from .rules import Settings
from .saving import Saver
from .session import Session
from .store import Store
from .table import Table

log = logging.getLogger("maumau.server")

LOBBY_BUDGET = 60_000  # bytes of a lobby frame given to tables and names
LOBBY_MAX_ONLINE = 1000
LOBBY_CALM = 0.05  # seconds a batch of lobby changes gathers (see Lobby._broadcaster)
LOBBY_CALM_EACH = 0.001  # and this much more for every receiver of the last message
LOBBY_CALM_MAX = 1.0


class Attached(Protocol):
    """What the lobby tells and asks the service attached to it, the tournaments
    (:mod:`maumau.server.tournaments`): every match that ends, every session that says
    hello or is forgotten; whether a session must be kept; the tournaments the lobby
    lists. The lobby knows no more of them than this."""

    def match_over(self, table: Table) -> None: ...

    def arrived(self, session: Session) -> None: ...

    def forgotten(self, session: Session) -> None: ...

    def keeps(self, session: Session) -> bool: ...

    def summaries(self) -> tuple[dict[str, Any], ...]: ...


class _Nothing:
    """Attached until the tournaments are: nothing is told, nothing kept."""

    def match_over(self, table: Table) -> None:
        pass

    def arrived(self, session: Session) -> None:
        pass

    def forgotten(self, session: Session) -> None:
        pass

    def keeps(self, session: Session) -> bool:
        return False

    def summaries(self) -> tuple[dict[str, Any], ...]:
        return ()


class Lobby:
    """Sessions and tables (see the module docstring)."""

    def __init__(
        self,
        saver: Saver,
        tables: dict[int, Table],
        seed: int | None = None,
        bot_delay: float = 0.0,
        bot_forgets: float | None = None,
        hard_budget: float = 0.0,
    ) -> None:
        self.saver = saver
        self.rng = random.Random(seed)
        self.bot_delay = bot_delay
        self.bot_forgets = bot_forgets
        self.hard_budget = hard_budget
        # Hard bots think in worker threads, one at a time: a search holds the GIL
        # most of the time, and the connections must not starve behind several.
        self.thinking = trio.CapacityLimiter(1)
        # What a table is given (TableHost): the saver's, handed on as they are (a
        # table asks for them on every action).
        self.store: Store | None = saver.store
        self.commit_soon = saver.commit_soon
        self.save_later = saver.save_later
        self.info_sent = saver.info_sent
        self.sessions: dict[str, Session] = {}  # by the SHA-256 of the resume token
        self.tables = tables
        store = saver.store
        self._table_ids = itertools.count(store.next_table_id() if store is not None else 1)
        self.left: Callable[[Table], None] = lambda table: None
        # The tournaments, once attached (see Attached).
        self.attached: Attached = _Nothing()
        self._nursery: trio.Nursery | None = None
        self._dirty = False
        self._wakeup = trio.Event()

    def start(self, nursery: trio.Nursery) -> None:
        """Start the lobby broadcaster in ``nursery``, where tables' timer tasks will
        run too."""
        self._nursery = nursery
        nursery.start_soon(self._broadcaster)

    # --- what a table is given (TableHost; see also __init__) ------------------------------

    def lobby_changed(self) -> None:
        """Coalesce lobby updates: one broadcast per batch of changes."""
        self._dirty = True
        self._wakeup.set()

    def match_over(self, table: Table) -> None:
        """``table``'s match has just ended."""
        self.attached.match_over(table)

    # --- what the lobby tells and asks the tournaments -----------------------------------

    def attach(self, service: Attached) -> None:
        self.attached = service

    def keeps(self, session: Session) -> bool:
        """Whether ``session`` must be kept although it has no seat: a tournament
        counts on it."""
        return self.attached.keeps(session)

    def arrived(self, session: Session) -> None:
        """``session`` has just said hello (new, resumed or taken back)."""
        self.attached.arrived(session)

    # --- the lobby message ---------------------------------------------------------------

    def online(self) -> list[str]:
        return sorted(s.name for s in self.sessions.values() if s.connected)

    def lobby_message(self) -> LobbyMessage:
        """Tables with people (connected players or spectators) at them first; within
        each part, tables waiting for players first, then running, then finished ones;
        as many as fit in one frame; ``more`` counts those left out."""
        order = {"waiting": 0, "playing": 1, "finished": 2}
        tables = sorted(
            self.tables.values(),
            key=lambda t: (not t.has_connected_humans(), order[t.status], t.id),
        )
        online = tuple(self.online()[:LOBBY_MAX_ONLINE])
        tournaments = self.attached.summaries()
        budget = LOBBY_BUDGET - sum(len(name.encode()) + 3 for name in online)
        budget -= len(msgpack.packb(tournaments)) if tournaments else 0
        summaries = []
        for table in tables:
            summary = table.summary()
            budget -= len(msgpack.packb(summary))
            if budget < 0:
                break
            summaries.append(summary)
        return LobbyMessage(
            tables=tuple(summaries),
            online=online,
            more=len(tables) - len(summaries),
            tournaments=tournaments,
        )

    async def _broadcaster(self) -> None:
        """One lobby message per batch of changes, to everyone in the lobby. A batch
        gathers LOBBY_CALM seconds, and LOBBY_CALM_EACH more for every receiver of the
        last one (at most LOBBY_CALM_MAX): with hundreds in the lobby, every arrival
        would otherwise send each of them a frame of up to 60 KB (the names online)."""
        calm = LOBBY_CALM
        while True:
            await self._wakeup.wait()
            self._wakeup = trio.Event()
            await trio.sleep(calm)
            if self._dirty:
                self._dirty = False
                audience = [s for s in self.sessions.values() if s.connected and s.table is None]
                if audience:
                    message = self.lobby_message()
                    frame = encode_frame(message.to_wire())
                    for session in audience:
                        session.send(message, frame)
                calm = min(LOBBY_CALM_MAX, LOBBY_CALM + LOBBY_CALM_EACH * len(audience))

    # --- tables -------------------------------------------------------------------

    def new_table_id(self) -> int:
        return next(self._table_ids)

    def create_table(self, session: Session, request: CreateTable, settings: Settings) -> Table:
        table_id = self.new_table_id()
        table = Table(
            self,
            table_id,
            request.name,
            settings,
            session.name,
            request.password,
            {
                seat: request.levels[i] if request.levels else bots.DEFAULT_LEVEL
                for i, seat in enumerate(request.bots)
            },
            self.rng.randrange(2**63),
            creator_session=session.id,
        )
        table.origin_address = session.address
        self.open_table(table)
        log.info("table %d %r created by %s (%s)", table_id, request.name, session.name, settings)
        return table

    def open_table(self, table: Table) -> None:
        """Put ``table`` in the lobby and start its timer task."""
        self.tables[table.id] = table
        assert self._nursery is not None
        self._nursery.start_soon(table.run)

    def find_table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", f"there is no table {table_id}", {"table": table_id})
        return table

    def leave_current(
        self, session: Session, entering: Table | None = None, keep: bool = True
    ) -> None:
        """Leave the current table; ``entering`` (the table being joined) stays open.
        A seat in a running or finished match stays the player's (``keep``: see
        :mod:`maumau.server.table.seating`)."""
        table = session.table
        if table is not None:
            session.table = None
            table.leave(session, keep)
            if table is not entering:
                self.close_if_empty(table)
            self.left(table)

    def move_to(self, session: Session, table: Table) -> None:
        """``session`` was given a seat at ``table`` (by a tournament's draw): it leaves
        where it is, and any seat it kept elsewhere."""
        if session.table is not None and session.table is not table:
            self.leave_current(session, entering=table)
        session.table = table
        self.seated(session, table)
        self.save_session(session)

    def seated(self, session: Session, table: Table | None) -> None:
        """``session`` has sat down at ``table``: a seat it kept anywhere else is let
        go (a player sits at one table at a time). None: it sits nowhere any more."""
        for other in list(self.tables.values()):
            if other is not table and other.release(session):
                self.close_if_empty(other)

    def seat_keepers(self) -> set[object]:
        """Every session that stepped out of a seat it may take back (for the reaper)."""
        return {
            seat.owner
            for table in self.tables.values()
            if not table.closed
            for seat in table.seats
            if seat.owner is not None and seat.session is None
        }

    def close_if_empty(self, table: Table) -> None:
        if table.closed:
            return
        if table.status == "finished" and not table.has_connected_humans():
            # Nobody is there to see the result or ask for a rematch.
            table.close()
            self.tables.pop(table.id, None)
            log.info(
                "table %d %r closed: the match is over and nobody is connected",
                table.id,
                table.name,
            )
        elif not table.has_humans() and table.status != "playing":
            table.close()
            self.tables.pop(table.id, None)
            log.info("table %d %r closed", table.id, table.name)
        elif (
            not table.has_humans()
            and table.tournament is None  # a tournament's match is played to its end
            and all(s.session is None and s.disconnected_at is None for s in table.seats)
        ):
            # Everyone left a running match: nobody can come back to it.
            table.close()
            self.tables.pop(table.id, None)
            log.info("table %d %r closed: everyone left", table.id, table.name)
        self.lobby_changed()

    def close_table(self, table: Table, why: str) -> None:
        """Close ``table`` now, logging ``why``."""
        table.close()
        self.tables.pop(table.id, None)
        log.info("table %d %r closed: %s", table.id, table.name, why)
        self.lobby_changed()

    # --- sessions -----------------------------------------------------------------

    def forget(self, session: Session) -> None:
        """Forget a session (disconnected, or it said ``bye``): its token stops
        working, it leaves its table and lets go of any seat it kept, and a table it
        holds as creator passes on."""
        self.sessions.pop(session.key, None)
        if self.store is not None:
            try:
                self.store.drop_session(session.key)
            except sqlite3.Error:
                log.exception("session of %s could not be dropped", session.name)
        if session.table is not None and not session.table.closed:
            self.leave_current(session, keep=False)
        session.table = None
        self.seated(session, None)  # the seat it kept, if any, is let go
        self.attached.forgotten(session)
        log.debug("forgot the session of %s", session.name)

    def save_session(self, session: Session) -> None:
        if self.store is not None:
            table_id = session.table.id if session.table is not None else None
            try:
                self.store.save_session(session.key, session.id, session.name, table_id)
            except sqlite3.Error:
                log.exception("session of %s could not be saved", session.name)

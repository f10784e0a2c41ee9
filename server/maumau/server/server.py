"""The trio server: its parts put together, and :func:`serve`.

Theory of operation
-------------------
:func:`serve` listens with ``trio.serve_tcp`` and reports the bound port through
``task_status.started(port)``. The :class:`Server` is the composition root: it makes
the parts and hands each the few others it needs, from the bottom up:

- :mod:`.link`: each connection's :class:`~.link.Link` and the :class:`~.link.Outbox`
  that commits the store and then writes every waiting link (group commit);
- :mod:`.saving`: when the store commits, and pausing play while it cannot;
- :mod:`.lobby`: sessions and the table registry; the tables' host;
- :mod:`.bounds`: the lobby's limits, and tidying up after people leave;
- :mod:`.history`: records and replays;
- :mod:`.tournaments`: tournaments, their series of tables and their standings;
- :mod:`.bans`, :mod:`.host_rights` and :mod:`.moderation`: the host's powers;
- :mod:`.handshake`: which session a hello takes;
- :mod:`.dispatch`: what each message of a session does;
- :mod:`.connection`: one nursery per connection (reader, writer, pinger);
- :mod:`.restore`: the lobby rebuilt from the store at start-up.

Everything that touches tables runs synchronously inside the reader task of the
connection that caused it (or a table's own timer task), so changes are applied one
at a time in arrival order. ``docs/architecture.md`` draws the layers and follows one
move from the socket to the engine and back.

Shutdown: :meth:`Server.shutdown` sends every client ``goodbye`` and gives the writers
a bounded moment to flush before the nursery is cancelled.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from typing import Any

import trio

from . import names, restore
from .bans import Bans
from .bounds import IDLE_TIMEOUT, TABLES_PER_ADDRESS, TABLES_PER_SESSION, Bounds
from .connection import HELLO_TIMEOUT, PING_INTERVAL, PLAY_PING_INTERVAL, Connections
from .dispatch import Dispatcher
from .handshake import Handshake
from .history import History
from .host_rights import HostRights
from .link import FLUSH_INTERVAL, MAX_BACKLOG, Link, Outbox
from .lobby import Lobby
from .moderation import Moderation
from .saving import SAVE_RETRY, Saver
from .session import Session
from .store import Store
from .table import Table
from .tournaments import BREAK_S, Tournaments

log = logging.getLogger("maumau.server")

DEFAULT_PORT = 7766


class Server:
    """The lobby and everything in it: the parts of the server, put together."""

    def __init__(
        self,
        seed: int | None = None,
        max_clients: int = 200,
        bot_delay: float = 0.8,
        bot_forgets: float | None = None,
        ping_interval: float = PING_INTERVAL,
        hello_timeout: float = HELLO_TIMEOUT,
        play_ping_interval: float = PLAY_PING_INTERVAL,
        move_rate: float = 20.0,
        move_burst: float = 40.0,
        store: Store | None = None,
        hard_budget: float = 0.2,
        flush_interval: float = FLUSH_INTERVAL,
        max_backlog: int = MAX_BACKLOG,
        save_retry: float = SAVE_RETRY,
        max_tables: int | None = None,
        tables_per_session: int = TABLES_PER_SESSION,
        tables_per_address: int = TABLES_PER_ADDRESS,
        idle_timeout: float = IDLE_TIMEOUT,
        tournament_break: float = BREAK_S,
        host_key: bytes | None = None,
        admins: Iterable[str] = (),
        password: str | None = None,
    ) -> None:
        """``bot_forgets`` (0..1) overrides how often every bot forgets to say Mau
        (None: as its level does). ``store`` keeps the journal, tables, sessions and
        results; without one nothing outlives the process. ``hard_budget`` is the
        hard bot's thinking time per move in seconds (0: it moves at once).
        ``flush_interval`` is the shortest time between two flushes (group commit);
        a connection with more than ``max_backlog`` bytes waiting is dropped.
        ``save_retry`` is the first pause before a failed commit is tried again.
        ``max_tables`` (default: ``max_clients``), ``tables_per_session``,
        ``tables_per_address`` and ``idle_timeout`` bound the lobby (see
        :mod:`maumau.server.bounds`). ``tournament_break`` is the pause in seconds
        between two series of a tournament. The server pings every ``ping_interval`` seconds,
        and every ``play_ping_interval`` (at most ``ping_interval``) while the
        session's table plays with lag compensation on. ``host_key`` (see
        :mod:`.host_rights`), and the secrets of the ``admins`` names, bring the host's
        powers; ``password`` is the server password new sessions must give."""
        self.links: set[Link] = set()
        self.tables: dict[int, Table] = {}
        self.outbox = Outbox(flush_interval, max_backlog)
        self.saver = Saver(store, self.outbox, self.links, self.tables, save_retry)
        self.lobby = Lobby(self.saver, self.tables, seed, bot_delay, bot_forgets, hard_budget)
        self.bounds = Bounds(
            self.lobby,
            self.saver,
            max_clients if max_tables is None else max_tables,
            tables_per_session,
            tables_per_address,
            idle_timeout,
        )
        self.history = History(store)
        self.tournaments = Tournaments(
            self.lobby, tournament_break, idle_timeout, self.bounds.free_tables
        )
        self.bans = Bans(store)
        self.moderation = Moderation(self.lobby, self.tournaments, self.bans, password)
        self.rights = HostRights(host_key, admins)
        self.handshake = Handshake(
            self.lobby, self.saver, max_clients, self.rights, self.moderation
        )
        self.dispatcher = Dispatcher(
            self.lobby, self.bounds, self.history, self.saver, self.tournaments, self.moderation
        )
        self.connections = Connections(
            self.outbox,
            self.saver,
            self.lobby,
            self.handshake,
            self.dispatcher,
            self.links,
            ping_interval,
            hello_timeout,
            min(play_ping_interval, ping_interval),
            move_rate,
            move_burst,
        )
        self.handle = self.connections.handle  # trio.serve_tcp's handler
        self.commit = self.saver.commit
        self.reap = self.bounds.reap
        self.online = self.lobby.online
        self.rng = self.lobby.rng  # the seeded source of table and match seeds

    @property
    def store(self) -> Store | None:
        return self.saver.store

    @property
    def sessions(self) -> dict[str, Session]:
        return self.lobby.sessions

    @property
    def cannot_save(self) -> bool:
        return self.saver.cannot_save

    @property
    def max_tables(self) -> int:
        return self.bounds.max_tables

    @max_tables.setter
    def max_tables(self, value: int) -> None:
        self.bounds.max_tables = value

    def start_background(self, nursery: trio.Nursery) -> None:
        """Start the server's own tasks (the flusher, the lobby broadcaster, the
        archiver, the reaper) in ``nursery``, where tables' timer tasks will run too."""
        names.skeleton("")  # build the confusables table now, not at the first hello
        nursery.start_soon(self.outbox.run)
        self.lobby.start(nursery)
        self.saver.start(nursery)
        self.bounds.start(nursery)
        self.tournaments.start(nursery)

    def restore(self) -> None:
        """Rebuild sessions and open tables from the store (see :mod:`.restore`)."""
        restore.restore(self.lobby, self.saver)
        self.tournaments.restore()
        self.bans.restore()

    async def shutdown(self) -> None:
        """Tell everybody goodbye and give their writers a moment to flush."""
        if not self.commit() and self.store is not None:
            log.error(
                "shutting down with %d changes the database could not save; they are lost "
                "(nobody was told of them)",
                self.store.unsaved,
            )
        await self.connections.goodbye()


async def serve(
    server: Server,
    port: int = DEFAULT_PORT,
    host: str | None = None,
    *,
    task_status: Any = trio.TASK_STATUS_IGNORED,
) -> None:
    """Listen and serve until cancelled; ``task_status.started`` gets the bound port."""
    async with trio.open_nursery() as nursery:
        server.start_background(nursery)
        server.restore()
        listeners = await nursery.start(
            functools.partial(trio.serve_tcp, server.handle, port, host=host)
        )
        bound = listeners[0].socket.getsockname()[1]
        task_status.started(bound)

"""The trio server: its parts put together, and :func:`serve`.

Theory of operation
-------------------
:func:`serve` listens with ``trio.serve_tcp`` and reports the bound port through
``task_status.started(port)``. The :class:`Server` is the composition root: it makes
the parts and hands each the few others it needs, from the bottom up:

- :mod:`.link`: each connection's :class:`~.link.Link` and the :class:`~.link.Outbox`
  that commits the store and then writes every waiting link (group commit);
- :mod:`.inbox`: the one task that reads every connection past its hello;
- :mod:`.saving`: when the store commits, and pausing play while it cannot;
- :mod:`.lobby`: sessions and the table registry; the tables' host;
- :mod:`.bounds`: the lobby's limits, and tidying up after people leave;
- :mod:`.history`: records and replays;
- :mod:`.tournaments`: tournaments, their series of tables and their standings;
- :mod:`.bans`, :mod:`.host_rights` and :mod:`.moderation`: the host's powers;
- :mod:`.handshake`: which session a hello takes;
- :mod:`.dispatch`: what each message of a session does;
- :mod:`.connection`: one nursery per connection (the hello, writer, pinger) and
  what each message does;
- :mod:`.restore`: the lobby rebuilt from the store at start-up.

How it behaves is one :class:`~.config.ServerConfig` (every default written there
once), given with the store.

Everything that touches tables runs synchronously inside the task that read what
caused it (the inbox's, or a connection's own before its hello) or in a table's own
timer task, so changes are applied one at a time in arrival order.
``docs/architecture.md`` draws the layers and follows one move from the socket to the
engine and back.

Shutdown: :meth:`Server.shutdown` sends every client ``goodbye`` and gives the writers
a bounded moment to flush before the nursery is cancelled.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import trio

from . import names, restore
from .bans import Bans
from .bounds import Bounds
from .config import ServerConfig
from .connection import Connections
from .dispatch import Dispatcher
from .handshake import Handshake
from .history import History
from .host_rights import HostRights
from .link import Link, Outbox
from .lobby import Lobby
from .moderation import Moderation
from .saving import Saver
from .session import Session
from .store import Store
from .table import Table
from .tournaments import Tournaments
from .tournaments import restore as restore_tournaments

log = logging.getLogger("maumau.server")

DEFAULT_PORT = 7766


class Server:
    """The lobby and everything in it: the parts of the server, put together."""

    def __init__(self, config: ServerConfig | None = None, store: Store | None = None) -> None:
        """A server that behaves as ``config`` says (see :class:`.config.ServerConfig`;
        None: every default). ``store`` keeps the journal, tables, sessions and
        results; without one nothing outlives the process."""
        c = ServerConfig() if config is None else config
        self.config = c
        self.links: set[Link] = set()
        self.tables: dict[int, Table] = {}
        self.outbox = Outbox(c.flush_interval, c.max_backlog)
        self.saver = Saver(store, self.outbox, self.links, self.tables, c.save_retry)
        self.lobby = Lobby(
            self.saver, self.tables, c.seed, c.bot_delay, c.bot_forgets, c.hard_budget
        )
        self.bounds = Bounds(
            self.lobby,
            self.saver,
            c.max_clients if c.max_tables is None else c.max_tables,
            c.tables_per_session,
            c.tables_per_address,
            c.idle_timeout,
        )
        self.history = History(store)
        self.tournaments = Tournaments(
            self.lobby, c.tournament_break, c.idle_timeout, self.bounds.free_tables
        )
        self.bans = Bans(store)
        self.moderation = Moderation(self.lobby, self.tournaments, self.bans, c.password)
        self.rights = HostRights(c.host_key, c.admins)
        self.handshake = Handshake(
            self.lobby, self.saver, c.max_clients, self.rights, self.moderation
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
            c.ping_interval,
            c.hello_timeout,
            min(c.play_ping_interval, c.ping_interval),
            c.move_rate,
            2 * c.move_rate if c.move_burst is None else c.move_burst,
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
        """Start the server's own tasks (the flusher, the inbox, the lobby broadcaster,
        the archiver, the reaper) in ``nursery``, where tables' timer tasks will run too."""
        names.skeleton("")  # build the confusables table now, not at the first hello
        nursery.start_soon(self.outbox.run)
        nursery.start_soon(self.connections.inbox.run)
        self.lobby.start(nursery)
        self.saver.start(nursery)
        self.bounds.start(nursery)
        self.tournaments.start(nursery)

    def restore(self) -> None:
        """Rebuild sessions and open tables from the store (see :mod:`.restore`)."""
        restore.restore(self.lobby, self.saver)
        restore_tournaments(self.tournaments.service)
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

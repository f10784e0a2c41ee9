"""The trio server: connections, sessions, the lobby, and shutdown.

Theory of operation
-------------------
:func:`serve` listens with ``trio.serve_tcp`` and reports the bound port through
``task_status.started(port)``. Each connection gets one nursery with two tasks: a
reader that waits for its socket, reads, feeds the sans-IO codec and dispatches the
messages, and a writer that is needed only when the peer does not keep up.

Sending is cheap because it is batched. A message for a connection is queued on its
:class:`Link` (encoded once, however many connections get it). One *flusher* task for
the whole server then runs after each batch of changes, at most once every
``flush_interval`` (2 ms; group commit): it commits the store, so that nothing leaves
before what caused it is journaled, and writes every waiting link's frames with one
non-blocking ``writev``. Only what a socket does not take is left to that connection's
writer task, which waits until the socket can take more. Past ``max_backlog`` bytes
waiting, the peer is disconnected rather than slowing anybody else. (Streams that are
not sockets, as in tests, always go through the writer task.)

A :class:`Session` is a player: name, resume token, where they sit. It outlives its
connection: when the connection drops, the seat is kept; a new connection whose
``hello`` carries the resume token takes the session over (replacing an older live
connection, which is told ``goodbye``) and receives the full table state again.

Everything that touches tables runs synchronously inside the reader task of the
connection that caused it, so changes are applied one at a time in arrival order.
Every say-Mau and catch is stamped with ``trio.current_time()`` right after its frame
is decoded. Any exception while handling one connection is logged and ends only that
connection.

Limits: frame size (codec), ``hello`` within 10 s, ``--max-clients``, unique names,
per-connection token buckets for moves, chat and catches. Each violation is answered
with an error; a connection that keeps violating is closed.

When the store cannot save (a full disk), nothing that depends on the failed writes
is sent: the flusher's commit fails, every link *holds* its frames (:meth:`Link.hold`),
and from then on the frames that tell of a table (``table``, ``view``, ``event``,
``mau_decision``) are held too, while everything else (pings, errors, chat, the lobby)
still goes out. Every open table pauses (:meth:`Table.pause`): its timers stop, its
players are told (a ``table`` with ``paused: "cannot_save"``, sent past the held
frames), and moves and other changes are refused with ``cannot_save``. A task retries
the commit with backoff; once one succeeds, the held frames go out in order, the
tables resume with their timers shifted by the pause, and nothing that any client was
told is lost. (The store keeps the failed group in memory and replays it: see
:mod:`maumau.server.store`.)

The lobby is bounded too (see :meth:`Server.check_table_limits` and
:meth:`Server.reap`): at most ``max_tables`` open tables; a session may have made at
most ``tables_per_session`` tables that still wait, and the tables made from one
address that no connected player is at are at most ``tables_per_address``. A waiting
or finished table with nobody connected at it is closed after ``idle_timeout``, and a
disconnected session that holds no seat is forgotten after as long (at once when its
table closes; the oldest first beyond ``LINGERING_MAX``). So what a flood of
connect, ``create_table``, close leaves behind stays within those numbers, however
long it runs, and the lobby lists the tables people are at first. Measured (with
``tracemalloc``), an abandoned table with its player's session costs about 13 KB and
a seatless session about 1.5 KB: with the defaults, what people who have gone leave
behind stays under about 5 MB (200 tables, 1,000 sessions plus those of the last
``REAP_INTERVAL``). ``scripts/flood-lobby`` runs the flood against the real server.

Shutdown: :meth:`Server.shutdown` sends every client ``goodbye`` and gives the writers
a bounded moment to flush before the nursery is cancelled.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import math
import os
import random
import re
import secrets
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import msgpack
import trio

from maumau.protocol.codec import (
    NEED_DATA,
    PEER_CLOSED,
    Connection,
    LocalProtocolError,
    RemoteProtocolError,
    encode_frame,
)
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    Bye,
    Chat,
    ChatLine,
    CreateTable,
    Error,
    GameEvent,
    GetReplay,
    GetStats,
    Goodbye,
    Hello,
    JoinTable,
    LeaveTable,
    ListMatches,
    ListTables,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Ping,
    Pong,
    Ready,
    Rematch,
    Replay,
    StartMatch,
    Stats,
    TableInfo,
    View,
    WatchTable,
    Welcome,
)

from . import bots, names, replay
from .bots import BOT_NAMES
from .errors import TableError
from .rules import IllegalAction, Settings, SettingsError
from .store import Store, digest
from .table import Table

log = logging.getLogger("maumau.server")

DEFAULT_PORT = 7766
HELLO_TIMEOUT = 10.0
PING_INTERVAL = 5.0
DEAD_AFTER_PINGS = 3
FLUSH_INTERVAL = 0.002  # seconds: at most one commit-and-write round per interval
ARCHIVE_INTERVAL = 30.0  # seconds between moves of ended matches' journals
WRITEV_MAX = 512  # buffers in one writev (the system allows at least 1024)
MAX_BACKLOG = 1 << 20  # bytes waiting for one connection before it is dropped
READ_SIZE = 65536
SHUTDOWN_GRACE = 1.0
MAX_VIOLATIONS = 20
LOBBY_BUDGET = 60_000  # bytes of a lobby frame given to tables and names
LOBBY_MAX_ONLINE = 1000
IDLE_TIMEOUT = 60.0  # seconds an unattended table, or a seatless dropped session, is kept
REAP_INTERVAL = 5.0  # seconds between looks for them (at most a quarter of the above)
LINGERING_MAX = 1000  # dropped sessions without a seat kept at most, the newest
TABLES_PER_SESSION = 3  # waiting tables one session may have made
TABLES_PER_ADDRESS = 10  # tables made from one address that nobody connected is at
MOVE_TYPES = frozenset({"play", "draw", "pass", "challenge", "say_mau", "catch"})
SAVE_RETRY = 0.25  # seconds before the first retry of a failed commit; doubles each time
SAVE_RETRY_MAX = 5.0
# Requests that change a table, refused while the store cannot save.
CHANGE_TYPES = MOVE_TYPES | {
    "create_table",
    "join_table",
    "watch_table",
    "ready",
    "start_match",
    "rematch",
}
# Frames that tell of a table's state: held back while the store cannot save.
TABLE_STATE: frozenset[type[Message]] = frozenset({TableInfo, View, GameEvent, MauDecision})


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = trio.current_time()

    def take(self) -> bool:
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Link:
    """One live connection: the codec, the frames waiting to go out, its cancel scope.

    Frames are written by the server's flusher, straight from the event loop: after
    every batch of changes it commits the store and writes each waiting connection's
    frames with one non-blocking ``writev``. Only what the socket does not take (or
    everything, on a stream that is not a socket) is left to the connection's writer
    task, which waits until the stream can take more. A backlog over the server's
    ``max_backlog`` bytes means the peer is not reading: it is disconnected.
    """

    def __init__(self, server: Server, codec: Connection, fd: int | None) -> None:
        self.server = server
        self.codec = codec
        self.fd = fd
        self.out: list[bytes | memoryview] = []  # frames not yet written, in order
        self.held: list[bytes] = []  # frames waiting for the store to save again
        self.out_bytes = 0
        self.queued = False  # on the server's list of links to flush
        self.backlogged = fd is None  # the writer task, not the flusher, writes now
        self.writer_wakeup = trio.Event()
        self.scope: trio.CancelScope | None = None
        self.closing = False
        self.peer = "?"
        self.violations = 0
        self.session: Session | None = None  # set once the hello is answered

    def violation(self) -> bool:
        """Count one broken rule; False (after telling the peer) once there were too many."""
        self.violations += 1
        if self.violations >= MAX_VIOLATIONS:
            self.send(Error("abuse", "too many violations; closing", None, True))
            return False
        return True

    def send(self, message: Message, frame: bytes | None = None) -> None:
        if frame is None:
            frame = encode_frame(message.to_wire())
        self.send_frame(type(message), frame)

    def send_frame(self, kind: type[Message], frame: bytes) -> None:
        self.send_frames((kind,), frame)

    def send_frames(
        self, kinds: tuple[type[Message], ...], frames: bytes, urgent: bool = False
    ) -> None:
        """Queue ready-made frames holding messages of the given classes. While the
        store cannot save, frames about a table's state are held (unless ``urgent``:
        the news of the pause itself)."""
        if self.closing:
            return
        try:
            frame = self.codec.send_frames(kinds, frames)
        except LocalProtocolError as error:
            log.warning("not sent to %s: %s", self.peer, error)
            return
        if self.server.cannot_save and not urgent and not TABLE_STATE.isdisjoint(kinds):
            self.held.append(frame)
            self.out_bytes += len(frame)
            if self.out_bytes > self.server.max_backlog:
                log.warning("%s: too much held for it; disconnecting", self.peer)
                self.abort()
            return
        self.out.append(frame)
        self.out_bytes += len(frame)
        if self.out_bytes > self.server.max_backlog:
            log.warning("%s cannot keep up; disconnecting", self.peer)
            self.abort()
        elif self.backlogged:
            self.writer_wakeup.set()
        elif not self.queued:
            self.queued = True
            self.server.to_flush.append(self)
            self.server.flush_wakeup.set()

    def flush(self) -> None:
        """Write what is waiting, without blocking (the store is committed already)."""
        self.queued = False
        if not self.out or self.scope is None:
            return
        if self.backlogged or self.fd is None:
            self.writer_wakeup.set()
            return
        try:
            done = self.write_some()
        except BlockingIOError:
            done = False
        except OSError:
            self.abort()  # the peer is gone; the reader ends the connection
            return
        if not done:
            self.backlogged = True
            self.writer_wakeup.set()

    def write_some(self) -> bool:
        """One ``writev`` of the waiting frames to the socket; True if all went.

        The frames are written as they are, without joining them: many are shared
        by every connection at a table, so what a slow peer has not taken yet stays
        one copy for all (a written part is dropped by slicing a view of it)."""
        assert self.fd is not None
        out = self.out
        written = os.writev(self.fd, out[:WRITEV_MAX])
        self.out_bytes -= written
        done = 0
        while done < len(out) and written >= len(out[done]):
            written -= len(out[done])
            done += 1
        del out[:done]
        if written:
            out[0] = memoryview(out[0])[written:]
        return not out

    def hold(self) -> None:
        """The store failed to commit what the waiting frames depend on: keep them back
        (all but a frame partly written already, which was saved before; and on a
        closing connection its last frame, the goodbye or error that ends it, which
        nothing comes after)."""
        out = self.out
        first = 1 if out and isinstance(out[0], memoryview) else 0
        last = len(out) - 1 if self.closing and len(out) > first else len(out)
        self.held[:0] = [bytes(frame) for frame in out[first:last]]
        del out[first:last]

    def release(self) -> None:
        """The store saved again: send what was held, in order."""
        if not self.held:
            return
        self.out.extend(self.held)
        self.held.clear()
        if self.backlogged:
            self.writer_wakeup.set()
        elif not self.queued:
            self.queued = True
            self.server.to_flush.append(self)
            self.server.flush_wakeup.set()

    def close(self) -> None:
        """Stop queueing; the writer sends what is queued, then the connection ends."""
        self.closing = True
        self.backlogged = True
        self.writer_wakeup.set()

    def detach(self) -> None:
        """The connection has ended: drop what waits, and never touch its socket
        again (the flusher may still hold this link; the descriptor's number may
        soon belong to another connection)."""
        self.closing = True
        self.fd = None
        self.backlogged = True
        self.out.clear()
        self.held.clear()
        self.out_bytes = 0

    def abort(self) -> None:
        """End the connection now, dropping whatever is queued (for a dead peer)."""
        self.closing = True
        self.out.clear()
        self.held.clear()
        self.out_bytes = 0
        if self.scope is not None:
            self.scope.cancel()


@dataclass(eq=False)
class Session:
    """A player, across reconnects (and, with a store, across server restarts).

    ``key`` is the SHA-256 of the resume token: sessions are looked up by it, so the
    token itself is never compared or stored. ``resume`` is the token, known until a
    restart (after it, from the client's next hello)."""

    id: str
    name: str
    resume: str
    key: str = ""
    link: Link | None = None
    table: Table | None = None
    rtt: float | None = None
    pings: dict[int, float] = field(default_factory=dict)
    verified: bool = False  # a hello of this session proved the name's secret
    skeleton: str = field(init=False)  # how the name is compared (see names.skeleton)

    def __post_init__(self) -> None:
        self.skeleton = names.skeleton(self.name)

    @property
    def connected(self) -> bool:
        return self.link is not None

    def send(self, message: Message, frame: bytes | None = None) -> None:
        if self.link is not None:
            self.link.send(message, frame)

    def send_frame(self, kind: type[Message], frame: bytes) -> None:
        if self.link is not None:
            self.link.send_frame(kind, frame)

    def send_frames(
        self, kinds: tuple[type[Message], ...], frames: bytes, urgent: bool = False
    ) -> None:
        if self.link is not None:
            self.link.send_frames(kinds, frames, urgent)


class Server:
    """The lobby and everything in it."""

    def __init__(
        self,
        seed: int | None = None,
        max_clients: int = 200,
        bot_delay: float = 0.8,
        bot_forgets: float | None = None,
        ping_interval: float = PING_INTERVAL,
        hello_timeout: float = HELLO_TIMEOUT,
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
    ) -> None:
        """``bot_forgets`` (0..1) overrides how often every bot forgets to say Mau
        (None: as its level does). ``store`` keeps the journal, tables, sessions and
        results; without one nothing outlives the process. ``hard_budget`` is the
        hard bot's thinking time per move in seconds (0: it moves at once).
        ``flush_interval`` is the shortest time between two flushes (group commit);
        a connection with more than ``max_backlog`` bytes waiting is dropped.
        ``save_retry`` is the first pause before a failed commit is tried again.
        ``max_tables`` (default: ``max_clients``), ``tables_per_session``,
        ``tables_per_address`` and ``idle_timeout`` bound the lobby (see the module
        docstring)."""
        self.rng = random.Random(seed)
        self.max_clients = max_clients
        self.bot_delay = bot_delay
        self.bot_forgets = bot_forgets
        self.ping_interval = ping_interval
        self.hello_timeout = hello_timeout
        self.move_rate = move_rate
        self.move_burst = move_burst
        self.store = store
        self.hard_budget = hard_budget
        # Hard bots think in worker threads, one at a time: a search holds the GIL
        # most of the time, and the connections must not starve behind several.
        self.thinking = trio.CapacityLimiter(1)
        self.sessions: dict[str, Session] = {}  # by the SHA-256 of the resume token
        self.tables: dict[int, Table] = {}
        self.links: set[Link] = set()
        self._unsaved: dict[int, Table] = {}  # tables whose record the next commit writes
        self.to_flush: list[Link] = []  # links with frames waiting for the flusher
        self.flush_wakeup = trio.Event()
        self.flush_interval = flush_interval
        self.max_backlog = max_backlog
        self.save_retry = save_retry
        self.cannot_save = False  # the store failed to commit; see the module docstring
        self.infos_sent: set[Table] = set()  # tables whose info_sent the commit saves
        self._table_ids = itertools.count(store.next_table_id() if store is not None else 1)
        self._replays = replay.ReplayCache()
        self._nursery: trio.Nursery | None = None
        self._lobby_dirty = False
        self._lobby_wakeup = trio.Event()
        self.max_tables = max_clients if max_tables is None else max_tables
        self.tables_per_session = tables_per_session
        self.tables_per_address = tables_per_address
        self.idle_timeout = idle_timeout
        self._unattended: dict[int, float] = {}  # table id -> since when nobody is there
        self._lingering: dict[str, float] = {}  # session key -> since when it holds nothing

    # --- lobby ----------------------------------------------------------------------

    def online(self) -> list[str]:
        return sorted(s.name for s in self.sessions.values() if s.connected)

    def lobby_message(self) -> Lobby:
        """Tables with people (connected players or spectators) at them first; within
        each part, tables waiting for players first, then running, then finished ones;
        as many as fit in one frame; ``more`` counts those left out."""
        order = {"waiting": 0, "playing": 1, "finished": 2}
        tables = sorted(
            self.tables.values(),
            key=lambda t: (not t.has_connected_humans(), order[t.status], t.id),
        )
        online = tuple(self.online()[:LOBBY_MAX_ONLINE])
        budget = LOBBY_BUDGET - sum(len(name.encode()) + 3 for name in online)
        summaries = []
        for table in tables:
            summary = table.summary()
            budget -= len(msgpack.packb(summary))
            if budget < 0:
                break
            summaries.append(summary)
        return Lobby(tables=tuple(summaries), online=online, more=len(tables) - len(summaries))

    def lobby_changed(self) -> None:
        """Coalesce lobby updates: one broadcast per batch of changes."""
        self._lobby_dirty = True
        self._lobby_wakeup.set()

    def start_background(self, nursery: trio.Nursery) -> None:
        """Start the server's own tasks (the flusher, the lobby broadcaster) in
        ``nursery``, where tables' timer tasks will run too."""
        self._nursery = nursery
        names.skeleton("")  # build the confusables table now, not at the first hello
        nursery.start_soon(self._flusher)
        nursery.start_soon(self._lobby_broadcaster)
        nursery.start_soon(self._archiver)
        nursery.start_soon(self._reaper)

    def commit_soon(self) -> None:
        """Have the flusher commit the store's open group with its next batch."""
        if self.store is not None and (self.store.dirty or self._unsaved):
            self.flush_wakeup.set()

    async def _flusher(self) -> None:
        """After each batch of changes: commit the store, then write every waiting
        link's frames (see :class:`Link`). One task for all connections costs far less
        than waking a writer task per connection for every change."""
        last = -math.inf
        while True:
            await self.flush_wakeup.wait()
            if self.flush_interval > 0:
                # Group commit: at most one flush per interval; under load each then
                # carries more changes, and commits fewer times.
                wait = last + self.flush_interval - trio.current_time()
                if wait > 0:
                    await trio.sleep(wait)
            self.flush_wakeup = trio.Event()
            self.commit()  # nothing leaves before what caused it is journaled
            links, self.to_flush = self.to_flush, []
            for link in links:
                link.flush()
            last = trio.current_time()

    async def _archiver(self) -> None:
        """Every ARCHIVE_INTERVAL, move the journals of matches that ended meanwhile to
        the store's archive (see :meth:`Store.archive`)."""
        while True:
            await trio.sleep(ARCHIVE_INTERVAL)
            self.archive()

    def archive(self) -> None:
        if self.store is not None and self.store.archive_due and self.commit():
            try:
                moved = self.store.archive()
            except sqlite3.Error:
                log.exception("ended matches' journals could not be archived")
            else:
                log.debug("archived %d journal rows", moved)

    async def _lobby_broadcaster(self) -> None:
        while True:
            await self._lobby_wakeup.wait()
            self._lobby_wakeup = trio.Event()
            await trio.sleep(0.05)
            if self._lobby_dirty:
                self._lobby_dirty = False
                audience = [s for s in self.sessions.values() if s.connected and s.table is None]
                if audience:
                    message = self.lobby_message()
                    frame = encode_frame(message.to_wire())
                    for session in audience:
                        session.send(message, frame)

    @staticmethod
    def _check_new_table(request: CreateTable) -> Settings:
        problem = names.chat_problem(request.name)
        if problem is not None:
            raise TableError("bad_name", f"the table's name: {problem}")
        try:
            settings = Settings.from_dict(request.settings)
        except SettingsError as error:
            raise TableError("bad_settings", str(error)[:300]) from None
        if len(set(request.bots)) != len(request.bots):
            raise TableError("bad_settings", "bots: a seat is listed twice")
        for seat in request.bots:
            if not 0 <= seat < settings.seats:
                raise TableError("no_such_seat", f"bots: there is no seat {seat} at this table")
        if request.levels and len(request.levels) != len(request.bots):
            raise TableError("bad_settings", "levels: give one level for each bot seat")
        return settings

    def create_table(self, session: Session, request: CreateTable, settings: Settings) -> Table:
        table_id = next(self._table_ids)
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
        table.origin_address = self._address_of(session)
        self.tables[table_id] = table
        assert self._nursery is not None
        self._nursery.start_soon(table.run)
        log.info("table %d %r created by %s (%s)", table_id, request.name, session.name, settings)
        return table

    def _find_table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", f"there is no table {table_id}")
        return table

    def _leave_current(self, session: Session, entering: Table | None = None) -> None:
        """Leave the current table; ``entering`` (the table being joined) stays open."""
        table = session.table
        if table is not None:
            session.table = None
            table.leave(session)
            if table is not entering:
                self._close_if_empty(table)
            self._cap_abandoned(table)

    def _close_if_empty(self, table: Table) -> None:
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
        elif not table.has_humans() and all(
            s.session is None and s.disconnected_at is None for s in table.seats
        ):
            # Everyone left a running match: nobody can come back to it.
            table.close()
            self.tables.pop(table.id, None)
            log.info("table %d %r closed: everyone left", table.id, table.name)
        self.lobby_changed()

    # --- bounds of the lobby -------------------------------------------------------------

    def check_table_limits(self, session: Session) -> None:
        """Refuse a ``create_table`` past the lobby's bounds: ``lobby_full`` with
        ``max_tables`` open; ``too_many_tables`` when the session has made
        ``tables_per_session`` tables that still wait, or ``tables_per_address``
        tables made from its address have no connected player or spectator. The
        table the session is at does not count if leaving it will close it."""
        current = session.table
        leaving = current if current is not None and _closes_without(current, session) else None
        tables = [t for t in self.tables.values() if t is not leaving and not t.closed]
        if len(tables) >= self.max_tables:
            raise TableError(
                "lobby_full", f"the server has {len(tables)} tables open, its most; join one"
            )
        made = sum(1 for t in tables if t.origin_session == session.id and t.status == "waiting")
        if made >= self.tables_per_session:
            raise TableError(
                "too_many_tables", f"you have made {made} tables that are still waiting"
            )
        address = self._address_of(session)
        left = sum(
            1 for t in tables if t.origin_address == address and not t.has_connected_humans()
        )
        if left >= self.tables_per_address:
            raise TableError(
                "too_many_tables",
                f"{left} tables made from your address have nobody at them; "
                f"they close {self.idle_timeout:g} s after the last one leaves",
            )

    @staticmethod
    def _address_of(session: Session) -> str | None:
        """The host part of the session's peer address (None while disconnected)."""
        if session.link is None:
            return None
        peer = session.link.peer
        found = re.match(r"\('([^']*)'", peer)  # str() of a socket address tuple
        return found.group(1) if found else peer

    async def _reaper(self) -> None:
        """See :meth:`reap`: every REAP_INTERVAL, or a quarter of ``idle_timeout``."""
        interval = min(REAP_INTERVAL, self.idle_timeout / 4)
        while True:
            await trio.sleep(interval)
            try:
                self.reap()
            except Exception:  # never let the housekeeping take the server down
                log.exception("the lobby could not be tidied up")

    def reap(self) -> None:
        """Close the tables nobody is at and forget the sessions that hold nothing.

        A table that is waiting or finished and has no connected player or spectator
        is closed once it has been so for ``idle_timeout`` (a running match plays on
        with bots and ends by itself). A session that is disconnected and holds no
        seat at an open table (in the lobby, or watching) is forgotten, with its
        token, once it has been so for ``idle_timeout``; at once if its table has
        closed; and the oldest first beyond LINGERING_MAX. Tables and sessions
        restored after a restart start to count when they are restored. Nothing is
        closed or forgotten while the server cannot save (every table is paused)."""
        if self.cannot_save:
            return
        now = trio.current_time()
        unattended: dict[int, float] = {}
        for table in list(self.tables.values()):
            if table.closed or table.status == "playing" or table.has_connected_humans():
                continue
            since = self._unattended.get(table.id, now)
            if now - since >= self.idle_timeout:
                self._close_abandoned(table)
            else:
                unattended[table.id] = since
        self._unattended = unattended
        lingering: dict[str, float] = {}
        for session in list(self.sessions.values()):
            at = session.table
            if session.connected or (
                at is not None and not at.closed and at.seat_of(session) is not None
            ):
                continue
            since = self._lingering.get(session.key, now)
            if (at is not None and at.closed) or now - since >= self.idle_timeout:
                self._forget(session)
            else:
                lingering[session.key] = since
        excess = max(0, len(lingering) - LINGERING_MAX)
        for key in sorted(lingering, key=lingering.__getitem__)[:excess]:
            oldest = self.sessions.get(key)
            if oldest is not None:
                self._forget(oldest)
            del lingering[key]
        self._lingering = lingering
        self.commit_soon()

    def _cap_abandoned(self, table: Table) -> None:
        """``table`` may just have lost its last connected player or spectator: if the
        tables made from its address that nobody connected is at are now more than
        ``tables_per_address`` (several connections from one address each made one
        and left), close the oldest of them that are not running a match. So the cap
        holds at all times, not only when a table is made."""
        address = table.origin_address
        if address is None or table.closed or table.has_connected_humans():
            return
        left = [
            t
            for t in self.tables.values()
            if t.origin_address == address and not t.closed and not t.has_connected_humans()
        ]
        excess = len(left) - self.tables_per_address
        for old in sorted(left, key=lambda t: t.id):
            if excess <= 0:
                break
            if old.status != "playing":
                self._close_abandoned(old, f"more than {self.tables_per_address} from {address}")
                excess -= 1

    def _close_abandoned(self, table: Table, why: str = "") -> None:
        table.close()
        self.tables.pop(table.id, None)
        why = why or f"nobody was at it for {self.idle_timeout:g} s"
        log.info("table %d %r closed: %s", table.id, table.name, why)
        self.lobby_changed()

    def _forget(self, session: Session) -> None:
        """Forget a disconnected session: its token stops working, and a table it
        still watches (or holds, as creator) lets it go."""
        self.sessions.pop(session.key, None)
        if self.store is not None:
            try:
                self.store.drop_session(session.key)
            except sqlite3.Error:
                log.exception("session of %s could not be dropped", session.name)
        if session.table is not None and not session.table.closed:
            self._leave_current(session)
        session.table = None
        log.debug("forgot the session of %s", session.name)

    # --- dispatch --------------------------------------------------------------------

    def dispatch(self, session: Session, message: Message, stamp: float) -> None:
        """Handle one message from a session's connection (not hello/ping/pong)."""
        kind = message.TYPE
        table = session.table
        if self.cannot_save and kind in CHANGE_TYPES:
            raise TableError(
                "cannot_save",
                "the server cannot save right now (its disk may be full); play is paused "
                "until it can, and nothing is lost",
            )
        if kind in MOVE_TYPES:
            if table is None:
                raise TableError("not_at_table", "sit at a table first")
            table.player_message(session, message, stamp)
        elif isinstance(message, ListTables):
            session.send(self.lobby_message())
        elif isinstance(message, CreateTable):
            settings = self._check_new_table(message)
            self.check_table_limits(session)
            self._leave_current(session)
            new = self.create_table(session, message, settings)
            session.table = new
            try:
                new.join(session, None, message.password)
            except TableError:
                new.watch(session, message.password)
        elif isinstance(message, JoinTable):
            target = self._find_table(message.table)
            if table is target and target.seat_of(session) is not None:
                raise TableError("already_seated", "you already sit at this table")
            target.free_seat(message.seat, message.password)
            self._leave_current(session, entering=target)
            target.join(session, message.seat, message.password)
            session.table = target
        elif isinstance(message, WatchTable):
            target = self._find_table(message.table)
            target.check_open()
            target.check_password(message.password)
            if target is table:
                raise TableError("already_here", "you are already at this table")
            self._leave_current(session, entering=target)
            target.watch(session, message.password)
            session.table = target
        elif isinstance(message, LeaveTable):
            if table is None:
                raise TableError("not_at_table", "you are not at a table")
            self._leave_current(session)
            session.send(self.lobby_message())
        elif isinstance(message, Ready):
            if table is None:
                raise TableError("not_at_table", "you are not at a table")
            table.set_ready(session, message.ready)
        elif isinstance(message, StartMatch):
            if table is None:
                raise TableError("not_at_table", "you are not at a table")
            table.start(session)
        elif isinstance(message, Rematch):
            if table is None:
                raise TableError("not_at_table", "you are not at a table")
            table.rematch(session)
        elif isinstance(message, GetStats):
            session.send(self.stats_message(session, message.limit))
        elif isinstance(message, ListMatches):
            session.send(self.matches_message(session, message.limit, message.mine))
        elif isinstance(message, GetReplay):
            session.send(self.replay_message(session, message))
        elif isinstance(message, Chat):
            problem = names.chat_problem(message.text)
            if problem is not None:
                raise TableError("bad_chat", problem)
            if message.scope == "table":
                if table is None:
                    raise TableError("not_at_table", "you are not at a table")
                table.chat(session, message.text)
            else:
                line = ChatLine("lobby", session.name, message.text)
                for other in self.sessions.values():
                    if other.connected and other.table is None:
                        other.send(line)
        else:
            raise TableError("unexpected", f"{kind} is not expected now")
        if session.table is not table:
            self._save_session(session)

    # --- persistence -------------------------------------------------------------------

    def save_later(self, table: Table) -> None:
        """Write ``table``'s record just before the next commit."""
        self._unsaved[table.id] = table
        self.flush_wakeup.set()

    def commit(self) -> bool:
        """Commit the store's open group of writes (see :mod:`maumau.server.store`),
        with the records of the tables changed since the last commit; False if what
        was written is not saved (the store cannot save: see the module docstring)."""
        if self._unsaved:
            tables, self._unsaved = self._unsaved, {}
            for table in tables.values():
                table.write_record()
        store = self.store
        if store is None or not store.dirty:
            self._saved()
            return True
        if self.cannot_save:
            return False  # _retry_saving tries again, with backoff
        try:
            store.commit()
        except sqlite3.Error as error:
            self._saving_failed(error)
            return False
        self._saved()
        return True

    def info_sent(self, table: Table) -> None:
        self.infos_sent.add(table)

    def close_if_empty(self, table: Table) -> None:
        self._close_if_empty(table)

    def _saved(self) -> None:
        """Everything sent so far is saved: so is each table's last table_info."""
        if self.infos_sent:
            for table in self.infos_sent:
                table.info_saved = table.info_sent
            self.infos_sent.clear()

    def _saving_failed(self, error: sqlite3.Error) -> None:
        """The store could not commit: hold every frame that may depend on it, pause
        every table, and retry until the store saves again."""
        assert self.store is not None
        log.error(
            "the database cannot save (%s): play is paused, nothing is sent that is not "
            "saved; retrying (%s)",
            error,
            self.store.path,
        )
        self.cannot_save = True
        for link in self.links:
            link.hold()
        for table in list(self.tables.values()):
            table.pause()
        if self._nursery is not None:
            self._nursery.start_soon(self._retry_saving)

    async def _retry_saving(self) -> None:
        assert self.store is not None
        delay = max(self.save_retry, 0.01)
        started = trio.current_time()
        while self.cannot_save:
            await trio.sleep(delay)
            delay = min(2 * delay, SAVE_RETRY_MAX)
            if self._unsaved:
                tables, self._unsaved = self._unsaved, {}
                for table in tables.values():
                    table.write_record()
            try:
                self.store.commit()
                self._saved()
            except sqlite3.Error as error:
                log.warning(
                    "the database still cannot save (%s); %d changes wait; next try in %g s",
                    error,
                    self.store.unsaved,
                    delay,
                )
                continue
            self._saving_restored(trio.current_time() - started)

    def _saving_restored(self, paused_for: float) -> None:
        """The store saved again: send what was held and let the tables play on."""
        log.warning("the database saves again after %.1f s; play resumes", paused_for)
        self.cannot_save = False
        # Nobody could sit or come back during the pause: it does not count as idle.
        self._unattended = {key: t + paused_for for key, t in self._unattended.items()}
        self._lingering = {key: t + paused_for for key, t in self._lingering.items()}
        for link in list(self.links):
            link.release()
        for table in list(self.tables.values()):
            table.resume()
        self.flush_wakeup.set()

    def _save_session(self, session: Session) -> None:
        if self.store is not None:
            table_id = session.table.id if session.table is not None else None
            try:
                self.store.save_session(session.key, session.id, session.name, table_id)
            except sqlite3.Error:
                log.exception("session of %s could not be saved", session.name)

    def _need_store(self) -> Store:
        if self.store is None:
            raise TableError("no_store", "this server keeps no records (it runs without --db)")
        return self.store

    def stats_message(self, session: Session, limit: int) -> Stats:
        store = self._need_store()
        return Stats(tuple(store.leaderboard(limit)), store.player_stats(session.name))

    def matches_message(self, session: Session, limit: int, mine: bool) -> Matches:
        """The latest finished matches; those of tables with a password only for the
        people who sat there (see :mod:`maumau.server.replay`)."""
        store = self._need_store()
        owner = session.name if session.verified else None
        found = store.finished_matches(limit, session.name if mine else None, owner)
        return Matches(tuple(replay.match_summary(store, record) for record in found))

    def replay_message(self, session: Session, request: GetReplay) -> Replay:
        store = self._need_store()
        viewer = replay.Viewer(session.name if session.verified else None, request.password)
        return self._replays.page(store, request.match, request.start, request.count, viewer)

    def _proves_name(self, session: Session, hello: Hello) -> bool:
        """Whether ``hello`` carries the secret that owns the session's name (checked
        on every hello, a resuming one too: the flag is then kept by the session)."""
        if self.store is None or hello.secret is None:
            return False
        try:
            return self.store.check_player(session.name, hello.secret, claim=False) == "ok"
        except sqlite3.Error:
            log.exception("the secret of %s could not be checked", session.name)
            return False

    def restore(self) -> None:
        """Rebuild sessions and open tables from the store (after a restart or crash).

        Each session and each table is restored on its own: one that fails (a row the
        store cannot read is already left out, logged by id) is logged by id and the
        others start. A table whose match cannot be read or replayed is closed, as its
        players could not play on; the store's rows stay for replays and repair."""
        store = self.store
        if store is None:
            return
        by_id: dict[str, Session] = {}
        session_records = store.sessions()
        for record in session_records:
            try:
                session = Session(record.id, record.name, "", key=record.token_sha256)
            except Exception:
                log.exception("session %r could not be restored; skipped", record.id)
                continue
            self.sessions[session.key] = session
            by_id[session.id] = session
        restored = 0
        for table_record in store.open_tables():
            try:
                settings = Settings.from_dict(table_record.settings)
                table = Table(
                    self,
                    table_record.id,
                    table_record.name,
                    settings,
                    table_record.creator or "",
                    table_record.password,
                    {},
                    self.rng.randrange(2**63),
                )
                match = (
                    store.match(table_record.match_id)
                    if table_record.match_id is not None
                    else None
                )
                journal = list(store.journal(match.id)) if match is not None else []
                table.restore(table_record, by_id, match, journal)
            except Exception as error:
                log.error(
                    "table %d could not be restored (%s: %s); closing it",
                    table_record.id,
                    type(error).__name__,
                    error,
                )
                log.debug("table %d: how its restoring failed", table_record.id, exc_info=True)
                try:
                    store.close_table(table_record.id)
                except sqlite3.Error:
                    log.exception("table %d could not be closed", table_record.id)
                continue
            self.tables[table.id] = table
            table.info_saved = table.info(None).to_wire()  # as the store has it
            assert self._nursery is not None
            self._nursery.start_soon(table.run)
            restored += 1
        for session in self.sessions.values():
            if session.table is not None and self.tables.get(session.table.id) is not session.table:
                session.table = None  # seated at a table that failed half-way: the lobby
        for record in session_records:
            found = self.sessions.get(record.token_sha256)
            watched = self.tables.get(record.table_id) if record.table_id is not None else None
            if found is not None and found.table is None and watched is not None:
                found.table = watched  # a spectator: watches again on resuming
        self.commit()
        self.archive()  # matches that ended, or whose table closed, before a crash
        if restored or self.sessions:
            log.info("restored %d tables and %d sessions", restored, len(self.sessions))

    # --- connections --------------------------------------------------------------------

    async def handle(self, stream: trio.abc.Stream) -> None:
        """One connection, from hello to close. Never raises."""
        fd: int | None = None
        peer = "?"
        if isinstance(stream, trio.SocketStream):
            with contextlib.suppress(OSError):
                peer = str(stream.socket.getpeername())
                fd = stream.socket.fileno()
        link = Link(self, Connection("server"), fd)
        link.peer = peer
        try:
            async with trio.open_nursery() as nursery:
                link.scope = nursery.cancel_scope
                nursery.start_soon(self._writer, stream, link)
                self.links.add(link)
                await self._run_connection(stream, link, nursery)
                link.close()
        except Exception:
            log.exception("connection %s failed", link.peer)
        finally:
            self.links.discard(link)
            link.detach()  # before the socket closes and its number can be reused
            session = link.session
            if session is not None and session.link is link:
                session.link = None
                log.info("%s disconnected (%s)", session.name, link.peer)
                table = session.table
                if table is not None:
                    table.disconnected(session)
                    if not table.has_humans():
                        self._close_if_empty(table)
                    self._cap_abandoned(table)
                self.lobby_changed()
            with trio.move_on_after(0.5) as cleanup:
                cleanup.shield = True
                await trio.aclose_forcefully(stream)

    async def _writer(self, stream: trio.abc.Stream, link: Link) -> None:
        """Write what the flusher could not (a full socket, or a stream that is not a
        socket), and after :meth:`Link.close` what is left; then end the connection."""
        fd = link.fd
        try:
            while True:
                await link.writer_wakeup.wait()
                link.writer_wakeup = trio.Event()
                while link.out:
                    self.commit()  # nothing leaves before what caused it is journaled
                    if fd is None:
                        data = b"".join(link.out)
                        link.out.clear()
                        await stream.send_all(data)
                        link.out_bytes -= len(data)
                        continue
                    await trio.lowlevel.wait_writable(fd)
                    # Frames may have come while it waited: commit them too (a failed
                    # commit holds them, and only what may go is left to write).
                    self.commit()
                    if link.out:
                        with contextlib.suppress(BlockingIOError):
                            link.write_some()
                if link.closing:
                    break
                link.backlogged = fd is None
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        if link.scope is not None:
            link.scope.cancel()

    async def _run_connection(
        self, stream: trio.abc.Stream, link: Link, nursery: trio.Nursery
    ) -> None:
        hello: Hello | None = None
        with trio.move_on_after(self.hello_timeout):
            while hello is None:
                message = await self._next_message(stream, link)
                if message is None:
                    return
                if isinstance(message, Hello):
                    hello = message
        if hello is None:
            link.send(
                Error("hello_timeout", f"no hello within {self.hello_timeout:g} s", None, True)
            )
            return
        session = self._welcome(link, hello)
        if session is None:
            return
        nursery.start_soon(self._pinger, session, link)
        moves = TokenBucket(self.move_rate, self.move_burst)
        chats = TokenBucket(1, 5)
        catches = TokenBucket(2, 4)
        while True:
            message = await self._next_message(stream, link)
            if message is None:
                return
            if session.link is not link:
                return  # replaced by a newer connection
            stamp = trio.current_time()
            if isinstance(message, Ping):
                link.send(Pong(message.nonce))
                continue
            if isinstance(message, Pong):
                sent = session.pings.pop(message.nonce, None)
                if sent is not None:
                    rtt = stamp - sent
                    session.rtt = rtt if session.rtt is None else 0.8 * session.rtt + 0.2 * rtt
                continue
            if isinstance(message, Bye):
                self._leave_current(session)
                self.sessions.pop(session.key, None)
                if self.store is not None:
                    self.store.drop_session(session.key)
                link.session = None
                self.lobby_changed()
                return
            if isinstance(message, Hello):
                link.send(Error("already_hello", "hello was already answered", "hello"))
                continue
            bucket = chats if message.TYPE == "chat" else moves
            allowed = bucket.take() and (message.TYPE != "catch" or catches.take())
            if not allowed:
                link.send(Error("rate_limited", "slow down: too many messages", message.TYPE))
                if not link.violation():
                    return
                continue
            try:
                self.dispatch(session, message, stamp)
            except (TableError, IllegalAction) as error:
                reason = error.message if isinstance(error, TableError) else error.reason
                link.send(Error(error.code, reason[:500], message.TYPE))

    async def _next_message(self, stream: trio.abc.Stream, link: Link) -> Message | None:
        """The next valid message, or None when the connection should end."""
        codec = link.codec
        while True:
            try:
                event = codec.next_event()
            except RemoteProtocolError as error:
                ref = error.ref if error.ref is None else error.ref[:32]
                link.send(Error(error.code, error.message[:500], ref, error.fatal))
                if error.fatal or not link.violation():
                    return None
                continue
            if event is PEER_CLOSED:
                return None
            if event is NEED_DATA:
                fd = link.fd
                if fd is None:
                    try:
                        data = await stream.receive_some(READ_SIZE)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return None
                    codec.receive_data(bytes(data))
                    continue
                # A socket is read directly: wait, then read once. (The stream's
                # receive_some tries a read first, which mostly fails here, and yields
                # again after it: twice the system calls and task switches.)
                await trio.lowlevel.wait_readable(fd)
                try:
                    codec.receive_data(os.read(fd, READ_SIZE))
                except BlockingIOError:
                    pass
                except OSError:
                    return None
                continue
            assert isinstance(event, Message)
            return event

    def _welcome(self, link: Link, hello: Hello) -> Session | None:
        if hello.version != PROTOCOL_VERSION:
            link.send(
                Error(
                    "version_mismatch",
                    f"this server speaks protocol {PROTOCOL_VERSION}, not {hello.version}",
                    "hello",
                    True,
                )
            )
            return None
        found = self._session_for(link, hello)
        if found is None:
            return None
        session, resumed = found
        session.verified = session.verified or self._proves_name(session, hello)
        if resumed:
            session.pings.clear()
            session.rtt = None  # a new connection may take another path
            previous = session.link
            if previous is not None:
                previous.send(Goodbye("replaced by a new connection"))
                previous.close()
        session.link = link
        link.session = session
        self._save_session(session)
        link.send(Welcome(PROTOCOL_VERSION, session.id, session.resume, session.name, resumed))
        log.info("%s %s (%s)", session.name, "resumed" if resumed else "connected", link.peer)
        if session.table is not None and session.table.closed:
            session.table = None
        if session.table is not None:
            session.table.reconnected(session)
        else:
            link.send(self.lobby_message())
        self.lobby_changed()
        return session

    def _owner(self, hello: Hello) -> str | None:
        """Whose the name is: ``ok`` (the secret matches), ``new`` (claimed now),
        ``free``, ``reserved``, or None on a server without records."""
        if self.store is None:
            return None
        # A name someone is using without a secret cannot be claimed from under them.
        skeleton = names.skeleton(hello.name)
        in_use = any(s.skeleton == skeleton for s in self.sessions.values())
        try:
            return self.store.check_player(hello.name, hello.secret, claim=not in_use)
        except sqlite3.Error:
            log.exception("the name %s could not be checked", hello.name)
            return "free"

    @staticmethod
    def _refuse(code: str, text: str, link: Link) -> None:
        """Refuse a hello: a fatal error naming it."""
        link.send(Error(code, text, "hello", True))

    def _session_for(self, link: Link, hello: Hello) -> tuple[Session, bool] | None:
        """The session a hello takes (and whether it is taken back), or None after
        telling the peer why not.

        A resume token takes its session back. So does the name's secret, on a server
        that keeps records: the session then gets a new token (the old one stops
        working), so a player whose client lost its token still gets their seat back.
        """
        if hello.resume:
            session = self.sessions.get(digest(hello.resume))
            if session is None:
                self._refuse("unknown_resume", "that resume token is not known here", link)
                return None
            session.resume = hello.resume
            return session, True
        problem = names.name_problem(hello.name, BOT_NAMES)
        if problem is not None:
            self._refuse("bad_name", problem, link)
            return None
        owner = self._owner(hello)
        if owner == "reserved":
            self._refuse(
                "name_reserved",
                f"the name {hello.name} (or one that looks the same) belongs to another "
                "player; pick another",
                link,
            )
            return None
        if owner == "ok":
            mine = next((s for s in self.sessions.values() if s.name == hello.name), None)
            if mine is not None:
                del self.sessions[mine.key]
                if self.store is not None:
                    self.store.drop_session(mine.key)
                mine.resume = secrets.token_urlsafe(24)
                mine.key = digest(mine.resume)
                self.sessions[mine.key] = mine
                return mine, True
        if self.cannot_save:
            # A new session could not be kept; and what waits to be saved stays bounded.
            self._refuse(
                "cannot_save",
                "the server cannot save right now (its disk may be full); try again soon",
                link,
            )
            return None
        connected = sum(1 for s in self.sessions.values() if s.connected)
        if connected >= self.max_clients:
            self._refuse("server_full", "the server is full", link)
            return None
        skeleton = names.skeleton(hello.name)
        online = next(
            (s for s in self.sessions.values() if s.skeleton == skeleton and s.connected), None
        )
        if online is not None:
            like = "" if online.name == hello.name else f" ({online.name} looks the same)"
            self._refuse("name_taken", f"somebody called {hello.name} is online{like}", link)
            return None
        # A name held by a disconnected session without a seat is freed.
        for token, old in list(self.sessions.items()):
            keeps_seat = (
                old.table is not None
                and not old.table.closed
                and old.table.seat_of(old) is not None
            )
            if old.skeleton == skeleton and not old.connected and not keeps_seat:
                if old.table is not None:
                    old.table.leave(old)
                del self.sessions[token]
                if self.store is not None:
                    self.store.drop_session(token)
        if any(s.skeleton == skeleton for s in self.sessions.values()):
            self._refuse(
                "name_taken", f"{hello.name} is keeping a seat; resume with its token", link
            )
            return None
        token = secrets.token_urlsafe(24)
        session = Session(secrets.token_hex(8), hello.name, token, key=digest(token))
        self.sessions[session.key] = session
        return session, False

    async def _pinger(self, session: Session, link: Link) -> None:
        """Ping at once, then every ``ping_interval``; the pongs measure the round trip
        (for lag compensation), and a peer that leaves DEAD_AFTER_PINGS pings
        unanswered is disconnected."""
        nonce = 0
        first = True
        while not link.closing:
            if not first:
                await trio.sleep(self.ping_interval)
            first = False
            if session.link is not link:
                return
            if len(session.pings) >= DEAD_AFTER_PINGS:
                log.info("%s stopped answering pings", session.name)
                link.abort()
                return
            nonce += 1
            session.pings[nonce] = trio.current_time()
            link.send(Ping(nonce))

    async def shutdown(self) -> None:
        """Tell everybody goodbye and give their writers a moment to flush."""
        if not self.commit() and self.store is not None:
            log.error(
                "shutting down with %d changes the database could not save; they are lost "
                "(nobody was told of them)",
                self.store.unsaved,
            )
        log.info("shutting down: telling %d connections", len(self.links))
        for link in list(self.links):
            link.send(Goodbye("the server is shutting down"))
            link.close()
        with trio.move_on_after(SHUTDOWN_GRACE):
            while self.links:
                await trio.sleep(0.02)


def _closes_without(table: Table, session: Session) -> bool:
    """Whether ``table`` closes when ``session`` leaves it: it is the only human there
    and no match is running."""
    return (
        table.status != "playing"
        and all(seat.session in (None, session) for seat in table.seats)
        and all(other is session for other in table.spectators)
    )


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

"""Persistence: one SQLite database holds the journal, the tables, the players and
every finished match.

Theory of operation
-------------------
The rules engine is deterministic: a match is fully described by its settings, its
seed and the list of actions applied to it. So the *journal* is simply that list.
Every action the server accepts is inserted (with the table's sequence number and the
running timers after it) before anything about it is sent to a client. Replaying the
journal through the engine rebuilds the match exactly, which serves two purposes:

- crash recovery: at start-up the server rebuilds every open table from its row in
  ``tables`` and its current match from ``matches`` + ``journal``;
- replays: any finished match can be stepped through, with every hand revealed.

Around it the database keeps what outlives one server process: tables (their seats,
who sits where, bots and their levels), sessions (the SHA-256 of each resume token,
never the token), players (the SHA-256 of each player's secret, which reserves the
name), rounds and per-seat results of finished matches (for statistics and the
leaderboard).

The database runs in WAL mode with ``synchronous=NORMAL`` (no fsync per commit). A
committed transaction survives the server process being killed (``kill -9``); after a
power failure the last transactions may be lost, but the database stays consistent.

Writes are grouped: the first write opens a transaction and :meth:`Store.commit`
closes it. The server commits before it sends anything (its flusher commits, then
writes to every waiting socket), so the rule "journaled before broadcast" holds while
many actions that arrive together share one commit.

A journal row holds the action's record and the running timers as msgpack (rows of
schema version 1 hold JSON text; both are read). The journal of a running match goes
to ``live_journal``, a plain table that is only
ever appended to: a commit then touches a few pages at its end, however many matches
run at once. (Keyed by match, as ``journal`` is, every commit rewrote a page for each
match it touched.) Once a match has ended, :meth:`Store.archive` moves its rows to
``journal``, keyed by match and action number, where replays find them quickly.

When the disk fills up (or anything else makes a write or the commit fail), nothing of
the open group is lost: every statement of the group is also kept in memory (with the
journal rows) until a commit succeeds. A failure rolls the transaction back and puts
the store into the *failing* state, in which further writes are only added to the
group; :meth:`Store.commit` then replays the whole group in a new transaction. The
server sends nothing that depends on the group until a commit succeeds (see
:mod:`maumau.server.server`). So that a replay does exactly what the first try did, the
group's statements never depend on what it read: matches get their ids from the store,
not from SQLite's AUTOINCREMENT, and a match's names and rounds are kept in memory for
its results.

All calls are synchronous and short; the server makes them from its one trio thread,
so there is only ever one writer.

A damaged database
------------------
Opening runs ``PRAGMA quick_check`` first (:meth:`Store._check_file`), under a time
budget: 50 MB take about 0.2 to 0.6 s when the file is in the page cache, 0.6 to 2 s
when it is read from disk; past :data:`CHECK_BUDGET_S` the check is cut short with a
warning, so a huge database does not hold up the start. The store refuses, with
:class:`StoreDamaged` and before writing anything, a file that is not a SQLite
database, one whose pages are damaged (the server writes on every action, and writes
into a damaged b-tree can fail in the middle of a match or spread the damage), and
another program's database. Findings about values only (a NULL where the schema says
NOT NULL) are logged as a warning and the server starts: reading is row by row.
:meth:`Store.open_tables` and :meth:`Store.sessions` log a row they cannot read (bad
JSON, a missing or mistyped column) by its id and skip it; the row is left as it is,
neither closed nor deleted, so it is reported at every start until it is repaired.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgpack

from ..names import skeleton
from .check import check_file
from .digests import digest, same_digest
from .errors import StoreError
from .lock import lock_beside
from .schema import SCHEMA, SCHEMA_VERSION, upgrade

log = logging.getLogger("maumau.server.store")

SESSION_MAX_AGE_S = 7 * 24 * 3600

_COMPACT = json.JSONEncoder(separators=(",", ":"))


def _dumps(value: Any) -> str:
    return _COMPACT.encode(value)


def _pack(value: Any) -> bytes:
    """A journal field: msgpack, several times cheaper to make than JSON (the journal
    gets a row for every action)."""
    packed: bytes = msgpack.packb(value)
    return packed


def _unpack(value: bytes | str) -> Any:
    """A journal field; rows written by schema version 1 hold JSON text."""
    return json.loads(value) if isinstance(value, str) else msgpack.unpackb(value)


@dataclass(slots=True)
class TableRecord:
    id: int
    name: str
    settings: dict[str, Any]
    creator: str | None
    password: str | None
    status: str
    seats: list[dict[str, Any]]
    seq: int
    match_id: int | None
    creator_session: str | None = None  # the creator's session id (schema 3)


@dataclass(slots=True)
class MatchRecord:
    id: int
    table_id: int
    table_name: str
    settings: dict[str, Any]
    seed: int
    names: list[str]
    bots: list[bool]
    started: float
    finished: float | None
    winner: int | None
    scores: list[int] | None


@dataclass(slots=True)
class JournalEntry:
    n: int
    action: list[Any]
    seq: int
    timers: dict[str, Any]
    at: float


@dataclass(slots=True)
class SessionRecord:
    token_sha256: str
    id: str
    name: str
    table_id: int | None


class Store:
    """The server's database. ``path`` may be ``":memory:"`` (tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.dirty = False  # a group of writes is open and not yet committed
        self.failing = False  # the last write or commit failed; the group waits in memory
        self._journal_rows: list[tuple[Any, ...]] = []  # journal rows not yet in the group
        # Every statement of the open group, kept until it is committed: (sql,
        # parameters, executemany?), replayed in a new transaction after a failure.
        self._group: list[tuple[str, Any, bool]] = []
        self._match_meta: dict[int, tuple[list[str], list[bool]]] = {}  # names, bots
        self._rounds_won: dict[int, list[int]] = {}  # per seat, of matches running
        self._players: set[str] | None = None  # see _reserved
        self._ended: set[int] = set()  # matches over whose rows are still in live_journal
        self._lock: IO[bytes] | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = lock_beside(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._check_file()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot use {self.path} as the maumau database: {error}") from None
        if row is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        else:
            upgrade(self.db, self.path, row[0])
        self._ended = {
            match_id
            for (match_id,) in self.db.execute(
                "SELECT DISTINCT match_id FROM live_journal WHERE match_id NOT IN "
                "(SELECT match_id FROM tables WHERE open=1 AND match_id IS NOT NULL) "
                "OR match_id IN (SELECT id FROM matches WHERE finished IS NOT NULL)"
            )
        }
        # Ids are never reused, also those AUTOINCREMENT gave before schema 3.
        used: list[int] = [
            int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM matches").fetchone()[0]),
            *(int(seq) for (seq,) in self.db.execute("SELECT seq FROM sqlite_sequence")),
        ]
        self._next_match_id = 1 + max(used)

    def close(self) -> None:
        self.commit()
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # --- the check at start-up ---------------------------------------------------------

    def _check_file(self) -> None:
        """The check at opening (see :mod:`.check`); a file it refuses is given up."""
        try:
            check_file(self.db, self.path)
        except StoreError:
            self._give_up()
            raise

    def _give_up(self) -> None:
        """Close the database and let go of its lock (it is not going to be used)."""
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # --- players -------------------------------------------------------------------

    def check_player(self, name: str, secret: str | None, claim: bool = True) -> str:
        """Whose ``name`` is: ``ok`` (it is reserved with this secret), ``new`` (it was
        free and is now reserved with this secret; only with ``claim``), ``free`` (not
        reserved), or ``reserved`` (it, or a name that looks the same, belongs to
        another secret). Names are compared by :func:`names.skeleton`."""
        row = self.db.execute("SELECT secret_sha256 FROM players WHERE name=?", (name,)).fetchone()
        if row is not None:  # the name itself is reserved
            hashed = row[0]
            mine = secret is not None and isinstance(hashed, str)
            return "ok" if mine and same_digest(hashed, digest(secret or "")) else "reserved"
        reserved = self._reserved()
        key = skeleton(name)
        if key in reserved:
            return "reserved"  # a name that looks the same is someone else's
        if secret is None or not claim or self.failing:
            # (While the store cannot save, a claim could not be kept: none is made.)
            return "free"
        self._write("INSERT INTO players VALUES (?, ?, ?)", (name, digest(secret), time.time()))
        reserved.add(key)
        return "new"

    def _reserved(self) -> set[str]:
        """The skeletons of every reserved name, read once. A name that is not UTF-8
        is read with its bad bytes replaced: it still reserves what it looks like."""
        if self._players is None:
            found: set[str] = set()
            rows = self.db.execute("SELECT CAST(name AS BLOB) FROM players")
            for (raw,) in rows:
                if isinstance(raw, bytes):
                    found.add(skeleton(raw.decode("utf-8", "replace")))
            self._players = found
        return self._players

    # --- sessions --------------------------------------------------------------------

    def save_session(self, token_sha256: str, id: str, name: str, table_id: int | None) -> None:
        self._write(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?)",
            (token_sha256, id, name, table_id, time.time()),
        )

    def drop_session(self, token_sha256: str) -> None:
        self._write("DELETE FROM sessions WHERE token_sha256=?", (token_sha256,))

    def sessions(self) -> list[SessionRecord]:
        """Sessions seen within the last week; older ones are forgotten.

        A row that cannot be read is logged and skipped (and left as it is)."""
        self._write("DELETE FROM sessions WHERE seen < ?", (time.time() - SESSION_MAX_AGE_S,))
        records: list[SessionRecord] = []
        query = "SELECT rowid, token_sha256, id, name, table_id FROM sessions ORDER BY rowid"
        for row in self._rows("sessions", query):
            try:
                records.append(_session_record(row[1:]))
            except Exception as error:  # whatever a damaged row holds
                log.error(
                    "session %s (row %s) cannot be read (%s): skipped",
                    _shown(row[2]),
                    row[0],
                    error,
                )
        return records

    # --- tables ------------------------------------------------------------------------

    def next_table_id(self) -> int:
        row = self.db.execute("SELECT MAX(id) FROM tables").fetchone()
        return (row[0] or 0) + 1

    def save_table(self, record: TableRecord) -> None:
        self._write(
            "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
            (
                record.id,
                record.name,
                _dumps(record.settings),
                record.creator,
                record.password,
                record.status,
                _dumps(record.seats),
                record.seq,
                record.match_id,
                record.creator_session,
            ),
        )

    def close_table(self, table_id: int, match_id: int | None = None) -> None:
        """Mark the table closed; ``match_id`` is its current match, if the caller
        knows it (otherwise it is read from the table's row)."""
        if match_id is None:
            row = self.db.execute("SELECT match_id FROM tables WHERE id=?", (table_id,)).fetchone()
            match_id = row[0] if row is not None else None
        if match_id is not None:
            self._ended.add(match_id)
            self._match_meta.pop(match_id, None)
            self._rounds_won.pop(match_id, None)
        self._write("UPDATE tables SET open=0 WHERE id=?", (table_id,))

    def open_tables(self) -> list[TableRecord]:
        """The open tables, by id. A row that cannot be read (bad JSON, a column missing
        or of the wrong type) is logged by id and skipped; it is left open and as it is,
        so that it is reported at every start until it is repaired or deleted."""
        records: list[TableRecord] = []
        query = (
            "SELECT id, name, settings, creator, password, status, seats, seq, match_id, "
            "creator_session FROM tables WHERE open=1 ORDER BY id"
        )
        for row in self._rows("tables", query):
            try:
                records.append(_table_record(row))
            except Exception as error:  # whatever a damaged row holds
                log.error("table %s cannot be read (%s): skipped", _shown(row[0]), error)
        return records

    def _rows(self, what: str, query: str) -> Iterator[tuple[Any, ...]]:
        """The rows of ``query``, for checking column by column: a text that is not
        UTF-8 comes as its bytes (which no check takes for text) instead of failing the
        scan. If the scan itself fails (a damaged page that the check at start-up did
        not get to), the error is logged and the rows read so far are all there is."""
        self.db.text_factory = _text_or_bytes
        try:
            yield from self.db.execute(query)
        except sqlite3.DatabaseError as error:
            log.error("the %s after those read so far cannot be read (%s): skipped", what, error)
        finally:
            self.db.text_factory = str

    # --- matches and the journal ---------------------------------------------------------

    def start_match(
        self,
        table_id: int,
        table_name: str,
        settings: dict[str, Any],
        seed: int,
        names: list[str],
        bots: list[bool],
    ) -> int:
        match_id = self._next_match_id
        self._next_match_id += 1
        self._match_meta[match_id] = (list(names), list(bots))
        self._rounds_won[match_id] = [0] * len(names)
        self._write(
            "INSERT INTO matches (id, table_id, table_name, settings, seed, names, bots, "
            "started) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                table_id,
                table_name,
                _dumps(settings),
                seed,
                _dumps(names),
                _dumps(bots),
                time.time(),
            ),
        )
        return match_id

    def append(
        self, match_id: int, n: int, action: list[Any], seq: int, timers: dict[str, Any]
    ) -> None:
        """Journal one accepted action (its number ``n`` counts from 1 within the match).

        The row is inserted with the others of its group when the group is committed
        (one ``executemany`` instead of a statement each)."""
        self.dirty = True
        self._journal_rows.append((match_id, n, _pack(action), seq, _pack(timers), time.time()))

    def journal(self, match_id: int) -> Iterator[JournalEntry]:
        self._insert_journal_rows()
        rows = self.db.execute(
            "SELECT n, action, seq, timers, at FROM journal WHERE match_id=? UNION ALL "
            "SELECT n, action, seq, timers, at FROM live_journal WHERE match_id=? ORDER BY n",
            (match_id, match_id),
        )
        for n, action, seq, timers, at in rows:
            yield JournalEntry(n, _unpack(action), seq, _unpack(timers), at)

    def journal_length(self, match_id: int) -> int:
        self._insert_journal_rows()
        row = self.db.execute(
            "SELECT (SELECT COUNT(*) FROM journal WHERE match_id=?) + "
            "(SELECT COUNT(*) FROM live_journal WHERE match_id=?)",
            (match_id, match_id),
        )
        return int(row.fetchone()[0])

    @property
    def archive_due(self) -> bool:
        """Some ended match's journal is still in ``live_journal``."""
        return bool(self._ended)

    def archive(self) -> int:
        """Move the journals of ended matches (finished, or their table closed) from
        ``live_journal`` to ``journal``, in one transaction of their own; the number of
        rows moved. Each scans ``live_journal``, so the server calls it now and then,
        not for every match that ends."""
        if not self._ended:
            return 0
        self.commit()
        ended = sorted(self._ended)
        marks = ",".join("?" * len(ended))
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT OR IGNORE INTO journal SELECT match_id, n, action, seq, timers, at "
                f"FROM live_journal WHERE match_id IN ({marks}) ORDER BY match_id, n",
                ended,
            )
            moved = self.db.execute(
                f"DELETE FROM live_journal WHERE match_id IN ({marks})", ended
            ).rowcount
        self._ended.difference_update(ended)  # (kept for the next try if this failed)
        return int(moved)

    def round_over(
        self, match_id: int, round_no: int, winner: int, points: int, scores: list[int]
    ) -> None:
        won = self._rounds_won_of(match_id, len(scores))
        if 0 <= winner < len(won):
            won[winner] += 1
        self._write(
            "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?)",
            (match_id, round_no, winner, points, _dumps(scores)),
        )

    def finish_match(self, match_id: int, winner: int, scores: list[int]) -> None:
        """Record the end of a match and each seat's result, in one transaction."""
        meta = self._match_meta.pop(match_id, None)
        if meta is None:  # a match restored after a restart: its row is committed
            match = self.match(match_id)
            if match is None:
                return
            meta = (match.names, match.bots)
        rounds_won = self._rounds_won_of(match_id, len(scores))
        del self._rounds_won[match_id]
        self._ended.add(match_id)
        self._write(
            "UPDATE matches SET finished=?, winner=?, scores=? WHERE id=?",
            (time.time(), winner, _dumps(scores), match_id),
        )
        for seat, (name, bot) in enumerate(zip(*meta, strict=True)):
            self._write(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seat, name, bot, scores[seat], seat == winner, rounds_won[seat]),
            )

    def _rounds_won_of(self, match_id: int, seats: int) -> list[int]:
        """Rounds won by each seat in a match; for a match restored after a restart,
        counted from its committed rounds once, then kept up to date in memory."""
        won = self._rounds_won.get(match_id)
        if won is None:
            won = self._rounds_won[match_id] = [0] * seats
            for (winner,) in self.db.execute(
                "SELECT winner FROM rounds WHERE match_id=?", (match_id,)
            ):
                if 0 <= winner < seats:
                    won[winner] += 1
        return won

    def match(self, match_id: int) -> MatchRecord | None:
        row = self.db.execute(
            "SELECT id, table_id, table_name, settings, seed, names, bots, started, finished, "
            "winner, scores FROM matches WHERE id=?",
            (match_id,),
        ).fetchone()
        return None if row is None else _match_record(row)

    def finished_matches(
        self, limit: int, name: str | None = None, owner: str | None = None
    ) -> list[MatchRecord]:
        """The latest finished matches, newest first; with ``name``, only those it played.

        Matches of tables with a password are private: they are listed only when
        ``owner`` (a name whose secret the asker proved) sat at them under a name that
        was already reserved when the match started (see :meth:`private_match_owner`)."""
        query = (
            "SELECT id, table_id, table_name, settings, seed, names, bots, started, finished, "
            "winner, scores FROM matches m WHERE finished IS NOT NULL"
            " AND (NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = m.table_id"
            " AND t.password IS NOT NULL) OR EXISTS (SELECT 1 FROM results r"
            " JOIN players p ON p.name = r.name WHERE r.match_id = m.id AND r.bot = 0"
            " AND r.name = ? AND p.created <= m.started))"
        )
        params: tuple[Any, ...] = (owner,)
        if name is not None:
            query += " AND id IN (SELECT match_id FROM results WHERE name=? AND bot=0)"
            params += (name,)
        rows = self.db.execute(query + " ORDER BY finished DESC, id DESC LIMIT ?", (*params, limit))
        return [_match_record(row) for row in rows]

    def table_password(self, table_id: int) -> str | None:
        """The password of a table, open or closed (its row stays when it closes)."""
        row = self.db.execute("SELECT password FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None else row[0]

    def private_match_owner(self, match: MatchRecord, name: str) -> bool:
        """``name`` held a human seat of ``match`` and was already reserved by its secret
        when the match started: whoever proves that secret now is who sat there (a
        name can be claimed only while nobody uses it, so no session under it can be
        older than the claim)."""
        humans = {n for n, bot in zip(match.names, match.bots, strict=False) if not bot}
        if name not in humans:
            return False
        row = self.db.execute("SELECT created FROM players WHERE name=?", (name,)).fetchone()
        return row is not None and float(row[0]) <= match.started

    def leaderboard(self, limit: int) -> list[dict[str, Any]]:
        """Human players by matches won, then share of matches won, then average final
        score (higher is better: a round's winner scores what is left in the other
        hands)."""
        rows = self.db.execute(
            "SELECT name, COUNT(*), SUM(won), SUM(rounds_won), AVG(score) FROM results "
            "WHERE bot=0 GROUP BY name "
            "ORDER BY SUM(won) DESC, 1.0 * SUM(won) / COUNT(*) DESC, AVG(score) DESC, name "
            "LIMIT ?",
            (limit,),
        )
        return [_stats(row) for row in rows]

    def player_stats(self, name: str) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT name, COUNT(*), SUM(won), SUM(rounds_won), AVG(score) FROM results "
            "WHERE bot=0 AND name=? GROUP BY name",
            (name,),
        ).fetchone()
        return None if row is None else _stats(row)

    # --- grouped writes ----------------------------------------------------------------

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one write inside the open group, opening one if needed. It is kept with
        the group until the group is committed; a failure puts the store into the
        failing state (see the module docstring) instead of raising."""
        self._run(sql, params, False)

    def _run(self, sql: str, params: Any, many: bool) -> None:
        self._group.append((sql, params, many))
        self.dirty = True
        if self.failing:
            return  # replayed by the next commit
        try:
            if not self.db.in_transaction:
                self.db.execute("BEGIN")
            self._execute(sql, params, many)
        except sqlite3.Error as error:
            if transient(error):
                self._fail()
                return
            # A write that can never succeed (a bug, a constraint): it is dropped and
            # said loudly, rather than stopping every later commit.
            self._group.pop()
            _dropped(error, sql, params)

    def _execute(self, sql: str, params: Any, many: bool) -> None:
        if many:
            self.db.executemany(sql, params)
        else:
            self.db.execute(sql, params)

    def _fail(self) -> None:
        self.failing = True
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")

    def commit(self) -> None:
        """Make every write so far durable (against a crash of this process).

        Raises ``sqlite3.Error`` if it cannot (a full disk, for example): the store is
        then failing and keeps the whole group, and the next call tries it again."""
        if not self.dirty:
            return
        self._insert_journal_rows()
        try:
            if self.failing:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                self.db.execute("BEGIN")
                self._replay_group()
            elif not self.db.in_transaction:
                raise sqlite3.OperationalError("the open group's transaction is gone")
            self.db.execute("COMMIT")
        except sqlite3.Error:
            self._fail()
            raise
        self._group.clear()
        self.dirty = False
        self.failing = False

    def _replay_group(self) -> None:
        """Run the open group's statements again, in a new transaction; one that can
        never succeed (not for want of space or a working disk) is dropped and said."""
        kept: list[tuple[str, Any, bool]] = []
        for sql, params, many in self._group:
            try:
                self._execute(sql, params, many)
            except sqlite3.Error as error:
                if transient(error):
                    raise
                _dropped(error, sql, params)
                continue
            kept.append((sql, params, many))
        self._group = kept

    @property
    def unsaved(self) -> int:
        """Statements and journal rows waiting for a commit."""
        return len(self._group) + len(self._journal_rows)

    def _insert_journal_rows(self) -> None:
        if self._journal_rows:
            rows, self._journal_rows = self._journal_rows, []
            self._run("INSERT INTO live_journal VALUES (?, ?, ?, ?, ?, ?)", rows, True)


# SQLite's primary result codes that are a statement's own fault: it fails the same way
# on every try, whatever the disk does (ERROR, TOOBIG, CONSTRAINT, MISMATCH, MISUSE,
# RANGE). Every other failure (a full or failing disk, locks, memory, a damaged file)
# is the database's: the group is kept and tried again, and nothing is acknowledged.
STATEMENT_CODES = frozenset({1, 18, 19, 20, 21, 25})


def _dropped(error: sqlite3.Error, sql: str, params: Any) -> None:
    log.error("a write was refused and dropped (%s): %s %.200r", error, sql, params)


def transient(error: sqlite3.Error) -> bool:
    """Whether ``error`` is the database's and not the statement's (see above)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:  # raised by the sqlite3 module itself: a misuse, or a closed database
        return isinstance(error, sqlite3.OperationalError)
    return code & 0xFF not in STATEMENT_CODES


def _match_record(row: tuple[Any, ...]) -> MatchRecord:
    return MatchRecord(
        id=row[0],
        table_id=row[1],
        table_name=row[2],
        settings=json.loads(row[3]),
        seed=row[4],
        names=json.loads(row[5]),
        bots=json.loads(row[6]),
        started=row[7],
        finished=row[8],
        winner=row[9],
        scores=None if row[10] is None else json.loads(row[10]),
    )


def _text_or_bytes(raw: bytes) -> str | bytes:
    """A TEXT value as read by :meth:`Store._rows`: its bytes if they are not UTF-8."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def _shown(value: Any) -> str:
    """A value for a log line, however long or strange it is."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _column(name: str, value: Any, *kinds: type) -> Any:
    """``value`` if it is one of ``kinds`` (``type(None)`` for a NULL allowed)."""
    if not isinstance(value, kinds):
        raise ValueError(f"{name} is {_shown(value)}")
    return value


def _json(name: str, value: Any, kind: type) -> Any:
    """The JSON text ``value``, decoded; it must be a ``kind``."""
    _column(name, value, str)
    try:
        decoded = json.loads(value)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    return _column(name, decoded, kind)


def _table_record(row: tuple[Any, ...]) -> TableRecord:
    """A row of ``tables``, checked column by column (ValueError names the first bad
    one)."""
    optional_text = (str, type(None))
    seats = _json("seats", row[6], list)
    for seat in seats:
        _column("a seat", seat, dict)
    return TableRecord(
        id=_column("id", row[0], int),
        name=_column("name", row[1], str),
        settings=_json("settings", row[2], dict),
        creator=_column("creator", row[3], *optional_text),
        password=_column("password", row[4], *optional_text),
        status=_column("status", row[5], str),
        seats=seats,
        seq=_column("seq", row[7], int),
        match_id=_column("match_id", row[8], int, type(None)),
        creator_session=_column("creator_session", row[9], *optional_text),
    )


def _session_record(row: tuple[Any, ...]) -> SessionRecord:
    """A row of ``sessions`` (token hash, id, name, table id), checked column by column."""
    return SessionRecord(
        token_sha256=_column("token_sha256", row[0], str),
        id=_column("id", row[1], str),
        name=_column("name", row[2], str),
        table_id=_column("table_id", row[3], int, type(None)),
    )


def _stats(row: tuple[Any, ...]) -> dict[str, Any]:
    name, matches, wins, rounds_won, average = row
    return {
        "name": name,
        "matches": int(matches),
        "wins": int(wins or 0),
        "rounds_won": int(rounds_won or 0),
        "average_score": round(float(average or 0.0), 1),
    }

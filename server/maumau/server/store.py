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

All calls are synchronous and short; the server makes them from its one trio thread,
so there is only ever one writer.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgpack

SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    secret_sha256 TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_sha256 TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    table_id INTEGER,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    creator TEXT,
    password TEXT,
    status TEXT NOT NULL,
    seats TEXT NOT NULL,
    seq INTEGER NOT NULL,
    match_id INTEGER,
    open INTEGER NOT NULL DEFAULT 1,
    creator_session TEXT
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    table_name TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    names TEXT NOT NULL,
    bots TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    winner INTEGER,
    scores TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    match_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
    timers TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match_id, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS live_journal (
    match_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
    timers TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    points INTEGER NOT NULL,
    scores TEXT NOT NULL,
    PRIMARY KEY (match_id, round_no)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    match_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rounds_won INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_by_name ON results (name);
"""

SESSION_MAX_AGE_S = 7 * 24 * 3600


class StoreError(Exception):
    """The database cannot be opened or is not a maumau database."""


def digest(secret: str) -> str:
    """SHA-256 of a token or secret, in hex (tokens are random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_digest(a: str, b: str) -> bool:
    """Compare two digests in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def _lock_beside(path: str) -> IO[bytes] | None:
    """Hold an exclusive lock on ``PATH.lock`` so two servers never share a database."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    handle = open(path + ".lock", "wb")  # noqa: SIM115 - held open for the lock's lifetime
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreError(f"another maumau-server is using {path}") from None
    return handle


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
        self._journal_rows: list[tuple[Any, ...]] = []  # journal rows of the open group
        self._ended: set[int] = set()  # matches over whose rows are still in live_journal
        self._lock: IO[bytes] | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_beside(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot use {self.path} as the maumau database: {error}") from None
        if row is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        else:
            self._upgrade(row[0])
        self._ended = {
            match_id
            for (match_id,) in self.db.execute(
                "SELECT DISTINCT match_id FROM live_journal WHERE match_id NOT IN "
                "(SELECT match_id FROM tables WHERE open=1 AND match_id IS NOT NULL) "
                "OR match_id IN (SELECT id FROM matches WHERE finished IS NOT NULL)"
            )
        }

    def _upgrade(self, version: str) -> None:
        """Bring a database of an older schema up to this one, in place.

        Version 2 only added ``live_journal`` (created by the schema script); version
        1's journal rows, those of running matches too, stay where they are. Version 3
        added ``tables.creator_session``: tables of older databases have none (their
        creator is then found among the seated players; see :meth:`Table.restore`)."""
        if version == str(SCHEMA_VERSION):
            return
        if version not in ("1", "2"):
            raise StoreError(
                f"{self.path} has database schema {version}; this server knows {SCHEMA_VERSION}"
            )
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        with self.db:
            self.db.execute("BEGIN")
            if "creator_session" not in columns:
                self.db.execute("ALTER TABLE tables ADD COLUMN creator_session TEXT")
            self.db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))

    def close(self) -> None:
        self.commit()
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # --- players -------------------------------------------------------------------

    def check_player(self, name: str, secret: str | None, claim: bool = True) -> str:
        """Whose ``name`` is: ``ok`` (it is reserved with this secret), ``new`` (it was
        free and is now reserved with this secret; only with ``claim``), ``free`` (not
        reserved), or ``reserved`` (it belongs to another secret)."""
        row = self.db.execute("SELECT secret_sha256 FROM players WHERE name=?", (name,)).fetchone()
        if row is None:
            if secret is None or not claim:
                return "free"
            self._write("INSERT INTO players VALUES (?, ?, ?)", (name, digest(secret), time.time()))
            return "new"
        if secret is not None and same_digest(row[0], digest(secret)):
            return "ok"
        return "reserved"

    # --- sessions --------------------------------------------------------------------

    def save_session(self, token_sha256: str, id: str, name: str, table_id: int | None) -> None:
        self._write(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?)",
            (token_sha256, id, name, table_id, time.time()),
        )

    def drop_session(self, token_sha256: str) -> None:
        self._write("DELETE FROM sessions WHERE token_sha256=?", (token_sha256,))

    def sessions(self) -> list[SessionRecord]:
        """Sessions seen within the last week; older ones are forgotten."""
        self._write("DELETE FROM sessions WHERE seen < ?", (time.time() - SESSION_MAX_AGE_S,))
        rows = self.db.execute("SELECT token_sha256, id, name, table_id FROM sessions")
        return [SessionRecord(*row) for row in rows]

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

    def close_table(self, table_id: int) -> None:
        row = self.db.execute("SELECT match_id FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is not None and row[0] is not None:
            self._ended.add(row[0])
        self._write("UPDATE tables SET open=0 WHERE id=?", (table_id,))

    def open_tables(self) -> list[TableRecord]:
        rows = self.db.execute(
            "SELECT id, name, settings, creator, password, status, seats, seq, match_id, "
            "creator_session FROM tables WHERE open=1 ORDER BY id"
        )
        return [
            TableRecord(
                r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9]
            )
            for r in rows
        ]

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
        cursor = self._write(
            "INSERT INTO matches (table_id, table_name, settings, seed, names, bots, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                table_name,
                _dumps(settings),
                seed,
                _dumps(names),
                _dumps(bots),
                time.time(),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(
        self, match_id: int, n: int, action: list[Any], seq: int, timers: dict[str, Any]
    ) -> None:
        """Journal one accepted action (its number ``n`` counts from 1 within the match).

        The row is inserted with the others of its group when the group is committed
        (one ``executemany`` instead of a statement each)."""
        if not self.dirty:
            self.db.execute("BEGIN")
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
        ended, self._ended = sorted(self._ended), set()
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
        return int(moved)

    def round_over(
        self, match_id: int, round_no: int, winner: int, points: int, scores: list[int]
    ) -> None:
        self._write(
            "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?)",
            (match_id, round_no, winner, points, _dumps(scores)),
        )

    def finish_match(self, match_id: int, winner: int, scores: list[int]) -> None:
        """Record the end of a match and each seat's result, in one transaction."""
        match = self.match(match_id)
        if match is None:
            return
        self._ended.add(match_id)
        rounds_won = [0] * len(scores)
        for (round_winner,) in self.db.execute(
            "SELECT winner FROM rounds WHERE match_id=?", (match_id,)
        ):
            if 0 <= round_winner < len(rounds_won):
                rounds_won[round_winner] += 1
        self._write(
            "UPDATE matches SET finished=?, winner=?, scores=? WHERE id=?",
            (time.time(), winner, _dumps(scores), match_id),
        )
        for seat, (name, bot) in enumerate(zip(match.names, match.bots, strict=True)):
            self._write(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seat, name, bot, scores[seat], seat == winner, rounds_won[seat]),
            )

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

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        """Run one write inside the open group, opening one if needed."""
        if not self.dirty:
            self.db.execute("BEGIN")
            self.dirty = True
        return self.db.execute(sql, params)

    def commit(self) -> None:
        """Make every write so far durable (against a crash of this process)."""
        if self.dirty:
            self._insert_journal_rows()
            self.dirty = False
            self.db.execute("COMMIT")

    def _insert_journal_rows(self) -> None:
        if self._journal_rows:
            rows, self._journal_rows = self._journal_rows, []
            self.db.executemany("INSERT INTO live_journal VALUES (?, ?, ?, ?, ?, ?)", rows)


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


def _stats(row: tuple[Any, ...]) -> dict[str, Any]:
    name, matches, wins, rounds_won, average = row
    return {
        "name": name,
        "matches": int(matches),
        "wins": int(wins or 0),
        "rounds_won": int(rounds_won or 0),
        "average_score": round(float(average or 0.0), 1),
    }


def default_path() -> Path:
    """``maumau/server.db`` in the platform's data directory (``$XDG_DATA_HOME`` on
    Linux, ``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("maumau", appauthor=False)) / "server.db"

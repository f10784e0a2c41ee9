"""The store: the one object the server holds for its database.

:class:`Store` opens the file (the lock beside it, :mod:`.lock`; the check at
opening, :mod:`.check`; the schema and its upgrade, :mod:`.schema`) and answers every
call of the server, handing each to the part that owns its subject: the open group of
writes (:mod:`.group`), players (:mod:`.players`), sessions (:mod:`.sessions`), tables
(:mod:`.tables`), matches and their journal (:mod:`.matches`) and the history of
finished matches (:mod:`.history`), tournaments (:mod:`.tournaments`) and bans for
good (:mod:`.bans`). The parts share the one connection and the one
group of writes; none of them knows the others.

The database runs in WAL mode with ``synchronous=NORMAL`` (no fsync per commit). A
committed transaction survives the server process being killed (``kill -9``); after a
power failure the last transactions may be lost, but the database stays consistent.

All calls are synchronous and short; the server makes them from its one trio thread,
so there is only ever one writer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .bans import Bans
from .check import check_file
from .errors import StoreError
from .group import WriteGroup
from .history import History
from .lock import lock_beside
from .matches import Matches
from .players import Players
from .records import BanRecord, JournalEntry, MatchRecord, SessionRecord, TableRecord
from .schema import SCHEMA, SCHEMA_VERSION, upgrade
from .sessions import Sessions
from .tables import Tables
from .tournaments import Tournaments


class Store:
    """The server's database. ``path`` may be ``":memory:"`` (tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
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
        self._writes = WriteGroup(self.db)
        self._players = Players(self.db, self._writes)
        self._sessions = Sessions(self.db, self._writes)
        self._tables = Tables(self.db, self._writes)
        self._matches = Matches(self.db, self._writes)
        self._history = History(self.db)
        self._tournaments = Tournaments(self.db, self._writes)
        self._bans = Bans(self.db, self._writes)

    def close(self) -> None:
        self.commit()
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

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

    # --- the open group of writes (see .group) -------------------------------------------

    @property
    def dirty(self) -> bool:
        """A group of writes is open and not yet committed."""
        return self._writes.dirty

    @property
    def failing(self) -> bool:
        """The last write or commit failed; the group waits in memory."""
        return self._writes.failing

    @property
    def unsaved(self) -> int:
        """Statements and journal rows waiting for a commit."""
        return self._writes.unsaved

    def commit(self) -> None:
        """Make every write so far durable (against a crash of this process).

        Raises ``sqlite3.Error`` if it cannot (a full disk, for example): the store is
        then failing and keeps the whole group, and the next call tries it again."""
        self._writes.commit()

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one write inside the open group (see :meth:`WriteGroup.write`)."""
        self._writes.write(sql, params)

    # --- players and sessions ------------------------------------------------------------

    def check_player(self, name: str, secret: str | None, claim: bool = True) -> str:
        """Whose ``name`` is: ``ok``, ``new``, ``free`` or ``reserved`` (see
        :meth:`Players.check`)."""
        return self._players.check(name, secret, claim)

    def save_session(self, token_sha256: str, id: str, name: str, table_id: int | None) -> None:
        self._sessions.save(token_sha256, id, name, table_id)

    def drop_session(self, token_sha256: str) -> None:
        self._sessions.drop(token_sha256)

    def sessions(self) -> list[SessionRecord]:
        """Sessions seen within the last week; older ones are forgotten.

        A row that cannot be read is logged and skipped (and left as it is)."""
        return self._sessions.recent()

    # --- tables --------------------------------------------------------------------------

    def next_table_id(self) -> int:
        return self._tables.next_id()

    def save_table(self, record: TableRecord) -> None:
        self._tables.save(record)

    def close_table(self, table_id: int, match_id: int | None = None) -> None:
        """Mark the table closed; ``match_id`` is its current match, if the caller
        knows it (otherwise it is read from the table's row)."""
        if match_id is None:
            match_id = self._tables.match_of(table_id)
        if match_id is not None:
            self._matches.forget(match_id)
        self._tables.close(table_id)

    def abandon_match(self, match_id: int, why: str) -> None:
        """Record why a match will never finish (the host closed its table)."""
        self._write("UPDATE matches SET abandoned=? WHERE id=?", (why, match_id))

    def open_tables(self) -> list[TableRecord]:
        """The open tables, by id; a row that cannot be read is logged by id and
        skipped (see :meth:`Tables.open_tables`)."""
        return self._tables.open_tables()

    def table_password(self, table_id: int) -> str | None:
        """The password of a table, open or closed (its row stays when it closes)."""
        return self._tables.password(table_id)

    # --- matches and the journal (see .matches) ------------------------------------------

    def start_match(
        self,
        table_id: int,
        table_name: str,
        settings: dict[str, Any],
        seed: int,
        names: list[str],
        bots: list[bool],
    ) -> int:
        return self._matches.start(table_id, table_name, settings, seed, names, bots)

    def append(
        self, match_id: int, n: int, action: list[Any], seq: int, timers: dict[str, Any]
    ) -> None:
        """Journal one accepted action (its number ``n`` counts from 1 within the match).

        The row is inserted with the others of its group when the group is committed
        (one ``executemany`` instead of a statement each)."""
        self._matches.append(match_id, n, action, seq, timers)

    def journal(self, match_id: int) -> Iterator[JournalEntry]:
        return self._matches.journal(match_id)

    def journal_length(self, match_id: int) -> int:
        return self._matches.journal_length(match_id)

    @property
    def archive_due(self) -> bool:
        """Some ended match's journal is still in ``live_journal``."""
        return self._matches.archive_due

    def archive(self) -> int:
        """Move the journals of ended matches from ``live_journal`` to ``journal``, in
        one transaction of their own; the number of rows moved (see
        :meth:`Matches.archive`)."""
        return self._matches.archive()

    def round_over(
        self, match_id: int, round_no: int, winner: int, points: int, scores: list[int]
    ) -> None:
        self._matches.round_over(match_id, round_no, winner, points, scores)

    def finish_match(self, match_id: int, winner: int, scores: list[int]) -> None:
        """Record the end of a match and each seat's result, in one transaction."""
        self._matches.finish(match_id, winner, scores)

    def match(self, match_id: int) -> MatchRecord | None:
        return self._matches.match(match_id)

    # --- history (see .history) ----------------------------------------------------------

    def finished_matches(
        self, limit: int, name: str | None = None, owner: str | None = None
    ) -> list[MatchRecord]:
        """The latest finished matches, newest first; with ``name``, only those it
        played; private ones only for their ``owner`` (see
        :meth:`History.finished_matches`)."""
        return self._history.finished_matches(limit, name, owner)

    def private_match_owner(self, match: MatchRecord, name: str) -> bool:
        """``name`` held a human seat of ``match`` and was already reserved by its secret
        when the match started (see :meth:`History.private_match_owner`)."""
        return self._history.private_match_owner(match, name)

    def leaderboard(self, limit: int, variant: str | None = None) -> list[dict[str, Any]]:
        """Human players by matches won, then share of matches won, then average final
        score; with ``variant``, of that game's matches only."""
        return self._history.leaderboard(limit, variant)

    def player_stats(self, name: str, variant: str | None = None) -> dict[str, Any] | None:
        return self._history.player_stats(name, variant)

    # --- the clock's marks: how long the tables' timers ran after the last action -------

    def mark_alive(self, when: float) -> None:
        """The server runs at ``when`` (wall clock): the timers of every running table
        ran until then (written every second while a match runs; see
        :meth:`clock_marks`)."""
        self._write("INSERT OR REPLACE INTO meta VALUES ('alive', ?)", (repr(when),))

    def hold_clock(self, table_id: int, since: float | None) -> None:
        """The table's clock stopped at ``since`` (wall clock; None: it runs again)."""
        if since is None:
            self._write("DELETE FROM meta WHERE key=?", (f"held:{table_id}",))
        else:
            self._write(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"held:{table_id}", repr(since))
            )

    def clock_marks(self) -> tuple[float | None, dict[int, float]]:
        """When the server last ran (None: never marked) and, per table whose clock was
        stopped then, since when: after a crash each table's timers lose the time they
        ran between its last journaled action and then."""
        alive: float | None = None
        held: dict[int, float] = {}
        for key, value in self.db.execute(
            "SELECT key, value FROM meta WHERE key='alive' OR key LIKE 'held:%'"
        ):
            try:
                when = float(value)
                if key == "alive":
                    alive = when
                else:
                    held[int(key.split(":", 1)[1])] = when
            except ValueError:
                continue  # a damaged mark: the timers keep what they had
        return alive, held

    # --- tournaments ---------------------------------------------------------------------

    def next_tournament_id(self) -> int:
        return self._tournaments.next_id()

    def save_tournament(
        self, tournament_id: int, name: str, state: str, data: dict[str, Any]
    ) -> None:
        """Write a tournament's whole state with the next commit."""
        self._tournaments.save(tournament_id, name, state, data)

    def tournaments(self, open_only: bool = True, limit: int = 1000) -> list[dict[str, Any]]:
        """The saved states of the open tournaments (or of the latest ``limit``)."""
        return self._tournaments.load(open_only, limit)

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """The saved state of one tournament, open or over."""
        return self._tournaments.get(tournament_id)

    # --- bans for good (see .bans) --------------------------------------------------------

    def save_ban(self, what: str, target: str, by: str, reason: str | None) -> None:
        self._bans.save(what, target, by, reason)

    def drop_ban(self, what: str, target: str) -> None:
        self._bans.drop(what, target)

    def bans(self) -> list[BanRecord]:
        return self._bans.load()

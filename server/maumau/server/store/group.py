"""The open group of writes: never acknowledge what is not saved.

Writes are grouped: the first write opens a transaction and :meth:`WriteGroup.commit`
(the store's :meth:`Store.commit`) closes it. The server commits before it sends
anything (its flusher commits, then writes to every waiting socket), so the rule
"journaled before broadcast" holds while many actions that arrive together share one
commit. Journal rows are gathered in memory and inserted with the others of their
group, in one ``executemany``, when the group is committed (or read).

When the disk fills up (or anything else makes a write or the commit fail), nothing of
the open group is lost: every statement of the group is also kept in memory (with the
journal rows) until a commit succeeds. A failure rolls the transaction back and puts
the store into the *failing* state, in which further writes are only added to the
group; :meth:`WriteGroup.commit` then replays the whole group in a new transaction.
The server sends nothing that depends on the group until a commit succeeds (see
:mod:`maumau.server.saving`). So that a replay does exactly what the first try did, the
group's statements never depend on what it read: matches get their ids from the store,
not from SQLite's AUTOINCREMENT, and a match's names and rounds are kept in memory for
its results (see :mod:`.matches`).

A write that can never succeed (a bug, a constraint: :func:`transient` says which
failures are the statement's own) is dropped and logged loudly instead of stopping
every later commit.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from typing import Any

log = logging.getLogger("maumau.server.store")


class WriteGroup:
    """The writes not yet committed, on the store's one connection ``db``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.dirty = False  # a group of writes is open and not yet committed
        self.failing = False  # the last write or commit failed; the group waits in memory
        self._journal_rows: list[tuple[Any, ...]] = []  # journal rows not yet in the group
        # Every statement of the open group, kept until it is committed: (sql,
        # parameters, executemany?), replayed in a new transaction after a failure.
        self._group: list[tuple[str, Any, bool]] = []

    def write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one write inside the open group, opening one if needed. It is kept with
        the group until the group is committed; a failure puts the store into the
        failing state (see the module docstring) instead of raising."""
        self._run(sql, params, False)

    def append_journal_row(self, row: tuple[Any, ...]) -> None:
        """Keep one row of ``live_journal`` for the group's commit."""
        self.dirty = True
        self._journal_rows.append(row)

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
        self.insert_journal_rows()
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

    def insert_journal_rows(self) -> None:
        """Put the gathered journal rows into the group (before a commit, and before
        the journal is read, so that a read sees them)."""
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

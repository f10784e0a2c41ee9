"""Tables: each open table's settings, seats (who sits where, bots and their levels),
sequence number and current match, so that it comes back after a restart.

A table's row stays when the table closes (``open=0``): the privacy of its matches
(its password) is still known when they are listed or replayed."""

from __future__ import annotations

import logging
import sqlite3

from .encoding import dumps
from .group import WriteGroup
from .records import TableRecord
from .rows import scan, shown, table_record

log = logging.getLogger("maumau.server.store")


class Tables:
    """The ``tables`` table."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes

    def next_id(self) -> int:
        row = self.db.execute("SELECT MAX(id) FROM tables").fetchone()
        return (row[0] or 0) + 1

    def save(self, record: TableRecord) -> None:
        self._writes.write(
            "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
            (
                record.id,
                record.name,
                dumps(record.settings),
                record.creator,
                record.password,
                record.status,
                dumps(record.seats),
                record.seq,
                record.match_id,
                record.creator_session,
            ),
        )

    def match_of(self, table_id: int) -> int | None:
        """The current match of a table, as its row says."""
        row = self.db.execute("SELECT match_id FROM tables WHERE id=?", (table_id,)).fetchone()
        return row[0] if row is not None else None

    def close(self, table_id: int) -> None:
        self._writes.write("UPDATE tables SET open=0 WHERE id=?", (table_id,))

    def open_tables(self) -> list[TableRecord]:
        """The open tables, by id. A row that cannot be read (bad JSON, a column missing
        or of the wrong type) is logged by id and skipped; it is left open and as it is,
        so that it is reported at every start until it is repaired or deleted."""
        records: list[TableRecord] = []
        query = (
            "SELECT id, name, settings, creator, password, status, seats, seq, match_id, "
            "creator_session FROM tables WHERE open=1 ORDER BY id"
        )
        for row in scan(self.db, "tables", query):
            try:
                records.append(table_record(row))
            except Exception as error:  # whatever a damaged row holds
                log.error("table %s cannot be read (%s): skipped", shown(row[0]), error)
        return records

    def password(self, table_id: int) -> str | None:
        """The password of a table, open or closed (its row stays when it closes)."""
        row = self.db.execute("SELECT password FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None else row[0]

"""Sessions: the SHA-256 of each resume token (never the token), with the session's
id, name and table, so that a player comes back to their seat after a restart.
Sessions not seen for a week are forgotten."""

from __future__ import annotations

import logging
import sqlite3
import time

from .group import WriteGroup
from .records import SessionRecord
from .rows import scan, session_record, shown

log = logging.getLogger("maumau.server.store")

SESSION_MAX_AGE_S = 7 * 24 * 3600


class Sessions:
    """The ``sessions`` table."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes

    def save(self, token_sha256: str, id: str, name: str, table_id: int | None) -> None:
        self._writes.write(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?)",
            (token_sha256, id, name, table_id, time.time()),
        )

    def drop(self, token_sha256: str) -> None:
        self._writes.write("DELETE FROM sessions WHERE token_sha256=?", (token_sha256,))

    def recent(self) -> list[SessionRecord]:
        """Sessions seen within the last week; older ones are forgotten.

        A row that cannot be read is logged and skipped (and left as it is)."""
        self._writes.write(
            "DELETE FROM sessions WHERE seen < ?", (time.time() - SESSION_MAX_AGE_S,)
        )
        records: list[SessionRecord] = []
        query = "SELECT rowid, token_sha256, id, name, table_id FROM sessions ORDER BY rowid"
        for row in scan(self.db, "sessions", query):
            try:
                records.append(session_record(row[1:]))
            except Exception as error:  # whatever a damaged row holds
                log.error(
                    "session %s (row %s) cannot be read (%s): skipped",
                    shown(row[2]),
                    row[0],
                    error,
                )
        return records

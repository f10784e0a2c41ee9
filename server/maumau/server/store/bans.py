"""Bans for good: the names and addresses the host banned with ``lasting`` ``ever``,
each with who banned it, why and when. (Bans for the server's life are never
written: see :mod:`maumau.server.bans`.)"""

from __future__ import annotations

import sqlite3
import time

from .group import WriteGroup
from .records import BanRecord


class Bans:
    """The ``bans`` table."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes

    def save(self, what: str, target: str, by: str, reason: str | None) -> None:
        self._writes.write(
            "INSERT OR REPLACE INTO bans VALUES (?, ?, ?, ?, ?)",
            (what, target, by, reason, time.time()),
        )

    def drop(self, what: str, target: str) -> None:
        self._writes.write("DELETE FROM bans WHERE what=? AND target=?", (what, target))

    def load(self) -> list[BanRecord]:
        """Every ban for good, oldest first (a row of another kind is skipped)."""
        rows = self.db.execute("SELECT what, target, by, reason FROM bans ORDER BY at")
        return [
            BanRecord(str(what), str(target), str(by), None if reason is None else str(reason))
            for what, target, by, reason in rows
            if what in ("name", "address")
        ]

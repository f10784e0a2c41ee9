"""Tournaments: each tournament's whole state as one JSON document, written again
with the commit of every change to it (a registration, a series drawn, a table's
result), so that a tournament comes back after a restart exactly as its players were
last told. Rows stay when a tournament is over (``open=0``): its standings can still
be shown."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from typing import Any

from .encoding import dumps
from .group import WriteGroup
from .rows import scan, shown

log = logging.getLogger("maumau.server.store")


class Tournaments:
    """The ``tournaments`` table."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes

    def next_id(self) -> int:
        row = self.db.execute("SELECT MAX(id) FROM tournaments").fetchone()
        return (row[0] or 0) + 1

    def save(self, tournament_id: int, name: str, state: str, data: dict[str, Any]) -> None:
        self._writes.write(
            "INSERT OR REPLACE INTO tournaments VALUES (?, ?, ?, ?, ?, ?)",
            (
                tournament_id,
                name,
                state,
                dumps(data),
                int(state not in ("finished", "cancelled")),
                time.time(),
            ),
        )

    def load(self, open_only: bool = True, limit: int = 1000) -> list[dict[str, Any]]:
        """The documents of the open tournaments (or the latest ``limit`` of all), by
        id. A row that cannot be read is logged by id and skipped."""
        where = "WHERE open=1 " if open_only else ""
        query = f"SELECT id, data FROM tournaments {where}ORDER BY id DESC LIMIT {int(limit)}"
        found: list[dict[str, Any]] = []
        for row in scan(self.db, "tournaments", query):
            try:
                data = json.loads(row[1])
                if not isinstance(data, dict) or data.get("id") != row[0]:
                    raise ValueError("not a tournament of this id")
                found.append(data)
            except Exception as error:  # whatever a damaged row holds
                log.error("tournament %s cannot be read (%s): skipped", shown(row[0]), error)
        found.reverse()
        return found

    def get(self, tournament_id: int) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT data FROM tournaments WHERE id=?", (tournament_id,)
        ).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            log.error("tournament %d cannot be read: skipped", tournament_id)
            return None
        return data if isinstance(data, dict) else None

"""Players: a name reserved by the SHA-256 of its player's secret.

A name is claimed by the first hello that brings a secret while nobody holds it; from
then on only that secret opens it. Names are compared by their skeleton
(:func:`maumau.server.names.skeleton`), so a name that merely looks like a reserved
one is refused too; the skeletons of every reserved name are read once and then kept
up to date in memory."""

from __future__ import annotations

import sqlite3
import time

from ..names import skeleton
from .digests import digest, same_digest
from .group import WriteGroup


class Players:
    """The ``players`` table."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes
        self._players: set[str] | None = None  # see _reserved

    def check(self, name: str, secret: str | None, claim: bool = True) -> str:
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
        if secret is None or not claim or self._writes.failing:
            # (While the store cannot save, a claim could not be kept: none is made.)
            return "free"
        self._writes.write(
            "INSERT INTO players VALUES (?, ?, ?)", (name, digest(secret), time.time())
        )
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

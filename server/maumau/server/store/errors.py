"""The store's errors: a database that cannot be used at all.

:class:`StoreError` is any reason the server cannot open its database (another server
holds it, a schema newer than this server's, SQLite refusing it). :class:`StoreDamaged`
is the subset found by the check at opening (see :mod:`.check`), raised before
anything is written to the file."""

from __future__ import annotations

from typing import Literal


class StoreError(Exception):
    """The database cannot be opened or is not a maumau database."""


DamageKind = Literal["not-a-database", "damaged", "foreign"]


class StoreDamaged(StoreError):
    """The file cannot be used, and nothing was written to it: ``kind`` says why.

    ``not-a-database``: it is not a SQLite database at all (a text file, a truncated
    header). ``damaged``: a SQLite database with damaged pages (``sqlite3 PATH
    .recover`` may save what it holds). ``foreign``: a sound SQLite database of
    another program. ``problem`` says what was found, in a few words."""

    def __init__(self, path: str, kind: DamageKind, problem: str) -> None:
        super().__init__(f"cannot use {path} as the maumau database: {problem}")
        self.path = path
        self.kind: DamageKind = kind
        self.problem = problem

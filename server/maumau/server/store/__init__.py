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

Writes are grouped and committed before the server sends anything that depends on
them; a write or a commit that fails (a full disk) loses nothing: the group waits in
memory and is tried again, and nothing is acknowledged until it is saved. A file that
is not a sound maumau database is refused at opening, before anything is written; a
row that cannot be read is logged and skipped.

The modules, from the top down (each imports only those below it):

- :mod:`.database`: :class:`Store`, the one object the server holds; it opens the
  file and hands each call to the part that owns its subject.
- :mod:`.players`, :mod:`.sessions`, :mod:`.tables`, :mod:`.matches` (and the
  journal and its archive), :mod:`.history` (finished matches, leaderboard, stats,
  who may see a private match): the queries and writes by subject.
- :mod:`.group`: the open group of writes, its commit and its replay after a failure
  ("never acknowledge what is not saved").
- :mod:`.check` (the check at opening), :mod:`.lock` (the lock file), :mod:`.schema`
  (the tables, the version and the upgrade).
- :mod:`.rows` (reading rows column by column), :mod:`.records` (the dataclasses),
  :mod:`.encoding` (JSON and msgpack columns), :mod:`.digests`, :mod:`.errors`,
  :mod:`.paths` (the default location of the file).
"""

from .check import CHECK_BUDGET_S, CHECK_MAX_ERRORS
from .database import Store
from .digests import digest, same_digest
from .errors import DamageKind, StoreDamaged, StoreError
from .group import STATEMENT_CODES, WriteGroup, transient
from .paths import default_path
from .records import BanRecord, JournalEntry, MatchRecord, SessionRecord, TableRecord
from .schema import SCHEMA, SCHEMA_VERSION
from .sessions import SESSION_MAX_AGE_S

__all__ = [
    "CHECK_BUDGET_S",
    "CHECK_MAX_ERRORS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SESSION_MAX_AGE_S",
    "STATEMENT_CODES",
    "BanRecord",
    "DamageKind",
    "JournalEntry",
    "MatchRecord",
    "SessionRecord",
    "Store",
    "StoreDamaged",
    "StoreError",
    "TableRecord",
    "WriteGroup",
    "default_path",
    "digest",
    "same_digest",
    "transient",
]

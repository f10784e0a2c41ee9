"""Persistence: one SQLite database holds the journal, the tables, the players and
every finished match (see :mod:`.database`)."""

from .check import CHECK_BUDGET_S, CHECK_MAX_ERRORS
from .database import (
    SESSION_MAX_AGE_S,
    STATEMENT_CODES,
    JournalEntry,
    MatchRecord,
    SessionRecord,
    Store,
    TableRecord,
    transient,
)
from .digests import digest, same_digest
from .errors import DamageKind, StoreDamaged, StoreError
from .paths import default_path
from .schema import SCHEMA, SCHEMA_VERSION

__all__ = [
    "CHECK_BUDGET_S",
    "CHECK_MAX_ERRORS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SESSION_MAX_AGE_S",
    "STATEMENT_CODES",
    "DamageKind",
    "JournalEntry",
    "MatchRecord",
    "SessionRecord",
    "Store",
    "StoreDamaged",
    "StoreError",
    "TableRecord",
    "default_path",
    "digest",
    "same_digest",
    "transient",
]

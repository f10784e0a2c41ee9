"""Persistence: one SQLite database holds the journal, the tables, the players and
every finished match (see :mod:`.database`)."""

from .database import (
    CHECK_BUDGET_S,
    CHECK_MAX_ERRORS,
    SCHEMA,
    SCHEMA_VERSION,
    SESSION_MAX_AGE_S,
    STATEMENT_CODES,
    DamageKind,
    JournalEntry,
    MatchRecord,
    SessionRecord,
    Store,
    StoreDamaged,
    StoreError,
    TableRecord,
    default_path,
    digest,
    same_digest,
    transient,
)

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

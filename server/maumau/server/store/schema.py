"""The database's schema: its tables, its version and the upgrade of older ones.

The schema script only creates what is missing (``CREATE ... IF NOT EXISTS``), so it
runs at every opening. The version is kept in ``meta`` under the key ``schema``; a
database of an older version is brought up to this one in place by :func:`upgrade`,
and one of a newer (or unknown) version is refused."""

from __future__ import annotations

import sqlite3

from .errors import StoreError

SCHEMA_VERSION = 4

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    secret_sha256 TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_sha256 TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    table_id INTEGER,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    creator TEXT,
    password TEXT,
    status TEXT NOT NULL,
    seats TEXT NOT NULL,
    seq INTEGER NOT NULL,
    match_id INTEGER,
    open INTEGER NOT NULL DEFAULT 1,
    creator_session TEXT
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    table_name TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    names TEXT NOT NULL,
    bots TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    winner INTEGER,
    scores TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    match_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
    timers TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match_id, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS live_journal (
    match_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
    timers TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    points INTEGER NOT NULL,
    scores TEXT NOT NULL,
    PRIMARY KEY (match_id, round_no)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    match_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rounds_won INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_by_name ON results (name);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    data TEXT NOT NULL,
    open INTEGER NOT NULL DEFAULT 1,
    updated REAL NOT NULL
);
"""


def upgrade(db: sqlite3.Connection, path: str, version: str) -> None:
    """Bring a database of an older schema up to this one, in place.

    Version 2 only added ``live_journal`` (created by the schema script); version
    1's journal rows, those of running matches too, stay where they are. Version 3
    added ``tables.creator_session``: tables of older databases have none (their
    creator is then found among the seated players; see :meth:`Table.restore`).
    Version 4 only added ``tournaments`` (created by the schema script)."""
    if version == str(SCHEMA_VERSION):
        return
    if version not in ("1", "2", "3"):
        raise StoreError(
            f"{path} has database schema {version}; this server knows {SCHEMA_VERSION}"
        )
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    with db:
        db.execute("BEGIN")
        if "creator_session" not in columns:
            db.execute("ALTER TABLE tables ADD COLUMN creator_session TEXT")
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))

"""The database's schema: its tables, its version and the upgrade of older ones.

The schema script only creates what is missing (``CREATE ... IF NOT EXISTS``), so it
runs at every opening. The version is kept in ``meta`` under the key ``schema``; a
database of an older version is brought up to this one in place by :func:`upgrade`,
and one of a newer (or unknown) version is refused."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from .encoding import dumps
from .errors import StoreError

log = logging.getLogger("maumau.server.store")

SCHEMA_VERSION = 6

BOT_MARK = "*"  # ends every bot's name from schema 5 on (maumau.server.bots.BOT_MARK)

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
    scores TEXT,
    abandoned TEXT
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
CREATE TABLE IF NOT EXISTS bans (
    what TEXT NOT NULL,
    target TEXT NOT NULL,
    by TEXT NOT NULL,
    reason TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (what, target)
) WITHOUT ROWID;
"""


def upgrade(db: sqlite3.Connection, path: str, version: str) -> None:
    """Bring a database of an older schema up to this one, in place.

    Version 2 only added ``live_journal`` (created by the schema script); version
    1's journal rows, those of running matches too, stay where they are. Version 3
    added ``tables.creator_session``: tables of older databases have none (their
    creator is then found among the seated players; see :meth:`Table.restore`).
    Version 4 only added ``tournaments`` (created by the schema script). Version 5
    marks every bot's name with ``*`` (``Ada`` became ``Ada*``, so that people may be
    called Ada): in the seats of every table, the names of every match and result,
    and the tables of every tournament (:func:`_mark_bots`). Version 6 added ``bans``
    (created by the schema script) and ``matches.abandoned``, why a match the host
    closed did not finish."""
    if version == str(SCHEMA_VERSION):
        return
    if version not in ("1", "2", "3", "4", "5"):
        raise StoreError(
            f"{path} has database schema {version}; this server knows {SCHEMA_VERSION}"
        )
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    match_columns = {row[1] for row in db.execute("PRAGMA table_info(matches)")}
    with db:
        db.execute("BEGIN")
        if "creator_session" not in columns:
            db.execute("ALTER TABLE tables ADD COLUMN creator_session TEXT")
        if "abandoned" not in match_columns:
            db.execute("ALTER TABLE matches ADD COLUMN abandoned TEXT")
        if version != "5":
            _mark_bots(db)
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
    log.info("%s upgraded from database schema %s to %s", path, version, SCHEMA_VERSION)


def marked(name: str) -> str:
    """A bot's name as schema 5 writes it: with the bots' mark at its end."""
    return name if name.endswith(BOT_MARK) else name + BOT_MARK


def _mark_bots(db: sqlite3.Connection) -> None:
    """Rename every bot of an older database as bots are named now (``Ada*``). A row
    whose JSON cannot be read is left as it is (the start reports it as damaged)."""

    def load(text: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            return None

    for table_id, text in db.execute("SELECT id, seats FROM tables").fetchall():
        seats = load(text)
        if isinstance(seats, list):
            for seat in seats:
                if isinstance(seat, dict) and seat.get("bot") and isinstance(seat.get("name"), str):
                    seat["name"] = marked(seat["name"])
            db.execute("UPDATE tables SET seats=? WHERE id=?", (dumps(seats), table_id))
    rows = db.execute("SELECT id, names, bots FROM matches").fetchall()
    for match_id, names_text, bots_text in rows:
        names, bots = load(names_text), load(bots_text)
        if isinstance(names, list) and isinstance(bots, list):
            renamed = [
                marked(n) if i < len(bots) and bots[i] and isinstance(n, str) else n
                for i, n in enumerate(names)
            ]
            db.execute("UPDATE matches SET names=? WHERE id=?", (dumps(renamed), match_id))
    db.execute(
        "UPDATE results SET name = name || ? WHERE bot AND substr(name, -1) != ?",
        (BOT_MARK, BOT_MARK),
    )
    for tournament_id, text in db.execute("SELECT id, data FROM tournaments").fetchall():
        data = load(text)
        if not isinstance(data, dict) or not isinstance(data.get("tables"), list):
            continue
        for table in data["tables"]:
            keys, names = table.get("keys"), table.get("names")
            if isinstance(keys, list) and isinstance(names, list):
                table["names"] = [
                    marked(n) if i < len(keys) and keys[i] is None and isinstance(n, str) else n
                    for i, n in enumerate(names)
                ]
        db.execute("UPDATE tournaments SET data=? WHERE id=?", (dumps(data), tournament_id))

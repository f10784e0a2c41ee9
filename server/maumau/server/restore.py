"""Restoring the lobby from the store after a restart or a crash.

Sessions come back first (disconnected: each keeps its seat for the reconnect grace),
then every open table with its match, rebuilt by replaying its journal through the
engine (see :meth:`maumau.server.table.journal.Journal.restore`). Each session and
each table is restored on its own: one that fails is logged by id and the others
start.
"""

from __future__ import annotations

import logging
import sqlite3

from .lobby import Lobby
from .rules import Settings
from .saving import Saver
from .session import Session
from .table import Table

log = logging.getLogger("maumau.server")


def restore(lobby: Lobby, saver: Saver) -> None:
    """Rebuild sessions and open tables from the store (after a restart or crash).

    Each session and each table is restored on its own: one that fails (a row the
    store cannot read is already left out, logged by id) is logged by id and the
    others start. A table whose match cannot be read or replayed is closed, as its
    players could not play on; the store's rows stay for replays and repair."""
    store = lobby.store
    if store is None:
        return
    by_id: dict[str, Session] = {}
    session_records = store.sessions()
    for record in session_records:
        try:
            session = Session(record.id, record.name, "", key=record.token_sha256)
        except Exception:
            log.exception("session %r could not be restored; skipped", record.id)
            continue
        lobby.sessions[session.key] = session
        by_id[session.id] = session
    restored = 0
    alive, held = store.clock_marks()
    for table_record in store.open_tables():
        try:
            settings = Settings.from_dict(table_record.settings)
            table = Table(
                lobby,
                table_record.id,
                table_record.name,
                settings,
                table_record.creator or "",
                table_record.password,
                {},
                lobby.rng.randrange(2**63),
            )
            match = (
                store.match(table_record.match_id) if table_record.match_id is not None else None
            )
            journal = list(store.journal(match.id)) if match is not None else []
            stopped = held.get(table_record.id, alive)
            table.restore(table_record, by_id, match, journal, stopped)
            if table_record.id in held:
                store.hold_clock(table_record.id, None)  # its clock runs again
        except Exception as error:
            log.error(
                "table %d could not be restored (%s: %s); closing it",
                table_record.id,
                type(error).__name__,
                error,
            )
            log.debug("table %d: how its restoring failed", table_record.id, exc_info=True)
            try:
                store.close_table(table_record.id)
            except sqlite3.Error:
                log.exception("table %d could not be closed", table_record.id)
            continue
        lobby.open_table(table)
        table.info_saved = table.info(None).to_wire()  # as the store has it
        restored += 1
    for session in lobby.sessions.values():
        if session.table is not None and lobby.tables.get(session.table.id) is not session.table:
            session.table = None  # seated at a table that failed half-way: the lobby
    for record in session_records:
        found = lobby.sessions.get(record.token_sha256)
        watched = lobby.tables.get(record.table_id) if record.table_id is not None else None
        if found is not None and found.table is None and watched is not None:
            found.table = watched  # a spectator: watches again on resuming
    saver.commit()
    saver.archive()  # matches that ended, or whose table closed, before a crash
    if restored or lobby.sessions:
        log.info("restored %d tables and %d sessions", restored, len(lobby.sessions))

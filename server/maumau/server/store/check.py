"""The check at opening: refuse a file that is not a sound maumau database.

Opening runs ``PRAGMA quick_check`` first (:func:`check_file`), under a time budget:
50 MB take about 0.2 to 0.6 s when the file is in the page cache, 0.6 to 2 s when it
is read from disk; past :data:`CHECK_BUDGET_S` the check is cut short with a warning,
so a huge database does not hold up the start. The store refuses, with
:class:`StoreDamaged` and before writing anything, a file that is not a SQLite
database, one whose pages are damaged (the server writes on every action, and writes
into a damaged b-tree can fail in the middle of a match or spread the damage), and
another program's database. Findings about values only (a NULL where the schema says
NOT NULL) are logged as a warning and the server starts: reading is row by row (see
:mod:`.rows`)."""

from __future__ import annotations

import logging
import re
import sqlite3
import threading

from .errors import StoreDamaged, StoreError
from .schema import SCHEMA

log = logging.getLogger("maumau.server.store")

CHECK_BUDGET_S = 3.0  # the longest the integrity check at start-up may take
CHECK_MAX_ERRORS = 5  # quick_check stops after this many findings

# quick_check findings about a value, not about the file's structure.
_VALUE_FINDING = re.compile(r"(NULL value in|non-\w+ value in|CHECK constraint failed)")


def check_file(db: sqlite3.Connection, path: str) -> None:
    """Refuse a file that is not a sound maumau database, before anything is written
    to it (:class:`StoreDamaged`); warn about findings on values only.

    Whenever it raises, the caller closes the database and lets go of its lock (it is
    not going to be used)."""
    try:
        findings = _quick_check(db, CHECK_BUDGET_S, CHECK_MAX_ERRORS)
        foreign = _foreign_tables(db)
    except sqlite3.DatabaseError as error:
        code = error.sqlite_errorcode & 0xFF  # the primary code of an extended one
        if code == sqlite3.SQLITE_NOTADB:
            raise StoreDamaged(path, "not-a-database", str(error)) from None
        if code == sqlite3.SQLITE_CORRUPT:
            raise StoreDamaged(path, "damaged", str(error)) from None
        raise StoreError(f"cannot use {path} as the maumau database: {error}") from None
    if findings is None:
        log.warning(
            "%s: the integrity check was cut short after %g s (a large database); "
            "starting without it",
            path,
            CHECK_BUDGET_S,
        )
        findings = []
    damage = [line for line in findings if not _VALUE_FINDING.match(line)]
    if damage:
        more = f" (and {len(damage) - 1} more)" if len(damage) > 1 else ""
        raise StoreDamaged(path, "damaged", damage[0] + more)
    if foreign:
        problem = "a database of another program (its tables: " + ", ".join(foreign) + ")"
        raise StoreDamaged(path, "foreign", problem)
    for line in findings:
        log.warning("%s: %s (the rows that cannot be read are skipped)", path, line)


def _quick_check(db: sqlite3.Connection, budget: float, max_errors: int) -> list[str] | None:
    """``PRAGMA quick_check``: its findings (none for a sound file), or None when it was
    cut short after ``budget`` seconds. Raises :class:`sqlite3.DatabaseError` for a file
    too damaged to be checked.

    The walk over the b-trees is a single step of SQLite's virtual machine, which a
    progress handler cannot stop, so a thread interrupts the connection, and again
    every few milliseconds (an interrupt that comes before the statement runs is lost)
    until the check has ended."""
    cut_short = False
    ended = threading.Event()

    def interrupt() -> None:
        nonlocal cut_short
        if ended.wait(budget):
            return
        cut_short = True
        while not ended.is_set():
            db.interrupt()
            ended.wait(0.005)

    timer = threading.Thread(target=interrupt, name="quick_check budget", daemon=True)
    timer.start()
    try:
        rows = db.execute(f"PRAGMA quick_check({int(max_errors)})").fetchall()
    except sqlite3.OperationalError:
        if cut_short:
            return None
        raise
    finally:
        ended.set()
        timer.join()  # no interrupt can reach a later statement
    findings = [str(row[0]).removeprefix("*** in database main ***\n") for row in rows]
    return [] if findings == ["ok"] else findings


def _foreign_tables(db: sqlite3.Connection) -> list[str]:
    """The tables that make this database another program's; none for an empty
    database and for a maumau one (its ``meta`` table names its schema version)."""
    names = [
        name
        for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    if "meta" in names:
        try:
            if db.execute("SELECT 1 FROM meta WHERE key='schema'").fetchone() is not None:
                return []
        except sqlite3.OperationalError:  # a table "meta" of another shape
            return names
    ours = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))
    return [] if set(names) <= ours else names

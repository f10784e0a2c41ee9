"""Reading rows: the rows of ``tables`` and ``sessions`` checked column by column, and
the decoders of the other rows.

A database may hold rows that this server did not write as they are: a file edited
by hand, a value that a damaged page changed (the check at opening only warns about
findings on values, see :mod:`.check`). :meth:`Store.open_tables` and
:meth:`Store.sessions` therefore read row by row: a row they cannot read (bad JSON, a
missing or mistyped column) is logged by its id and skipped; the row is left as it
is, neither closed nor deleted, so it is reported at every start until it is
repaired. A scan that meets a damaged page keeps the rows read before it
(:func:`scan`)."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from typing import Any

from .records import MatchRecord, SessionRecord, TableRecord

log = logging.getLogger("maumau.server.store")


def scan(db: sqlite3.Connection, what: str, query: str) -> Iterator[tuple[Any, ...]]:
    """The rows of ``query``, for checking column by column: a text that is not
    UTF-8 comes as its bytes (which no check takes for text) instead of failing the
    scan. If the scan itself fails (a damaged page that the check at start-up did
    not get to), the error is logged and the rows read so far are all there is."""
    db.text_factory = _text_or_bytes
    try:
        yield from db.execute(query)
    except sqlite3.DatabaseError as error:
        log.error("the %s after those read so far cannot be read (%s): skipped", what, error)
    finally:
        db.text_factory = str


def _text_or_bytes(raw: bytes) -> str | bytes:
    """A TEXT value as read by :func:`scan`: its bytes if they are not UTF-8."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def shown(value: Any) -> str:
    """A value for a log line, however long or strange it is."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _column(name: str, value: Any, *kinds: type) -> Any:
    """``value`` if it is one of ``kinds`` (``type(None)`` for a NULL allowed)."""
    if not isinstance(value, kinds):
        raise ValueError(f"{name} is {shown(value)}")
    return value


def _json(name: str, value: Any, kind: type) -> Any:
    """The JSON text ``value``, decoded; it must be a ``kind``."""
    _column(name, value, str)
    try:
        decoded = json.loads(value)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    return _column(name, decoded, kind)


def table_record(row: tuple[Any, ...]) -> TableRecord:
    """A row of ``tables``, checked column by column (ValueError names the first bad
    one)."""
    optional_text = (str, type(None))
    seats = _json("seats", row[6], list)
    for seat in seats:
        _column("a seat", seat, dict)
    return TableRecord(
        id=_column("id", row[0], int),
        name=_column("name", row[1], str),
        settings=_json("settings", row[2], dict),
        creator=_column("creator", row[3], *optional_text),
        password=_column("password", row[4], *optional_text),
        status=_column("status", row[5], str),
        seats=seats,
        seq=_column("seq", row[7], int),
        match_id=_column("match_id", row[8], int, type(None)),
        creator_session=_column("creator_session", row[9], *optional_text),
    )


def session_record(row: tuple[Any, ...]) -> SessionRecord:
    """A row of ``sessions`` (token hash, id, name, table id), checked column by column."""
    return SessionRecord(
        token_sha256=_column("token_sha256", row[0], str),
        id=_column("id", row[1], str),
        name=_column("name", row[2], str),
        table_id=_column("table_id", row[3], int, type(None)),
    )


def match_record(row: tuple[Any, ...]) -> MatchRecord:
    return MatchRecord(
        id=row[0],
        table_id=row[1],
        table_name=row[2],
        settings=json.loads(row[3]),
        seed=row[4],
        names=json.loads(row[5]),
        bots=json.loads(row[6]),
        started=row[7],
        finished=row[8],
        winner=row[9],
        scores=None if row[10] is None else json.loads(row[10]),
    )


def stats(row: tuple[Any, ...]) -> dict[str, Any]:
    name, matches, wins, rounds_won, average = row
    return {
        "name": name,
        "matches": int(matches),
        "wins": int(wins or 0),
        "rounds_won": int(rounds_won or 0),
        "average_score": round(float(average or 0.0), 1),
    }

"""The records the store hands out and takes in: a table, a match, a journal entry and
a session, as plain dataclasses (the rows they come from are read by :mod:`.rows`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class TableRecord:
    id: int
    name: str
    settings: dict[str, Any]
    creator: str | None
    password: str | None
    status: str
    seats: list[dict[str, Any]]
    seq: int
    match_id: int | None
    creator_session: str | None = None  # the creator's session id (schema 3)


@dataclass(slots=True)
class MatchRecord:
    id: int
    table_id: int
    table_name: str
    settings: dict[str, Any]
    seed: int
    names: list[str]
    bots: list[bool]
    started: float
    finished: float | None
    winner: int | None
    scores: list[int] | None


@dataclass(slots=True)
class JournalEntry:
    n: int
    action: list[Any]
    seq: int
    timers: dict[str, Any]
    at: float


@dataclass(slots=True)
class SessionRecord:
    token_sha256: str
    id: str
    name: str
    table_id: int | None


@dataclass(slots=True)
class BanRecord:
    """A ban for good: ``what`` is ``name`` (its skeleton is ``target``) or
    ``address``."""

    what: str
    target: str
    by: str
    reason: str | None

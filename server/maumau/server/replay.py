"""Replays of finished matches, rebuilt from the journal.

A match is its seed plus its journaled actions (see :mod:`maumau.server.store`), so a
replay is made by dealing the match again with :func:`new_match` and applying the
actions one by one. Step 0 is the first deal; each later step is the match right after
an action that changed something one can see, with every hand revealed and the
engine's events, in plain words (``lines``) and as facts (``events``, one map per line).
An action without events, such as a call window's minimum time passing before the
window can close, makes no step.

Only finished matches can be replayed: revealing the hands of a running match would
let anyone see their opponents' cards.

Matches of a table with a password are private: only the people who sat there (a
name proven by its secret, see :meth:`Store.private_match_owner`) or whoever gives
the table's password may list or replay them. To anybody else they do not exist:
``get_replay`` answers ``no_such_match``, as for an id never used. The check runs on
every request, before the cache is consulted, so a replay cached for one viewer is
never handed to another.

Rebuilding costs a few milliseconds per thousand actions; the last few replays asked
for are kept in a small cache, so stepping through one page after another is cheap.
"""

from __future__ import annotations

import hmac
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgpack

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, SUIT_CODES
from maumau.protocol.messages import Replay

from .errors import TableError
from .rules import (
    Event,
    Settings,
    action_from_record,
    apply,
    new_match,
    public_view,
)
from .rules.facts import event_map
from .store import MatchRecord, Store

CACHED_REPLAYS = 8
PAGE_BYTES = 48_000  # a page stays well inside one 64 KiB frame


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks for a match: ``owner`` is the asker's name if its secret was proved
    (else None); ``password`` the table password the request carries, if any."""

    owner: str | None = None
    password: str | None = None


def may_see(store: Store, record: MatchRecord, viewer: Viewer) -> bool:
    """Whether ``viewer`` may know of the match: every match of a table without a
    password; one of a table with a password only for a verified player of it or
    with that password."""
    password = store.table_password(record.table_id)
    if password is None:
        return True
    given = viewer.password
    if given is not None and hmac.compare_digest(given.encode(), password.encode()):
        return True
    return viewer.owner is not None and store.private_match_owner(record, viewer.owner)


def match_summary(store: Store, record: MatchRecord) -> dict[str, Any]:
    """One finished match as the ``matches`` message lists it."""
    rounds = store.db.execute(
        "SELECT COUNT(*) FROM rounds WHERE match_id=?", (record.id,)
    ).fetchone()[0]
    return {
        "id": record.id,
        "table": record.table_name,
        "variant": record.settings.get("variant", "classic"),
        "names": record.names,
        "bots": record.bots,
        "scores": record.scores or [0] * len(record.names),
        "winner": record.winner if record.winner is not None else 0,
        "finished": float(record.finished or 0.0),
        "rounds": int(rounds),
    }


def build_steps(record: MatchRecord, actions: list[list[Any]]) -> list[dict[str, Any]]:
    """Every step of a match: the deal, then the state after each action."""
    settings = Settings.from_dict(record.settings)
    letters = SUIT_CODES if settings.is_classic else COLOUR_CODES
    state, events = new_match(settings, record.seed)

    def step(n: int, events: list[Event]) -> dict[str, Any]:
        v = public_view(state)
        told = events[:50]
        return {
            "n": n,
            "round": max(1, v.round_no),
            "phase": v.phase,
            "turn": v.turn,
            "direction": v.direction,
            "top": v.top,
            "named": letters[v.named] if v.named is not None else None,
            "penalty": v.penalty,
            "hands": [[CODE_OF[c] for c in hand] for hand in state.hands],
            "scores": list(v.scores),
            "stock": v.stock_count,
            "events": [event_map(e) for e in told],
        }

    steps = [step(0, events)]
    for action in actions:
        events = apply(state, action_from_record(action))
        if events:
            steps.append(step(len(steps), events))
    return steps


class ReplayCache:
    """The steps of the last few replayed matches."""

    def __init__(self) -> None:
        self._steps: OrderedDict[int, tuple[MatchRecord, list[dict[str, Any]]]] = OrderedDict()

    def steps(
        self, store: Store, match_id: int, viewer: Viewer
    ) -> tuple[MatchRecord, list[dict[str, Any]]]:
        """The match's record and steps, if ``viewer`` may see it (checked every time,
        cached or not); a match it may not see is refused as if it did not exist."""
        cached = self._steps.get(match_id)
        record = cached[0] if cached is not None else store.match(match_id)
        if record is None or not may_see(store, record, viewer):
            raise TableError("no_such_match", f"there is no match {match_id}", {"match": match_id})
        if cached is not None:
            self._steps.move_to_end(match_id)
            return cached
        if record.finished is None:
            raise TableError(
                "match_running",
                f"match {match_id} has not finished (it is running, or was left unfinished)",
                {"match": match_id},
            )
        actions = [entry.action for entry in store.journal(match_id)]
        found = (record, build_steps(record, actions))
        self._steps[match_id] = found
        while len(self._steps) > CACHED_REPLAYS:
            self._steps.popitem(last=False)
        return found

    def page(self, store: Store, match_id: int, start: int, count: int, viewer: Viewer) -> Replay:
        record, steps = self.steps(store, match_id, viewer)
        start = min(start, len(steps) - 1)
        page: list[dict[str, Any]] = []
        size = 0
        for step in steps[start : start + count]:
            size += len(msgpack.packb(step))
            if page and size > PAGE_BYTES:
                break
            page.append(step)
        return Replay(
            match=record.id,
            table=record.table_name,
            variant=record.settings.get("variant", "classic"),
            names=tuple(record.names),
            bots=tuple(record.bots),
            total=len(steps),
            start=start,
            steps=tuple(page),
        )

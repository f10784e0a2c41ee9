"""Replays of finished matches, rebuilt from the journal.

A match is its seed plus its journaled actions (see :mod:`maumau.server.store`), so a
replay is made by dealing the match again with :func:`new_match` and applying the
actions one by one. Step 0 is the first deal; each later step is the match right after
an action that changed something one can see, with every hand revealed and the
engine's events in plain words (an action without events, such as a call window's
minimum time passing before the window can close, makes no step).

Only finished matches can be replayed: revealing the hands of a running match would
let anyone see their opponents' cards.

Rebuilding costs a few milliseconds per thousand actions; the last few replays asked
for are kept in a small cache, so stepping through one page after another is cheap.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgpack

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, SUIT_CODES
from maumau.protocol.messages import Replay

from .rules import Settings, action_from_record, apply, describe, new_match, public_view
from .store import MatchRecord, Store
from .table import TableError

CACHED_REPLAYS = 8
PAGE_BYTES = 48_000  # a page stays well inside one 64 KiB frame


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
    names = record.names
    state, events = new_match(settings, record.seed)

    def step(n: int, lines: list[str]) -> dict[str, Any]:
        v = public_view(state)
        return {
            "n": n,
            "lines": [line[:500] for line in lines[:50] if line],
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
        }

    steps = [step(0, [describe(e, names) for e in events])]
    for action in actions:
        events = apply(state, action_from_record(action))
        if events:
            steps.append(step(len(steps), [describe(e, names) for e in events]))
    return steps


class ReplayCache:
    """The steps of the last few replayed matches."""

    def __init__(self) -> None:
        self._steps: OrderedDict[int, tuple[MatchRecord, list[dict[str, Any]]]] = OrderedDict()

    def steps(self, store: Store, match_id: int) -> tuple[MatchRecord, list[dict[str, Any]]]:
        if match_id in self._steps:
            self._steps.move_to_end(match_id)
            return self._steps[match_id]
        record = store.match(match_id)
        if record is None:
            raise TableError("no_such_match", f"there is no match {match_id}")
        if record.finished is None:
            raise TableError(
                "match_running",
                f"match {match_id} has not finished (it is running, or was left unfinished)",
            )
        actions = [entry.action for entry in store.journal(match_id)]
        found = (record, build_steps(record, actions))
        self._steps[match_id] = found
        while len(self._steps) > CACHED_REPLAYS:
            self._steps.popitem(last=False)
        return found

    def page(self, store: Store, match_id: int, start: int, count: int) -> Replay:
        record, steps = self.steps(store, match_id)
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

"""The server's fast view encoding equals the plain one.

For every change the table builds the public part of the views straight from the
match state and packs it once (``Table._public_wire``, ``view_frame``). These tests
hold both to the reference: :func:`public_view`/:func:`private_view` turned into a
dict and packed whole, over random-legal matches of both games.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from maumau.protocol.cards import COLOUR_CODES, SUIT_CODES
from maumau.protocol.codec import encode_frame
from maumau.server.rules import (
    EndCallWindow,
    NextRound,
    Settings,
    apply,
    legal_actions,
    new_match,
    private_view,
    public_view,
)
from maumau.server.rules.engine import catchable
from maumau.server.server import Server
from maumau.server.table import Table
from maumau.server.table.frames import PRIVATE_KEYS, action_to_wire, view_frame


def reference_view(table: Table, seat: int | None) -> dict[str, Any]:
    match = table.match
    assert match is not None
    v = public_view(match)
    letters = SUIT_CODES if table.settings.is_classic else COLOUR_CODES
    last = v.last_round
    mine = private_view(match, seat)
    return {
        "type": "view",
        "table": table.id,
        "seq": table.seq,
        "phase": v.phase,
        "round": v.round_no,
        "dealer": v.dealer,
        "turn": v.turn,
        "direction": v.direction,
        "top": v.top,
        "named": letters[v.named] if v.named is not None else None,
        "penalty": v.penalty,
        "penalty_kind": v.penalty_kind,
        "hand_counts": v.hand_counts,
        "scores": v.scores,
        "target": table.settings.target_score,
        "stock": v.stock_count,
        "discard": v.discard_count,
        "windows": [
            {
                "id": w.id,
                "seat": w.seat,
                "final": w.final,
                "called": w.called,
                "catchable": w.catchable,
            }
            for w in v.windows
        ],
        "winner": v.winner,
        "turn_deadline_ms": None,
        "last_round": None
        if last is None
        else {
            "round": last.round_no,
            "winner": last.winner,
            "points": last.points,
            "hands": last.hands,
            "hand_points": last.hand_points,
            "scores": last.scores,
        },
        "seat": seat,
        "hand": mine.hand,
        "drawn": mine.drawn,
        "legal": [action_to_wire(a, table.settings.is_classic) for a in mine.legal],
    }


@pytest.mark.parametrize("variant", ["classic", "american"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_view_frames_equal_the_reference(variant: str, seed: int) -> None:
    settings = Settings.create(variant, seats=4)
    table = Table(Server(), 3, "T", settings, "Ann", None, {}, seed)
    table.match, _ = new_match(settings, seed)
    rng = random.Random(seed)
    checked = set()
    for step in range(3000):
        match = table.match
        table.seq = step
        public_count, body = table.audience.public_body(match)
        windows = tuple(
            (w.id, w.seat, w.final, w.called, catchable(match, w)) for w in match.windows
        )
        for seat in (0, 1, 2, 3, None):
            expected = reference_view(table, seat)
            frame = view_frame(
                public_count + len(PRIVATE_KEYS),
                body,
                table.audience.private_body(match, seat, windows),
            )
            assert frame == encode_frame(expected)
            assert msgpack.unpackb(frame[4:]) == msgpack.unpackb(encode_frame(expected)[4:])
        checked.add(match.phase)
        if match.windows:
            checked.add("windows")
        if match.last_round is not None:
            checked.add("last_round")
        if match.phase == "match_over" or ({"round_over", "last_round"} <= checked and step > 1500):
            break
        if match.phase == "round_over":
            apply(match, NextRound())
            continue
        if match.windows and rng.random() < 0.3:
            apply(match, EndCallWindow(match.windows[0].id))
            continue
        moves = [a for seat in range(4) for a in legal_actions(match, seat)]
        if not moves:
            apply(match, EndCallWindow(match.windows[0].id))
            continue
        plays = [a for a in moves if type(a).__name__ == "Play"]
        apply(match, rng.choice(plays if plays and rng.random() < 0.9 else moves))
    assert {"playing", "round_over", "windows", "last_round"} <= checked

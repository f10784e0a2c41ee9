"""Result screens of both games: waiting rooms, American views and rounds, a finished
Mau Mau match, and an app that records what it sends."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import Message, TableInfo, View
from support.client_snapshots import WELCOME, StillApp, seat

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((60, 20), id="60x20")]


AMERICAN = ["Ann", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia", "Ola"]


LEVELS = {"Kai": "hard", "Lea": "easy"}


def waiting_room() -> list[Message]:
    """Ten seats: me, a player not ready, free seats, bots of each level, a player
    offline and one away."""
    seats = [
        seat("Ann"),
        {**seat("Eve"), "ready": False},
        {**seat(None), "connected": False, "ready": False},
        seat("Ada", bot=True, level="hard"),
        seat("Bert", bot=True, level="easy"),
        {**seat(None), "connected": False, "ready": False},
        seat("Cleo", bot=True, level="normal"),
        {**seat("Finn"), "connected": False},
        {**seat("Maximiliana"), "away": True},
        {**seat(None), "connected": False, "ready": False},
    ]
    info = TableInfo(
        5,
        "Big one",
        {"variant": "american", "target_score": 500},
        tuple(seats),
        (),
        "waiting",
        "Ann",
        0,
    )
    return [WELCOME, info]


def american_view(round_no: int, phase: str, scores: tuple[int, ...], **more: Any) -> View:
    fields: dict[str, Any] = {
        "table": 4,
        "seq": 10 * round_no,
        "seat": 0,
        "phase": phase,
        "round": round_no,
        "dealer": round_no % 10,
        "turn": 1,
        "direction": 1,
        "top": "G7",
        "named": None,
        "penalty": 0,
        "penalty_kind": None,
        "hand_counts": (0, 3, 1, 7, 5, 4, 8, 2, 6, 7),
        "scores": scores,
        "target": 500,
        "stock": 30,
        "discard": 12,
        "windows": (),
        "last_round": None,
        "winner": None,
        "hand": (),
        "drawn": None,
        "legal": (),
        "turn_deadline_ms": None,
    }
    fields.update(more)
    return View(**fields)


def american_rounds(rounds: int = 6, phase: str = "round_over") -> list[Message]:
    """Ten players after ``rounds`` rounds, each won by Ann; the last one's hands
    are long (they wrap)."""
    seats = tuple(seat(n, bot=n in LEVELS, level=LEVELS.get(n)) for n in AMERICAN)
    info = TableInfo(
        4, "Newbies", {"variant": "american", "target_score": 500}, seats, (), "playing", "Eve", 0
    )
    messages: list[Message] = [WELCOME, info]
    cards = ["R7", "RS", "Y+2", "G9", "B0", "W", "W4", "GR", "B+2", "Y5", "R1", "G3"]
    sizes = (0, 3, 1, 7, 15, 4, 8, 2, 6, 22)
    hands = tuple(
        tuple(cards[(i + k) % len(cards)] for k in range(size)) for i, size in enumerate(sizes)
    )
    before: tuple[int, ...] = (0,) * 10
    for n in range(1, rounds + 1):
        scores = tuple(min(500, 30 * n * (i == 0) + n * i) for i in range(10))
        last = {
            "round": n,
            "winner": 0,
            "points": 30,
            "hands": hands,
            "hand_points": (0, 60, 20, 40, 95, 50, 70, 40, 45, 180),
            "scores": scores,
        }
        messages.append(american_view(n, "playing", before))
        before = scores
        done = phase if n == rounds else "round_over"
        winner = 0 if done == "match_over" else None
        messages.append(american_view(n, done, scores, last_round=last, winner=winner))
    return messages


def classic_match_over() -> list[Message]:
    """Four players of Mau Mau, the third round ends the match: Cleo wins. Nobody has
    asked for a rematch yet (after a match a person's ``ready`` is that vote)."""
    seats = tuple(
        {**s, "ready": s["bot"]}
        for s in (seat("Ann"), seat("Bob"), seat("Cleo"), seat("Dan", bot=True, level="hard"))
    )
    info = TableInfo(
        3, "Friday", {"variant": "classic", "target_score": 150}, seats, (), "finished", "Ann", 0
    )
    messages: list[Message] = [WELCOME, info]
    totals = [(0, 40, 20, 12), (30, 40, 95, 12), (46, 60, 152, 20)]
    for n, scores in enumerate(totals, 1):
        last = {
            "round": n,
            "winner": 2,
            "points": 57 if n == 3 else 40,
            "hands": (("7S", "9H"), ("QC", "KC"), (), ("8D",)),
            "hand_points": (16, 20, 0, 8),
            "scores": scores,
        }
        done = "match_over" if n == 3 else "round_over"
        view = View(
            table=3,
            seq=40 * n,
            seat=0,
            phase=done,
            round=n,
            dealer=n,
            turn=0,
            direction=1,
            top="7H",
            named=None,
            penalty=0,
            penalty_kind=None,
            hand_counts=(2, 2, 0, 1),
            scores=scores,
            target=150,
            stock=14,
            discard=6,
            windows=(),
            last_round=last,
            winner=2 if n == 3 else None,
            hand=("7S", "9H"),
            drawn=None,
            legal=(),
            turn_deadline_ms=None,
        )
        messages.append(view)
    return messages


def run(coro: Any) -> None:
    asyncio.run(coro)


async def until(pilot: Any, condition: Any) -> None:
    """Wait until ``condition()`` holds (within 5 s)."""
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, "waited 5 s in vain"
        await pilot.pause(0.01)


async def shows(pilot: Any, app: StillApp, *words: str) -> str:
    """The screen's text once every one of ``words`` is on it (within 5 s)."""
    deadline = time.monotonic() + 5
    while not all(word in (text := screen_text(app)) for word in words):
        assert time.monotonic() < deadline, f"not on screen: {words!r} in\n{text}"
        await pilot.pause(0.02)
    return text


def screen_text(app: StillApp) -> str:
    """Every line the screen shows now, as plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


class Recording(StillApp):
    """A StillApp that keeps what the screens ask to send."""

    def __init__(self, messages: list[Message]) -> None:
        super().__init__(messages, TableScreen)
        self.sent: list[Message] = []

    async def send(self, message: Message) -> None:
        self.sent.append(message)

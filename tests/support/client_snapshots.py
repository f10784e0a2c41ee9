"""Fixed server messages and apps that show them: a still app (the messages posted as
the network worker would), an answering app, lobbies, tables, replays and results of
both games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from maumau.client.app import MauMauApp
from maumau.client.connection import ServerMessage
from maumau.protocol.messages import (
    Error,
    GameEvent,
    GetReplay,
    GetStats,
    ListMatches,
    Lobby,
    Matches,
    Message,
    Replay,
    Stats,
    TableInfo,
    View,
    Welcome,
)

SIZE = (80, 24)


def seat(
    name: str | None, bot: bool = False, away: bool = False, level: str | None = None
) -> dict[str, Any]:
    info = {"name": name, "bot": bot, "connected": True, "away": away, "ready": True}
    if level is not None:
        info["level"] = level
    return info


class StillApp(MauMauApp):
    """The client with a fixed model and one screen, for pictures."""

    def __init__(self, messages: list[Message], screen: Callable[[], Screen[Any]]) -> None:
        super().__init__(None, None, "Ann", remember=False)
        self.messages = messages
        self.make_screen = screen

    def start(self) -> None:
        for message in self.messages:
            self.model.apply(message)
        self.push_screen(self.make_screen())


WELCOME = Welcome(1, "s", "r", "Ann", False)


class AnsweringApp(StillApp):
    """The client with fixed records: its requests are answered as a server would
    (through the app's own message handling), and recorded in ``sent``."""

    def __init__(
        self,
        screen: Callable[[], Screen[Any]],
        stats: Stats | None = None,
        matches: Matches | None = None,
        replay: Replay | None = None,
        refuse: Error | None = None,
    ) -> None:
        super().__init__([WELCOME], screen)
        self.stats, self.matches, self.replay, self.refuse = stats, matches, replay, refuse
        self.sent: list[Message] = []

    async def send(self, message: Message) -> None:
        self.sent.append(message)
        answer: Message | None = None
        if self.refuse is not None:
            answer = self.refuse
        elif isinstance(message, GetStats):
            answer = self.stats
        elif isinstance(message, ListMatches):
            answer = self.matches
        elif isinstance(message, GetReplay) and self.replay is not None:
            whole = self.replay
            start = min(message.start, whole.total - 1)
            answer = Replay(
                whole.match,
                whole.table,
                whole.variant,
                whole.names,
                whole.bots,
                whole.total,
                start,
                whole.steps[start : start + message.count],
            )
        if answer is not None:
            self.post_message(ServerMessage(answer))


def player(name: str, matches: int, wins: int, rounds: int, average: float) -> dict[str, Any]:
    return {
        "name": name,
        "matches": matches,
        "wins": wins,
        "rounds_won": rounds,
        "average_score": average,
    }


STATS = Stats(
    (
        player("Cleo", 12, 7, 40, 131.5),
        player("Bob", 9, 4, 22, 118.0),
        player("Ann", 10, 3, 25, 97.3),
        player("Eve", 4, 1, 6, 60.8),
        player("Finn", 2, 0, 1, 20.0),
    ),
    player("Ann", 10, 3, 25, 97.3),
    "classic",
)


FINISHED = 1_746_131_400.0  # 2025-05-01 20:30 UTC


def match(
    id: int, table: str, variant: str, names: list[str], scores: list[int], **more: Any
) -> dict[str, Any]:
    summary = {
        "id": id,
        "table": table,
        "variant": variant,
        "names": tuple(names),
        "bots": tuple(n in ("Ada", "Bert", "Dan", "Kai") for n in names),
        "scores": tuple(scores),
        "winner": scores.index(max(scores)),
        "finished": FINISHED - 3600 * id,
        "rounds": 3,
    }
    summary.update(more)
    return summary


MATCHES = Matches(
    (
        match(1, "Friday", "classic", ["Ann", "Bob", "Cleo", "Dan"], [152, 62, 88, 40], rounds=5),
        match(
            2,
            "Newbies",
            "american",
            ["Eve", "Finn", "Ann", "Kai", "Lea", "Max"],
            [31, 0, 512, 0, 7, 0],
        ),
        match(3, "Quick", "classic", ["Ann", "Ada"], [20, 0], rounds=1),
        match(4, "A very long table name", "classic", ["Bob", "Bert", "Cleo"], [12, 150, 0]),
    )
)


def replay_step(n: int, round_no: int, **changes: Any) -> dict[str, Any]:
    """A replay step of a classic four-seat match (made up, but every field valid)."""
    deck = [
        f"{rank}{suit}" for suit in "SHDC" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")
    ]
    hands = tuple(
        tuple(deck[(n + 7 * s + k) % 32] for k in range(3 + (n + s) % 4)) for s in range(4)
    )
    step = {
        "n": n,
        "events": ({"kind": "card_drawn", "seat": n % 4, "count": 1},),
        "round": round_no,
        "phase": "playing",
        "turn": n % 4,
        "direction": 1,
        "top": deck[n % 32],
        "named": None,
        "penalty": 0,
        "hands": hands,
        "scores": (0, 10 * (round_no - 1), 0, 0),
        "stock": 10,
    }
    step.update(changes)
    return step


def classic_replay(total: int = 130, round_length: int = 45) -> Replay:
    """A match of ``total`` steps whose rounds start every ``round_length`` steps; step
    37 is the position of the table snapshot (Ann must answer a 7)."""
    steps = [replay_step(n, 1 + n // round_length) for n in range(total)]
    steps[37] = replay_step(
        37,
        1,
        events=(
            {"kind": "card_played", "seat": 2, "card": "7H", "cards_left": 1, "call": "mau"},
            {"kind": "penalty_pending", "seat": 0, "amount": 4, "answer": "seven"},
        ),
        turn=0,
        top="7H",
        penalty=4,
        hands=(
            ("7S", "9H", "10S", "QH", "JD"),
            ("8C", "KC", "AD", "9D"),
            ("QS",),
            ("7C", "8H", "JS", "KH", "AH", "10D"),
        ),
        scores=(12, 62, 88, 40),
        stock=14,
    )
    steps[-1] = replay_step(
        total - 1,
        steps[-1]["round"],
        phase="match_over",
        events=(
            {
                "kind": "round_ended",
                "round": 3,
                "winner": 0,
                "points": 60,
                "scores": (152, 62, 88, 40),
            },
            {"kind": "match_ended", "winner": 0, "scores": (152, 62, 88, 40)},
        ),
        hands=((), ("8C", "KC", "AD", "9D"), ("QS", "JH"), ("7C", "AH")),
        scores=(152, 62, 88, 40),
    )
    names = ("Ann", "Bob", "Cleo", "Dan")
    bots = tuple(n in ("Ada", "Bert", "Dan", "Kai") for n in names)
    return Replay(1, "Friday", "classic", names, bots, total, 0, tuple(steps))


def american_replay() -> Replay:
    """Ten players, some with many cards: hands are cut with +N at 80x24."""
    names = ("Ann", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia", "Ola")
    cards = ["R7", "RS", "Y+2", "G9", "B0", "W", "W4", "GR", "B+2", "Y5", "R1", "G3"]
    sizes = (24, 3, 1, 7, 15, 4, 8, 2, 6, 30)
    hands = tuple(
        tuple(cards[(i + k) % len(cards)] for k in range(size)) for i, size in enumerate(sizes)
    )
    step = {
        "n": 212,
        "events": (
            {"kind": "card_played", "seat": 3, "card": "W4", "named": "B", "cards_left": 6},
            {
                "kind": "penalty_pending",
                "seat": 4,
                "amount": 4,
                "answer": "wild_draw_four",
                "can_challenge": True,
            },
        ),
        "round": 2,
        "phase": "playing",
        "turn": 4,
        "direction": -1,
        "top": "W4",
        "named": "B",
        "penalty": 4,
        "hands": hands,
        "scores": (0, 120, 40, 10, 0, 0, 55, 0, 90, 0),
        "stock": 3,
    }
    bots = tuple(n in ("Ada", "Bert", "Dan", "Kai") for n in names)
    return Replay(2, "Newbies", "american", names, bots, 213, 212, (step,))


def classic_table() -> list[Message]:
    seats = (seat("Ann"), seat("Bob"), seat("Cleo"), seat("Dan", bot=True, level="hard"))
    info = TableInfo(
        3,
        "Friday",
        {"variant": "classic", "target_score": 150, "turn_timeout_s": 45},
        seats,
        ("Eve",),
        "playing",
        "Ann",
        0,
    )
    view = View(
        table=3,
        seq=40,
        seat=0,
        phase="playing",
        round=3,
        dealer=2,
        turn=0,
        direction=1,
        top="7H",
        named=None,
        penalty=4,
        penalty_kind="seven",
        hand_counts=(5, 4, 1, 6),
        scores=(12, 62, 88, 40),
        target=150,
        stock=14,
        discard=6,
        windows=({"id": 38, "seat": 2, "final": False, "called": "mau", "catchable": False},),
        last_round=None,
        winner=None,
        hand=("7S", "9H", "10S", "QH", "JD"),
        drawn=None,
        legal=({"kind": "play", "card": "7S"}, {"kind": "draw"}),
        turn_deadline_ms=None,
    )
    facts: list[dict[str, Any]] = [
        {"kind": "card_played", "seat": 1, "card": "7C", "cards_left": 4},
        {"kind": "penalty_pending", "seat": 2, "amount": 2, "answer": "seven"},
        {"kind": "card_played", "seat": 2, "card": "7H", "cards_left": 1, "call": "mau"},
        {"kind": "penalty_pending", "seat": 0, "amount": 4, "answer": "seven"},
    ]
    events = [GameEvent.from_facts(3, 35 + i, fact) for i, fact in enumerate(facts)]
    return [WELCOME, info, *events, view]


def american_table() -> list[Message]:
    names = ["Ann", "Eve", "Finn", "Ivy", "Jon", "Kai", "Lea", "Max", "Nia", "Ola"]
    seats = tuple(seat(n, bot=n in ("Kai", "Lea")) for n in names)
    info = TableInfo(
        4, "Newbies", {"variant": "american", "target_score": 500}, seats, (), "playing", "Eve", 0
    )
    view = View(
        table=4,
        seq=80,
        seat=0,
        phase="playing",
        round=2,
        dealer=9,
        turn=1,
        direction=-1,
        top="G7",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(6, 3, 1, 7, 5, 4, 8, 2, 6, 7),
        scores=(0, 120, 40, 10, 0, 0, 55, 0, 90, 0),
        target=500,
        stock=30,
        discard=12,
        windows=(),
        last_round=None,
        winner=None,
        hand=("G2", "GS", "R7", "Y+2", "W", "W4"),
        drawn=None,
        legal=(),
        turn_deadline_ms=None,
    )
    return [WELCOME, info, view]


def round_over() -> list[Message]:
    messages = classic_table()
    view = messages[-1]
    assert isinstance(view, View)
    last = {
        "round": 3,
        "winner": 2,
        "points": 43,
        "hands": (("7S", "9H"), ("QC", "KC"), (), ("8D",)),
        "hand_points": (16, 20, 0, 8),
        "scores": (12, 62, 131, 40),
    }
    done = View(
        **{
            **{f: getattr(view, f) for f in View.SCHEMA},
            "phase": "round_over",
            "last_round": last,
            "scores": (12, 62, 131, 40),
            "legal": (),
            "penalty": 0,
            "penalty_kind": None,
        }
    )
    return [*messages[:-1], done]


def lobby() -> list[Message]:
    tables = (
        {
            "id": 1,
            "name": "Friday",
            "variant": "classic",
            "seats": (seat("Bob"), seat("Cleo"), seat("Dan", bot=True, level="hard"), seat(None)),
            "spectators": 0,
            "state": "playing",
            "round": 3,
            "locked": False,
        },
        {
            "id": 2,
            "name": "Newbies",
            "variant": "american",
            "seats": (seat("Eve"), seat("Finn"), *[seat(None)] * 4),
            "spectators": 1,
            "state": "waiting",
            "round": 0,
            "locked": False,
        },
        {
            "id": 3,
            "name": "Private",
            "variant": "classic",
            "seats": (seat("Gus"), seat(None)),
            "spectators": 0,
            "state": "waiting",
            "round": 0,
            "locked": True,
        },
    )
    return [WELCOME, Lobby(tables, ("Ann", "Bob", "Cleo", "Eve", "Finn", "Gus"))]

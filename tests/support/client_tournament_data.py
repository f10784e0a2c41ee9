"""Fixed ``tournament`` and ``lobby`` messages for the client's tournament tests.

A 12-player tournament of Mau Mau, three series of three deals and a final, in its
second series: Ann (the receiver) sits at table 12, Hal has a bye, Ivy withdrew and
Gus is offline. Every field is valid on the wire (each message goes through
``to_wire`` and ``decode_message`` before it is used).
"""

from __future__ import annotations

from typing import Any

from maumau.protocol.messages import (
    Lobby,
    Message,
    TableInfo,
    Tournament,
    View,
    decode_message,
)
from support.client_snapshots import WELCOME, lobby, seat

NAMES = ["Cleo", "Ann", "Bob", "Eve", "Finn", "Dan", "Gus", "Hal", "Jon", "Kim", "Lea", "Ivy"]
SETTINGS = {
    "variant": "classic",
    "seats": 4,
    "target_score": 150,
    "mau_penalty": 2,
    "false_catch_penalty": 0,
    "mau_window_ms": 1500,
    "lag_compensation": False,
    "turn_timeout_s": 45,
    "reconnect_grace_s": 60,
    "reverse_skips_with_two": False,
    "jack_on_jack": True,
}


def wire(message: Message) -> Any:
    """``message`` as the client receives it: through the wire's checks."""
    return decode_message(message.to_wire(), "server")


def standing(rank: int, name: str, points: int, score: int, **more: Any) -> dict[str, Any]:
    line = {
        "rank": rank,
        "name": name,
        "points": points,
        "score": score,
        "firsts": more.pop("firsts", 0),
        "played": more.pop("played", 1),
        "byes": more.pop("byes", 0),
        "withdrawn": more.pop("withdrawn", False),
        "connected": more.pop("connected", True),
        "line": more.pop("line", rank - 1),
    }
    line.update(more)
    return line


def series_table(
    id: int, series: int, names: list[str], state: str, round_no: int, scores: list[int]
) -> dict[str, Any]:
    done = state == "finished"
    return {
        "id": id,
        "series": series,
        "no": 1 + (id - 1) % 10,
        "names": tuple(names),
        "bots": tuple(n == "Dan" for n in names),
        "state": state,
        "round": round_no,
        "scores": tuple(scores),
        "points": tuple(sorted(range(len(names)), reverse=True)) if done else (),
    }


def tournament(name: str = "Friday Cup", you: int | None = 1, **changes: Any) -> Tournament:
    """The tournament in its second series (see the module's docstring)."""
    standings = (
        standing(1, "Cleo", 3, 152, firsts=1, table=11),
        standing(2, "Ann", 2, 140, table=12),
        standing(3, "Bob", 2, 120, table=13),
        standing(4, "Eve", 2, 98, table=11),
        standing(5, "Finn", 1, 88, table=12),
        standing(6, "Gus", 1, 60, table=13, connected=False),
        standing(7, "Hal", 1, 40),
        standing(8, "Jon", 0, 30, table=11),
        standing(9, "Kim", 0, 22, table=12),
        standing(10, "Lea", 0, 12, table=13),
        standing(11, "Ivy", 0, 5, withdrawn=True),
    )
    tables = (
        series_table(1, 1, ["Cleo", "Bob", "Eve", "Finn"], "finished", 3, [152, 20, 30, 0]),
        series_table(2, 1, ["Ann", "Gus", "Hal", "Jon"], "finished", 3, [140, 60, 40, 30]),
        series_table(3, 1, ["Kim", "Lea", "Ivy", "Dan"], "finished", 3, [22, 12, 5, 150]),
        series_table(11, 2, ["Cleo", "Eve", "Jon", "Dan"], "playing", 2, [40, 12, 0, 30]),
        series_table(12, 2, ["Ann", "Finn", "Kim", "Dan"], "playing", 1, [0, 0, 0, 0]),
        series_table(13, 2, ["Bob", "Gus", "Lea"], "waiting", 0, [0, 0, 0]),
    )
    fields: dict[str, Any] = {
        "id": 7,
        "name": name,
        "director": "Cleo",
        "settings": SETTINGS,
        "series": 3,
        "deals": 3,
        "final": True,
        "bots": True,
        "late_join": True,
        "locked": False,
        "state": "playing",
        "series_no": 2,
        "starts_in": None,
        "clock": 754.0,
        "standings": standings,
        "tables": tables,
        "you": you,
    }
    fields.update(changes)
    fields.setdefault("players", len(fields["standings"]))
    fields.setdefault(
        "tables_total", sum(1 for t in fields["tables"] if t["series"] == fields["series_no"])
    )
    result = wire(Tournament(**fields))
    assert isinstance(result, Tournament)
    return result


def registering(you: int | None = None, director: str = "Cleo", **changes: Any) -> Tournament:
    """The same tournament before its start: four registered, nobody seated."""
    standings = tuple(
        standing(i + 1, n, 0, 0, played=0) for i, n in enumerate(["Cleo", "Ann", "Bob", "Eve"])
    )
    fields: dict[str, Any] = {
        "state": "registering",
        "series_no": 0,
        "clock": None,
        "standings": standings,
        "tables": (),
        "you": you,
        "director": director,
    }
    fields.update(changes)
    return tournament(**fields)


def summary(id: int, name: str, state: str, **more: Any) -> dict[str, Any]:
    item = {
        "id": id,
        "name": name,
        "variant": "classic",
        "state": state,
        "players": 12,
        "series_no": 2 if state == "playing" else 0,
        "series": 3,
        "director": "Cleo",
        "locked": False,
        "open": state == "registering",
    }
    item.update(more)
    return item


def tournament_lobby(tables: int = 3) -> list[Message]:
    """The lobby of the snapshots, with two tournaments (and ``tables`` tables)."""
    base = lobby()[1]
    assert isinstance(base, Lobby)
    listed = list(base.tables)
    while len(listed) < tables:
        n = len(listed) + 1
        listed.append({**base.tables[0], "id": 100 + n, "name": f"Table {n}"})
    tournaments = (
        summary(7, "Friday Cup", "playing"),
        summary(8, "Newbies Open", "registering", variant="american", players=5, locked=True),
    )
    return [WELCOME, wire(Lobby(tuple(listed[:tables]), base.online, 0, tournaments))]


def tournament_table(state: str = "finished") -> list[Message]:
    """Ann at table 12 of the tournament, its match over."""
    seats = (seat("Ann"), seat("Finn"), seat("Kim"), seat("Dan", bot=True, level="normal"))
    info = TableInfo(
        12,
        "Friday Cup 2/12",
        {**SETTINGS, "deals": 3},
        seats,
        (),
        state,
        None,
        0,
        tournament={"id": 7, "series": 2},
    )
    last = {
        "round": 3,
        "winner": 0,
        "points": 30,
        "hands": ((), ("QC", "KC"), ("7S",), ("8D",)),
        "hand_points": (0, 7, 7, 8),
        "scores": (30, 7, 7, 8),
    }
    view = View(
        table=12,
        seq=90,
        seat=0,
        phase="match_over",
        round=3,
        dealer=2,
        turn=0,
        direction=1,
        top="7H",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(0, 2, 1, 1),
        scores=(30, 7, 7, 8),
        target=150,
        stock=14,
        discard=6,
        windows=(),
        last_round=last,
        winner=0,
        hand=(),
        drawn=None,
        legal=(),
        turn_deadline_ms=None,
    )
    return [WELCOME, wire(info), wire(view)]

"""Starting a server on a database, playing moves, draining its frames, and the
fields compared before and after a crash."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import trio
from wireclient import WireClient

from maumau.protocol.messages import PlayCard, View
from support.wire import move_for, start_server_process

COMPARED = [
    "seat",
    "phase",
    "round",
    "dealer",
    "turn",
    "direction",
    "top",
    "named",
    "penalty",
    "penalty_kind",
    "hand_counts",
    "scores",
    "stock",
    "discard",
    "windows",
    "last_round",
    "hand",
    "drawn",
    "legal",
]


def start(db: Path, port: int) -> subprocess.Popen[str]:
    options = ["--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    options += ["--bot-delay", "0.05", "--hard-budget-ms", "30", "--seed", "5"]
    return start_server_process(*options)[0]


async def drain_until_quiet(client: WireClient, quiet: float) -> None:
    """Read (answering pings) until nothing arrives for ``quiet`` seconds."""
    while True:
        with trio.move_on_after(quiet) as scope:
            await client.receive()
        if scope.cancelled_caught:
            return


async def play_moves(ann: WireClient, bob: WireClient, moves: int, rng: random.Random) -> None:
    """Both humans play ``moves`` turn moves in all, without ever saying Mau."""
    clients = {0: ann, 2: bob}
    done = 0
    acted: dict[int, int] = {0: -1, 2: -1}
    while done < moves:
        for seat, client in clients.items():
            with trio.move_on_after(0.05):
                while True:
                    await client.receive()
            view = client.view
            if view is None or view.phase != "playing" or view.turn != seat:
                continue
            if view.seq <= acted[seat]:
                continue
            turn = [a for a in view.legal if a["kind"] in ("play", "draw", "pass", "challenge")]
            if not turn:
                continue
            plays = [a for a in turn if a["kind"] == "play"]
            message = move_for(rng.choice(plays) if plays else turn[-1])
            if isinstance(message, PlayCard) and view.hand is not None and len(view.hand) <= 3:
                continue  # keep the round going: do not go near the end of it
            acted[seat] = view.seq
            await client.send(message)
            done += 1


def compared(view: View) -> dict[str, object]:
    return {name: getattr(view, name) for name in COMPARED}

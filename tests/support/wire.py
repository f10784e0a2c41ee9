"""Scripted protocol players for server tests."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from types import ModuleType
from typing import Any

import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import (
    CatchPlayer,
    ChallengeCard,
    DrawCard,
    Error,
    Message,
    PassTurn,
    PlayCard,
    Ready,
    SayMau,
    View,
)

SERVER_CLI = [sys.executable, "-m", "maumau.server.cli"]


def start_server_process(
    *options: str, stderr: Any = subprocess.PIPE
) -> tuple[subprocess.Popen[str], int]:
    """Start the real ``maumau-server`` with ``options``; (the process, its port) once
    it listens. Its stdout is read up to the "listening" line; ``stderr`` is where its
    log goes (a pipe by default; a file for a long run, which a pipe could block)."""
    process = subprocess.Popen(
        [*SERVER_CLI, *options],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        found = re.search(r"listening on port (\d+)", line)
        if found:
            return process, int(found.group(1))
        if not line and process.poll() is not None:
            break
    process.kill()
    _, err = process.communicate(timeout=10)
    raise AssertionError(f"the server did not start: {err}")


def stop_server_process(process: subprocess.Popen[str], timeout: float = 10) -> tuple[str, str]:
    """SIGTERM (killed if it outlasts ``timeout``); what is left of its (stdout,
    stderr), where they were pipes."""
    process.send_signal(signal.SIGTERM)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate(timeout=timeout)
    return out or "", err or ""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (for a server that must come
    back on the same port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def move_for(legal: dict[str, Any]) -> Message:
    kind = legal["kind"]
    if kind == "play":
        return PlayCard(legal["card"], legal.get("named"))
    if kind == "draw":
        return DrawCard()
    if kind == "pass":
        return PassTurn()
    if kind == "challenge":
        return ChallengeCard()
    if kind == "say_mau":
        return SayMau(legal["call"])
    if kind == "catch":
        return CatchPlayer(legal["target"])
    raise ValueError(kind)


async def play_scripted(
    client: WireClient,
    rng: random.Random,
    says_mau: bool = True,
    on_view: Callable[[View], Any] | None = None,
    stop: Callable[[View], bool] = lambda v: v.phase == "match_over",
    act_on_current: bool = False,
) -> None:
    """Play from the views: a legal card if any (else draw/pass), say Mau when owed,
    ready up after each round. Returns when ``stop(view)`` is true. With
    ``act_on_current`` it starts from the view the client already holds."""
    acted_seq = -1
    acted_on: tuple[object, ...] | None = None  # the position the last move was made in
    readied_round = -1
    said: set[int] = set()
    pending = client.view if act_on_current else None
    while True:
        if pending is not None:
            message: Message = pending
            pending = None
        else:
            try:
                message = await client.receive()
            except ServerClosed:
                return
        if isinstance(message, Error):
            acted_on = None  # refused: act again on the next view
        if not isinstance(message, View):
            continue
        view = message
        if on_view is not None:
            on_view(view)
        if stop(view):
            return
        if view.phase == "round_over" and readied_round != view.round:
            readied_round = view.round
            await client.send(Ready(True))
            continue
        if view.seq <= acted_seq:
            continue
        position = (view.round, view.turn, view.hand, view.drawn, view.penalty, view.top)
        if position == acted_on:
            continue  # a change elsewhere at the table; our move is still on its way
        legal = list(view.legal)
        owed = [
            w["id"]
            for w in view.windows
            if w["seat"] == view.seat and w["called"] is None and not w["final"]
        ]
        if says_mau and owed and owed[0] not in said:
            said.add(owed[0])
            jack = view.hand is not None and len(view.hand) == 1 and view.hand[0][0] == "J"
            await client.send(SayMau("maumau" if jack else "mau"))
            continue
        if view.phase != "playing" or view.turn != view.seat:
            continue
        turn = [a for a in legal if a["kind"] in ("play", "draw", "pass", "challenge")]
        if not turn:
            continue
        plays = [a for a in turn if a["kind"] == "play"]
        choice = rng.choice(plays) if plays else turn[-1]
        message_out = move_for(choice)
        if (
            says_mau
            and isinstance(message_out, PlayCard)
            and view.hand is not None
            and len(view.hand) == 2
        ):
            message_out = PlayCard(message_out.card, message_out.named, "mau")
        acted_seq = view.seq
        acted_on = position
        await client.send(message_out)


async def wait_view(
    client: WireClient, predicate: Callable[[View], bool], timeout: float = 10
) -> View:
    with trio.fail_after(timeout):
        if client.view is not None and predicate(client.view):
            return client.view
        while True:
            message = await client.receive()
            if isinstance(message, View) and predicate(message):
                return message


def load_script(script: str, name: str) -> ModuleType:
    """``scripts/<script>`` (a Python script without ``.py``) as the module ``name``,
    loaded once (and registered: dataclasses look their module up by name)."""
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[2] / "scripts" / script
    loader = SourceFileLoader(name, str(path))
    spec = spec_from_loader(name, loader)
    assert spec is not None
    module = module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module

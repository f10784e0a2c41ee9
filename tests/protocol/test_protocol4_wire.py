"""Protocol version 4 over real TCP: every event carries its facts, and they agree
with the views and are enough for the client to write each line (and each Mau
decision) in every language, in English word for word the server's text; errors
carry their details; goodbyes their code; views in ``round_over`` say when the next
deal comes and list each legal move once, in order; replay steps carry their events
as facts; a version-3 hello is refused."""

from __future__ import annotations

import functools
import random
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from wireclient import WireClient

from maumau.client import i18n
from maumau.protocol.messages import (
    KIND_FACTS,
    KIND_OPTIONAL_FACTS,
    PROTOCOL_VERSION,
    CreateTable,
    DrawCard,
    Error,
    GameEvent,
    GetReplay,
    Goodbye,
    Hello,
    JoinTable,
    ListMatches,
    Lobby,
    Matches,
    MauDecision,
    Message,
    PlayCard,
    Replay,
    StartMatch,
    TableInfo,
    View,
    WatchTable,
)
from maumau.protocol.sentences import decision_line, event_line
from maumau.server.config import ServerConfig
from maumau.server.server import Server, serve
from maumau.server.store import Store
from support.wire import play_scripted, start_server_process, wait_view

FAST = {"mau_window_ms": 100}
LEGAL_ORDER = ("play", "draw", "pass", "challenge", "say_mau", "catch")


@pytest.fixture
async def tcp_server(nursery: trio.Nursery) -> AsyncIterator[tuple[Server, int]]:
    server = Server(ServerConfig(seed=11, bot_delay=0.0, move_rate=1000, move_burst=1000))
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    yield server, port


def check_facts(event: GameEvent) -> dict[str, Any]:
    """The event's facts are exactly its kind's: every fact that is always there is
    there, and nothing else."""
    facts = event.facts()
    assert facts["kind"] == event.kind
    known = set(KIND_FACTS[event.kind])
    sometimes = KIND_OPTIONAL_FACTS.get(event.kind, frozenset())
    present = set(facts) - {"kind"}
    assert present <= known, (event.kind, present - known)
    assert known - sometimes <= present, (event.kind, known - sometimes - present)
    return facts


def check_legal(view: View) -> None:
    kinds = [LEGAL_ORDER.index(m["kind"]) for m in view.legal]
    assert kinds == sorted(kinds), view.legal
    keys = [tuple(sorted(m.items())) for m in view.legal]
    assert len(keys) == len(set(keys)), f"a move is listed twice: {view.legal}"


class Checker:
    """Reads a spectator's stream: each batch of events is checked against the view
    that follows it."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.batch: list[GameEvent] = []
        self.kinds: set[str] = set()
        self.events = 0
        self.last_seq = -1
        self.round_over_views = 0
        self.decisions = 0
        self.names: list[str] = []

    def message(self, message: Message) -> None:
        if isinstance(message, TableInfo):
            self.names = [seat["name"] or "" for seat in message.seats]
        elif isinstance(message, GameEvent):
            assert message.seq > self.last_seq
            self.last_seq = message.seq
            facts = check_facts(message)
            self.kinds.add(message.kind)
            self.events += 1
            self.batch.append(message)
            self.words(lambda: event_line(facts, self.names))
        elif isinstance(message, MauDecision):
            self.decisions += 1
            self.words(
                lambda: decision_line(message.seat, message.outcome, message.stamps, self.names)
            )
        elif isinstance(message, View):
            self.view(message)
            self.batch = []

    def words(self, write: Callable[[], str | None]) -> None:
        """The line is written from the facts alone, in every language a whole
        sentence."""
        try:
            for code in i18n.LANGUAGES:
                i18n.set_language(code)
                line = write()
                assert line and "{" not in line and "}" not in line, (code, line)
        finally:
            i18n.set_language("en")

    def view(self, view: View) -> None:
        check_legal(view)
        if view.phase == "round_over":
            assert view.next_round_ms is not None and 0 <= view.next_round_ms <= 20_000
            self.round_over_views += 1
        else:
            assert view.next_round_ms is None
        shown = [e for e in self.batch if e.kind in ("card_played", "round_dealt")]
        if shown:
            last = shown[-1]
            assert (last.card or last.top) == view.top, (last, view.top)
            assert last.named == view.named
        for i, e in enumerate(self.batch):
            later = self.batch[i + 1 :]
            if e.kind == "round_dealt":
                assert (e.round, e.dealer, e.first) == (view.round, view.dealer, view.turn)
            elif e.kind == "card_played":
                assert e.seat is not None and e.cards_left is not None
                gets_more = any(
                    f.kind in ("penalty_drawn", "card_drawn") and f.seat == e.seat for f in later
                )
                if not gets_more:
                    assert view.hand_counts[e.seat] == e.cards_left
            elif e.kind == "penalty_pending" and not later:
                assert (e.amount, e.answer) == (view.penalty, view.penalty_kind)
            elif e.kind == "reversed":
                assert e.direction == view.direction
            elif e.kind == "round_ended":
                assert e.scores == view.scores
                assert e.winner is not None and view.hand_counts[e.winner] == 0
            elif e.kind == "match_ended":
                assert (e.winner, e.scores) == (view.winner, view.scores)
            elif e.kind == "call_window_closed":
                assert e.window not in [w["id"] for w in view.windows]
            for seat_fact in (e.seat, e.catcher, e.target, e.challenger, e.winner):
                assert seat_fact is None or 0 <= seat_fact < self.seats


@pytest.mark.parametrize("variant", ["classic", "american"])
async def test_every_event_of_a_match_carries_facts_that_agree_with_the_views(
    tcp_server: tuple[Server, int], variant: str
) -> None:
    _, port = tcp_server
    target = 250 if variant == "classic" else 300
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    bob = await WireClient.connect("127.0.0.1", port, "Bob")
    eve = await WireClient.connect("127.0.0.1", port, "Eve")
    await ann.wait_for(Lobby)
    settings = {"variant": variant, "seats": 4, "target_score": target, **FAST}
    await ann.send(CreateTable("Facts", settings, (2, 3)))
    info = await ann.wait_for(TableInfo)
    await bob.send(JoinTable(info.id, 1))
    await bob.wait_for(lambda m: isinstance(m, TableInfo) and m.you == 1)
    await eve.send(WatchTable(info.id))
    await eve.wait_for(TableInfo)
    await ann.send(StartMatch())
    checker = Checker(4)
    async with trio.open_nursery() as nursery:
        for client, seed in ((ann, 1), (bob, 2)):
            nursery.start_soon(
                functools.partial(play_scripted, client, random.Random(seed), on_view=check_legal)
            )

        async def watch() -> None:
            with trio.fail_after(120):
                while True:
                    message = await eve.receive()
                    checker.message(message)
                    if isinstance(message, View) and message.phase == "match_over":
                        return

        nursery.start_soon(watch)
    expected = {"round_dealt", "card_played", "card_drawn", "round_ended", "match_ended"}
    assert expected <= checker.kinds, checker.kinds
    assert checker.round_over_views >= 1
    assert checker.events > 50 and checker.decisions > 0
    for client in (ann, bob, eve):
        await client.aclose()


async def test_a_version_4_hello_is_refused_with_the_servers_version(
    tcp_server: tuple[Server, int],
) -> None:
    _, port = tcp_server
    client = WireClient(await trio.open_tcp_stream("127.0.0.1", port), "Old")
    await client.send(Hello(4, "Old"))
    error = await client.wait_for(Error)
    assert (error.code, error.fatal, error.ref) == ("version_mismatch", True, "hello")
    assert error.details == {"version": PROTOCOL_VERSION} and PROTOCOL_VERSION == 10
    assert str(PROTOCOL_VERSION) in error.message and "4" in error.message
    await client.aclose()


async def test_refusals_carry_the_facts_of_their_message(tcp_server: tuple[Server, int]) -> None:
    _, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.wait_for(Lobby)
    await ann.send(JoinTable(4242))
    error = await ann.wait_for(Error)
    assert (error.code, error.details) == ("no_such_table", {"table": 4242})

    settings = {"variant": "classic", "seats": 2, "turn_timeout_s": 3600}
    await ann.send(CreateTable("Refusals", {**settings, "bogus": 1}, (1,)))
    error = await ann.wait_for(Error)
    assert (error.code, error.details) == ("bad_settings", {"field": "bogus"})
    await ann.send(CreateTable("Refusals", settings, (1, 5)))
    error = await ann.wait_for(Error)
    assert (error.code, error.details) == ("no_such_seat", {"field": "bots", "seat": 5})

    await ann.send(CreateTable("Refusals", settings, (1,)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    view = await wait_view(ann, lambda v: v.phase == "playing" and v.turn == 0)
    assert view.hand is not None
    missing = next(c for c in ("7S", "8S", "9S", "10S", "QS") if c not in view.hand)
    await ann.send(PlayCard(missing))
    error = await ann.wait_for(Error)
    assert (error.code, error.details) == ("not_in_hand", {"card": missing})
    playable = {m["card"] for m in view.legal if m["kind"] == "play"}
    stuck = [c for c in view.hand if c not in playable and c[0] != "J"]
    if stuck:
        await ann.send(PlayCard(stuck[0]))
        error = await ann.wait_for(Error)
        assert error.code in ("does_not_match", "must_answer_penalty")
        assert error.details is not None and error.details["card"] == stuck[0]
        if error.code == "does_not_match":
            assert error.details["top"] == view.top
    await ann.aclose()


async def test_a_replaced_connection_is_told_goodbye_with_its_code(
    tcp_server: tuple[Server, int],
) -> None:
    _, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    assert ann.welcome is not None
    again = await WireClient.connect("127.0.0.1", port, "Ann", resume=ann.welcome.resume)
    goodbye = await ann.wait_for(Goodbye)
    assert goodbye.code == "replaced"
    await again.aclose()
    await ann.aclose()


async def test_a_server_shutting_down_says_goodbye_with_its_code() -> None:
    process, port = start_server_process("--port", "0", "--host", "127.0.0.1", "--no-db")
    try:
        ann = await WireClient.connect("127.0.0.1", port, "Ann")
        await ann.wait_for(Lobby)
        process.send_signal(signal.SIGTERM)
        goodbye = await ann.wait_for(Goodbye, 20)
        assert goodbye.code == "shutdown"
        await ann.aclose()
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=20)


async def test_replay_steps_carry_each_line_as_facts(nursery: trio.Nursery, tmp_path: Path) -> None:
    store = Store(tmp_path / "replay.db")
    server = Server(ServerConfig(seed=5, bot_delay=0.0), store)
    server.start_background(nursery)
    port = await nursery.start(functools.partial(serve, server, 0, "127.0.0.1"))
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.wait_for(Lobby)
    await ann.send(CreateTable("R", {"variant": "classic", "seats": 3, "target_score": 1}, (1, 2)))
    await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    await play_scripted(ann, random.Random(3))
    await ann.send(ListMatches())
    (summary,) = (await ann.wait_for(Matches)).matches
    await ann.send(GetReplay(summary["id"], 0, 50))
    page = await ann.wait_for(Replay)
    assert page.steps
    kinds = set()
    for step in page.steps:
        for facts in step["events"]:
            check_facts(GameEvent.from_facts(1, 0, dict(facts)))
            kinds.add(facts["kind"])
    first = page.steps[0]["events"][0]
    assert first["kind"] == "round_dealt" and first["top"] == page.steps[0]["top"]
    assert {"round_dealt", "card_played"} <= kinds
    await ann.aclose()


async def test_lines_told_again_on_arrival_carry_their_facts(
    tcp_server: tuple[Server, int],
) -> None:
    _, port = tcp_server
    ann = await WireClient.connect("127.0.0.1", port, "Ann")
    await ann.wait_for(Lobby)
    settings = {"variant": "classic", "seats": 2, "turn_timeout_s": 3600}
    await ann.send(CreateTable("Again", settings, (1,)))
    info = await ann.wait_for(TableInfo)
    await ann.send(StartMatch())
    view = await wait_view(ann, lambda v: v.phase == "playing" and v.turn == 0)
    move = next(m for m in view.legal if m["kind"] in ("play", "draw"))
    await ann.send(PlayCard(move["card"], move.get("named")) if "card" in move else DrawCard())
    await wait_view(ann, lambda v: v.seq > view.seq)
    eve = await WireClient.connect("127.0.0.1", port, "Eve")
    await eve.wait_for(Lobby)
    await eve.send(WatchTable(info.id))
    arrival = await eve.wait_for(View)
    again = [m for m in eve.received if isinstance(m, GameEvent)]
    assert again and again[0].kind == "round_dealt"
    await wait_view(ann, lambda v: v.seq >= arrival.seq)
    told = {m.seq: m for m in ann.received if isinstance(m, GameEvent)}
    assert again == [told[e.seq] for e in again]  # as first sent, facts and all
    for event in again:
        check_facts(event)
    await eve.aclose()
    await ann.aclose()

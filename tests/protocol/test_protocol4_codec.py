"""Protocol version 4's new fields through the codec, as properties: any event with
any facts, any error details, replay steps with events, stamps with a call, and
``lobby.more`` left out when 0."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from maumau.protocol.cards import CODE_OF
from maumau.protocol.codec import NEED_DATA, Connection, RemoteProtocolError
from maumau.protocol.messages import (
    EVENT_FACTS,
    KIND_FACTS,
    PROTOCOL_VERSION,
    Error,
    GameEvent,
    Goodbye,
    Hello,
    Lobby,
    MauDecision,
    Message,
    Welcome,
)
from maumau.server.rules import Catch, SayMau
from maumau.server.rules.views import offered

SEAT = st.integers(0, 9)
CARD = st.sampled_from(CODE_OF)
FACT_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "round": st.integers(1, 100_000),
    "dealer": SEAT,
    "seat": SEAT,
    "card": CARD,
    "top": CARD,
    "named": st.sampled_from("SHDCRYGB"),
    "first": SEAT,
    "returned": st.integers(1, 8),
    "call": st.sampled_from(["mau", "maumau"]),
    "cards_left": st.integers(0, 108),
    "amount": st.integers(0, 1000),
    "count": st.integers(0, 1000),
    "wanted": st.integers(0, 1000),
    "answer": st.sampled_from(["seven", "draw_two", "wild_draw_four"]),
    "can_challenge": st.booleans(),
    "may_play": st.booleans(),
    "direction": st.sampled_from([1, -1]),
    "catcher": SEAT,
    "target": SEAT,
    "final_card": st.booleans(),
    "window": st.integers(0, 2**62),
    "challenger": SEAT,
    "upheld": st.booleans(),
    "winner": SEAT,
    "points": st.integers(0, 100_000),
    "scores": st.lists(st.integers(0, 10_000_000), max_size=10).map(tuple),
}


@st.composite
def events(draw: st.DrawFn) -> GameEvent:
    kind = draw(st.sampled_from(sorted(KIND_FACTS)))
    names = draw(st.lists(st.sampled_from(KIND_FACTS[kind]), unique=True))
    facts = {name: draw(FACT_VALUES[name]) for name in names}
    return GameEvent(1, draw(st.integers(0, 2**62)), kind, **facts)


def through(message: Message) -> Message:
    """``message`` sent by a server to a client after the handshake, as received."""
    client, server = Connection("client"), Connection("server")
    server.receive_data(client.send(Hello(PROTOCOL_VERSION, "Ann")))
    server.next_event()
    client.receive_data(server.send(Welcome(PROTOCOL_VERSION, "s", "r", "Ann", False)))
    client.next_event()
    client.receive_data(server.send(message))
    received = client.next_event()
    assert client.next_event() is NEED_DATA
    assert isinstance(received, Message)
    return received


def test_every_fact_has_a_strategy_and_every_kinds_fact_is_known() -> None:
    assert set(FACT_VALUES) == set(EVENT_FACTS)
    for facts in KIND_FACTS.values():
        assert set(facts) <= set(EVENT_FACTS)


@given(events())
def test_events_round_trip_with_their_facts(event: GameEvent) -> None:
    received = through(event)
    assert received == event
    assert isinstance(received, GameEvent)
    facts = received.facts()
    assert facts["kind"] == event.kind
    assert {k for k in facts if k != "kind"} == {
        name for name in EVENT_FACTS if getattr(event, name) is not None
    }
    assert GameEvent.from_facts(event.table, event.seq, facts) == event


@given(events())
def test_absent_facts_are_left_out_of_the_map(event: GameEvent) -> None:
    data = event.to_wire()
    assert None not in data.values()
    assert list(data)[:4] == ["type", "table", "seq", "kind"]
    order = [name for name in EVENT_FACTS if name in data]
    assert list(data)[4:] == order


DETAILS = st.fixed_dictionaries(
    {},
    optional={
        "field": st.text(min_size=1, max_size=64),
        "name": st.text(min_size=1, max_size=64),
        "card": CARD,
        "top": CARD,
        "limit": st.integers(0, 2**32),
        "version": st.integers(0, 65535),
        "seconds": st.floats(0, 1e7),
        "seat": st.integers(0, 9),
        "table": st.integers(1, 2**31),
        "match": st.integers(1, 2**62),
        "count": st.integers(0, 2**32),
        "amount": st.integers(0, 1000),
        "answer": st.sampled_from(["seven", "draw_two", "wild_draw_four"]),
        "why": st.sampled_from(["said", "final_card", "no_window", "online", "keeping_seat"]),
    },
)


@given(DETAILS)
def test_error_details_round_trip(details: dict[str, Any]) -> None:
    error = Error("some_code", "words", "play", False, details)
    assert through(error) == error


def test_unknown_error_details_are_refused() -> None:
    client = Connection("client")
    client.state = client.state.OPEN
    data = Error("c", "m", None, False, {"colour": "R"}).to_wire()
    client.receive_data(len(msgpack.packb(data)).to_bytes(4, "big") + msgpack.packb(data))
    try:
        client.next_event()
    except RemoteProtocolError as error:
        assert error.code == "bad_message"
        assert error.details == {"field": "error.details.colour"}
    else:
        raise AssertionError("an unknown detail was accepted")


@given(st.integers(0, 2**31))
def test_lobby_more_is_left_out_when_0(more: int) -> None:
    lobby = Lobby((), ("Ann",), more)
    assert ("more" in lobby.to_wire()) == (more > 0)
    assert through(lobby) == lobby


@given(st.sampled_from(["mau", "maumau"]))
def test_stamps_carry_the_call(call: str) -> None:
    stamps = (
        {"seat": 1, "what": "call", "after_ms": 1.5, "shift_ms": 0.0, "call": call},
        {"seat": 2, "what": "catch", "after_ms": 2.0, "shift_ms": 0.0},
    )
    decision = MauDecision(1, 2, 3, 1, "called", stamps)
    assert through(decision) == decision


def test_goodbye_needs_its_code_on_the_wire() -> None:
    for code in ("shutdown", "replaced"):
        goodbye = Goodbye("bye", code)
        assert through(goodbye) == goodbye
    client = Connection("client")
    client.state = client.state.OPEN
    body = msgpack.packb({"type": "goodbye", "reason": "bye"})
    client.receive_data(len(body).to_bytes(4, "big") + body)
    try:
        client.next_event()
    except RemoteProtocolError as error:
        assert error.code == "bad_message" and error.details == {"field": "goodbye.code"}
    else:
        raise AssertionError("a goodbye without its code was accepted")


def test_calls_are_offered_mau_before_maumau_and_each_once() -> None:
    """Whatever order the windows list them in, a view offers each move once, in the
    documented order (the calls "mau" before "maumau", catches as their windows
    opened)."""
    moves = [SayMau(0, "maumau"), SayMau(0, "mau"), Catch(0, 2), SayMau(0, "maumau"), Catch(0, 1)]
    assert offered(moves) == (SayMau(0, "mau"), SayMau(0, "maumau"), Catch(0, 2), Catch(0, 1))

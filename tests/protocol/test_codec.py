"""The sans-IO codec: framing, the handshake state machine and validation on the way in.

Two :class:`Connection` objects talk to each other through plain bytes: what one
``send()`` returns, the other is fed with ``receive_data()``. Malformed input is built
by hand (length prefix plus msgpack) so that the tests do not depend on the codec's own
encoder to produce it.
"""

from __future__ import annotations

import itertools
import struct
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maumau.protocol.cards import CODE_OF
from maumau.protocol.codec import (
    DEFAULT_MAX_FRAME,
    NEED_DATA,
    PEER_CLOSED,
    Connection,
    LocalProtocolError,
    RemoteProtocolError,
    State,
)
from maumau.protocol.messages import (
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    Announce,
    Back,
    Ban,
    Bye,
    CancelTournament,
    CatchPlayer,
    ChallengeCard,
    Chat,
    ChatLine,
    CloseTable,
    CreateTable,
    CreateTournament,
    DrawCard,
    Error,
    GameEvent,
    GetReplay,
    GetStats,
    Goodbye,
    Hello,
    HostList,
    HostView,
    JoinTable,
    JoinTournament,
    Kick,
    LeaveTable,
    LeaveTournament,
    ListMatches,
    ListTables,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Mute,
    Notice,
    PassTurn,
    Pause,
    Ping,
    PlayCard,
    Pong,
    Ready,
    Rematch,
    Replay,
    SayMau,
    SetPassword,
    StartMatch,
    StartTournament,
    Stats,
    TableInfo,
    Tournament,
    Unban,
    View,
    WatchTable,
    WatchTournament,
    Welcome,
    decode_message,
)

# --- examples: one valid, realistic instance of every message type ------------------------

PLAYER_STATS = {
    "name": "Anna",
    "matches": 4,
    "wins": 3,
    "rounds_won": 11,
    "average_score": 31.5,
}
HELLO = Hello(
    version=PROTOCOL_VERSION,
    name="Anna",
    resume="resume-7f3a9c",
    secret="s3cret-0123456789ab",
    password="swordfish",
    host={"at": 1764720000.25, "nonce": "0123456789abcdef", "proof": "ab" * 32},
)
WELCOME = Welcome(
    version=PROTOCOL_VERSION,
    session="sess-01HZX3",
    resume="resume-7f3a9c",
    name="Anna",
    resumed=True,
    host=True,
)

SEATS = (
    {"name": "Anna", "bot": False, "connected": True, "away": False, "ready": True},
    {"name": "Bot Bruno", "bot": True, "connected": True, "away": False, "ready": True},
    {"name": "Carl", "bot": False, "connected": False, "away": True, "ready": False},
    {"name": None, "bot": False, "connected": False, "away": False, "ready": False},
)

TABLE_SETTINGS = {
    "variant": "american",
    "seats": 4,
    "target_score": 500,
    "stack_draw_two": True,
    "turn_seconds": 30.5,
    "note": None,
}

EXAMPLES: dict[str, Message] = {
    m.TYPE: m
    for m in (
        Ping(nonce=2**40 + 17),
        Pong(nonce=2**40 + 17, clock_ms=86_400_123.25),
        HELLO,
        ListTables(),
        CreateTable(
            name="Anna's table ♥",
            settings=TABLE_SETTINGS,
            bots=(1, 3),
            password="open sesame",
            levels=("easy", "hard"),
        ),
        JoinTable(table=7, seat=2, password="open sesame"),
        WatchTable(table=7, password="open sesame"),
        LeaveTable(),
        Ready(ready=True),
        StartMatch(),
        Rematch(),
        Back(),
        Pause(paused=True),
        Chat(scope="table", text="Mau! gg 🂱"),
        PlayCard(card="JH", named="S", call="mau"),
        DrawCard(),
        PassTurn(),
        ChallengeCard(),
        SayMau(call="maumau", reaction_ms=312.5, clock_ms=86_400_500.0),
        CatchPlayer(target=2, reaction_ms=0.0, clock_ms=0.0),
        GetStats(limit=10, variant="american"),
        ListMatches(limit=5, mine=True),
        GetReplay(match=3, start=40, count=20, password="s3cret"),
        Stats(leaders=(PLAYER_STATS,), you=PLAYER_STATS, variant="american"),
        Matches(
            matches=(
                {
                    "id": 3,
                    "table": "Friday",
                    "variant": "classic",
                    "names": ("Anna", "Ada"),
                    "bots": (False, True),
                    "scores": (12, 151),
                    "winner": 0,
                    "finished": 1_790_000_000.5,
                    "rounds": 4,
                },
            )
        ),
        Replay(
            match=3,
            table="Friday",
            variant="classic",
            names=("Anna", "Ada"),
            bots=(False, True),
            total=300,
            start=40,
            steps=(
                {
                    "n": 40,
                    "round": 1,
                    "phase": "playing",
                    "turn": 1,
                    "direction": 1,
                    "top": "7H",
                    "named": "S",
                    "penalty": 2,
                    "hands": (("JH",), ("8C", "AS")),
                    "scores": (0, 0),
                    "stock": 12,
                    "events": ({"kind": "card_played", "seat": 0, "card": "7H", "cards_left": 1},),
                },
            ),
        ),
        Bye(),
        HostList(),
        Kick(session="5f2c9e0a1b3d4c6e", reason="flooding the chat"),
        Mute(session="5f2c9e0a1b3d4c6e", seconds=600, reason="calm down"),
        Ban(what="name", target="Zed", lasting="ever", reason="cheating"),
        Unban(what="address", target="192.168.1.66"),
        CloseTable(table=7, reason="dinner"),
        SetPassword(password="swordfish"),
        Announce(text="last round at midnight"),
        WELCOME,
        Error(
            code="not_in_hand",
            message="you do not hold 7H",
            ref="play",
            fatal=False,
            details={
                "field": "play.card",
                "name": "Bob",
                "card": "7H",
                "top": "JS",
                "named": "D",
                "limit": 20,
                "version": 4,
                "seconds": 2.5,
                "seat": 3,
                "table": 7,
                "match": 12,
                "count": 2,
                "amount": 4,
                "answer": "seven",
            },
        ),
        Lobby(
            tables=(
                {
                    "id": 7,
                    "name": "Anna's table ♥",
                    "variant": "american",
                    "seats": SEATS,
                    "spectators": 2,
                    "state": "playing",
                    "round": 3,
                    "locked": True,
                    "tournament": 2,
                },
                {
                    "id": 2**31,
                    "name": "Skat night",
                    "variant": "classic",
                    "seats": SEATS[:2],
                    "spectators": 0,
                    "state": "waiting",
                    "round": 0,
                    "locked": False,
                },
            ),
            online=("Anna", "Carl", "Dora"),
            more=3,
            tournaments=(
                {
                    "id": 2,
                    "name": "Friday night ♣",
                    "variant": "classic",
                    "state": "registering",
                    "players": 11,
                    "series_no": 0,
                    "series": 3,
                    "director": "Anna",
                    "locked": True,
                    "open": True,
                },
            ),
        ),
        TableInfo(
            id=7,
            name="Anna's table ♥",
            settings=TABLE_SETTINGS,
            seats=SEATS,
            spectators=("Dora", "Emil"),
            state="playing",
            creator="Anna",
            you=0,
            paused="cannot_save",
            tournament={"id": 2, "series": 1},
            rematch_ms=29_500,
        ),
        View(
            table=7,
            seq=412,
            seat=0,
            phase="playing",
            round=3,
            dealer=3,
            turn=0,
            direction=-1,
            top="R+2",
            named="G",
            penalty=4,
            penalty_kind="draw_two",
            hand_counts=(5, 3, 7, 1),
            scores=(120, 0, 45, 300),
            target=500,
            stock=61,
            discard=14,
            windows=(
                {"id": 40, "seat": 3, "final": False, "called": None, "catchable": True},
                {"id": 41, "seat": 1, "final": True, "called": "maumau", "catchable": False},
            ),
            last_round={
                "round": 2,
                "winner": 1,
                "points": 87,
                "hands": (("R5", "W"), (), ("G+2", "Y7"), ("B0",)),
                "hand_points": (55, 0, 27, 0),
                "scores": (120, 87, 45, 300),
            },
            winner=None,
            hand=("R2", "RS", "W4", "Y+2", "B9"),
            drawn="B9",
            legal=(
                {"kind": "play", "card": "Y+2"},
                {"kind": "play", "card": "W4", "named": "B", "call": "mau"},
                {"kind": "challenge"},
                {"kind": "draw"},
                {"kind": "say_mau", "call": "mau"},
                {"kind": "catch", "target": 3},
            ),
            turn_deadline_ms=29_500,
            next_round_ms=4_000,
        ),
        # Every fact at once (no real kind has them all), so each one travels.
        GameEvent(
            table=7,
            seq=413,
            kind="card_played",
            round=3,
            dealer=2,
            seat=0,
            card="W4",
            top="R+2",
            named="B",
            first=1,
            returned=2,
            call="mau",
            cards_left=1,
            amount=4,
            count=2,
            wanted=4,
            answer="wild_draw_four",
            can_challenge=True,
            may_play=False,
            direction=-1,
            catcher=2,
            target=3,
            final_card=False,
            window=41,
            challenger=1,
            upheld=True,
            winner=3,
            points=87,
            scores=(120, 87, 45, 300),
        ),
        MauDecision(
            table=7,
            seq=414,
            window=41,
            seat=1,
            outcome="caught",
            stamps=(
                {
                    "seat": 2,
                    "what": "catch",
                    "after_ms": -12.5,
                    "shift_ms": 40.0,
                    "basis": "measured",
                },
                {"seat": 1, "what": "call", "after_ms": 812.25, "shift_ms": 0.0, "call": "mau"},
            ),
        ),
        ChatLine(scope="lobby", sender="Carl", text="anyone for classic?"),
        Goodbye(reason="the host banned you", code="banned", by="Hana", note="cheating"),
        HostView(
            connections=(
                {
                    "session": "5f2c9e0a1b3d4c6e",
                    "name": "Zed",
                    "address": "192.168.1.66",
                    "table": 7,
                    "since": 612.5,
                    "rate": 1.25,
                    "host": False,
                    "muted": 0.0,
                },
            ),
            connections_total=1,
            bans=(
                {
                    "what": "name",
                    "target": "Max",
                    "lasting": "life",
                    "by": "Hana",
                    "reason": "rude",
                },
            ),
            password=True,
        ),
        Notice(
            kind="table_closed",
            by="Hana",
            text="dinner",
            seconds=60.0,
            table=7,
            tournament=2,
        ),
        CreateTournament(
            name="Friday night ♣",
            settings={"variant": "classic", "seats": 4},
            series=3,
            final=True,
            bots=False,
            late_join=True,
            deals=4,
            password="club",
            starts_in=600,
        ),
        JoinTournament(tournament=2, password="club"),
        LeaveTournament(tournament=2),
        StartTournament(tournament=2),
        WatchTournament(tournament=2, password="club", standings_from=50, series=3, tables_from=50),
        CancelTournament(tournament=2, reason="the room closes"),
        Tournament(
            id=2,
            name="Friday night ♣",
            director="Anna",
            settings={"variant": "classic", "seats": 4, "deals": 4},
            series=3,
            deals=4,
            final=True,
            bots=False,
            late_join=True,
            locked=True,
            state="break",
            series_no=2,
            starts_in=25.0,
            clock=312.5,
            standings=(
                {
                    "rank": 1,
                    "name": "Carl",
                    "points": 100,
                    "score": 87,
                    "firsts": 1,
                    "played": 1,
                    "byes": 0,
                    "withdrawn": False,
                    "connected": True,
                    "line": 0,
                    "table": 9,
                },
            ),
            players=1,
            tables=(
                {
                    "id": 9,
                    "series": 2,
                    "no": 1,
                    "names": ("Carl", "Bot Bruno"),
                    "bots": (False, True),
                    "state": "playing",
                    "round": 2,
                    "scores": (10, 0),
                    "points": (),
                },
            ),
            tables_total=1,
            you=0,
        ),
    )
}

# The same types again with every optional field left out (or nil where it is required).
MINIMAL: list[Message] = [
    Hello(version=0, name="B"),
    CreateTable(name="t", settings={}, bots=()),
    JoinTable(table=1),
    WatchTable(table=1),
    CreateTournament(name="t", settings={}, series=1, final=False, bots=True, late_join=False),
    JoinTournament(tournament=1),
    WatchTournament(tournament=None),
    PlayCard(card="7S"),
    Error(code="internal", message="", fatal=True),
    Lobby(tables=(), online=()),
    TableInfo(
        id=1,
        name="x",
        settings={},
        seats=(),
        spectators=(),
        state="finished",
        creator=None,
        you=None,
    ),
    View(
        table=1,
        seq=0,
        seat=None,
        phase="match_over",
        round=0,
        dealer=0,
        turn=0,
        direction=1,
        top="AC",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(0, 0),
        scores=(0, 0),
        target=1,
        stock=0,
        discard=0,
        windows=(),
        last_round=None,
        winner=1,
        hand=None,
        drawn=None,
        legal=(),
        turn_deadline_ms=None,
    ),
    MauDecision(table=1, seq=0, window=0, seat=0, outcome="called", stamps=()),
]

CLIENT_SENDS = [t for t, cls in MESSAGE_TYPES.items() if cls.SENDER in ("client", "both")]
SERVER_SENDS = [t for t, cls in MESSAGE_TYPES.items() if cls.SENDER in ("server", "both")]
CLIENT_ONLY = [t for t, cls in MESSAGE_TYPES.items() if cls.SENDER == "client"]
SERVER_ONLY = [t for t, cls in MESSAGE_TYPES.items() if cls.SENDER == "server"]
DIRECTIONS = [(t, "client") for t in CLIENT_SENDS] + [(t, "server") for t in SERVER_SENDS]


# --- helpers ------------------------------------------------------------------------------


def raw_frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def frame(value: Any) -> bytes:
    return raw_frame(msgpack.packb(value, use_bin_type=True))


MAX_EVENTS = 1000  # more than any test feeds at once; a codec that loops fails instead


def drain(conn: Connection) -> list[Any]:
    """Every event up to and including NEED_DATA or PEER_CLOSED."""
    events: list[Any] = []
    for _ in range(MAX_EVENTS):
        event = conn.next_event()
        events.append(event)
        if event is NEED_DATA or event is PEER_CLOSED:
            return events
    raise AssertionError(f"no NEED_DATA after {MAX_EVENTS} events: {events[:5]}...")


def serve(conn: Connection) -> list[Any]:
    """Like drain(), but a server in the handshake answers a hello with welcome at once."""
    events: list[Any] = []
    for _ in range(MAX_EVENTS):
        event = conn.next_event()
        events.append(event)
        if event is NEED_DATA or event is PEER_CLOSED:
            return events
        if conn.role == "server" and conn.state is State.HANDSHAKE and isinstance(event, Hello):
            conn.send(WELCOME)
    raise AssertionError(f"no NEED_DATA after {MAX_EVENTS} events: {events[:5]}...")


def deliver(src: Connection, dst: Connection, *messages: Message) -> list[Any]:
    dst.receive_data(b"".join(src.send(m) for m in messages))
    return drain(dst)


def handshake(hello: Message = HELLO, welcome: Message = WELCOME) -> tuple[Connection, Connection]:
    """A client and a server that have exchanged hello and welcome."""
    client, server = Connection("client"), Connection("server")
    assert deliver(client, server, hello) == [hello, NEED_DATA]
    assert deliver(server, client, welcome) == [welcome, NEED_DATA]
    assert client.state is State.OPEN
    assert server.state is State.OPEN
    return client, server


def open_server() -> Connection:
    return handshake()[1]


def open_client() -> Connection:
    return handshake()[0]


def expect_remote(conn: Connection, code: str, fatal: bool) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_event()
    assert info.value.code == code, info.value.message
    assert info.value.fatal is fatal
    return info.value


def expect_local(conn: Connection, message: Message, code: str) -> LocalProtocolError:
    before = conn.state
    with pytest.raises(LocalProtocolError) as info:
        conn.send(message)
    assert info.value.code == code, info.value.message
    assert conn.state is before
    return info.value


# --- round trips ----------------------------------------------------------------------------


def test_every_message_type_has_an_example() -> None:
    assert set(EXAMPLES) == set(MESSAGE_TYPES)
    for kind, message in EXAMPLES.items():
        assert type(message) is MESSAGE_TYPES[kind]


def test_examples_fill_every_field() -> None:
    # The main examples set every optional field, so each one travels at least once.
    for message in EXAMPLES.values():
        wire = message.to_wire()
        assert set(wire) == {"type", *message.SCHEMA}, message.TYPE
        if message.TYPE != "view":  # a view's winner is nil while the match runs
            assert None not in wire.values(), message.TYPE


def test_sender_lists_cover_every_type() -> None:
    assert set(CLIENT_SENDS) | set(SERVER_SENDS) == set(MESSAGE_TYPES)
    assert set(CLIENT_SENDS) & set(SERVER_SENDS) == {"ping", "pong"}


@pytest.mark.parametrize(("kind", "sender"), DIRECTIONS, ids=[f"{t}-{s}" for t, s in DIRECTIONS])
def test_round_trip(kind: str, sender: str) -> None:
    message = EXAMPLES[kind]
    if kind == "hello":
        # The handshake itself is the round trip; hello is also allowed once open.
        client, server = handshake(hello=message)
        assert deliver(client, server, message) == [message, NEED_DATA]
        return
    if kind == "welcome":
        handshake(welcome=message)  # checks that the client received it and opened
        return
    client, server = handshake()
    src, dst = (client, server) if sender == "client" else (server, client)
    events = deliver(src, dst, message)
    assert events == [message, NEED_DATA]
    received = events[0]
    assert type(received) is type(message)
    assert received.to_wire() == message.to_wire()
    if kind in ("bye", "goodbye"):
        assert src.state is State.CLOSED
        assert dst.state is State.CLOSED
    else:
        assert src.state is State.OPEN
        assert dst.state is State.OPEN


@pytest.mark.parametrize("message", MINIMAL, ids=[m.TYPE for m in MINIMAL])
def test_round_trip_without_optional_fields(message: Message) -> None:
    client, server = handshake()
    if message.SENDER == "client":
        events = deliver(client, server, message)
        wire_keys = set(msgpack.unpackb(client.send(message)[4:]))
    else:
        events = deliver(server, client, message)
        wire_keys = set(msgpack.unpackb(server.send(message)[4:]))
    assert events == [message, NEED_DATA]
    # Optional fields that are nil are left out of the map; other nils travel as nil.
    expected = {"type"} | {
        name
        for name in message.SCHEMA
        if not (name in message.OPTIONAL and getattr(message, name) is None)
    }
    if isinstance(message, Lobby):
        expected.discard("more")  # left out when 0
        expected.discard("tournaments")  # left out when empty
    assert wire_keys == expected


def test_decoded_arrays_are_tuples_all_the_way_down() -> None:
    client, server = handshake()
    [view, _] = deliver(server, client, EXAMPLES["view"])
    assert isinstance(view, View)
    assert type(view.hand_counts) is tuple
    assert type(view.windows) is tuple
    assert view.last_round is not None
    assert type(view.last_round["hands"]) is tuple
    assert all(type(hand) is tuple for hand in view.last_round["hands"])
    [decision, _] = deliver(server, client, EXAMPLES["mau_decision"])
    assert isinstance(decision, MauDecision)
    assert all(type(stamp["after_ms"]) is float for stamp in decision.stamps)


def test_wire_format_is_length_prefixed_msgpack_map() -> None:
    client = open_client()
    data = client.send(PlayCard(card="10D", named=None, call="maumau"))
    (length,) = struct.unpack(">I", data[:4])
    assert length == len(data) - 4
    assert msgpack.unpackb(data[4:], raw=True) == {
        b"type": b"play",
        b"card": b"10D",
        b"call": b"maumau",
    }
    # Strings travel as msgpack str, never bin.
    assert b"\xc4" not in data and b"\xc5" not in data
    assert data[4:] == msgpack.packb({"type": "play", "card": "10D", "call": "maumau"})
    assert client.send(ListTables()) == raw_frame(msgpack.packb({"type": "list_tables"}))


def test_handshake_states() -> None:
    client, server = Connection("client"), Connection("server")
    assert client.state is State.HANDSHAKE and server.state is State.HANDSHAKE
    server.receive_data(client.send(HELLO))
    assert client.state is State.HANDSHAKE
    assert server.next_event() == HELLO
    assert server.state is State.HANDSHAKE  # only sending welcome opens the server
    client.receive_data(server.send(WELCOME))
    assert server.state is State.OPEN
    assert client.state is State.HANDSHAKE  # only receiving welcome opens the client
    assert client.next_event() == WELCOME
    assert client.state is State.OPEN


def test_client_accepts_error_and_goodbye_before_welcome() -> None:
    client, server = Connection("client"), Connection("server")
    server.receive_data(client.send(HELLO))
    assert server.next_event() == HELLO
    error = Error(code="server_full", message="no room", fatal=True)
    goodbye = Goodbye(reason="full", code="shutdown")
    assert deliver(server, client, error) == [error, NEED_DATA]
    assert client.state is State.HANDSHAKE
    assert deliver(server, client, goodbye) == [goodbye, NEED_DATA]
    assert client.state is State.CLOSED
    assert server.state is State.CLOSED


def test_role_must_be_client_or_server() -> None:
    with pytest.raises(ValueError):
        Connection("peer")


# --- streaming --------------------------------------------------------------------------------


def full_conversation() -> tuple[list[Message], bytes, list[Message], bytes]:
    """Everything each side can send, in one session: (to server, bytes, to client, bytes)."""
    client, server = Connection("client"), Connection("server")
    to_server: list[Message] = [HELLO]
    to_client: list[Message] = [WELCOME]
    up = client.send(HELLO)
    down = server.send(WELCOME)
    client.receive_data(down)
    assert client.next_event() == WELCOME
    for kind in CLIENT_SENDS:
        if kind != "bye":
            to_server.append(EXAMPLES[kind])
    to_server += [m for m in MINIMAL if m.SENDER == "client"]
    to_server.append(EXAMPLES["bye"])
    for kind in SERVER_SENDS:
        if kind != "goodbye":
            to_client.append(EXAMPLES[kind])
    to_client += [m for m in MINIMAL if m.SENDER == "server"]
    to_client.append(EXAMPLES["goodbye"])
    up += b"".join(client.send(m) for m in to_server[1:])
    down += b"".join(server.send(m) for m in to_client[1:])
    return to_server, up, to_client, down


@pytest.mark.parametrize("role", ["server", "client"])
def test_byte_at_a_time(role: str) -> None:
    to_server, up, to_client, down = full_conversation()
    messages, data = (to_server, up) if role == "server" else (to_client, down)
    conn = Connection(role)
    if role == "client":
        conn.send(HELLO)
    # Where each frame ends.
    ends = set()
    offset = 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        offset += 4 + length
        ends.add(offset)
    assert len(ends) == len(messages)
    received = []
    for index in range(len(data)):
        conn.receive_data(data[index : index + 1])
        events = serve(conn)
        if index + 1 in ends:
            assert len(events) == 2 and events[1] is NEED_DATA, index
            received.append(events[0])
        else:
            assert events == [NEED_DATA], index
    assert received == messages
    conn.receive_data(b"")
    assert conn.next_event() is PEER_CLOSED
    assert conn.state is State.CLOSED


@pytest.mark.parametrize("role", ["server", "client"])
def test_many_frames_in_one_chunk(role: str) -> None:
    to_server, up, to_client, down = full_conversation()
    messages, data = (to_server, up) if role == "server" else (to_client, down)
    conn = Connection(role)
    if role == "client":
        conn.send(HELLO)
    conn.receive_data(data)
    assert serve(conn) == [*messages, NEED_DATA]
    assert conn.next_event() is NEED_DATA
    conn.receive_data(b"")
    assert conn.next_event() is PEER_CLOSED
    assert conn.next_event() is PEER_CLOSED


def test_chunk_ending_inside_a_frame() -> None:
    client, server = handshake()
    data = b"".join(client.send(m) for m in (Ping(nonce=1), Chat("lobby", "hi"), Pong(nonce=2)))
    first_len = len(client.send(Ping(nonce=1)))
    cut = first_len + 3  # the first frame and 3 bytes of the second header
    server.receive_data(data[:cut])
    assert drain(server) == [Ping(nonce=1), NEED_DATA]
    server.receive_data(data[cut : cut + 5])
    assert server.next_event() is NEED_DATA
    server.receive_data(data[cut + 5 :])
    assert drain(server) == [Chat("lobby", "hi"), Pong(nonce=2), NEED_DATA]
    assert server.frames_received == 4  # hello + three


def test_frames_then_eof() -> None:
    server = Connection("server")
    server.receive_data(frame(HELLO.to_wire()) + frame({"type": "ping", "nonce": 5}))
    server.receive_data(b"")
    assert server.next_event() == HELLO
    # The ping came before the server sent welcome.
    expect_remote(server, "hello_first", fatal=False)
    assert server.next_event() is PEER_CLOSED
    server = open_server()
    server.receive_data(frame({"type": "ping", "nonce": 5}))
    server.receive_data(b"")
    assert drain(server) == [Ping(nonce=5), PEER_CLOSED]


# --- invalid input on the server side -----------------------------------------------------------

PING_FRAME = frame({"type": "ping", "nonce": 99})

BAD_MESSAGES: list[tuple[str, Any, str, str]] = [
    # (id, decoded value, code, a part of the error message)
    ("unknown-type", {"type": "teleport", "to": 3}, "unknown_type", "teleport"),
    ("server-only-type", WELCOME.to_wire(), "unknown_type", "welcome"),
    ("missing-field", {"type": "play"}, "bad_message", "play.card"),
    ("missing-field-2", {"type": "hello", "version": 1}, "bad_message", "hello.name"),
    ("extra-field", {"type": "play", "card": "7H", "cheat": True}, "bad_message", "play.cheat"),
    ("extra-field-empty", {"type": "draw", "cards": 3}, "bad_message", "draw.cards"),
    ("wrong-type-str", {"type": "catch", "target": "2"}, "bad_message", "catch.target"),
    ("wrong-type-bool", {"type": "catch", "target": True}, "bad_message", "catch.target"),
    ("wrong-type-float", {"type": "ping", "nonce": 1.0}, "bad_message", "ping.nonce"),
    ("wrong-type-nil", {"type": "ready", "ready": None}, "bad_message", "ready.ready"),
    ("out-of-range", {"type": "catch", "target": 10}, "bad_message", "catch.target"),
    ("negative", {"type": "join_table", "table": 0}, "bad_message", "join_table.table"),
    ("bad-card", {"type": "play", "card": "1H"}, "bad_message", "play.card"),
    ("bad-card-case", {"type": "play", "card": "jh"}, "bad_message", "play.card"),
    ("bad-card-int", {"type": "play", "card": 12}, "bad_message", "play.card"),
    ("bad-named", {"type": "play", "card": "JH", "named": "X"}, "bad_message", "play.named"),
    ("bad-call", {"type": "say_mau", "call": "MAU"}, "bad_message", "say_mau.call"),
    ("bad-scope", {"type": "chat", "scope": "all", "text": "hi"}, "bad_message", "chat.scope"),
    ("empty-chat", {"type": "chat", "scope": "lobby", "text": ""}, "bad_message", "chat.text"),
    ("long-chat", {"type": "chat", "scope": "lobby", "text": "x" * 201}, "bad_message", "chat"),
    (
        "unprintable-name",
        {"type": "hello", "version": 1, "name": "An\nna"},
        "bad_message",
        "hello.name",
    ),
    ("long-name", {"type": "hello", "version": 1, "name": "A" * 25}, "bad_message", "hello.name"),
    (
        "bad-array-item",
        {"type": "create_table", "name": "t", "settings": {}, "bots": [1, "2"]},
        "bad_message",
        "create_table.bots[1]",
    ),
    (
        "too-many-bots",
        {"type": "create_table", "name": "t", "settings": {}, "bots": [1] * 11},
        "bad_message",
        "create_table.bots",
    ),
    (
        "settings-not-scalar",
        {"type": "create_table", "name": "t", "settings": {"seats": [4]}, "bots": []},
        "bad_message",
        "create_table.settings.seats",
    ),
    (
        "settings-binary",
        {"type": "create_table", "name": "t", "settings": {"seats": b"\x04"}, "bots": []},
        "bad_message",
        "create_table.settings.seats",
    ),
    (
        "settings-bytes-key",
        {"type": "create_table", "name": "t", "settings": {b"seats": 4}, "bots": []},
        "bad_message",
        "create_table.settings",
    ),
    ("binary-value", {"type": "chat", "scope": "lobby", "text": b"hi"}, "bad_message", "chat.text"),
    ("binary-card", {"type": "play", "card": b"7H"}, "bad_message", "play.card"),
    ("binary-type", {"type": b"play", "card": "7H"}, "bad_message", "type"),
    ("binary-type-key", {b"type": "play", "card": "7H"}, "bad_message", "type"),
    ("no-type", {"card": "7H"}, "bad_message", "type"),
    ("int-type", {"type": 5}, "bad_message", "type"),
    ("top-level-array", ["play", "7H"], "bad_message", "map"),
    ("top-level-str", "hello", "bad_message", "map"),
    ("top-level-int", 7, "bad_message", "map"),
    ("top-level-nil", None, "bad_message", "map"),
    ("top-level-binary", b"\x01\x02", "bad_message", "map"),
]


@pytest.mark.parametrize(
    ("value", "code", "text"),
    [case[1:] for case in BAD_MESSAGES],
    ids=[case[0] for case in BAD_MESSAGES],
)
def test_invalid_message_is_not_fatal(value: Any, code: str, text: str) -> None:
    server = open_server()
    server.receive_data(frame(value) + PING_FRAME)
    error = expect_remote(server, code, fatal=False)
    assert text in error.message
    if isinstance(value, dict) and type(value.get("type")) is str:
        assert error.ref == value["type"]
    # The frame was skipped; the next one is read normally.
    assert server.state is State.OPEN
    assert drain(server) == [Ping(nonce=99), NEED_DATA]


def test_error_message_names_the_nested_field_path() -> None:
    client = open_client()
    view = EXAMPLES["view"].to_wire()
    bad_window = {**view, "windows": [view["windows"][0], {**view["windows"][1], "seat": "1"}]}
    bad_legal = {**view, "legal": [*view["legal"][:2], {"kind": "play", "card": "Z9"}]}
    lobby = EXAMPLES["lobby"].to_wire()
    seats = [dict(seat) for seat in lobby["tables"][0]["seats"]]
    seats[1]["colour"] = "red"
    bad_seat = {**lobby, "tables": [{**lobby["tables"][0], "seats": seats}]}
    last_round = dict(view["last_round"])
    last_round["hands"] = [["R5"], ["W", "W5"]]
    bad_hand = {**view, "last_round": last_round}
    client.receive_data(
        frame(bad_window) + frame(bad_legal) + frame(bad_seat) + frame(bad_hand) + PING_FRAME
    )
    for path in (
        "view.windows[1].seat",
        "view.legal[2].card",
        "lobby.tables[0].seats[1].colour",
        "view.last_round.hands[1][1]",
    ):
        error = expect_remote(client, "bad_message", fatal=False)
        assert error.message.startswith(path + ":"), error.message
    assert drain(client) == [Ping(nonce=99), NEED_DATA]


def test_deeply_nested_value_is_a_remote_error() -> None:
    # msgpack decodes arrays nested up to 1023 deep; such a value in a card field is a
    # well-framed, decodable but invalid message, so it must be a non-fatal bad_message.
    # (Nesting deeper than msgpack's own limit is undecodable and fatal.)
    server = open_server()
    body = b"\x82" + msgpack.packb("type") + msgpack.packb("play") + msgpack.packb("card")
    server.receive_data(raw_frame(body + b"\x91" * 1023 + b"\xc0") + PING_FRAME)
    error = expect_remote(server, "bad_message", fatal=False)
    assert "play.card" in error.message
    assert drain(server) == [Ping(nonce=99), NEED_DATA]


def test_too_deeply_nested_value_is_undecodable() -> None:
    server = open_server()
    body = b"\x82" + msgpack.packb("type") + msgpack.packb("play") + msgpack.packb("card")
    server.receive_data(raw_frame(body + b"\x91" * 5000 + b"\xc0"))
    expect_remote(server, "undecodable", fatal=True)


def test_msgpack_timestamp_is_refused() -> None:
    # Ext type -1 (timestamp) is decoded by msgpack itself, not by the ext hook; it must
    # still never reach a message.
    server = open_server()
    ts = msgpack.Timestamp(1_700_000_000, 5)
    for value in (
        {"type": "play", "card": ts},
        {"type": "create_table", "name": "t", "settings": {"at": ts}, "bots": []},
        {"type": ts},
        ts,
    ):
        server.receive_data(frame(value))
        with pytest.raises(RemoteProtocolError):
            server.next_event()
        if server.state is State.ERROR:
            break


@pytest.mark.parametrize(
    "value",
    [
        {"type": "play", "card": msgpack.ExtType(5, b"7H")},
        {"type": "chat", "scope": "lobby", "text": msgpack.ExtType(0, b"")},
        {"type": "create_table", "name": "t", "settings": {"x": msgpack.ExtType(127, b"")}},
        msgpack.ExtType(1, b"\x00\x01"),
    ],
    ids=["card", "text", "settings", "top-level"],
)
def test_ext_types_are_undecodable(value: Any) -> None:
    server = open_server()
    server.receive_data(frame(value) + PING_FRAME)
    error = expect_remote(server, "undecodable", fatal=True)
    assert "extension" in error.message
    assert server.state is State.ERROR


@pytest.mark.parametrize(
    "body",
    [
        b"\xc1",  # a byte msgpack never uses
        b"\x82\xa4type",  # a map cut short inside the frame
        b"\xa2\xff\xfe",  # a str that is not UTF-8
        msgpack.packb({"type": "ping", "nonce": 1}) + b"\x01",  # trailing bytes
        msgpack.packb({1: "ping"}),  # a non-string map key
        msgpack.packb({"type": "play", "card": {(1, 2): 3}}),
        msgpack.packb({"type": "create_table", "settings": {None: 1}}),
    ],
    ids=["never-used", "cut-short", "not-utf8", "trailing", "int-key", "array-key", "nil-key"],
)
def test_undecodable_frame_is_fatal(body: bytes) -> None:
    server = open_server()
    server.receive_data(raw_frame(body) + PING_FRAME)
    expect_remote(server, "undecodable", fatal=True)
    assert server.state is State.ERROR


def test_fatal_error_keeps_raising() -> None:
    server = open_server()
    server.receive_data(raw_frame(b"\xc1") + PING_FRAME)
    first = expect_remote(server, "undecodable", fatal=True)
    for _ in range(3):
        again = expect_remote(server, "undecodable", fatal=True)
        assert again.message == first.message
    # Even perfectly good data afterwards is not read.
    server.receive_data(PING_FRAME)
    expect_remote(server, "undecodable", fatal=True)
    server.receive_data(b"")
    expect_remote(server, "undecodable", fatal=True)
    assert server.state is State.ERROR


def test_non_fatal_error_does_not_stick() -> None:
    server = open_server()
    server.receive_data(frame({"type": "play"}))
    expect_remote(server, "bad_message", fatal=False)
    assert server.next_event() is NEED_DATA
    server.receive_data(PING_FRAME)
    assert server.next_event() == Ping(nonce=99)


def test_frame_too_large_is_refused_from_the_header() -> None:
    server = open_server()
    server.receive_data(struct.pack(">I", DEFAULT_MAX_FRAME + 1))  # no body at all
    error = expect_remote(server, "frame_too_large", fatal=True)
    assert str(DEFAULT_MAX_FRAME + 1) in error.message
    assert server.state is State.ERROR
    server.receive_data(b"\x00" * 100)
    expect_remote(server, "frame_too_large", fatal=True)


def test_frame_too_large_header_in_pieces() -> None:
    server = Connection("server")
    header = struct.pack(">I", 0xFFFFFFFF)
    server.receive_data(header[:2])
    assert server.next_event() is NEED_DATA
    server.receive_data(header[2:3])
    assert server.next_event() is NEED_DATA
    server.receive_data(header[3:])
    expect_remote(server, "frame_too_large", fatal=True)


def padded_create_table(body_size: int) -> dict[str, Any]:
    """A valid create_table map whose msgpack body is exactly ``body_size`` bytes."""
    value = {"type": "create_table", "name": "big", "settings": {"pad": ""}, "bots": []}
    base = len(msgpack.packb(value))
    pad = body_size - base
    for _ in range(3):  # the str header grows with the string
        value["settings"]["pad"] = "x" * pad
        pad += body_size - len(msgpack.packb(value))
    assert len(msgpack.packb(value)) == body_size
    return value


def test_frame_at_the_limit_is_accepted() -> None:
    server = open_server()
    value = padded_create_table(DEFAULT_MAX_FRAME)
    data = frame(value)
    assert struct.unpack(">I", data[:4]) == (DEFAULT_MAX_FRAME,)
    server.receive_data(data[:-1])
    assert server.next_event() is NEED_DATA
    server.receive_data(data[-1:])
    message = server.next_event()
    assert isinstance(message, CreateTable)
    assert message.settings == value["settings"]

    server = open_server()
    server.receive_data(frame(padded_create_table(DEFAULT_MAX_FRAME + 1))[:4])
    expect_remote(server, "frame_too_large", fatal=True)


def test_max_frame_is_configurable() -> None:
    server = Connection("server", max_frame=30)
    hello = frame(Hello(version=1, name="Al").to_wire())
    assert len(hello) - 4 <= 30
    server.receive_data(hello)
    assert server.next_event() == Hello(version=1, name="Al")
    server.receive_data(struct.pack(">I", 31))
    expect_remote(server, "frame_too_large", fatal=True)


def test_zero_length_frame_is_fatal() -> None:
    server = open_server()
    server.receive_data(b"\x00\x00\x00\x00" + PING_FRAME)
    expect_remote(server, "bad_frame", fatal=True)
    expect_remote(server, "bad_frame", fatal=True)


@pytest.mark.parametrize("cut", [1, 3, 4, 5, len(PING_FRAME) - 1])
def test_truncated_stream_at_eof(cut: int) -> None:
    server = open_server()
    server.receive_data(PING_FRAME + PING_FRAME[:cut])
    assert drain(server) == [Ping(nonce=99), NEED_DATA]
    server.receive_data(b"")
    expect_remote(server, "truncated", fatal=True)
    expect_remote(server, "truncated", fatal=True)
    assert server.state is State.ERROR


def test_clean_eof_is_peer_closed() -> None:
    server = Connection("server")
    server.receive_data(b"")
    assert server.next_event() is PEER_CLOSED
    assert server.next_event() is PEER_CLOSED
    assert server.state is State.CLOSED
    client = open_client()
    client.receive_data(b"")
    assert client.next_event() is PEER_CLOSED


def test_data_after_eof_is_a_local_error() -> None:
    server = open_server()
    server.receive_data(b"")
    with pytest.raises(LocalProtocolError) as info:
        server.receive_data(PING_FRAME)
    assert info.value.code == "receive_after_eof"
    assert server.next_event() is PEER_CLOSED


@pytest.mark.parametrize("kind", [t for t in CLIENT_SENDS if t != "hello"])
def test_server_requires_hello_first(kind: str) -> None:
    server = Connection("server")
    server.receive_data(frame(EXAMPLES[kind].to_wire()) + frame(HELLO.to_wire()))
    error = expect_remote(server, "hello_first", fatal=False)
    assert error.ref == kind
    assert server.state is State.HANDSHAKE
    assert drain(server) == [HELLO, NEED_DATA]


def test_client_requires_welcome_first() -> None:
    client = Connection("client")
    client.send(HELLO)
    client.receive_data(frame(EXAMPLES["view"].to_wire()) + frame(WELCOME.to_wire()))
    error = expect_remote(client, "welcome_first", fatal=False)
    assert error.ref == "view"
    assert client.state is State.HANDSHAKE
    assert drain(client) == [WELCOME, NEED_DATA]
    assert client.state is State.OPEN


def test_messages_after_bye_are_refused() -> None:
    client, server = handshake()
    server.receive_data(client.send(Bye()) + PING_FRAME)
    assert server.next_event() == Bye()
    assert server.state is State.CLOSED
    expect_remote(server, "closed", fatal=False)
    expect_local(server, Goodbye(reason="bye", code="shutdown"), "closed")


# --- local errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", SERVER_ONLY)
def test_client_cannot_send_server_messages(kind: str) -> None:
    client = Connection("client")
    expect_local(client, EXAMPLES[kind], "wrong_sender")
    client = open_client()
    error = expect_local(client, EXAMPLES[kind], "wrong_sender")
    assert kind in error.message


@pytest.mark.parametrize("kind", CLIENT_ONLY)
def test_server_cannot_send_client_messages(kind: str) -> None:
    server = Connection("server")
    expect_local(server, EXAMPLES[kind], "wrong_sender")
    server = open_server()
    expect_local(server, EXAMPLES[kind], "wrong_sender")


@pytest.mark.parametrize("kind", [t for t in CLIENT_SENDS if t != "hello"])
def test_client_sends_hello_first(kind: str) -> None:
    client = Connection("client")
    expect_local(client, EXAMPLES[kind], "hello_first")
    assert client.state is State.HANDSHAKE
    assert client.send(HELLO)
    # Until the welcome arrives, the client still sends nothing else.
    with pytest.raises(LocalProtocolError):
        client.send(EXAMPLES[kind])
    assert client.state is State.HANDSHAKE


@pytest.mark.parametrize(
    "kind", [t for t in SERVER_SENDS if t not in ("welcome", "error", "goodbye", "ping")]
)
def test_server_sends_welcome_first(kind: str) -> None:
    server = Connection("server")
    server.receive_data(frame(HELLO.to_wire()))
    assert server.next_event() == HELLO
    expect_local(server, EXAMPLES[kind], "welcome_first")
    assert server.state is State.HANDSHAKE
    server.send(WELCOME)
    assert server.send(EXAMPLES[kind])


def test_server_may_send_error_goodbye_and_ping_before_welcome() -> None:
    server = Connection("server")
    assert server.send(EXAMPLES["error"])
    assert server.send(EXAMPLES["ping"])
    assert server.state is State.HANDSHAKE
    assert server.send(EXAMPLES["goodbye"])
    assert server.state is State.CLOSED


@pytest.mark.parametrize("kind", CLIENT_SENDS)
def test_client_cannot_send_after_bye(kind: str) -> None:
    client = open_client()
    client.send(Bye())
    assert client.state is State.CLOSED
    expect_local(client, EXAMPLES[kind], "closed")


@pytest.mark.parametrize("kind", SERVER_SENDS)
def test_server_cannot_send_after_goodbye(kind: str) -> None:
    server = open_server()
    server.send(Goodbye(reason="shutdown", code="shutdown"))
    assert server.state is State.CLOSED
    expect_local(server, EXAMPLES[kind], "closed")


def test_server_cannot_send_after_goodbye_in_handshake() -> None:
    server = Connection("server")
    server.send(Goodbye(reason="full", code="shutdown"))
    expect_local(server, WELCOME, "closed")


def test_after_a_fatal_error_only_error_and_goodbye() -> None:
    server = open_server()
    server.receive_data(raw_frame(b"\xc1"))
    expect_remote(server, "undecodable", fatal=True)
    expect_local(server, EXAMPLES["view"], "errored")
    expect_local(server, EXAMPLES["ping"], "errored")
    assert server.send(Error(code="undecodable", message="bad bytes", fatal=True))
    assert server.state is State.ERROR
    assert server.send(Goodbye(reason="protocol error", code="shutdown"))
    assert server.state is State.CLOSED
    expect_local(server, Error(code="x", message="y"), "closed")


def test_oversized_send_is_a_local_error() -> None:
    client = open_client()
    too_big = CreateTable(name="big", settings={"pad": "x" * DEFAULT_MAX_FRAME}, bots=())
    expect_local(client, too_big, "frame_too_large")
    assert client.state is State.OPEN
    at_limit = padded_create_table(DEFAULT_MAX_FRAME)
    message = CreateTable(name="big", settings=at_limit["settings"], bots=())
    data = client.send(message)
    assert len(data) == 4 + DEFAULT_MAX_FRAME
    server = open_server()
    server.receive_data(data)
    assert server.next_event() == message


def test_refused_welcome_does_not_open_the_server() -> None:
    # A send that raises LocalProtocolError sends nothing, so it must not move the state:
    # the server is still waiting to send welcome.
    server = Connection("server")
    server.receive_data(frame(HELLO.to_wire()))
    assert server.next_event() == HELLO
    huge = Welcome(
        version=1, session="s" * DEFAULT_MAX_FRAME, resume="r", name="Anna", resumed=False
    )
    with pytest.raises(LocalProtocolError) as info:
        server.send(huge)
    assert info.value.code == "frame_too_large"
    assert server.state is State.HANDSHAKE
    expect_local(server, EXAMPLES["view"], "welcome_first")


def test_refused_goodbye_does_not_close() -> None:
    server = open_server()
    with pytest.raises(LocalProtocolError):
        server.send(Goodbye(reason="x" * (DEFAULT_MAX_FRAME + 1), code="shutdown"))
    assert server.state is State.OPEN
    assert server.send(Goodbye(reason="shutdown", code="shutdown"))


# --- properties ----------------------------------------------------------------------

# str.isprintable(): everything but control, format, surrogate, private-use, unassigned
# and separator characters, except the plain space.
NON_PRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")
PRINTABLE = st.characters(exclude_categories=NON_PRINTABLE) | st.just(" ")
names = st.text(PRINTABLE, min_size=1, max_size=24).filter(lambda n: n == n.strip())
cards = st.sampled_from(CODE_OF)
seats = st.integers(0, 9)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
)

client_messages = st.one_of(
    st.builds(
        PlayCard,
        card=cards,
        named=st.none() | st.sampled_from("SHDCRYGB"),
        call=st.none() | st.sampled_from(["mau", "maumau"]),
    ),
    st.builds(
        Chat,
        scope=st.sampled_from(["lobby", "table"]),
        text=st.text(PRINTABLE, min_size=1, max_size=200),
    ),
    st.builds(
        Hello,
        version=st.integers(0, 65535),
        name=names,
        resume=st.none() | st.text(min_size=1, max_size=128),
    ),
    st.builds(CatchPlayer, target=seats),
    st.builds(
        CreateTable,
        name=st.text(PRINTABLE, min_size=1, max_size=32),
        settings=st.dictionaries(st.text(max_size=20), scalars, max_size=64),
        bots=st.lists(seats, max_size=10).map(tuple),
        password=st.none() | st.text(min_size=1, max_size=64),
    ),
)


def feed_server_in_pieces(stream: bytes, cuts: list[int]) -> list[Any]:
    """Feed a client's stream to a new server in pieces; welcome the first hello."""
    server = Connection("server")
    received: list[Any] = []
    bounds = sorted({0, *cuts, len(stream)})
    for start, end in itertools.pairwise(bounds):
        server.receive_data(stream[start:end])
        events = serve(server)
        assert events[-1] is NEED_DATA
        received += events[:-1]
    server.receive_data(b"")
    assert server.next_event() is PEER_CLOSED
    return received


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hello=st.builds(
        Hello,
        version=st.integers(0, 65535),
        name=names,
        resume=st.none() | st.text(min_size=1, max_size=128),
    ),
    data=st.data(),
)
def test_property_valid_messages_round_trip(hello: Hello, data: st.DataObject) -> None:
    messages = data.draw(st.lists(client_messages, min_size=1, max_size=12), label="messages")
    client = Connection("client")
    stream = client.send(hello)
    client.receive_data(Connection("server").send(WELCOME))
    assert client.next_event() == WELCOME
    stream += b"".join(client.send(m) for m in messages)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=20), label="cuts")
    received = feed_server_in_pieces(stream, cuts)
    assert received == [hello, *messages]
    for sent, back in zip(messages, received[1:], strict=True):
        assert type(back) is type(sent)
        assert back.to_wire() == sent.to_wire()
    # The same stream all at once and one byte at a time.
    assert feed_server_in_pieces(stream, []) == received
    assert feed_server_in_pieces(stream, list(range(1, len(stream)))) == received


msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=30)
    | st.sampled_from(CODE_OF)
    | st.sampled_from(sorted(MESSAGE_TYPES)),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.text(max_size=12) | st.sampled_from(["type", "card", "name"]), children
        )
    ),
    max_leaves=30,
)


@st.composite
def message_like(draw: st.DrawFn) -> Any:
    """A map with a real type and (mostly) its real field names, holding anything."""
    kind = draw(st.sampled_from(sorted(MESSAGE_TYPES)))
    cls = MESSAGE_TYPES[kind]
    keys = draw(st.lists(st.sampled_from([*cls.SCHEMA, "extra"]), unique=True))
    return {"type": kind, **{key: draw(msgpack_values) for key in keys}}


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=msgpack_values | message_like(), opened=st.booleans())
def test_property_arbitrary_values_only_raise_remote_errors(value: Any, opened: bool) -> None:
    server = open_server() if opened else Connection("server")
    server.receive_data(frame(value) + PING_FRAME)
    try:
        event = server.next_event()
    except RemoteProtocolError as error:
        if error.fatal:
            assert server.state is State.ERROR
            with pytest.raises(RemoteProtocolError):
                server.next_event()
            return
    else:
        assert isinstance(event, Message)
        # Whatever is accepted is a valid message that survives another round trip.
        assert decode_message(event.to_wire(), "client") == event
        if isinstance(event, Bye):
            expect_remote(server, "closed", fatal=False)
            assert server.next_event() is NEED_DATA
            return
    # Not fatal: the frame after it is read normally (or refused before hello).
    if opened:
        assert server.next_event() == Ping(nonce=99)
    else:
        expect_remote(server, "hello_first", fatal=False)
    assert server.next_event() is NEED_DATA


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    chunks=st.lists(
        st.binary(min_size=1, max_size=64)
        | st.binary(max_size=64).map(raw_frame)
        | msgpack_values.map(frame),
        max_size=6,
    ),
    eof=st.booleans(),
    role=st.sampled_from(["server", "client"]),
)
def test_property_random_bytes_only_raise_remote_errors(
    chunks: list[bytes], eof: bool, role: str
) -> None:
    conn = Connection(role)
    if role == "client":
        conn.send(HELLO)
    fatal: RemoteProtocolError | None = None
    for chunk in [*chunks, b""] if eof else chunks:
        conn.receive_data(chunk)
        for _ in range(10):
            try:
                event = conn.next_event()
            except RemoteProtocolError as error:
                if fatal is not None:
                    assert error.code == fatal.code
                if error.fatal:
                    fatal = error
                    assert conn.state is State.ERROR
                continue
            assert fatal is None
            if event is NEED_DATA or event is PEER_CLOSED:
                break
            assert isinstance(event, Message)

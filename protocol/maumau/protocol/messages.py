"""Every message of the maumau wire protocol, as frozen, slotted dataclasses.

A message travels as a msgpack map: ``{"type": <type>, <field>: <value>, ...}``.
Each class names its wire ``type``, who may send it (``client``, ``server`` or
``both``) and a validator per field (:mod:`maumau.protocol.schema`). Fields listed in
``OPTIONAL`` may be left out of the map; every other field must be present, and no
other key is allowed. :func:`decode_message` checks all of that on the way in;
:meth:`Message.to_wire` produces the map on the way out.

``docs/protocol.md`` documents each message; ``tests/test_protocol_doc.py`` checks
that it names every type and field defined here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from . import schema as s
from .refusal import Refusal

PROTOCOL_VERSION = 10
NAME_MAX = 24
CHAT_MAX = 200
TABLE_NAME_MAX = 32
PASSWORD_MAX = 64
HOST_TEXT_MAX = 200  # a host's reason or announcement
MUTE_MAX_S = 7 * 24 * 3600
BANS_MAX = 200  # bans the server keeps (for its life and for good together)
HOST_CONNECTIONS_MAX = 500  # connections a host_view lists
HOST_CLOCK_SKEW_S = 300  # how far a host proof's time may be from the server's

_SEAT = s.integer(0, 9)
_TABLE_ID = s.integer(1, 2**31)
_SEQ = s.integer(0, 2**62)
_NAMED = s.one_of("S", "H", "D", "C", "R", "Y", "G", "B")
_CALL = s.one_of("mau", "maumau")
_VARIANT = s.one_of("classic", "american")
_NAME = s.text(NAME_MAX, 1, printable=True, trimmed=True)
BOT_LEVELS = ("easy", "normal", "hard")
_LEVEL = s.one_of(*BOT_LEVELS)
_MATCH_ID = s.integer(1, 2**62)
_TOURNAMENT_ID = s.integer(1, 2**31)
TOURNAMENT_NAME_MAX = TABLE_NAME_MAX
TOURNAMENT_SERIES_MAX = 20
TOURNAMENT_DEALS_MAX = 50
TOURNAMENT_PLAYERS_MAX = 500
TOURNAMENT_STATES = ("registering", "playing", "break", "final", "finished", "cancelled")
# A tournament message carries a window of its standings and of one series' tables:
TOURNAMENT_STANDINGS_PAGE = 50  # lines of the standings from the one asked for
TOURNAMENT_TABLES_PAGE = 50  # tables of the series asked for, from the one asked for
_ANSWER = s.one_of("seven", "draw_two", "wild_draw_four")
_SCORES = s.array(s.integer(0, 10_000_000), 10)
# A client's own monotonic clock, in milliseconds (any origin), and a duration on it.
_CLOCK_MS = s.number(0, 1e13)
_REACTION_MS = s.number(0, 1e7)


class MessageError(Refusal, ValueError):
    """A decoded map is not a valid message. ``code`` is the protocol error code;
    ``ref`` the type of the message, where it has one."""

    def __init__(
        self,
        code: str,
        message: str,
        ref: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details)
        self.ref = ref


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message."""

    TYPE: ClassVar[str] = ""
    SENDER: ClassVar[str] = "both"
    SCHEMA: ClassVar[dict[str, s.Validator]] = {}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def to_wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE}
        optional = self.OPTIONAL
        for name in self.SCHEMA:
            value = getattr(self, name)
            if value is None and name in optional:
                continue
            data[name] = value
        return data


MESSAGE_TYPES: dict[str, type[Message]] = {}


def _register(cls: type[Message]) -> type[Message]:
    names = [f.name for f in fields(cls)]
    assert names == list(cls.SCHEMA), f"{cls.__name__}: fields and schema differ"
    MESSAGE_TYPES[cls.TYPE] = cls
    return cls


# --- both directions ------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Asks the peer to answer with a Pong carrying the same nonce."""

    TYPE = "ping"
    SCHEMA = {"nonce": s.integer(0, 2**62)}
    nonce: int


@_register
@dataclass(frozen=True, slots=True)
class Pong(Message):
    """The answer to a Ping. A client may add ``clock_ms``, its own monotonic clock
    when it sent the pong, so that the server can place the client's clock against its
    own (for lag compensation; see docs/protocol.md)."""

    TYPE = "pong"
    SCHEMA = {"nonce": s.integer(0, 2**62), "clock_ms": s.optional(_CLOCK_MS)}
    OPTIONAL = frozenset({"clock_ms"})
    nonce: int
    clock_ms: float | None = None


# --- client to server -------------------------------------------------------------------


_HOST_PROOF = s.record(
    {
        "at": s.number(0, 1e11),
        "nonce": s.text(32, 16),
        "proof": s.text(64, 64),
    }
)
"""A hello's proof that its client holds the server's host key: ``proof`` is the
hex HMAC-SHA256, under the key, of ``"maumau-host:{at}:{nonce}:{name}"`` (``at`` the
client's Unix time in seconds, as sent; ``nonce`` fresh for every hello)."""


@_register
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The first message a client sends."""

    TYPE = "hello"
    SENDER = "client"
    SCHEMA = {
        "version": s.integer(0, 65535),
        "name": _NAME,
        "resume": s.optional(s.text(128, 1)),
        "secret": s.optional(s.text(128, 16)),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
        "host": s.optional(_HOST_PROOF),
    }
    OPTIONAL = frozenset({"resume", "secret", "password", "host"})
    version: int
    name: str
    resume: str | None = None
    secret: str | None = None
    password: str | None = None  # the server's password, where it has one
    host: dict[str, Any] | None = None  # the proof of the host key (see host_proof)


@_register
@dataclass(frozen=True, slots=True)
class ListTables(Message):
    TYPE = "list_tables"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    TYPE = "create_table"
    SENDER = "client"
    SCHEMA = {
        "name": s.text(TABLE_NAME_MAX, 1, printable=True),
        "settings": s.free_map(),
        "bots": s.array(_SEAT, 10),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
        "levels": s.optional(s.array(_LEVEL, 10)),
    }
    OPTIONAL = frozenset({"password", "levels"})
    name: str
    settings: dict[str, Any]
    bots: tuple[int, ...]
    password: str | None = None
    levels: tuple[str, ...] | None = None


@_register
@dataclass(frozen=True, slots=True)
class JoinTable(Message):
    """Sit down at ``table``: at ``seat``, or at the first free seat if it is nil."""

    TYPE = "join_table"
    SENDER = "client"
    SCHEMA = {
        "table": _TABLE_ID,
        "seat": s.optional(_SEAT),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
    }
    OPTIONAL = frozenset({"seat", "password"})
    table: int
    seat: int | None = None
    password: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class WatchTable(Message):
    TYPE = "watch_table"
    SENDER = "client"
    SCHEMA = {"table": _TABLE_ID, "password": s.optional(s.text(PASSWORD_MAX, 1))}
    OPTIONAL = frozenset({"password"})
    table: int
    password: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class LeaveTable(Message):
    TYPE = "leave_table"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class Ready(Message):
    TYPE = "ready"
    SENDER = "client"
    SCHEMA = {"ready": s.boolean}
    ready: bool


@_register
@dataclass(frozen=True, slots=True)
class StartMatch(Message):
    TYPE = "start_match"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class Rematch(Message):
    TYPE = "rematch"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class Back(Message):
    """An away player takes their seat back from the bot (any move does too)."""

    TYPE = "back"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class Pause(Message):
    """The one player at a table of bots stops its clock (``paused`` true), say while
    they read the help, or starts it again."""

    TYPE = "pause"
    SENDER = "client"
    SCHEMA = {"paused": s.boolean}
    paused: bool


@_register
@dataclass(frozen=True, slots=True)
class Chat(Message):
    TYPE = "chat"
    SENDER = "client"
    SCHEMA = {"scope": s.one_of("lobby", "table"), "text": s.text(CHAT_MAX, 1, printable=True)}
    scope: str
    text: str


@_register
@dataclass(frozen=True, slots=True)
class PlayCard(Message):
    """Play ``card``; ``named`` for a Jack or wild; ``call`` says Mau with the play."""

    TYPE = "play"
    SENDER = "client"
    SCHEMA = {"card": s.card, "named": s.optional(_NAMED), "call": s.optional(_CALL)}
    OPTIONAL = frozenset({"named", "call"})
    card: str
    named: str | None = None
    call: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class DrawCard(Message):
    TYPE = "draw"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class PassTurn(Message):
    TYPE = "pass"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class ChallengeCard(Message):
    TYPE = "challenge"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class SayMau(Message):
    """Say Mau (or Mau Mau). ``reaction_ms``: how long after receiving the frame that
    opened the call window the client sent this, on its own clock; ``clock_ms``: its
    clock when it sent this. Both optional; they let the server measure this claim's own
    exchange for lag compensation."""

    TYPE = "say_mau"
    SENDER = "client"
    SCHEMA = {
        "call": _CALL,
        "reaction_ms": s.optional(_REACTION_MS),
        "clock_ms": s.optional(_CLOCK_MS),
    }
    OPTIONAL = frozenset({"reaction_ms", "clock_ms"})
    call: str
    reaction_ms: float | None = None
    clock_ms: float | None = None


@_register
@dataclass(frozen=True, slots=True)
class CatchPlayer(Message):
    """Catch ``target``, who did not say Mau; ``reaction_ms`` and ``clock_ms`` as for
    :class:`SayMau`."""

    TYPE = "catch"
    SENDER = "client"
    SCHEMA = {
        "target": _SEAT,
        "reaction_ms": s.optional(_REACTION_MS),
        "clock_ms": s.optional(_CLOCK_MS),
    }
    OPTIONAL = frozenset({"reaction_ms", "clock_ms"})
    target: int
    reaction_ms: float | None = None
    clock_ms: float | None = None


@_register
@dataclass(frozen=True, slots=True)
class GetStats(Message):
    """Asks for the leaderboard (``limit`` players) and the sender's own statistics."""

    TYPE = "get_stats"
    SENDER = "client"
    SCHEMA = {"limit": s.integer(1, 100), "variant": s.optional(_VARIANT)}
    OPTIONAL = frozenset({"limit", "variant"})
    limit: int = 20
    variant: str | None = None  # only this game's matches count; nil: both games


@_register
@dataclass(frozen=True, slots=True)
class ListMatches(Message):
    """Asks for the latest finished matches; ``mine`` keeps only the sender's."""

    TYPE = "list_matches"
    SENDER = "client"
    SCHEMA = {"limit": s.integer(1, 100), "mine": s.boolean}
    OPTIONAL = frozenset({"limit", "mine"})
    limit: int = 30
    mine: bool = False


@_register
@dataclass(frozen=True, slots=True)
class GetReplay(Message):
    """Asks for steps ``start`` .. ``start + count - 1`` of a finished match's replay.
    ``password`` is the table's, for a match of a table with a password."""

    TYPE = "get_replay"
    SENDER = "client"
    SCHEMA = {
        "match": _MATCH_ID,
        "start": s.integer(0, 2**31),
        "count": s.integer(1, 50),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
    }
    OPTIONAL = frozenset({"start", "count", "password"})
    match: int
    start: int = 0
    count: int = 50
    password: str | None = None


# --- tournaments (client to server) ---------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class CreateTournament(Message):
    """Make a tournament and direct it. ``settings`` are its tables' settings (their
    ``seats`` is the table size); ``series`` how many series are played; ``deals``
    how many deals a series lasts (nil: a match to ``target_score``); ``final``
    whether the top players meet at one final table; ``bots`` whether bots fill short
    tables; ``late_join`` whether players may register between series;
    ``starts_in`` seconds until it starts by itself (nil: when the director says go)."""

    TYPE = "create_tournament"
    SENDER = "client"
    SCHEMA = {
        "name": s.text(TOURNAMENT_NAME_MAX, 1, printable=True),
        "settings": s.free_map(),
        "series": s.integer(1, TOURNAMENT_SERIES_MAX),
        "final": s.boolean,
        "bots": s.boolean,
        "late_join": s.boolean,
        "deals": s.optional(s.integer(1, TOURNAMENT_DEALS_MAX)),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
        "starts_in": s.optional(s.integer(0, 86_400)),
    }
    OPTIONAL = frozenset({"deals", "password", "starts_in"})
    name: str
    settings: dict[str, Any]
    series: int
    final: bool
    bots: bool
    late_join: bool
    deals: int | None = None
    password: str | None = None
    starts_in: int | None = None


@_register
@dataclass(frozen=True, slots=True)
class JoinTournament(Message):
    """Register for ``tournament`` (before it starts, or between series where the
    director allows late arrivals). The sender follows it from then on."""

    TYPE = "join_tournament"
    SENDER = "client"
    SCHEMA = {"tournament": _TOURNAMENT_ID, "password": s.optional(s.text(PASSWORD_MAX, 1))}
    OPTIONAL = frozenset({"password"})
    tournament: int
    password: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class LeaveTournament(Message):
    """Unregister from ``tournament`` (before it starts), or withdraw from it (once
    started: no seat in later series; the results so far stay in the standings)."""

    TYPE = "leave_tournament"
    SENDER = "client"
    SCHEMA = {"tournament": _TOURNAMENT_ID}
    tournament: int


@_register
@dataclass(frozen=True, slots=True)
class StartTournament(Message):
    """The director's "go": start ``tournament`` now, or its next series now during
    a break."""

    TYPE = "start_tournament"
    SENDER = "client"
    SCHEMA = {"tournament": _TOURNAMENT_ID}
    tournament: int


@_register
@dataclass(frozen=True, slots=True)
class CancelTournament(Message):
    """The director (or the host) calls ``tournament`` off, before or during play:
    its state becomes ``cancelled``; a series being played ends its tables' matches
    as ordinary ones (their results no longer count for it)."""

    TYPE = "cancel_tournament"
    SENDER = "client"
    SCHEMA = {
        "tournament": _TOURNAMENT_ID,
        "reason": s.optional(s.text(HOST_TEXT_MAX, 1, printable=True)),
    }
    OPTIONAL = frozenset({"reason"})
    tournament: int
    reason: str | None = None  # the host's words to its players (the director needs none)


@_register
@dataclass(frozen=True, slots=True)
class WatchTournament(Message):
    """Follow ``tournament``: a ``tournament`` message now and on every change. Nil
    stops following. A session follows one tournament at a time.

    The window of the ``tournament`` messages it gets: ``standings_from``, the first
    line of the standings (0: the top; the receiver's own line comes too, wherever
    it is); ``series``, whose tables (nil: the series being played or last played;
    ``series + 1``: the final); ``tables_from``, the first of that series' tables.
    The window holds until the next ``watch_tournament``."""

    TYPE = "watch_tournament"
    SENDER = "client"
    SCHEMA = {
        "tournament": s.optional(_TOURNAMENT_ID),
        "password": s.optional(s.text(PASSWORD_MAX, 1)),
        "standings_from": s.integer(0, TOURNAMENT_PLAYERS_MAX),
        "series": s.optional(s.integer(1, TOURNAMENT_SERIES_MAX + 1)),
        "tables_from": s.integer(0, TOURNAMENT_PLAYERS_MAX),
    }
    OPTIONAL = frozenset({"password", "standings_from", "series", "tables_from"})
    tournament: int | None
    password: str | None = None
    standings_from: int = 0
    series: int | None = None
    tables_from: int = 0


@_register
@dataclass(frozen=True, slots=True)
class Bye(Message):
    TYPE = "bye"
    SENDER = "client"
    SCHEMA = {}


# --- the host's (refused with not_host for everyone else) ---------------------------------

_HOST_TEXT = s.text(HOST_TEXT_MAX, 1, printable=True)
_SESSION_ID = s.text(64, 1)
_BAN_WHAT = s.one_of("name", "address")


@_register
@dataclass(frozen=True, slots=True)
class HostList(Message):
    """The host asks who is connected, who is banned and whether there is a server
    password: answered with ``host_view``."""

    TYPE = "host_list"
    SENDER = "client"
    SCHEMA = {}


@_register
@dataclass(frozen=True, slots=True)
class Kick(Message):
    """The host sends a session away: its connection is closed (``goodbye``, code
    ``kicked``, with the host's ``reason``) and the session forgotten."""

    TYPE = "kick"
    SENDER = "client"
    SCHEMA = {"session": _SESSION_ID, "reason": s.optional(_HOST_TEXT)}
    OPTIONAL = frozenset({"reason"})
    session: str
    reason: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class Mute(Message):
    """The host keeps a player (by name) out of chat for ``seconds``; 0 lifts it."""

    TYPE = "mute"
    SENDER = "client"
    SCHEMA = {
        "session": _SESSION_ID,
        "seconds": s.number(0, MUTE_MAX_S),
        "reason": s.optional(_HOST_TEXT),
    }
    OPTIONAL = frozenset({"reason"})
    session: str
    seconds: float
    reason: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class Ban(Message):
    """The host bans a name (compared as names are) or an address, for the server's
    ``life`` or for ``ever`` (kept in the database); whoever it matches is sent away."""

    TYPE = "ban"
    SENDER = "client"
    SCHEMA = {
        "what": _BAN_WHAT,
        "target": s.text(64, 1, printable=True, trimmed=True),
        "lasting": s.one_of("life", "ever"),
        "reason": s.optional(_HOST_TEXT),
    }
    OPTIONAL = frozenset({"reason"})
    what: str
    target: str
    lasting: str
    reason: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class Unban(Message):
    TYPE = "unban"
    SENDER = "client"
    SCHEMA = {"what": _BAN_WHAT, "target": s.text(64, 1, printable=True, trimmed=True)}
    what: str
    target: str


@_register
@dataclass(frozen=True, slots=True)
class CloseTable(Message):
    """The host closes a table: whoever is at it is told (``notice``) and sent to
    the lobby; a running match is recorded as abandoned."""

    TYPE = "close_table"
    SENDER = "client"
    SCHEMA = {"table": _TABLE_ID, "reason": s.optional(_HOST_TEXT)}
    OPTIONAL = frozenset({"reason"})
    table: int
    reason: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class SetPassword(Message):
    """The host sets the password every new session must give in its ``hello``
    (nil: none)."""

    TYPE = "set_password"
    SENDER = "client"
    SCHEMA = {"password": s.optional(s.text(PASSWORD_MAX, 1))}
    OPTIONAL = frozenset({"password"})
    password: str | None = None


@_register
@dataclass(frozen=True, slots=True)
class Announce(Message):
    """The host says something to everyone connected (a ``notice``)."""

    TYPE = "announce"
    SENDER = "client"
    SCHEMA = {"text": _HOST_TEXT}
    text: str


# --- server to client ---------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    TYPE = "welcome"
    SENDER = "server"
    SCHEMA = {
        "version": s.integer(0, 65535),
        "session": s.text(64, 1),
        "resume": s.text(128, 1),
        "name": _NAME,
        "resumed": s.boolean,
        "host": s.boolean,
    }
    version: int
    session: str
    resume: str
    name: str
    resumed: bool
    host: bool = False  # the session has the host's powers


ERROR_DETAIL_FIELDS: dict[str, s.Validator] = {
    "field": s.text(64, 1),
    "name": s.text(64, 1),
    "card": s.text(8, 1),
    "top": s.card,
    "named": _NAMED,
    "limit": s.integer(0, 2**32),
    "version": s.integer(0, 65535),
    "seconds": s.number(0, 1e7),
    "seat": s.integer(-(2**31), 2**31),
    "table": s.integer(0, 2**62),
    "tournament": s.integer(0, 2**62),
    "match": s.integer(0, 2**62),
    "count": s.integer(0, 2**32),
    "amount": s.integer(0, 1000),
    "answer": _ANSWER,
    "why": s.text(32, 1),
}
"""The facts an ``error`` may carry in ``details`` (docs/protocol.md lists, per code,
which ones): with ``code`` they let a client write the message in its own language.
``card`` is a card code, or what was sent in its place when it is none (``not_in_hand``
of a card that does not exist); ``seat`` may likewise be a number that is no seat."""
ERROR_DETAILS = s.record({}, ERROR_DETAIL_FIELDS)


@_register
@dataclass(frozen=True, slots=True)
class Error(Message):
    """Something the client sent was refused; ``ref`` is the type of that message."""

    TYPE = "error"
    SENDER = "server"
    SCHEMA = {
        "code": s.text(48, 1),
        "message": s.text(500),
        "ref": s.optional(s.text(32)),
        "fatal": s.boolean,
        "details": s.optional(ERROR_DETAILS),
    }
    OPTIONAL = frozenset({"ref", "details"})
    code: str
    message: str
    ref: str | None = None
    fatal: bool = False
    details: dict[str, Any] | None = None


_SEAT_INFO = s.record(
    {
        "name": s.optional(_NAME),
        "bot": s.boolean,
        "connected": s.boolean,
        "away": s.boolean,
        "ready": s.boolean,
    },
    {"level": _LEVEL},
)
_TABLE_SUMMARY = s.record(
    {
        "id": _TABLE_ID,
        "name": s.text(TABLE_NAME_MAX, 1),
        "variant": _VARIANT,
        "seats": s.array(_SEAT_INFO, 10),
        "spectators": s.integer(0, 10_000),
        "state": s.one_of("waiting", "playing", "finished"),
        "round": s.integer(0, 10_000),
        "locked": s.boolean,
    },
    {"tournament": _TOURNAMENT_ID, "rules": s.free_map()},
)
_TOURNAMENT_SUMMARY = s.record(
    {
        "id": _TOURNAMENT_ID,
        "name": s.text(TOURNAMENT_NAME_MAX, 1),
        "variant": _VARIANT,
        "state": s.one_of(*TOURNAMENT_STATES),
        "players": s.integer(0, TOURNAMENT_PLAYERS_MAX),
        "series_no": s.integer(0, TOURNAMENT_SERIES_MAX + 1),
        "series": s.integer(1, TOURNAMENT_SERIES_MAX),
        "director": s.optional(_NAME),
        "locked": s.boolean,
        "open": s.boolean,
    }
)


@_register
@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """Every table and every player online. Sent on entering the lobby and on changes."""

    TYPE = "lobby"
    SENDER = "server"
    SCHEMA = {
        "tables": s.array(_TABLE_SUMMARY, 10_000),
        "online": s.array(_NAME, 10_000),
        "more": s.integer(0, 2**31),
        "tournaments": s.array(_TOURNAMENT_SUMMARY, 100),
    }
    OPTIONAL = frozenset({"more", "tournaments"})
    tables: tuple[dict[str, Any], ...]
    online: tuple[str, ...]
    more: int = 0
    tournaments: tuple[dict[str, Any], ...] = ()

    def to_wire(self) -> dict[str, Any]:
        """``more`` is left out when it is 0, ``tournaments`` when there are none."""
        data = Message.to_wire(self)
        if not self.more:
            del data["more"]
        if not self.tournaments:
            del data["tournaments"]
        return data


@_register
@dataclass(frozen=True, slots=True)
class TableInfo(Message):
    """The table one sits at or watches: its settings, seats and spectators."""

    TYPE = "table"
    SENDER = "server"
    SCHEMA = {
        "id": _TABLE_ID,
        "name": s.text(TABLE_NAME_MAX, 1),
        "settings": s.free_map(),
        "seats": s.array(_SEAT_INFO, 10),
        "spectators": s.array(_NAME, 10_000),
        "state": s.one_of("waiting", "playing", "finished"),
        "creator": s.optional(_NAME),
        "you": s.optional(_SEAT),
        "paused": s.optional(s.one_of("cannot_save", "player")),
        "tournament": s.optional(s.record({"id": _TOURNAMENT_ID, "series": s.integer(1, 99)})),
        "rematch_ms": s.optional(s.integer(0, 3_600_000)),
    }
    OPTIONAL = frozenset({"paused", "tournament", "rematch_ms"})
    id: int
    name: str
    settings: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    spectators: tuple[str, ...]
    state: str
    creator: str | None
    you: int | None
    paused: str | None = None
    tournament: dict[str, Any] | None = None
    rematch_ms: int | None = None  # a rematch was asked for: it starts by itself in this


_LEGAL = s.record(
    {"kind": s.one_of("play", "draw", "pass", "challenge", "say_mau", "catch")},
    {"card": s.card, "named": _NAMED, "call": _CALL, "target": _SEAT},
)
_WINDOW = s.record(
    {
        "id": _SEQ,
        "seat": _SEAT,
        "final": s.boolean,
        "called": s.optional(_CALL),
        "catchable": s.boolean,
    }
)
_ROUND = s.record(
    {
        "round": s.integer(1, 100_000),
        "winner": _SEAT,
        "points": s.integer(0, 100_000),
        "hands": s.array(s.array(s.card, 108), 10),
        "hand_points": s.array(s.integer(0, 100_000), 10),
        "scores": s.array(s.integer(0, 10_000_000), 10),
    }
)


@_register
@dataclass(frozen=True, slots=True)
class View(Message):
    """What the receiver may know of the match now, and its legal actions."""

    TYPE = "view"
    SENDER = "server"
    SCHEMA = {
        "table": _TABLE_ID,
        "seq": _SEQ,
        "seat": s.optional(_SEAT),
        "phase": s.one_of("playing", "ending", "round_over", "match_over"),
        "round": s.integer(0, 100_000),
        "dealer": _SEAT,
        "turn": _SEAT,
        "direction": s.integer(-1, 1),
        "top": s.card,
        "named": s.optional(_NAMED),
        "penalty": s.integer(0, 1000),
        "penalty_kind": s.optional(s.one_of("seven", "draw_two", "wild_draw_four")),
        "hand_counts": s.array(s.integer(0, 108), 10),
        "scores": s.array(s.integer(0, 10_000_000), 10),
        "target": s.integer(1, 100_000),
        "stock": s.integer(0, 108),
        "discard": s.integer(0, 108),
        "windows": s.array(_WINDOW, 100),
        "last_round": s.optional(_ROUND),
        "winner": s.optional(_SEAT),
        "hand": s.optional(s.array(s.card, 108)),
        "drawn": s.optional(s.card),
        "legal": s.array(_LEGAL, 200),
        "turn_deadline_ms": s.optional(s.integer(0, 3_600_000)),
        "next_round_ms": s.optional(s.integer(0, 3_600_000)),
    }
    OPTIONAL = frozenset({"next_round_ms"})
    table: int
    seq: int
    seat: int | None
    phase: str
    round: int
    dealer: int
    turn: int
    direction: int
    top: str
    named: str | None
    penalty: int
    penalty_kind: str | None
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    stock: int
    discard: int
    windows: tuple[dict[str, Any], ...]
    last_round: dict[str, Any] | None
    winner: int | None
    hand: tuple[str, ...] | None
    drawn: str | None
    legal: tuple[dict[str, Any], ...]
    turn_deadline_ms: int | None
    next_round_ms: int | None = None


EVENT_FACTS: dict[str, s.Validator] = {
    "round": s.integer(1, 100_000),
    "dealer": _SEAT,
    "seat": _SEAT,
    "card": s.card,
    "top": s.card,
    "named": _NAMED,
    "first": _SEAT,
    "returned": s.integer(1, 8),
    "call": _CALL,
    "cards_left": s.integer(0, 108),
    "amount": s.integer(0, 1000),
    "count": s.integer(0, 1000),
    "wanted": s.integer(0, 1000),
    "answer": _ANSWER,
    "can_challenge": s.boolean,
    "may_play": s.boolean,
    "direction": s.integer(-1, 1),
    "catcher": _SEAT,
    "target": _SEAT,
    "final_card": s.boolean,
    "window": _SEQ,
    "challenger": _SEAT,
    "upheld": s.boolean,
    "winner": _SEAT,
    "points": s.integer(0, 100_000),
    "scores": _SCORES,
}
"""Every fact an ``event`` may carry, in the order they are sent. Which ones a kind
carries is listed in docs/protocol.md (and :data:`KIND_FACTS`)."""

KIND_FACTS: dict[str, tuple[str, ...]] = {
    "round_dealt": ("round", "dealer", "top", "named", "first", "returned"),
    "card_played": ("seat", "card", "named", "call", "cards_left"),
    "penalty_pending": ("seat", "amount", "answer", "can_challenge"),
    "penalty_drawn": ("seat", "count", "wanted", "answer"),
    "skipped": ("seat",),
    "reversed": ("direction",),
    "card_drawn": ("seat", "count", "may_play"),
    "passed": ("seat",),
    "reshuffled": ("count",),
    "mau_said": ("seat", "call"),
    "caught": ("catcher", "target", "count", "final_card", "card"),
    "false_catch": ("catcher", "target", "count"),
    "call_window_closed": ("seat", "window"),
    "challenge_decided": ("challenger", "target", "upheld"),
    "timed_out": ("seat",),
    "round_ended": ("round", "winner", "points", "scores"),
    "match_ended": ("winner", "scores"),
}
"""The facts of each kind of event this version knows (on the wire they come in the
order of :data:`EVENT_FACTS`)."""
KIND_OPTIONAL_FACTS: dict[str, frozenset[str]] = {
    "round_dealt": frozenset({"named", "returned"}),
    "card_played": frozenset({"named", "call"}),
    "penalty_drawn": frozenset({"answer"}),
    "caught": frozenset({"card"}),
}
"""The facts a kind carries only sometimes (the others are always present)."""


@_register
@dataclass(frozen=True, slots=True)
class GameEvent(Message):
    """One change at the table: ``kind`` names the engine event and the facts of that
    kind follow as fields of their own (see :data:`KIND_FACTS`). It carries no
    sentence: whoever shows it writes one from :meth:`facts`
    (:func:`maumau.protocol.sentences.event_line`, in any language)."""

    TYPE = "event"
    SENDER = "server"
    SCHEMA = {
        "table": _TABLE_ID,
        "seq": _SEQ,
        "kind": s.text(32, 1),
        **{name: s.optional(check) for name, check in EVENT_FACTS.items()},
    }
    OPTIONAL = frozenset(EVENT_FACTS)
    table: int
    seq: int
    kind: str
    round: int | None = None
    dealer: int | None = None
    seat: int | None = None
    card: str | None = None
    top: str | None = None
    named: str | None = None
    first: int | None = None
    returned: int | None = None
    call: str | None = None
    cards_left: int | None = None
    amount: int | None = None
    count: int | None = None
    wanted: int | None = None
    answer: str | None = None
    can_challenge: bool | None = None
    may_play: bool | None = None
    direction: int | None = None
    catcher: int | None = None
    target: int | None = None
    final_card: bool | None = None
    window: int | None = None
    challenger: int | None = None
    upheld: bool | None = None
    winner: int | None = None
    points: int | None = None
    scores: tuple[int, ...] | None = None

    def facts(self) -> dict[str, Any]:
        """``kind`` and every fact present: the map a replay step's ``events`` holds."""
        return event_facts(self.to_wire())

    @classmethod
    def from_facts(cls, table: int, seq: int, facts: dict[str, Any]) -> GameEvent:
        """The event a replay step's ``events`` entry stands for."""
        return cls(table, seq, **facts)


def event_facts(data: dict[str, Any]) -> dict[str, Any]:
    """The facts of an ``event`` map (``kind`` plus every fact, without ``type``,
    ``table`` and ``seq``); the map's own key order is kept."""
    return {k: v for k, v in data.items() if k not in _NOT_FACTS}


_NOT_FACTS = frozenset({"type", "table", "seq"})
_EVENT_FACTS_MAP = s.record({"kind": s.text(32, 1)}, EVENT_FACTS)


_STAMP = s.record(
    {
        "seat": _SEAT,
        "what": s.one_of("call", "catch"),
        "after_ms": s.number(-1e7, 1e7),
        "shift_ms": s.number(0, 1e4),
    },
    {"call": _CALL, "basis": s.one_of("measured", "usual", "refused")},
)


@_register
@dataclass(frozen=True, slots=True)
class MauDecision(Message):
    """How the arbiter decided a call window's race, with server-clock stamps
    relative to the play that opened it (after lag compensation ``shift_ms``)."""

    TYPE = "mau_decision"
    SENDER = "server"
    SCHEMA = {
        "table": _TABLE_ID,
        "seq": _SEQ,
        "window": _SEQ,
        "seat": _SEAT,
        "outcome": s.one_of("called", "caught"),
        "stamps": s.array(_STAMP, 20),
    }
    table: int
    seq: int
    window: int
    seat: int
    outcome: str
    stamps: tuple[dict[str, Any], ...]


@_register
@dataclass(frozen=True, slots=True)
class ChatLine(Message):
    TYPE = "chat_line"
    SENDER = "server"
    SCHEMA = {
        "scope": s.one_of("lobby", "table"),
        "sender": _NAME,
        "text": s.text(CHAT_MAX, 1, printable=True),
    }
    scope: str
    sender: str
    text: str


_PLAYER_STATS = s.record(
    {
        "name": _NAME,
        "matches": s.integer(0, 2**31),
        "wins": s.integer(0, 2**31),
        "rounds_won": s.integer(0, 2**31),
        "average_score": s.number(0, 1e9),
    }
)


@_register
@dataclass(frozen=True, slots=True)
class Stats(Message):
    """The leaderboard of human players, best first, and the receiver's own line."""

    TYPE = "stats"
    SENDER = "server"
    SCHEMA = {
        "leaders": s.array(_PLAYER_STATS, 100),
        "you": s.optional(_PLAYER_STATS),
        "variant": s.optional(_VARIANT),
    }
    OPTIONAL = frozenset({"variant"})
    leaders: tuple[dict[str, Any], ...]
    you: dict[str, Any] | None
    variant: str | None = None  # the game counted (as asked); nil: both


_MATCH_SUMMARY = s.record(
    {
        "id": _MATCH_ID,
        "table": s.text(TABLE_NAME_MAX, 1),
        "variant": _VARIANT,
        "names": s.array(_NAME, 10),
        "bots": s.array(s.boolean, 10),
        "scores": s.array(s.integer(0, 10_000_000), 10),
        "winner": _SEAT,
        "finished": s.number(0, 1e11),
        "rounds": s.integer(0, 100_000),
    }
)


@_register
@dataclass(frozen=True, slots=True)
class Matches(Message):
    """Finished matches, newest first (``finished`` is a Unix time in seconds)."""

    TYPE = "matches"
    SENDER = "server"
    SCHEMA = {"matches": s.array(_MATCH_SUMMARY, 100)}
    matches: tuple[dict[str, Any], ...]


_REPLAY_STEP = s.record(
    {
        "n": s.integer(0, 2**31),
        "round": s.integer(1, 100_000),
        "phase": s.one_of("playing", "ending", "round_over", "match_over"),
        "turn": _SEAT,
        "direction": s.integer(-1, 1),
        "top": s.card,
        "named": s.optional(_NAMED),
        "penalty": s.integer(0, 1000),
        "hands": s.array(s.array(s.card, 108), 10),
        "scores": s.array(s.integer(0, 10_000_000), 10),
        "stock": s.integer(0, 108),
        "events": s.array(_EVENT_FACTS_MAP, 50),
    }
)


@_register
@dataclass(frozen=True, slots=True)
class Replay(Message):
    """A page of a finished match's replay: step 0 is the first deal, each later step
    the match after an action that changed something, with every hand revealed."""

    TYPE = "replay"
    SENDER = "server"
    SCHEMA = {
        "match": _MATCH_ID,
        "table": s.text(TABLE_NAME_MAX, 1),
        "variant": _VARIANT,
        "names": s.array(_NAME, 10),
        "bots": s.array(s.boolean, 10),
        "total": s.integer(1, 2**31),
        "start": s.integer(0, 2**31),
        "steps": s.array(_REPLAY_STEP, 50),
    }
    match: int
    table: str
    variant: str
    names: tuple[str, ...]
    bots: tuple[bool, ...]
    total: int
    start: int
    steps: tuple[dict[str, Any], ...]


_STANDING = s.record(
    {
        "rank": s.integer(1, TOURNAMENT_PLAYERS_MAX),
        "name": _NAME,
        "points": s.integer(0, 100 * (TOURNAMENT_SERIES_MAX + 1)),
        "score": s.integer(0, 10**9),
        "firsts": s.integer(0, TOURNAMENT_SERIES_MAX + 1),
        "played": s.integer(0, TOURNAMENT_SERIES_MAX + 1),
        "byes": s.integer(0, TOURNAMENT_SERIES_MAX),
        "withdrawn": s.boolean,
        "connected": s.boolean,
        "line": s.integer(0, TOURNAMENT_PLAYERS_MAX - 1),
    },
    {"table": _TABLE_ID, "table_no": s.integer(1, TOURNAMENT_PLAYERS_MAX)},
)
_TOURNAMENT_TABLE = s.record(
    {
        "id": _TABLE_ID,
        "series": s.integer(1, TOURNAMENT_SERIES_MAX + 1),
        "no": s.integer(1, TOURNAMENT_PLAYERS_MAX),
        "names": s.array(_NAME, 10),
        "bots": s.array(s.boolean, 10),
        "state": s.one_of("waiting", "playing", "finished"),
        "round": s.integer(0, 10_000),
        "scores": s.array(s.integer(0, 10_000_000), 10),
        "points": s.array(s.integer(0, 100), 10),
    }
)


@_register
@dataclass(frozen=True, slots=True)
class Tournament(Message):
    """A tournament, to the players registered for it and whoever follows it: sent on
    joining or watching it and on every change (see docs/protocol.md, Tournaments).

    A window of it (see :class:`WatchTournament`): ``standings`` are up to
    TOURNAMENT_STANDINGS_PAGE lines, best first, each with ``line``, its place in
    the whole standings (``players`` lines in all), and the receiver's own line
    after them if it is not among them; ``tables`` up to TOURNAMENT_TABLES_PAGE
    tables of one series (``tables_total`` in all; the receiver's own table after
    them if it is not among them; ``points`` per seat: the tournament points of its
    placing, once its match is over); ``series_no`` is the series being played or
    last played (0 before the start; ``series + 1`` is the final); ``starts_in`` the
    seconds until the next start (nil: when the director says go, or while a series
    runs); ``clock`` the seconds the current series has run; ``you`` the receiver's
    line in ``standings`` (its index in the list sent), nil if not registered."""

    TYPE = "tournament"
    SENDER = "server"
    SCHEMA = {
        "id": _TOURNAMENT_ID,
        "name": s.text(TOURNAMENT_NAME_MAX, 1),
        "director": s.optional(_NAME),
        "settings": s.free_map(),
        "series": s.integer(1, TOURNAMENT_SERIES_MAX),
        "deals": s.optional(s.integer(1, TOURNAMENT_DEALS_MAX)),
        "final": s.boolean,
        "bots": s.boolean,
        "late_join": s.boolean,
        "locked": s.boolean,
        "state": s.one_of(*TOURNAMENT_STATES),
        "series_no": s.integer(0, TOURNAMENT_SERIES_MAX + 1),
        "starts_in": s.optional(s.number(0, 1e6)),
        "clock": s.optional(s.number(0, 1e7)),
        "standings": s.array(_STANDING, TOURNAMENT_STANDINGS_PAGE + 1),
        "players": s.integer(0, TOURNAMENT_PLAYERS_MAX),
        "tables": s.array(_TOURNAMENT_TABLE, TOURNAMENT_TABLES_PAGE + 1),
        "tables_total": s.integer(0, TOURNAMENT_PLAYERS_MAX),
        "you": s.optional(s.integer(0, TOURNAMENT_STANDINGS_PAGE)),
    }
    id: int
    name: str
    director: str | None
    settings: dict[str, Any]
    series: int
    deals: int | None
    final: bool
    bots: bool
    late_join: bool
    locked: bool
    state: str
    series_no: int
    starts_in: float | None
    clock: float | None
    standings: tuple[dict[str, Any], ...]
    players: int
    tables: tuple[dict[str, Any], ...]
    tables_total: int
    you: int | None


GOODBYE_CODES = ("shutdown", "replaced", "kicked", "banned")


@_register
@dataclass(frozen=True, slots=True)
class Goodbye(Message):
    """The server is closing this connection (shutting down, or replaced by a newer
    connection of the same session)."""

    TYPE = "goodbye"
    SENDER = "server"
    SCHEMA = {
        "reason": s.text(200, 1),
        "code": s.one_of(*GOODBYE_CODES),
        "by": s.optional(_NAME),
        "note": s.optional(_HOST_TEXT),
    }
    OPTIONAL = frozenset({"by", "note"})
    reason: str
    code: str
    by: str | None = None  # kicked, banned: the host who did it
    note: str | None = None  # kicked, banned: the host's own words, if any


_HOST_CONNECTION = s.record(
    {
        "session": _SESSION_ID,
        "name": _NAME,
        "since": s.number(0, 1e10),
        "rate": s.number(0, 1e6),
        "host": s.boolean,
        "muted": s.number(0, MUTE_MAX_S),
    },
    {"address": s.text(64, 1), "table": _TABLE_ID},
)
_HOST_BAN = s.record(
    {
        "what": _BAN_WHAT,
        "target": s.text(64, 1),
        "lasting": s.one_of("life", "ever"),
        "by": _NAME,
    },
    {"reason": _HOST_TEXT},
)


@_register
@dataclass(frozen=True, slots=True)
class HostView(Message):
    """What the host sees (answers ``host_list``): the connected sessions, longest
    connected first; the bans; whether the server asks a password."""

    TYPE = "host_view"
    SENDER = "server"
    SCHEMA = {
        "connections": s.array(_HOST_CONNECTION, HOST_CONNECTIONS_MAX),
        "connections_total": s.integer(0, 2**32),
        "bans": s.array(_HOST_BAN, BANS_MAX),
        "password": s.boolean,
    }
    connections: tuple[dict[str, Any], ...]
    connections_total: int
    bans: tuple[dict[str, Any], ...]
    password: bool


NOTICE_KINDS = ("announcement", "muted", "unmuted", "table_closed", "tournament_cancelled")


@_register
@dataclass(frozen=True, slots=True)
class Notice(Message):
    """The host (``by``) did something the receiver should know of: ``kind`` says
    what; ``text`` is the host's own words (the announcement, or the reason)."""

    TYPE = "notice"
    SENDER = "server"
    SCHEMA = {
        "kind": s.one_of(*NOTICE_KINDS),
        "by": _NAME,
        "text": s.optional(_HOST_TEXT),
        "seconds": s.optional(s.number(0, MUTE_MAX_S)),
        "table": s.optional(_TABLE_ID),
        "tournament": s.optional(_TOURNAMENT_ID),
    }
    OPTIONAL = frozenset({"text", "seconds", "table", "tournament"})
    kind: str
    by: str
    text: str | None = None
    seconds: float | None = None  # muted: for how long
    table: int | None = None  # table_closed
    tournament: int | None = None  # tournament_cancelled


def decode_message(data: Any, sender: str) -> Message:
    """Check a decoded msgpack value sent by ``sender`` and build its message."""
    if type(data) is not dict:
        raise MessageError("bad_message", "a message must be a map")
    kind = data.get("type")
    if type(kind) is not str:
        raise MessageError(
            "bad_message", "a message needs a string field 'type'", None, {"field": "type"}
        )
    cls = MESSAGE_TYPES.get(kind)
    if cls is None or cls.SENDER not in ("both", sender):
        raise MessageError("unknown_type", f"unknown message type {kind!r}", kind)
    values: dict[str, Any] = {}
    try:
        for name, check in cls.SCHEMA.items():
            if name in data:
                values[name] = check(data[name], f"{kind}.{name}")
            elif name not in cls.OPTIONAL:
                raise s.SchemaError(f"{kind}.{name}", "is missing")
        for key in data:
            if key != "type" and key not in cls.SCHEMA:
                raise s.SchemaError(f"{kind}.{key}", "is not a known field")
    except s.SchemaError as error:
        raise MessageError("bad_message", str(error), kind, {"field": error.path[:64]}) from None
    return cls(**values)

"""One table: its seats, spectators, match, timers and bots.

Theory of operation
-------------------
Everything at a table happens in the server's single trio thread. Connection tasks
call the table's plain (non-async) methods when a message arrives; each method checks
the request, changes the match through the rules engine, and queues the resulting
messages for every seat and spectator. Nothing awaits in between, so no locks are
needed and every change is seen in one order.

Time lives in :meth:`Table.run`, one task per table. It sleeps until the earliest
deadline (a call window's minimum time, the turn timer, a bot's move, a bot's catch,
the arbiter's decision, a reconnect grace, the pause between rounds) and then does
what is due; a change that brings a deadline forward moves the deadline of the cancel
scope it sleeps in, without waking it. All deadlines are on ``trio.current_time()``,
so tests drive them with ``MockClock``.

While the server cannot save (see :mod:`maumau.server.server`), every table is
*paused*: :meth:`Table.pause` stops its clock (the timer task sleeps with no deadline,
nothing is due) and tells its people at once; :meth:`Table.resume` moves every
deadline and pending claim later by the length of the pause, so each timer goes on
with the time it had left.

The table belongs to its creator's *session* (its id, kept in the table's record, so
it survives restarts), never to a name: only that session may ``start_match``. When
the creator leaves the table (``leave_table``, ``bye``, moving to another table, or
being forgotten), the table passes to the human at the lowest seat still held by a
player, else to the spectator watching longest, else to nobody; ``table.creator``
names whoever holds it. A creator who only disconnects keeps it.

Seats are played by bots when the seat is a bot seat, when its player is *away*
(3 turn timeouts in a row) or has been disconnected for longer than
``reconnect_grace_s``. A returning player takes the seat back at once.

After every change each seated player receives its own ``view`` (with its legal
actions), spectators the public one, and everybody the ``event`` lines in plain words.
Events and views carry the table's sequence number. As this happens for every change,
the views are made with care for speed: the public part is read from the match state
and packed once, and each seat's own part (hand, drawn card, legal actions) is packed
onto it; a seat not on turn reuses its last packed part while nothing in it changed.
``tests/test_view_frames.py`` holds the bytes to :func:`public_view` and
:func:`private_view`.
"""

from __future__ import annotations

import functools
import logging
import math
import random
import re
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgpack
import trio

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, NO_SUIT, SUIT_CODES, card_from_code
from maumau.protocol.codec import HEADER, encode_frame
from maumau.protocol.messages import (
    ChallengeCard,
    ChatLine,
    DrawCard,
    Error,
    GameEvent,
    MauDecision,
    Message,
    PassTurn,
    PlayCard,
    TableInfo,
    View,
)

from . import bots
from .arbiter import Arbiter, Claim, compensation, decision_text
from .rules import (
    Action,
    Catch,
    Challenge,
    Draw,
    EndCallWindow,
    Event,
    IllegalAction,
    MatchState,
    NextRound,
    Pass,
    Play,
    PrivateView,
    SayMau,
    Settings,
    TurnTimeout,
    action_from_record,
    action_to_record,
    apply,
    describe,
    new_match,
    private_view,
    public_view,
    view,
)
from .rules.engine import catchable
from .rules.events import CardPlayed, FalseCatch
from .rules.views import PENALTY_KINDS, RoundView
from .store import JournalEntry, MatchRecord, Store, TableRecord

if TYPE_CHECKING:
    from .server import Server, Session

log = logging.getLogger("maumau.table")

BOT_NAMES = ["Ada", "Bert", "Cleo", "Dan", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jo"]
AWAY_AFTER_TIMEOUTS = 3
ROUND_PAUSE_S = 20.0
UNWATCHED_ROUND_PAUSE_S = 5.0
MIN_BOT_CATCH_DELAY = 0.3
MAX_STAMPS = 20  # stamps one mau_decision carries (the protocol's limit)


@dataclass(slots=True)
class SeatState:
    name: str | None = None
    session: Session | None = None
    bot: bool = False
    level: str = bots.DEFAULT_LEVEL
    away: bool = False
    ready: bool = False
    timeouts: int = 0
    disconnected_at: float | None = None

    @property
    def taken(self) -> bool:
        return self.bot or self.name is not None


@functools.cache
def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def action_to_wire(action: Action, classic: bool) -> dict[str, Any]:
    if isinstance(action, Play):
        data: dict[str, Any] = {"kind": "play", "card": CODE_OF[action.card]}
        if action.named >= 0:
            data["named"] = (SUIT_CODES if classic else COLOUR_CODES)[action.named]
        return data
    if isinstance(action, Draw):
        return {"kind": "draw"}
    if isinstance(action, Pass):
        return {"kind": "pass"}
    if isinstance(action, Challenge):
        return {"kind": "challenge"}
    if isinstance(action, SayMau):
        return {"kind": "say_mau", "call": action.call}
    if isinstance(action, Catch):
        return {"kind": "catch", "target": action.target}
    raise TypeError(action)


EVENTS_AND_VIEW = (GameEvent, View)


def _round_wire(last: RoundView | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "round": last.round_no,
        "winner": last.winner,
        "points": last.points,
        "hands": last.hands,
        "hand_points": last.hand_points,
        "scores": last.scores,
    }


PRIVATE_KEYS = ("seat", "hand", "drawn", "legal")


def map_body(data: dict[str, Any]) -> bytes:
    """``data`` packed as a msgpack map, without the map's header."""
    packed: bytes = msgpack.packb(data)
    return packed[1:] if len(data) < 16 else packed[3:]


def _map_header(count: int) -> bytes:
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _array_header(count: int) -> bytes:
    return bytes((0x90 | count,)) if count < 16 else b"\xdc" + count.to_bytes(2, "big")


@functools.cache
def _packed_action(action: Action, classic: bool) -> bytes:
    packed: bytes = msgpack.packb(action_to_wire(action, classic))
    return packed


_LEGAL_KEY: bytes = msgpack.packb("legal")
_LAST_ROUND_KEY: bytes = msgpack.packb("last_round")


def private_body(mine: PrivateView, classic: bool) -> bytes:
    """``seat``, ``hand``, ``drawn`` and ``legal``, packed as the end of a map's body."""
    private = map_body({"seat": mine.seat, "hand": mine.hand, "drawn": mine.drawn})
    legal = _array_header(len(mine.legal)) + b"".join(
        _packed_action(action, classic) for action in mine.legal
    )
    return private + _LEGAL_KEY + legal


def view_frame(count: int, public_body: bytes, private: bytes) -> bytes:
    """One ``view`` frame: the public part, packed once per change (``public_body``,
    from :func:`map_body`), then the seat's own (from :func:`private_body`); ``count``
    is the number of keys in all. The bytes are those of packing the whole map at
    once, without repacking the public part for every seat."""
    body = b"".join((_map_header(count), public_body, private))
    return HEADER.pack(len(body)) + body


class TableError(Exception):
    """A request about the table (not a move) that cannot be granted."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Table:
    """See the module docstring."""

    def __init__(
        self,
        server: Server,
        table_id: int,
        name: str,
        settings: Settings,
        creator: str | None,
        password: str | None,
        bot_seats: dict[int, str],
        seed: int,
        creator_session: str | None = None,
    ) -> None:
        self.server = server
        self.id = table_id
        self.name = name
        self.settings = settings
        self.settings_wire = settings.to_dict()
        self.creator = creator  # the name shown; the session below is who it is
        self.creator_session = creator_session
        self.origin_session = creator_session  # who made it, for the lobby's caps
        self.origin_address: str | None = None  # where they connected from
        self.password = password
        self.seats = [SeatState() for _ in range(settings.seats)]
        for seat, level in bot_seats.items():
            self._make_bot(seat, level)
        self.spectators: list[Session] = []
        self.status = "waiting"
        self.match: MatchState | None = None
        self.match_id: int | None = None  # the match's number in the store
        self.journal_n = 0  # actions of the current match journaled so far
        self.seq = 0
        self.rng = random.Random(seed)
        self.arbiter = Arbiter()
        self.window_opened: dict[int, float] = {}
        self.window_due: dict[int, float] = {}
        self.turn_due: float | None = None
        self.bot_due: float | None = None
        self.bot_catch_due: dict[int, float] = {}
        self.next_round_due: float | None = None
        self.closed = False
        self.paused_at: float | None = None  # while the server cannot save
        # The last table_info sent, and the last one known saved (see _send_pause).
        self.info_sent: dict[str, Any] | None = None
        self.info_saved: dict[str, Any] | None = None
        self._thinking: tuple[int, int] | None = None  # (seat, action_no) a hard bot ponders
        self._sleep: trio.CancelScope | None = None  # the timer task's, while it sleeps
        self._last_round_of: object = self  # the round result _last_round_packed shows
        self._last_round_packed = b""
        self._last_private: dict[int | None, tuple[object, bytes]] = {}

    # --- membership ---------------------------------------------------------------

    def _make_bot(self, seat: int, level: str = bots.DEFAULT_LEVEL) -> None:
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat} at this table")
        if level not in bots.LEVELS:
            raise TableError("bad_settings", f"bot level must be one of {', '.join(bots.LEVELS)}")
        used = {s.name for s in self.seats} | {self.creator}
        name = next(n for n in BOT_NAMES if n not in used)
        self.seats[seat] = SeatState(name=name, bot=True, level=level, ready=True)

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def check_password(self, password: str | None) -> None:
        if self.password is not None and password != self.password:
            raise TableError("wrong_password", "this table is locked; the password is wrong")

    def check_open(self) -> None:
        if self.closed:
            raise TableError("no_such_table", f"table {self.id} has closed")

    def free_seat(self, seat: int | None, password: str | None) -> int:
        """The seat a join would take; raises TableError if it cannot be had."""
        self.check_open()
        self.check_password(password)
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if not s.taken]
            if not free:
                raise TableError("table_full", "every seat at this table is taken")
            seat = free[0]
        elif not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat} at this table")
        elif self.seats[seat].taken:
            raise TableError("seat_taken", f"seat {seat} is taken")
        if self.status != "waiting":
            raise TableError("match_running", "the match has started; watch it instead")
        return seat

    def join(self, session: Session, seat: int | None, password: str | None) -> int:
        seat = self.free_seat(seat, password)
        self.seats[seat] = SeatState(name=session.name, session=session)
        self._log(f"{session.name} sits at seat {seat}")
        self.changed()
        return seat

    def watch(self, session: Session, password: str | None) -> None:
        self.check_open()
        self.check_password(password)
        if session in self.spectators:
            raise TableError("already_watching", "you are already watching this table")
        if self.seat_of(session) is not None:
            raise TableError("already_seated", "you sit at this table")
        self.spectators.append(session)
        self._log(f"{session.name} watches")
        self.changed()
        if self.match is not None:
            self._send_views([session])

    def leave(self, session: Session) -> None:
        if session in self.spectators:
            self.spectators.remove(session)
        for i, seat in enumerate(self.seats):
            if seat.session is session:
                if self.status == "playing":
                    # The seat stays; a bot plays it from now on.
                    seat.session = None
                    seat.away = True
                    seat.disconnected_at = None
                else:
                    self.seats[i] = SeatState()
                self._log(f"{session.name} leaves seat {i}")
        if self.is_creator(session):
            self._hand_over()
        self.changed()
        self._schedule()

    def is_creator(self, session: Session) -> bool:
        """Whether ``session`` holds the table: by its id, never by its name (another
        connection may use the same name once the creator's session has gone)."""
        return self.creator_session is not None and session.id == self.creator_session

    def _hand_over(self) -> None:
        """The creator has gone: the table passes to the human at the lowest seat still
        held by a player, else to the spectator watching longest, else to nobody."""
        heirs = [s.session for s in self.seats if s.session is not None]
        heirs += self.spectators
        heir = heirs[0] if heirs else None
        self.creator = heir.name if heir is not None else None
        self.creator_session = heir.id if heir is not None else None
        if heir is not None:
            self._log(f"{heir.name} holds the table now")

    def seat_of(self, session: Session) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.session is session:
                return i
        return None

    def disconnected(self, session: Session) -> None:
        seat = self.seat_of(session)
        if seat is not None:
            self.seats[seat].disconnected_at = self.now()
            self._log(f"{session.name} (seat {seat}) disconnected; the seat is kept")
        if session in self.spectators:
            self.spectators.remove(session)
        self.changed()
        self._schedule()

    def reconnected(self, session: Session) -> None:
        seat = self.seat_of(session)
        if seat is None and session not in self.spectators:
            self.spectators.append(session)
        if seat is not None:
            self.seats[seat].disconnected_at = None
            self.seats[seat].away = False
            self._log(f"{session.name} is back at seat {seat}")
        self.changed()
        if self.match is not None:
            self._send_views([session])
        if self.paused_at is not None:
            self._send_pause()  # why nothing else comes yet
        self._schedule()

    def has_connected_humans(self) -> bool:
        return any(s.session is not None and s.session.connected for s in self.seats) or any(
            s.connected for s in self.spectators
        )

    def has_humans(self) -> bool:
        return any(s.session is not None for s in self.seats) or bool(self.spectators)

    # --- starting ----------------------------------------------------------------------

    def set_ready(self, session: Session, ready: bool) -> None:
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "you are not sitting at this table")
        self.seats[seat].ready = ready
        self.changed()
        if self.status == "waiting" and all(s.taken and s.ready for s in self.seats):
            self._start_match()
        elif self.match is not None and self.match.phase == "round_over":
            self._maybe_next_round()

    def start(self, session: Session) -> None:
        if not self.is_creator(session):
            who = f"only {self.creator}, who holds the table," if self.creator else "nobody"
            raise TableError("not_creator", f"{who} can start it")
        if self.status == "playing":
            raise TableError("match_running", "the match is already running")
        for i, seat in enumerate(self.seats):
            if not seat.taken:
                self._make_bot(i)
        self._start_match()

    def rematch(self, session: Session) -> None:
        if self.status != "finished":
            raise TableError("match_running", "a rematch can start only after the match")
        if self.seat_of(session) is None:
            raise TableError("not_seated", "only players at the table can ask for a rematch")
        for i, seat in enumerate(self.seats):
            if not seat.taken or (not seat.bot and seat.session is None):
                self._make_bot(i)  # empty, or its player left
        self._start_match()

    def _start_match(self) -> None:
        self.status = "playing"
        seed = self.rng.randrange(2**63)
        self.match, events = new_match(self.settings, seed)
        self.journal_n = 0
        store = self.server.store
        self.match_id = None
        if store is not None:
            try:
                self.match_id = store.start_match(
                    self.id, self.name, self.settings_wire, seed, self.names(), self.bot_flags()
                )
            except sqlite3.Error:
                log.exception("table %d: the match could not be recorded", self.id)
        for seat in self.seats:
            seat.timeouts = 0
            seat.ready = seat.bot
        self.window_opened.clear()
        self.window_due.clear()
        self._log(f"match starts ({self.settings.variant}, {len(self.seats)} seats)")
        self.changed()
        self._after_change(events, turn_ended=True)

    # --- moves -----------------------------------------------------------------------

    def player_message(self, session: Session, message: Message, stamp: float) -> None:
        """A move from a seated player: play, draw, pass, challenge, say Mau, catch."""
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "spectators cannot play")
        match = self.match
        if match is None or self.status != "playing":
            raise TableError("no_match", "no match is running at this table")
        seat_state = self.seats[seat]
        if seat_state.away:
            seat_state.away = False
            self._log(f"{session.name} is back from away")
            self.changed()
        seat_state.timeouts = 0
        classic = self.settings.is_classic
        if message.TYPE in ("say_mau", "catch"):
            shift = compensation(
                session.rtt, self.settings.lag_compensation, self.settings.lag_compensation_max_ms
            )
            if message.TYPE == "say_mau":
                call = message.call  # type: ignore[attr-defined]
                self.arbiter.add("call", seat, stamp, shift, call=call, sender=session)
            else:
                target = message.target  # type: ignore[attr-defined]
                self.arbiter.add("catch", seat, stamp, shift, target=target, sender=session)
            self._schedule()
            return
        action: Action
        if isinstance(message, PlayCard):
            card = card_from_code(message.card)
            named = -1
            if message.named is not None:
                letters = SUIT_CODES if classic else COLOUR_CODES
                if message.named not in letters:
                    what = "a suit (S H D C)" if classic else "a colour (R Y G B)"
                    raise IllegalAction("bad_name", f"name {what}, not {message.named!r}")
                named = letters.index(message.named)
            action = Play(seat, card, named, message.call)  # type: ignore[arg-type]
        elif isinstance(message, DrawCard):
            action = Draw(seat)
        elif isinstance(message, PassTurn):
            action = Pass(seat)
        elif isinstance(message, ChallengeCard):
            action = Challenge(seat)
        else:  # pragma: no cover - the server routes only moves here
            raise TableError("bad_move", f"{message.TYPE} is not a move")
        self._turn_action(action, stamp)

    def _turn_action(self, action: Action, stamp: float | None = None) -> None:
        assert self.match is not None
        self._decide_claims()
        played_at = self.match.action_no  # the id of a window this play opens
        events = apply(self.match, action)  # raises IllegalAction, state unchanged
        self._after_change(events, turn_ended=self.match.drawn < 0, action=action)
        for event in events:
            if isinstance(event, CardPlayed) and event.call:
                # The call came with the play: it was first, at the moment of the play.
                now = trio.current_time() if stamp is None else stamp
                claim = Claim("call", event.seat, now, 0.0, 0, call=event.call)
                self._send_decision(played_at, event.seat, "called", [claim], now)

    # --- the arbiter -------------------------------------------------------------------

    def _decide_claims(self) -> None:
        if not self.arbiter.pending or self.match is None:
            return
        match = self.match
        names = self.names()
        by_window: dict[int, tuple[int, list[Claim], list[str], float]] = {}
        for claim in self.arbiter.take():
            target = claim.seat if claim.kind == "call" else claim.target
            window = _window_for(match, claim)
            opened = self.window_opened.get(window, claim.stamp) if window is not None else 0.0
            action: Action = (
                SayMau(claim.seat, claim.call)
                if claim.kind == "call"
                else Catch(claim.seat, claim.target)
            )
            try:
                events = apply(match, action)
            except IllegalAction as error:
                if claim.sender is not None:
                    claim.sender.send(Error(error.code, error.reason, claim_type(claim), False))
                if window is not None and window in by_window:
                    by_window[window][1].append(claim)
                continue
            if window is not None and not any(isinstance(e, FalseCatch) for e in events):
                outcome = "called" if claim.kind == "call" else "caught"
                by_window.setdefault(window, (target, [], [], opened))
                by_window[window][1].append(claim)
                by_window[window][2].append(outcome)
            self._after_change(events, turn_ended=False, action=action)
        for window, (target, claims, outcomes, opened) in by_window.items():
            text = decision_text(names, target, opened, claims, outcomes[0])
            self._send_decision_text(window, target, outcomes[0], claims, opened, text)

    def _send_decision(
        self, window: int, seat: int, outcome: str, claims: list[Claim], opened: float
    ) -> None:
        text = decision_text(self.names(), seat, opened, claims, outcome)
        self._send_decision_text(window, seat, outcome, claims, opened, text)

    def _send_decision_text(
        self,
        window: int,
        seat: int,
        outcome: str,
        claims: list[Claim],
        opened: float,
        text: str,
    ) -> None:
        self.seq += 1
        stamps = tuple(
            {
                "seat": c.seat,
                "what": c.kind,
                "after_ms": round((c.effective - opened) * 1000, 3),
                "shift_ms": round(c.shift * 1000, 3),
            }
            for c in claims[:MAX_STAMPS]
        )
        text = text if len(text) <= 500 else text[:497] + "..."
        self._broadcast(MauDecision(self.id, self.seq, window, seat, outcome, stamps, text))

    # --- after every change -----------------------------------------------------------

    def _after_change(
        self, events: list[Event], turn_ended: bool, action: Action | None = None
    ) -> None:
        """Events, timers, the journal, then the views: in that order, so that nothing
        is sent before the action that caused it is journaled."""
        match = self.match
        assert match is not None
        now = trio.current_time()
        names = self.names()
        frames = []
        for event in events:
            self.seq += 1
            line = {  # a GameEvent, as its to_wire() gives it
                "type": GameEvent.TYPE,
                "table": self.id,
                "seq": self.seq,
                "kind": _snake(type(event).__name__),
                "text": describe(event, names),
            }
            frames.append(encode_frame(line))
        # The event lines go out with the views, in one write to each connection.
        event_frames = b"".join(frames)
        open_ids = {w.id for w in match.windows}
        for window in match.windows:
            if window.id not in self.window_opened:
                self.window_opened[window.id] = now
                self.window_due[window.id] = now + self.settings.mau_window_ms / 1000
        for gone in [w for w in self.window_opened if w not in open_ids]:
            del self.window_opened[gone]
            self.window_due.pop(gone, None)
        if match.phase != "playing":
            self.turn_due = None  # no turn runs while a round ends or between rounds
        elif turn_ended or self.turn_due is None:
            self.turn_due = now + self.settings.turn_timeout_s
        round_ended = match.phase in ("round_over", "match_over") and self.next_round_due is None
        if match.phase == "round_over":
            self.next_round_due = now + self._round_pause()
        elif match.phase == "match_over":
            self.turn_due = None
            self.next_round_due = None
            self.status = "finished"
        self._journal(action, now, round_ended)
        if match.phase == "round_over":
            for seat in self.seats:
                seat.ready = seat.bot
            self._log(f"round {match.round_no} ends; scores {match.scores}")
            self.changed()
        elif match.phase == "match_over":
            self._log(f"match over: {names[match.winner]} wins with {match.scores}")
            self.changed()
        self._send_views(before=event_frames)
        if round_ended and match.phase == "match_over":
            self.server._close_if_empty(self)
        self._schedule()

    def _round_pause(self) -> float:
        """The pause between rounds: long enough to read the result, shorter when no
        human player is there to read it (bots, away or disconnected seats only)."""
        players = [s for s in self.seats if not s.bot and not s.away and s.session is not None]
        if any(s.session is not None and s.session.connected for s in players):
            return ROUND_PAUSE_S
        return UNWATCHED_ROUND_PAUSE_S

    def _journal(self, action: Action | None, now: float, round_ended: bool) -> None:
        """Write the accepted action (and, at the end of a round or match, its result)
        to the store; the caller sends the views only afterwards."""
        store = self.server.store
        match = self.match
        if store is None or self.match_id is None or match is None:
            return
        try:
            self._write_journal(store, match, action, now, round_ended)
        except sqlite3.Error:
            # Play goes on; only recovery and records suffer. Say so loudly.
            log.exception("table %d: the journal could not be written", self.id)

    def _write_journal(
        self, store: Store, match: MatchState, action: Action | None, now: float, ended: bool
    ) -> None:
        assert self.match_id is not None
        if action is not None:
            self.journal_n += 1
            record = action_to_record(action)
            store.append(self.match_id, self.journal_n, record, self.seq, self._timers(now))
        last = match.last_round
        if ended and last is not None:
            store.round_over(self.match_id, last.round_no, last.winner, last.points, [*last.scores])
            if match.phase == "match_over":
                store.finish_match(self.match_id, match.winner, [*match.scores])

    def _timers(self, now: float) -> dict[str, Any]:
        """The running timers as milliseconds left, for the journal."""

        def left(due: float | None) -> int | None:
            return None if due is None else max(0, round((due - now) * 1000))

        return {
            "turn": left(self.turn_due),
            "next_round": left(self.next_round_due),
            "windows": [[w, left(due)] for w, due in self.window_due.items()],
        }

    def bot_flags(self) -> list[bool]:
        return [s.bot for s in self.seats]

    def record(self) -> TableRecord:
        """The table as the store keeps it (seats name their session's id)."""
        seats = [
            {
                "name": s.name,
                "bot": s.bot,
                "level": s.level,
                "away": s.away,
                "ready": s.ready,
                "session": s.session.id if s.session is not None else None,
            }
            for s in self.seats
        ]
        return TableRecord(
            self.id,
            self.name,
            self.settings_wire,
            self.creator,
            self.password,
            self.status,
            seats,
            self.seq,
            self.match_id,
            self.creator_session,
        )

    def save(self) -> None:
        """Have the table's record written with the store's next commit (once, however
        often it changes before then)."""
        if self.server.store is not None and not self.closed:
            self.server.save_later(self)

    def write_record(self) -> None:
        """Write the table's record into the store's open group of writes now."""
        if self.server.store is not None and not self.closed:
            try:
                self.server.store.save_table(self.record())
            except sqlite3.Error:
                log.exception("table %d: could not be saved", self.id)

    def restore(
        self,
        record: TableRecord,
        sessions: dict[str, Session],
        match: MatchRecord | None,
        journal: list[JournalEntry],
    ) -> None:
        """Rebuild this (new, empty) table from the store after a restart.

        Seats get their sessions back (disconnected: the reconnect grace starts now);
        the match is rebuilt by replaying its journal through the engine; each timer
        gets the time it had left when the last action was journaled (the time the
        server was down does not count).
        """
        now = trio.current_time()
        self.status = record.status
        self.seq = record.seq
        for i, data in enumerate(record.seats[: len(self.seats)]):
            seat = SeatState(
                name=data.get("name"),
                bot=bool(data.get("bot")),
                level=data.get("level") or bots.DEFAULT_LEVEL,
                away=bool(data.get("away")),
                ready=bool(data.get("ready")),
            )
            session = sessions.get(data.get("session") or "")
            if session is not None and not seat.bot:
                seat.session = session
                seat.disconnected_at = now
                session.table = self
            elif not seat.bot and seat.name is not None and self.status == "playing":
                seat.away = True  # nobody can come back to it: a bot plays on
            self.seats[i] = seat
        self._restore_creator(record, sessions)
        if match is None:
            if self.status == "playing":
                self.status = "waiting"
            return
        self.match_id = match.id
        state, _ = new_match(self.settings, match.seed)
        for entry in journal:
            apply(state, action_from_record(entry.action))
        self.match = state
        self.journal_n = len(journal)
        timers: dict[str, Any] = journal[-1].timers if journal else {}
        if journal:
            self.seq = max(self.seq, journal[-1].seq)
        self.seq += 1000  # claims decided after the last action were not journaled

        def due(ms: int | None) -> float | None:
            return None if ms is None else now + ms / 1000

        if state.phase == "playing":
            turn = timers.get("turn") if journal else self.settings.turn_timeout_s * 1000
            self.turn_due = due(turn) if turn is not None else now + self.settings.turn_timeout_s
        if state.phase == "round_over":
            self.next_round_due = due(timers.get("next_round")) or now + ROUND_PAUSE_S
        left = {int(w): ms for w, ms in timers.get("windows", [])}
        for window in state.windows:
            ms = left.get(window.id, self.settings.mau_window_ms)
            self.window_due[window.id] = now + (ms or 0) / 1000
            self.window_opened[window.id] = now - (self.settings.mau_window_ms - (ms or 0)) / 1000
        self.status = {"match_over": "finished"}.get(state.phase, "playing")
        self._log(f"restored: {len(journal)} actions replayed, phase {state.phase}")
        self._schedule()

    def _restore_creator(self, record: TableRecord, sessions: dict[str, Session]) -> None:
        """The creator's session after a restart. A record of an older database names
        no session: the player seated under the creator's name is taken (a seat names
        its session, so this is who sat there, not whoever uses the name now). A
        creator whose session was not kept hands the table over."""
        creator = record.creator_session
        if creator is None:
            creator = next(
                (
                    s.session.id
                    for s in self.seats
                    if s.session is not None and s.name == record.creator
                ),
                None,
            )
        if creator is not None and creator in sessions:
            self.creator = sessions[creator].name
            self.creator_session = creator
        else:
            self._hand_over()
        self.origin_session = self.creator_session

    def _send_views(self, only: list[Session] | None = None, before: bytes = b"") -> None:
        """Each seat its own view, spectators the public one.

        The public part is computed and encoded once per change (see
        :func:`view_frame`); each seat adds only its hand, drawn card and legal
        actions. ``before`` holds ready-made ``event`` frames that go out in front of
        each view.
        """
        match = self.match
        if match is None:
            return
        public_count, public_body = self._public_body(match)
        count = public_count + len(PRIVATE_KEYS)
        windows = tuple(
            (w.id, w.seat, w.final, w.called, catchable(match, w)) for w in match.windows
        )
        for i, seat in enumerate(self.seats):
            session = seat.session
            if session is not None and (only is None or session in only):
                frame = view_frame(count, public_body, self._private_body(match, i, windows))
                session.send_frames(EVENTS_AND_VIEW, before + frame)
        spectators = [s for s in self.spectators if only is None or s in only]
        if spectators:
            private = self._private_body(match, None, windows)
            frame = before + view_frame(count, public_body, private)
            for session in spectators:
                session.send_frames(EVENTS_AND_VIEW, frame)

    def _private_body(
        self, match: MatchState, seat: int | None, windows: tuple[object, ...]
    ) -> bytes:
        """The packed private part of ``seat``'s view (see :func:`private_view`).

        Only the seat on turn can have a drawn card or turn moves; every other seat's
        moves are the calls and catches the open windows allow. So while a seat is
        not on turn, its part stays the same as long as its hand, the windows (as
        ``windows`` sums them up) and the phase do, and the last one packed is reused
        (a test holds this to ``private_view`` over whole matches)."""
        if seat is not None and seat == match.turn and match.phase == "playing":
            return private_body(private_view(match, seat), self.settings.is_classic)
        key = (tuple(match.hands[seat]) if seat is not None else None, windows, match.phase)
        last = self._last_private.get(seat)
        if last is not None and last[0] == key:
            return last[1]
        packed = private_body(private_view(match, seat), self.settings.is_classic)
        self._last_private[seat] = (key, packed)
        return packed

    def _public_body(self, match: MatchState) -> tuple[int, bytes]:
        """The public part of every view, packed as a msgpack map's body, and its
        number of keys. The last round's result changes once a round, so it is packed
        once a round."""
        if match.last_round is not self._last_round_of:
            self._last_round_of = match.last_round
            self._last_round_packed = _LAST_ROUND_KEY + msgpack.packb(
                _round_wire(public_view(match).last_round)
            )
        public = self._public_wire(match)
        return len(public) + 1, map_body(public) + self._last_round_packed

    def _public_wire(self, match: MatchState) -> dict[str, Any]:
        """The public part of every view but ``last_round``, as the wire carries it:
        the fields of :func:`public_view`, read straight from the state (this runs for
        every change; a test holds it to ``public_view``), plus the table's own."""
        remaining = None
        if self.turn_due is not None and match.phase == "playing":
            remaining = max(0, int((self.turn_due - trio.current_time()) * 1000))
        letters = SUIT_CODES if self.settings.is_classic else COLOUR_CODES
        return {
            "type": View.TYPE,
            "table": self.id,
            "seq": self.seq,
            "phase": match.phase,
            "round": match.round_no,
            "dealer": match.dealer,
            "turn": match.turn,
            "direction": match.direction,
            "top": CODE_OF[match.discard[-1]],
            "named": letters[match.named] if match.named != NO_SUIT else None,
            "penalty": match.penalty,
            "penalty_kind": PENALTY_KINDS[match.penalty_kind],
            "hand_counts": tuple(map(len, match.hands)),
            "scores": tuple(match.scores),
            "target": self.settings.target_score,
            "stock": len(match.stock),
            "discard": len(match.discard),
            "windows": [
                {
                    "id": w.id,
                    "seat": w.seat,
                    "final": w.final,
                    "called": w.called,
                    "catchable": catchable(match, w),
                }
                for w in match.windows
            ],
            "winner": match.winner if match.winner >= 0 else None,
            "turn_deadline_ms": remaining,
        }

    def _broadcast(self, message: Message) -> None:
        frame = encode_frame(message.to_wire())
        for seat in self.seats:
            if seat.session is not None:
                seat.session.send(message, frame)
        for session in self.spectators:
            session.send(message, frame)

    def chat(self, session: Session, text: str) -> None:
        if self.seat_of(session) is None and session not in self.spectators:
            raise TableError("not_at_table", "you are not at this table")
        self._broadcast(ChatLine("table", session.name, text))

    def info(self, session: Session | None) -> TableInfo:
        return TableInfo(
            id=self.id,
            name=self.name,
            settings=self.settings_wire,
            seats=self.seat_infos(),
            spectators=tuple(s.name for s in self.spectators),
            state=self.status,
            creator=self.creator,
            you=self.seat_of(session) if session is not None else None,
            paused=None if self.paused_at is None else "cannot_save",
        )

    def seat_infos(self) -> tuple[dict[str, Any], ...]:
        infos = []
        for s in self.seats:
            info = {
                "name": s.name,
                "bot": s.bot,
                "connected": s.bot or (s.session is not None and s.session.connected),
                "away": s.away,
                "ready": s.ready,
            }
            if s.bot:
                info["level"] = s.level
            infos.append(info)
        return tuple(infos)

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.settings.variant,
            "seats": self.seat_infos(),
            "spectators": len(self.spectators),
            "state": self.status,
            "round": self.match.round_no if self.match else 0,
            "locked": self.password is not None,
        }

    def changed(self) -> None:
        """Seats or spectators changed: save the table, tell it and the lobby."""
        self.save()
        self._send_info()
        self.server.lobby_changed()

    def _send_info(self, urgent: bool = False) -> None:
        """One table_info for all, but for ``you``: each seat's own number. ``urgent``
        ones go out even while the server holds back what it could not save."""
        wire = self.info(None).to_wire()
        if self.server.store is not None:
            self.info_sent = dict(wire)
            self.server.infos_sent.add(self)
        self._send_wire(wire, urgent)

    def _send_wire(self, wire: dict[str, Any], urgent: bool, seat_names: bool = False) -> None:
        """Send ``wire`` (a table_info) to everybody here, each seat with its own
        ``you``; with ``seat_names``, only where that seat in ``wire`` has its name."""
        kinds = (TableInfo,)
        shown = wire["seats"]
        for i, seat in enumerate(self.seats):
            if seat.session is not None:
                mine = not seat_names or (i < len(shown) and shown[i]["name"] == seat.name)
                wire["you"] = i if mine else None
                seat.session.send_frames(kinds, encode_frame(wire), urgent)
        if self.spectators:
            wire["you"] = None
            frame = encode_frame(wire)
            for session in self.spectators:
                session.send_frames(kinds, frame, urgent)

    def _send_pause(self) -> None:
        """Tell everybody here that the table is paused, at once (past what is held
        back), with the table as it was last saved: what has not been saved is not
        told, not even in this. (A table never saved is not told anything.)"""
        saved = self.info_saved
        if saved is not None:
            self._send_wire({**saved, "paused": "cannot_save"}, urgent=True, seat_names=True)

    def now(self) -> float:
        """The table's clock: stopped while the table is paused."""
        paused = self.paused_at
        return trio.current_time() if paused is None else paused

    # --- pausing while the server cannot save -------------------------------------------

    def pause(self) -> None:
        """Stop the clock and tell everybody here at once (see the module docstring)."""
        if self.paused_at is not None or self.closed:
            return
        self.paused_at = trio.current_time()
        self._log("paused: the server cannot save")
        self._send_pause()
        if self._sleep is not None:
            self._sleep.deadline = math.inf

    def resume(self) -> None:
        """Start the clock again where it stopped."""
        if self.paused_at is None or self.closed:
            self.paused_at = None
            return
        shift = trio.current_time() - self.paused_at
        self.paused_at = None

        def later(due: float | None) -> float | None:
            return None if due is None else due + shift

        self.turn_due = later(self.turn_due)
        self.bot_due = later(self.bot_due)
        self.next_round_due = later(self.next_round_due)
        for timers in (self.window_due, self.window_opened, self.bot_catch_due):
            for key in timers:
                timers[key] += shift
        for seat in self.seats:
            seat.disconnected_at = later(seat.disconnected_at)
        self.arbiter.postpone(shift)
        self._log(f"resumed after {shift:.1f} s")
        self.changed()
        self._schedule()

    # --- time ---------------------------------------------------------------------------

    def _bot_controlled(self, seat: int, now: float) -> bool:
        state = self.seats[seat]
        if state.bot or state.away or state.session is None:
            return True
        gone = state.disconnected_at
        return gone is not None and now - gone >= self.settings.reconnect_grace_s

    def _schedule(self) -> None:
        """Recompute bot deadlines and wake the timer task."""
        match = self.match
        now = self.now()
        if match is not None and match.phase in ("playing", "ending"):
            # Bots move on their turn; they catch and call also in a round's final
            # window (phase "ending"), when nobody is on turn.
            if match.phase == "playing" and self._bot_controlled(match.turn, now):
                if self.bot_due is None:
                    self.bot_due = now + self.server.bot_delay
            else:
                self.bot_due = None
            for i, _seat in enumerate(self.seats):
                if i in self.bot_catch_due or not self._bot_controlled(i, now):
                    continue
                if bots.catches(match, i) or bots.own_call(match, i):
                    delay = max(MIN_BOT_CATCH_DELAY, bots.catch_delay(self.level(i), self.rng))
                    self.bot_catch_due[i] = now + delay
        else:
            self.bot_due = None
        sleep = self._sleep
        if sleep is not None:
            deadline = self._next_deadline()
            if deadline < sleep.deadline:
                sleep.deadline = deadline  # wakes the timer task then, not now

    def _next_deadline(self) -> float:
        if self.paused_at is not None:
            return math.inf
        candidates = [self.turn_due, self.bot_due, self.next_round_due]
        candidates += list(self.window_due.values()) + list(self.bot_catch_due.values())
        candidates.append(self.arbiter.decide_at(self._settle()))
        if self.match is not None and self.match.phase in ("playing", "ending"):
            for seat in self.seats:
                if seat.disconnected_at is not None and not seat.away:
                    candidates.append(seat.disconnected_at + self.settings.reconnect_grace_s)
        else:
            candidates[0] = candidates[1] = None  # no turn timer or bot move between rounds
        due = [c for c in candidates if c is not None]
        return min(due) if due else math.inf

    def _settle(self) -> float:
        if self.settings.lag_compensation:
            return self.settings.lag_compensation_max_ms / 1000
        return 0.0

    async def run(self) -> None:
        """The table's timer task; ends when the table is closed."""
        while not self.closed:
            deadline = self._next_deadline()
            if deadline > trio.current_time():
                with trio.CancelScope(deadline=deadline) as sleep:
                    self._sleep = sleep  # _schedule moves its deadline earlier
                    await trio.sleep_forever()
                self._sleep = None
            else:
                await trio.sleep(0)  # something is due now; still let others run
            if self.closed:
                return
            if self.paused_at is not None:
                continue
            try:
                self._tick()
                self.server.commit_soon()  # also when nobody is connected to be sent anything
                if self._thinking is not None:
                    seat, action_no = self._thinking
                    self._thinking = None
                    await self._think(seat, action_no)
                    self.server.commit_soon()
            except Exception:  # never let one table's bug take the server down
                log.exception("table %s: error in timers", self.id)
                await trio.sleep(0.1)

    def _tick(self) -> None:
        now = trio.current_time()
        match = self.match
        decide_at = self.arbiter.decide_at(self._settle())
        if decide_at is not None and decide_at <= now:
            self._decide_claims()
        if match is None:
            return
        for window, due in sorted(self.window_due.items(), key=lambda item: item[1]):
            if due <= now and any(w.id == window for w in match.windows):
                self._decide_claims()
                self.window_due.pop(window, None)
                w = next((w for w in match.windows if w.id == window), None)
                if w is not None and not w.elapsed:
                    end = EndCallWindow(window)
                    self._after_change(apply(match, end), turn_ended=False, action=end)
        for seat, due in list(self.bot_catch_due.items()):
            if due <= now:
                del self.bot_catch_due[seat]
                if match.phase in ("playing", "ending") and self._bot_controlled(seat, now):
                    self._bot_claims(match, seat, now)
        if self.next_round_due is not None and self.next_round_due <= now:
            self.next_round_due = None
            if match.phase == "round_over":
                self._next_round()
        if match.phase == "playing":
            if self.bot_due is not None and self.bot_due <= now:
                self.bot_due = None
                if self._bot_controlled(match.turn, now):
                    self._decide_claims()  # move on the position after pending calls
                    if match.phase == "playing":
                        self._bot_turn(match)
            if self.turn_due is not None and self.turn_due <= now and match.phase == "playing":
                seat = match.turn
                self._log(f"{self.names()[seat]} ran out of time")
                self._turn_action(TurnTimeout(seat))
                self.seats[seat].timeouts += 1
                if self.seats[seat].timeouts >= AWAY_AFTER_TIMEOUTS and not self.seats[seat].bot:
                    self.seats[seat].away = True
                    self._log(f"{self.names()[seat]} is away; a bot plays the seat")
                    self.changed()
                    self._schedule()
        for i, seat_state in enumerate(self.seats):
            gone = seat_state.disconnected_at
            if (
                gone is not None
                and not seat_state.away
                and now - gone >= self.settings.reconnect_grace_s
            ):
                seat_state.away = True
                self._log(f"{self.names()[i]} did not come back; a bot plays the seat")
                self.changed()
                self._schedule()

    def level(self, seat: int) -> str:
        """The bot level playing ``seat`` (a human's seat is played at the default)."""
        state = self.seats[seat]
        return state.level if state.bot else bots.DEFAULT_LEVEL

    def _forgets(self, seat: int) -> float:
        forced = self.server.bot_forgets
        return bots.forgets(self.level(seat)) if forced is None else forced

    def _bot_turn(self, match: MatchState) -> None:
        """The bot on turn moves now, or asks :meth:`run` to let it think in a thread
        (the hard bot searches for up to ``server.hard_budget`` seconds)."""
        seat = match.turn
        level = self.level(seat)
        if level == "hard" and self.server.hard_budget > 0:
            self._thinking = (seat, match.action_no)
            return
        action = bots.choose_turn_action(
            match, seat, self.rng, level, budget_s=self.server.hard_budget
        )
        if action is not None:
            self._turn_action(self._with_forgetting(match, action))

    async def _think(self, seat: int, action_no: int) -> None:
        match = self.match
        if match is None or match.action_no != action_no or match.turn != seat:
            return
        rng = random.Random(self.rng.random())
        position = match.clone()
        action = await trio.to_thread.run_sync(
            lambda: bots.choose_turn_action(
                position, seat, rng, "hard", budget_s=self.server.hard_budget
            ),
            limiter=self.server.thinking,
        )
        if self.closed or self.match is not match or match.phase != "playing":
            return
        if self.paused_at is not None:
            return  # the bot moves after the pause (resume schedules it again)
        if match.action_no != action_no or match.turn != seat or action is None:
            self._schedule()  # the position changed meanwhile: think again
            return
        try:
            self._turn_action(self._with_forgetting(match, action))
        except IllegalAction:
            fallback = bots.choose_turn_action(match, seat, self.rng, bots.DEFAULT_LEVEL)
            if fallback is not None:
                self._turn_action(fallback)

    def _with_forgetting(self, match: MatchState, action: Action) -> Action:
        """Apply the server's ``--bot-forgets`` override to a bot's play, if it has one."""
        forced = self.server.bot_forgets
        if forced is None or not isinstance(action, Play) or len(match.hands[action.seat]) != 2:
            return action
        if self.rng.random() < forced:
            return Play(action.seat, action.card, action.named, None)
        if action.call is None:
            hand = match.hands[action.seat]
            kept = hand[0] if hand[1] == action.card else hand[1]
            jack = self.settings.is_classic and CODE_OF[kept].startswith("J")
            return Play(action.seat, action.card, action.named, "maumau" if jack else "mau")
        return action

    def _bot_claims(self, match: MatchState, seat: int, now: float) -> None:
        own = bots.own_call(match, seat)
        if own is not None and self.rng.random() >= self._forgets(seat):
            self.arbiter.add("call", seat, now, 0.0, call=own.call)
        catches = bots.catches(match, seat)
        if catches and bots.notices(self.level(seat), self.rng):
            for catch in catches:
                self.arbiter.add("catch", seat, now, 0.0, target=catch.target)
        self._schedule()

    def _maybe_next_round(self) -> None:
        if all(s.ready or s.session is None for s in self.seats):
            self._next_round()

    def _next_round(self) -> None:
        assert self.match is not None
        if self.match.phase != "round_over":
            return
        self.next_round_due = None
        events = apply(self.match, NextRound())
        self._after_change(events, turn_ended=True, action=NextRound())
        self.server.lobby_changed()

    def close(self) -> None:
        self.closed = True
        if self._sleep is not None:
            self._sleep.cancel()
        if self.server.store is not None:
            self.server.store.close_table(self.id, self.match_id)

    def _log(self, text: str) -> None:
        log.info("table %d %r: %s", self.id, self.name, text)


def _window_for(match: MatchState, claim: Claim) -> int | None:
    """The call window a claim is about: the caller's own, or the target's catchable one."""
    if claim.kind == "call":
        mine = [w for w in match.windows if w.seat == claim.seat and not w.final]
        for w in mine:
            if w.called is None or (w.called == "mau" and claim.call == "maumau"):
                return w.id
        return mine[0].id if mine else None
    target = claim.target
    views = view(match, None).windows
    for wv in views:
        if wv.seat == target and wv.catchable:
            return wv.id
    for wv in views:
        if wv.seat == target:
            return wv.id
    return None


def claim_type(claim: Claim) -> str:
    return "say_mau" if claim.kind == "call" else "catch"

"""What a table tells its people: views, events, decisions, table_info, chat.

After every change each seated player receives its own ``view`` (with its legal
actions), spectators the public one, and everybody the ``event`` lines in plain words.
Events and views carry the table's sequence number. Whoever arrives while a match is
on (watching, or coming back to a seat or to watching) is first sent the current
round's recent event lines again, as they were sent, then its view
(:meth:`Audience.send_arrival`). As this happens for every change,
the views are made with care for speed: the public part is read from the match state
and packed once, and each seat's own part (hand, drawn card, legal actions) is packed
onto it (see :mod:`.frames`); a seat not on turn reuses its last packed part while
nothing in it changed.

A ``table_info`` that is sent is remembered (``info_sent``) and, once the store has
committed, as saved (``info_saved``): while the server cannot save, the notice of the
pause shows the table as it was last saved (:meth:`Audience.send_pause`).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import msgpack
import trio

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, NO_SUIT, SUIT_CODES
from maumau.protocol.codec import HEADER, encode_frame
from maumau.protocol.messages import (
    ChatLine,
    Message,
    TableInfo,
    View,
)

from ..errors import TableError
from ..rules import (
    MatchState,
    private_view,
    public_view,
)
from ..rules.engine import catchable, legal_actions
from ..rules.views import PENALTY_KINDS, offered
from .clock import Clock
from .frames import (
    EVENTS_AND_VIEW,
    LAST_ROUND_KEY,
    PRIVATE_KEYS,
    keyed_frames,
    map_body,
    packed_private,
    private_body,
    round_wire,
    view_frame,
    view_prefix,
)
from .host import Player
from .seating import Seating
from .state import RECENT_LINES, TableState


class Audience:
    """Sending to everybody at the table (see the module docstring)."""

    def __init__(self, state: TableState, seating: Seating, clock: Clock) -> None:
        self.state = state
        self.seating = seating
        self.clock = clock
        # The current round's last event and mau_decision frames, as sent, for whoever
        # arrives (see send_arrival); cleared when a round is dealt.
        self.recent: deque[bytes] = deque(maxlen=RECENT_LINES)
        # The last table_info sent, and the last one known saved (see send_pause).
        self.info_sent: dict[str, Any] | None = None
        self.info_saved: dict[str, Any] | None = None
        self._last_round_of: object = self  # the round result _last_round_packed shows
        self._last_round_packed = b""
        # Each seat's last private part packed while not on turn, with what it was
        # packed from: (hand, windows, phase, bytes); see private_body.
        self._last_private: dict[int, tuple[list[int], tuple[object, ...], str, bytes]] = {}

    def send_views(self, only: list[Player] | None = None, before: bytes = b"") -> None:
        """Each seat its own view, spectators the public one.

        The public part is computed and encoded once per change (see
        :func:`view_frame`); each seat adds only its hand, drawn card and legal
        actions. ``before`` holds ready-made ``event`` frames that go out in front of
        each view.
        """
        match = self.state.match
        if match is None:
            return
        public_count, public_body = self.public_body(match)
        count = public_count + len(PRIVATE_KEYS)
        windows = (
            tuple((w.id, w.seat, w.final, w.called, catchable(match, w)) for w in match.windows)
            if match.windows
            else ()
        )
        # Each seat's frame is the events, then one view: the header, the public
        # part (the same bytes for all) and the seat's own (see view_frame).
        prefix = view_prefix(count, public_body)
        size = len(prefix)
        for i, seat in enumerate(self.seating.seats):
            session = seat.session
            if session is not None and (only is None or session in only):
                private = self.private_body(match, i, windows)
                frames = b"".join((before, HEADER.pack(size + len(private)), prefix, private))
                session.send_frames(EVENTS_AND_VIEW, frames)
        spectators = [s for s in self.seating.spectators if only is None or s in only]
        if spectators:
            private = self.private_body(match, None, windows)
            frame = before + view_frame(count, public_body, private)
            for session in spectators:
                session.send_frames(EVENTS_AND_VIEW, frame)

    def private_body(
        self, match: MatchState, seat: int | None, windows: tuple[object, ...]
    ) -> bytes:
        """The packed private part of ``seat``'s view (as of :func:`private_view`).

        Only the seat on turn can have a drawn card or turn moves; every other seat's
        moves are the calls and catches the open windows allow. So while a seat is
        not on turn, its part stays the same as long as its hand, the windows (as
        ``windows`` sums them up) and the phase do, and the last one packed is reused
        (a test holds this to ``private_view`` over whole matches). The seat on turn's
        part is packed from the match directly, for every change."""
        classic = self.state.settings.is_classic
        if seat is None:
            return private_body(private_view(match, None), classic)
        phase = match.phase
        hand = match.hands[seat]
        on_turn = seat == match.turn and phase == "playing"
        if not on_turn:
            last = self._last_private.get(seat)
            if last is not None and last[1] == windows and last[2] == phase and last[0] == hand:
                return last[3]
        drawn = match.drawn if on_turn else -1
        packed = packed_private(
            seat,
            tuple(map(CODE_OF.__getitem__, hand)),
            CODE_OF[drawn] if drawn >= 0 else None,
            offered(legal_actions(match, seat)),
            classic,
        )
        if not on_turn:
            self._last_private[seat] = (hand.copy(), windows, phase, packed)
        return packed

    def public_body(self, match: MatchState) -> tuple[int, bytes]:
        """The public part of every view, packed as a msgpack map's body, and its
        number of keys. The last round's result changes once a round, so it is packed
        once a round."""
        if match.last_round is not self._last_round_of:
            self._last_round_of = match.last_round
            self._last_round_packed = LAST_ROUND_KEY + msgpack.packb(
                round_wire(public_view(match).last_round)
            )
        public = self._public_wire(match)
        return len(public) + 1, map_body(public) + self._last_round_packed

    def _public_wire(self, match: MatchState) -> dict[str, Any]:
        """The public part of every view but ``last_round``, as the wire carries it:
        the fields of :func:`public_view`, read straight from the state (this runs for
        every change; a test holds it to ``public_view``), plus the table's own: the
        turn's deadline, and in ``round_over`` when the next deal is due."""
        state = self.state
        clock = self.clock
        settings = state.settings
        remaining = None
        turn_due = clock.turn_due
        if turn_due is not None and match.phase == "playing":
            remaining = max(0, int((turn_due - trio.current_time()) * 1000))
        letters = SUIT_CODES if settings.is_classic else COLOUR_CODES
        public: dict[str, Any] = {
            "type": View.TYPE,
            "table": state.id,
            "seq": state.seq,
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
            "target": settings.target_score,
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
        due = clock.next_round_due
        if due is not None and match.phase == "round_over" and clock.paused_at is None:
            # When the next round is dealt by itself (sooner if everybody is ready).
            public["next_round_ms"] = max(0, int((due - trio.current_time()) * 1000))
        return public

    def send_arrival(self, session: Player) -> None:
        """Tell ``session``, who has just come to the running (or finished) match, the
        round so far: the table's recent ``event`` and ``mau_decision`` frames, as they
        were sent (with their own ``seq``), then its view."""
        if self.state.match is not None:
            self.send_views([session], before=b"".join(self.recent))

    def broadcast(self, message: Message, frame: bytes | None = None) -> None:
        """``message`` to everybody here (``frame``: it, encoded already)."""
        if frame is None:
            frame = encode_frame(message.to_wire())
        for seat in self.seating.seats:
            if seat.session is not None:
                seat.session.send(message, frame)
        for session in self.seating.spectators:
            session.send(message, frame)

    def chat(self, session: Player, text: str) -> None:
        if self.seating.seat_of(session) is None and session not in self.seating.spectators:
            raise TableError("not_at_table", "you are not at this table")
        self.broadcast(ChatLine("table", session.name, text))

    def info(self, session: Player | None) -> TableInfo:
        state = self.state
        seating = self.seating
        return TableInfo(
            id=state.id,
            name=state.name,
            settings=state.settings_wire,
            seats=seating.seat_infos(),
            spectators=tuple(s.name for s in seating.spectators),
            state=state.status,
            creator=seating.creator,
            you=seating.seat_of(session) if session is not None else None,
            paused=self.clock.pause_reason(),
            tournament=(
                None
                if state.tournament is None
                else {"id": state.tournament[0], "series": state.tournament[1]}
            ),
            rematch_ms=self.clock.rematch_left(),
        )

    def summary(self) -> dict[str, Any]:
        state = self.state
        summary = {
            "id": state.id,
            "name": state.name,
            "variant": state.settings.variant,
            "seats": self.seating.seat_infos(),
            "spectators": len(self.seating.spectators),
            "state": state.status,
            "round": state.match.round_no if state.match else 0,
            "locked": self.seating.password is not None,
        }
        if state.tournament is not None:
            summary["tournament"] = state.tournament[0]
        if state.house_rules:
            summary["rules"] = state.house_rules
        return summary

    def changed(self) -> None:
        """Seats or spectators changed: save the table, tell it and the lobby."""
        self.state.save()
        self.send_info()
        self.state.host.lobby_changed()

    def send_info(self, urgent: bool = False) -> None:
        """One table_info for all, but for ``you``: each seat's own number. ``urgent``
        ones go out even while the server holds back what it could not save."""
        wire = self.info(None).to_wire()
        host = self.state.host
        if host.store is not None:
            self.info_sent = dict(wire)
            host.info_sent(self.state.table)
        self._send_wire(wire, urgent)

    def _send_wire(self, wire: dict[str, Any], urgent: bool, seat_names: bool = False) -> None:
        """Send ``wire`` (a table_info) to everybody here, each seat with its own
        ``you``; with ``seat_names``, only where that seat in ``wire`` has its name."""
        kinds = (TableInfo,)
        shown = wire["seats"]
        seats = self.seating.seats
        spectators = self.seating.spectators
        yours: list[int | None] = []
        for i, seat in enumerate(seats):
            if seat.session is not None:
                mine = not seat_names or (i < len(shown) and shown[i]["name"] == seat.name)
                yours.append(i if mine else None)
        if spectators:
            yours.append(None)
        # Packed once for everybody here but for "you" (see keyed_frames).
        frames = iter(keyed_frames(wire, "you", yours))
        for seat in seats:
            if seat.session is not None:
                seat.session.send_frames(kinds, next(frames), urgent)
        if spectators:
            frame = next(frames)
            for session in spectators:
                session.send_frames(kinds, frame, urgent)

    def send_pause(self) -> None:
        """Tell everybody here that the table is paused, at once (past what is held
        back), with the table as it was last saved: what has not been saved is not
        told, not even in this. (A table never saved is not told anything.)"""
        saved = self.info_saved
        if saved is not None:
            self._send_wire({**saved, "paused": "cannot_save"}, urgent=True, seat_names=True)

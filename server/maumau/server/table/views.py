"""What a table tells its people: views, events, decisions, table_info, chat.

After every change each seated player receives its own ``view`` (with its legal
actions), spectators the public one, and everybody the ``event`` lines in plain words.
Events and views carry the table's sequence number. Whoever arrives while a match is
on (watching, or coming back to a seat or to watching) is first sent the current
round's recent event lines again, as they were sent, then its view
(:meth:`Audience._send_arrival`). As this happens for every change,
the views are made with care for speed: the public part is read from the match state
and packed once, and each seat's own part (hand, drawn card, legal actions) is packed
onto it (see :mod:`.frames`); a seat not on turn reuses its last packed part while
nothing in it changed.

A ``table_info`` that is sent is remembered (``info_sent``) and, once the store has
committed, as saved (``info_saved``): while the server cannot save, the notice of the
pause shows the table as it was last saved (:meth:`Audience._send_pause`).
"""

from __future__ import annotations

from typing import Any

import msgpack
import trio

from maumau.protocol.cards import CODE_OF, COLOUR_CODES, NO_SUIT, SUIT_CODES
from maumau.protocol.codec import encode_frame
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
from ..rules.engine import catchable
from ..rules.views import PENALTY_KINDS
from .frames import (
    EVENTS_AND_VIEW,
    LAST_ROUND_KEY,
    PRIVATE_KEYS,
    map_body,
    private_body,
    round_wire,
    view_frame,
)
from .host import Player
from .state import (
    CANNOT_SAVE,
    PLAYER,
    TableState,
)


class Audience(TableState):
    """Sending to everybody at the table (see the module docstring)."""

    def _send_views(self, only: list[Player] | None = None, before: bytes = b"") -> None:
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
        remaining = None
        if self.turn_due is not None and match.phase == "playing":
            remaining = max(0, int((self.turn_due - trio.current_time()) * 1000))
        letters = SUIT_CODES if self.settings.is_classic else COLOUR_CODES
        public: dict[str, Any] = {
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
        due = self.next_round_due
        if due is not None and match.phase == "round_over" and self.paused_at is None:
            # When the next round is dealt by itself (sooner if everybody is ready).
            public["next_round_ms"] = max(0, int((due - trio.current_time()) * 1000))
        return public

    def _send_arrival(self, session: Player) -> None:
        """Tell ``session``, who has just come to the running (or finished) match, the
        round so far: the table's recent ``event`` and ``mau_decision`` frames, as they
        were sent (with their own ``seq``), then its view."""
        if self.match is not None:
            self._send_views([session], before=b"".join(self.recent))

    def _broadcast(self, message: Message, frame: bytes | None = None) -> None:
        """``message`` to everybody here (``frame``: it, encoded already)."""
        if frame is None:
            frame = encode_frame(message.to_wire())
        for seat in self.seats:
            if seat.session is not None:
                seat.session.send(message, frame)
        for session in self.spectators:
            session.send(message, frame)

    def chat(self, session: Player, text: str) -> None:
        if self.seat_of(session) is None and session not in self.spectators:
            raise TableError("not_at_table", "you are not at this table")
        self._broadcast(ChatLine("table", session.name, text))

    def info(self, session: Player | None) -> TableInfo:
        return TableInfo(
            id=self.id,
            name=self.name,
            settings=self.settings_wire,
            seats=self.seat_infos(),
            spectators=tuple(s.name for s in self.spectators),
            state=self.status,
            creator=self.creator,
            you=self.seat_of(session) if session is not None else None,
            paused=self.pause_reason(),
            tournament=(
                None
                if self.tournament is None
                else {"id": self.tournament[0], "series": self.tournament[1]}
            ),
            rematch_ms=self.rematch_left(),
        )

    def rematch_left(self) -> int | None:
        """Milliseconds until the rematch asked for starts by itself (None: none is
        asked for, or the table is paused)."""
        due = self.rematch_due
        if due is None or self.status != "finished" or self.paused_at is not None:
            return None
        return max(0, int((due - trio.current_time()) * 1000))

    def pause_reason(self) -> str | None:
        """Why the table is paused (``table.paused``): the server's trouble first."""
        if CANNOT_SAVE in self.pauses:
            return CANNOT_SAVE
        return PLAYER if self.pauses else None

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
        summary = {
            "id": self.id,
            "name": self.name,
            "variant": self.settings.variant,
            "seats": self.seat_infos(),
            "spectators": len(self.spectators),
            "state": self.status,
            "round": self.match.round_no if self.match else 0,
            "locked": self.password is not None,
        }
        if self.tournament is not None:
            summary["tournament"] = self.tournament[0]
        if self.house_rules:
            summary["rules"] = self.house_rules
        return summary

    def changed(self) -> None:
        """Seats or spectators changed: save the table, tell it and the lobby."""
        self.save()
        self._send_info()
        self.host.lobby_changed()

    def _send_info(self, urgent: bool = False) -> None:
        """One table_info for all, but for ``you``: each seat's own number. ``urgent``
        ones go out even while the server holds back what it could not save."""
        wire = self.info(None).to_wire()
        if self.host.store is not None:
            self.info_sent = dict(wire)
            self.host.info_sent(self)
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

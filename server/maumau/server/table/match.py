"""A table's match: starting it, the moves of its players, and what follows each change.

A move arrives from a connection's task as a plain call (:meth:`MatchFlow.player_message`):
the engine applies it (or raises :class:`IllegalAction`, the state unchanged), then
:meth:`MatchFlow._after_change` does, in this order, the events, the timers, the
journal, then the views, so that nothing is sent before the action that caused it is
journaled.
"""

from __future__ import annotations

import logging
import sqlite3

import trio

from maumau.protocol.cards import COLOUR_CODES, SUIT_CODES, card_from_code
from maumau.protocol.messages import (
    CatchPlayer,
    ChallengeCard,
    DrawCard,
    Message,
    PassTurn,
    PlayCard,
    SayMau,
)

from ..arbiter import Claim
from ..errors import TableError
from ..latency import credit
from ..rules import (
    Action,
    Challenge,
    Draw,
    Event,
    IllegalAction,
    NextRound,
    Pass,
    Play,
    apply,
    new_match,
)
from ..rules.actions import counted_call
from ..rules.events import CardPlayed
from .claims import Claims, window_for
from .frames import event_frame
from .host import Player
from .state import (
    PLAYER,
    REMATCH_WAIT_S,
    ROUND_PAUSE_S,
    UNWATCHED_ROUND_PAUSE_S,
    SeatState,
)

log = logging.getLogger("maumau.table")


class MatchFlow(Claims):
    """Starting a match and playing it (see the module docstring)."""

    def set_ready(self, session: Player, ready: bool) -> None:
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "you are not sitting at this table")
        if self.status == "finished" and self.tournament is None:
            self._vote(seat, ready)  # after the match, ready is a vote for the rematch
            return
        self.seats[seat].ready = ready
        self.changed()
        if self.status == "waiting" and all(s.taken and s.ready for s in self.seats):
            self._start_match()
        elif self.match is not None and self.match.phase == "round_over":
            self._maybe_next_round()

    def start(self, session: Player) -> None:
        if self.status == "finished" and self.seat_of(session) is not None:
            self.rematch(session)  # after a match, the players agree on the next
            return
        if not self.is_creator(session):
            who = f"only {self.creator}, who holds the table," if self.creator else "nobody"
            details = {"name": self.creator} if self.creator else None
            raise TableError("not_creator", f"{who} can start it", details)
        if self.status == "playing":
            raise TableError("match_running", "the match is already running")
        if self.status == "finished":
            raise TableError("not_seated", "only players at the table can ask for a rematch")
        for i, seat in enumerate(self.seats):
            if not seat.taken:
                self._make_bot(i)
        self._start_match()

    def start_drawn(self) -> None:
        """Start the match of a table whose seats a tournament has drawn (all taken)."""
        self._start_match()

    def rematch(self, session: Player) -> None:
        """A seated player asks for a rematch: their vote (see :meth:`_vote`)."""
        if self.tournament is not None:
            raise TableError(
                "tournament_table",
                "this table belongs to a tournament: its next series is drawn there",
                {"tournament": self.tournament[0]},
            )
        if self.status != "finished":
            raise TableError("match_running", "a rematch can start only after the match")
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "only players at the table can ask for a rematch")
        self._vote(seat, True)

    def _vote(self, seat: int, yes: bool) -> None:
        """A vote for the rematch (its seat's ``ready``). The rematch starts once every
        player who holds a seat here agrees, or :data:`REMATCH_WAIT_S` after the first
        asked (see :meth:`rematch_ready`); never at one player's word alone."""
        self.seats[seat].ready = yes
        if yes and self.rematch_due is None:
            self.rematch_due = self.now() + REMATCH_WAIT_S
        self.changed()
        self._schedule()

    def rematch_voters(self) -> list[SeatState]:
        """The seats whose players decide on the rematch: every human's seat that has
        a player, there now or stepped out."""
        return [s for s in self.seats if not s.bot and s.owner is not None]

    def rematch_ready(self, now: float) -> bool | None:
        """Whether the rematch asked for starts now: True when every player agrees or
        its time has come, False while it waits, None when nobody asks any more."""
        voters = self.rematch_voters()
        if self.rematch_due is None or self.tournament is not None:
            return None  # (a tournament's table has no rematch)
        if not any(s.ready for s in voters):
            return None
        return all(s.ready for s in voters) or now >= self.rematch_due

    def _rematch(self) -> None:
        """Start the rematch: bots take the empty seats and those nobody keeps; a seat
        whose player stepped out is played by a bot until they come back."""
        self.rematch_due = None
        for i, seat in enumerate(self.seats):
            if not seat.taken or (not seat.bot and seat.owner is None):
                self._make_bot(i)  # empty, or its player let it go
        self._start_match()

    def _start_match(self) -> None:
        self.status = "playing"
        self.rematch_due = None
        seed = self.rng.randrange(2**63)
        self.match, events = new_match(self.settings, seed)
        self.journal_n = 0
        store = self.host.store
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
            if not seat.bot and seat.session is None:
                seat.away = True  # stepped out: a bot plays until they come back
            elif not seat.bot and seat.disconnected_at is None:
                seat.away = False  # here: a new match does not carry "away" over
        self.window_opened.clear()
        self.window_due.clear()
        self.recent.clear()  # a new round: newcomers are told this one from its deal
        self._log(f"match starts ({self.settings.variant}, {len(self.seats)} seats)")
        self.changed()
        self._after_change(events, turn_ended=True)

    def player_message(self, session: Player, message: Message, stamp: float) -> None:
        """A move from a seated player: play, draw, pass, challenge, say Mau, catch."""
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "spectators cannot play")
        match = self.match
        if match is None or self.status != "playing":
            raise TableError("no_match", "no match is running at this table")
        if PLAYER in self.pauses:
            self.resume(PLAYER)  # the player who stopped the clock plays on
        seat_state = self.seats[seat]
        if seat_state.away:
            seat_state.away = False
            self._log(f"{session.name} is back from away")
            self.changed()
        seat_state.timeouts = 0
        classic = self.settings.is_classic
        if isinstance(message, (SayMau, CatchPlayer)):
            probe = (
                # As counted, as a call with a play is: "maumau" only in classic.
                Claim("call", seat, stamp, 0.0, 0, call=counted_call(message.call, classic))
                if isinstance(message, SayMau)
                else Claim("catch", seat, stamp, 0.0, 0, target=message.target)
            )
            window = window_for(match, probe)
            given = credit(
                session.latency,
                self.settings.lag_compensation,
                self.settings.lag_compensation_max_ms,
                None if window is None else self.window_opened.get(window),
                stamp,
                message.reaction_ms,
                message.clock_ms,
            )
            claim = self.arbiter.add(
                probe.kind, seat, stamp, given.shift, probe.target, probe.call, session
            )
            claim.basis, claim.window = given.basis, window
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
                    raise IllegalAction(
                        "bad_name", f"name {what}, not {message.named!r}", {"field": "play.named"}
                    )
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

    def back(self, session: Player) -> None:
        """``back``: a seated player who is away (a bot plays for them after three
        timeouts) takes the seat back, without a move; it also starts a clock they
        stopped. From a player who is not away it changes nothing."""
        seat = self.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "you are not sitting at this table")
        if PLAYER in self.pauses:
            self.resume(PLAYER)
        state = self.seats[seat]
        state.timeouts = 0
        if state.away:
            state.away = False
            self._log(f"{session.name} is back from away")
            self.changed()
            self._schedule()

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
            frames.append(event_frame(self.id, self.seq, event))
        self.recent.extend(frames)  # for whoever arrives during this round
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
            for seat in self.seats:
                seat.ready = seat.bot  # from now on a vote for the rematch
            self._log(f"match over: {names[match.winner]} wins with {match.scores}")
            self.changed()
        self._send_views(before=event_frames)
        if round_ended and match.phase == "match_over":
            self.host.match_over(self)
            self.host.close_if_empty(self)
        self._schedule()

    def _round_pause(self) -> float:
        """The pause between rounds: long enough to read the result, shorter when no
        human player is there to read it (bots, away or disconnected seats only)."""
        players = [s for s in self.seats if not s.bot and not s.away and s.session is not None]
        if any(s.session is not None and s.session.connected for s in players):
            return ROUND_PAUSE_S
        return UNWATCHED_ROUND_PAUSE_S

    def _maybe_next_round(self) -> None:
        if all(s.ready or s.session is None for s in self.seats):
            self._next_round()

    def _next_round(self) -> None:
        assert self.match is not None
        if self.match.phase != "round_over":
            return
        self.next_round_due = None
        self.recent.clear()  # a new round: newcomers are told this one from its deal
        events = apply(self.match, NextRound())
        self._after_change(events, turn_ended=True, action=NextRound())
        self.host.lobby_changed()

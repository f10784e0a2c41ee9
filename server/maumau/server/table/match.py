"""A table's match: starting it, the moves of its players, and what follows each change.

A move arrives from a connection's task as a plain call (:meth:`MatchFlow.player_message`):
the engine applies it (or raises :class:`IllegalAction`, the state unchanged), then
:meth:`MatchFlow.after_change` does, in this order, the events, the timers, the
journal, then the views, so that nothing is sent before the action that caused it is
journaled.

:class:`MatchFlow` keeps no state of its own: it runs each change through the parts
it is given, in that order.
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
from .bot_seats import BotSeats
from .claims import Claims, window_for
from .clock import Clock
from .frames import event_frame
from .host import Player
from .journal import Journal
from .schedule import Schedule
from .seating import Seating
from .state import (
    PLAYER,
    REMATCH_WAIT_S,
    ROUND_PAUSE_S,
    UNWATCHED_ROUND_PAUSE_S,
    TableState,
)
from .views import Audience

log = logging.getLogger("maumau.table")


class MatchFlow:
    """Starting a match and playing it (see the module docstring)."""

    def __init__(
        self,
        state: TableState,
        seating: Seating,
        clock: Clock,
        audience: Audience,
        claims: Claims,
        journal: Journal,
        bots: BotSeats,
        schedule: Schedule,
    ) -> None:
        self.state = state
        self.seating = seating
        self.clock = clock
        self.audience = audience
        self.claims = claims
        self.journal = journal
        self.bots = bots
        self.schedule = schedule

    def set_ready(self, session: Player, ready: bool) -> None:
        state = self.state
        seat = self.seating.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "you are not sitting at this table")
        if state.status == "finished" and state.tournament is None:
            self._vote(seat, ready)  # after the match, ready is a vote for the rematch
            return
        seats = self.seating.seats
        seats[seat].ready = ready
        self.audience.changed()
        if state.status == "waiting" and all(s.taken and s.ready for s in seats):
            self._start_match()
        elif state.match is not None and state.match.phase == "round_over":
            self._maybe_next_round()

    def start(self, session: Player) -> None:
        state = self.state
        seating = self.seating
        if state.status == "finished" and seating.seat_of(session) is not None:
            self.rematch(session)  # after a match, the players agree on the next
            return
        if not seating.is_creator(session):
            creator = seating.creator
            who = f"only {creator}, who holds the table," if creator else "nobody"
            details = {"name": creator} if creator else None
            raise TableError("not_creator", f"{who} can start it", details)
        if state.status == "playing":
            raise TableError("match_running", "the match is already running")
        if state.status == "finished":
            raise TableError("not_seated", "only players at the table can ask for a rematch")
        for i, seat in enumerate(seating.seats):
            if not seat.taken:
                seating.make_bot(i)
        self._start_match()

    def start_drawn(self) -> None:
        """Start the match of a table whose seats a tournament has drawn (all taken)."""
        self._start_match()

    def rematch(self, session: Player) -> None:
        """A seated player asks for a rematch: their vote (see :meth:`_vote`)."""
        state = self.state
        if state.tournament is not None:
            raise TableError(
                "tournament_table",
                "this table belongs to a tournament: its next series is drawn there",
                {"tournament": state.tournament[0]},
            )
        if state.status != "finished":
            raise TableError("match_running", "a rematch can start only after the match")
        seat = self.seating.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "only players at the table can ask for a rematch")
        self._vote(seat, True)

    def _vote(self, seat: int, yes: bool) -> None:
        """A vote for the rematch (its seat's ``ready``). The rematch starts once every
        player who holds a seat here agrees, or :data:`REMATCH_WAIT_S` after the first
        asked (see :meth:`.clock.Clock.rematch_ready`); never at one player's word
        alone."""
        clock = self.clock
        self.seating.seats[seat].ready = yes
        if yes and clock.rematch_due is None:
            clock.rematch_due = clock.now() + REMATCH_WAIT_S
        self.audience.changed()
        self.schedule.update()

    def start_rematch(self) -> None:
        """Start the rematch: bots take the empty seats and those nobody keeps; a seat
        whose player stepped out is played by a bot until they come back."""
        self.clock.rematch_due = None
        seating = self.seating
        for i, seat in enumerate(seating.seats):
            if not seat.taken or (not seat.bot and seat.owner is None):
                seating.make_bot(i)  # empty, or its player let it go
        self._start_match()

    def _start_match(self) -> None:
        state = self.state
        seating = self.seating
        journal = self.journal
        state.status = "playing"
        self.clock.rematch_due = None
        seed = state.rng.randrange(2**63)
        state.match, events = new_match(state.settings, seed)
        journal.journal_n = 0
        store = state.host.store
        journal.match_id = None
        if store is not None:
            try:
                journal.match_id = store.start_match(
                    state.id,
                    state.name,
                    state.settings_wire,
                    seed,
                    seating.names(),
                    seating.bot_flags(),
                )
            except sqlite3.Error:
                log.exception("table %d: the match could not be recorded", state.id)
        for seat in seating.seats:
            seat.timeouts = 0
            seat.ready = seat.bot
            if not seat.bot and seat.session is None:
                seat.away = True  # stepped out: a bot plays until they come back
            elif not seat.bot and seat.disconnected_at is None:
                seat.away = False  # here: a new match does not carry "away" over
        self.claims.clear()
        self.audience.recent.clear()  # a new round: newcomers are told this one from its deal
        state.log(f"match starts ({state.settings.variant}, {len(seating.seats)} seats)")
        self.audience.changed()
        self.after_change(events, turn_ended=True)

    def player_message(self, session: Player, message: Message, stamp: float) -> None:
        """A move from a seated player: play, draw, pass, challenge, say Mau, catch."""
        seat = self.seating.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "spectators cannot play")
        state = self.state
        match = state.match
        if match is None or state.status != "playing":
            raise TableError("no_match", "no match is running at this table")
        if PLAYER in self.clock.pauses:
            self.schedule.resume(PLAYER)  # the player who stopped the clock plays on
        seat_state = self.seating.seats[seat]
        if seat_state.away:
            seat_state.away = False
            state.log(f"{session.name} is back from away")
            self.audience.changed()
        seat_state.timeouts = 0
        settings = state.settings
        classic = settings.is_classic
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
                settings.lag_compensation,
                settings.lag_compensation_max_ms,
                None if window is None else self.claims.window_opened.get(window),
                stamp,
                message.reaction_ms,
                message.clock_ms,
            )
            claim = self.claims.arbiter.add(
                probe.kind, seat, stamp, given.shift, probe.target, probe.call, session
            )
            claim.basis, claim.window = given.basis, window
            self.schedule.update()
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
        self.turn_action(action, stamp)

    def back(self, session: Player) -> None:
        """``back``: a seated player who is away (a bot plays for them after three
        timeouts) takes the seat back, without a move; it also starts a clock they
        stopped. From a player who is not away it changes nothing."""
        seat = self.seating.seat_of(session)
        if seat is None:
            raise TableError("not_seated", "you are not sitting at this table")
        if PLAYER in self.clock.pauses:
            self.schedule.resume(PLAYER)
        state = self.seating.seats[seat]
        state.timeouts = 0
        if state.away:
            state.away = False
            self.state.log(f"{session.name} is back from away")
            self.audience.changed()
            self.schedule.update()

    def decide_claims(self) -> None:
        """Apply the Mau claims the arbiter has decided (see :mod:`.claims`)."""
        self.claims.decide(self.after_change)

    def turn_action(self, action: Action, stamp: float | None = None) -> None:
        match = self.state.match
        assert match is not None
        self.claims.decide(self.after_change)
        played_at = match.action_no  # the id of a window this play opens
        events = apply(match, action)  # raises IllegalAction, state unchanged
        self.after_change(events, match.drawn < 0, action)
        for event in events:
            if isinstance(event, CardPlayed) and event.call:
                # The call came with the play: it was first, at the moment of the play.
                now = trio.current_time() if stamp is None else stamp
                claim = Claim("call", event.seat, now, 0.0, 0, call=event.call)
                self.claims.send_decision(played_at, event.seat, "called", [claim], now)

    def after_change(
        self, events: list[Event], turn_ended: bool, action: Action | None = None
    ) -> None:
        """Events, timers, the journal, then the views: in that order, so that nothing
        is sent before the action that caused it is journaled."""
        state = self.state
        match = state.match
        assert match is not None
        clock = self.clock
        seats = self.seating.seats
        now = trio.current_time()
        frames = []
        table_id = state.id
        for event in events:
            state.seq += 1
            frames.append(event_frame(table_id, state.seq, event))
        self.audience.recent.extend(frames)  # for whoever arrives during this round
        # The event lines go out with the views, in one write to each connection.
        event_frames = b"".join(frames)
        self.claims.follow(match, now)
        if match.phase != "playing":
            clock.turn_due = None  # no turn runs while a round ends or between rounds
        elif turn_ended or clock.turn_due is None:
            clock.turn_due = now + state.settings.turn_timeout_s
        round_ended = match.phase in ("round_over", "match_over") and clock.next_round_due is None
        if match.phase == "round_over":
            clock.next_round_due = now + self._round_pause()
        elif match.phase == "match_over":
            clock.turn_due = None
            clock.next_round_due = None
            state.status = "finished"
        self.journal.journal(action, now, round_ended)
        if match.phase == "round_over":
            for seat in seats:
                seat.ready = seat.bot
            state.log(f"round {match.round_no} ends; scores {match.scores}")
            self.audience.changed()
        elif match.phase == "match_over":
            for seat in seats:
                seat.ready = seat.bot  # from now on a vote for the rematch
            winner = self.seating.names()[match.winner]
            state.log(f"match over: {winner} wins with {match.scores}")
            self.audience.changed()
        self.audience.send_views(before=event_frames)
        if round_ended and match.phase == "match_over":
            state.host.match_over(state.table)
            state.host.close_if_empty(state.table)
        self.schedule.update()

    def _round_pause(self) -> float:
        """The pause between rounds: long enough to read the result, shorter when no
        human player is there to read it (bots, away or disconnected seats only)."""
        seats = self.seating.seats
        players = [s for s in seats if not s.bot and not s.away and s.session is not None]
        if any(s.session is not None and s.session.connected for s in players):
            return ROUND_PAUSE_S
        return UNWATCHED_ROUND_PAUSE_S

    def _maybe_next_round(self) -> None:
        if all(s.ready or s.session is None for s in self.seating.seats):
            self.next_round()

    def next_round(self) -> None:
        match = self.state.match
        assert match is not None
        if match.phase != "round_over":
            return
        self.clock.next_round_due = None
        self.audience.recent.clear()  # a new round: newcomers are told this one from its deal
        events = apply(match, NextRound())
        self.after_change(events, turn_ended=True, action=NextRound())
        self.state.host.lobby_changed()

"""One table, put together from its parts.

Everything at a table happens in the server's single trio thread. Connection tasks
call the table's plain (non-async) methods when a message arrives; each method checks
the request, changes the match through the rules engine, and queues the resulting
messages for every seat and spectator. Nothing awaits in between, so no locks are
needed and every change is seen in one order.

A :class:`Table` is made of parts, each an object that keeps its own state and is
handed, when it is made, the parts below it that it uses (none reaches up). From the
bottom:

- :mod:`.state`: what the table is, which every part reads (its number, settings,
  status, match, sequence number, random numbers);
- :mod:`.seating`: who sits and watches, who holds the table;
- :mod:`.clock`: the table's deadlines, whether its clock is stopped, the timer's
  sleep;
- :mod:`.views`: what the table tells its people (views packed by :mod:`.frames`) and
  the current round's recent lines;
- :mod:`.claims`: Mau calls and catches, decided by the arbiter; the call windows'
  times;
- :mod:`.journal`: the table in the store, and its restoring after a restart;
- :mod:`.bot_seats`: when bots move, call and catch, and what they choose;
- :mod:`.schedule`: what is due next; pausing and resuming every deadline;
- :mod:`.match`: starting a match, the players' moves, what follows each change;
- :mod:`.timer`: the timer task, which does what is due.

The table itself only makes the parts and answers for them: the rest of the server
calls its methods and reads its attributes, which hand each request to the part it
belongs to; a request about who is here (:meth:`Table.join`, :meth:`Table.leave`...)
runs through :class:`~.seating.Seating` and then tells everybody and reschedules. A
move goes from :meth:`Table.player_message` to :class:`~.match.MatchFlow` and from
there through the parts below it, each a plain call (it runs for every action; see
``scripts/bench-server``). A table reaches the server around it only through the
:class:`~.host.TableHost` it is given, and its people through :class:`~.host.Player`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from maumau.protocol.messages import Message, TableInfo

from ..rules import MatchState, Settings
from ..store import JournalEntry, MatchRecord, TableRecord
from .bot_seats import BotSeats
from .claims import Claims
from .clock import Clock
from .host import Player, TableHost
from .journal import Journal
from .match import MatchFlow
from .schedule import Schedule
from .seating import Seating
from .state import CANNOT_SAVE, PLAYER, SeatState, TableState
from .timer import Timer
from .views import Audience


class Table:
    """See the module docstring."""

    def __init__(
        self,
        host: TableHost,
        table_id: int,
        name: str,
        settings: Settings,
        creator: str | None,
        password: str | None,
        bot_seats: dict[int, str],
        seed: int,
        creator_session: str | None = None,
    ) -> None:
        self.state = state = TableState(host, self, table_id, name, settings, seed)
        self.seating = seating = Seating(state, creator, password, bot_seats, creator_session)
        self.clock = clock = Clock(state, seating)
        self.audience = audience = Audience(state, seating, clock)
        self.claims = claims = Claims(state, audience)
        self.journal = journal = Journal(state, seating, clock, claims, audience)
        self.bots = bots = BotSeats(state, seating, claims)
        self.schedule = schedule = Schedule(state, seating, clock, audience, claims, bots)
        self.flow = flow = MatchFlow(
            state, seating, clock, audience, claims, journal, bots, schedule
        )
        self.timer = Timer(state, seating, clock, audience, claims, bots, schedule, flow)

    # What the table is (see .state).

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def name(self) -> str:
        return self.state.name

    @property
    def settings(self) -> Settings:
        return self.state.settings

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def match(self) -> MatchState | None:
        return self.state.match

    @match.setter
    def match(self, match: MatchState | None) -> None:
        self.state.match = match

    @property
    def seq(self) -> int:
        return self.state.seq

    @seq.setter
    def seq(self, seq: int) -> None:
        self.state.seq = seq

    @property
    def tournament(self) -> tuple[int, int] | None:
        return self.state.tournament

    @tournament.setter
    def tournament(self, tournament: tuple[int, int] | None) -> None:
        self.state.tournament = tournament

    @property
    def closed(self) -> bool:
        return self.state.closed

    def save(self) -> None:
        self.state.save()

    # Who is here (see .seating).

    @property
    def seats(self) -> list[SeatState]:
        return self.seating.seats

    @property
    def spectators(self) -> list[Player]:
        return self.seating.spectators

    @property
    def creator(self) -> str | None:
        return self.seating.creator

    @property
    def creator_session(self) -> str | None:
        return self.seating.creator_session

    @property
    def origin_session(self) -> str | None:
        return self.seating.origin_session

    @property
    def origin_address(self) -> str | None:
        return self.seating.origin_address

    @origin_address.setter
    def origin_address(self, address: str | None) -> None:
        self.seating.origin_address = address

    @property
    def password(self) -> str | None:
        return self.seating.password

    def seat_of(self, session: Player) -> int | None:
        return self.seating.seat_of(session)

    def kept_seat_of(self, player: Player) -> int | None:
        return self.seating.kept_seat_of(player)

    def names(self) -> list[str]:
        return self.seating.names()

    def has_humans(self) -> bool:
        return self.seating.has_humans()

    def has_connected_humans(self) -> bool:
        return self.seating.has_connected_humans()

    def check_open(self) -> None:
        self.seating.check_open()

    def check_password(self, password: str | None) -> None:
        self.seating.check_password(password)

    def free_seat(self, seat: int | None, password: str | None) -> int:
        return self.seating.free_seat(seat, password)

    def join(self, session: Player, seat: int | None, password: str | None) -> int:
        seat = self.seating.join(session, seat, password)
        self.audience.changed()
        self.audience.send_arrival(session)  # after a match: how it ended
        return seat

    def watch(self, session: Player, password: str | None) -> None:
        self.seating.watch(session, password)
        self.audience.changed()
        self.audience.send_arrival(session)

    def leave(self, session: Player, keep: bool = True) -> None:
        """``session`` leaves: as a spectator, or from its seat (see
        :meth:`.seating.Seating.vacate`); a clock it stopped starts again."""
        seating = self.seating
        seating.stop_watching(session)
        if PLAYER in self.clock.pauses and seating.seat_of(session) is not None:
            self.schedule.resume(PLAYER)  # the one who stopped the clock goes
        seating.vacate(session, keep)
        self.audience.changed()
        self.schedule.update()

    def release(self, player: Player, tell: bool = True) -> bool:
        """``player`` lets go of the seat they stepped out of here, if any (see
        :meth:`.seating.Seating.release`). Whether there was one."""
        seating = self.seating
        if not seating.release(player):
            return False
        if tell:
            if seating.is_creator(player):
                seating.hand_over()
            self.audience.changed()
            self.schedule.update()
        return True

    def take_back(self, session: Player) -> int | None:
        """Seat ``session`` again in the seat it stepped out of, if it kept one here
        (see :meth:`.seating.Seating.take_back`)."""
        seat = self.seating.take_back(session)
        if seat is None:
            return None
        self.audience.changed()
        self.audience.send_arrival(session)
        self.schedule.update()
        return seat

    def disconnected(self, session: Player) -> None:
        seat = self.seating.seat_of(session)
        if seat is not None and PLAYER in self.clock.pauses:
            self.schedule.resume(PLAYER)  # the one who stopped the clock has gone
        self.seating.dropped(session, seat, self.clock.now())
        self.audience.changed()
        self.schedule.update()

    def reconnected(self, session: Player) -> None:
        self.seating.returned(session)
        self.audience.changed()
        self.audience.send_arrival(session)
        if CANNOT_SAVE in self.clock.pauses:
            self.audience.send_pause()  # why nothing else comes yet
        self.schedule.update()

    # What it tells (see .views).

    @property
    def info_sent(self) -> dict[str, Any] | None:
        return self.audience.info_sent

    @property
    def info_saved(self) -> dict[str, Any] | None:
        return self.audience.info_saved

    @info_saved.setter
    def info_saved(self, info: dict[str, Any] | None) -> None:
        self.audience.info_saved = info

    def info(self, session: Player | None) -> TableInfo:
        return self.audience.info(session)

    def summary(self) -> dict[str, Any]:
        return self.audience.summary()

    def chat(self, session: Player, text: str) -> None:
        self.audience.chat(session, text)

    def changed(self) -> None:
        self.audience.changed()

    # What a tournament asks of its tables (see maumau.server.tournaments).

    def seat_drawn(self, seat: int, name: str, player: Player | None) -> None:
        """Give ``seat`` to ``player``, drawn there by a tournament before the match
        starts (:meth:`start_drawn`; see :meth:`.seating.Seating.seat_drawn`)."""
        self.seating.seat_drawn(seat, name, player, self.clock.now())

    def give_back_drawn(self, seat: int, player: Player) -> None:
        self.seating.give_back_drawn(seat, player)

    def leave_tournament(self) -> None:
        """The tournament is called off: the match plays on as an ordinary table's."""
        self.state.tournament = None
        self.state.save()

    # The match (see .match).

    @property
    def match_id(self) -> int | None:
        return self.journal.match_id

    def set_ready(self, session: Player, ready: bool) -> None:
        self.flow.set_ready(session, ready)

    def start(self, session: Player) -> None:
        self.flow.start(session)

    def start_drawn(self) -> None:
        self.flow.start_drawn()

    def rematch(self, session: Player) -> None:
        self.flow.rematch(session)

    def player_message(self, session: Player, message: Message, stamp: float) -> None:
        self.flow.player_message(session, message, stamp)

    def back(self, session: Player) -> None:
        self.flow.back(session)

    # Its time (see .clock, .schedule and .timer).

    def now(self) -> float:
        return self.clock.now()

    def hold(self, session: Player, on: bool) -> None:
        self.schedule.hold(session, on)

    def pause(self, why: str = CANNOT_SAVE) -> None:
        self.schedule.pause(why)

    def resume(self, why: str = CANNOT_SAVE) -> None:
        self.schedule.resume(why)

    async def run(self) -> None:
        await self.timer.run()

    # The store (see .journal).

    def record(self) -> TableRecord:
        return self.journal.record()

    def write_record(self) -> None:
        self.journal.write_record()

    def restore(
        self,
        record: TableRecord,
        sessions: Mapping[str, Player],
        match: MatchRecord | None,
        journal: list[JournalEntry],
        stopped: float | None = None,
    ) -> None:
        """Rebuild this (new, empty) table from the store after a restart (see
        :meth:`.journal.Journal.restore`)."""
        if self.journal.restore(record, sessions, match, journal, stopped):
            self.schedule.update()

    def close(self) -> None:
        self.state.closed = True
        self.clock.cancel()
        self.journal.close()

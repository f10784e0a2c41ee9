"""Who is at a table: sitting down, watching, leaving, dropping and coming back.

The table belongs to its creator's *session* (its id, kept in the table's record, so
it survives restarts), never to a name: only that session may ``start_match``. When
the creator leaves the table (``leave_table``, ``bye``, moving to another table, or
being forgotten), the table passes to the human at the lowest seat still held by a
player, else to the spectator watching longest, else to nobody; ``table.creator``
names whoever holds it. A creator who only disconnects keeps it.

Seats are played by bots when the seat is a bot seat, when its player is *away*
(3 turn timeouts in a row: any move, or ``back``, ends it), has been disconnected for
longer than ``reconnect_grace_s``, or has stepped out. A returning player takes the
seat back at once.

A seat is its player's (``SeatState.owner``) until they let it go. Leaving a table
whose match runs or is over (``leave_table``) keeps the seat: in a running match a bot
plays it until they come back (:meth:`Seating.take_back`, by ``join_table`` or
``watch_table`` of that table), after the match it waits for the rematch. Sitting down
at another table, or the end of their session, lets it go (:meth:`Seating.release`):
a running match's seat is then played by a bot to the end; after a match the seat
keeps their name (the result names them) until a rematch gives it to a bot.

Whoever arrives while a match is on, a new spectator or a player or spectator coming
back, is told the round so far, then the match as it is now (see :mod:`.views`).
"""

from __future__ import annotations

from ..errors import TableError
from .host import Player
from .state import (
    CANNOT_SAVE,
    PLAYER,
    SeatState,
)
from .views import Audience


class Seating(Audience):
    """Seats and spectators (see the module docstring)."""

    def check_password(self, password: str | None) -> None:
        if self.password is not None and password != self.password:
            raise TableError("wrong_password", "this table is locked; the password is wrong")

    def check_open(self) -> None:
        if self.closed:
            raise TableError("no_such_table", f"table {self.id} has closed", {"table": self.id})

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
            raise TableError(
                "no_such_seat", f"there is no seat {seat} at this table", {"seat": seat}
            )
        elif self.seats[seat].taken:
            raise TableError("seat_taken", f"seat {seat} is taken", {"seat": seat})
        if self.status == "playing":
            raise TableError("match_running", "the match has started; watch it instead")
        return seat  # (after a match, a free seat is one for the rematch)

    def join(self, session: Player, seat: int | None, password: str | None) -> int:
        seat = self.free_seat(seat, password)
        self.seats[seat] = SeatState(name=session.name, session=session, owner=session)
        self._log(f"{session.name} sits at seat {seat}")
        self.changed()
        self._send_arrival(session)  # after a match: how it ended
        return seat

    def watch(self, session: Player, password: str | None) -> None:
        self.check_open()
        self.check_password(password)
        if session in self.spectators:
            raise TableError("already_watching", "you are already watching this table")
        if self.seat_of(session) is not None:
            raise TableError("already_seated", "you sit at this table")
        self.spectators.append(session)
        self._log(f"{session.name} watches")
        self.changed()
        self._send_arrival(session)

    def leave(self, session: Player, keep: bool = True) -> None:
        """``session`` leaves: as a spectator, or from its seat. A seat in a running or
        finished match stays the player's (``keep``; see the module docstring); with
        ``keep`` false (the session ends) it is let go (:meth:`_let_go`)."""
        if session in self.spectators:
            self.spectators.remove(session)
        if PLAYER in self.pauses and self.seat_of(session) is not None:
            self.resume(PLAYER)  # the one who stopped the clock goes
        for i, seat in enumerate(self.seats):
            if seat.session is session:
                if self.status == "waiting":
                    self.seats[i] = SeatState()
                else:
                    # The seat stays; a bot plays it from now on (in a running match).
                    seat.session = None
                    seat.away = self.status == "playing"
                    seat.ready = False  # a rematch asked for is asked no more
                    seat.disconnected_at = None
                    if not keep:
                        self._let_go(i)
                self._log(f"{session.name} leaves seat {i}" + (" (kept)" if keep else ""))
        if not keep:
            self.release(session, tell=False)
        if self.is_creator(session):
            self._hand_over()
        self.changed()
        self._schedule()

    def release(self, player: Player, tell: bool = True) -> bool:
        """``player`` lets go of the seat they stepped out of here, if any (see
        :meth:`_let_go`). Whether there was one."""
        seat = self.kept_seat_of(player)
        if seat is None:
            return False
        self._let_go(seat)
        self._log(f"{player.name} lets seat {seat} go")
        if tell:
            if self.is_creator(player):
                self._hand_over()
            self.changed()
            self._schedule()
        return True

    def _let_go(self, i: int) -> None:
        """Nobody may come back to seat ``i`` any more: in a running match a bot plays
        it to the end; after a match it keeps its player's name (the result names
        them) until the rematch gives it to a bot; a waiting table frees it."""
        seat = self.seats[i]
        if self.status == "waiting":
            self.seats[i] = SeatState()
            return
        seat.owner = None
        seat.session = None
        seat.ready = False
        seat.away = self.status == "playing"

    def take_back(self, session: Player) -> int | None:
        """Seat ``session`` again in the seat it stepped out of, if it kept one here:
        from the bot in a running match, for the rematch after it. The seat's number,
        or None (the caller treats the request as it would anywhere)."""
        self.check_open()
        seat = self.kept_seat_of(session)
        if seat is None:
            return None
        if session in self.spectators:
            self.spectators.remove(session)
        state = self.seats[seat]
        state.session = session
        state.away = False
        state.disconnected_at = None
        state.timeouts = 0
        self._log(f"{session.name} takes seat {seat} back")
        self.changed()
        self._send_arrival(session)
        self._schedule()
        return seat

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

    def disconnected(self, session: Player) -> None:
        seat = self.seat_of(session)
        if seat is not None:
            if PLAYER in self.pauses:
                self.resume(PLAYER)  # the one who stopped the clock has gone
            self.seats[seat].disconnected_at = self.now()
            self._log(f"{session.name} (seat {seat}) disconnected; the seat is kept")
        if session in self.spectators:
            self.spectators.remove(session)
        self.changed()
        self._schedule()

    def reconnected(self, session: Player) -> None:
        seat = self.seat_of(session)
        if seat is None and session not in self.spectators:
            self.spectators.append(session)
        if seat is not None:
            self.seats[seat].disconnected_at = None
            self.seats[seat].away = False
            self._log(f"{session.name} is back at seat {seat}")
        self.changed()
        self._send_arrival(session)
        if CANNOT_SAVE in self.pauses:
            self._send_pause()  # why nothing else comes yet
        self._schedule()

"""Who is at a table: sitting down, watching, leaving, dropping and coming back.

The table belongs to its creator's *session* (its id, kept in the table's record, so
it survives restarts), never to a name: only that session may ``start_match``. When
the creator leaves the table (``leave_table``, ``bye``, moving to another table, or
being forgotten), the table passes to the human at the lowest seat still held by a
player, else to the spectator watching longest, else to nobody; ``table.creator``
names whoever holds it. A creator who only disconnects keeps it.

Seats are played by bots when the seat is a bot seat, when its player is *away*
(3 turn timeouts in a row) or has been disconnected for longer than
``reconnect_grace_s``. A returning player takes the seat back at once.

Whoever arrives while a match is on, a new spectator or a player or spectator coming
back, is told the round so far, then the match as it is now (see :mod:`.views`).
"""

from __future__ import annotations

from ..errors import TableError
from .host import Player
from .state import (
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
        if self.status != "waiting":
            raise TableError("match_running", "the match has started; watch it instead")
        return seat

    def join(self, session: Player, seat: int | None, password: str | None) -> int:
        seat = self.free_seat(seat, password)
        self.seats[seat] = SeatState(name=session.name, session=session)
        self._log(f"{session.name} sits at seat {seat}")
        self.changed()
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

    def leave(self, session: Player) -> None:
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
        if self.paused_at is not None:
            self._send_pause()  # why nothing else comes yet
        self._schedule()

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

:class:`Seating` holds who is here and changes it; telling everybody, and the timers
that follow, are the table's (:class:`~.table.Table` runs each request through the
parts in order).
"""

from __future__ import annotations

from typing import Any

from .. import bots, names
from ..errors import TableError
from .host import Player
from .state import SeatState, TableState


class Seating:
    """The seats, the spectators and who holds the table (see the module docstring)."""

    def __init__(
        self,
        state: TableState,
        creator: str | None,
        password: str | None,
        bot_seats: dict[int, str],
        creator_session: str | None,
    ) -> None:
        self.state = state
        self.creator = creator  # the name shown; the session below is who it is
        self.creator_session = creator_session
        self.origin_session = creator_session  # who made it, for the lobby's caps
        self.origin_address: str | None = None  # where they connected from
        self.password = password
        self.seats = [SeatState() for _ in range(state.settings.seats)]
        for seat, level in bot_seats.items():
            self.make_bot(seat, level)
        self.spectators: list[Player] = []

    def make_bot(self, seat: int, level: str = bots.DEFAULT_LEVEL) -> None:
        if not 0 <= seat < len(self.seats):
            raise TableError(
                "no_such_seat", f"there is no seat {seat} at this table", {"seat": seat}
            )
        if level not in bots.LEVELS:
            raise TableError(
                "bad_settings",
                f"bot level must be one of {', '.join(bots.LEVELS)}",
                {"field": "levels"},
            )
        # Not a name at the table, nor one a person here has without the mark ("Ada*"
        # next to Ada would read as Ada); the first free one if every name is so.
        used = {s.name for s in self.seats} | {self.creator}
        people = {names.skeleton(n) for n in used if n}
        free = [n for n in bots.BOT_NAMES if n not in used]
        unlike = [n for n in free if names.skeleton(n.removesuffix(bots.BOT_MARK)) not in people]
        name = (unlike or free)[0]
        self.seats[seat] = SeatState(name=name, bot=True, level=level, ready=True)

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def seat_of(self, session: Player) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.session is session:
                return i
        return None

    def kept_seat_of(self, player: Player) -> int | None:
        """The seat ``player`` stepped out of and may take back, if any."""
        for i, seat in enumerate(self.seats):
            if seat.owner is player and seat.session is None:
                return i
        return None

    def is_creator(self, session: Player) -> bool:
        """Whether ``session`` holds the table: by its id, never by its name (another
        connection may use the same name once the creator's session has gone)."""
        return self.creator_session is not None and session.id == self.creator_session

    def has_connected_humans(self) -> bool:
        """Whether a connected person is here, or keeps a seat here (stepped out to
        the lobby, say, to come back for the rematch)."""
        return any(
            s.owner is not None and s.owner.connected if s.session is None else s.session.connected
            for s in self.seats
        ) or any(s.connected for s in self.spectators)

    def has_humans(self) -> bool:
        """Whether anybody sits or watches here, or keeps a seat here."""
        return any(s.session is not None or s.owner is not None for s in self.seats) or bool(
            self.spectators
        )

    def level(self, seat: int) -> str:
        """The bot level playing ``seat`` (a human's seat is played at the default)."""
        state = self.seats[seat]
        return state.level if state.bot else bots.DEFAULT_LEVEL

    def bot_flags(self) -> list[bool]:
        return [s.bot for s in self.seats]

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

    def check_password(self, password: str | None) -> None:
        if self.password is not None and password != self.password:
            raise TableError("wrong_password", "this table is locked; the password is wrong")

    def check_open(self) -> None:
        if self.state.closed:
            raise TableError(
                "no_such_table", f"table {self.state.id} has closed", {"table": self.state.id}
            )

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
        if self.state.status == "playing":
            raise TableError("match_running", "the match has started; watch it instead")
        return seat  # (after a match, a free seat is one for the rematch)

    def join(self, session: Player, seat: int | None, password: str | None) -> int:
        """Seat ``session`` (see :meth:`free_seat`); the seat's number."""
        seat = self.free_seat(seat, password)
        self.seats[seat] = SeatState(name=session.name, session=session, owner=session)
        self.state.log(f"{session.name} sits at seat {seat}")
        return seat

    def watch(self, session: Player, password: str | None) -> None:
        self.check_open()
        self.check_password(password)
        if session in self.spectators:
            raise TableError("already_watching", "you are already watching this table")
        if self.seat_of(session) is not None:
            raise TableError("already_seated", "you sit at this table")
        self.spectators.append(session)
        self.state.log(f"{session.name} watches")

    def stop_watching(self, session: Player) -> None:
        if session in self.spectators:
            self.spectators.remove(session)

    def vacate(self, session: Player, keep: bool) -> None:
        """``session`` leaves its seat. A seat in a running or finished match stays the
        player's (``keep``; see the module docstring); with ``keep`` false (the
        session ends) it is let go (:meth:`_let_go`). The table passes on if it was
        theirs."""
        status = self.state.status
        for i, seat in enumerate(self.seats):
            if seat.session is session:
                if status == "waiting":
                    self.seats[i] = SeatState()
                else:
                    # The seat stays; a bot plays it from now on (in a running match).
                    seat.session = None
                    seat.away = status == "playing"
                    seat.ready = False  # a rematch asked for is asked no more
                    seat.disconnected_at = None
                    if not keep:
                        self._let_go(i)
                self.state.log(f"{session.name} leaves seat {i}" + (" (kept)" if keep else ""))
        if not keep:
            self.release(session)
        if self.is_creator(session):
            self.hand_over()

    def release(self, player: Player) -> bool:
        """``player`` lets go of the seat they stepped out of here, if any (see
        :meth:`_let_go`). Whether there was one."""
        seat = self.kept_seat_of(player)
        if seat is None:
            return False
        self._let_go(seat)
        self.state.log(f"{player.name} lets seat {seat} go")
        return True

    def _let_go(self, i: int) -> None:
        """Nobody may come back to seat ``i`` any more: in a running match a bot plays
        it to the end; after a match it keeps its player's name (the result names
        them) until the rematch gives it to a bot; a waiting table frees it."""
        seat = self.seats[i]
        status = self.state.status
        if status == "waiting":
            self.seats[i] = SeatState()
            return
        seat.owner = None
        seat.session = None
        seat.ready = False
        seat.away = status == "playing"

    def take_back(self, session: Player) -> int | None:
        """Seat ``session`` again in the seat it stepped out of, if it kept one here:
        from the bot in a running match, for the rematch after it. The seat's number,
        or None (the caller treats the request as it would anywhere)."""
        self.check_open()
        seat = self.kept_seat_of(session)
        if seat is None:
            return None
        self.stop_watching(session)
        state = self.seats[seat]
        state.session = session
        state.away = False
        state.disconnected_at = None
        state.timeouts = 0
        self.state.log(f"{session.name} takes seat {seat} back")
        return seat

    def hand_over(self) -> None:
        """The creator has gone: the table passes to the human at the lowest seat still
        held by a player, else to the spectator watching longest, else to nobody."""
        heirs = [s.session for s in self.seats if s.session is not None]
        heirs += self.spectators
        heir = heirs[0] if heirs else None
        self.creator = heir.name if heir is not None else None
        self.creator_session = heir.id if heir is not None else None
        if heir is not None:
            self.state.log(f"{heir.name} holds the table now")

    def dropped(self, session: Player, seat: int | None, now: float) -> None:
        """``session``'s connection dropped: its seat (``seat``) is kept for it; as a
        spectator it is gone."""
        if seat is not None:
            self.seats[seat].disconnected_at = now
            self.state.log(f"{session.name} (seat {seat}) disconnected; the seat is kept")
        self.stop_watching(session)

    def returned(self, session: Player) -> None:
        """``session`` is back after a dropped connection: in its seat, else watching."""
        seat = self.seat_of(session)
        if seat is None and session not in self.spectators:
            self.spectators.append(session)
        if seat is not None:
            self.seats[seat].disconnected_at = None
            self.seats[seat].away = False
            self.state.log(f"{session.name} is back at seat {seat}")

    def seat_drawn(self, seat: int, name: str, player: Player | None, now: float) -> None:
        """Give ``seat`` to ``player``, drawn there by a tournament before the match
        starts. None: the player's session is gone, and a bot plays the seat, kept in
        their name, from the start; one who is not connected gets the seat kept as if
        they had just dropped (at ``now``)."""
        if player is None:
            self.seats[seat] = SeatState(name=name, away=True)
            return
        state = SeatState(name=name, session=player, owner=player)
        if not player.connected:
            state.disconnected_at = now
        self.seats[seat] = state

    def give_back_drawn(self, seat: int, player: Player) -> None:
        """``seat`` was drawn for ``player``: if they stepped out of it while the match
        runs (a bot plays it), it is theirs to take back as any seat one stepped out
        of (a table restored from an older database did not keep whose it was)."""
        state = self.seats[seat]
        if not state.bot and state.session is None:
            state.owner = player

    def postpone(self, shift: float) -> None:
        """The table's clock stopped for ``shift`` seconds: so does each reconnect
        grace."""
        for seat in self.seats:
            if seat.disconnected_at is not None:
                seat.disconnected_at += shift

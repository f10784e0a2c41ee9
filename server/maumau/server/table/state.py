"""What every part of a table shares: its seats, its people, its match and its timers.

:class:`TableState` holds the data; the parts of a table (see :mod:`.table`) are
classes over it, each adding one concern. Here too are the few questions about the
seats that every part asks (who sits where, who is there, which bot level plays a
seat, the table's clock) and the two hooks that parts below call on parts above
(:meth:`TableState._schedule`, :meth:`TableState._after_change`).
"""

from __future__ import annotations

import logging
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

import trio

from .. import bots, names
from ..arbiter import Arbiter
from ..errors import TableError
from ..rules import (
    Action,
    Event,
    MatchState,
    Settings,
)
from .host import Player, TableHost

log = logging.getLogger("maumau.table")


AWAY_AFTER_TIMEOUTS = 3


ROUND_PAUSE_S = 20.0


REMATCH_WAIT_S = 30.0  # after a match's first vote for a rematch, the others' time to agree


UNWATCHED_ROUND_PAUSE_S = 5.0


MIN_BOT_CATCH_DELAY = 0.3


MAX_STAMPS = 20  # stamps one mau_decision carries (the protocol's limit)


CANNOT_SAVE = "cannot_save"  # why a table is paused: the server cannot save
PLAYER = "player"  # its one player, alone with bots, reads the help


RECENT_LINES = 50  # event lines of the current round kept for newcomers (see .views)


@dataclass(slots=True)
class SeatState:
    """One seat. ``session`` is the player sitting there now; ``owner`` whose seat it
    is. They are the same player while that player sits there; a player who steps
    out of a running or finished match (``leave_table``) keeps the seat: ``session``
    is then None and ``owner`` still names them (a bot plays the seat meanwhile), until
    they come back (``join_table``) or let it go (they sit down elsewhere, or their
    session ends)."""

    name: str | None = None
    session: Player | None = None
    owner: Player | None = None
    bot: bool = False
    level: str = bots.DEFAULT_LEVEL
    away: bool = False
    ready: bool = False
    timeouts: int = 0
    disconnected_at: float | None = None

    @property
    def taken(self) -> bool:
        return self.bot or self.name is not None

    @property
    def kept(self) -> bool:
        """Its player stepped out and may come back to it."""
        return self.owner is not None and self.session is None


class TableState:
    """The data of one table and the questions every part of it asks."""

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
        self.host = host
        self.id = table_id
        self.name = name
        self.settings = settings
        self.settings_wire = settings.to_dict()
        # The settings that differ from the game's (the lobby shows them: house rules).
        defaults = Settings.defaults(settings.variant)
        self.house_rules = {
            key: value
            for key, value in self.settings_wire.items()
            if key not in ("variant", "seats") and value != defaults.get(key)
        }
        self.creator = creator  # the name shown; the session below is who it is
        self.creator_session = creator_session
        self.origin_session = creator_session  # who made it, for the lobby's caps
        self.origin_address: str | None = None  # where they connected from
        self.password = password
        self.seats = [SeatState() for _ in range(settings.seats)]
        for seat, level in bot_seats.items():
            self._make_bot(seat, level)
        self.spectators: list[Player] = []
        self.status = "waiting"
        self.match: MatchState | None = None
        self.match_id: int | None = None  # the match's number in the store
        self.journal_n = 0  # actions of the current match journaled so far
        self.seq = 0
        # The current round's last event and mau_decision frames, as sent, for whoever
        # arrives (see Audience._send_arrival); cleared when a round is dealt.
        self.recent: deque[bytes] = deque(maxlen=RECENT_LINES)
        self.rng = random.Random(seed)
        self.arbiter = Arbiter()
        self.window_opened: dict[int, float] = {}
        self.window_due: dict[int, float] = {}
        self.turn_due: float | None = None
        self.bot_due: float | None = None
        self.bot_catch_due: dict[int, float] = {}
        self.next_round_due: float | None = None
        self.rematch_due: float | None = None  # a rematch was asked for: when it starts
        self.closed = False
        # (tournament id, series number) of a tournament's table, else None: its
        # seats are drawn by the tournament, it starts at once and has no rematch.
        self.tournament: tuple[int, int] | None = None
        self.paused_at: float | None = None  # while paused: since when
        self.pauses: set[str] = set()  # why: CANNOT_SAVE, PLAYER
        # The last table_info sent, and the last one known saved (see _send_pause).
        self.info_sent: dict[str, Any] | None = None
        self.info_saved: dict[str, Any] | None = None
        self._thinking: tuple[int, int] | None = None  # (seat, action_no) a hard bot ponders
        self._sleep: trio.CancelScope | None = None  # the timer task's, while it sleeps
        self._last_round_of: object = self  # the round result _last_round_packed shows
        self._last_round_packed = b""
        self._last_private: dict[int | None, tuple[object, bytes]] = {}

    def _make_bot(self, seat: int, level: str = bots.DEFAULT_LEVEL) -> None:
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

    def now(self) -> float:
        """The table's clock: stopped while the table is paused."""
        paused = self.paused_at
        return trio.current_time() if paused is None else paused

    def save(self) -> None:
        """Have the table's record written with the store's next commit (once, however
        often it changes before then)."""
        if self.host.store is not None and not self.closed:
            self.host.save_later(self)

    def _log(self, text: str) -> None:
        log.info("table %d %r: %s", self.id, self.name, text)

    def _schedule(self) -> None:
        """Recompute the deadlines and wake the timer task (see :mod:`.clock`)."""
        raise NotImplementedError

    def _after_change(
        self, events: list[Event], turn_ended: bool, action: Action | None = None
    ) -> None:
        """Send, journal and time what a change to the match did (see :mod:`.match`)."""
        raise NotImplementedError

    def resume(self, why: str = CANNOT_SAVE) -> None:
        """Start the clock again, once nothing else holds it (see :mod:`.clock`)."""
        raise NotImplementedError

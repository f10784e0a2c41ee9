"""What every part of a table reads: what the table is, and what a seat holds.

:class:`TableState` is the table itself as the parts share it: its number, name and
settings, its status and match, the sequence number of what it sends, its random
numbers and whether it has closed. Each part of a table (see :mod:`.table`) keeps its
own state besides and is handed this one when it is made. :class:`SeatState` is one
seat (the seats are :class:`~.seating.Seating`'s).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from .. import bots
from ..rules import (
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
    """What the table is, read by every part: the rest is the parts' own."""

    def __init__(
        self,
        host: TableHost,
        table: object,
        table_id: int,
        name: str,
        settings: Settings,
        seed: int,
    ) -> None:
        self.host = host
        self.table = table  # the whole table: what the host is told about
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
        # (tournament id, series number) of a tournament's table, else None: its
        # seats are drawn by the tournament, it starts at once and has no rematch.
        self.tournament: tuple[int, int] | None = None
        self.status = "waiting"
        self.match: MatchState | None = None
        self.seq = 0
        self.rng = random.Random(seed)
        self.closed = False

    def save(self) -> None:
        """Have the table's record written with the store's next commit (once, however
        often it changes before then)."""
        if self.host.store is not None and not self.closed:
            self.host.save_later(self.table)

    def log(self, text: str) -> None:
        log.info("table %d %r: %s", self.id, self.name, text)

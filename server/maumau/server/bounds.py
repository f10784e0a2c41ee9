"""The lobby's bounds: how many tables there may be, and tidying up after people leave.

Theory of operation
-------------------
At most ``max_tables`` tables are open; a session may have made at most
``tables_per_session`` tables that still wait, and the tables made from one address
that no connected player is at are at most ``tables_per_address``
(:meth:`Bounds.check_table_limits`, and :meth:`Bounds.cap_abandoned` each time a table
may have lost its last connected person). A waiting or finished table with nobody
connected at it is closed after ``idle_timeout``, and a disconnected session that
holds no seat is forgotten after as long (at once when its table closes; the oldest
first beyond ``LINGERING_MAX``): see :meth:`Bounds.reap`. So what a flood of connect,
``create_table``, close leaves behind stays within those numbers, however long it
runs, and the lobby lists the tables people are at first. Measured (with
``tracemalloc``), an abandoned table with its player's session costs about 13 KB and
a seatless session about 1.5 KB: with the defaults, what people who have gone leave
behind stays under about 5 MB (200 tables, 1,000 sessions plus those of the last
``REAP_INTERVAL``). ``scripts/flood-lobby`` runs the flood against the real server.
"""

from __future__ import annotations

import logging

import trio

from .errors import TableError
from .lobby import Lobby
from .saving import Saver
from .session import Session
from .table import Table

log = logging.getLogger("maumau.server")

IDLE_TIMEOUT = 60.0  # seconds an unattended table, or a seatless dropped session, is kept
REAP_INTERVAL = 5.0  # seconds between looks for them (at most a quarter of the above)
LINGERING_MAX = 1000  # dropped sessions without a seat kept at most, the newest
TABLES_PER_SESSION = 3  # waiting tables one session may have made
TABLES_PER_ADDRESS = 10  # tables made from one address that nobody connected is at


class Bounds:
    """Keeps the lobby within its bounds (see the module docstring)."""

    def __init__(
        self,
        lobby: Lobby,
        saver: Saver,
        max_tables: int,
        tables_per_session: int = TABLES_PER_SESSION,
        tables_per_address: int = TABLES_PER_ADDRESS,
        idle_timeout: float = IDLE_TIMEOUT,
    ) -> None:
        self.lobby = lobby
        self.saver = saver
        self.max_tables = max_tables
        self.tables_per_session = tables_per_session
        self.tables_per_address = tables_per_address
        self.idle_timeout = idle_timeout
        self._unattended: dict[int, float] = {}  # table id -> since when nobody is there
        self._lingering: dict[str, float] = {}  # session key -> since when it holds nothing
        lobby.left = self.cap_abandoned
        saver.on_restored.append(self.shift)

    def start(self, nursery: trio.Nursery) -> None:
        nursery.start_soon(self._reaper)

    def shift(self, paused_for: float) -> None:
        """The server could not save for ``paused_for`` seconds: nobody could sit or
        come back meanwhile, so that time does not count as idle."""
        self._unattended = {key: t + paused_for for key, t in self._unattended.items()}
        self._lingering = {key: t + paused_for for key, t in self._lingering.items()}

    def check_table_limits(self, session: Session) -> None:
        """Refuse a ``create_table`` past the lobby's bounds: ``lobby_full`` with
        ``max_tables`` open; ``too_many_tables`` when the session has made
        ``tables_per_session`` tables that still wait, or ``tables_per_address``
        tables made from its address have no connected player or spectator. The
        table the session is at does not count if leaving it will close it."""
        current = session.table
        leaving = current if current is not None and _closes_without(current, session) else None
        tables = [t for t in self.lobby.tables.values() if t is not leaving and not t.closed]
        if len(tables) >= self.max_tables:
            raise TableError(
                "lobby_full",
                f"the server has {len(tables)} tables open, its most; join one",
                {"limit": len(tables)},
            )
        made = sum(1 for t in tables if t.origin_session == session.id and t.status == "waiting")
        if made >= self.tables_per_session:
            raise TableError(
                "too_many_tables",
                f"you have made {made} tables that are still waiting",
                {"count": made},
            )
        address = session.address
        left = sum(
            1 for t in tables if t.origin_address == address and not t.has_connected_humans()
        )
        if left >= self.tables_per_address:
            raise TableError(
                "too_many_tables",
                f"{left} tables made from your address have nobody at them; "
                f"they close {self.idle_timeout:g} s after the last one leaves",
                {"count": left, "seconds": self.idle_timeout},
            )

    def free_tables(self) -> int:
        """How many more tables may be opened now (``max_tables`` less the open ones)."""
        return self.max_tables - sum(1 for t in self.lobby.tables.values() if not t.closed)

    async def _reaper(self) -> None:
        """See :meth:`reap`: every REAP_INTERVAL, or a quarter of ``idle_timeout``."""
        interval = min(REAP_INTERVAL, self.idle_timeout / 4)
        while True:
            await trio.sleep(interval)
            try:
                self.reap()
            except Exception:  # never let the housekeeping take the server down
                log.exception("the lobby could not be tidied up")

    def reap(self) -> None:
        """Close the tables nobody is at and forget the sessions that hold nothing.

        A table that is waiting or finished and has no connected player or spectator
        is closed once it has been so for ``idle_timeout`` (a running match plays on
        with bots and ends by itself). A session that is disconnected and holds no
        seat at an open table (in the lobby, or watching) is forgotten, with its
        token, once it has been so for ``idle_timeout``; at once if its table has
        closed; and the oldest first beyond LINGERING_MAX. Tables and sessions
        restored after a restart start to count when they are restored. Nothing is
        closed or forgotten while the server cannot save (every table is paused)."""
        if self.saver.cannot_save:
            return
        now = trio.current_time()
        unattended: dict[int, float] = {}
        for table in list(self.lobby.tables.values()):
            if table.closed or table.status == "playing" or table.has_connected_humans():
                continue
            since = self._unattended.get(table.id, now)
            if now - since >= self.idle_timeout:
                self._close_abandoned(table)
            else:
                unattended[table.id] = since
        self._unattended = unattended
        lingering: dict[str, float] = {}
        keepers = self.lobby.seat_keepers()
        for session in list(self.lobby.sessions.values()):
            at = session.table
            if (
                session.connected
                or (at is not None and not at.closed and at.seat_of(session) is not None)
                or session in keepers
                or self.lobby.keeps(session)
            ):
                continue
            since = self._lingering.get(session.key, now)
            if (at is not None and at.closed) or now - since >= self.idle_timeout:
                self.lobby.forget(session)
            else:
                lingering[session.key] = since
        excess = max(0, len(lingering) - LINGERING_MAX)
        for key in sorted(lingering, key=lingering.__getitem__)[:excess]:
            oldest = self.lobby.sessions.get(key)
            if oldest is not None:
                self.lobby.forget(oldest)
            del lingering[key]
        self._lingering = lingering
        self.saver.commit_soon()

    def cap_abandoned(self, table: Table) -> None:
        """``table`` may just have lost its last connected player or spectator: if the
        tables made from its address that nobody connected is at are now more than
        ``tables_per_address`` (several connections from one address each made one
        and left), close the oldest of them that are not running a match. So the cap
        holds at all times, not only when a table is made."""
        address = table.origin_address
        if address is None or table.closed or table.has_connected_humans():
            return
        left = [
            t
            for t in self.lobby.tables.values()
            if t.origin_address == address and not t.closed and not t.has_connected_humans()
        ]
        excess = len(left) - self.tables_per_address
        for old in sorted(left, key=lambda t: t.id):
            if excess <= 0:
                break
            if old.status != "playing":
                self._close_abandoned(old, f"more than {self.tables_per_address} from {address}")
                excess -= 1

    def _close_abandoned(self, table: Table, why: str = "") -> None:
        self.lobby.close_table(table, why or f"nobody was at it for {self.idle_timeout:g} s")


def _closes_without(table: Table, session: Session) -> bool:
    """Whether ``table`` closes when ``session`` leaves it: it is the only human there
    and no match is running."""
    return (
        table.status != "playing"
        and all(seat.session in (None, session) for seat in table.seats)
        and all(other is session for other in table.spectators)
    )

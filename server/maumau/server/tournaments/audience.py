"""Who is told of a tournament, and when: its registered players and its followers.

Everyone registered, and whoever follows the tournament (``watch_tournament``, kept
as a :class:`Follower` with the window it asked for), gets a ``tournament`` message on
every change (:meth:`Audience.changed`, sent by the next :meth:`Audience.tell`); while
a series runs, every REFRESH_S if anything in it changed (:meth:`Audience.refresh`).
Before the start, new registrations are told to everyone at most every CALM_S (the
player who registers is told at once): hundreds registering at once would otherwise be
told to hundreds each. The message of each change is built once
(:func:`~maumau.server.tournament.view.whole`) and cut for each receiver.

A forgotten session follows nothing any more (:meth:`Audience.forget`): its follower
would be kept for ever, and a connect, watch, close loop grew the server by its every
session.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from maumau.protocol.messages import Tournament

from ..lobby import Lobby
from ..session import Session
from ..tournament import view
from ..tournament.state import TournamentState
from ..tournament.window import TOP, Window

REFRESH_S = 2.0  # while a series runs, followers are told its tables' progress this often
CALM_S = 1.0  # before the start, registrations are told at most this often


@dataclass(slots=True)
class Follower:
    """A session that follows a tournament, and the window of it it asked for."""

    session: Session
    tournament: int
    window: Window = TOP


class Audience:
    """See the module docstring. ``find`` gives an open or a recently finished
    tournament by id (None if it is neither)."""

    def __init__(self, lobby: Lobby, find: Callable[[int], TournamentState | None]) -> None:
        self.lobby = lobby
        self.find = find
        self.followers: dict[str, Follower] = {}  # by session id
        self.dirty: set[int] = set()  # changed since last told
        self._sent: dict[int, bytes] = {}  # what was last told, per tournament
        self._told: dict[int, float] = {}  # when (trio time), per tournament

    def follow(self, session: Session, tournament: TournamentState, window: Window = TOP) -> None:
        self.followers[session.id] = Follower(session, tournament.id, window)

    def forget(self, session: Session) -> None:
        self.followers.pop(session.id, None)

    def closed(self, tournament: TournamentState) -> None:
        """``tournament`` is over: its last message is told as any change, and nothing
        more is kept for it."""
        self._told.pop(tournament.id, None)
        self._sent.pop(tournament.id, None)

    def following(self, tournament_id: int) -> set[str]:
        """The ids of the sessions that follow ``tournament_id``."""
        return {k for k, f in self.followers.items() if f.tournament == tournament_id}

    def followed(self, session: Session) -> int | None:
        found = self.followers.get(session.id)
        return found.tournament if found is not None else None

    # --- the message -------------------------------------------------------------------

    def whole(self, tournament: TournamentState, windows: list[Window]) -> view.Whole:
        by_id = {s.id: s for s in self.lobby.sessions.values()}
        tables = self.lobby.tables

        def connected(key: str) -> bool:
            session = by_id.get(key)
            return session is not None and session.connected

        def progress(table_id: int) -> view.Progress | None:
            table = tables.get(table_id)
            if table is None or table.match is None:
                return None
            return list(table.match.scores), table.status, table.match.round_no

        return view.whole(tournament, windows, connected, progress, time.time())

    def message(
        self, tournament: TournamentState, key: str | None, window: Window = TOP
    ) -> Tournament:
        """The ``tournament`` message for the player whose session id is ``key``."""
        return view.message(self.whole(tournament, [window]), key, window)

    def send(self, session: Session, tournament: TournamentState) -> None:
        """Tell ``session`` of ``tournament`` now, in the window it follows it by."""
        follower = self.followers.get(session.id)
        mine = follower is not None and follower.tournament == tournament.id
        window = follower.window if follower is not None and mine else TOP
        session.send(self.message(tournament, session.id, window))

    def changed(self, tournament: TournamentState) -> None:
        """Tell ``tournament``'s audience at the next :meth:`tell`."""
        self.dirty.add(tournament.id)

    # --- telling -------------------------------------------------------------------------

    def members(self, tournament: TournamentState) -> list[tuple[Session, Window]]:
        """Who is told of ``tournament`` (its registered players and its followers),
        each with the window it asked for."""
        keys = {e.key for e in tournament.entries}
        found: dict[str, tuple[Session, Window]] = {}
        for session in self.lobby.sessions.values():
            key = session.id
            if key not in keys or not session.connected:
                continue
            follower = self.followers.get(key)
            window = (
                follower.window
                if follower is not None and follower.tournament == tournament.id
                else Window()
            )
            found[key] = (session, window)
        for follower in self.followers.values():
            if follower.tournament == tournament.id and follower.session.connected:
                found[follower.session.id] = (follower.session, follower.window)
        return list(found.values())

    def broadcast(self, tournament: TournamentState, force: bool, still_open: bool) -> None:
        """Tell everyone of ``tournament``; unless ``force``, only if anything changed
        since it was last told."""
        members = self.members(tournament)
        whole = self.whole(tournament, [window for _, window in members])
        if not force and self._sent.get(tournament.id) == whole.fingerprint:
            return
        if still_open:
            self._sent[tournament.id] = whole.fingerprint
        for session, window in members:
            session.send(view.message(whole, session.id, window))

    def tell(self, now: float, is_open: Callable[[int], bool]) -> None:
        """Tell of every change since the last call (``now`` is trio time); a
        tournament registering players was told at most CALM_S ago waits."""
        if not self.dirty:
            return
        dirty, self.dirty = self.dirty, set()
        for tournament_id in dirty:
            changed = self.find(tournament_id)
            if changed is None:
                continue
            told = self._told.get(tournament_id)
            if changed.state == "registering" and told is not None and now - told < CALM_S:
                self.dirty.add(tournament_id)  # told once CALM_S has passed
                continue
            still_open = is_open(tournament_id)
            if still_open:
                self._told[tournament_id] = now
            self.broadcast(changed, force=True, still_open=still_open)

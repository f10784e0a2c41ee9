"""Who of a tournament is here: its director and its registered players.

A tournament's life has an end whatever its people do. Before the start, a
registration whose session has had no connection for ``idle_timeout`` (the server's
``--idle-timeout``, as for a waiting table) is dropped, and a tournament none of whose
people (director or registered players) has been connected for as long is cancelled
(:meth:`Presence.note_idle` says which; the service does it). A tournament that waits
for its director's go, while its director has been away HANDOVER_S, may be started by
any of its registered players who is connected (:meth:`Presence.handed_over`).

The director is the session that made the tournament, or a later session of the same
name that proved the name's secret (:meth:`Presence.directs`): the director who said
bye, or whose connection was forgotten, comes back to the role.

The times are trio's clock, counted again from a restart; while the server cannot
save, nobody can come back, so that time does not count (:meth:`Presence.shift`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

import trio

from .. import names
from ..lobby import Lobby
from ..session import Session
from ..tournament.state import Entry, TournamentState

log = logging.getLogger("maumau.server")

HANDOVER_S = 120.0  # a director away this long hands the go to the registered players


class Presence:
    """See the module docstring. ``changed`` is told when a director comes back to the
    role (the tournament is saved and told)."""

    def __init__(
        self,
        lobby: Lobby,
        idle_timeout: float,
        changed: Callable[[TournamentState], None],
    ) -> None:
        self.lobby = lobby
        self.idle_timeout = idle_timeout
        self.changed = changed
        # Since when (trio time) nobody of a tournament that has not started has been
        # connected; since when each registered session has had no connection; since
        # when each tournament's director has been away.
        self.idle: dict[int, float] = {}
        self.away: dict[tuple[int, str], float] = {}
        self.director_away: dict[int, float] = {}

    def shift(self, paused_for: float) -> None:
        """The server could not save for ``paused_for`` seconds: nobody could come
        back meanwhile, so that time does not count as away (nor as idle)."""
        self.idle = {key: t + paused_for for key, t in self.idle.items()}
        self.away = {key: t + paused_for for key, t in self.away.items()}
        self.director_away = {key: t + paused_for for key, t in self.director_away.items()}

    def back(self, tournament_id: int, key: str) -> None:
        """The registration of ``key`` is not away (any more)."""
        self.away.pop((tournament_id, key), None)

    def closed(self, tournament_id: int) -> None:
        self.idle.pop(tournament_id, None)
        self.director_away.pop(tournament_id, None)
        for key in [k for k in self.away if k[0] == tournament_id]:
            del self.away[key]

    # --- the director ------------------------------------------------------------------

    def directs(self, session: Session, tournament: TournamentState) -> bool:
        """Whether ``session`` is ``tournament``'s director (see the module docstring).
        A session that proves it takes the role over for the next checks."""
        if session.id == tournament.director_key:
            return True
        director = tournament.director
        if director is None or not session.verified:
            return False
        if session.skeleton != names.skeleton(director):
            return False
        tournament.director_key = session.id
        self.changed(tournament)
        log.info("tournament %d: %s directs it again", tournament.id, session.name)
        return True

    def director_here(self, tournament: TournamentState) -> bool:
        return any(
            session.connected and self.directs(session, tournament)
            for session in self.lobby.sessions.values()
            if session.id == tournament.director_key or session.verified
        )

    def handed_over(self, session: Session, tournament: TournamentState) -> bool:
        """Whether ``session``, a registered player, may give the go the director
        should: the tournament waits for the go and its director has been away for
        :data:`HANDOVER_S`."""
        waits = tournament.state == "registering" and tournament.starts_at is None
        away = self.director_away.get(tournament.id)
        entry = tournament.entry(session.id)
        return (
            waits
            and entry is not None
            and not entry.withdrawn
            and away is not None
            and trio.current_time() - away >= HANDOVER_S
            and not self.director_here(tournament)
        )

    def note_directors(self, open_now: Iterable[TournamentState], now: float) -> None:
        """Since when each open tournament's director has been away."""
        ids = set()
        for tournament in open_now:
            ids.add(tournament.id)
            if self.director_here(tournament):
                self.director_away.pop(tournament.id, None)
            else:
                self.director_away.setdefault(tournament.id, now)
        for gone in set(self.director_away) - ids:
            del self.director_away[gone]

    # --- idle before the start ---------------------------------------------------------

    def note_idle(
        self, open_now: Iterable[TournamentState], now: float
    ) -> tuple[list[tuple[TournamentState, Entry]], list[TournamentState]]:
        """Before the start: the registrations of sessions away for ``idle_timeout``
        (to drop), and the tournaments nobody of which has been connected for as long
        (to cancel). Nothing while the server cannot save: nobody could come back."""
        drops: list[tuple[TournamentState, Entry]] = []
        cancels: list[TournamentState] = []
        if self.lobby.saver.cannot_save:
            return drops, cancels
        by_id = {s.id: s for s in self.lobby.sessions.values()}
        limit = self.idle_timeout
        for tournament in [t for t in open_now if t.state == "registering"]:
            anyone = False
            for entry in tournament.active():
                session = by_id.get(entry.key)
                if session is not None and session.connected:
                    anyone = True
                    self.away.pop((tournament.id, entry.key), None)
                    continue
                since = self.away.setdefault((tournament.id, entry.key), now)
                if now - since >= limit:
                    drops.append((tournament, entry))
            if anyone or self.director_here(tournament):
                self.idle.pop(tournament.id, None)
            elif now - self.idle.setdefault(tournament.id, now) >= limit:
                cancels.append(tournament)
        return drops, cancels

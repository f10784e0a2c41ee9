"""What the server remembers of finished play: the leaderboard, a player's figures,
the list of finished matches and their replays (all from the store; a server without
one answers ``no_store``). Who may see a match of a table with a password is decided
in :mod:`maumau.server.replay`."""

from __future__ import annotations

from maumau.protocol.messages import GetReplay, Matches, Replay, Stats

from . import replay
from .errors import TableError
from .session import Session
from .store import Store


class History:
    """Answers ``get_stats``, ``list_matches`` and ``get_replay``."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self._replays = replay.ReplayCache()

    def _need_store(self) -> Store:
        if self.store is None:
            raise TableError("no_store", "this server keeps no records (it runs without --db)")
        return self.store

    def stats_message(self, session: Session, limit: int, variant: str | None = None) -> Stats:
        """The leaderboard and the sender's line; with ``variant``, of that game only."""
        store = self._need_store()
        return Stats(
            tuple(store.leaderboard(limit, variant)),
            store.player_stats(session.name, variant),
            variant,
        )

    def matches_message(self, session: Session, limit: int, mine: bool) -> Matches:
        """The latest finished matches; those of tables with a password only for the
        people who sat there (see :mod:`maumau.server.replay`)."""
        store = self._need_store()
        owner = session.name if session.verified else None
        found = store.finished_matches(limit, session.name if mine else None, owner)
        return Matches(tuple(replay.match_summary(store, record) for record in found))

    def replay_message(self, session: Session, request: GetReplay) -> Replay:
        store = self._need_store()
        viewer = replay.Viewer(session.name if session.verified else None, request.password)
        return self._replays.page(store, request.match, request.start, request.count, viewer)

"""History: what finished matches say, read-only. The list of finished matches (with
the privacy of matches at tables with a password), who may see a private match, the
leaderboard and a player's statistics, all from ``matches``, ``results`` and
``players``."""

from __future__ import annotations

import sqlite3
from typing import Any

from .records import MatchRecord
from .rows import match_record, stats


class History:
    """Queries over finished matches; they write nothing."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def finished_matches(
        self, limit: int, name: str | None = None, owner: str | None = None
    ) -> list[MatchRecord]:
        """The latest finished matches, newest first; with ``name``, only those it played.

        Matches of tables with a password are private: they are listed only when
        ``owner`` (a name whose secret the asker proved) sat at them under a name that
        was already reserved when the match started (see :meth:`private_match_owner`)."""
        query = (
            "SELECT id, table_id, table_name, settings, seed, names, bots, started, finished, "
            "winner, scores FROM matches m WHERE finished IS NOT NULL"
            " AND (NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = m.table_id"
            " AND t.password IS NOT NULL) OR EXISTS (SELECT 1 FROM results r"
            " JOIN players p ON p.name = r.name WHERE r.match_id = m.id AND r.bot = 0"
            " AND r.name = ? AND p.created <= m.started))"
        )
        params: tuple[Any, ...] = (owner,)
        if name is not None:
            query += " AND id IN (SELECT match_id FROM results WHERE name=? AND bot=0)"
            params += (name,)
        rows = self.db.execute(query + " ORDER BY finished DESC, id DESC LIMIT ?", (*params, limit))
        return [match_record(row) for row in rows]

    def private_match_owner(self, match: MatchRecord, name: str) -> bool:
        """``name`` held a human seat of ``match`` and was already reserved by its secret
        when the match started: whoever proves that secret now is who sat there (a
        name can be claimed only while nobody uses it, so no session under it can be
        older than the claim)."""
        humans = {n for n, bot in zip(match.names, match.bots, strict=False) if not bot}
        if name not in humans:
            return False
        row = self.db.execute("SELECT created FROM players WHERE name=?", (name,)).fetchone()
        return row is not None and float(row[0]) <= match.started

    def leaderboard(self, limit: int, variant: str | None = None) -> list[dict[str, Any]]:
        """Human players by matches won, then share of matches won, then average final
        score (higher is better: a round's winner scores what is left in the other
        hands); with ``variant``, only matches of that game count."""
        where, params = self._game(variant)
        rows = self.db.execute(
            "SELECT name, COUNT(*), SUM(won), SUM(rounds_won), AVG(score) FROM results "
            f"WHERE bot=0{where} GROUP BY name "
            "ORDER BY SUM(won) DESC, 1.0 * SUM(won) / COUNT(*) DESC, AVG(score) DESC, name "
            "LIMIT ?",
            (*params, limit),
        )
        return [stats(row) for row in rows]

    def player_stats(self, name: str, variant: str | None = None) -> dict[str, Any] | None:
        where, params = self._game(variant)
        row = self.db.execute(
            "SELECT name, COUNT(*), SUM(won), SUM(rounds_won), AVG(score) FROM results "
            f"WHERE bot=0 AND name=?{where} GROUP BY name",
            (name, *params),
        ).fetchone()
        return None if row is None else stats(row)

    @staticmethod
    def _game(variant: str | None) -> tuple[str, tuple[Any, ...]]:
        """The condition that keeps the results of one game's matches (none: both)."""
        if variant is None:
            return "", ()
        return (
            " AND match_id IN (SELECT id FROM matches"
            " WHERE json_extract(settings, '$.variant') = ?)",
            (variant,),
        )

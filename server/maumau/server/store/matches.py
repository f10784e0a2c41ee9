"""Matches and their journal: each match's settings and seed, every action accepted
in it, its rounds and, once it is over, each seat's result.

The rules engine is deterministic, so a match is its settings, its seed and the list
of actions applied to it: the *journal*. A journal row holds the action's record and
the running timers as msgpack (see :mod:`.encoding`). The journal of a running match
goes to ``live_journal``, a plain table that is only ever appended to: a commit then
touches a few pages at its end, however many matches run at once. (Keyed by match, as
``journal`` is, every commit rewrote a page for each match it touched.) Once a match
has ended, :meth:`Matches.archive` moves its rows to ``journal``, keyed by match and
action number, where replays find them quickly.

So that a replay of the open group after a failed commit does exactly what the first
try did (see :mod:`.group`), no write here depends on what the group read: a match
gets its id from :class:`Matches` (never reused, also those AUTOINCREMENT gave before
schema 3), and its names, bots and rounds won per seat are kept in memory while it
runs, for its results."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

from .encoding import dumps, pack, unpack
from .group import WriteGroup
from .records import JournalEntry, MatchRecord
from .rows import match_record


class Matches:
    """The ``matches``, ``live_journal``, ``journal``, ``rounds`` and ``results``
    tables, with what the store keeps in memory about the matches running."""

    def __init__(self, db: sqlite3.Connection, writes: WriteGroup) -> None:
        self.db = db
        self._writes = writes
        self._match_meta: dict[int, tuple[list[str], list[bool]]] = {}  # names, bots
        self._rounds_won: dict[int, list[int]] = {}  # per seat, of matches running
        self._ended: set[int] = set()  # matches over whose rows are still in live_journal
        self._ended = {
            match_id
            for (match_id,) in self.db.execute(
                "SELECT DISTINCT match_id FROM live_journal WHERE match_id NOT IN "
                "(SELECT match_id FROM tables WHERE open=1 AND match_id IS NOT NULL) "
                "OR match_id IN (SELECT id FROM matches WHERE finished IS NOT NULL)"
            )
        }
        # Ids are never reused, also those AUTOINCREMENT gave before schema 3.
        used: list[int] = [
            int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM matches").fetchone()[0]),
            *(int(seq) for (seq,) in self.db.execute("SELECT seq FROM sqlite_sequence")),
        ]
        self._next_match_id = 1 + max(used)

    def start(
        self,
        table_id: int,
        table_name: str,
        settings: dict[str, Any],
        seed: int,
        names: list[str],
        bots: list[bool],
    ) -> int:
        match_id = self._next_match_id
        self._next_match_id += 1
        self._match_meta[match_id] = (list(names), list(bots))
        self._rounds_won[match_id] = [0] * len(names)
        self._writes.write(
            "INSERT INTO matches (id, table_id, table_name, settings, seed, names, bots, "
            "started) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                table_id,
                table_name,
                dumps(settings),
                seed,
                dumps(names),
                dumps(bots),
                time.time(),
            ),
        )
        return match_id

    def forget(self, match_id: int) -> None:
        """A match ends with its table: its journal waits for the archive, and what was
        kept in memory for its results is let go."""
        self._ended.add(match_id)
        self._match_meta.pop(match_id, None)
        self._rounds_won.pop(match_id, None)

    def append(
        self, match_id: int, n: int, action: list[Any], seq: int, timers: dict[str, Any]
    ) -> None:
        """Journal one accepted action (its number ``n`` counts from 1 within the match).

        The row is inserted with the others of its group when the group is committed
        (one ``executemany`` instead of a statement each)."""
        self._writes.append_journal_row((match_id, n, pack(action), seq, pack(timers), time.time()))

    def journal(self, match_id: int) -> Iterator[JournalEntry]:
        self._writes.insert_journal_rows()
        rows = self.db.execute(
            "SELECT n, action, seq, timers, at FROM journal WHERE match_id=? UNION ALL "
            "SELECT n, action, seq, timers, at FROM live_journal WHERE match_id=? ORDER BY n",
            (match_id, match_id),
        )
        for n, action, seq, timers, at in rows:
            yield JournalEntry(n, unpack(action), seq, unpack(timers), at)

    def journal_length(self, match_id: int) -> int:
        self._writes.insert_journal_rows()
        row = self.db.execute(
            "SELECT (SELECT COUNT(*) FROM journal WHERE match_id=?) + "
            "(SELECT COUNT(*) FROM live_journal WHERE match_id=?)",
            (match_id, match_id),
        )
        return int(row.fetchone()[0])

    @property
    def archive_due(self) -> bool:
        """Some ended match's journal is still in ``live_journal``."""
        return bool(self._ended)

    def archive(self) -> int:
        """Move the journals of ended matches (finished, or their table closed) from
        ``live_journal`` to ``journal``, in one transaction of their own; the number of
        rows moved. Each scans ``live_journal``, so the server calls it now and then,
        not for every match that ends."""
        if not self._ended:
            return 0
        self._writes.commit()
        ended = sorted(self._ended)
        marks = ",".join("?" * len(ended))
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT OR IGNORE INTO journal SELECT match_id, n, action, seq, timers, at "
                f"FROM live_journal WHERE match_id IN ({marks}) ORDER BY match_id, n",
                ended,
            )
            moved = self.db.execute(
                f"DELETE FROM live_journal WHERE match_id IN ({marks})", ended
            ).rowcount
        self._ended.difference_update(ended)  # (kept for the next try if this failed)
        return int(moved)

    def round_over(
        self, match_id: int, round_no: int, winner: int, points: int, scores: list[int]
    ) -> None:
        won = self._rounds_won_of(match_id, len(scores))
        if 0 <= winner < len(won):
            won[winner] += 1
        self._writes.write(
            "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?)",
            (match_id, round_no, winner, points, dumps(scores)),
        )

    def finish(self, match_id: int, winner: int, scores: list[int]) -> None:
        """Record the end of a match and each seat's result, in one transaction."""
        meta = self._match_meta.pop(match_id, None)
        if meta is None:  # a match restored after a restart: its row is committed
            match = self.match(match_id)
            if match is None:
                return
            meta = (match.names, match.bots)
        rounds_won = self._rounds_won_of(match_id, len(scores))
        del self._rounds_won[match_id]
        self._ended.add(match_id)
        self._writes.write(
            "UPDATE matches SET finished=?, winner=?, scores=? WHERE id=?",
            (time.time(), winner, dumps(scores), match_id),
        )
        for seat, (name, bot) in enumerate(zip(*meta, strict=True)):
            self._writes.write(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seat, name, bot, scores[seat], seat == winner, rounds_won[seat]),
            )

    def _rounds_won_of(self, match_id: int, seats: int) -> list[int]:
        """Rounds won by each seat in a match; for a match restored after a restart,
        counted from its committed rounds once, then kept up to date in memory."""
        won = self._rounds_won.get(match_id)
        if won is None:
            won = self._rounds_won[match_id] = [0] * seats
            for (winner,) in self.db.execute(
                "SELECT winner FROM rounds WHERE match_id=?", (match_id,)
            ):
                if 0 <= winner < seats:
                    won[winner] += 1
        return won

    def match(self, match_id: int) -> MatchRecord | None:
        row = self.db.execute(
            "SELECT id, table_id, table_name, settings, seed, names, bots, started, finished, "
            "winner, scores FROM matches WHERE id=?",
            (match_id,),
        ).fetchone()
        return None if row is None else match_record(row)

"""A tournament as data: who registered, the tables of every series and their results.

:class:`TournamentState` is everything a tournament is, kept by the server and saved
whole (:meth:`TournamentState.to_dict`) with the commit of every change, so that it
comes back after a restart exactly as it was. It holds no table, session or clock: the
server's :mod:`maumau.server.tournaments` runs it, and asks it the questions answered
here (who plays the next series, who met whom, the standings).

Players are known by their session's id (``key``), which a reconnecting player keeps,
and shown by their name. A player who withdraws keeps their line in the standings; a
late arrival plays from the series after the one running when they registered
(``since``). Times are wall-clock seconds (``time.time()``), kept only to show the
series clock and the countdown to the next start after a restart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .standings import Standing, TableResult, standings

STATES = ("registering", "playing", "break", "final", "finished", "cancelled")


@dataclass(slots=True)
class Entry:
    """One registered player."""

    key: str  # the session's id
    name: str
    withdrawn: bool = False
    since: int = 1  # the first series they may be seated in
    address: str | None = None  # the address they registered from (for the caps)


@dataclass(slots=True)
class SeriesTable:
    """One table of one series (``series`` is ``series + 1`` for the final)."""

    id: int
    series: int
    keys: list[str | None]  # the player at each seat; None for a bot
    names: list[str]
    scores: list[int] | None = None  # the match's final scores, once it is over
    rounds: int = 0  # the rounds its match had, once it is over


@dataclass(slots=True)
class TournamentState:
    """See the module docstring."""

    id: int
    name: str
    director: str | None
    director_key: str | None
    settings: dict[str, Any]  # the tables' settings (``seats`` is the table size)
    series: int
    deals: int | None
    final: bool
    bots: bool
    late_join: bool
    password: str | None
    seed: int
    state: str = "registering"
    series_no: int = 0
    entries: list[Entry] = field(default_factory=list)
    lot: list[str] = field(default_factory=list)  # drawn at the start: the last tie-break
    tables: list[SeriesTable] = field(default_factory=list)
    byes: list[tuple[int, str]] = field(default_factory=list)  # (series, key)
    starts_at: float | None = None  # when the next start is due (nil: the director's go)
    series_started: float | None = None
    finished_at: float | None = None
    origin: str | None = None  # the address it was made from (for the caps)

    # --- questions --------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The table size."""
        return int(self.settings.get("seats", 4))

    @property
    def final_no(self) -> int:
        """The number the final has among the series."""
        return self.series + 1

    def entry(self, key: str) -> Entry | None:
        return next((e for e in self.entries if e.key == key), None)

    def active(self) -> list[Entry]:
        """Those who are registered and have not withdrawn."""
        return [e for e in self.entries if not e.withdrawn]

    def registered(self, key: str) -> bool:
        entry = self.entry(key)
        return entry is not None and not entry.withdrawn

    def registration_open(self) -> bool:
        """Whether a player may register now."""
        if self.state == "registering":
            return True
        if self.state in ("playing", "break") and self.late_join:
            return self.next_series() <= self.series
        return False

    def next_series(self) -> int:
        """The series a player registering now would play first."""
        return self.series_no + 1

    def current_tables(self) -> list[SeriesTable]:
        return [t for t in self.tables if t.series == self.series_no]

    def table_of(self, table_id: int) -> SeriesTable | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def series_over(self) -> bool:
        return all(t.scores is not None for t in self.current_tables())

    def results(self) -> list[TableResult]:
        """The results of every finished table but the final's."""
        return [
            TableResult(t.series, tuple(t.keys), tuple(t.scores))
            for t in self.tables
            if t.scores is not None and t.series <= self.series
        ]

    def final_result(self) -> TableResult | None:
        for t in self.tables:
            if t.series == self.final_no and t.scores is not None:
                return TableResult(t.series, tuple(t.keys), tuple(t.scores))
        return None

    def standings(self) -> list[Standing]:
        return standings(
            [e.key for e in self.entries],
            self.results(),
            self.byes,
            self.lot,
            self.final_result(),
        )

    def met(self) -> dict[frozenset[str], int]:
        """How often each pair of players sat at one table."""
        met: dict[frozenset[str], int] = {}
        for table in self.tables:
            keys = [k for k in table.keys if k is not None]
            for i, a in enumerate(keys):
                for b in keys[i + 1 :]:
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
        return met

    def byes_of(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for _, key in self.byes:
            counts[key] = counts.get(key, 0) + 1
        return counts

    def seated(self, key: str) -> SeriesTable | None:
        """The table of the current series where ``key`` sits, if any."""
        for table in self.current_tables():
            if key in table.keys:
                return table
        return None

    # --- saving -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["byes"] = [list(b) for b in self.byes]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentState:
        values = dict(data)
        values["entries"] = [Entry(**e) for e in values.get("entries", [])]
        values["tables"] = [SeriesTable(**t) for t in values.get("tables", [])]
        values["byes"] = [(int(s), str(k)) for s, k in values.get("byes", [])]
        state = cls(**values)
        if state.state not in STATES:
            raise ValueError(f"unknown state {state.state!r}")
        return state

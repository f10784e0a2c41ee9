"""A tournament's standings: tournament points from each table's placing, and the order.

Players are opaque string keys; bots have no key and no line. Everything here is a
pure function of the results it is given, so the standings can be worked out again
at any time from what was recorded.

Tournament points (:func:`placing_points`): at a table of ``n`` seats, each seat
earns ``100 * (beaten + tied / 2) / (n - 1)``, rounded to the nearest whole number
(halves up), where ``beaten`` is the number of seats with a lower match score and
``tied`` the number of other seats with the same score. So the best at a table earns
100, the worst 0, and seats with the same score share their places' points equally:
``[30, 20, 10, 0]`` earn ``[100, 67, 33, 0]`` and ``[10, 10, 0]`` earn
``[75, 75, 0]``. A table of one earns 100. Bots' seats count in the placing like any
other seat (beating a bot is worth as much as beating a player), but only players
get standings lines.

A player's line (:func:`standings`) adds up, over every table played:

- ``points``: the tournament points of the player's placing there, and
  :data:`BYE_POINTS` (50, half a table's points) for every series with a bye;
- ``score``: the player's match scores (a bye scores 0);
- ``firsts``: the tables where nobody scored more than the player (a shared first
  place counts);
- ``played``: the tables played; ``byes``: the series with a bye.

The order: most points first; then the highest score; then the most firsts; then the
lot, an order of the players drawn from the tournament's seed when it starts (a
player not in it, such as a late arrival, comes after those in it, in the order of
their keys). Every player gets a rank of their own, 1 to N.

If a final was played, its players come first, in the order of their placing at the
final (highest final score first; a tie goes to the one ranked higher before the
final); the final's table counts in their lines like any other table (points,
score, firsts, played). Everybody else follows in the usual order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BYE_POINTS = 50
"""The tournament points of a series with a bye: half of a table's points."""


def placing_points(scores: Sequence[int]) -> list[int]:
    """The tournament points of each seat at a table with these match ``scores``
    (higher is better): ``round(100 * (beaten + tied / 2) / (n - 1))``, halves up."""
    seats = len(scores)
    if seats == 1:
        return [100]
    points: list[int] = []
    for score in scores:
        beaten = sum(1 for other in scores if other < score)
        tied = sum(1 for other in scores if other == score) - 1
        # 100 * (2 * beaten + tied) / (2 * (seats - 1)), rounded half up, in integers.
        numerator = 100 * (2 * beaten + tied)
        denominator = 2 * (seats - 1)
        points.append((2 * numerator + denominator) // (2 * denominator))
    return points


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one table's match."""

    series: int
    """The series the table belonged to."""
    players: tuple[str | None, ...]
    """The player key at each seat; None for a bot's seat."""
    scores: tuple[int, ...]
    """The match score at each seat."""

    def __post_init__(self) -> None:
        if len(self.players) != len(self.scores):
            raise ValueError("a table result needs one score per seat")


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    key: str
    rank: int
    """1 for the best, then 2, 3 and so on; never shared."""
    points: int
    score: int
    firsts: int
    played: int
    byes: int


@dataclass(slots=True)
class _Totals:
    points: int = 0
    score: int = 0
    firsts: int = 0
    played: int = 0
    byes: int = 0

    def add_table(self, points: int, score: int, first: bool) -> None:
        self.points += points
        self.score += score
        self.firsts += first
        self.played += 1


def standings(
    players: Sequence[str],
    results: Iterable[TableResult],
    byes: Iterable[tuple[int, str]],
    lot: Sequence[str],
    final: TableResult | None = None,
) -> list[Standing]:
    """The standings of ``players``, best first (see the module's rules).

    ``results`` are the tables of the series played (never the final), ``byes`` the
    ``(series, key)`` of every bye, ``lot`` the order drawn at the start, ``final``
    the final's table if it was played. Results and byes of keys not in ``players``
    are left out (as are bots' seats); a bye listed twice counts once.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    totals = {key: _Totals() for key in players}
    for result in results:
        _add_table(totals, result)
    for _series, key in set(byes):
        if key in totals:
            totals[key].points += BYE_POINTS
            totals[key].byes += 1

    drawn = {key: index for index, key in enumerate(lot)}

    def usual(key: str) -> tuple[int, int, int, int, str]:
        line = totals[key]
        position = drawn.get(key)
        if position is None:  # after everyone in the lot, by key
            return (-line.points, -line.score, -line.firsts, len(drawn), key)
        return (-line.points, -line.score, -line.firsts, position, "")

    order = sorted(players, key=usual)
    if final is not None:
        before = {key: index for index, key in enumerate(order)}
        final_score = {
            key: score
            for key, score in zip(final.players, final.scores, strict=True)
            if key is not None and key in totals
        }
        finalists = sorted(final_score, key=lambda key: (-final_score[key], before[key]))
        _add_table(totals, final)
        order = finalists + [key for key in order if key not in final_score]
    return [
        Standing(
            key=key,
            rank=rank,
            points=totals[key].points,
            score=totals[key].score,
            firsts=totals[key].firsts,
            played=totals[key].played,
            byes=totals[key].byes,
        )
        for rank, key in enumerate(order, start=1)
    ]


def _add_table(totals: dict[str, _Totals], result: TableResult) -> None:
    points = placing_points(result.scores)
    best = max(result.scores, default=0)
    for key, score, earned in zip(result.players, result.scores, points, strict=True):
        if key is not None and key in totals:
            totals[key].add_table(earned, score, score == best)

"""Tournaments' pure core: a tournament as data, its course, seating each series,
ranking the players, the caps and what each receiver is shown.

``state`` is a tournament as data; ``course`` decides what comes next (who plays the
next series, what follows one); ``draw`` seats a series (the first drawn from the
tournament's seed, the later ones by the standings, avoiding repeat pairings) and the
final; ``standings`` turns the tables' results and the byes into tournament points
and the ranking; ``caps`` checks a request against the caps; ``view`` and ``window``
build the ``tournament`` message. All are pure functions of their arguments (the wall
time is given): no clock, no I/O, no trio. The server's side, which runs them, is
:mod:`maumau.server.tournaments`.
"""

from .draw import Seating, final_table, first_series, later_series, pairs, table_sizes
from .standings import BYE_POINTS, Standing, TableResult, placing_points, standings

__all__ = [
    "BYE_POINTS",
    "Seating",
    "Standing",
    "TableResult",
    "final_table",
    "first_series",
    "later_series",
    "pairs",
    "placing_points",
    "standings",
    "table_sizes",
]

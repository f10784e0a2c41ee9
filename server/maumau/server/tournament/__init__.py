"""Tournaments' pure core: seating each series and ranking the players.

``draw`` seats a series (the first drawn from the tournament's seed, the later ones
by the standings, avoiding repeat pairings) and the final; ``standings`` turns the
tables' results and the byes into tournament points and the ranking. Both are pure
functions of their arguments: no clock, no I/O, no trio.
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

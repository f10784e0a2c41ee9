"""Tournaments' pure core: ranking the players.

``standings`` turns the tables' results and the byes into tournament points and the
ranking. It is a pure function of its arguments: no clock, no I/O, no trio.
"""

from .standings import BYE_POINTS, Standing, TableResult, placing_points, standings

__all__ = ["BYE_POINTS", "Standing", "TableResult", "placing_points", "standings"]

"""A table: its seats, spectators, match, timers and bots (see :mod:`.table`)."""

from ..errors import TableError
from .host import Player, TableHost
from .table import Table

__all__ = ["Player", "Table", "TableError", "TableHost"]

"""What one receiver is shown of a tournament: a page of its standings and of one
series' tables.

A tournament of TOURNAMENT_PLAYERS_MAX players over TOURNAMENT_SERIES_MAX series has
500 standings lines and some 2,500 tables; all of them in one ``tournament`` message
would pass the frame limit many times over. So each message carries a *window*
(:class:`Window`, asked for with ``watch_tournament``): TOURNAMENT_STANDINGS_PAGE
lines of the standings from ``standings_from`` and TOURNAMENT_TABLES_PAGE tables of
one series from ``tables_from``, plus the receiver's own line and own table of that
series when the page does not hold them. Every line says where it stands in the whole
standings (``line``); ``players`` and ``tables_total`` say how many there are in all,
so a client can offer the rest. :func:`cut` is pure: it takes the whole lists, built
once for every receiver, and returns what one receiver gets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maumau.protocol.messages import TOURNAMENT_STANDINGS_PAGE, TOURNAMENT_TABLES_PAGE


@dataclass(frozen=True, slots=True)
class Window:
    """The part a receiver asked for: the first standings line, the series whose
    tables (None: the one being played or last played), the first of its tables."""

    standings_from: int = 0
    series: int | None = None
    tables_from: int = 0


TOP = Window()  # the top of the standings and the current series' first tables


@dataclass(frozen=True, slots=True)
class Cut:
    """What one receiver is sent: see :func:`cut`."""

    standings: tuple[dict[str, Any], ...]
    you: int | None
    tables: tuple[dict[str, Any], ...]
    tables_total: int


def cut(
    standings: list[dict[str, Any]],
    keys: list[str],
    tables: list[dict[str, Any]],
    table_keys: list[list[str | None]],
    current: int,
    window: Window,
    key: str | None,
) -> Cut:
    """The window of ``standings`` (every line, best first, with ``line``; ``keys``
    their players' session ids) and of ``tables`` (every series' tables;
    ``table_keys`` their seats' players) that the receiver ``key`` gets; ``current``
    is the series shown when the window names none (0: no tables yet)."""
    start = min(window.standings_from, max(0, len(standings) - 1))
    page = list(range(start, min(len(standings), start + TOURNAMENT_STANDINGS_PAGE)))
    mine = keys.index(key) if key is not None and key in keys else None
    if mine is not None and mine not in page:
        page.append(mine)
    you = page.index(mine) if mine is not None else None
    series = window.series if window.series is not None else current
    of_series = [i for i, row in enumerate(tables) if row["series"] == series]
    first = min(window.tables_from, max(0, len(of_series) - 1))
    shown = of_series[first : first + TOURNAMENT_TABLES_PAGE]
    own = next((i for i in of_series if key is not None and key in table_keys[i]), None)
    if own is not None and own not in shown:
        shown.append(own)
    return Cut(
        tuple(standings[i] for i in page),
        you,
        tuple(tables[i] for i in shown),
        len(of_series),
    )

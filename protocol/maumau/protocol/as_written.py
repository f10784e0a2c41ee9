"""The rules as written: the literal reading of every table setting that is a rule.

The seeds are the rules as first written. The rules reference (``RULES.md``) fills
their gaps and softens them for play over a network, and some of its defaults are
not the seeds' literal reading: the call window stays open at least
``mau_window_ms`` after the play, where seed 004 closes it when the next player acts;
a Jack may go on a Jack; with two players an American Reverse skips. This module
says, once and as data, what the literal reading of each such setting is, so that
everything that shows or checks it reads the same thing: the server's preset
(``Settings.as_written``), the new-table dialog (its preset, and the mark on each
setting whose value departs), the in-game help, and the test that holds
``docs/rules.md`` ("Where a table departs from the seeds") to it.

:data:`AS_WRITTEN` holds, for each game, every setting that is a rule of the game and
its literal value. The settings that are not rules (the seats, the clocks, the time a
last card's call window takes, the cap on lag compensation) have no literal value
and are never a departure. A table *departs* from the rules as written in each
setting of :data:`AS_WRITTEN` whose value is another (:func:`departures`); the
default settings depart in those of :data:`DEFAULTS_DEPART`, which
``docs/rules.md`` lists with the reason for each.

Shared by the server and the client, so it imports nothing from either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

Value = bool | int

AS_WRITTEN: Final[dict[str, dict[str, Value]]] = {
    "classic": {
        "target_score": 150,
        "deals": 0,  # rounds go on until somebody reaches the target
        "mau_penalty": 2,
        "false_catch_penalty": 0,  # a catch of nobody is refused, and costs nothing
        "mau_window_minimum": False,  # the window closes when the next player acts
        "lag_compensation": False,  # the server's clock, as the frames arrive, decides
        "reverse_skips_with_two": False,  # a 9 reverses (with two, nothing changes)
        "jack_on_jack": False,  # a Jack may not follow a Jack
    },
    "american": {
        "target_score": 500,
        "deals": 0,
        "mau_penalty": 2,
        "false_catch_penalty": 0,
        "mau_window_minimum": False,
        "lag_compensation": False,
        "reverse_skips_with_two": False,  # a Reverse reverses: seed 004 says no more
        "stack_draw_two": False,
        "wild_draw_four_challenge": False,
    },
}
"""Game -> every setting that is a rule, with its literal value (the preset "as
written" of the new-table dialog sets every one of them)."""

DEFAULTS_DEPART: Final[dict[str, tuple[str, ...]]] = {
    "classic": ("mau_window_minimum", "jack_on_jack"),
    "american": ("mau_window_minimum", "reverse_skips_with_two"),
}
"""Game -> the settings whose default is not the literal reading (the server's tests
hold this to its defaults). Each is a departure a player meets at a default table."""

MARK: Final = "*"
"""The mark of a setting that departs from the rules as written, in the new-table
dialog and the help (ASCII, so the same in every terminal)."""


def game(settings: Mapping[str, object]) -> str:
    """The game of ``settings``: ``"american"``, else ``"classic"``."""
    return "american" if settings.get("variant") == "american" else "classic"


def departs(variant: str, name: str, value: object) -> bool:
    """Whether ``name`` at ``value`` departs from the rules as written in ``variant``
    (never for a setting that is not a rule of the game). A bool and an int are
    told apart: ``1`` is not ``True``."""
    literal = AS_WRITTEN["american" if variant == "american" else "classic"].get(name)
    if literal is None:
        return False
    return type(value) is not type(literal) or value != literal


def departures(settings: Mapping[str, object]) -> list[str]:
    """The settings of ``settings`` (a table's, as ``table.settings`` holds them) that
    depart from the rules as written, in the order of :data:`AS_WRITTEN`; a setting
    left out is not counted. With ``deals`` above 0 the target does not count: the
    match is not played to it."""
    variant = game(settings)
    found = [
        name
        for name in AS_WRITTEN[variant]
        if name in settings and departs(variant, name, settings[name])
    ]
    deals = settings.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and deals > 0:
        found = [name for name in found if name != "target_score"]
    return found

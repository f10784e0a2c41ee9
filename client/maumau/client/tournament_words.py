"""The tournament screen's lines in words: its title, the line of settings, a
series table's players and state, and where a player of the standings is now.

Pure functions of the followed tournament (:class:`~maumau.client.tournament.Following`,
which says the rest: the state, the clock, the tables' labels) and of the rows of its
``tournament`` message, without Textual. The tournament screen
(:mod:`maumau.client.screens.tournament`) and its lists
(:mod:`maumau.client.widgets.standings`, :mod:`maumau.client.widgets.series_tables`)
draw with them. The text is plain ``str`` holding other people's names (players,
the tournament, its director), shown only through
:func:`~maumau.client.literal.literal`; the title is built here as Rich ``Text``
the same way.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text

from .i18n import _, pgettext
from .literal import literal
from .tournament import Following, game_words


def table_state(table: dict[str, Any], deals: int | None = None) -> str:
    """A tournament table's state in a few words (``deals``: a series' length, when
    it is so many deals)."""
    state = table["state"]
    if state == "playing" and deals:
        return _("deal {number} of {deals}").format(number=table["round"], deals=deals)
    if state == "playing":
        return _("round {round}").format(round=table["round"])
    if state == "waiting":
        return pgettext("table state", "waiting")
    if state == "finished":
        return pgettext("table state", "finished")
    return str(state)


def table_players(table: dict[str, Any]) -> str:
    """Who sits at a tournament table, bots marked, each with their score once the
    match has begun (always once it is over): ``Ann 62  Bob 40  Dan(bot) 12``."""
    parts = []
    scores = table["scores"]
    scored = bool(table["round"]) or table["state"] == "finished"
    for i, name in enumerate(table["names"]):
        bot = i < len(table["bots"]) and table["bots"][i]
        shown = _("{name} (bot)").format(name=name).replace(" (", "(") if bot else name
        if scored and i < len(scores):
            shown = f"{shown} {scores[i]}"
        parts.append(shown)
    return "  ".join(parts)


def where_words(line: dict[str, Any], following: Following) -> str:
    """Where a player of the standings is now: their table (by its label), a bye,
    or withdrawn."""
    if line["withdrawn"]:
        return pgettext("standings", "withdrawn")
    table = line.get("table")
    state = following.info.state
    if table is not None:
        return following.where_words(table)
    if state == "playing":
        return pgettext("standings", "bye")
    return ""


def about_line(following: Following) -> str:
    """The tournament's settings in one line: director, length, final, late
    arrivals, locked."""
    info = following.info
    dot = "·"
    parts = []
    if info.director:
        parts.append(_("director: {name}").format(name=info.director))
    parts.append(following.length_words())
    if info.final:
        parts.append(_("with a final"))
    if info.late_join:
        parts.append(_("late arrivals welcome"))
    if info.locked:
        parts.append(_("locked"))
    return f" {dot} ".join(parts)


def title_line(following: Following | None, now: float, width: int, ascii_only: bool) -> Text:
    """The screen's title, ``width`` cells: the program, the tournament's name, game
    and state, and at the right its clock at ``now`` (the series' time, or the
    countdown to the next start). The name gives way first; its game and state stay
    whole."""
    text = Text(" maumau  ", style="bold")
    if following is None:
        return text
    dot = "-" if ascii_only else "·"
    info = following.info
    clock = following.clock_words(now)
    about = f" {dot} ".join(
        part
        for part in (
            game_words(str(info.settings.get("variant", "classic"))),
            following.state_words(),
        )
        if part
    )
    room = width - 1 - text.cell_len - cell_len(clock) - 2
    name_room = max(4, room - cell_len(about) - 3)
    name = info.name
    if cell_len(name) > name_room:
        cut = "..." if ascii_only else "…"
        name = name[: max(1, name_room - len(cut))] + cut
    line = f"{name} {dot} {about}"
    if cell_len(line) > room:
        line = line[: max(0, room)]
    text.append_text(literal(line))
    text.append(" " * max(1, width - 1 - text.cell_len - cell_len(clock)))
    text.append_text(literal(clock))
    return text

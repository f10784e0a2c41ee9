"""A tournament's standings, best first, paged by the tournament screen's PgUp/PgDn.

The list draws the followed tournament's standings from the view model
(:meth:`Standings.draw`): the player's own line marked with a ``▶`` (``>`` in ASCII)
and in bold, never by colour alone; withdrawn players dimmed and said in words
(where they are now), disconnected ones said "offline"; the numbers to the right.
Every cell holds someone's name or is shown as one: each is
:func:`~maumau.client.literal.literal`.

A ``tournament`` message holds one page of the standings (the server's window,
``standings_from``). :meth:`Standings.page` scrolls a page, and past the lines the
message holds asks for the next (or the previous) page of them: it posts
:class:`Standings.LinesWanted` up to the screen, which asks the server.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from maumau.protocol.messages import TOURNAMENT_STANDINGS_PAGE

from ..host import host_of
from ..i18n import _, pgettext
from ..literal import literal
from ..tournament_words import where_words
from .pick_list import set_columns


class Standings(DataTable[Any], can_focus=False):
    """The standings, best first (scrolled by the screen's PgUp/PgDn)."""

    class LinesWanted(Message):
        """The standings from line ``start`` on are wanted from the server."""

        def __init__(self, start: int) -> None:
            super().__init__()
            self.start = start

    def draw(self) -> None:
        """The followed tournament's standings (none while there is none)."""
        host = host_of(self.app)
        following = host.model.tournament
        headers = [
            # NOTE: the standings' column headers: the rank, the player, tournament
            # points, the total score of their matches, how many tables they won,
            # how many byes they had, and where they are now (table, bye, withdrawn).
            pgettext("standings column", "#"),
            pgettext("standings column", "player"),
            pgettext("standings column", "points"),
            pgettext("standings column", "score"),
            pgettext("standings column", "1st"),
            pgettext("standings column", "byes"),
            pgettext("standings column", "now"),
        ]
        set_columns(self, headers)
        self.clear()
        if following is None:
            return
        mark = ">" if host.ascii_only else "▶"
        you = following.info.you
        for index, line in enumerate(following.info.standings):
            mine = index == you
            name = line["name"]
            if not line["connected"] and not line["withdrawn"]:
                name = _("{name} (offline)").format(name=name)
            style = "bold reverse" if mine else ("dim" if line["withdrawn"] else "")
            cells = (
                f"{mark if mine else ' '}{line['rank']}",
                name,
                str(line["points"]),
                str(line["score"]),
                str(line["firsts"]),
                str(line["byes"]),
                where_words(line, following),
            )
            self.add_row(*(cell_text(i, cell, style) for i, cell in enumerate(cells)))

    def page(self, pages: int) -> None:
        """Scroll a page up (``pages`` < 0) or down; past the lines the message
        holds, want the previous or the next page of them instead."""
        following = host_of(self.app).model.tournament
        if pages < 0:
            if self.scroll_y <= 0 and following is not None and following.first_line > 0:
                start = max(0, following.first_line - TOURNAMENT_STANDINGS_PAGE)
                self.post_message(self.LinesWanted(start))
                return
            self.scroll_page_up(animate=False)
        else:
            at_end = self.scroll_y >= self.max_scroll_y
            if at_end and following is not None and following.more_below():
                start = following.first_line + TOURNAMENT_STANDINGS_PAGE
                self.post_message(self.LinesWanted(start))
                return
            self.scroll_page_down(animate=False)


def cell_text(column: int, cell: str, style: str) -> Text:
    """A standings cell: the numbers (points, score, firsts, byes) to the right."""
    text = literal(cell, style)
    if 2 <= column <= 5:
        text.justify = "right"
    return text

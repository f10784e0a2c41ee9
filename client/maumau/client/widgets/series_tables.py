"""The tables of the series a tournament screen shows, each called by its label.

The list draws the tables of the series shown (:meth:`SeriesTables.draw`, from the
followed tournament in the view model): each by its label (``2.1``, ``final``;
never the server's id), who sits there with their scores, and its state. The
player's own table is marked with a ``▶`` (``>`` in ASCII) and in bold; when the
player is seated anew (a new series, or a new table), the cursor starts on their
table, and otherwise stays on its row across redraws. The players' column takes
what the others leave of the width, cut with a mark. Enter on a row is Textual's
``RowSelected``, which the screen turns into watching that table. Every cell is
:func:`~maumau.client.literal.literal`: it holds other people's names.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.binding import Binding

from ..host import host_of
from ..i18n import N_, pgettext
from ..literal import literal
from ..tournament_words import table_players, table_state
from .pick_list import PickList, set_columns

# The cells the table list's other columns take (the players column gets the rest).
TABLE_COLUMNS = 28


class SeriesTables(PickList):
    """The tables of the series: Enter watches the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", N_("watch"))]

    placed: tuple[int, int | None] = (-1, None)  # the seating the cursor was put on

    def selected(self) -> dict[str, Any] | None:
        """The table under the cursor, if any."""
        following = host_of(self.app).model.tournament
        if following is None:
            return None
        tables = following.current_tables()
        if not tables or not 0 <= self.cursor_row < len(tables):
            return None
        return tables[self.cursor_row]

    def draw(self, width: int) -> None:
        """The tables of the series shown, fitted to the screen's ``width`` (the
        list is hidden while there are none)."""
        host = host_of(self.app)
        following = host.model.tournament
        headers = [
            # NOTE: the column headers of the series' tables: the table's number,
            # who sits there (with their scores), and its state.
            pgettext("series column", "table"),
            pgettext("series column", "players"),
            pgettext("series column", "state"),
        ]
        set_columns(self, headers)
        keep = self.cursor_row
        self.clear()
        if following is None:
            self.display = False
            return
        tables = following.current_tables()
        self.display = bool(tables)
        mine = following.my_table()
        mark = ">" if host.ascii_only else "▶"
        cut = "..." if host.ascii_only else "…"
        room = max(10, width - TABLE_COLUMNS)
        for row in tables:
            players = table_players(row)
            if cell_len(players) > room:
                players = players[: room - len(cut)] + cut
            number = f"{mark if row['id'] == mine else ' '}{following.label(row['id'])}"
            style = "bold" if row["id"] == mine else ""
            cells = (number, players, table_state(row, following.info.deals))
            self.add_row(*(literal(cell, style) for cell in cells), key=str(row["id"]))
        ids = [row["id"] for row in tables]
        if (following.info.series_no, mine) != self.placed and mine in ids:
            keep = ids.index(mine)  # a new seating: the cursor starts on the player's table
            self.placed = (following.info.series_no, mine)
        if tables:
            self.move_cursor(row=min(keep, len(tables) - 1))

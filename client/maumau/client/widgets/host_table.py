"""One of the host screen's lists (connections, bans), filled anew at every view.

The host's view is asked for every few seconds, so a list is cleared and filled
often: :meth:`HostTable.fill` keeps the highlighted row highlighted by its key (a
session, or a ban's ``what:target``), not by its place, and fits every column to the
width (no horizontal scrollbar: the columns named ``shrinkable`` give up cells,
their cells cut with a mark, :func:`~maumau.client.host_words.fit`). Every header
and cell is shown through :func:`~maumau.client.literal.literal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.widgets import DataTable

from ..host_words import Rows, cut, fit
from ..literal import literal


class HostTable(DataTable[Any]):
    """One of the host screen's lists (connections, bans); ``row_keys_shown``: the key
    of each row, in order (a session, or a ban's what and target)."""

    row_keys_shown: list[str] = []  # (replaced whole, never changed in place)

    def fill(
        self,
        headers: list[str],
        rows: Rows,
        width: int,
        shrinkable: Sequence[int],
        ascii_only: bool,
    ) -> None:
        """Fill the list anew with ``rows`` (key, cells), each column as wide as fits
        ``width`` (no horizontal scrollbar); the highlighted row stays highlighted."""
        columns = [
            [header, *(cells[i] for _key, cells in rows)] for i, header in enumerate(headers)
        ]
        # Each cell is padded by one either side; a vertical scrollbar may take 2.
        room = width - 2 * len(headers) - 2
        widths = fit(columns, room, shrinkable)
        before = self.row_keys_shown
        keep = before[self.cursor_row] if 0 <= self.cursor_row < len(before) else None
        self.clear(columns=True)
        for header, size in zip(headers, widths, strict=True):
            self.add_column(literal(cut(header, size, ascii_only)), width=size)
        for key, cells in rows:
            shown = [
                literal(cut(cell, size, ascii_only))
                for cell, size in zip(cells, widths, strict=True)
            ]
            self.add_row(*shown, key=key)
        keys = [key for key, _cells in rows]
        self.row_keys_shown = keys
        if keep in keys:
            self.move_cursor(row=keys.index(keep), animate=False)

    def selected(self, rows: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """The item of ``rows`` (the view's, in the list's order) under the cursor,
        if the list is shown and the cursor on one."""
        if not self.display or not 0 <= self.cursor_row < len(rows):
            return None
        return rows[self.cursor_row]

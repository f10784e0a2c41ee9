"""A list of rows to pick from, whose Enter says in the footer what it does.

By mouse or finger, as Textual's tables do: a click on a row picks it (moves the
cursor there), a click on the picked row opens it, as Enter would. In a list of rows
the picked row is the picked row wherever in it the click lands (Textual's table
would want the same cell twice).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.coordinate import Coordinate
from textual.widgets import DataTable


class PickList(DataTable[Any]):
    """A list of rows whose Enter shows in the footer as what it does (a plain
    DataTable hides its Enter). Subclasses name it in their BINDINGS; Enter means
    nothing, and is not shown, without rows."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor":
            return self.row_count > 0
        return True

    async def _on_click(self, event: events.Click) -> None:
        """A second click on the picked row, in any of its cells, opens it (the
        table's own handler, which runs next, sees the cell it has picked)."""
        meta = event.style.meta
        row, column = meta.get("row"), meta.get("column")
        if (
            self.cursor_type == "row"
            and isinstance(row, int)
            and isinstance(column, int)
            and row == self.cursor_row
            and row >= 0
            and column >= 0
        ):
            self.set_reactive(DataTable.cursor_coordinate, Coordinate(row, column))


def set_columns(table: DataTable[Any], headers: list[str]) -> None:
    """Give ``table`` these column headers, unless it has them already (the rows are
    the caller's; changing the columns clears them)."""
    if [str(column.label) for column in table.columns.values()] != headers:
        table.clear(columns=True)
        for header in headers:
            table.add_column(header)

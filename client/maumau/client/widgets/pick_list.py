"""A list of rows to pick from, whose Enter says in the footer what it does."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable


class PickList(DataTable[Any]):
    """A list of rows whose Enter shows in the footer as what it does (a plain
    DataTable hides its Enter). Subclasses name it in their BINDINGS; Enter means
    nothing, and is not shown, without rows."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor":
            return self.row_count > 0
        return True


def set_columns(table: DataTable[Any], headers: list[str]) -> None:
    """Give ``table`` these column headers, unless it has them already (the rows are
    the caller's; changing the columns clears them)."""
    if [str(column.label) for column in table.columns.values()] != headers:
        table.clear(columns=True)
        for header in headers:
            table.add_column(header)

"""The lobby's two lists: the server's tables, and its tournaments above them.

Each list draws itself from the view model (:meth:`TableList.draw`,
:meth:`TournamentList.draw`), keeping its cursor on the same row across redraws, and
says which row is under the cursor; the lobby screen decides what Enter on a row does
(Textual's ``RowSelected`` bubbles up to it). The cursor moves between the two as if
they were one list: up from the first table into the tournaments (when there are
any), down from the last tournament back to the tables.

The tables' list fits its rows to the width, without a horizontal scrollbar: the
players column takes what the others leave, and when even its header does not fit,
what is said after a table's name (the player's kept seat, locked) is cut, never the
name itself (:meth:`TableList.rooms`). Every cell is someone else's words or holds
them: each is :func:`~maumau.client.literal.literal`.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.binding import Binding

from ..host import host_of
from ..i18n import N_, _, ngettext, pgettext
from ..literal import literal
from ..lobby_words import (
    OTHER_COLUMNS,
    extra_width,
    game_word,
    state_words,
    table_name,
    tournament_state,
)
from ..model import seat_label
from .pick_list import PickList, set_columns

# The keys of the tables' columns, in their order.
TABLE_COLUMNS = ("table", "game", "seats", "players", "state")


class TableList(PickList):
    """The lobby's tables (``#tables``): Enter joins the one under the cursor; up
    from the first goes to the tournaments above, when there are any."""

    BINDINGS = [Binding("enter", "select_cursor", N_("join"))]

    def action_cursor_up(self) -> None:
        above = self.screen.query_one(TournamentList)
        if self.cursor_row <= 0 and above.display and above.row_count:
            above.focus()
            return
        super().action_cursor_up()

    def selected(self) -> dict[str, Any] | None:
        """The summary of the table under the cursor, if any."""
        lobby = host_of(self.app).model.lobby
        if lobby is None or not 0 <= self.cursor_row < len(lobby.tables):
            return None
        return lobby.tables[self.cursor_row]

    def draw(self, width: int) -> None:
        """Every table of the lobby, fitted to the screen's ``width``."""
        host = host_of(self.app)
        model = host.model
        self.columns_headed()
        lobby = model.lobby
        keep = self.cursor_row
        self.clear()
        wide = width >= 70
        # For the players column: the state column stays whole.
        room = max(8, width - OTHER_COLUMNS - extra_width(wide))
        cut = "..." if host.ascii_only else "…"
        if lobby is None:
            return
        players_room, name_room = self.rooms(width, wide)
        room = min(room, players_room)
        for summary in lobby.tables:
            seats = summary["seats"]
            taken = sum(1 for s in seats if s["name"])
            players = " ".join(seat_label(s).replace(" (", "(") for s in seats if s["name"])
            name = table_name(summary, model.name)
            if cell_len(name) > name_room:  # what is said after the name gives way
                kept = max(len(summary["name"]), name_room - len(cut))
                name = name[:kept] + cut
            game = game_word(summary["variant"])
            state = state_words(summary["state"], summary.get("round", 0), wide)
            if len(players) > room:
                players = players[: room - len(cut)] + cut
            cells = (name, game, f"{taken}/{len(seats)}", players, state)
            self.add_row(*map(literal, cells), key=str(summary["id"]))
        if lobby.more:
            more = ngettext("... {n} more", "... {n} more", lobby.more).format(n=lobby.more)
            self.add_row(*map(literal, (more, "", "", "", "")))
        if lobby.tables:
            self.move_cursor(row=min(keep, len(lobby.tables) - 1))

    def columns_headed(self) -> None:
        """Give the list its columns, headed in the current language (again when the
        language changed or the screen was composed anew)."""
        headers = [
            # NOTE: lobby column headers: the table's name, its game, its seats taken
            # of all, who sits there, and whether it waits or plays.
            pgettext("lobby column", "table"),
            pgettext("lobby column", "game"),
            pgettext("lobby column", "seats"),
            pgettext("lobby column", "players"),
            pgettext("lobby column", "state"),
        ]
        if [str(column.label) for column in self.columns.values()] == headers:
            return
        self.clear(columns=True)
        for key, header in zip(TABLE_COLUMNS, headers, strict=True):
            self.add_column(header, key=key)

    def rooms(self, width: int, wide: bool) -> tuple[int, int]:
        """The cells the players column and the tables' names may take so that a
        whole row fits the width, without a horizontal scrollbar: the players get
        what the other columns (as wide as their widest cell or header, each padded
        by a cell either side) and a vertical scrollbar, if one shows, leave, at
        least their header; if that is still too wide, what is said after a
        table's name (its seat kept, locked) is cut (never the name itself)."""
        model = host_of(self.app).model
        lobby = model.lobby
        if lobby is None:
            return width, width
        columns: list[list[str]] = [[str(c.label)] for c in self.columns.values()]
        for summary in lobby.tables:
            columns[0].append(table_name(summary, model.name))
            columns[1].append(game_word(summary["variant"]))
            columns[2].append(f"{len(summary['seats'])}/{len(summary['seats'])}")
            columns[4].append(state_words(summary["state"], summary.get("round", 0), wide))
        if lobby.more:
            columns[0].append(ngettext("... {n} more", "... {n} more", lobby.more).format(n=99))
        widths = [max(map(cell_len, column)) for column in columns]
        others = sum(widths[i] + 2 for i in (0, 1, 2, 4))
        rows = len(lobby.tables) + (1 if lobby.more else 0)
        height = self.size.height
        scrollbar = self.styles.scrollbar_size_vertical if height and rows + 1 > height else 0
        room = width - others - 2 - scrollbar
        least = widths[3]  # the players' header
        if room >= least:
            return room, widths[0]
        return least, widths[0] - (least - room)


class TournamentList(PickList):
    """The lobby's tournaments (``#tournaments``): Enter opens the one under the
    cursor; down from the last goes back to the tables."""

    BINDINGS = [Binding("enter", "select_cursor", N_("open"))]

    def action_cursor_down(self) -> None:
        if self.cursor_row >= self.row_count - 1:
            self.screen.query_one(TableList).focus()
            return
        super().action_cursor_down()

    def selected(self) -> dict[str, Any] | None:
        """The summary of the tournament under the cursor (the first or the last
        when the cursor is off the rows), or None without tournaments."""
        listed = host_of(self.app).model.tournaments
        if not listed:
            return None
        return listed[min(max(self.cursor_row, 0), len(listed) - 1)]

    def draw(self) -> None:
        """Every tournament of the lobby (the screen hides the list without any);
        with none, the focus goes back to the tables."""
        listed = host_of(self.app).model.tournaments
        headers = [
            # NOTE: the lobby's tournament list headers: its name, its game, how
            # many players registered, where it stands, its director.
            pgettext("tournament column", "tournament"),
            pgettext("lobby column", "game"),
            pgettext("tournament column", "players"),
            pgettext("tournament column", "state"),
            pgettext("tournament column", "director"),
        ]
        set_columns(self, headers)
        keep = self.cursor_row
        self.clear()
        for summary in listed:
            name = summary["name"]
            if summary["locked"]:
                name = _("{table} (locked)").format(table=name)
            cells = (
                name,
                game_word(summary["variant"]),
                str(summary["players"]),
                tournament_state(summary),
                summary.get("director") or "",
            )
            self.add_row(*map(literal, cells), key=str(summary["id"]))
        if listed:
            self.move_cursor(row=min(keep, len(listed) - 1))
        elif self.has_focus:
            self.screen.query_one(TableList).focus()

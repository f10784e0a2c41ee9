"""The lobby in words: its title line, a table's name, game and state, a
tournament's state, the players online, and how much wider the player's language
makes the list's columns.

Pure functions of the view model's pieces (a table's or a tournament's summary from
the ``lobby`` message, the player's name), without Textual: the lobby's lists
(:mod:`maumau.client.widgets.lobby_lists`) and its screen
(:mod:`maumau.client.screens.lobby`) draw with them. Every word goes through the
catalogs; a name the server sent is returned as a plain string, and only ever shown
through :func:`~maumau.client.literal.literal` (the title and the online box are
built here as Rich ``Text``, never parsed as markup).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text

from maumau.protocol.messages import Lobby

from .i18n import _, pgettext
from .literal import literal
from .tournament import series_words

# The other columns and the cells' padding take this much of the width in English
# (the players column gets the rest); longer words in the player's language take
# their extra cells from the players column.
OTHER_COLUMNS = 52


def game_word(variant: str) -> str:
    """The game's short name in the table list."""
    return _("Mau Mau") if variant == "classic" else pgettext("game", "American")


def state_words(state: str, round_no: int, wide: bool) -> str:
    """A table's state as the list says it; narrow, a running match is only its
    round ("round 3" alone says it is playing, and fits)."""
    if state == "playing":
        if wide:
            return _("playing round {round}").format(round=round_no)
        return _("round {round}").format(round=round_no)
    if state == "waiting":
        return pgettext("table state", "waiting")
    if state == "finished":
        return pgettext("table state", "finished")
    return state  # a state this client does not know: as the server says it


def extra_cells(mine: str, english: str) -> int:
    """How many cells wider ``mine`` (the player's language) is than ``english``."""
    return max(0, cell_len(mine) - cell_len(english))


def extra_width(wide: bool) -> int:
    """How much wider than in English the game and state columns are in the
    player's language (their widest word or header), so that the players column
    gives those cells up and the state column stays whole."""
    game = max(
        extra_cells(game_word("classic"), "Mau Mau"),
        extra_cells(game_word("american"), "American"),
        extra_cells(pgettext("lobby column", "game"), "game"),
    )
    playing = (state_words("playing", 10, wide), "playing round 10" if wide else "round 10")
    state = max(
        extra_cells(*playing),
        extra_cells(state_words("waiting", 0, wide), "waiting"),
        extra_cells(state_words("finished", 0, wide), "finished"),
        extra_cells(pgettext("lobby column", "state"), "state"),
    )
    seats = extra_cells(pgettext("lobby column", "seats"), "seats")
    return game + state + seats


def keeps_seat(summary: dict[str, Any], name: str) -> bool:
    """Whether a seat at this table waits for the player called ``name`` (they
    stepped out of a running or finished match): Enter takes it back, without a
    password."""
    return summary["state"] != "waiting" and any(
        s["name"] == name and not s["bot"] for s in summary["seats"]
    )


def locked(lobby: Lobby | None, table_id: int, name: str) -> bool:
    """Whether joining or watching the table asks for its password first."""
    return lobby is not None and any(
        t["id"] == table_id and t["locked"] and not keeps_seat(t, name) for t in lobby.tables
    )


def table_name(summary: dict[str, Any], name: str) -> str:
    """A table's name as the list shows it: with the player's kept seat, or that it
    is locked, said after it."""
    if keeps_seat(summary, name):
        # NOTE: a table in the lobby where the player's seat waits for them
        # (they stepped out): Enter takes it back.
        return _("{table} (your seat)").format(table=summary["name"])
    if summary["locked"]:
        return _("{table} (locked)").format(table=summary["name"])
    return str(summary["name"])


def tournament_state(summary: dict[str, Any]) -> str:
    """A tournament's state as the lobby's list says it, with whether the receiver
    may register now."""
    state = series_words(summary["state"], summary["series_no"], summary["series"])
    if summary["open"]:
        # NOTE: a tournament's state in the lobby, when registration is open to you.
        return _("{state}, open").format(state=state)
    return state


def title_line(label: str, name: str, width: int) -> Text:
    """The lobby's title, ``width`` cells: the program, the server's ``label`` (cut
    first, a long address gives way to the player's name) and, at the right, the
    player's ``name``."""
    you = _("you: {name}").format(name=name)
    title = Text(" maumau  ", style="bold")
    room = width - 1 - title.cell_len - 1 - cell_len(you)
    if len(label) > room:
        label = label[: max(0, room - 3)] + "..."
    title.append_text(literal(label))
    title.append(" " * max(1, width - 1 - title.cell_len - cell_len(you)))
    title.append_text(literal(you))
    return title


def online_text(lobby: Lobby) -> Text:
    """The box of players online: how many, then their names."""
    online = Text(_("online ({n})").format(n=len(lobby.online)) + "\n", style="bold")
    online.append_text(literal("  ".join(lobby.online)))
    return online

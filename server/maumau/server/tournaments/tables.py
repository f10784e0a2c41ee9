"""A series' tables: each made as an ordinary table, marked with its tournament and
series, its seats given to the drawn players and, where the director allowed it, to
bots; its match starts at once.

Each connected player is moved to their table (and told so, as if they had joined it);
one who is not connected gets the seat kept for them, played by a bot after the
reconnect grace, as at any table. Everything at the table is the table's own: rules,
timers, the Mau arbiter, spectators, reconnecting, the journal and crash recovery. The
tables and the lobby are reached through their interfaces: the table's
``seat_drawn``/``start_drawn`` and the lobby's ``open_table``/``move_to``.
"""

from __future__ import annotations

from ..lobby import Lobby
from ..rules import Settings
from ..session import Session
from ..table import Table
from ..tournament import course
from ..tournament.state import SeriesTable, TournamentState


def open_table(
    lobby: Lobby,
    tournament: TournamentState,
    number: int,
    index: int,
    keys: tuple[str, ...],
    bots: int,
) -> None:
    """Open the ``index``-th table of series ``number``, with the players whose session
    ids are ``keys`` and ``bots`` bots, and record it in ``tournament``."""
    settings = Settings.from_dict(course.table_settings(tournament, len(keys) + bots))
    table = Table(
        lobby,
        lobby.new_table_id(),
        course.table_label(tournament, number, index),
        settings,
        None,
        tournament.password,
        {seat: "normal" for seat in range(len(keys), len(keys) + bots)},
        lobby.rng.randrange(2**63),
    )
    table.tournament = (tournament.id, number)
    by_id = {s.id: s for s in lobby.sessions.values()}
    moved: list[Session] = []
    names: list[str] = []
    for seat, key in enumerate(keys):
        entry = tournament.entry(key)
        name = entry.name if entry is not None else key
        session = by_id.get(key)  # None: forgotten (it should not be)
        table.seat_drawn(seat, name, session)
        if session is not None:
            moved.append(session)
        names.append(name)
    names += [s.name or "" for s in table.seats[len(keys) :]]
    tournament.tables.append(SeriesTable(table.id, number, [*keys, *([None] * bots)], names))
    lobby.open_table(table)
    for session in moved:
        lobby.move_to(session, table)
    table.start_drawn()

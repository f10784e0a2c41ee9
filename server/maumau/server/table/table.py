"""One table, put together from its parts.

Everything at a table happens in the server's single trio thread. Connection tasks
call the table's plain (non-async) methods when a message arrives; each method checks
the request, changes the match through the rules engine, and queues the resulting
messages for every seat and spectator. Nothing awaits in between, so no locks are
needed and every change is seen in one order.

The parts, each a class over the one before, from the bottom:

- :mod:`.state`: the data, and the questions every part asks;
- :mod:`.views`: what the table tells its people (views packed by :mod:`.frames`);
- :mod:`.seating`: who sits and watches, leaves and comes back;
- :mod:`.journal`: the table in the store, and its restoring after a restart;
- :mod:`.claims`: Mau calls and catches, decided by the arbiter;
- :mod:`.match`: starting a match, the players' moves, what follows each change;
- :mod:`.bot_seats`: bots playing seats;
- :mod:`.clock`: deadlines, the timer task, pausing while the server cannot save.

They share one state and one order of operations, and a move runs through most of
them, so they are parts of one object rather than objects calling each other: the
path of a move stays plain attribute access (it runs for every action; see
``scripts/loadtest``). A table reaches the server around it only through the
:class:`~.host.TableHost` it is given, and its people through :class:`~.host.Player`.
"""

from __future__ import annotations

from .clock import Clock
from .host import Player
from .state import SeatState


class Table(Clock):
    """See the module docstring."""

    # --- what a tournament asks of its tables (see maumau.server.tournaments) ----------

    def seat_drawn(self, seat: int, name: str, player: Player | None) -> None:
        """Give ``seat`` to ``player``, drawn there by a tournament before the match
        starts (:meth:`start_drawn`). None: the player's session is gone, and a bot
        plays the seat, kept in their name, from the start; one who is not connected
        gets the seat kept as if they had just dropped."""
        if player is None:
            self.seats[seat] = SeatState(name=name, away=True)
            return
        state = SeatState(name=name, session=player, owner=player)
        if not player.connected:
            state.disconnected_at = self.now()
        self.seats[seat] = state

    def give_back_drawn(self, seat: int, player: Player) -> None:
        """``seat`` was drawn for ``player``: if they stepped out of it while the match
        runs (a bot plays it), it is theirs to take back as any seat one stepped out
        of (a table restored from an older database did not keep whose it was)."""
        state = self.seats[seat]
        if not state.bot and state.session is None:
            state.owner = player

    def leave_tournament(self) -> None:
        """The tournament is called off: the match plays on as an ordinary table's."""
        self.tournament = None
        self.save()

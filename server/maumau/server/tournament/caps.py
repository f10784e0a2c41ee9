"""The caps on tournaments: how many are open, made and registered for, and by whom.

At most OPEN_MAX tournaments are open on the server; one session directs at most
PER_SESSION of them; one address has made at most PER_ADDRESS; one address has at
most REGISTRATIONS_PER_ADDRESS players registered for one tournament. Every connection
of the SSH party and of the browser guests comes from the host's own loopback address,
each of them a guest the host let in: loopback addresses are capped per session only
(:func:`per_address`). Before the start, from any address, loopback too, at most
AWAY_PER_ADDRESS registrations of one tournament may be of sessions without a
connection: the next registration from that address drops the oldest beyond that
(:func:`away_beyond`), so connect, register, close in a loop never fills a tournament.
The addresses are saved with the tournament, so the caps hold across a restart.

Each check raises the refusal the request is answered with; none changes anything.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from typing import Any

from maumau.protocol.messages import TOURNAMENT_PLAYERS_MAX, CreateTournament

from ..errors import TableError, checked_settings
from .state import Entry, TournamentState

OPEN_MAX = 20  # tournaments open at once on one server
PER_SESSION = 2  # open tournaments one session directs
PER_ADDRESS = 2  # open tournaments made from one address (not a loopback one)
REGISTRATIONS_PER_ADDRESS = 8  # players of one tournament from one address (not loopback)
AWAY_PER_ADDRESS = 4  # registrations of one tournament from one address without a connection


def per_address(address: str | None) -> bool:
    """Whether the caps per address apply to ``address``: an IP address that is not
    one of this machine's own (127.0.0.0/8, ::1)."""
    if address is None:
        return False
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False  # not an IP address (a stream that is not a socket)


def check_create(open_now: Iterable[TournamentState], director: str, address: str | None) -> None:
    """Whether the session ``director``, from ``address``, may make one more."""
    tournaments = list(open_now)
    if len(tournaments) >= OPEN_MAX:
        raise TableError(
            "too_many_tournaments",
            f"{len(tournaments)} tournaments are open here; try again when one is over",
            {"count": len(tournaments)},
        )
    directed = [t for t in tournaments if t.director_key == director]
    if len(directed) >= PER_SESSION:
        raise TableError(
            "too_many_tournaments",
            f"you direct {len(directed)} open tournaments; cancel one or let it finish",
            {"count": len(directed)},
        )
    if per_address(address):
        mine = [t for t in tournaments if t.origin == address]
        if len(mine) >= PER_ADDRESS:
            raise TableError(
                "too_many_tournaments",
                f"{len(mine)} open tournaments were made from your address",
                {"count": len(mine)},
            )


def check_register(tournament: TournamentState, entry: Entry | None) -> None:
    """Whether a player (registered before as ``entry``, if at all) may register for
    ``tournament`` now."""
    if entry is not None and not entry.withdrawn:
        raise TableError("already_registered", "you are registered for this tournament")
    if not tournament.registration_open():
        raise TableError(
            "registration_closed",
            "this tournament takes no more players"
            if tournament.state == "registering" or not tournament.late_join
            else "this tournament has started and takes no late arrivals now",
            {"tournament": tournament.id},
        )


def check_room(tournament: TournamentState, address: str | None) -> None:
    """Whether ``tournament`` has room for one more player from ``address`` (a player
    coming back has their line already and is not asked)."""
    if per_address(address):
        here = sum(1 for e in tournament.active() if e.address == address)
        if here >= REGISTRATIONS_PER_ADDRESS:
            raise TableError(
                "too_many_registrations",
                f"{here} players are registered for this tournament from your address",
                {"count": here, "limit": REGISTRATIONS_PER_ADDRESS},
            )
    if len(tournament.entries) >= TOURNAMENT_PLAYERS_MAX:
        raise TableError(
            "tournament_full",
            f"this tournament has its {TOURNAMENT_PLAYERS_MAX} players",
            {"limit": TOURNAMENT_PLAYERS_MAX},
        )


def away_beyond(
    tournament: TournamentState, address: str, connected: Callable[[str], bool]
) -> list[Entry]:
    """The registrations from ``address`` of sessions without a connection beyond the
    AWAY_PER_ADDRESS newest: those the next registration from there drops."""
    away = [e for e in tournament.active() if e.address == address and not connected(e.key)]
    return away[: max(0, len(away) - AWAY_PER_ADDRESS)]


def check_settings(request: CreateTournament) -> dict[str, Any]:
    """The tables' settings a ``create_tournament`` asks for, checked."""
    settings = checked_settings(request.settings)
    if settings.is_classic and not 3 <= settings.seats <= 4:
        raise TableError(
            "bad_settings",
            "seats: a Mau Mau tournament is played at tables of 3 or 4",
            {"field": "seats"},
        )
    if settings.deals:
        raise TableError(
            "bad_settings",
            "deals: give a series' length as the tournament's deals",
            {"field": "deals"},
        )
    return settings.to_dict()

"""Tournaments on the server: the requests about them (:mod:`.api`), the service that
runs them (:mod:`.service`), who is
told of them (:mod:`.audience`), who of them is here (:mod:`.presence`), a series'
tables (:mod:`.tables`) and bringing them back after a restart (:mod:`.restore`). Their
pure core, the course, the draw, the standings, the caps and the message, is
:mod:`maumau.server.tournament`."""

from ..tournament.caps import (
    AWAY_PER_ADDRESS,
    OPEN_MAX,
    PER_ADDRESS,
    PER_SESSION,
    REGISTRATIONS_PER_ADDRESS,
)
from .api import Tournaments
from .audience import CALM_S, REFRESH_S, Follower
from .presence import HANDOVER_S
from .restore import restore
from .service import BREAK_S, FINISHED_SHOWN, RETRY_S, TournamentService

__all__ = [
    "AWAY_PER_ADDRESS",
    "BREAK_S",
    "CALM_S",
    "FINISHED_SHOWN",
    "HANDOVER_S",
    "OPEN_MAX",
    "PER_ADDRESS",
    "PER_SESSION",
    "REFRESH_S",
    "REGISTRATIONS_PER_ADDRESS",
    "RETRY_S",
    "Follower",
    "TournamentService",
    "Tournaments",
    "restore",
]

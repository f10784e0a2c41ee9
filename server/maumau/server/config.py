"""The server's settings, in one place: :class:`ServerConfig`.

Every default is written here once; ``maumau-server``'s options, the embedded server
of local play and the tests each make a config (changing what they need) and hand
it to :class:`~maumau.server.server.Server`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bounds import IDLE_TIMEOUT, TABLES_PER_ADDRESS, TABLES_PER_SESSION
from .connection import HELLO_TIMEOUT, PING_INTERVAL, PLAY_PING_INTERVAL
from .link import FLUSH_INTERVAL, MAX_BACKLOG
from .saving import SAVE_RETRY
from .tournaments import BREAK_S

BOT_DELAY = 0.8  # seconds a bot waits before it plays
MAX_CLIENTS = 200
MOVE_RATE = 20.0  # messages a second one connection may send
HARD_BUDGET = 0.2  # seconds the hard bot may think per move


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How a server behaves.

    ``seed`` seeds the shuffles (None: random). ``bot_forgets`` (0..1) overrides how
    often every bot forgets to say Mau (None: as its level does). ``hard_budget`` is
    the hard bot's thinking time per move in seconds (0: it moves at once).
    ``flush_interval`` is the shortest time between two flushes (group commit); a
    connection with more than ``max_backlog`` bytes waiting is dropped.
    ``save_retry`` is the first pause before a failed commit is tried again.
    ``max_tables`` (None: ``max_clients``), ``tables_per_session``,
    ``tables_per_address`` and ``idle_timeout`` bound the lobby (see
    :mod:`maumau.server.bounds`). ``tournament_break`` is the pause in seconds between
    two series of a tournament. The server pings every ``ping_interval`` seconds, and
    every ``play_ping_interval`` (at most ``ping_interval``) while the session's
    table plays with lag compensation on. ``move_rate`` messages a second, in bursts
    of ``move_burst`` (None: twice the rate). ``host_key`` (see :mod:`.host_rights`)
    and the secrets of the ``admins`` names bring the host's powers; ``password`` is
    the server password new sessions must give."""

    seed: int | None = None
    max_clients: int = MAX_CLIENTS
    bot_delay: float = BOT_DELAY
    bot_forgets: float | None = None
    ping_interval: float = PING_INTERVAL
    hello_timeout: float = HELLO_TIMEOUT
    play_ping_interval: float = PLAY_PING_INTERVAL
    move_rate: float = MOVE_RATE
    move_burst: float | None = None
    hard_budget: float = HARD_BUDGET
    flush_interval: float = FLUSH_INTERVAL
    max_backlog: int = MAX_BACKLOG
    save_retry: float = SAVE_RETRY
    max_tables: int | None = None
    tables_per_session: int = TABLES_PER_SESSION
    tables_per_address: int = TABLES_PER_ADDRESS
    idle_timeout: float = IDLE_TIMEOUT
    tournament_break: float = BREAK_S
    host_key: bytes | None = None
    admins: tuple[str, ...] = ()
    password: str | None = None

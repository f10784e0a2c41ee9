"""The records of a server that keeps them: leaderboard, history, replays.

Theory of operation
-------------------
:class:`RecordsPart` keeps the latest ``stats`` (leaderboard) and ``matches``
(history) answers, and the :class:`ReplayBook` of the replay being watched, which
collects ``replay`` pages as they arrive and says which page to ask for next. A
refused records request (``no_store`` on a server without a database,
``no_such_match``...) is kept, in words, for the screen that asked
(:attr:`RecordsPart.errors`, by request type); its next answer clears it. Requests
asked on a connection that dropped get no answer: after the next ``welcome`` the
replay asks again for what it still needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from maumau.protocol.messages import Error, Matches, Replay, Stats
from maumau.protocol.sentences import event_line, seat_name, unknown_line

from .i18n import N_, _
from .words import error_line

REPLAY_PAGE = 50  # the most steps one get_replay answer holds
RECORDS_REQUESTS = ("get_stats", "list_matches", "get_replay")
NO_RECORDS = N_("This server keeps no records (it runs without a database).")


def records_problem(error: Error) -> str:
    """A refused records request, in words for the screen that asked."""
    if error.code == "no_store":
        return _(NO_RECORDS)
    text = error_line(error.code, error.details, error.message)
    return text[:1].upper() + text[1:] if text else error.code


@dataclass
class RecordsPart:
    """The latest leaderboard and history, the replay watched, and refusals."""

    stats: Stats | None = None  # the latest leaderboard
    matches: Matches | None = None  # the latest match history
    replay: ReplayBook | None = None  # the replay being watched
    errors: dict[str, str] = field(default_factory=dict)  # request type -> why refused

    def fold(self, message: Stats | Matches | Replay) -> None:
        """An answer to a records request."""
        if isinstance(message, Stats):
            self.stats = message
            self.errors.pop("get_stats", None)
        elif isinstance(message, Matches):
            self.matches = message
            self.errors.pop("list_matches", None)
        elif self.replay is not None and self.replay.match == message.match:
            self.replay.apply(message)

    def refused(self, request: str, error: Error) -> None:
        """A records request (``request``, one of :data:`RECORDS_REQUESTS`) was refused."""
        self.errors[request] = records_problem(error)
        if request == "get_replay" and self.replay is not None:
            self.replay.refused(records_problem(error))

    def welcome(self) -> None:
        """A new connection: what was asked on the old one is asked again."""
        if self.replay is not None:
            self.replay.lost_connection()


@dataclass
class ReplayBook:
    """A finished match's replay, fetched a page (at most 50 steps) at a time.

    ``steps`` holds every step received so far, by number. The screen asks
    :meth:`wants` for each step it is about to show or would like ready (the next and
    previous few); the answer is the ``start`` of a ``get_replay`` to send, or None
    when the step is here or already asked for. Pages are aligned to multiples of 50,
    except after a short page (the server may send fewer steps to keep a frame small),
    when the missing steps are asked for from the first one missing. The server answers
    in order, so ``pending`` (the starts asked for, oldest first) loses its first entry
    with each ``replay`` or refusal.
    """

    match: int
    table: str = ""
    variant: str = "classic"
    names: tuple[str, ...] = ()
    bots: tuple[bool, ...] = ()
    total: int | None = None
    steps: dict[int, dict[str, Any]] = field(default_factory=dict)
    pending: list[int] = field(default_factory=list)
    error: str | None = None

    def apply(self, page: Replay) -> None:
        if self.pending:
            self.pending.pop(0)
        self.table, self.variant, self.names = page.table, page.variant, page.names
        self.bots = page.bots
        self.total = page.total
        for step in page.steps:
            self.steps[int(step["n"])] = step
        self.error = None

    def lines(self, step: dict[str, Any]) -> list[str]:
        """A step's lines in the player's language, each written from its event's
        facts (``step["events"]``)."""
        names = [seat_name(self.names, i) for i in range(len(self.names))]
        shown = []
        for facts in step["events"]:
            written = event_line(facts, names)
            shown.append(written if written is not None else unknown_line(str(facts["kind"])))
        return shown

    def refused(self, why: str) -> None:
        if self.pending:
            self.pending.pop(0)
        self.error = why

    def lost_connection(self) -> None:
        """Requests on a dropped connection get no answer: ask again when needed."""
        self.pending.clear()

    @property
    def last(self) -> int | None:
        return None if self.total is None else self.total - 1

    def wants(self, n: int) -> int | None:
        """The ``start`` of the page to ask for to get step ``n``, if it is needed."""
        if n < 0 or (self.total is not None and n >= self.total) or n in self.steps:
            return None
        if any(start <= n < start + REPLAY_PAGE for start in self.pending):
            return None
        aligned = n - n % REPLAY_PAGE
        start = n if aligned in self.steps else aligned
        self.pending.append(start)
        return start

    def is_round_start(self, n: int) -> bool | None:
        """True if step ``n`` deals a round; None when a step needed is not here yet."""
        if n == 0:
            return True
        if n not in self.steps or n - 1 not in self.steps:
            return None
        return bool(self.steps[n]["round"] != self.steps[n - 1]["round"])

    def next_round(self, n: int) -> tuple[int | None, int | None]:
        """Where the next round starts after step ``n``: ``(step, None)``; or
        ``(None, missing)`` when step ``missing`` must arrive first; ``(None, None)``
        when there is no later round."""
        last = self.last
        k = n + 1
        while last is None or k <= last:
            start = self.is_round_start(k)
            if start is None:
                return None, (k if k not in self.steps else k - 1)
            if start:
                return k, None
            k += 1
        return None, None

    def previous_round(self, n: int) -> tuple[int | None, int | None]:
        """Where the round of step ``n`` starts, or, if ``n`` is that start, where the
        round before starts. Same answers as :meth:`next_round`."""
        if n <= 0:
            return 0, None
        here = self.is_round_start(n)
        if here is None:
            return None, (n if n not in self.steps else n - 1)
        k = n - 1 if here else n
        while k > 0:
            start = self.is_round_start(k)
            if start is None:
                return None, (k if k not in self.steps else k - 1)
            if start:
                return k, None
            k -= 1
        return 0, None

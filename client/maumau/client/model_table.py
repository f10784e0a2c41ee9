"""The table the player sits at or watches, as the client knows it.

Theory of operation
-------------------
:class:`TablePart` keeps the latest ``table`` and ``view`` of the table shown, the
lines of its log (with what each was written from, so that a change of language
writes them again), its chat, the scores of the match's finished rounds and when a
rematch asked for starts. A ``table`` message for another table starts all of that
afresh. Leaving a table remembers its id: what the server still sends about it
(views and lines already on their way) is stale and dropped, until the player is at
a table again.

Whoever arrives at a running match (watching, or coming back to a seat) is first
sent the round so far again, with the ``seq`` each line had; a line not above the
last ``seq`` logged at this table is one the log already holds, and is dropped.

Everything the screens ask about the table itself (the seats' names, whose turn it
is, who is away, whether its clocks stand still, who the rematch waits for) is
derived here from the two snapshots; what the player may do with their cards is
:mod:`~maumau.client.model_moves`. Times are given by the model (its ``clock``):
nothing here reads a clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from maumau.protocol.messages import GameEvent, MauDecision, Message, TableInfo, View
from maumau.protocol.sentences import decision_line, event_line, seat_name, unknown_line

from .i18n import _, pgettext

LOG_LINES = 200


def bot_level(level: str | None) -> str:
    """A bot's level in words (``hard``), or ``bot`` when the server names none."""
    levels = {
        "easy": pgettext("bot level", "easy"),
        "normal": pgettext("bot level", "normal"),
        "hard": pgettext("bot level", "hard"),
    }
    return levels.get(level or "", level or pgettext("bot level", "bot"))


def seat_label(seat: dict[str, Any], empty: str | None = None) -> str:
    """A seat's name as players read it: ``Ann``, or a bot with its level, ``Ada (hard)``."""
    name = seat["name"] or (_("(free)") if empty is None else empty)
    if seat["bot"]:
        return _("{name} ({level})").format(name=name, level=bot_level(seat.get("level")))
    return name


@dataclass
class TablePart:
    """The table shown: its latest ``table`` and ``view``, its log and chat."""

    table: TableInfo | None = None
    view: View | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    # What each line of ``log`` was written from (the line and the seats' names then),
    # so that a change of language writes the whole log again (:meth:`rewrite_log`).
    log_sources: deque[tuple[GameEvent | MauDecision, list[str]]] = field(
        default_factory=lambda: deque(maxlen=LOG_LINES)
    )
    log_seq: int = -1  # the highest seq of a line in the log (-1: none yet at this table)
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    score_history: list[tuple[int, ...]] = field(default_factory=list)
    left_table_id: int | None = None
    match_no: int = 0  # counts matches seen at this table (a rematch starts a new one)
    rematch_due: float | None = None  # on the model's clock: when the rematch starts

    # --- folding messages in ---------------------------------------------------------

    def stale(self, message: Message, name: str) -> bool:
        """Whether ``message`` is about the table the player (``name``) left."""
        gone = self.left_table_id
        if gone is None:
            return False
        if isinstance(message, TableInfo):
            if message.id != gone or message.you is not None or name in message.spectators:
                self.left_table_id = None  # we are at a table again
                return False
            return True
        return isinstance(message, View | GameEvent | MauDecision) and message.table == gone

    def fold_table(self, message: TableInfo, now: float) -> None:
        """A ``table`` message (another table's starts the log, chat and scores afresh);
        ``now``: the model's clock, from which the rematch's countdown runs."""
        if self.table is None or self.table.id != message.id:
            self.log.clear()
            self.log_sources.clear()
            self.log_seq = -1
            self.chat.clear()
            self.view = None
            self.score_history = []
        self.table = message
        ms = message.rematch_ms
        self.rematch_due = None if ms is None else now + ms / 1000

    def fold_view(self, view: View) -> None:
        previous = self.view
        if (
            previous is None
            or view.round < previous.round
            or (previous.phase == "match_over" and view.phase != "match_over")
        ):
            self.match_no += 1
            self.score_history = []
        if view.last_round is not None and (
            previous is None or previous.last_round != view.last_round
        ):
            scores = tuple(view.last_round["scores"])
            if not self.score_history or self.score_history[-1] != scores:
                self.score_history.append(scores)
        self.view = view

    def fold_line(self, line: GameEvent | MauDecision) -> bool:
        """An ``event`` or ``mau_decision`` line into the log, unless the log has it
        (its ``seq`` is not above the last one logged here: see the module's theory)."""
        if line.seq <= self.log_seq:
            return False
        self.log_seq = line.seq
        names = self.seat_names()
        self.log_sources.append((line, names))
        self.log.append(self.line_text(line, names))
        return True

    def left_table(self) -> None:
        if self.table is not None:
            self.left_table_id = self.table.id
        self.table = None
        self.view = None

    def seats_of(self, message: Message) -> int | None:
        """How many seats the table ``message`` is about has, as the client knows it
        (from its ``table``, or for a ``table`` from the view of it); None if unknown."""
        if isinstance(message, TableInfo):
            view = self.view
            if view is not None and view.table == message.id:
                return len(view.hand_counts)
            return None
        about = getattr(message, "table", None)
        if self.table is not None and self.table.id == about:
            return len(self.table.seats)
        return None

    # --- the log -------------------------------------------------------------------------

    def rewrite_log(self) -> None:
        """Write every line of the log again, in the language spoken now."""
        self.log = deque(
            (self.line_text(line, names) for line, names in self.log_sources), maxlen=LOG_LINES
        )

    def seat_names(self) -> list[str]:
        """Each seat's plain name, as event lines name them (no bot level)."""
        if self.table is None:
            return []
        return [s["name"] or seat_name([], i) for i, s in enumerate(self.table.seats)]

    def line_text(self, line: GameEvent | MauDecision, names: list[str] | None = None) -> str:
        """An ``event`` or ``mau_decision`` in the player's language, written from its
        facts (``GameEvent.facts()``; a decision's ``seat``, ``outcome`` and
        ``stamps``); for facts this client cannot make a sentence of (a newer
        server's kind), a line that says so. ``names``: the seats' names (those of now
        when None)."""
        if names is None:
            names = self.seat_names()
        if isinstance(line, GameEvent):
            written = event_line(line.facts(), names)
            return written if written is not None else unknown_line(line.kind)
        written = decision_line(line.seat, line.outcome, line.stamps, names)
        return written if written is not None else unknown_line(line.TYPE)

    # --- what the table is doing -----------------------------------------------------

    def names(self) -> list[str]:
        """Each seat's name, bots with their level: ``Ada (hard)``."""
        if self.table is None:
            return []
        return [seat_label(s, seat_name([], i)) for i, s in enumerate(self.table.seats)]

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.seat
        return self.table.you if self.table is not None else None

    @property
    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v.phase == "playing" and v.seat is not None and v.turn == v.seat

    def variant(self) -> str:
        if self.table is None:
            return "classic"
        return str(self.table.settings.get("variant", "classic"))

    def is_classic(self) -> bool:
        return self.variant() == "classic"

    @property
    def at_tournament_table(self) -> bool:
        """The table shown is a tournament's (no rematch there)."""
        return self.table is not None and self.table.tournament is not None

    @property
    def paused(self) -> bool:
        """The table is frozen: the server cannot save (``table.paused``)."""
        return self.table is not None and self.table.paused == "cannot_save"

    @property
    def held(self) -> bool:
        """The player alone with bots stopped the table's clock (``pause``), while
        they read the help."""
        return self.table is not None and self.table.paused == "player"

    @property
    def clock_stopped(self) -> bool:
        """No timer of the table runs: the countdowns stand still."""
        return self.table is not None and self.table.paused is not None

    @property
    def away(self) -> bool:
        """A bot plays my seat (after three timeouts): any key takes it back."""
        table = self.table
        if table is None or table.you is None or table.state != "playing":
            return False
        return bool(table.seats[table.you]["away"])

    @property
    def alone_with_bots(self) -> bool:
        """I am the only person at a running match (every other seat a bot, nobody
        watching): the clock may stop while I read the help. Not at a tournament's
        table, whose clock stops for nobody."""
        table, view = self.table, self.view
        if table is None or table.you is None or table.state != "playing" or view is None:
            return False
        if table.tournament is not None or table.spectators:
            return False
        return all(s["bot"] for i, s in enumerate(table.seats) if i != table.you)

    # --- the rematch ---------------------------------------------------------------------

    def rematch_asked(self) -> tuple[list[str], list[str]]:
        """After a match: who asked for the rematch, and who it still waits for
        (players' names; bots always agree)."""
        table = self.table
        if table is None or table.state != "finished":
            return [], []
        names = self.names()
        people = [(i, s) for i, s in enumerate(table.seats) if s["name"] and not s["bot"]]
        asked = [names[i] for i, s in people if s["ready"]]
        waiting = [names[i] for i, s in people if not s["ready"]]
        return asked, waiting

    def i_asked_for_rematch(self) -> bool:
        table = self.table
        return (
            table is not None
            and table.state == "finished"
            and table.you is not None
            and bool(table.seats[table.you]["ready"])
        )

    def rematch_seconds(self, now: float) -> float | None:
        """Seconds from ``now`` until the rematch asked for starts by itself (None:
        none is)."""
        if self.rematch_due is None or self.table is None or self.table.rematch_ms is None:
            return None
        return max(0.0, self.rematch_due - now)

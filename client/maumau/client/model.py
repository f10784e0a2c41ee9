"""The client's view model: everything the screens show, built from server messages.

The server is the only authority. The client keeps the latest ``lobby``, ``table``
and ``view`` snapshots, the event log and the chat, and derives what the screens
need from them: whose turn it is, which of my cards are legal (straight from the
view's legal actions, so the client never re-implements the rules), what each key
would do now. Nothing here does I/O, so it is tested without a terminal.

The records of a server that keeps them live here too: the latest ``stats``
(leaderboard) and ``matches`` (history) answers, and the :class:`ReplayBook` of the
replay being watched, which collects ``replay`` pages as they arrive and says which
page to ask for next. A refused records request (``no_store`` on a server without a
database, ``no_such_match``...) is kept, in words, for the screen that asked.

The followed tournament is here too (:class:`~maumau.client.tournament.Following`:
the latest ``tournament`` message and when it arrived, on :attr:`Model.clock`), and
the lobby's tournaments (:attr:`Model.tournaments`). Leaving a tournament's screen
without being registered stops following it (:meth:`Model.unfollow`): an update the
server sent before it heard that is dropped, until the player follows one again.

The connection's state is here too (``offline``, set by the app when the link drops
and cleared by the next ``welcome``): while it is down the table is frozen, so no
move is offered and the turn's countdown stops until the server's next view. The
line of hints under the hand (:meth:`Model.hint`) says what the player can do now
in words, from the same legal actions the keys go by.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from maumau.protocol.cards import CARD_BY_CODE, RANK_OF, SUIT_OF, is_classic
from maumau.protocol.messages import (
    ChatLine,
    Error,
    GameEvent,
    HostView,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Notice,
    Replay,
    Stats,
    TableInfo,
    Tournament,
    View,
    Welcome,
)
from maumau.protocol.sentences import (
    ascii_table,
    card_text,
    decision_line,
    event_line,
    seat_name,
    suit_text,
    unknown_line,
)

from .i18n import N_, _, ngettext, pgettext
from .tournament import Following
from .words import error_line, notice_line

LOG_LINES = 200
ANNOUNCEMENTS = 50  # the host's announcements kept
# The host's requests (refused with ``not_host`` for everyone else).
HOST_REQUESTS = (
    "host_list",
    "kick",
    "mute",
    "ban",
    "unban",
    "close_table",
    "set_password",
    "announce",
)
REPLAY_PAGE = 50  # the most steps one get_replay answer holds
RECORDS_REQUESTS = ("get_stats", "list_matches", "get_replay")
NO_RECORDS = N_("This server keeps no records (it runs without a database).")
SUIT_ORDER = {code: i for i, code in enumerate(("C", "S", "H", "D", "R", "Y", "G", "B"))}


def card_sort_key(code: str) -> tuple[int, int]:
    card = CARD_BY_CODE[code]
    suit = SUIT_OF[card]
    return (suit if suit >= 0 else 9, RANK_OF[card])


def label(code: str, ascii_only: bool) -> str:
    """A card as a person reads it: ``7♥`` (``7H`` in ASCII), ``GSkip``, ``W+4``; the
    rank letters and card words in the player's language."""
    return card_text(code, ascii_only)


def suit_words(letter: str, ascii_only: bool) -> str:
    """A named suit (``♥ hearts``) or colour (``green``) in the player's language."""
    return suit_text(letter, ascii_only)


def plain(text: str, ascii_only: bool) -> str:
    """Text for this terminal: in ASCII mode suit symbols become the language's suit
    letters (those of the cards in the hand), and arrows and dots ASCII."""
    return text.translate(ascii_table()) if ascii_only else text


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


def number_setting(settings: dict[str, Any], key: str, default: float) -> float:
    """A table setting that should be a number (``target_score``, ``turn_timeout_s``);
    ``default`` when it is missing or the server sent something else."""
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return value


def records_problem(error: Error) -> str:
    """A refused records request, in words for the screen that asked."""
    if error.code == "no_store":
        return _(NO_RECORDS)
    text = error_line(error.code, error.details, error.message)
    return text[:1].upper() + text[1:] if text else error.code


def is_red(code: str) -> bool:
    card = CARD_BY_CODE[code]
    return is_classic(card) and SUIT_OF[card] in (1, 2)


@dataclass
class Model:
    """What the client knows. ``apply`` folds each server message in."""

    name: str = ""
    resume: str | None = None
    lobby: Lobby | None = None
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
    lobby_chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    score_history: list[tuple[int, ...]] = field(default_factory=list)
    left_table_id: int | None = None
    match_no: int = 0  # counts matches seen at this table (a rematch starts a new one)
    stats: Stats | None = None  # the latest leaderboard
    matches: Matches | None = None  # the latest match history
    replay: ReplayBook | None = None  # the replay being watched
    records_errors: dict[str, str] = field(default_factory=dict)  # request type -> why
    offline: bool = False  # the connection is down: the table is frozen until a welcome
    tournament: Following | None = None  # the tournament followed, if any
    dropped_tournament: int | None = None  # stopped following it: its late updates go
    pending_password: str | None = None  # the password a tournament was asked for with
    clock: Callable[[], float] = time.monotonic  # when messages arrive (tests hold it)
    rematch_due: float | None = None  # on ``clock``: when the rematch asked for starts
    # The host's powers (protocol 9): whether this session has them (``welcome.host``),
    # what the host screen shows (the latest ``host_view``), the host's announcements,
    # and until when (on ``clock``) the host keeps this player out of chat.
    is_host: bool = False
    host_view: HostView | None = None
    announcements: deque[Notice] = field(default_factory=lambda: deque(maxlen=ANNOUNCEMENTS))
    muted_until: float | None = None

    def apply(self, message: Message) -> bool:
        """Fold ``message`` in; False if it was ignored: about a table we have left, or
        an event line already in the log (see :meth:`_fold_line`)."""
        if self._stale(message):
            return False
        if isinstance(message, Welcome):
            self.offline = False
            self.name = message.name
            self.resume = message.resume
            self.is_host = message.host
            if not message.host:
                self.host_view = None
            if not message.resumed:
                self.tournament = None  # a new session follows nothing
            if self.replay is not None:
                self.replay.lost_connection()  # asked on the old connection: ask again
        elif isinstance(message, Lobby):
            self.lobby = message
        elif isinstance(message, TableInfo):
            if self.table is None or self.table.id != message.id:
                self.log.clear()
                self.log_sources.clear()
                self.log_seq = -1
                self.chat.clear()
                self.view = None
                self.score_history = []
            self.table = message
            ms = message.rematch_ms
            self.rematch_due = None if ms is None else self.clock() + ms / 1000
        elif isinstance(message, View):
            self._fold_view(message)
        elif isinstance(message, Tournament):
            if message.id == self.dropped_tournament:
                return False
            password = self.pending_password
            if self.tournament is not None and self.tournament.id == message.id:
                password = self.tournament.password or password
            self.tournament = Following(message, self.clock(), password)
        elif isinstance(message, (GameEvent, MauDecision)):
            return self._fold_line(message)
        elif isinstance(message, ChatLine):
            line = f"{message.sender}: {message.text}"
            (self.chat if message.scope == "table" else self.lobby_chat).append(line)
        elif isinstance(message, Stats):
            self.stats = message
            self.records_errors.pop("get_stats", None)
        elif isinstance(message, Matches):
            self.matches = message
            self.records_errors.pop("list_matches", None)
        elif isinstance(message, Replay):
            if self.replay is not None and self.replay.match == message.match:
                self.replay.apply(message)
        elif isinstance(message, HostView):
            self.host_view = message
        elif isinstance(message, Notice):
            self._fold_notice(message)
        elif isinstance(message, Error) and message.code == "muted":
            seconds = (message.details or {}).get("seconds")
            if isinstance(seconds, int | float) and not isinstance(seconds, bool):
                self.muted_until = self.clock() + seconds
        elif isinstance(message, Error) and message.ref in RECORDS_REQUESTS:
            self.records_errors[message.ref] = records_problem(message)
            if message.ref == "get_replay" and self.replay is not None:
                self.replay.refused(records_problem(message))
        return True

    def _fold_notice(self, notice: Notice) -> None:
        """What the host did that concerns this player: an announcement goes into the
        lobby's chat (and the table's, at a table); a mute is remembered until it ends;
        a closed table is left (the server has sent the player to the lobby)."""
        if notice.kind == "announcement":
            self.announcements.append(notice)
            line = self.notice_text(notice)
            self.lobby_chat.append(line)
            if self.table is not None:
                self.chat.append(line)
        elif notice.kind == "muted":
            self.muted_until = self.clock() + (notice.seconds or 0)
        elif notice.kind == "unmuted":
            self.muted_until = None
        elif notice.kind == "table_closed" and self.table is not None:
            closed = notice.table
            if closed is None or closed == self.table.id:
                self.left_table()

    def notice_text(self, notice: Notice) -> str:
        """A host's notice in words (the cancelled tournament named, when known)."""
        name = None
        if notice.tournament is not None:
            for summary in self.tournaments:
                if summary.get("id") == notice.tournament:
                    name = str(summary.get("name"))
            following = self.tournament
            if name is None and following is not None and following.id == notice.tournament:
                name = following.info.name
        text = notice_line(notice.kind, notice.by, notice.text, notice.seconds, name)
        return text if text is not None else notice.text or ""

    @property
    def muted_seconds(self) -> float:
        """How long the host keeps this player out of chat still (0: not muted)."""
        if self.muted_until is None:
            return 0.0
        return max(0.0, self.muted_until - self.clock())

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

    def _stale(self, message: Message) -> bool:
        gone = self.left_table_id
        if gone is None:
            return False
        if isinstance(message, TableInfo):
            if message.id != gone or message.you is not None or self.name in message.spectators:
                self.left_table_id = None  # we are at a table again
                return False
            return True
        return isinstance(message, View | GameEvent | MauDecision) and message.table == gone

    def _fold_line(self, line: GameEvent | MauDecision) -> bool:
        """An ``event`` or ``mau_decision`` line into the log, unless the log has it.

        Whoever arrives at a running match (watching, or coming back to a seat) is
        first sent the round so far again: the same lines, with the ``seq`` they had.
        A table's ``seq`` only grows, so a line whose ``seq`` is not above that of the
        last line logged at this table is one the log already holds (a resume that
        kept the log); it is dropped. A new table starts the count afresh."""
        if line.seq <= self.log_seq:
            return False
        self.log_seq = line.seq
        names = self.seat_names()
        self.log_sources.append((line, names))
        self.log.append(self.line_text(line, names))
        return True

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

    # --- tournaments ---------------------------------------------------------------------

    @property
    def tournaments(self) -> tuple[dict[str, Any], ...]:
        """The lobby's tournaments (summaries), as the last ``lobby`` listed them."""
        return self.lobby.tournaments if self.lobby is not None else ()

    def follow(self, password: str | None = None) -> None:
        """The player asked to follow a tournament (watch, register or create): its
        updates are welcome again; ``password`` is kept for registering later."""
        self.dropped_tournament = None
        self.pending_password = password

    def unfollow(self) -> None:
        """The player stopped following the tournament (``watch_tournament`` nil)."""
        if self.tournament is not None:
            self.dropped_tournament = self.tournament.id
        self.tournament = None

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

    def rematch_seconds(self) -> float | None:
        """Seconds until the rematch asked for starts by itself (None: none is)."""
        if self.rematch_due is None or self.table is None or self.table.rematch_ms is None:
            return None
        return max(0.0, self.rematch_due - self.clock())

    def lost_connection(self) -> None:
        """The connection dropped: nothing the player does reaches the server until
        the next ``welcome``, and the table's views are as old as the drop."""
        self.offline = True

    def left_table(self) -> None:
        if self.table is not None:
            self.left_table_id = self.table.id
        self.table = None
        self.view = None

    def _fold_view(self, view: View) -> None:
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

    # --- what the table screen needs ------------------------------------------------

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.seat
        return self.table.you if self.table is not None else None

    @property
    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v.phase == "playing" and v.seat is not None and v.turn == v.seat

    def names(self) -> list[str]:
        """Each seat's name, bots with their level: ``Ada (hard)``."""
        if self.table is None:
            return []
        return [seat_label(s, seat_name([], i)) for i, s in enumerate(self.table.seats)]

    def hand(self) -> list[str]:
        """My cards, sorted by suit then rank."""
        if self.view is None or self.view.hand is None:
            return []
        return sorted(self.view.hand, key=card_sort_key)

    def legal(self, kind: str) -> list[dict[str, Any]]:
        if self.view is None:
            return []
        return [a for a in self.view.legal if a["kind"] == kind]

    def playable(self) -> set[str]:
        return {a["card"] for a in self.legal("play")}

    def needs_name(self, code: str) -> bool:
        return any(a.get("named") for a in self.legal("play") if a["card"] == code)

    def names_for(self, code: str) -> list[str]:
        return [a["named"] for a in self.legal("play") if a["card"] == code and a.get("named")]

    def catch_targets(self) -> list[int]:
        return [a["target"] for a in self.legal("catch")]

    def owes_call(self) -> bool:
        """I played my second-to-last card and have said nothing yet."""
        v = self.view
        if v is None or v.seat is None or not self.legal("say_mau"):
            return False
        return any(
            w["seat"] == v.seat and not w["final"] and w["called"] is None for w in v.windows
        )

    def can_upgrade(self) -> bool:
        """I said "Mau" but keep a Jack: "Mau Mau" still protects me."""
        hand = self.hand()
        return (
            self.is_classic()
            and not self.owes_call()
            and any(a["call"] == "maumau" for a in self.legal("say_mau"))
            and len(hand) == 1
            and hand[0].startswith("J")
        )

    def holds_jack(self) -> bool:
        return self.is_classic() and any(c.startswith("J") for c in self.hand())

    def can_arm(self) -> bool:
        """A call can ride on my next play: I hold two cards and it is my turn."""
        return self.my_turn and len(self.hand()) == 2 and bool(self.legal("play"))

    def hint(self, armed: str | None, ascii_only: bool) -> str:
        """The line under my hand: what I can (or must) do now, with its key. It goes
        by the view's legal actions, as the keys do, so it never offers a key that
        would do nothing (a pending Wild Draw Four is taken with t or challenged with
        x, never drawn with d)."""
        view = self.view
        if view is None:
            return ""
        if self.offline:
            return _("the connection is down: moves wait until it is back")
        parts = []
        if armed == "maumau":
            parts.append(_('"Mau Mau" armed for your next play'))
        elif armed:
            parts.append(_('"Mau" armed for your next play'))
        if self.owes_call():
            parts.append(_('say "Mau" now (m)'))
        if self.catch_targets():
            names = self.names()
            # NOTE: joins the names of the players one may catch.
            who = pgettext("list separator", ", ").join(names[t] for t in self.catch_targets())
            parts.append(_("catch {names} (c)").format(names=who))
        if self.my_turn:
            parts.extend(self._turn_hint(ascii_only))
        return "  -  ".join(parts) if ascii_only else "  ·  ".join(parts)

    def _turn_hint(self, ascii_only: bool) -> list[str]:
        view = self.view
        assert view is not None
        legal = sorted(self.playable(), key=card_sort_key)
        answers = pgettext("list separator", ", ").join(label(c, ascii_only) for c in legal)
        n = view.penalty
        if n:
            if view.penalty_kind == "seven" and legal:
                text = ngettext(
                    "only a 7 can answer ({cards}); t takes {n}",
                    "only a 7 can answer ({cards}); t takes {n}",
                    n,
                )
            elif view.penalty_kind == "seven":
                text = ngettext(
                    "only a 7 can answer (no 7); t takes {n}",
                    "only a 7 can answer (no 7); t takes {n}",
                    n,
                )
            elif view.penalty_kind == "draw_two" and legal:
                text = ngettext(
                    "only a Draw Two can answer ({cards}); t takes {n}",
                    "only a Draw Two can answer ({cards}); t takes {n}",
                    n,
                )
            elif self.legal("challenge"):
                text = ngettext(
                    "t takes {n}, x challenges the Wild Draw Four",
                    "t takes {n}, x challenges the Wild Draw Four",
                    n,
                )
            else:
                text = ngettext("t takes {n}", "t takes {n}", n)
            return [text.format(n=n, cards=answers)]
        if view.drawn:
            return [_("play the drawn card or keep it (k)")]
        if not legal and self.legal("draw"):
            return [_("no card fits: draw (d)")]
        if legal:
            return [self.fits_hint(ascii_only)]
        return []

    def fits_hint(self, ascii_only: bool) -> str:
        """Why the marked cards are the ones that fit, in words: the legend of the
        mark under them."""
        view = self.view
        assert view is not None
        mark = "+" if ascii_only else "✓"
        top = label(view.top, ascii_only)
        if self.is_classic():
            if view.named:
                text = _("{mark} fits: a {suit} card (the Jack's wish), or a Jack")
            else:
                text = _("{mark} fits: the suit or rank of {top}, or a Jack")
        elif view.named:
            text = _("{mark} fits: a {suit} card (the wild's colour), or a Wild")
        else:
            text = _("{mark} fits: the colour, number or symbol of {top}, or a Wild")
        suit = suit_words(view.named, ascii_only) if view.named else ""
        return text.format(mark=mark, top=top, suit=suit)

    def variant(self) -> str:
        if self.table is None:
            return "classic"
        return str(self.table.settings.get("variant", "classic"))

    def is_classic(self) -> bool:
        return self.variant() == "classic"


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

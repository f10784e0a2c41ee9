"""The client's view model: everything the screens show, built from server messages.

The server is the only authority. The client keeps the latest ``lobby``, ``table``
and ``view`` snapshots, the event log and the chat, and derives what the screens
need from them: whose turn it is, which of my cards are legal (straight from the
view's legal actions, so the client never re-implements the rules), what each key
would do now. Nothing here does I/O, so it is tested without a terminal.

Theory of operation
-------------------
:class:`Model` is made of parts, each keeping one concept's state and folding in
the messages about it:

- the table shown, its log and chat (:class:`~maumau.client.model_table.TablePart`),
  and what the player may do there now, with the line of hints under the hand
  (:class:`~maumau.client.model_moves.Moves`, which reads the table part);
- the lobby and its chat (:class:`~maumau.client.model_lobby.LobbyPart`);
- the followed tournament (:class:`~maumau.client.model_tournament.TournamentPart`;
  when each update arrived is read on :attr:`Model.clock`);
- the host's powers and what the host did to this player: announcements, a mute
  (:class:`~maumau.client.model_host.HostPart`);
- the records of a server that keeps them: leaderboard, history, the replay watched
  (:class:`~maumau.client.model_records.RecordsPart`).

:meth:`Model.apply` hands each message to the part it is about; the few that touch
several (a ``welcome``, a host's notice, a chat line) are folded here. The model
reads the one clock (:attr:`Model.clock`, which tests hold) and gives the parts the
time. Screens read the model as one object: each name they use is declared on
:class:`Model` with the part that keeps it (:mod:`~maumau.client.model_parts`).

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
from typing import Any

from maumau.protocol.cards import CARD_BY_CODE, SUIT_OF, is_classic
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
from maumau.protocol.sentences import ascii_table

from .model_host import HostPart
from .model_lobby import LobbyPart
from .model_moves import Moves
from .model_parts import Kept, asked, derived
from .model_records import RECORDS_REQUESTS, RecordsPart, ReplayBook
from .model_table import TablePart
from .model_table import seat_label as seat_label  # (the lobby's lists read it here)
from .model_tournament import TournamentPart
from .tournament import Following
from .words import notice_line


def plain(text: str, ascii_only: bool) -> str:
    """Text for this terminal: in ASCII mode suit symbols become the language's suit
    letters (those of the cards in the hand), and arrows and dots ASCII."""
    return text.translate(ascii_table()) if ascii_only else text


def number_setting(settings: dict[str, Any], key: str, default: float) -> float:
    """A table setting that should be a number (``target_score``, ``turn_timeout_s``);
    ``default`` when it is missing or the server sent something else."""
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return value


def is_red(code: str) -> bool:
    card = CARD_BY_CODE[code]
    return is_classic(card) and SUIT_OF[card] in (1, 2)


class Model:
    """What the client knows. ``apply`` folds each server message in."""

    # The table shown (TablePart): its snapshots, log, chat and scores.
    table = Kept[TableInfo | None]("table_part")
    view = Kept[View | None]("table_part")
    log = Kept[deque[str]]("table_part")
    log_seq = Kept[int]("table_part")
    chat = Kept[deque[str]]("table_part")
    score_history = Kept[list[tuple[int, ...]]]("table_part")
    match_no = Kept[int]("table_part")
    left_table_id = Kept[int | None]("table_part")
    seats_of = asked("table_part", TablePart.seats_of)
    left_table = asked("table_part", TablePart.left_table)
    rewrite_log = asked("table_part", TablePart.rewrite_log)
    line_text = asked("table_part", TablePart.line_text)
    names = asked("table_part", TablePart.names)
    seat = derived("table_part", TablePart.seat)
    my_turn = derived("table_part", TablePart.my_turn)
    variant = asked("table_part", TablePart.variant)
    is_classic = asked("table_part", TablePart.is_classic)
    at_tournament_table = derived("table_part", TablePart.at_tournament_table)
    paused = derived("table_part", TablePart.paused)
    held = derived("table_part", TablePart.held)
    clock_stopped = derived("table_part", TablePart.clock_stopped)
    away = derived("table_part", TablePart.away)
    alone_with_bots = derived("table_part", TablePart.alone_with_bots)
    rematch_asked = asked("table_part", TablePart.rematch_asked)
    i_asked_for_rematch = asked("table_part", TablePart.i_asked_for_rematch)
    # What the player may do there now (Moves; the hint below).
    hand = asked("moves", Moves.hand)
    legal = asked("moves", Moves.legal)
    playable = asked("moves", Moves.playable)
    needs_name = asked("moves", Moves.needs_name)
    names_for = asked("moves", Moves.names_for)
    catch_targets = asked("moves", Moves.catch_targets)
    owes_call = asked("moves", Moves.owes_call)
    can_upgrade = asked("moves", Moves.can_upgrade)
    holds_jack = asked("moves", Moves.holds_jack)
    can_arm = asked("moves", Moves.can_arm)
    fits_hint = asked("moves", Moves.fits_hint)
    # The lobby (LobbyPart).
    lobby = Kept[Lobby | None]("lobby_part")
    lobby_chat = Kept[deque[str]]("lobby_part", "chat")
    tournaments = derived("lobby_part", LobbyPart.tournaments)
    # The followed tournament (TournamentPart).
    tournament = Kept[Following | None]("tournament_part", "following")
    follow = asked("tournament_part", TournamentPart.follow)
    unfollow = asked("tournament_part", TournamentPart.unfollow)
    # The host's powers, announcements and mute (HostPart).
    is_host = Kept[bool]("host_part")
    host_view = Kept[HostView | None]("host_part")
    announcements = Kept[deque[Notice]]("host_part")
    # The records (RecordsPart).
    stats = Kept[Stats | None]("records_part")
    matches = Kept[Matches | None]("records_part")
    replay = Kept[ReplayBook | None]("records_part")
    records_errors = Kept[dict[str, str]]("records_part", "errors")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = ""
        self.resume: str | None = None
        self.offline = False  # the connection is down: the table is frozen until a welcome
        self.clock = clock  # when messages arrive (tests hold it)
        self.table_part = TablePart()
        self.moves = Moves(self.table_part)
        self.lobby_part = LobbyPart()
        self.tournament_part = TournamentPart()
        self.host_part = HostPart()
        self.records_part = RecordsPart()

    def apply(self, message: Message) -> bool:
        """Fold ``message`` in; False if it was ignored: about a table we have left, an
        event line already in the log (see :mod:`~maumau.client.model_table`), or an
        update of a tournament no longer followed."""
        if self.table_part.stale(message, self.name):
            return False
        if isinstance(message, Welcome):
            self.offline = False
            self.name = message.name
            self.resume = message.resume
            self.host_part.welcome(message.host)
            if not message.resumed:
                self.tournament_part.following = None  # a new session follows nothing
            self.records_part.welcome()  # asked on the old connection: ask again
        elif isinstance(message, Lobby):
            self.lobby_part.lobby = message
        elif isinstance(message, TableInfo):
            self.table_part.fold_table(message, self.clock())
        elif isinstance(message, View):
            self.table_part.fold_view(message)
        elif isinstance(message, Tournament):
            return self.tournament_part.fold(message, self.clock())
        elif isinstance(message, (GameEvent, MauDecision)):
            return self.table_part.fold_line(message)
        elif isinstance(message, ChatLine):
            line = f"{message.sender}: {message.text}"
            (self.chat if message.scope == "table" else self.lobby_chat).append(line)
        elif isinstance(message, (Stats, Matches, Replay)):
            self.records_part.fold(message)
        elif isinstance(message, HostView):
            self.host_part.host_view = message
        elif isinstance(message, Notice):
            self._fold_notice(message)
        elif isinstance(message, Error) and message.code == "muted":
            self.host_part.fold_refusal(message, self.clock())
        elif isinstance(message, Error) and message.ref in RECORDS_REQUESTS:
            self.records_part.refused(message.ref, message)
        return True

    def _fold_notice(self, notice: Notice) -> None:
        """What the host did that concerns this player: an announcement goes into the
        lobby's chat (and the table's, at a table); a mute is remembered until it ends;
        a closed table is left (the server has sent the player to the lobby)."""
        self.host_part.fold_notice(notice, self.clock())
        if notice.kind == "announcement":
            line = self.notice_text(notice)
            self.lobby_chat.append(line)
            if self.table is not None:
                self.chat.append(line)
        elif notice.kind == "table_closed" and self.table is not None:
            closed = notice.table
            if closed is None or closed == self.table.id:
                self.left_table()

    def notice_text(self, notice: Notice) -> str:
        """A host's notice in words (the cancelled tournament named, when known)."""
        name = None
        if notice.tournament is not None:
            name = self.lobby_part.tournament_name(notice.tournament)
            following = self.tournament
            if name is None and following is not None and following.id == notice.tournament:
                name = following.info.name
        text = notice_line(notice.kind, notice.by, notice.text, notice.seconds, name)
        return text if text is not None else notice.text or ""

    @property
    def muted_seconds(self) -> float:
        """How long the host keeps this player out of chat still (0: not muted)."""
        return self.host_part.muted_seconds(self.clock())

    def rematch_seconds(self) -> float | None:
        """Seconds until the rematch asked for starts by itself (None: none is)."""
        return self.table_part.rematch_seconds(self.clock())

    def lost_connection(self) -> None:
        """The connection dropped: nothing the player does reaches the server until
        the next ``welcome``, and the table's views are as old as the drop."""
        self.offline = True

    def hint(self, armed: str | None, ascii_only: bool) -> str:
        """The line under my hand: what I can (or must) do now, with its key
        (:meth:`~maumau.client.model_moves.Moves.hint`; nothing while offline)."""
        return self.moves.hint(armed, ascii_only, self.offline)

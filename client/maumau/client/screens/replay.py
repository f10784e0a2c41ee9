"""The replay of a finished match, step by step, every hand revealed.

Theory of operation
-------------------
The replay screen shows one step at a time from the model's
:class:`~maumau.client.model.ReplayBook`. Before drawing a step it asks the book
which pages are missing for that step and for the steps :data:`PREFETCH` ahead and
behind, and sends a ``get_replay`` for each; so stepping through a match rarely
waits, and jumping (End, a round start) fetches only the page it lands on. Seeking
the next or previous round start may need pages not here yet: the screen remembers
the seek and carries it on as pages arrive (:mod:`.records_base`).
``maumau-client --replay`` shows only :class:`LoneReplayScreen`, whose leaving quits.

By mouse or finger: the footer's keys are clickable (a pair such as ``←→`` steps
back on its first half, on by its second); a screen with room has buttons to step
back and on, to the first and last step and between the rounds.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from maumau.protocol.messages import GetReplay

from .. import render
from ..i18n import N_, _
from ..literal import literal
from ..model import plain
from ..model_records import REPLAY_PAGE, ReplayBook
from ..widgets.action_bar import ActionBar, fit_room
from ..widgets.ascii_aware import AsciiAware
from ..widgets.banner import Banner
from ..widgets.key_footer import KeyFooter
from .records_base import RecordsScreen

PREFETCH = 20  # steps ahead and behind the replay keeps ready


class ReplayScreen(RecordsScreen, AsciiAware, Screen[None]):
    """A finished match, step by step, every hand revealed (``get_replay`` pages)."""

    BINDINGS = [
        Binding("right", "step(1)", N_("step"), key_display="←→"),
        Binding("left", "step(-1)", N_("step"), show=False),
        Binding("space", "step(1)", N_("step"), show=False),
        Binding("pagedown", "step(10)", N_("10 steps"), key_display="PgUp/PgDn"),
        Binding("pageup", "step(-10)", N_("10 steps"), show=False),
        # NOTE: replay keys: to the first step, to the last step, to a round's start.
        Binding("home", "first", N_("first")),
        Binding("end", "last", N_("last")),
        Binding("n", "round(1)", N_("round"), key_display="n/p"),
        Binding("p", "round(-1)", N_("round"), show=False),
        Binding("q", "back", N_("back")),
        Binding("escape", "back", N_("back"), show=False),
    ]
    BACK = N_("back")  # the words of the button that leaves

    def __init__(
        self, match: int, summary: dict[str, Any] | None = None, password: str | None = None
    ) -> None:
        """``password``: the table's, for a match of a table with a password (a
        player who did not sit there, or without the name's secret)."""
        super().__init__()
        self.match = match
        self.summary = summary
        self.password = password
        self.n = 0  # the step shown
        self.seek = 0  # +1 / -1: on the way to the next / previous round start
        self.note = ""  # a word about the last key, until the next one (English, N_)

    @property
    def book(self) -> ReplayBook:
        model = self.host.model
        if model.replay is None or model.replay.match != self.match:
            model.replay = ReplayBook(self.match)
            if self.summary is not None:
                model.replay.names = tuple(self.summary["names"])
                model.replay.bots = tuple(self.summary["bots"])
                model.replay.table = self.summary["table"]
                model.replay.variant = self.summary["variant"]
        return model.replay

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="replay-title", classes="title")
        hands = Static("", id="replay-hands")
        hands.border_title = _("every hand")
        yield hands
        yield Static("", id="replay-table")
        lines = Static("", id="replay-lines")
        lines.border_title = _("what happened")
        yield lines
        taps = [
            ("first", N_("first")),
            ("step(-1)", N_("previous")),
            ("step(1)", N_("next")),
            ("last", N_("last")),
            ("round(-1)", N_("previous round")),
            ("round(1)", N_("next round")),
            ("back", self.BACK),
        ]
        yield ActionBar(taps, id="replay-actions")
        yield KeyFooter()

    def on_resize(self) -> None:
        self.refresh_records()

    def on_mount(self) -> None:
        self.book.error = None
        self._fetch()
        self.refresh_records()

    # --- fetching ------------------------------------------------------------------

    def _fetch(self) -> None:
        """Ask for the page of the step shown, and those a few steps either side."""
        book = self.book
        last = book.last
        around = [self.n, self.n + PREFETCH, self.n - PREFETCH]
        for k in around:
            k = max(0, k if last is None else min(k, last))
            start = book.wants(k)
            if start is not None:
                self.ask(GetReplay(self.match, start, REPLAY_PAGE, self.password))

    def reconnected(self) -> None:
        self._fetch()
        self.refresh_records()

    # --- keys ------------------------------------------------------------------------

    def _go(self, n: int) -> None:
        last = self.book.last
        self.n = max(0, n if last is None else min(n, last))
        self._fetch()
        self.refresh_records()

    def action_step(self, step: int) -> None:
        self.seek, self.note = 0, ""
        self._go(self.n + step)

    def action_first(self) -> None:
        self.seek, self.note = 0, ""
        self._go(0)

    def action_last(self) -> None:
        self.seek, self.note = 0, ""
        last = self.book.last
        if last is not None:
            self._go(last)

    def action_round(self, direction: int) -> None:
        self.seek, self.note = direction, ""
        self._carry_on_seek()
        self.refresh_records()

    def _carry_on_seek(self) -> None:
        if not self.seek:
            return
        book = self.book
        found, missing = (book.next_round if self.seek > 0 else book.previous_round)(self.n)
        if found is not None:
            self.seek = 0
            self._go(found)
        elif missing is not None:
            start = book.wants(missing)
            if start is not None:
                self.ask(GetReplay(self.match, start, REPLAY_PAGE, self.password))
            self.note = N_("looking for the round start...")
        else:
            self.seek = 0
            self.note = N_("this is the last round")

    async def action_back(self) -> None:
        self.dismiss(None)

    # --- drawing ---------------------------------------------------------------------

    def refresh_records(self) -> None:
        if not self.is_mounted:
            return
        host = self.host
        book = self.book
        if book.error and book.total is None and host.replay_match is not None:
            self.app.exit(return_code=1, message=literal(f"maumau-client: {book.error}"))
            return
        if self.seek and book.steps:
            self._carry_on_seek()
        if book.last is not None and self.n > book.last:
            self.n = book.last
        ascii_only = host.ascii_only
        width, height = self.app.size.width or 80, self.app.size.height or 24
        fit_room(self)
        buttons = self.query_one(ActionBar).sync()
        self.query_one("#replay-title", Static).update(
            render.replay_title(book, self.n, ascii_only, width)
        )
        hands = self.query_one("#replay-hands", Static)
        table = self.query_one("#replay-table", Static)
        lines = self.query_one("#replay-lines", Static)
        step = book.steps.get(self.n)
        if step is None:
            hands.update(Text(" " + (book.error or _("loading...")), style="bold"))
            table.update("")
            lines.update("")
            return
        # title, footer, pile, log, borders, header, buttons
        room = height - 1 - 1 - 2 - 4 - 2 - 1 - buttons
        hands.update(render.replay_hands(book, step, ascii_only, width - 4, room))
        winner = self.summary["winner"] if self.summary is not None else None
        if winner is None and step["phase"] == "match_over":
            # Only the winner reaches the target, so the highest score is the winner's.
            winner = max(range(len(step["scores"])), key=lambda seat: step["scores"][seat])
        table.update(render.replay_table(book, step, ascii_only, winner))
        text = Text()
        for line in book.lines(step):
            text.append(plain(line, ascii_only) + "\n")
        if not step["events"]:
            text.append(_("(nothing visible happened)") + "\n", style="dim")
        if self.note or book.error:
            text.append(f"({_(self.note) if self.note else book.error})", style="italic")
        lines.update(text)


class LoneReplayScreen(ReplayScreen):
    """``maumau-client --replay``: the only screen; leaving it quits the client."""

    BINDINGS = [
        Binding("q", "back", N_("quit")),
        Binding("escape", "back", N_("quit"), show=False),
    ]
    BACK = N_("quit")

    async def action_back(self) -> None:
        await self.app.action_quit()

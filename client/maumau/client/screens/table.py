"""The table screen: opponents, pile, my hand, the log and the chat.

Theory of operation
-------------------
The screen holds no game truth: it is redrawn from the view model whenever a server
message arrives (the app calls :meth:`TableScreen.refresh_model`, or
:meth:`~TableScreen.add_log` / :meth:`~TableScreen.add_chat` for one line). Its own
state is only what the player is doing: the picked card (``cursor``) and an armed
Mau call. The hand and the pile are widgets of their own
(:class:`~maumau.client.widgets.hand.Hand`, with the last complaint under it;
:class:`~maumau.client.widgets.pile.Pile`, with the turn's countdown), and so are
the opponents, the log and the chat line.

The keys and what they do are :mod:`.table_moves`: its
:class:`~.table_moves.TableMoves` is mixed into the screen and turns each move's key
(or a click on a card) into a protocol message posted to the app
(:class:`~.messages.ToServer`), offers only the keys that mean something now, and
says under the hand why a key did nothing. The screen keeps the rest: the layout to
the screen's size, the chat, the help, leaving, and the round's result. When a
round ends the result dialog opens (:class:`~.result.ResultScreen`); closing it
says ready (or asks for a rematch). Leaving asks first, then tells the app
(:class:`~.messages.TableLeft`).

Text the client did not write itself reaches a widget only as a Rich ``Text`` made
by :func:`~maumau.client.literal.literal`: a plain ``str`` would be read as markup.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from maumau.protocol.messages import Chat, LeaveTable, Pause, Ready, Rematch, StartMatch

from .. import render
from ..i18n import N_
from ..literal import literal
from ..model import Model, plain
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.banner import Banner
from ..widgets.chat_input import ChatInput
from ..widgets.hand import HINT_ROWS, Hand
from ..widgets.key_footer import KeyFooter
from ..widgets.line_log import LineLog
from ..widgets.opponents import Opponents
from ..widgets.pile import Pile
from .confirm import ConfirmScreen
from .help import HelpScreen, rules_summary
from .messages import TableLeft
from .result import ResultScreen
from .table_moves import TABLE_BINDINGS, TAP_ACTIONS, TableMoves

# Rows of the screen's layout (see TableScreen._layout): the title, the pile's two
# lines and the footer; the least the log may have (three lines and its border);
# the hand as boxes (border, three rows of box, numbers, hint) or as one line of cards.
FIXED_ROWS = 4
LOG_MIN_ROWS = 5
HAND_BOXES = 7
HAND_LINE = 4


class TableScreen(TableMoves, Screen[None]):
    """The table: opponents, pile, my hand, log and chat."""

    AUTO_FOCUS = ""  # nothing takes the keys from the screen (the chat box is hidden)

    BINDINGS = TABLE_BINDINGS

    def __init__(self, table_id: int | None = None) -> None:
        """``table_id``: the table this screen shows (the model's when mounted, if
        not given); the app shows another table on a new screen."""
        super().__init__()
        self.table_id = table_id
        self.shown: tuple[int, int] = (0, 0)  # (match, round) of the last result shown
        self.result: ResultScreen | None = None
        self.last_drawn: str | None = None  # the drawn card the cursor went to
        self.started = False  # --local: start_match sent, once the table was shown
        self.holding = False  # the clock was stopped for the help (pause sent)

    @property
    def problem(self) -> str | None:
        """What the hand says about the last key that did nothing, if anything."""
        return self.query_one(Hand).problem

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="title", classes="title")
        yield Opponents()
        yield Pile()
        yield Hand()
        yield ActionBar(described(self.BINDINGS, TAP_ACTIONS), id="table-actions")
        with Horizontal(id="bottom"):
            yield LineLog(id="log")
            yield LineLog(id="chat")
        yield ChatInput(N_("say something at the table; Enter sends, Esc leaves"), id="chat-input")
        yield KeyFooter()

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    def on_mount(self) -> None:
        self.drawn = True
        if self.table_id is None and self.host.model.table is not None:
            self.table_id = self.host.model.table.id
        self.set_class(self.host.ascii_only, "ascii")
        self.refresh_model(full=True)

    def on_resize(self) -> None:
        self.refresh_model()  # the opponents and the waiting room are drawn to the width

    # --- drawing -----------------------------------------------------------------

    def refresh_model(self, full: bool = False, new_lines: int = 0) -> None:
        if not self.drawn:
            return  # on_mount draws everything, the log included
        model = self.host.model
        ascii_only = self.host.ascii_only
        pile = self.query_one(Pile)
        pile.follow()
        cards = model.hand()
        drawn = model.view.drawn if model.view is not None else None
        if drawn is not None and drawn != self.last_drawn and drawn in cards:
            self.cursor = cards.index(drawn)  # play it with Enter, or keep it with k
        self.last_drawn = drawn
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        if not model.can_arm() and not model.owes_call():
            self.armed = None if not model.my_turn else self.armed
        width = self.size.width or 80
        fit_room(self)
        buttons = self.query_one(ActionBar).sync()
        header, roomy_hand = self._layout(model, ascii_only, width, buttons)
        self.query_one("#title", Static).update(render.title(model, ascii_only, width))
        self.query_one(Opponents).draw(header)
        pile.draw()
        self.query_one(Hand).draw(self.cursor, self.armed, width - 2, roomy_hand)
        if full:
            for name, lines in (("#log", model.log), ("#chat", model.chat)):
                log = self.query_one(name, LineLog)
                log.clear()
                log.extend(literal(plain(line, ascii_only)) for line in lines)
        self.refresh_bindings()
        self._maybe_show_result()
        self._maybe_start_local()

    def _maybe_start_local(self) -> None:
        """``--local``: the match starts once the table is on the screen (drawn), so
        that no bot plays before the player sees it."""
        model = self.host.model
        table = model.table
        if (
            self.host.local
            and not self.started
            and table is not None
            and table.state == "waiting"
            and table.you is not None
        ):
            self.started = True
            self.call_after_refresh(self.send, StartMatch())

    def _layout(
        self, model: Model, ascii_only: bool, width: int, buttons: int = 0
    ) -> tuple[bool, bool]:
        """Whether the opponents' header line and the hand's card boxes fit the
        screen's height, less the action bar's ``buttons`` rows, with room left for
        three lines of log: (header, boxes). The header goes first, then the boxes
        give way to lines of cards."""
        height = self.size.height or 24
        banner = 1 if self.query_one(Banner).display else 0
        spare = height - banner - FIXED_ROWS - LOG_MIN_ROWS - buttons
        if self.has_class("roomy"):  # the hint under the hand takes its fixed lines
            spare -= HINT_ROWS - 1
        tall = len(render.opponents(model, ascii_only, width, True).split())
        short = len(render.opponents(model, ascii_only, width, False).split())
        for header, boxes in ((True, True), (False, True), (True, False)):
            if (tall if header else short) + (HAND_BOXES if boxes else HAND_LINE) <= spare:
                return header, boxes
        return False, False

    def drop_problem(self) -> None:
        """Say nothing more under the hand about the last key (its words are of
        another language now)."""
        if self.drawn:
            self.query_one(Hand).problem = None

    def show_problem(self, text: str) -> None:
        """Say, under the hand, why the last key did nothing (until the next change)."""
        self.query_one(Hand).complain(text)
        self.refresh_model()

    def add_log(self, line: str) -> None:
        if not self.drawn:
            return  # the model keeps the line; on_mount writes the whole log
        self.query_one("#log", LineLog).write(literal(plain(line, self.host.ascii_only)))

    def add_chat(self, line: str) -> None:
        if not self.drawn:
            return
        self.query_one("#chat", LineLog).write(literal(plain(line, self.host.ascii_only)))

    def _maybe_show_result(self) -> None:
        model = self.host.model
        view = model.view
        if view is None:
            return
        if view.phase not in ("round_over", "match_over"):
            if self.result is not None and self.app.screen is self.result:
                self.result.closed_by_round = True  # the next round has begun
                self.result.dismiss(False)
            self.result = None
            return
        if view.last_round is None:
            return
        key = (model.match_no, view.last_round["round"])
        if key <= self.shown:
            return
        self.shown = key
        seated = view.seat is not None
        match_over = view.phase == "match_over"

        def closed(rematch: bool | None) -> None:
            if self.result is not None and self.result.closed_by_round:
                return
            if rematch and seated:
                self.send(Rematch())
            elif not match_over and seated:
                self.send(Ready(True))

        self.result = ResultScreen()  # it draws itself from the model
        self.app.push_screen(self.result, closed)

    # --- chat, help and leaving ----------------------------------------------------

    def action_chat(self) -> None:
        if self.query_one(ChatInput).toggle():
            self.call_after_refresh(self._show_latest)
        else:
            self.set_focus(None)

    def _show_latest(self) -> None:
        for log in self.query(LineLog):
            log.scroll_end(animate=False)

    def on_chat_input_said(self, event: ChatInput.Said) -> None:
        self.send(Chat("table", event.text))

    def key_escape(self) -> None:
        if self.query_one(ChatInput).close():
            self.set_focus(None)

    def action_help(self) -> None:
        """The help, on the table's game. A player alone with bots has the clock
        stopped while they read it (nobody else waits for them)."""
        model = self.host.model
        rules = ""
        settings = None
        if model.table is not None:
            settings = model.table.settings
            rules = rules_summary(settings)
        if model.alone_with_bots and not model.offline and not model.clock_stopped:
            self.holding = True
            self.send(Pause(True))

        def closed(_result: None) -> None:
            if self.holding:
                self.holding = False
                self.send(Pause(False))

        self.app.push_screen(HelpScreen(rules, settings=settings), closed)

    def action_leave(self) -> None:
        model = self.host.model
        if self.host.local:

            async def quit_local(yes: bool | None) -> None:
                if yes:
                    await self.app.run_action("app.quit")

            # NOTE: q at a --local table: the game and its embedded server end.
            self.app.push_screen(ConfirmScreen(N_("Quit the game against the bots?")), quit_local)
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.send(LeaveTable())
                self.app.post_message(TableLeft())

        playing = model.view is not None and model.view.phase != "match_over"
        # The question's English; the dialog translates it when drawn.
        if model.seat is None:
            question = N_("Leave this table?")
        elif playing:
            question = N_(
                "Leave this table? A bot plays your seat until you come back: "
                "Enter on this table in the lobby gives it back to you."
            )
        elif model.view is not None:
            question = N_(
                "Leave this table? Your seat is kept for the rematch: "
                "Enter on this table in the lobby brings you back."
            )
        else:
            question = N_("Leave this table? Your seat becomes free.")
        self.app.push_screen(ConfirmScreen(question), answer)

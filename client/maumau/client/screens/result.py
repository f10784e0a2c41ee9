"""The round (or match) result dialog: every hand revealed, the points and the score
chart, with the keys that go on and the countdown to the next deal.

Theory of operation
-------------------
The dialog draws itself from the host's view model (or shows a ``text`` it is
given). Its body scrolls when it is taller than the screen (ten American hands at
80x24); the line under it, which says what each key does and when the next round is
dealt, is docked to the dialog's bottom, so it is always in sight, and the footer
shows the same keys (and, where the screen has room, buttons for them).

The countdown starts from the view's ``next_round_ms`` (protocol 4: how long the
server will wait before it deals the next round, also after a resume), and counts
down once a second; it stops counting while the app shows a banner: the connection
is down or the table is paused (the server's clock stops too). The banner's words
are shown over the keys, as the dialog hides the banner. From a server that does not
say (``next_round_ms`` absent), the dialog counts the pause the protocol documents
(see "Timers" in ``docs/protocol.md``): 20 seconds after the round ends, 5 when no
human player at the table is connected and present.

It answers True for a rematch; the table screen then tells the server the player is
ready (or wants a rematch), unless the next round began and closed it first
(``closed_by_round``). ``q`` leaves a table whose match is over (nothing is lost).
A tournament's table has no rematch (the next series seats the players): once its
match is over, ``t`` leaves it and goes back to the tournament's screen instead.
"""

from __future__ import annotations

import math
import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from maumau.protocol.messages import LeaveTable

from .. import render
from ..host import host_of
from ..i18n import N_, _, ngettext
from ..literal import clean
from ..model import Model
from ..widgets.action_bar import ActionBar, described, fit_room
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .messages import TableLeft, ToServer

ROUND_PAUSE_S = 20.0  # the pause between rounds, as docs/protocol.md documents it
UNATTENDED_PAUSE_S = 5.0  # the same when no human player is connected and present
DIALOG_WIDTH = 76  # as .dialog in the stylesheet


def now() -> float:
    """The clock the countdown reads (tests hold it still)."""
    return time.monotonic()


def round_pause(model: Model) -> float:
    """How long the server waits before it deals the next round: what the view
    says, else the documented pause."""
    if model.view is not None and model.view.next_round_ms is not None:
        return model.view.next_round_ms / 1000
    seats = model.table.seats if model.table is not None else ()
    present = any(not s["bot"] and s["connected"] and not s["away"] for s in seats)
    return ROUND_PAUSE_S if present else UNATTENDED_PAUSE_S


class ResultScreen(AsciiAware, ModalScreen[bool]):
    """The round (or match) result: every hand revealed, points, the score chart,
    and, always in sight, the keys and the seconds to the next deal.
    It waits for a key; closing it tells the server this player is ready."""

    BINDINGS = [
        Binding("enter", "ready", N_("ready")),
        Binding("enter", "close", N_("close")),
        Binding("space", "hide", N_("continue"), show=False),
        Binding("escape", "hide", N_("continue"), show=False),
        Binding("r", "rematch", N_("rematch")),
        Binding("q", "leave", N_("leave")),
        Binding("t", "back", N_("back to the tournament")),
    ]

    def __init__(self, text: Text | None = None, match_over: bool | None = None) -> None:
        """``text``: what to show (drawn from the host's model when None);
        ``match_over``: a rematch may be asked for (from the model when None)."""
        super().__init__()
        self.text = text
        self.match_over = match_over
        self.closed_by_round = False
        self.seconds_left: float | None = None
        self._ticked = now()

    # --- what the model says ---------------------------------------------------------

    @property
    def model(self) -> Model:
        return host_of(self.app).model

    @property
    def seated(self) -> bool:
        return self.model.seat is not None

    @property
    def over(self) -> bool:
        """The match is over (not only the round)."""
        if self.match_over is not None:
            return self.match_over
        view = self.model.view
        return view is not None and view.phase == "match_over"

    @property
    def tournament(self) -> bool:
        """The table is a tournament's: no rematch, back to the tournament instead."""
        return self.model.at_tournament_table

    @property
    def frozen(self) -> str | None:
        """Why the countdown stands still, if it does (in the player's language)."""
        model = self.model
        if model.offline:
            return _("connection down")
        if model.clock_stopped:
            return _("table paused")
        if host_of(self.app).shown_banner is not None and not model.away:
            return _("connection down")  # (the banner says why)
        return None

    # --- drawing -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # The result's text is the first Static a breadth-first search finds.
        with Vertical(classes="dialog", id="result"):
            with VerticalScroll(id="result-body"):
                yield Static(self.body(), id="result-text")
            with Vertical(id="result-foot"):
                yield Static(self.keys_line(), id="result-keys")
                actions = ("ready", "rematch", "close", "leave", "back")
                yield ActionBar(described(self.BINDINGS, actions), id="result-actions")
        yield KeyFooter()

    def on_mount(self) -> None:
        super().on_mount()
        if not self.over:
            self.seconds_left = round_pause(self.model)
        self._ticked = now()
        fit_room(self)
        self.draw()
        self.set_interval(1.0, self.tick)

    def on_resize(self) -> None:
        fit_room(self)
        self.draw()

    def tick(self) -> None:
        """Count down by the time passed, unless the clock stands still."""
        moment = now()
        if self.seconds_left is not None and self.frozen is None:
            self.seconds_left = max(0.0, self.seconds_left - (moment - self._ticked))
        self._ticked = moment
        self.query_one("#result-keys", Static).update(self.keys_line())
        self.query_one(ActionBar).sync()
        self.refresh_bindings()

    def body(self) -> Text:
        """The result itself: the ``text`` given, or drawn from the model to fit."""
        if self.text is not None:
            return self.text
        # The dialog's width less its border, padding and a scrollbar.
        width = min(DIALOG_WIDTH, self.app.size.width) - 6
        return render.round_result(self.model, host_of(self.app).ascii_only, width)

    def draw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#result-text", Static).update(self.body())
        self.query_one("#result-keys", Static).update(self.keys_line())
        self.query_one(ActionBar).sync()

    def keys_line(self) -> Text:
        """What the keys do, and when the next round is dealt."""
        text = Text()
        if not self.is_mounted:
            return text
        banner = host_of(self.app).shown_banner
        if banner:  # the screens' banner is under this dialog: say it here too
            text.append(clean(banner) + "\n", style="bold")
        dot = " - " if host_of(self.app).ascii_only else " · "
        # Each key's words are one message; the keys stay as they are in every language.
        leave, close = _("q: leave the table"), _("Enter: close")
        if self.over and self.tournament:
            text.append(_("t: back to the tournament"), style="bold")
            text.append(f"{dot}{close}")
            return text
        if self.over:
            if self.seated and not self.model.i_asked_for_rematch():
                text.append(_("r: ask for a rematch"), style="bold")
                text.append(f"{dot}{leave}{dot}{close}")
            else:
                text.append(f"{close}{dot}{leave}")
            rematch = render.rematch_words(self.model)
            if rematch:
                text.append("\n" + rematch)
            return text
        if self.seated:
            text.append(_("Enter: ready for the next round"), style="bold")
        else:
            text.append(close, style="bold")
        if self.seconds_left is not None:
            frozen = self.frozen
            if frozen is not None:
                text.append(dot + _("next deal on hold ({why})").format(why=frozen))
            else:
                seconds = math.ceil(self.seconds_left)
                text.append(
                    dot
                    + ngettext("next deal in {n} s", "next deal in {n} s", seconds).format(
                        n=seconds
                    )
                )
        return text

    # --- keys ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return (
                self.over
                and self.seated
                and not self.tournament
                and not self.model.i_asked_for_rematch()
            )
        if action == "leave":
            return self.over and not self.tournament
        if action == "back":
            return self.over and self.tournament
        if action == "ready":
            return self.seated and not self.over
        if action == "close":
            return not (self.seated and not self.over)
        return True

    def action_hide(self) -> None:
        self.dismiss(False)

    def action_ready(self) -> None:
        self.dismiss(False)  # the table screen says ready

    def action_close(self) -> None:
        self.dismiss(False)

    def action_rematch(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        """Leave the table whose match is over: the app goes back to the lobby (and
        closes this dialog with the table)."""
        self.app.post_message(ToServer(LeaveTable()))
        self.app.post_message(TableLeft())

    def action_back(self) -> None:
        """Leave the tournament's table whose match is over: the app shows the
        tournament (it still follows it)."""
        self.action_leave()

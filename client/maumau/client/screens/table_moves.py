"""The table's keys: their bindings, and what each does, from the key to the message.

Theory of operation
-------------------
:data:`TABLE_BINDINGS` are the table screen's keys (the screen binds them; the
footer and the buttons word them), and :class:`TableMoves` holds their actions, mixed
into the screen (:class:`~.table.TableScreen`), where Textual looks the actions up.
The mixin keeps the player's own doing, which is not game truth: the picked card
(``cursor``) and an armed Mau call (``armed``). Every move becomes a protocol message
sent through the app (``ToServer``); the server decides, and the screen redraws from
the view it sends back.

The footer shows only the keys that mean something now
(:func:`~.table_keys.key_means_something`, Textual's ``check_action``). A move's key
that does nothing now is not silent: :meth:`TableMoves.on_key` sees every key before
the bindings do, and says under the hand why that one is off
(:func:`~.table_keys.why_key`; :data:`KEY_ACTIONS` says which actions a key is bound
to); a card that does not fit is explained there too instead of sent
(:func:`~.table_keys.why_not`). The arrows move the cursor at any time (so a player
may pick ahead), in the footer only when a choice is to be made; they are priority
bindings, so that the log, which takes the focus, does not take them for scrolling.
A Jack or a wild first asks for the suit or colour
(:class:`~.suit_picker.SuitPicker`). A click on a card
(:class:`~maumau.client.widgets.hand.Hand.CardClicked`) picks it, and on the picked
card plays it as Enter does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from maumau.protocol.messages import (
    CatchPlayer,
    ChallengeCard,
    DrawCard,
    Message,
    PassTurn,
    PlayCard,
    Ready,
    Rematch,
    SayMau,
    StartMatch,
)

from ..host import Host, host_of
from ..i18n import N_
from ..literal import clean
from ..widgets.hand import Hand
from .messages import ToServer
from .suit_picker import SuitPicker
from .table_keys import key_means_something, why_key, why_not

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

TABLE_BINDINGS: list[BindingType] = [
    # NOTE: the table's keys in the footer: pick a card, play it, draw, keep the
    # drawn card, take a penalty, challenge a Wild Draw Four, say Mau / Mau Mau,
    # catch a player who forgot to, start the match, ask for a rematch.
    Binding("left", "cursor(-1)", N_("pick"), key_display="←→", priority=True),
    Binding("right", "cursor(1)", N_("pick"), show=False, priority=True),
    *[Binding(str(n), f"pick({n - 1})", str(n), show=False) for n in range(1, 10)],
    Binding("enter", "play", N_("play")),
    Binding("enter", "ready", N_("ready")),
    Binding("d", "draw", N_("draw")),
    Binding("k", "keep", N_("keep")),
    Binding("t", "take", N_("take")),
    Binding("x", "challenge", N_("challenge")),
    Binding("m", "mau", N_("Mau")),
    Binding("M", "maumau", N_("Mau Mau"), key_display="M"),
    Binding("c", "catch", N_("catch")),
    Binding("s", "start", N_("start")),
    Binding("r", "rematch", N_("rematch")),
    Binding("tab", "chat", N_("chat"), priority=True),
    Binding("question_mark", "help", N_("help"), key_display="?"),
    Binding("q", "leave", N_("leave")),
]

# The actions of the table's buttons (shown when the screen has room: see
# widgets/action_bar.py), in their order; each is worded as its key in the footer.
TAP_ACTIONS = (
    "play",
    "ready",
    "draw",
    "take",
    "keep",
    "challenge",
    "mau",
    "maumau",
    "catch",
    "start",
    "rematch",
    "help",
    "leave",
)

# Each table key and the actions it is bound to, first first (for
# :meth:`TableMoves.on_key`): Enter plays a card, or in the waiting room says ready.
KEY_ACTIONS: dict[str, list[str]] = {}
for _binding in TABLE_BINDINGS:
    if isinstance(_binding, Binding):
        KEY_ACTIONS.setdefault(_binding.key, []).append(_binding.action.split("(")[0])


class TableMoves:
    """The table's moves, mixed into its screen before the Screen class: the
    actions of :data:`TABLE_BINDINGS` but chat, help and leave (the screen's), which
    keys mean something now, and why one does not."""

    cursor = 0  # the picked card, an index into the hand
    armed: str | None = None  # "mau" or "maumau", said with the next play

    if TYPE_CHECKING:  # what the mixin uses of the screen it is mixed into
        app: App[object]
        focused: Widget | None

        def refresh_model(self, full: bool = False, new_lines: int = 0) -> None: ...

        def show_problem(self, text: str) -> None: ...

    @property
    def host(self) -> Host:
        return host_of(self.app)

    def send(self, message: Message) -> None:
        """Ask the app to send ``message`` to the server."""
        self.app.post_message(ToServer(message))

    # --- which keys mean something now ----------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cursor" and isinstance(self.focused, Input):
            return False  # the arrows move in the chat line being typed
        return key_means_something(self.host.model, action)

    def on_key(self, event: events.Key) -> None:
        """Every key reaches here before the bindings: a table key that is off now
        says why next to the hand (the arrows, off turn, quietly move the cursor)."""
        if isinstance(self.focused, Input):
            return
        actions = KEY_ACTIONS.get(event.key, [])
        if not actions or any(self.check_action(a, ()) for a in actions):
            return  # not a table key, or one of its bindings runs next
        action = actions[0]
        model = self.host.model
        if action == "cursor":
            if model.hand() and not model.offline:
                self.action_cursor(-1 if event.key == "left" else 1)
        else:
            why = why_key(model, action)
            if why is None:
                return
            self.show_problem(why)
        event.stop()

    def on_hand_card_clicked(self, event: Hand.CardClicked) -> None:
        """A click on a card picks it; on the picked card, plays it as Enter would
        (or says why not, under the hand)."""
        if event.index != self.cursor:
            self.action_pick(event.index)
        elif self.check_action("play", ()):
            self.action_play()
        else:
            why = why_key(self.host.model, "play")
            if why is not None:
                self.show_problem(why)

    # --- the moves ---------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        cards = self.host.model.hand()
        if cards:
            self.cursor = (self.cursor + step) % len(cards)
            self.refresh_model()

    def action_pick(self, index: int) -> None:
        if index < len(self.host.model.hand()):
            self.cursor = index
            self.refresh_model()

    def action_play(self) -> None:
        model, ascii_only = self.host.model, self.host.ascii_only
        cards = model.hand()
        if not cards:
            return
        card = cards[self.cursor]
        if card not in model.playable():
            self.show_problem(clean(why_not(model, card, ascii_only)))
            return
        call = self.armed if len(cards) == 2 else None
        if model.needs_name(card):
            letters = model.names_for(card)

            def named(letter: str | None) -> None:
                if letter is not None:
                    self.send(PlayCard(card, letter, call))
                    self.armed = None

            self.app.push_screen(SuitPicker(card, letters, ascii_only), named)
            return
        self.send(PlayCard(card, None, call))
        self.armed = None

    def action_draw(self) -> None:
        self.send(DrawCard())

    def action_take(self) -> None:
        self.send(DrawCard())

    def action_keep(self) -> None:
        self.send(PassTurn())

    def action_challenge(self) -> None:
        self.send(ChallengeCard())

    def action_mau(self) -> None:
        self._call("mau")

    def action_maumau(self) -> None:
        self._call("maumau")

    def _call(self, call: str) -> None:
        model = self.host.model
        if model.owes_call() or (call == "maumau" and model.can_upgrade()):
            self.send(SayMau(call))
        elif model.can_arm():
            self.armed = None if self.armed == call else call
            self.refresh_model()

    def action_catch(self) -> None:
        targets = self.host.model.catch_targets()
        if targets:
            self.send(CatchPlayer(targets[0]))

    def action_rematch(self) -> None:
        self.send(Rematch())

    def action_ready(self) -> None:
        """In the waiting room: ready (or not ready any more) for the match."""
        table = self.host.model.table
        if table is not None and table.you is not None:
            self.send(Ready(not table.seats[table.you]["ready"]))

    def action_start(self) -> None:
        self.send(StartMatch())

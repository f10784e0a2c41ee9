"""The new-table dialog: every table setting, with its default, on one screen.

Theory of operation
-------------------
The whole form fits 80x24 (and the minimum 60x20) without scrolling: each setting
is one line, a label and a one-line field, and the house rules sit in two columns.
The game is a :class:`GameChoice` (Left/Right switch it); switching it changes the
seat count and the target to the new game's defaults unless the player already typed
their own. The bots are placed with the :class:`~maumau.client.widgets.seat_plan.SeatPlan`.
The house rules are :class:`RuleBox` es, drawn ``[x]`` or ``[ ]`` so that on and off
never differ by colour alone (and in plain ASCII).

The rules as written: every setting that is a rule of the game (the house rules, lag
compensation, the target and the Mau penalties) is marked ``*`` while its value
departs from the seeds' literal reading (:mod:`maumau.protocol.as_written`), and the
title line says what the mark means; the marks follow every change. The "As
written" button (or ctrl+r) sets every one of them to that reading, leaving the name,
the seats, the clocks and the password as they are.

The dialog starts with the settings and seat plan of the last table the player made
(kept in the config), else the game's defaults. The default name is the player's own
table, ``Ann's table`` (in the player's language), numbered when the lobby already
has one of that name (``Ann's table 2``).
Enter in any field, or the Create button, checks the numbers and the seat count here
(so a mistake is said at once, next to the form), then asks the app to send
``create_table`` and closes; the server says the rest. Esc, or the Cancel button,
closes without creating. The dialog has its own footer, so only its own keys are
offered while it is open.

Every word is the client's own (the server sends no names or help for settings):
the labels are translated when the dialog is composed, and the column of labels on
the left is as wide as its longest label in the player's language.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Static

from maumau.protocol.as_written import AS_WRITTEN, MARK, departs
from maumau.protocol.messages import CreateTable

from .. import config
from ..host import host_of
from ..i18n import N_, _, pgettext
from ..widgets.action_bar import RoomAware
from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.key_footer import KeyFooter
from ..widgets.seat_plan import SeatPlan
from .messages import ToServer

# The house rules, short enough for two columns at the minimum width (60); the help
# screen says each in full. Translated where they are shown.
HOUSE_RULES = {
    "classic": [
        # NOTE: a house rule in the new-table dialog: at most 24 characters (two
        # columns of them fit a 60-column screen); the help says each in full.
        ("jack_on_jack", N_("Jack on Jack"), True),
        ("reverse_skips_with_two", N_("9 skips with 2"), False),
    ],
    "american": [
        ("reverse_skips_with_two", N_("Reverse skips w/ 2"), True),
        ("stack_draw_two", N_("Draw 2 on Draw 2"), False),
        ("wild_draw_four_challenge", N_("Wild 4 challenge"), False),
    ],
}
# The boxes of both games after the house rules: box id -> (setting, label, default).
BOTH_GAMES = {
    # NOTE: a rule in the new-table dialog (at most 24 characters, as the house
    # rules): the call window stays open a minimum time (the field "window", in
    # ms) even when the next player acts sooner. Off: it closes when the next
    # player acts.
    "r-window": ("mau_window_minimum", N_("Window minimum"), True),
    "r-lag": ("lag_compensation", N_("Lag compensation"), False),
}
# The fields whose value is a rule of the game: marked when it departs from the
# rules as written (the house rules' boxes and lag compensation are marked too).
MARKED_FIELDS = {
    "#t-target": "target_score",
    "#t-mau-penalty": "mau_penalty",
    "#t-false-catch": "false_catch_penalty",
}

GAMES = {"classic": N_("Mau Mau (32 cards)"), "american": N_("American Mau-Mau (108 cards)")}
KEY_WIDTH = 7  # the least width of the labels' column (as .key in the stylesheet)
SEAT_LIMITS = {"classic": 4, "american": 10}
DEFAULT_SEATS = {"classic": 4, "american": 6}
DEFAULT_TARGET = {"classic": 150, "american": 500}
NAME_LENGTH = 32  # the longest table name the server takes


def unique_name(player: str, taken: set[str]) -> str:
    """``Ann's table``, or the first of ``Ann's table 2``, ``3``, ... not in ``taken``,
    cut so that it stays within the server's limit."""
    base = _("{player}'s table").format(player=player.strip()) if player.strip() else _("New table")
    number = 1
    while True:
        suffix = "" if number == 1 else f" {number}"
        name = base[: NAME_LENGTH - len(suffix)].rstrip() + suffix
        if name not in taken:
            return name
        number += 1


class GameChoice(Widget, can_focus=True):
    """The game, one line: ``< Mau Mau (32 cards) >``; Left/Right or Space switch it,
    and so does a click (or a tap)."""

    BINDINGS = [
        Binding("left", "switch", N_("game"), key_display="<-/->", show=False),
        Binding("right", "switch", N_("game"), show=False),
        Binding("space", "switch", N_("switch game")),
    ]

    value: reactive[str] = reactive("classic")

    class Changed(Message):
        """The game changed."""

        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    def watch_value(self, old: str, new: str) -> None:
        if old != new:
            self.post_message(self.Changed(new))

    def action_switch(self) -> None:
        self.value = "american" if self.value == "classic" else "classic"

    def on_click(self) -> None:
        self.action_switch()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 4 + max(cell_len(_(name)) for name in GAMES.values())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render(self) -> Content:
        return Content(f"< {_(GAMES[self.value])} >")


class RuleBox(Checkbox, inherit_bindings=False):
    """A house rule, ``[x]`` on or ``[ ]`` off: never colour alone. Space toggles;
    Enter is left to the dialog (it creates the table).

    A box made with ``departs`` (False or True) has a column in front for the mark
    of a rule that departs from the rules as written: ``*[x] Jack on Jack``."""

    BINDINGS = [Binding("space", "toggle_button", N_("on/off"))]

    departs: reactive[bool | None] = reactive(None)

    def __init__(self, label: str, value: bool, departs: bool | None = None, **kwargs: Any) -> None:
        super().__init__(label, value, compact=True, **kwargs)
        self.set_reactive(RuleBox.departs, departs)

    def render(self) -> Content:
        box = Content.styled(
            "[x]" if self.value else "[ ]", self.get_visual_style("toggle--button")
        )
        style = self.get_visual_style("toggle--label")
        if self.departs is None:
            return Content.assemble(box, self.label.pad(1, 1).stylize_before(style))
        # The mark's column is paid for by the space after the label.
        label = self.label.pad(1, 0).stylize_before(style)
        return Content.assemble(MARK if self.departs else " ", box, label)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 3 + 2 + self.label.cell_length


class Mark(Static):
    """The one cell in front of a field whose value is a rule of the game: ``*`` while
    the value departs from the rules as written, else blank."""

    departs: reactive[bool] = reactive(False)

    def render(self) -> Content:
        return Content(MARK if self.departs else " ")


class Field(AsciiInput):
    """A one-line field (no tall border: the form fits one screen, in ASCII too)
    whose Enter shows in the footer as what it does: create the table."""

    BINDINGS = [Binding("enter", "submit", N_("create"), key_display="Enter")]


def field(value: str, widget_id: str, width: str = "number", **kwargs: Any) -> Field:
    """A one-line field of the dialog; ``width`` is its class: "number", "short" (a
    number of two digits: the Mau penalties) or "wide"."""
    return Field(value, id=widget_id, compact=True, classes=width, **kwargs)


def last_table() -> tuple[dict[str, Any], list[str] | None]:
    """The settings and seat plan of the last table this player made (kept in the
    config), checked: what is missing or of the wrong kind is left out, the
    dialog's defaults stand in for it."""
    kept = config.load().get("new_table")
    if not isinstance(kept, dict):
        return {}, None
    settings = kept.get("settings")
    settings = settings if isinstance(settings, dict) else {}
    checked: dict[str, Any] = {}
    if settings.get("variant") in GAMES:
        checked["variant"] = settings["variant"]
    for key, value in settings.items():
        if key == "variant" or not isinstance(key, str):
            continue
        if isinstance(value, bool) or (isinstance(value, int) and 0 <= value <= 1_000_000):
            checked[key] = value
    choices = kept.get("choices")
    allowed = {"you", "open", "easy", "normal", "hard"}
    if not (
        isinstance(choices, list) and len(choices) == 10 and all(c in allowed for c in choices)
    ):
        choices = None
    return checked, choices


class NewTableScreen(RoomAware, AsciiAware, ModalScreen[None]):
    """Every table setting, with its default, on one screen; it starts with those of
    the last table the player made (:func:`last_table`)."""

    BINDINGS = [
        Binding("enter", "create", N_("create"), key_display="Enter"),
        Binding("ctrl+s", "create", N_("create"), show=False),
        Binding("escape", "cancel", N_("cancel"), key_display="Esc"),
        Binding("ctrl+r", "as_written", N_("as written"), key_display="^R"),
    ]

    def compose(self) -> ComposeResult:
        keys = {
            # NOTE: the labels on the left of the new-table dialog; short words keep
            # the form within 60 columns.
            "name": _("Name"),
            "game": _("Game"),
            "seats": _("Seats"),
            "target": _("Target"),
            "rules": _("Rules"),
            "mau": pgettext("setting group", "Mau"),
            "clocks": _("Clocks"),
        }
        width = max(KEY_WIDTH, 1 + max(cell_len(text) for text in keys.values()))

        def key(name: str) -> Label:
            label = Label(keys[name], classes="key")
            label.styles.width = width
            return label

        def unit(*words: str, gap: int = 1) -> Label:
            """The words between two fields: the unit of the field before, or the
            label of the field after, or both, ``gap`` cells apart (in one label, as
            the English was always drawn)."""
            return Label((" " * gap).join(words), classes="unit")

        last, choices = last_table()
        variant = str(last.get("variant", "classic"))

        def value(name: str, default: object) -> str:
            got = last.get(name, default)
            return str(got)

        def rule_on(variant: str, rule: str, default: bool) -> bool:
            got = last.get(rule, default) if variant == last.get("variant", "classic") else default
            return bool(got)

        with Vertical(classes="dialog", id="new-table"):
            with Horizontal(classes="title", id="t-title"):
                yield Label(_("New table"))
                # NOTE: the legend of the mark on a setting that departs from the
                # rules as written (on the title line: keep it short); {mark} is "*".
                yield Label(
                    _("{mark} departs from the rules as written").format(mark=MARK), id="t-legend"
                )
            with Horizontal(classes="row"):
                yield key("name")
                yield field(self._default_name(), "t-name", "wide", max_length=NAME_LENGTH)
            with Horizontal(classes="row"):
                yield key("game")
                game = GameChoice(id="t-variant")
                game.set_reactive(GameChoice.value, variant)
                yield game
            with Horizontal(classes="row"):
                yield key("seats")
                yield field(value("seats", DEFAULT_SEATS[variant]), "t-seats", type="integer")
                yield Label("", id="t-seat-range", classes="unit")
            yield SeatPlan(choices, id="t-plan")
            with Horizontal(classes="row"):
                yield key("target")
                yield Mark(id="m-target")
                yield field(
                    value("target_score", DEFAULT_TARGET[variant]), "t-target", type="integer"
                )
                # NOTE: the unit of the target score, after its field.
                yield unit(_("points"), _("Password"), gap=2)
                yield field(
                    "", "t-password", "wide", password=True, placeholder=_("empty: open table")
                )
            with Horizontal(id="t-rules"):
                yield key("rules")
                with Vertical(classes="rules"):
                    for variant, rules in HOUSE_RULES.items():
                        for rule, text, default in rules:
                            yield RuleBox(
                                _(text),
                                rule_on(variant, rule, default),
                                False,
                                id=f"r-{variant}-{rule}",
                                classes=f"rule-{variant}",
                            )
                    for box_id, (setting, text, default) in BOTH_GAMES.items():
                        yield RuleBox(_(text), bool(last.get(setting, default)), False, id=box_id)
            with Horizontal(classes="row"):
                yield key("mau")
                # NOTE: the Mau settings: the penalty for a missed call, for a false
                # catch, and the call window in milliseconds.
                yield unit(_("penalty"))
                yield Mark(id="m-mau-penalty")
                yield field(value("mau_penalty", 2), "t-mau-penalty", "short", type="integer")
                yield unit(_("false catch"))
                yield Mark(id="m-false-catch")
                yield field(
                    value("false_catch_penalty", 0), "t-false-catch", "short", type="integer"
                )
                yield unit(_("window"))
                yield field(value("mau_window_ms", 1500), "t-window", type="integer")
                yield unit(pgettext("unit", "ms"))
            with Horizontal(classes="row"):
                yield key("clocks")
                # NOTE: the clocks: seconds for a turn, and to reconnect to one's seat.
                yield unit(_("turn"))
                yield field(value("turn_timeout_s", 45), "t-timeout", type="integer")
                yield unit(pgettext("unit", "s"), _("reconnect grace"), gap=3)
                yield field(value("reconnect_grace_s", 60), "t-grace", type="integer")
                yield unit(pgettext("unit", "s"))
            yield Static("", id="t-error", classes="error")
            with Horizontal(classes="row", id="t-buttons"):
                yield Button(_("Create"), id="t-create", variant="primary", compact=True)
                yield Button(_("Cancel"), id="t-cancel", compact=True)
                # NOTE: the button that sets every rule to the rules as written (the
                # seeds' literal reading): no house rule, the call window closing when
                # the next player acts.
                yield Button(_("As written"), id="t-as-written", compact=True)
                yield Static(_("Tab: next field"), classes="hint")
        yield KeyFooter()

    def _default_name(self) -> str:
        model = host_of(self.app).model
        lobby = model.lobby
        taken = {str(t["name"]) for t in lobby.tables} if lobby is not None else set()
        return unique_name(model.name or "", taken)

    def on_mount(self) -> None:
        self._show_rules(self._variant())
        self._resize_plan()
        self._mark()
        self.query_one("#t-name", Input).focus()

    @on(GameChoice.Changed)
    def variant_changed(self, event: GameChoice.Changed) -> None:
        new = event.value
        old = "american" if new == "classic" else "classic"
        # What the player did not change follows the game; what they typed stays.
        for widget_id, defaults in (("#t-seats", DEFAULT_SEATS), ("#t-target", DEFAULT_TARGET)):
            box = self.query_one(widget_id, Input)
            if box.value.strip() in ("", str(defaults[old])):
                box.value = str(defaults[new])
        self._show_rules(new)
        self._resize_plan()
        self._mark()

    @on(Input.Changed, "#t-seats")
    def seats_changed(self) -> None:
        self._resize_plan()

    @on(Input.Changed)
    @on(Checkbox.Changed)
    def value_changed(self) -> None:
        self._mark()

    def _mark(self) -> None:
        """Mark every rule of the game whose value departs from the rules as written
        (a number being typed counts as what it will be: empty is the default)."""
        variant = self._variant()
        for box in self.query(RuleBox):
            box_id = box.id or ""
            rule = BOTH_GAMES[box_id][0] if box_id in BOTH_GAMES else box_id.split("-", 2)[-1]
            box.departs = departs(variant, rule, box.value)
        defaults = {"#t-target": DEFAULT_TARGET[variant], "#t-mau-penalty": 2}
        for widget_id, setting in MARKED_FIELDS.items():
            typed = self.query_one(widget_id, Input).value.strip()
            number = int(typed) if typed.isdigit() else defaults.get(widget_id, 0)
            self.query_one(f"#m-{widget_id[3:]}", Mark).departs = departs(variant, setting, number)

    def action_as_written(self) -> None:
        """Every rule of the game as the seeds write it (the name, the seats and bots,
        the clocks and the password stay as they are)."""
        variant = self._variant()
        written = AS_WRITTEN[variant]
        for key, _text, _default in HOUSE_RULES[variant]:
            self.query_one(f"#r-{variant}-{key}", Checkbox).value = bool(written[key])
        for box_id, (setting, _text, _default) in BOTH_GAMES.items():
            self.query_one(f"#{box_id}", Checkbox).value = bool(written[setting])
        for widget_id, setting in MARKED_FIELDS.items():
            self.query_one(widget_id, Input).value = str(written[setting])
        self._mark()

    @on(Button.Pressed, "#t-as-written")
    def as_written_pressed(self) -> None:
        self.action_as_written()

    @on(Input.Submitted)
    async def submitted(self) -> None:
        await self.action_create()

    @on(Button.Pressed, "#t-create")
    async def create_pressed(self) -> None:
        await self.action_create()

    @on(Button.Pressed, "#t-cancel")
    def cancel_pressed(self) -> None:
        self.action_cancel()

    def _variant(self) -> str:
        return self.query_one(GameChoice).value

    def _resize_plan(self) -> None:
        """The plan shows as many seats as the seat count says (within the variant's
        range while the number is being typed); choices of hidden seats are kept."""
        variant = self._variant()
        value = self.query_one("#t-seats", Input).value.strip()
        seats = int(value) if value.lstrip("-").isdigit() else DEFAULT_SEATS[variant]
        self.query_one(SeatPlan).seats = max(2, min(SEAT_LIMITS[variant], seats))
        self.query_one("#t-seat-range", Label).update(
            _("{least} to {most}").format(least=2, most=SEAT_LIMITS[variant])
        )

    def _show_rules(self, variant: str) -> None:
        for box in self.query(RuleBox):
            if box.id not in BOTH_GAMES:
                box.display = box.has_class(f"rule-{variant}")

    def _int(self, widget_id: str) -> int | None:
        value = self.query_one(widget_id, Input).value.strip()
        return int(value) if value else None

    async def action_create(self) -> None:
        variant = self._variant()
        try:
            seats = self._int("#t-seats") or DEFAULT_SEATS[variant]
            settings: dict[str, Any] = {"variant": variant, "seats": seats}
            target = self._int("#t-target")
            if target:
                settings["target_score"] = target
            for key, _text, _default in HOUSE_RULES[variant]:
                settings[key] = self.query_one(f"#r-{variant}-{key}", Checkbox).value
            for box_id, (setting, _text, _default) in BOTH_GAMES.items():
                settings[setting] = self.query_one(f"#{box_id}", Checkbox).value
            for widget_id, key in (
                ("#t-mau-penalty", "mau_penalty"),
                ("#t-false-catch", "false_catch_penalty"),
                ("#t-window", "mau_window_ms"),
                ("#t-timeout", "turn_timeout_s"),
                ("#t-grace", "reconnect_grace_s"),
            ):
                value = self._int(widget_id)
                if value is not None:
                    settings[key] = value
        except ValueError:
            self._problem(_("Numbers only, please"))
            return
        if not 2 <= seats <= SEAT_LIMITS[variant]:
            most = SEAT_LIMITS[variant]
            if variant == "classic":
                self._problem(_("Seats: {least} to {most} for Mau Mau").format(least=2, most=most))
            else:
                self._problem(
                    _("Seats: {least} to {most} for American Mau-Mau").format(least=2, most=most)
                )
            return
        plan = self.query_one(SeatPlan)
        plan.seats = seats
        bot_seats, levels = plan.bots()
        name = self.query_one("#t-name", Input).value.strip() or self._default_name()
        password = self.query_one("#t-password", Input).value or None
        self.app.post_message(
            ToServer(CreateTable(name[:NAME_LENGTH], settings, bot_seats, password, levels))
        )
        config.save({"new_table": {"settings": settings, "choices": list(plan.choices)}})
        self.dismiss(None)

    def _problem(self, text: str) -> None:
        """Say what is wrong, above the buttons (the line is hidden while all is well)."""
        error = self.query_one("#t-error", Static)
        error.update(text)
        error.add_class("shown")

    def action_cancel(self) -> None:
        self.dismiss(None)

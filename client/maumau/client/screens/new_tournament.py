"""The new-tournament dialog: everything a director chooses, on one screen.

Theory of operation
-------------------
The form is laid out as the new-table dialog is (one line a setting, a label on the
left, one-line fields; it fits 80x24 and the minimum 60x20), and borrows its
widgets: the game is a :class:`~.new_table.GameChoice`, the yes/no choices are
:class:`~.new_table.RuleBox` es drawn ``[x]`` or ``[ ]``.

The defaults suit an evening: four players a table, three series of three deals
each, a final, late arrivals welcome, no bots, and the start when the director says
go. Switching the game moves the table size and the target to the new game's
defaults unless the director already typed their own. A series lasts a number of
deals, or, with 0 deals, is a match to the target score.

Enter in any field, or the Create button, checks every number here (so a mistake is
said at once, above the buttons, in words) and then asks the app to send
``create_tournament`` and to show the tournament when the server answers
(:class:`~.messages.TournamentWanted`); the server says the rest. Esc cancels.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from maumau.protocol.messages import (
    TOURNAMENT_DEALS_MAX,
    TOURNAMENT_NAME_MAX,
    TOURNAMENT_SERIES_MAX,
    CreateTournament,
)

from ..host import host_of
from ..i18n import N_, _, pgettext
from ..widgets.action_bar import RoomAware
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .messages import ToServer, TournamentWanted
from .new_table import DEFAULT_TARGET, KEY_WIDTH, GameChoice, RuleBox, field

TABLE_SIZES = {"classic": (3, 4), "american": (2, 10)}
DEFAULT_TABLE_SIZE = {"classic": 4, "american": 4}
DEFAULT_SERIES = 3
DEFAULT_DEALS = 3
TARGET_MAX = 100_000
START_MAX_MINUTES = 24 * 60


def tournament_name(mine: str, taken: set[str]) -> str:
    """``Ann's tournament``, numbered when the lobby has one of that name already."""
    # NOTE: the default name of a new tournament, after its director.
    base = _("{name}'s tournament").format(name=mine) if mine else _("Tournament")
    number = 1
    while True:
        suffix = "" if number == 1 else f" {number}"
        name = base[: TOURNAMENT_NAME_MAX - len(suffix)].rstrip() + suffix
        if name not in taken:
            return name
        number += 1


class NewTournamentScreen(RoomAware, AsciiAware, ModalScreen[None]):
    """Every choice of a new tournament, with its default, on one screen."""

    BINDINGS = [
        Binding("enter", "create", N_("create"), key_display="Enter"),
        Binding("ctrl+s", "create", N_("create"), show=False),
        Binding("escape", "cancel", N_("cancel"), key_display="Esc"),
    ]

    def compose(self) -> ComposeResult:
        keys = {
            # NOTE: the labels on the left of the new-tournament dialog; short words
            # keep the form within 60 columns.
            "name": _("Name"),
            "game": _("Game"),
            "tables": _("Tables"),
            # NOTE: "Play [3] series of [3] deals each".
            "series": pgettext("new tournament", "Play"),
            "target": _("Target"),
            "options": _("Options"),
            "start": _("Start"),
        }
        width = max(KEY_WIDTH, 1 + max(cell_len(text) for text in keys.values()))

        def key(name: str) -> Label:
            label = Label(keys[name], classes="key")
            label.styles.width = width
            return label

        def unit(text: str) -> Label:
            return Label(text, classes="unit")

        with Vertical(classes="dialog", id="new-tournament"):
            yield Label(_("New tournament"), classes="title")
            with Horizontal(classes="row"):
                yield key("name")
                yield field(self._default_name(), "n-name", "wide", max_length=TOURNAMENT_NAME_MAX)
            with Horizontal(classes="row"):
                yield key("game")
                yield GameChoice(id="n-variant")
            with Horizontal(classes="row"):
                yield key("tables")
                yield field(str(DEFAULT_TABLE_SIZE["classic"]), "n-seats", type="integer")
                # NOTE: after the table size: "players a table (3 to 4)".
                yield unit(_("players a table"))
                yield Label("", id="n-seat-range", classes="unit")
            with Horizontal(classes="row"):
                yield key("series")
                yield field(str(DEFAULT_SERIES), "n-series", type="integer")
                # NOTE: "3 series of 3 deals each (0 deals: a match to the target)".
                yield unit(_("series of"))
                yield field(str(DEFAULT_DEALS), "n-deals", type="integer")
                yield unit(_("deals each (0: to the target)"))
            with Horizontal(classes="row"):
                yield key("target")
                yield field(str(DEFAULT_TARGET["classic"]), "n-target", type="integer")
                yield unit(_("points"))
                yield Label(_("Password"), classes="unit gap")
                yield field(
                    "", "n-password", "wide", password=True, placeholder=_("empty: open to all")
                )
            with Horizontal(id="n-options"):
                yield key("options")
                with Vertical(classes="rules"):
                    yield RuleBox(_("A final table"), True, id="n-final")
                    yield RuleBox(_("Late arrivals"), True, id="n-late")
                    yield RuleBox(_("Bots fill tables"), False, id="n-bots")
            with Horizontal(classes="row"):
                yield key("start")
                # NOTE: the start: in a number of minutes, or (field left empty) when
                # the director says go.
                yield unit(_("in"))
                yield field("", "n-start", type="integer")
                yield unit(_("minutes (empty: when I say go)"))
            yield Static("", id="n-error", classes="error")
            with Horizontal(classes="row", id="n-buttons"):
                yield Button(_("Create"), id="n-create", variant="primary", compact=True)
                yield Button(_("Cancel"), id="n-cancel", compact=True)
                yield Static(_("Tab: next field"), classes="hint")
        yield KeyFooter()

    def _default_name(self) -> str:
        model = host_of(self.app).model
        taken = {str(t["name"]) for t in model.tournaments}
        return tournament_name(model.name or "", taken)

    def on_mount(self) -> None:
        self._show_range("classic")
        self.query_one("#n-name", Input).focus()

    @on(GameChoice.Changed)
    def variant_changed(self, event: GameChoice.Changed) -> None:
        new = event.value
        old = "american" if new == "classic" else "classic"
        for widget_id, defaults in (
            ("#n-seats", DEFAULT_TABLE_SIZE),
            ("#n-target", DEFAULT_TARGET),
        ):
            box = self.query_one(widget_id, Input)
            if box.value.strip() in ("", str(defaults[old])):
                box.value = str(defaults[new])
        self._show_range(new)

    def _show_range(self, variant: str) -> None:
        least, most = TABLE_SIZES[variant]
        self.query_one("#n-seat-range", Label).update(
            _("({least} to {most})").format(least=least, most=most)
        )

    @on(Input.Submitted)
    async def submitted(self) -> None:
        await self.action_create()

    @on(Button.Pressed, "#n-create")
    async def create_pressed(self) -> None:
        await self.action_create()

    @on(Button.Pressed, "#n-cancel")
    def cancel_pressed(self) -> None:
        self.action_cancel()

    def _int(self, widget_id: str) -> int | None:
        value = self.query_one(widget_id, Input).value.strip()
        return int(value) if value else None

    def _checked(self, widget_id: str) -> bool:
        return self.query_one(widget_id, Checkbox).value

    def problem(self) -> str | None:
        """What is wrong with the form, in words; None when it may be sent."""
        variant = self.query_one(GameChoice).value
        try:
            seats = self._int("#n-seats")
            series = self._int("#n-series")
            deals = self._int("#n-deals")
            target = self._int("#n-target")
            start = self._int("#n-start")
        except ValueError:
            return _("Numbers only, please")
        least, most = TABLE_SIZES[variant]
        if seats is None or not least <= seats <= most:
            if variant == "classic":
                text = _("Table size: {least} to {most} players for Mau Mau")
            else:
                text = _("Table size: {least} to {most} players for American Mau-Mau")
            return text.format(least=least, most=most)
        if series is None or not 1 <= series <= TOURNAMENT_SERIES_MAX:
            return _("Series: 1 to {most}").format(most=TOURNAMENT_SERIES_MAX)
        if deals is None or not 0 <= deals <= TOURNAMENT_DEALS_MAX:
            return _("Deals: 0 to {most} (0: each series is a match to the target)").format(
                most=TOURNAMENT_DEALS_MAX
            )
        if target is None or not 1 <= target <= TARGET_MAX:
            return _("Target: 1 to {most} points").format(most=TARGET_MAX)
        if start is not None and not 1 <= start <= START_MAX_MINUTES:
            return _("Start: in 1 to {most} minutes, or empty to start when you say go").format(
                most=START_MAX_MINUTES
            )
        return None

    async def action_create(self) -> None:
        wrong = self.problem()
        if wrong is not None:
            self._problem(wrong)
            return
        variant = self.query_one(GameChoice).value
        seats, series = self._int("#n-seats"), self._int("#n-series")
        deals, target, start = self._int("#n-deals"), self._int("#n-target"), self._int("#n-start")
        assert seats is not None and series is not None and target is not None
        settings: dict[str, Any] = {"variant": variant, "seats": seats, "target_score": target}
        name = self.query_one("#n-name", Input).value.strip() or self._default_name()
        password = self.query_one("#n-password", Input).value or None
        create = CreateTournament(
            name=name[:TOURNAMENT_NAME_MAX],
            settings=settings,
            series=series,
            final=self._checked("#n-final"),
            bots=self._checked("#n-bots"),
            late_join=self._checked("#n-late"),
            deals=deals or None,
            password=password,
            starts_in=start * 60 if start else None,
        )
        self.app.post_message(TournamentWanted(None, password))
        self.app.post_message(ToServer(create))
        self.dismiss(None)

    def _problem(self, text: str) -> None:
        """Say what is wrong, above the buttons (the line is hidden while all is well)."""
        error = self.query_one("#n-error", Static)
        error.update(text)
        error.add_class("shown")

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The new-table dialog: every table setting, with its default, in one scrolling form.

The game, seats, target, password, every house rule of the chosen game, the Mau
penalties and the clocks; the bots are placed with the
:class:`~maumau.client.widgets.seat_plan.SeatPlan`. Ctrl+S checks the numbers and
the seat count here (so a mistake is said at once, next to the form), then asks the
app to send ``create_table`` and closes; the server says the rest.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Select, Static

from maumau.protocol.messages import CreateTable

from ..widgets.ascii_aware import AsciiAware
from ..widgets.seat_plan import SeatPlan
from .messages import ToServer

HOUSE_RULES = {
    "classic": [
        ("jack_on_jack", "A Jack may be played on a Jack", True),
        ("reverse_skips_with_two", "With 2 players a 9 skips", False),
    ],
    "american": [
        ("reverse_skips_with_two", "With 2 players a Reverse skips", True),
        ("stack_draw_two", "A Draw Two may answer a Draw Two", False),
        ("wild_draw_four_challenge", "A Wild Draw Four may be challenged", False),
    ],
}


SEAT_LIMITS = {"classic": 4, "american": 10}


class NewTableScreen(AsciiAware, ModalScreen[None]):
    """Every table setting, with its default, in one scrolling form."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("ctrl+s", "create", "create"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="new-table"):
            yield Label("New table", classes="title")
            yield Label("Name")
            yield Input("Friday", id="t-name", max_length=32)
            yield Label("Game")
            yield Select(
                [
                    ("Mau Mau (32 cards, to 150)", "classic"),
                    ("American Mau-Mau (108, to 500)", "american"),
                ],
                value="classic",
                allow_blank=False,
                id="t-variant",
            )
            yield Label("Seats (2-4 Mau Mau, 2-10 American)")
            yield Input("4", id="t-seats", type="integer")
            yield SeatPlan(id="t-plan")
            yield Label("Target score (empty: 150 or 500)")
            yield Input("", id="t-target", type="integer")
            yield Label("Password (empty: open table)")
            yield Input("", id="t-password", password=True)
            yield Label("House rules")
            for variant, rules in HOUSE_RULES.items():
                for key, text, default in rules:
                    yield Checkbox(
                        text, default, id=f"r-{variant}-{key}", classes=f"rule-{variant}"
                    )
            yield Checkbox("Lag compensation for Mau calls", False, id="r-lag")
            yield Label("Mau penalty cards / false catch penalty / call window ms")
            with Horizontal(classes="row"):
                yield Input("2", id="t-mau-penalty", type="integer")
                yield Input("0", id="t-false-catch", type="integer")
                yield Input("1500", id="t-window", type="integer")
            yield Label("Turn timeout s / reconnect grace s")
            with Horizontal(classes="row"):
                yield Input("45", id="t-timeout", type="integer")
                yield Input("60", id="t-grace", type="integer")
            yield Static("", id="t-error", classes="error")
            yield Static("Ctrl+S creates · Esc cancels · Tab moves", classes="hint")

    def on_mount(self) -> None:
        self._show_rules("classic")
        self.query_one("#t-name", Input).focus()

    @on(Select.Changed, "#t-variant")
    def variant_changed(self, event: Select.Changed) -> None:
        self._show_rules(str(event.value))
        self._resize_plan()

    @on(Input.Changed, "#t-seats")
    def seats_changed(self) -> None:
        self._resize_plan()

    def _resize_plan(self) -> None:
        """The plan shows as many seats as the seat count says (within the variant's
        range while the number is being typed); choices of hidden seats are kept."""
        variant = str(self.query_one("#t-variant", Select).value)
        value = self.query_one("#t-seats", Input).value.strip()
        seats = int(value) if value.lstrip("-").isdigit() else 4
        self.query_one(SeatPlan).seats = max(2, min(SEAT_LIMITS[variant], seats))

    def _show_rules(self, variant: str) -> None:
        for box in self.query(Checkbox):
            if box.id and box.id.startswith("r-") and box.id != "r-lag":
                box.display = box.has_class(f"rule-{variant}")

    def _int(self, widget_id: str) -> int | None:
        value = self.query_one(widget_id, Input).value.strip()
        return int(value) if value else None

    async def action_create(self) -> None:
        variant = str(self.query_one("#t-variant", Select).value)
        error = self.query_one("#t-error", Static)
        try:
            seats = self._int("#t-seats") or 4
            settings: dict[str, Any] = {"variant": variant, "seats": seats}
            target = self._int("#t-target")
            if target:
                settings["target_score"] = target
            for key, _, _ in HOUSE_RULES[variant]:
                settings[key] = self.query_one(f"#r-{variant}-{key}", Checkbox).value
            settings["lag_compensation"] = self.query_one("#r-lag", Checkbox).value
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
            error.update("Numbers only, please")
            return
        if not 2 <= seats <= SEAT_LIMITS[variant]:
            game = "Mau Mau" if variant == "classic" else "American Mau-Mau"
            error.update(f"Seats: 2 to {SEAT_LIMITS[variant]} for {game}")
            return
        plan = self.query_one(SeatPlan)
        plan.seats = seats
        bot_seats, levels = plan.bots()
        name = self.query_one("#t-name", Input).value.strip() or "Table"
        password = self.query_one("#t-password", Input).value or None
        self.app.post_message(
            ToServer(CreateTable(name[:32], settings, bot_seats, password, levels))
        )
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Buttons for a screen's keys, for a mouse or a finger, where the screen has room.

An :class:`ActionBar` holds one button for each of the actions it is given (each
named like its binding: ``play``, ``draw``, ``app.history``, ``step(-1)``). A press
runs the screen's own action, the very method the key's binding runs, so a click and
a key take one path. :meth:`ActionBar.sync` shows only the buttons whose actions
mean something now, by the screen's own ``check_action`` (the rule the footer
follows too), words them in the player's language, and lays them out in as many
columns as fit, wrapping onto further rows.

The bar is shown only on a screen with the ``roomy`` class (:func:`fit_room`: at
least :data:`ROOMY_ROWS` rows, as on a phone's page in the browser); on a smaller
screen the footer's keys, which Textual lets one click, are the click targets, and
the layout is what it was before the bar.

The buttons never take the focus (the screens' keys must stay the screens'), and
their words are the bindings' descriptions, translated when drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button

from ..i18n import _

ROOMY_ROWS = 32  # a screen at least this tall shows its action bar
BUTTON_ROWS = 3  # a finger's height (a cell is about 7x13 pixels on a phone)
BUTTON_MOST = 24  # the widest a button grows on a wide screen (cells, with its gap)


def fit_room(screen: Screen[Any]) -> bool:
    """Mark ``screen`` ``roomy`` when it is tall enough for its action bar."""
    height = screen.size.height or screen.app.size.height
    roomy = height >= ROOMY_ROWS
    screen.set_class(roomy, "roomy")
    return roomy


class RoomAware:
    """Screens (dialogs too) marked ``roomy`` by :func:`fit_room` when mounted and
    resized, so that the stylesheet gives their buttons a finger's height. Mixed in
    before the Screen class."""

    def on_mount(self) -> None:
        fit_room(cast(Screen[Any], self))

    def on_resize(self) -> None:
        fit_room(cast(Screen[Any], self))


class TapOutsideCloses:
    """Dialogs that a click or tap outside their box closes, as Escape does (by the
    action :attr:`OUTSIDE_ACTION`). Not for dialogs whose closing would lose what was
    typed, nor for the result. Mixed in before the Screen class."""

    OUTSIDE_ACTION = "close"

    def on_click(self, event: events.Click) -> None:
        screen = cast(Screen[Any], self)
        if event.widget is screen:  # the dimmed screen around the dialog
            event.stop()
            screen.call_later(screen.run_action, self.OUTSIDE_ACTION)


def described(bindings: Sequence[BindingType], actions: Sequence[str]) -> list[tuple[str, str]]:
    """Each of ``actions`` with the (English) description of its first binding."""
    words: dict[str, str] = {}
    for binding in bindings:
        if isinstance(binding, Binding):
            words.setdefault(binding.action, binding.description)
    return [(action, words[action]) for action in actions]


def action_name(action: str) -> str:
    """The name ``check_action`` is asked about: ``step(-1)`` -> ``step``."""
    return action.split("(")[0]


class TapButton(Button, can_focus=False):
    """A button that never takes the focus (a click still presses it)."""


class ActionBar(Grid):
    """Buttons for the screen's ``actions``: (action, English words) pairs."""

    def __init__(self, actions: Sequence[tuple[str, str]], id: str | None = None) -> None:
        super().__init__(id=id, classes="action-bar")
        self.actions = list(actions)

    def compose(self) -> ComposeResult:
        for action, words in self.actions:
            yield TapButton(_(words), name=action)

    def means_something(self, action: str) -> bool:
        if "." in action_name(action):
            return True  # another namespace's action (app.history): always there
        return bool(self.screen.check_action(action_name(action), ()))

    def sync(self) -> int:
        """Show the buttons that mean something now, in the player's language, in
        as many columns as fit; the rows they take (0 when the bar is hidden)."""
        if not self.is_mounted:
            return 0
        shown: list[Button] = []
        for button, (action, words) in zip(self.query(TapButton), self.actions, strict=True):
            button.label = _(words)
            button.display = self.means_something(action)
            if button.display:
                shown.append(button)
        parent = self.parent
        room = parent.content_region.width if isinstance(parent, Widget) else 0
        width = room or self.screen.size.width or self.app.size.width or 80
        widest = max((cell_len(str(b.label)) for b in shown), default=1) + 5
        columns = max(1, min(len(shown), width // widest))
        rows = math.ceil(len(shown) / columns) if shown else 0
        columns = math.ceil(len(shown) / rows) if rows else 1  # rows evenly filled
        self.styles.grid_size_columns = columns
        widest = max(widest, BUTTON_MOST)
        self.styles.max_width = columns * widest + 2 if columns * widest + 2 < width else None
        if not self.screen.has_class("roomy") or not shown:
            return 0
        return rows * BUTTON_ROWS

    def on_resize(self) -> None:
        self.sync()

    @on(Button.Pressed)
    async def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = event.button.name or ""
        if self.means_something(action):
            await self.screen.run_action(action)
        self.sync()

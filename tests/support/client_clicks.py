"""Clicking and tapping the client as a mouse or a finger would: sizes of the phone
and desktop pages, clicks on cards, buttons and footer keys, what was sent."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.cells import cell_len
from textual.widget import Widget
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from maumau.client import i18n
from maumau.client.app import MauMauApp
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.new_table import NewTableScreen
from maumau.client.screens.suit_picker import SuitPicker
from maumau.client.screens.table import TableScreen
from maumau.client.screens.table_keys import key_means_something
from maumau.client.widgets.action_bar import ActionBar, TapButton
from maumau.client.widgets.hand import Hand
from maumau.protocol.messages import (
    Lobby,
    Message,
    TableInfo,
)
from support.client_keys import JACK_TURN, RecordingApp, position
from support.client_snapshots import lobby, seat
from support.snapshots_results import american_rounds

PHONE = (60, 64)  # the phone's page in the browser: the buttons show


PHONE_412 = (62, 69)  # a 412x915 phone's page (a cell is about 6.6x13.3 pixels)


SMALL = (60, 20)  # the smallest screen: no buttons either


DESKTOP = (80, 24)  # the classic terminal: the footer's keys are the click targets


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 150))


async def until(pilot: Any, condition: Callable[[], Any], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        await pilot.pause(0.02)


async def click(pilot: Any, widget: Widget, offset: tuple[int, int] | None = None) -> None:
    """Click ``widget`` (in its middle unless ``offset`` says where) as a mouse would:
    at a point of the screen, whatever is drawn there."""
    if offset is None:
        offset = (widget.size.width // 2, widget.size.height // 2)
    if isinstance(widget, Button):
        # A button pressed within its last press's flash (0.2 s) does not press again.
        await until(pilot, lambda: not widget.has_class("-active"))
    await pilot.click(widget, offset=offset)
    await pilot.pause()


async def click_card(pilot: Any, app: MauMauApp, index: int) -> None:
    """Click the card at ``index`` of the hand, where it is drawn (inside the border)."""
    hand = app.screen.query_one(Hand)
    place = hand.places[index]
    await click(pilot, hand, (1 + place.start + 1, 1 + place.line))


def button(app: MauMauApp, action: str) -> TapButton:
    """The screen's shown button for ``action``."""
    found = [b for b in app.screen.query(TapButton) if b.name == action and b.display]
    assert found, f"no button for {action!r}: {shown_buttons(app)}"
    return found[0]


def shown_buttons(app: MauMauApp) -> list[str]:
    """The actions of the buttons the screen shows now (none while the bar is hidden)."""
    bars = [bar for bar in app.screen.query(ActionBar) if bar.display]
    return [b.name or "" for bar in bars for b in bar.query(TapButton) if b.display]


async def tap(pilot: Any, app: MauMauApp, action: str) -> None:
    await click(pilot, button(app, action))


def footer_key(app: MauMauApp, action: str) -> FooterKey:
    keys = [key for key in app.screen.query(FooterKey) if key.action == action]
    assert keys, f"{action!r} is not in the footer"
    return keys[0]


async def click_footer(pilot: Any, app: MauMauApp, action: str, half: int = 0) -> None:
    """Click the footer's key for ``action`` (of a pair, its first or second half)."""
    # The footer is composed again whenever the keys change: wait for its keys.
    await until(pilot, lambda: any(k.action == action for k in app.screen.query(FooterKey)), 3)
    await pilot.pause()
    key = footer_key(app, action)
    if half == 0:
        await click(pilot, key)
        return
    left = key.get_component_styles("footer-key--key").padding.left
    x = left if half == 1 else left + cell_len(key.key_display) - 1
    await click(pilot, key, (x, 0))


def sent_of(app: Any, kind: type[Message]) -> list[Message]:
    return [m for m in app.sent if isinstance(m, kind)]


RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")


CLASSIC_ALL = [f"{rank}{suit}" for suit in "SHD" for rank in RANKS][:20]


AMERICAN_MANY = [
    *("R1", "R5", "RS", "RR", "R+2", "Y3", "Y9", "YS", "G0", "G7"),
    *("G+2", "B4", "B8", "BR", "W", "W4", "R9", "Y1"),
]


def model_with_hand(cards: list[str]) -> RecordingApp:
    app = RecordingApp(position(hand=tuple(cards), hand_counts=(len(cards), 4, 1, 6)))
    for message in app.messages:
        app.model.apply(message)
    return app


TALL_ASCII = (
    "classic table",
    "american table",
    "lobby",
    "suit picker",
    "leave?",
    "round result",
    "match result",
    "history",
    "replay",
)


async def press(pilot: Any, app: MauMauApp, action: str, footer_action: str = "") -> None:
    """Do ``action`` by a click: on its button where the screen shows buttons, else
    on its key in the footer."""
    if app.screen.has_class("roomy"):
        await tap(pilot, app, action)
    else:
        await click_footer(pilot, app, footer_action or action)


async def play_a_turn(pilot: Any, app: MauMauApp) -> str:
    """One turn by clicks: the first card that fits (Mau armed before the last but
    one, the first suit named), else keep, take or draw."""
    model = app.model
    screen = app.screen
    assert isinstance(screen, TableScreen)
    cards = model.hand()
    playable = [i for i, card in enumerate(cards) if card in model.playable()]
    if playable:
        index = playable[0]
        if len(cards) == 2 and key_means_something(model, "mau"):
            await press(pilot, app, "mau")
        if screen.cursor != index:
            await click_card(pilot, app, index)
            assert screen.cursor == index
        await click_card(pilot, app, index)
        if model.needs_name(cards[index]):
            await until(pilot, lambda: isinstance(app.screen, SuitPicker))
            suits = app.screen.query_one("#suits")
            await click(pilot, suits, (5, suits.content_region.height - 5))  # the first
        return "play"
    for action in ("keep", "take", "draw"):
        if key_means_something(model, action):
            await press(pilot, app, action)
            return action
    return "wait"


WELCOME_ = lobby()[0]


def region_height(app: MauMauApp, selector: str) -> int:
    widget = app.screen.query_one(selector)
    return widget.region.height if widget.display and widget.region.area else 0


def outside(app: MauMauApp) -> tuple[int, int] | None:
    """A point of the screen outside the dialog's box (and its footer), if any."""
    width, height = app.size
    for y in range(height - 1):
        for x in (0, width - 1):
            if app.screen.get_widget_at(x, y)[0] is app.screen:
                return (x, y)
    return None


async def tap_outside(pilot: Any, app: MauMauApp) -> None:
    point = outside(app)
    assert point is not None, "the dialog leaves no room around it"
    await pilot.click(offset=point)
    await pilot.pause()


DIALOG_BUTTONS: list[tuple[Callable[[], Any], tuple[str, ...]]] = [
    (NewTableScreen, ("#t-create", "#t-cancel")),
    (lambda: ConfirmScreen("Leave the table?"), ("#confirm-yes", "#confirm-no")),
    (lambda: SuitPicker("JC", list("SHDC"), False), ("#suit-choose", "#suit-cancel")),
]


def round_over_table(*ready: str) -> TableInfo:
    """The table of :func:`american_rounds` after its round, ``ready`` the people
    ready for the next (the bots always are)."""
    info = american_rounds(6, "round_over")[1]
    assert isinstance(info, TableInfo)
    fields = {name: getattr(info, name) for name in TableInfo.SCHEMA}
    fields["seats"] = tuple({**s, "ready": s["bot"] or s["name"] in ready} for s in fields["seats"])
    return TableInfo(**fields)


PENALTY_TURN = dict(
    JACK_TURN,
    penalty=4,
    penalty_kind="seven",
    legal=({"kind": "draw"}, {"kind": "play", "card": "7S"}),
    turn_deadline_ms=27000,
)


def long_lobby() -> list[Message]:
    """The lobby of the play-test: Ann's own finished table (her seat kept for her)
    with bots, beside a playing and a locked one."""
    first, listing = lobby()
    assert isinstance(listing, Lobby)
    mine = {
        "id": 9,
        "name": "Ann's table",
        "variant": "classic",
        "seats": (
            seat("Ann"),
            seat("Cleo", bot=True, level="normal"),
            seat("Dora", bot=True, level="hard"),
            seat("Emil", bot=True, level="easy"),
        ),
        "spectators": 0,
        "state": "finished",
        "round": 4,
        "locked": False,
    }
    return [first, Lobby((mine, *listing.tables), listing.online)]


def finished() -> str:
    return i18n.pgettext("table state", "finished")

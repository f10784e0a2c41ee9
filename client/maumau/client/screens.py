"""The client's screens: connect, lobby, new table, table, and the small dialogs.

Screens draw the view model (:mod:`maumau.client.model`) and turn keys into protocol
messages through ``self.app.send``. They hold no game truth of their own: the table
screen is redrawn from the model whenever a server message arrives, and its footer
shows only the keys that mean something now (``check_action``).

The new-table dialog places the bots with :class:`SeatPlan`, a small widget that
shows one cell per seat ("you", "open", or a bot's level) and is set by keys. The
records of a server (leaderboard, history, replays) have their own module,
:mod:`maumau.client.records`; the lobby opens them through the app's actions.

Text the client did not write itself (names, chat, the server's words, what the
player typed) reaches a widget only as a Rich ``Text`` made by
:func:`~maumau.client.literal.literal`, or appended to one: a plain ``str`` would be
read as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import (
    Checkbox,
    DataTable,
    Footer,
    Input,
    Label,
    RichLog,
    Select,
    Static,
)

from maumau.protocol.messages import (
    CatchPlayer,
    ChallengeCard,
    Chat,
    CreateTable,
    DrawCard,
    JoinTable,
    LeaveTable,
    ListTables,
    PassTurn,
    PlayCard,
    Ready,
    Rematch,
    SayMau,
    StartMatch,
    WatchTable,
)

from . import render
from .literal import literal
from .model import label, plain, seat_label, suit_words

if TYPE_CHECKING:
    from .app import MauMauApp


class Banner(Static):
    """The line at the top of a screen that says the connection is down and when the
    client tries again. Every main screen has one; the app sets them all at once
    (:meth:`MauMauApp.set_banner`), and a screen shown later starts with the app's
    current text."""

    def __init__(self) -> None:
        super().__init__("", id="banner")

    def on_mount(self) -> None:
        self.show(getattr(self.app, "shown_banner", None))

    def show(self, text: str | None) -> None:
        self.update(literal(text or ""))
        self.display = bool(text)


class PickList(DataTable[Any]):
    """A list of rows whose Enter shows in the footer as what it does (a plain
    DataTable hides its Enter). Subclasses name it in their BINDINGS; Enter means
    nothing, and is not shown, without rows."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor":
            return self.row_count > 0
        return True


class TableList(PickList):
    """The lobby's tables: Enter joins the one under the cursor."""

    BINDINGS = [Binding("enter", "select_cursor", "join")]


class AsciiAware:
    """Screens that draw plain ASCII borders when the client runs with --ascii."""

    def on_mount(self) -> None:
        self.set_class(bool(getattr(self.app, "ascii_only", False)), "ascii")  # type: ignore[attr-defined]


class ConnectScreen(Screen[None]):
    """Where to connect, and as whom."""

    BINDINGS = [Binding("escape", "app.quit", "quit")]

    def __init__(self, address: str, name: str, message: str = "") -> None:
        super().__init__()
        self.address = address
        self.player = name
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="connect"):
            yield Static(" maumau: connect to a server", classes="title")
            yield Label("Server (host:port)")
            yield Input(self.address, placeholder="lan-party-box:7766", id="address")
            yield Label("Your name")
            yield Input(self.player, placeholder="Ann", id="name", max_length=24)
            yield Static(literal(self.message), id="connect-message", classes="error")
            yield Static("Enter connects · Esc quits", classes="hint")
        yield Footer()

    @on(Input.Submitted)
    def submitted(self) -> None:
        address = self.query_one("#address", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        app: MauMauApp = self.app  # type: ignore[assignment]
        parsed = app.parse_address(address)
        if parsed is None:
            self.query_one("#connect-message", Static).update(
                "Type the server as host:port, for example 192.168.1.20:7766"
            )
            return
        if not name:
            self.query_one("#connect-message", Static).update("Type a name (1 to 24 characters)")
            return
        app.connect_to(parsed[0], parsed[1], name)


class LobbyScreen(Screen[None]):
    """Tables, players online and lobby chat."""

    BINDINGS = [
        Binding("enter", "join", "join"),
        Binding("w", "watch", "watch"),
        Binding("n", "new_table", "new table"),
        Binding("s", "app.leaderboard", "stats"),
        Binding("l", "app.leaderboard", "leaderboard", show=False),
        Binding("h", "app.history", "history"),
        Binding("r", "refresh", "refresh", show=False),
        Binding("tab", "chat", "chat", priority=True),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("q", "app.quit", "quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="lobby-title", classes="title")
        yield TableList(id="tables", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="lobby-bottom"):
            yield Static("", id="online")
            yield RichLog(id="lobby-chat", wrap=True)
        yield Input(
            placeholder="say something to the lobby; Enter sends, Esc leaves", id="lobby-input"
        )
        yield Footer()

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    def on_mount(self) -> None:
        self.drawn = True
        self.set_class(self.app.ascii_only, "ascii")  # type: ignore[attr-defined]
        table = self.query_one("#tables", DataTable)
        table.add_columns("table", "game", "seats", "players", "state")
        self.query_one("#lobby-input", Input).display = False
        self.refresh_model()

    def refresh_model(self) -> None:
        if not self.drawn:
            return  # on_mount draws it
        app: MauMauApp = self.app  # type: ignore[assignment]
        model = app.model
        title = Text(" maumau  ", style="bold")
        title.append_text(literal(app.server_label))
        you = f"you: {model.name}"
        title.append(" " * max(1, 79 - len(title.plain) - len(you)) + you)
        self.query_one("#lobby-title", Static).update(title)
        table = self.query_one("#tables", DataTable)
        lobby = model.lobby
        keep = table.cursor_row
        table.clear()
        room = max(28, (self.size.width or 80) - 52)  # for the players column
        cut = "..." if app.ascii_only else "…"
        if lobby is not None:
            for summary in lobby.tables:
                seats = summary["seats"]
                taken = sum(1 for s in seats if s["name"])
                players = " ".join(seat_label(s).replace(" (", "(") for s in seats if s["name"])
                lock = " (locked)" if summary["locked"] else ""
                game = "Mau Mau" if summary["variant"] == "classic" else "American"
                state = summary["state"]
                if state == "playing":
                    state = f"playing round {summary['round']}"
                if len(players) > room:
                    players = players[: room - len(cut)] + cut
                cells = (summary["name"] + lock, game, f"{taken}/{len(seats)}", players, state)
                table.add_row(*map(literal, cells), key=str(summary["id"]))
            if lobby.more:
                table.add_row(*map(literal, (f"... {lobby.more} more", "", "", "", "")))
            online = Text(f"online ({len(lobby.online)})\n", style="bold")
            online.append("  ".join(lobby.online))
            self.query_one("#online", Static).update(online)
        if lobby is not None and lobby.tables:
            table.move_cursor(row=min(keep, len(lobby.tables) - 1))
        self.refresh_bindings()
        log = self.query_one("#lobby-chat", RichLog)
        log.clear()
        for line in model.lobby_chat:
            log.write(literal(line))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("join", "watch"):
            app: MauMauApp = self.app  # type: ignore[assignment]
            return app.model.lobby is not None and bool(app.model.lobby.tables)
        return True

    def _selected(self) -> int | None:
        table = self.query_one("#tables", DataTable)
        app: MauMauApp = self.app  # type: ignore[assignment]
        lobby = app.model.lobby
        if lobby is None or not lobby.tables or table.cursor_row >= len(lobby.tables):
            return None
        return int(lobby.tables[table.cursor_row]["id"])

    def _locked(self, table_id: int) -> bool:
        app: MauMauApp = self.app  # type: ignore[assignment]
        lobby = app.model.lobby
        return lobby is not None and any(t["id"] == table_id and t["locked"] for t in lobby.tables)

    async def action_join(self) -> None:
        await self._enter(watch=False)

    async def action_watch(self) -> None:
        await self._enter(watch=True)

    async def _enter(self, watch: bool) -> None:
        table_id = self._selected()
        if table_id is None:
            self.app.notify("No table yet: press n to make one")
            return
        app: MauMauApp = self.app  # type: ignore[assignment]

        async def go(password: str | None) -> None:
            if watch:
                await app.send(WatchTable(table_id, password))
            else:
                await app.send(JoinTable(table_id, None, password))

        if self._locked(table_id):

            async def with_password(password: str | None) -> None:
                if password:
                    await go(password)

            self.app.push_screen(PasswordScreen(), with_password)
        else:
            await go(None)

    @on(DataTable.RowSelected)
    async def row_selected(self) -> None:
        await self.action_join()

    def action_new_table(self) -> None:
        self.app.push_screen(NewTableScreen())

    async def action_refresh(self) -> None:
        app: MauMauApp = self.app  # type: ignore[assignment]
        await app.send(ListTables())

    def action_chat(self) -> None:
        box = self.query_one("#lobby-input", Input)
        box.display = not box.display
        if box.display:
            box.focus()
        else:
            self.query_one("#tables", DataTable).focus()

    @on(Input.Submitted, "#lobby-input")
    async def send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            app: MauMauApp = self.app  # type: ignore[assignment]
            await app.send(Chat("lobby", text[:200]))

    def key_escape(self) -> None:
        box = self.query_one("#lobby-input", Input)
        if box.display:
            box.display = False
            self.query_one("#tables", DataTable).focus()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())


class PasswordScreen(AsciiAware, ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("This table is locked. Password:")
            yield Input(password=True, id="password")
            yield Static("Enter joins · Esc cancels", classes="hint")

    @on(Input.Submitted)
    def done(self, event: Input.Submitted) -> None:
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


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
SEAT_CHOICES = ("open", "easy", "normal", "hard")  # a free seat, or a bot of that level


class SeatPlan(Widget, can_focus=True):
    """Who sits where at a new table: seat 1 is the creator's ("you"); every other seat
    is "open" (free for a person) or a bot "easy", "normal" or "hard".

    Left/Right pick a seat, Space (or Up/Down) cycles its choice, and o, e, n, h set it
    directly. The picked seat is bracketed (``[3 hard  ]``) as well as highlighted.
    Choices are kept for all ten seats, so shrinking the table and growing it again
    loses nothing; :meth:`bots` gives what ``create_table`` needs for the seats shown.
    """

    BINDINGS = [
        Binding("left", "move(-1)", "seat", key_display="←→"),
        Binding("right", "move(1)", "seat", show=False),
        Binding("space", "cycle(1)", "change"),
        Binding("up", "cycle(-1)", "change", show=False),
        Binding("down", "cycle(1)", "change", show=False),
        Binding("o", "set('open')", "open", show=False),
        Binding("e", "set('easy')", "easy", show=False),
        Binding("n", "set('normal')", "normal", show=False),
        Binding("h", "set('hard')", "hard", show=False),
    ]
    CELL = 12  # "[10 normal] " and a space

    seats: reactive[int] = reactive(4, layout=True)
    cursor: reactive[int] = reactive(1)

    def __init__(self, choices: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The old dialog's default: two bots in the last two of four seats.
        self.choices = choices or ["you", "open", *["normal"] * 8]

    def bots(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The bot seats (0-based) among the seats shown, and their levels."""
        seats = [i for i in range(1, self.seats) if self.choices[i] != "open"]
        return tuple(seats), tuple(self.choices[i] for i in seats)

    def validate_cursor(self, cursor: int) -> int:
        return max(1, min(self.seats - 1, cursor))

    def watch_seats(self) -> None:
        self.cursor = self.cursor  # back into range

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor - 1 + step) % (self.seats - 1) + 1

    def action_cycle(self, step: int) -> None:
        now = SEAT_CHOICES.index(self.choices[self.cursor])
        self.action_set(SEAT_CHOICES[(now + step) % len(SEAT_CHOICES)])

    def action_set(self, choice: str) -> None:
        self.choices[self.cursor] = choice
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        per_row = max(1, width // self.CELL)
        return 2 + -(-self.seats // per_row)

    def render(self) -> Text:
        width = self.size.width or 72
        per_row = max(1, width // self.CELL)
        text = Text("Who sits where: ", style="bold")
        text.append("open = free for a player; easy, normal, hard = a bot\n", style="dim")
        for i in range(self.seats):
            if i and i % per_row == 0:
                text.append("\n")
            picked = i == self.cursor and self.has_focus
            left, right = ("[", "]") if picked else (" ", " ")
            choice = self.choices[i]
            style = "bold" if choice == "you" else ("dim" if choice == "open" else "")
            text.append(left)
            text.append(f"{i + 1:>2} {choice:<6}", style=style + (" reverse" if picked else ""))
            text.append(right + " ")
        text.append("\n")
        hint = "Left/Right: seat, Space: change" if self.has_focus else "Tab here to change"
        text.append(hint, style="italic dim")
        return text

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


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
        app: MauMauApp = self.app  # type: ignore[assignment]
        await app.send(CreateTable(name[:32], settings, bot_seats, password, levels))
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SuitPicker(AsciiAware, ModalScreen[str | None]):
    """Name a suit (after a Jack) or a colour (after a wild). Esc cancels the play."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("1", "pick(0)", "1", show=False),
        Binding("2", "pick(1)", "2", show=False),
        Binding("3", "pick(2)", "3", show=False),
        Binding("4", "pick(3)", "4", show=False),
        Binding("up", "move(-1)", "up", show=False),
        Binding("down", "move(1)", "down", show=False),
        Binding("enter", "choose", "name it"),
    ]

    def __init__(self, card: str, letters: list[str], ascii_only: bool) -> None:
        super().__init__()
        self.card = card
        self.letters = letters
        self.ascii_only = ascii_only
        self.cursor = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="suit-picker"):
            yield Static("", id="suits")
            yield Static("1-4, or Up/Down and Enter. Esc cancels", classes="hint")

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        classic = self.letters[0] in "SHDC"
        card = label(self.card, self.ascii_only)
        what = "suit" if classic else "colour"
        text = Text(f"Playing {card}: name the {what}\n\n", style="bold")
        for i, letter in enumerate(self.letters):
            mark = ">" if i == self.cursor else " "
            text.append(
                f" {mark} {i + 1}  {suit_words(letter, self.ascii_only)}\n",
                style="reverse" if i == self.cursor else "",
            )
        self.query_one("#suits", Static).update(text)

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.letters)
        self._draw()

    def action_pick(self, index: int) -> None:
        if index < len(self.letters):
            self.dismiss(self.letters[index])

    def action_choose(self) -> None:
        self.dismiss(self.letters[self.cursor])

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResultScreen(AsciiAware, ModalScreen[bool]):
    """The round (or match) result: every hand revealed, points, the score chart.
    It waits for a key; closing it tells the server this player is ready."""

    BINDINGS = [
        Binding("enter", "close", "continue"),
        Binding("space", "close", "continue", show=False),
        Binding("escape", "close", "continue", show=False),
        Binding("r", "rematch", "rematch"),
    ]

    def __init__(self, text: Text, match_over: bool) -> None:
        super().__init__()
        self.text = text
        self.match_over = match_over
        self.closed_by_round = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="result"):
            yield Static(self.text)
            hint = (
                "Enter continues · r asks for a rematch"
                if self.match_over
                else "Enter: ready for the next round"
            )
            yield Static(hint, classes="hint")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.match_over
        return True

    def action_close(self) -> None:
        self.dismiss(False)

    def action_rematch(self) -> None:
        self.dismiss(True)


class ConfirmScreen(AsciiAware, ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question)
            yield Static("y yes · n no", classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


HELP = """\
[b]Keys in the lobby[/b]
  Enter  join the table          w  watch it       n  new table
  s, l   leaderboard (stats)     h  match history (Enter replays one)
  Tab    chat                    q  quit

[b]Keys at the table[/b]
  Left/Right, 1-9  pick a card        Enter  play it
  d  draw a card                      k      keep the drawn card
  t  take the penalty                 x      challenge a Wild Draw 4
  m  arm "Mau" for your next play, or say it right after
  M  the same for "Mau Mau" (Mau Mau only, keeping a Jack)
  c  catch a player who forgot        r      rematch, after a match
  s  start (the table's creator)      Tab    chat
  ?  this help                        q      leave the table

[b]Saying Mau[/b]
  Say "Mau" with your second-to-last card: arm it with m before
  playing, or press m right after. Keeping a Jack in Mau Mau? Say
  "Mau Mau" (M). Anyone may catch you until the next player acts,
  and never sooner than the call window. The server's clock decides
  who was first.

[b]This table[/b]
"""


def help_text(rules: str) -> Text:
    """The help: keys and rules in the client's own markup, then the table's settings
    in words (which hold the server's values, so are never read as markup)."""
    text = Text.from_markup(HELP)
    text.append_text(literal(rules or "  (not at a table)", lines=True))
    text.append("\n")
    return text


def rules_summary(settings: dict[str, Any]) -> str:
    """The table's settings in words, one per line."""
    classic = settings.get("variant") == "classic"
    on = {True: "yes", False: "no"}
    lines = [
        f"Game: {'Mau Mau' if classic else 'American Mau-Mau'}, "
        f"{settings.get('seats')} seats, to {settings.get('target_score')} points",
        f"Caught without Mau: draw {settings.get('mau_penalty')}; "
        f"false catch: draw {settings.get('false_catch_penalty')}",
        f"Call window at least {settings.get('mau_window_ms')} ms; "
        f"lag compensation: {on[bool(settings.get('lag_compensation'))]}",
        f"Turn time {settings.get('turn_timeout_s')} s; "
        f"reconnect grace {settings.get('reconnect_grace_s')} s",
        f"With 2 players a {'9' if classic else 'Reverse'} skips: "
        f"{on[bool(settings.get('reverse_skips_with_two'))]}",
    ]
    if classic:
        lines.append(f"Jack on Jack: {on[bool(settings.get('jack_on_jack'))]}")
    else:
        lines.append(f"Draw Two on Draw Two: {on[bool(settings.get('stack_draw_two'))]}")
        lines.append(
            f"Wild Draw Four challenge: {on[bool(settings.get('wild_draw_four_challenge'))]}"
        )
    return "\n".join("  " + line for line in lines)


class HelpScreen(AsciiAware, ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("question_mark", "close", "close", show=False),
    ]

    def __init__(self, rules: str = "") -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(help_text(self.rules))
            yield Static("Esc closes", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


# Table keys that do nothing while the table is paused (the server cannot save).
PAUSED_KEYS = frozenset(
    {"play", "draw", "take", "keep", "challenge", "mau", "maumau", "catch", "rematch", "start"}
)


class TableScreen(Screen[None]):
    """The table: opponents, pile, my hand, log and chat."""

    BINDINGS = [
        Binding("left", "cursor(-1)", "pick", key_display="←→"),
        Binding("right", "cursor(1)", "pick", show=False),
        *[Binding(str(n), f"pick({n - 1})", str(n), show=False) for n in range(1, 10)],
        Binding("enter", "play", "play"),
        Binding("d", "draw", "draw"),
        Binding("k", "keep", "keep"),
        Binding("t", "take", "take"),
        Binding("x", "challenge", "challenge"),
        Binding("m", "mau", "Mau"),
        Binding("M", "maumau", "Mau Mau", key_display="M"),
        Binding("c", "catch", "catch"),
        Binding("s", "start", "start"),
        Binding("r", "rematch", "rematch"),
        Binding("tab", "chat", "chat", priority=True),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("q", "leave", "leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.armed: str | None = None
        self.shown: tuple[int, int] = (0, 0)  # (match, round) of the last result shown
        self.seconds_left: float | None = None
        self._timed_view: object = None
        self.problem: str | None = None
        self._problem_view: object = None
        self.result: ResultScreen | None = None

    @property
    def mau_app(self) -> MauMauApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Banner()
        yield Static("", id="title", classes="title")
        yield Static("", id="opponents")
        yield Static("", id="pile")
        yield Static("", id="hand")
        with Horizontal(id="bottom"):
            yield RichLog(id="log", wrap=True, max_lines=300)
            yield RichLog(id="chat", wrap=True, max_lines=300)
        yield Input(
            placeholder="say something at the table; Enter sends, Esc leaves", id="chat-input"
        )
        yield Footer()

    drawn = False  # set once mounted: messages before that are drawn by on_mount

    def on_mount(self) -> None:
        self.drawn = True
        self.query_one("#chat-input", Input).display = False
        self.set_class(self.mau_app.ascii_only, "ascii")
        self.set_interval(1.0, self._tick)
        self.refresh_model(full=True)

    def _tick(self) -> None:
        if self.seconds_left is not None and not self.mau_app.model.paused:
            self.seconds_left = max(0.0, self.seconds_left - 1)  # (a pause stops the clock)
            self._draw_pile()

    # --- drawing -----------------------------------------------------------------

    def refresh_model(self, full: bool = False, new_lines: int = 0) -> None:
        if not self.drawn:
            return  # on_mount draws everything, the log included
        model = self.mau_app.model
        ascii_only = self.mau_app.ascii_only
        view = model.view
        if view is not self._timed_view:  # count down from when this view arrived
            self._timed_view = view
            if view is not None and view.turn_deadline_ms is not None:
                self.seconds_left = view.turn_deadline_ms / 1000
            else:
                self.seconds_left = None
        cards = model.hand()
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        if not model.can_arm() and not model.owes_call():
            self.armed = None if not model.my_turn else self.armed
        self.query_one("#title", Static).update(render.title(model, ascii_only))
        self.query_one("#opponents", Static).update(
            render.opponents(model, ascii_only, self.size.width or 80)
        )
        self._draw_pile()
        hand = self.query_one("#hand", Static)
        if view is not self._problem_view:
            self.problem = None  # a new position: the old complaint no longer applies
        hand.update(
            render.hand(
                model,
                self.cursor,
                ascii_only,
                self.armed,
                (self.size.width or 80) - 2,
                plain(self.problem, ascii_only) if self.problem else None,
            )
        )
        if view is not None and view.seat is not None:
            hand.border_title = f"your hand · {view.scores[view.seat]} pts".replace(
                "·", "-" if ascii_only else "·"
            )
        log = self.query_one("#log", RichLog)
        if full:
            log.clear()
            for line in model.log:
                log.write(literal(plain(line, ascii_only)))
            chat = self.query_one("#chat", RichLog)
            chat.clear()
            for line in model.chat:
                chat.write(literal(plain(line, ascii_only)))
        self.refresh_bindings()
        self._maybe_show_result()

    def _draw_pile(self) -> None:
        self.query_one("#pile", Static).update(
            render.pile(self.mau_app.model, self.mau_app.ascii_only, self.seconds_left)
        )

    def show_problem(self, text: str) -> None:
        """Say, under the hand, why the last key did nothing (until the next change)."""
        self.problem = text
        self._problem_view = self.mau_app.model.view
        self.refresh_model()

    def add_log(self, line: str) -> None:
        if not self.drawn:
            return  # the model keeps the line; on_mount writes the whole log
        self.query_one("#log", RichLog).write(literal(plain(line, self.mau_app.ascii_only)))

    def add_chat(self, line: str) -> None:
        if not self.drawn:
            return
        self.query_one("#chat", RichLog).write(literal(plain(line, self.mau_app.ascii_only)))

    def _maybe_show_result(self) -> None:
        model = self.mau_app.model
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
        text = render.round_result(model, self.mau_app.ascii_only)
        match_over = view.phase == "match_over"
        if match_over:
            names = model.names()
            winner = names[view.winner] if view.winner is not None else "?"
            text.append(f"\n{winner} wins the match!\n", style="bold")

        async def closed(rematch: bool | None) -> None:
            if self.result is not None and self.result.closed_by_round:
                return
            if rematch and seated:
                await self.mau_app.send(Rematch())
            elif not match_over and seated:
                await self.mau_app.send(Ready(True))

        self.result = ResultScreen(text, match_over and seated)
        self.app.push_screen(self.result, closed)

    # --- which keys mean something now ----------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.mau_app.model
        view = model.view
        if model.paused and action in PAUSED_KEYS:
            return False  # the server refuses them until it can save again
        if action in ("cursor", "pick"):
            return bool(model.hand())
        if action == "play":
            return model.my_turn and bool(model.legal("play"))
        if action == "draw":
            return model.my_turn and bool(model.legal("draw")) and not (view and view.penalty)
        if action == "take":
            return model.my_turn and bool(model.legal("draw")) and bool(view and view.penalty)
        if action == "keep":
            return bool(model.legal("pass"))
        if action == "challenge":
            return bool(model.legal("challenge"))
        if action == "mau":
            return model.owes_call() or model.can_arm()
        if action == "maumau":
            return model.holds_jack() and (
                model.owes_call() or model.can_arm() or model.can_upgrade()
            )
        if action == "catch":
            return bool(model.catch_targets())
        if action == "rematch":
            table = model.table
            return table is not None and table.state == "finished" and table.you is not None
        if action == "start":
            table = model.table
            return (
                table is not None
                and table.state in ("waiting",)
                and table.creator == model.name
                and table.you is not None
            )
        return True

    # --- actions -------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        cards = self.mau_app.model.hand()
        if cards:
            self.cursor = (self.cursor + step) % len(cards)
            self.refresh_model()

    def action_pick(self, index: int) -> None:
        if index < len(self.mau_app.model.hand()):
            self.cursor = index
            self.refresh_model()

    async def action_play(self) -> None:
        model = self.mau_app.model
        cards = model.hand()
        if not cards:
            return
        card = cards[self.cursor]
        if card not in model.playable():
            self.mau_app.show_error(self._why_not(card))
            return
        call = self.armed if len(cards) == 2 else None
        if model.needs_name(card):
            letters = model.names_for(card)

            async def named(letter: str | None) -> None:
                if letter is not None:
                    await self.mau_app.send(PlayCard(card, letter, call))
                    self.armed = None

            self.app.push_screen(SuitPicker(card, letters, self.mau_app.ascii_only), named)
            return
        await self.mau_app.send(PlayCard(card, None, call))
        self.armed = None

    def _why_not(self, card: str) -> str:
        model = self.mau_app.model
        view = model.view
        if view is None or not model.my_turn:
            return "It is not your turn."
        if view.drawn:
            return "After drawing you may play only the drawn card, or keep it (k)."
        if view.penalty and view.penalty_kind == "seven":
            return f"Only a 7 answers the 7: play a 7 or take {view.penalty} (t)."
        if view.penalty:
            return f"Answer the penalty or take {view.penalty} (t)."
        ascii_only = self.mau_app.ascii_only
        return f"{label(card, ascii_only)} does not fit on {label(view.top, ascii_only)}."

    async def action_draw(self) -> None:
        await self.mau_app.send(DrawCard())

    async def action_take(self) -> None:
        await self.mau_app.send(DrawCard())

    async def action_keep(self) -> None:
        await self.mau_app.send(PassTurn())

    async def action_challenge(self) -> None:
        await self.mau_app.send(ChallengeCard())

    async def action_mau(self) -> None:
        await self._call("mau")

    async def action_maumau(self) -> None:
        await self._call("maumau")

    async def _call(self, call: str) -> None:
        model = self.mau_app.model
        if model.owes_call() or (call == "maumau" and model.can_upgrade()):
            await self.mau_app.send(SayMau(call))
        elif model.can_arm():
            self.armed = None if self.armed == call else call
            self.refresh_model()

    async def action_catch(self) -> None:
        targets = self.mau_app.model.catch_targets()
        if targets:
            await self.mau_app.send(CatchPlayer(targets[0]))

    async def action_rematch(self) -> None:
        await self.mau_app.send(Rematch())

    async def action_start(self) -> None:
        await self.mau_app.send(StartMatch())

    def action_chat(self) -> None:
        box = self.query_one("#chat-input", Input)
        box.display = not box.display
        if box.display:
            box.focus()
            self.call_after_refresh(self._show_latest)
        else:
            self.set_focus(None)

    def _show_latest(self) -> None:
        for log in self.query(RichLog):
            log.scroll_end(animate=False)

    @on(Input.Submitted, "#chat-input")
    async def send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            await self.mau_app.send(Chat("table", text[:200]))

    def key_escape(self) -> None:
        box = self.query_one("#chat-input", Input)
        if box.display:
            box.display = False
            self.set_focus(None)

    def action_help(self) -> None:
        model = self.mau_app.model
        rules = ""
        if model.table is not None:
            rules = rules_summary(model.table.settings)
        self.app.push_screen(HelpScreen(rules))

    def action_leave(self) -> None:
        async def answer(yes: bool | None) -> None:
            if yes:
                await self.mau_app.send(LeaveTable())
                self.mau_app.model.left_table()
                self.mau_app.show_lobby()

        seated = self.mau_app.model.seat is not None
        question = (
            "Leave this table? A bot takes your seat."
            if seated and self.mau_app.model.view is not None
            else "Leave this table?"
        )
        self.app.push_screen(ConfirmScreen(question), answer)

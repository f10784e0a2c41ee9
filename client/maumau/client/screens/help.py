"""The help dialog: at a table it opens on the game's rules in short and where the
table departs from them (:mod:`.help_rules`), then every key, how to say Mau and how
the server decides who said it first, being away and coming back, and how
tournaments go; in the lobby, the keys first, then both games' rules.

The keys and rules are the client's own markup; the settings hold the server's
values, so they are appended as literal text (:func:`help_text`), never read as
markup.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from maumau.protocol.as_written import MARK
from maumau.protocol.as_written import departures as departing

from .. import config, i18n
from ..host import host_of
from ..i18n import LANGUAGES, N_, _, ngettext, pgettext
from ..literal import literal
from ..widgets.action_bar import RoomAware, TapButton, TapOutsideCloses
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter
from .help_rules import DEFAULTS, departures, rules, rules_title


def keys_markup() -> tuple[str, str]:
    """The keys of the lobby and of the table, in markup: one key a line, so that no
    key is wrapped away from its meaning at the narrowest size (each section is one
    message, so a translation may lay out its column)."""
    lobby = _(
        """\
[b]Keys in the lobby[/b]
  Enter  join the table (or take your seat back)
  w      watch it
  n      new table
  s, l   leaderboard (stats)
  h      match history (Enter replays one)
  t, T   a tournament / a new tournament
  Tab    chat
  q      quit
"""
    )
    table = _(
        """\
[b]Keys at the table[/b]
  Left/Right, 1-9  pick a card
  Enter  play it (in the waiting room: ready)
  d      draw a card
  k      keep the drawn card
  t      take the penalty
  x      challenge a Wild Draw 4
  m      "Mau" with your next play, or right after it
  M      the same for "Mau Mau" (keeping a Jack)
  c      catch a player who forgot
  r      ask for a rematch, after a match
  s      start (the table's creator)
  Tab    chat
  ?      this help
  q      leave the table (your seat is kept for you)
"""
    )
    return lobby, table


def prose_markup() -> dict[str, str]:
    """The help's sections of prose, in markup: a heading line, then the text (whose
    line breaks the help does not keep: it wraps each section to the width)."""
    mau = _(
        """\
[b]Saying Mau[/b]
  Say "Mau" with your second-to-last card: arm it with m before
  playing, or press m right after. Keeping a Jack in Mau Mau? Say
  "Mau Mau" (M). Anyone may catch you until the next player acts,
  and never sooner than the call window. The server's clock decides
  who was first.
"""
    )
    # NOTE: continues "Saying Mau" (same indentation); "the table's cap" is its setting
    # lag_compensation_max_ms, "the decision line" the log's line on who was first.
    lag = _(
        """\
  With lag compensation on, a call or catch counts earlier by the
  delay measured on its own exchange (your client reports how long
  you took to react), checked against your connection's pings and
  never more than the table's cap. The decision line in the log
  says how much each call or catch counted earlier.
"""
    )
    away = _(
        """\
[b]Away and back[/b]
  Three turns timed out in a row, and a bot plays for you: any key
  takes your seat back. Leaving a table keeps your seat: Enter on it
  in the lobby takes it back. A rematch starts when every player
  asks for it (r), or 30 s after the first did.
"""
    )
    tournaments = _(
        """\
[b]Tournaments[/b]
  In the lobby t opens the tournament under the cursor (up from the
  first table reaches the list), T makes a new one. Register with r;
  its director starts it with g. Each series seats everyone at once:
  your table opens by itself, and after its match t goes back to the
  tournament. Placings earn points; the standings count the points,
  then the score. From the tournament's screen Enter watches a table.
"""
    ) + _(
        """\
  There [ and ] show the tables of the series before and after, PgDn
  at the end of the standings the next 50 players; its director calls
  it off with x. One nobody of which is connected before its start is
  called off by the server.
"""
    )
    # NOTE: shown only to the server's host (a client with the server's host key).
    host = _(
        """\
[b]Hosting[/b]
  You are this server's host. In the lobby H opens the host screen:
  who is connected, the bans, the server's password. There k sends
  the highlighted player away, m mutes them in chat, b bans their
  name and a their address, u lifts the highlighted ban, p sets the
  server's password, n announces something to everyone. In the lobby
  X closes the table under the cursor (or calls off the tournament).
"""
    )
    return {"mau": mau, "lag": lag, "away": away, "tournaments": tournaments, "host": host}


HEAD_WIDTH = 10  # the column of the rules' heads (a longer head has a line of its own)
_CONSOLE = Console(width=200, file=io.StringIO(), color_system=None)


def paragraph(words: str | Text, width: int, indent: int, head: str = "") -> Text:
    """``words`` (the client's own markup, or a ``Text`` shown as written: the
    server's values) as one paragraph wrapped to ``width``, every line ``indent``
    cells in; ``head`` (markup) in front of the first line when it fits in the indent,
    else on a line of its own."""
    if isinstance(words, Text):
        body = words
    else:
        body = Text.from_markup(" ".join(words.split()), emoji=False)
    lines = body.wrap(_CONSOLE, max(10, width - indent))
    text = Text()
    shown = Text.from_markup(head, emoji=False) if head else None
    if shown is not None and shown.cell_len > indent - 4:
        text.append("  ")
        text.append_text(shown)
        text.append("\n")
        shown = None
    for i, line in enumerate(lines):
        if i == 0 and shown is not None:
            text.append("  ")
            text.append_text(shown)
            text.append(" " * (indent - 2 - shown.cell_len))
        else:
            text.append(" " * indent)
        text.append_text(line)
        text.append("\n")
    return text


def bulleted(words: str | Text, width: int, bullet: str) -> Text:
    """``words`` as :func:`paragraph` wraps them four cells in, with ``bullet`` (one
    cell: ``-``, or the mark of a departure; "" for none) on the first line's third."""
    text = paragraph(words, width, 4)
    return Text(f"  {bullet or ' '} ") + text[4:] if text else text


def section(markup: str, width: int) -> Text:
    """A section of prose: its heading line (if it has one), then the rest as one
    paragraph wrapped to ``width``, two cells in."""
    first, _nl, rest = markup.partition("\n")
    text = Text()
    if first.startswith("[b]"):
        text.append_text(Text.from_markup(first))
        text.append("\n")
    else:
        rest = markup
    if rest.strip():
        text.append_text(paragraph(rest, width, 2))
    return text


def rules_text(variant: str, settings: dict[str, Any] | None, ascii_only: bool, width: int) -> Text:
    """The game's rules in short, wrapped to ``width``."""
    text = Text.from_markup(rules_title(variant))
    text.append("\n")
    found = rules(variant, settings, ascii_only)
    heads = [Text.from_markup(head).cell_len for head, _body in found if head]
    indent = 2 + min(HEAD_WIDTH, max(heads, default=0)) + 2
    for head, body in found:
        if head:
            text.append_text(paragraph(body, width, indent, f"[b]{head}[/b]"))
        else:
            text.append_text(paragraph(body, width, 2))
    return text


def help_text(
    rules_lines: str,
    settings: dict[str, Any] | None = None,
    ascii_only: bool = False,
    width: int = 70,
    host: bool = False,
) -> Text:
    """The whole help in the player's language, wrapped to ``width``: at a table, its
    game's rules first (what a newcomer needs), the table's own settings (which hold
    the server's values, so are never read as markup) and where they depart from the
    rules as written, then the keys; in the lobby, its keys, then both games' rules.
    The server's ``host`` reads about the host's keys too."""
    lobby, table = keys_markup()
    prose = prose_markup()
    # NOTE: the language line of the help: "L" is the key, {language} the current one.
    language = _("[b]Language[/b]  L  {language} (press L for the next)").format(
        language=LANGUAGES[i18n.language()]
    )
    text = Text()
    if settings:
        variant = str(settings.get("variant", "classic"))
        text.append_text(rules_text(variant, settings, ascii_only, width))
    else:
        text.append_text(Text.from_markup(lobby))
        for variant in ("classic", "american"):
            text.append("\n")
            text.append_text(rules_text(variant, None, ascii_only, width))
    text.append("\n")
    text.append_text(Text.from_markup(_("[b]This table[/b]")))
    text.append("\n")
    lines = (rules_lines or _("  (not at a table)")).splitlines()
    marked = any(line.startswith(MARK) for line in lines)
    for line in lines:
        # The server's values, shown as written (never markup), wrapped as the rest;
        # a line marked as departing from the rules as written keeps its mark in front.
        if marked:
            bullet = MARK if line.startswith(MARK) else ""
            text.append_text(bulleted(literal(line[2:].strip()), width, bullet))
        else:
            text.append_text(paragraph(literal(line.strip()), width, 2))
    if marked:
        legend = _("{mark} departs from the rules as written").format(mark=MARK)
        text.append_text(paragraph(legend, width, 2))
    if settings:
        changed = departures(settings)
        if changed:
            text.append_text(Text.from_markup(_("  [b]Departing from the rules as written:[/b]")))
            text.append("\n")
            for line in changed:
                text.append_text(bulleted(line, width, "-"))
        else:
            text.append("  " + _("The rules as written, no house rule changed.") + "\n")
    text.append("\n")
    text.append_text(Text.from_markup(table))
    text.append("\n")
    text.append_text(section(prose["mau"], width))
    text.append_text(section(prose["lag"], width))
    text.append("\n")
    text.append_text(section(prose["away"], width))
    text.append("\n")
    text.append_text(section(prose["tournaments"], width))
    text.append("\n")
    if host:
        text.append_text(section(prose["host"], width))
        text.append("\n")
    if settings:
        text.append_text(Text.from_markup(lobby))
        text.append("\n")
    text.append_text(Text.from_markup(language))
    text.append("\n")
    return text


def rules_summary(settings: dict[str, Any], marked: bool = False) -> str:
    """The table's settings in words, one per line (two cells in). ``marked``: a line
    with a setting that departs from the rules as written has the mark ``*`` in the
    first of those cells."""
    classic = settings.get("variant") == "classic"
    # A setting the server did not send counts as the game's default.
    settings = {**DEFAULTS["classic" if classic else "american"], **settings}
    away = set(departing(settings))

    def on(key: str) -> str:
        return pgettext("setting", "yes") if settings.get(key) else pgettext("setting", "no")

    if settings.get("mau_window_minimum") is False:
        window = _("Call window until the next player acts; lag compensation: {lag}").format(
            lag=on("lag_compensation")
        )
    else:
        window = _("Call window at least {ms} ms; lag compensation: {lag}").format(
            ms=settings.get("mau_window_ms"), lag=on("lag_compensation")
        )

    game = _("Mau Mau") if classic else _("American Mau-Mau")
    deals = settings.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and deals > 0:
        # A match of so many deals (a tournament's series): its target means nothing.
        length = ngettext(
            "Game: {game}, {seats} seats, {n} deal",
            "Game: {game}, {seats} seats, {n} deals",
            deals,
        ).format(game=game, seats=settings.get("seats"), n=deals)
    else:
        length = _("Game: {game}, {seats} seats, to {target} points").format(
            game=game, seats=settings.get("seats"), target=settings.get("target_score")
        )
    lines = [
        length,
        _("Caught without Mau: draw {mau}; false catch: draw {false}").format(
            mau=settings.get("mau_penalty"), false=settings.get("false_catch_penalty")
        ),
        window,
        _("Turn time {turn} s; reconnect grace {grace} s").format(
            turn=settings.get("turn_timeout_s"), grace=settings.get("reconnect_grace_s")
        ),
        (
            _("With 2 players a 9 skips: {on}")
            if classic
            else _("With 2 players a Reverse skips: {on}")
        ).format(on=on("reverse_skips_with_two")),
    ]
    # The settings each line says, in the order of the lines.
    says = [
        {"target_score", "deals"},
        {"mau_penalty", "false_catch_penalty"},
        {"mau_window_minimum", "lag_compensation"},
        set(),
        {"reverse_skips_with_two"},
    ]
    if classic:
        lines.append(_("Jack on Jack: {on}").format(on=on("jack_on_jack")))
        says.append({"jack_on_jack"})
    else:
        lines.append(_("Draw Two on Draw Two: {on}").format(on=on("stack_draw_two")))
        lines.append(_("Wild Draw Four challenge: {on}").format(on=on("wild_draw_four_challenge")))
        says += [{"stack_draw_two"}, {"wild_draw_four_challenge"}]
    return "\n".join(
        (f"{MARK} " if marked and names & away else "  ") + line
        for line, names in zip(lines, says, strict=True)
    )


DIALOG_WIDTH = 76  # as .dialog in the stylesheet


class LanguageChanged(Message):
    """The player chose another language on the help screen (already spoken and
    remembered): the app redraws its screens."""


class HelpScreen(RoomAware, TapOutsideCloses, AsciiAware, ModalScreen[None]):
    """The help; Esc (or ?) closes it, as its footer says, and so does a tap outside
    it or, on a tall screen, its close button."""

    BINDINGS = [
        Binding("escape", "close", N_("close"), key_display="Esc"),
        Binding("question_mark", "close", N_("close"), show=False),
        Binding("L", "language", N_("language")),
    ]

    def __init__(self, rules: str = "", settings: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.settings = settings  # when given, the rules are written again in a new language

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(self._help(), id="help-text")
            yield Static(_("Esc closes"), classes="hint")
            with Horizontal(classes="dialog-buttons close-buttons"):
                yield TapButton(_("close"), id="help-close", variant="primary", compact=True)
        yield KeyFooter()

    def _help(self) -> Text:
        rules_lines = rules_summary(self.settings, marked=True) if self.settings else self.rules
        # The width the text has: once laid out, its own (the dialog's less its
        # border, padding and scrollbar); before, as the stylesheet makes it.
        shown = self.query("#help-text")
        width = shown.first().content_region.width - 1 if shown else 0  # (a gap)
        if width < 20:
            width = min(DIALOG_WIDTH, self.app.size.width or 80) - 10
        shown_to = host_of(self.app)
        return help_text(
            rules_lines, self.settings, shown_to.ascii_only, width, shown_to.model.is_host
        )

    def _rewrap(self) -> None:
        self.query_one("#help-text", Static).update(self._help())

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._rewrap)  # to the width the layout gave it

    def on_resize(self) -> None:
        self.call_after_refresh(self._rewrap)

    async def action_language(self) -> None:
        """Speak the next offered language at once, and remember it."""
        codes = list(LANGUAGES)
        following = codes[(codes.index(i18n.language()) + 1) % len(codes)]
        try:
            i18n.set_language(following)
        except i18n.MissingCatalog as error:
            self.notify(str(error), severity="warning")
            return
        config.save({"language": following})
        await self.recompose()
        self.query_one("#help").focus()  # keys scroll it again, as before
        self.post_message(LanguageChanged())

    @on(Button.Pressed, "#help-close")
    def close_pressed(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)

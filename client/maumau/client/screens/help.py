"""The help dialog: every key of the lobby and the table, how to say Mau and how the
server decides who said it first, how tournaments go, and the table's own settings in
words.

The keys and rules are the client's own markup; the settings hold the server's
values, so they are appended as literal text (:func:`help_text`), never read as
markup.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from .. import config, i18n
from ..i18n import LANGUAGES, N_, _, ngettext, pgettext
from ..literal import literal
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter


def help_markup() -> str:
    """The keys and how to say Mau, in the client's own markup and the player's
    language (each section one message, so a translation may lay out its columns)."""
    lobby = _(
        """\
[b]Keys in the lobby[/b]
  Enter  join the table          w  watch it       n  new table
  s, l   leaderboard (stats)     h  match history (Enter replays one)
  Tab    chat                    q  quit
"""
    )
    table = _(
        """\
[b]Keys at the table[/b]
  Left/Right, 1-9  pick a card        Enter  play it
  d  draw a card                      k      keep the drawn card
  t  take the penalty                 x      challenge a Wild Draw 4
  m  arm "Mau" for your next play, or say it right after
  M  the same for "Mau Mau" (Mau Mau only, keeping a Jack)
  c  catch a player who forgot        r      rematch, after a match
  s  start (the table's creator)      Tab    chat
  ?  this help                        q      leave the table
"""
    )
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
    )
    # NOTE: the language line of the help: "L" is the key, {language} the current one.
    language = _("[b]Language[/b]  L  {language} (press L for the next)").format(
        language=LANGUAGES[i18n.language()]
    )
    heading = _("[b]This table[/b]")
    return f"{lobby}\n{table}\n{mau}{lag}\n{tournaments}\n{language}\n\n{heading}\n"


def help_text(rules: str) -> Text:
    """The help: keys and rules in the client's own markup, then the table's settings
    in words (which hold the server's values, so are never read as markup)."""
    text = Text.from_markup(help_markup())
    text.append_text(literal(rules or _("  (not at a table)"), lines=True))
    text.append("\n")
    return text


def rules_summary(settings: dict[str, Any]) -> str:
    """The table's settings in words, one per line."""
    classic = settings.get("variant") == "classic"

    def on(key: str) -> str:
        return pgettext("setting", "yes") if settings.get(key) else pgettext("setting", "no")

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
        _("Call window at least {ms} ms; lag compensation: {lag}").format(
            ms=settings.get("mau_window_ms"), lag=on("lag_compensation")
        ),
        _("Turn time {turn} s; reconnect grace {grace} s").format(
            turn=settings.get("turn_timeout_s"), grace=settings.get("reconnect_grace_s")
        ),
        (
            _("With 2 players a 9 skips: {on}")
            if classic
            else _("With 2 players a Reverse skips: {on}")
        ).format(on=on("reverse_skips_with_two")),
    ]
    if classic:
        lines.append(_("Jack on Jack: {on}").format(on=on("jack_on_jack")))
    else:
        lines.append(_("Draw Two on Draw Two: {on}").format(on=on("stack_draw_two")))
        lines.append(_("Wild Draw Four challenge: {on}").format(on=on("wild_draw_four_challenge")))
    return "\n".join("  " + line for line in lines)


class LanguageChanged(Message):
    """The player chose another language on the help screen (already spoken and
    remembered): the app redraws its screens."""


class HelpScreen(AsciiAware, ModalScreen[None]):
    """The help; Esc (or ?) closes it, as its footer says."""

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
        rules = rules_summary(self.settings) if self.settings else self.rules
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(help_text(rules))
            yield Static(_("Esc closes"), classes="hint")
        yield KeyFooter()

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

    def action_close(self) -> None:
        self.dismiss(None)

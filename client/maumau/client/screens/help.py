"""The help dialog: every key of the lobby and the table, how to say Mau, and the
table's own settings in words.

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
from textual.screen import ModalScreen
from textual.widgets import Static

from ..literal import literal
from ..widgets.ascii_aware import AsciiAware
from ..widgets.key_footer import KeyFooter

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
    """The help; Esc (or ?) closes it, as its footer says."""

    BINDINGS = [
        Binding("escape", "close", "close", key_display="Esc"),
        Binding("question_mark", "close", "close", show=False),
    ]

    def __init__(self, rules: str = "") -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(help_text(self.rules))
            yield Static("Esc closes", classes="hint")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)

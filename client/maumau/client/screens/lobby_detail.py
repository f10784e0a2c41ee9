"""The line under the lobby's tables: the game, length, clocks and house rules of the
table under the cursor.

Pure functions of a table's summary from the ``lobby`` message. The summary's
``rules`` hold only the settings that differ from the game's defaults
(:data:`~.help_rules.DEFAULTS`); a house rule the game has but the table switched
off is said as "no ..." (the rules' words are the new-table dialog's,
:data:`~.new_table.HOUSE_RULES`). The line is cut to the screen's width, and shown
through :func:`~maumau.client.literal.literal` (the server's numbers are in it).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..i18n import _, ngettext
from ..literal import literal
from ..lobby_words import game_word
from .help_rules import DEFAULTS
from .new_table import HOUSE_RULES


def table_detail(summary: dict[str, Any]) -> str:
    """The table under the cursor in one line: its game, length, clocks and house
    rules (the summary's ``rules`` hold the settings that differ from the game's
    defaults, :data:`~.help_rules.DEFAULTS`)."""
    variant = "american" if summary.get("variant") == "american" else "classic"
    rules = summary.get("rules") or {}
    settings = {**DEFAULTS[variant], **rules}
    parts = [game_word(variant)]
    deals = settings.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and deals > 0:
        parts.append(ngettext("{n} deal", "{n} deals", deals).format(n=deals))
    else:
        parts.append(_("to {target}").format(target=settings.get("target_score")))
    parts.append(_("turn {s} s").format(s=settings.get("turn_timeout_s")))
    for key, label, default in HOUSE_RULES[variant]:
        on = bool(settings.get(key, default))
        if on:
            parts.append(_(label))
        elif default:  # a rule the game has, switched off here
            parts.append(_("no {rule}").format(rule=_(label)))
    if settings.get("mau_penalty") != DEFAULTS[variant]["mau_penalty"]:
        parts.append(_("caught: draw {n}").format(n=settings.get("mau_penalty")))
    if settings.get("false_catch_penalty"):
        parts.append(_("false catch: draw {n}").format(n=settings.get("false_catch_penalty")))
    if settings.get("mau_window_ms") != DEFAULTS[variant]["mau_window_ms"]:
        ms = settings.get("mau_window_ms")
        if isinstance(ms, int) and not isinstance(ms, bool):
            parts.append(_("call window {s} s").format(s=f"{ms / 1000:g}"))
    if settings.get("reconnect_grace_s") != DEFAULTS[variant]["reconnect_grace_s"]:
        parts.append(_("reconnect grace {s} s").format(s=settings.get("reconnect_grace_s")))
    if settings.get("lag_compensation"):
        parts.append(_("lag compensation"))
    return " · ".join(parts)


def detail_line(summary: dict[str, Any] | None, width: int, ascii_only: bool) -> Text:
    """The line under the tables for a screen ``width`` cells wide (empty while no
    table is under the cursor): indented by one, cut with a mark when too long."""
    if summary is None:
        return Text("")
    text = table_detail(summary)
    if ascii_only:
        text = text.replace("·", "-")
    room = max(1, width - 2)
    cut = "~" if ascii_only else "…"
    return literal(" " + (text if len(text) <= room else text[: room - 1] + cut))

"""The rules in short, for the help: each game's rules, with the numbers of the table
at hand, and where the table departs from the rules as written.

A newcomer opens the help to learn the game, so it opens on these (see
:mod:`.help`): how cards match, what every special card does, saying Mau (and Mau
Mau), catching, and how a round is scored and a match won. The numbers (the target,
the cards a catch costs, the call window) and the rules that change what a card does
(a Jack on a Jack, the call window's least time) are the table's own settings. The
settings that depart from the rules as written, the seeds' literal reading
(:mod:`maumau.protocol.as_written`: a default table departs too, with its Jack on a
Jack and its call window's least time), are said in words as departures.

Every word is the client's own markup, in the player's language; the settings are
numbers and booleans checked here, so nothing the server sent is read as markup.
:data:`DEFAULTS` are the defaults of ``docs/protocol.md`` ("Table settings"); a test
holds them to the server's.
"""

from __future__ import annotations

from typing import Any

from maumau.protocol.as_written import departures as departing

from ..i18n import _, ngettext, pgettext

DEFAULTS: dict[str, dict[str, Any]] = {
    "classic": {
        "seats": 4,
        "target_score": 150,
        "deals": 0,
        "mau_penalty": 2,
        "false_catch_penalty": 0,
        "mau_window_ms": 1500,
        "mau_window_minimum": True,
        "lag_compensation": False,
        "lag_compensation_max_ms": 200,
        "turn_timeout_s": 45,
        "reconnect_grace_s": 60,
        "reverse_skips_with_two": False,
        "jack_on_jack": True,
    },
    "american": {
        "seats": 4,
        "target_score": 500,
        "deals": 0,
        "mau_penalty": 2,
        "false_catch_penalty": 0,
        "mau_window_ms": 1500,
        "mau_window_minimum": True,
        "lag_compensation": False,
        "lag_compensation_max_ms": 200,
        "turn_timeout_s": 45,
        "reconnect_grace_s": 60,
        "reverse_skips_with_two": True,
        "stack_draw_two": False,
        "wild_draw_four_challenge": False,
    },
}


def _number(settings: dict[str, Any], key: str, variant: str) -> int:
    value = settings.get(key, DEFAULTS[variant].get(key, 0))
    if isinstance(value, bool) or not isinstance(value, int | float):
        value = DEFAULTS[variant].get(key, 0)
    return int(value)


def _flag(settings: dict[str, Any], key: str, variant: str) -> bool:
    value = settings.get(key, DEFAULTS[variant].get(key, False))
    return value if isinstance(value, bool) else bool(DEFAULTS[variant].get(key, False))


def _length(settings: dict[str, Any], variant: str) -> str:
    """How a match is won: the target, or the number of deals (a tournament's)."""
    deals = _number(settings, "deals", variant)
    if deals > 0:
        return ngettext(
            "The match lasts {n} deal; the highest score wins it.",
            "The match lasts {n} deals; the highest score wins it.",
            deals,
        ).format(n=deals)
    return _("The first to {target} points at the end of a round wins the match.").format(
        target=_number(settings, "target_score", variant)
    )


Rule = tuple[str, str]
"""One rule of the short rules: a head in markup (a card: ``7``, ``Skip``; "" for a
paragraph) and its text in markup, one paragraph (the help wraps it to the width)."""


def rules_title(variant: str) -> str:
    """The heading of the game's short rules, in markup."""
    if variant == "american":
        return _("[b]American Mau-Mau: the rules in short[/b] (108 cards, 7 each)")
    return _("[b]Mau Mau: the rules in short[/b] (32 cards, 5 each)")


def rules(
    variant: str, settings: dict[str, Any] | None = None, ascii_only: bool = False
) -> list[Rule]:
    """The game's rules in short, a paragraph each, with ``settings``' numbers (the
    defaults without a table)."""
    settings = settings or {}
    variant = "american" if variant == "american" else "classic"
    seconds = _number(settings, "mau_window_ms", variant) / 1000
    values = {
        "mau": _number(settings, "mau_penalty", variant),
        "window": f"{seconds:g}",
        "fit": "+" if ascii_only else "✓",  # as under the hand (see render.hand)
    }
    minimum = _flag(settings, "mau_window_minimum", variant)
    found: list[Rule]
    if variant == "classic":
        jack = pgettext("card rank (Jack)", "J")
        found = [
            (
                "",
                _(
                    "Play one card that matches the top card in suit or rank, or draw one: "
                    "you may play it at once if it fits, else keep it (k). Cards that fit "
                    "are lit and marked {fit} under your hand."
                ),
            ),
            (
                "7",
                _(
                    "the next player draws 2 and misses the turn, unless they answer with a "
                    "7 of their own: then the one after draws 4, and so on."
                ),
            ),
            ("8", _("the next player misses the turn.")),
            ("9", _("the direction of play turns.")),
            (
                jack,
                _(
                    "a Jack goes on any card; you wish for a suit, and the next card must be "
                    "of that suit (or another Jack)."
                )
                if _flag(settings, "jack_on_jack", variant)
                else _(
                    "a Jack goes on any card but a Jack; you wish for a suit, and the next "
                    "card must be of that suit."
                ),
            ),
            (
                "",
                _(
                    "Say [b]Mau[/b] with your second-to-last card, [b]Mau Mau[/b] if the card "
                    "you keep is a Jack. Until you do, anyone may catch you (c) until the next "
                    "player acts, and for at least {window} s: you draw {mau}."
                )
                if minimum
                else _(
                    "Say [b]Mau[/b] with your second-to-last card, [b]Mau Mau[/b] if the card "
                    "you keep is a Jack. Until you do, anyone may catch you (c) until the next "
                    "player acts: you draw {mau}."
                ),
            ),
            (
                "",
                _(
                    "Your last card played, the round is yours: you score what the others "
                    "hold, 7 to 10 their number, Q K A 10, a Jack 20."
                ),
            ),
        ]
    else:
        found = [
            (
                "",
                _(
                    "Play one card that matches the top card in colour, number or symbol, or "
                    "a Wild at any time; or draw one: you may play it at once if it fits, "
                    "else keep it (k). Cards that fit are lit and marked {fit} under your hand."
                ),
            ),
            (_("Skip"), _("the next player misses the turn.")),
            (_("Reverse"), _("the direction of play turns.")),
            (_("Draw Two"), _("the next player draws 2 and misses the turn.")),
            (_("Wild"), _("goes on any card; you name the colour to follow.")),
            (
                _("Wild Draw Four"),
                _(
                    "goes on any card too; you name the colour, and the next player draws 4 "
                    "and misses the turn."
                ),
            ),
            (
                "",
                _(
                    "Say [b]Mau[/b] with your second-to-last card. Until you do, anyone may "
                    "catch you (c) until the next player acts, and for at least {window} s: "
                    "you draw {mau}."
                )
                if minimum
                else _(
                    "Say [b]Mau[/b] with your second-to-last card. Until you do, anyone may "
                    "catch you (c) until the next player acts: you draw {mau}."
                ),
            ),
            (
                "",
                _(
                    "Your last card played, the round is yours: you score what the others "
                    "hold, numbers their value, Skip, Reverse and Draw Two 20, the Wilds 50."
                ),
            ),
        ]
    found.append(("", _length(settings, variant)))
    return [(head, text.format(**values)) for head, text in found]


def departures(settings: dict[str, Any]) -> list[str]:
    """Where the table's settings depart from the rules as written (the seeds' literal
    reading, :data:`maumau.protocol.as_written.AS_WRITTEN`), one sentence each; none
    for a table that plays them as written. A setting the server did not send counts
    as the game's default."""
    variant = "american" if settings.get("variant") == "american" else "classic"
    settings = {**DEFAULTS[variant], **settings}
    lines: list[str] = []
    for name in departing(settings):
        if name == "jack_on_jack":
            lines.append(_("A Jack may go on a Jack."))
        elif name == "reverse_skips_with_two" and variant == "classic":
            lines.append(_("With two players a 9 skips the other player (as an 8)."))
        elif name == "reverse_skips_with_two":
            lines.append(_("With two players a Reverse skips the other player (as a Skip)."))
        elif name == "stack_draw_two":
            lines.append(
                _("A Draw Two may answer a Draw Two: the next player then draws 4, and so on.")
            )
        elif name == "wild_draw_four_challenge":
            lines.append(
                _(
                    "A Wild Draw Four may be challenged (x): if its player held the colour, "
                    "they draw 4 instead; if not, the challenger draws 6."
                )
            )
        elif name == "target_score":
            lines.append(
                _("The match is played to {target} points.").format(
                    target=_number(settings, "target_score", variant)
                )
            )
        elif name == "deals":
            deals = _number(settings, "deals", variant)
            lines.append(
                ngettext(
                    "The match ends after {n} deal.", "The match ends after {n} deals.", deals
                ).format(n=deals)
            )
        elif name == "mau_penalty":
            n = _number(settings, "mau_penalty", variant)
            lines.append(
                ngettext(
                    "A player caught without Mau draws {n} card.",
                    "A player caught without Mau draws {n} cards.",
                    n,
                ).format(n=n)
            )
        elif name == "false_catch_penalty":
            n = _number(settings, "false_catch_penalty", variant)
            lines.append(
                ngettext(
                    "A catch of somebody who cannot be caught costs the catcher {n} card.",
                    "A catch of somebody who cannot be caught costs the catcher {n} cards.",
                    n,
                ).format(n=n)
            )
        elif name == "mau_window_minimum":
            seconds = _number(settings, "mau_window_ms", variant) / 1000
            lines.append(
                _(
                    "The call window stays open at least {s} s, even when the next player "
                    "acts sooner."
                ).format(s=f"{seconds:g}")
            )
        elif name == "lag_compensation":
            lines.append(_("Lag compensation is on: see Saying Mau below."))
    return lines

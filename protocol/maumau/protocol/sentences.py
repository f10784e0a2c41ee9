"""Sentences from the protocol's facts: every event kind, a call window's decision
and the cards, in whatever language the installed catalog speaks.

The one renderer of what happens at a table, shared by every side that writes it in
words: the client (through its catalogs, :mod:`maumau.client.i18n`, which installs
the player's language here with :func:`speak`), the server's log and the wire tools
(in English: nothing installed). Whole sentences are messages, with named
placeholders (word order differs between languages), and every count goes through
``ngettext``; sentences are never glued together from translated pieces. Cards are
named here too (:func:`card_text`, :func:`suit_text`): the ranks' letters, suit and
colour names and the American cards' words come from the catalogs (``pgettext``),
the suit symbols stay symbols.

The messages are extracted into the client's catalog (``scripts/catalogs``) with the
client's own. Pure: no I/O.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import (
    CARD_BY_CODE,
    COLOUR_CODES,
    RANK_OF,
    SUIT_CODES,
    SUIT_OF,
    SUIT_SYMBOLS,
    SYMBOL_DRAW_TWO,
    SYMBOL_REVERSE,
    SYMBOL_SKIP,
    WILD,
    WILD_DRAW_FOUR,
    is_classic,
)

Facts = Mapping[str, Any]

_speech: gettext.NullTranslations = gettext.NullTranslations()


def speak(translations: gettext.NullTranslations) -> None:
    """Write every sentence through ``translations`` from now on (English: a
    ``NullTranslations``, as at the start)."""
    global _speech
    _speech = translations


def _(message: str) -> str:
    """``message`` in the language spoken."""
    return _speech.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language spoken."""
    return _speech.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language spoken, told apart by ``context`` (for short words
    that mean different things in different places)."""
    return _speech.pgettext(context, message)


# --- cards ---------------------------------------------------------------------------


def _rank(rank: int) -> str:
    ranks = (
        "7",
        "8",
        "9",
        "10",
        pgettext("card rank (Jack)", "J"),
        pgettext("card rank (Queen)", "Q"),
        pgettext("card rank (King)", "K"),
        pgettext("card rank (Ace)", "A"),
    )
    return ranks[rank]


def ascii_table() -> dict[int, str]:
    """``str.translate`` table that writes a line for an ASCII terminal: each suit
    symbol becomes the current language's suit letter (as on the cards in the hand),
    arrows and dots their ASCII look-alikes."""
    table = {ord(symbol): _suit_letter(suit) for suit, symbol in enumerate(SUIT_SYMBOLS)}
    table.update({ord("↻"): "->", ord("↺"): "<-", ord("▶"): ">", ord("·"): "-"})
    return table


def _suit_letter(suit: int) -> str:
    letters = (
        pgettext("suit letter (spades)", "S"),
        pgettext("suit letter (hearts)", "H"),
        pgettext("suit letter (diamonds)", "D"),
        pgettext("suit letter (clubs)", "C"),
    )
    return letters[suit]


def _colour_letter(colour: int) -> str:
    letters = (
        pgettext("colour letter (red)", "R"),
        pgettext("colour letter (yellow)", "Y"),
        pgettext("colour letter (green)", "G"),
        pgettext("colour letter (blue)", "B"),
    )
    return letters[colour]


def suit_name(suit: int) -> str:
    """A suit's name in words: ``hearts``."""
    names = (
        pgettext("suit", "spades"),
        pgettext("suit", "hearts"),
        pgettext("suit", "diamonds"),
        pgettext("suit", "clubs"),
    )
    return names[suit]


def colour_name(colour: int) -> str:
    """An American colour's name in words: ``green``."""
    names = (
        pgettext("colour", "red"),
        pgettext("colour", "yellow"),
        pgettext("colour", "green"),
        pgettext("colour", "blue"),
    )
    return names[colour]


def card_text(code: str, ascii_only: bool = False) -> str:
    """A card as a person reads it: ``7♥`` (``7H`` in ASCII), ``GSkip``, ``W+4``; the
    rank letters and the American words from the catalogs (German: ``B♥`` for the
    Jack of hearts)."""
    card = CARD_BY_CODE[code]
    if card == WILD:
        return pgettext("card", "Wild")
    if card == WILD_DRAW_FOUR:
        return pgettext("card", "W+4")
    suit, rank = SUIT_OF[card], RANK_OF[card]
    if is_classic(card):
        return _rank(rank) + (_suit_letter(suit) if ascii_only else SUIT_SYMBOLS[suit])
    if rank == SYMBOL_SKIP:
        symbol = pgettext("card", "Skip")
    elif rank == SYMBOL_REVERSE:
        symbol = pgettext("card", "Rev")
    elif rank == SYMBOL_DRAW_TWO:
        symbol = "+2"
    else:
        symbol = str(rank)
    return _colour_letter(suit) + symbol


def suit_text(letter: str, ascii_only: bool = False) -> str:
    """A named suit (``♥ hearts``, ``hearts`` in ASCII) or colour (``green``), from
    its letter as in ``play.named``."""
    if letter in SUIT_CODES:
        suit = SUIT_CODES.index(letter)
        return suit_name(suit) if ascii_only else f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"
    return colour_name(COLOUR_CODES.index(letter))


def seat_name(names: Sequence[str], seat: int) -> str:
    """``names[seat]``, or ``Seat 3`` for a seat without a name."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return _("Seat {number}").format(number=seat + 1)


def _call_quoted(call: str) -> str:
    # NOTE: the call as said aloud, with the language's quotation marks.
    return (
        pgettext("call, quoted", '"Mau Mau"')
        if call == "maumau"
        else pgettext("call, quoted", '"Mau"')
    )


def _call_word(maumau: bool) -> str:
    return pgettext("call", "Mau Mau") if maumau else pgettext("call", "Mau")


# --- events --------------------------------------------------------------------------


class _Missing(Exception):
    """A fact the sentence needs is not there (an older server)."""


def event_line(facts: Facts, names: Sequence[str], ascii_only: bool = False) -> str | None:
    """The sentence for one event's facts (``kind`` and its fields), or None when
    the kind is unknown or a fact it needs is missing: then show the server's
    ``text``."""
    writer = _EVENTS.get(str(facts.get("kind")))
    if writer is None:
        return None

    def need(key: str) -> Any:
        value = facts.get(key)
        if value is None:
            raise _Missing(key)
        return value

    def who(key: str) -> str:
        return seat_name(names, int(need(key)))

    def card(key: str) -> str:
        return card_text(str(need(key)), ascii_only)

    try:
        return writer(_Reader(facts, need, who, card, ascii_only))
    except (_Missing, KeyError, ValueError, IndexError, TypeError):
        return None


class _Reader:
    """What an event's sentence reads from its facts."""

    def __init__(
        self,
        facts: Facts,
        need: Callable[[str], Any],
        who: Callable[[str], str],
        card: Callable[[str], str],
        ascii_only: bool,
    ) -> None:
        self.facts, self.need, self.who, self.card = facts, need, who, card
        self.ascii_only = ascii_only

    def get(self, key: str) -> Any:
        return self.facts.get(key)

    def named(self) -> str | None:
        letter = self.facts.get("named")
        return suit_text(str(letter), self.ascii_only) if letter else None


def _round_dealt(r: _Reader) -> str:
    values = {
        "round": r.need("round"),
        "dealer": r.who("dealer"),
        "top": r.card("top"),
        "first": r.who("first"),
        "named": r.named(),
    }
    returned = int(r.get("returned") or 0)
    if returned and values["named"]:
        text = ngettext(
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Four put "
            "back), {named} to follow; {first} to play",
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Fours put "
            "back), {named} to follow; {first} to play",
            returned,
        )
    elif returned:
        text = ngettext(
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Four put "
            "back); {first} to play",
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Fours put "
            "back); {first} to play",
            returned,
        )
    elif values["named"]:
        text = _(
            "Round {round}: {dealer} deals; {top} turned up, {named} to follow; {first} to play"
        )
    else:
        text = _("Round {round}: {dealer} deals; {top} turned up; {first} to play")
    return text.format(returned=returned, **values)


def _card_played(r: _Reader) -> str:
    named, call = r.named(), r.get("call")
    left = int(r.need("cards_left"))
    templates: dict[tuple[bool, bool, int], str] = {
        (False, False, 2): _("{name} plays {card}"),
        (False, False, 1): _("{name} plays {card} and has one card left"),
        (False, False, 0): _("{name} plays {card}: {name} is out"),
        (False, True, 2): _("{name} plays {card}, saying {call}"),
        (False, True, 1): _("{name} plays {card}, saying {call}, and has one card left"),
        (False, True, 0): _("{name} plays {card}, saying {call}: {name} is out"),
        (True, False, 2): _("{name} plays {card} and names {suit}"),
        (True, False, 1): _("{name} plays {card} and names {suit} and has one card left"),
        (True, False, 0): _("{name} plays {card} and names {suit}: {name} is out"),
        (True, True, 2): _("{name} plays {card} and names {suit}, saying {call}"),
        (True, True, 1): _(
            "{name} plays {card} and names {suit}, saying {call}, and has one card left"
        ),
        (True, True, 0): _("{name} plays {card} and names {suit}, saying {call}: {name} is out"),
    }
    text = templates[(named is not None, bool(call), min(left, 2))]
    return text.format(
        name=r.who("seat"),
        card=r.card("card"),
        suit=named,
        call=_call_quoted(str(call)) if call else None,
    )


def _penalty_pending(r: _Reader) -> str:
    amount = int(r.need("amount"))
    answer = r.need("answer")
    if answer == "seven":
        text = ngettext(
            "{name} must draw {amount} or answer with a 7",
            "{name} must draw {amount} or answer with a 7",
            amount,
        )
    elif answer == "draw_two":
        text = ngettext(
            "{name} must draw {amount} or answer with a Draw Two",
            "{name} must draw {amount} or answer with a Draw Two",
            amount,
        )
    elif answer == "wild_draw_four" and r.get("can_challenge"):
        text = ngettext(
            "{name} must draw {amount} or challenge",
            "{name} must draw {amount} or challenge",
            amount,
        )
    elif answer == "wild_draw_four":
        text = ngettext("{name} must draw {amount}", "{name} must draw {amount}", amount)
    else:
        raise _Missing("answer")
    return text.format(name=r.who("seat"), amount=amount)


def _penalty_drawn(r: _Reader) -> str:
    count, wanted = int(r.need("count")), int(r.need("wanted"))
    if count < wanted:
        text = ngettext(
            "{name} draws {count} card (only {count} left to draw)",
            "{name} draws {count} cards (only {count} left to draw)",
            count,
        )
    else:
        text = ngettext("{name} draws {count} card", "{name} draws {count} cards", count)
    return text.format(name=r.who("seat"), count=count, wanted=wanted)


def _card_drawn(r: _Reader) -> str:
    name = r.who("seat")
    if int(r.need("count")) == 0:
        return _("{name} finds nothing left to draw").format(name=name)
    if r.get("may_play"):
        return _("{name} draws a card and may play it").format(name=name)
    return _("{name} draws a card").format(name=name)


def _caught(r: _Reader) -> str:
    count = int(r.need("count"))
    final = bool(r.get("final_card"))
    card = r.get("card")
    if not card:
        text = ngettext(
            "{catcher} catches {target}, who did not say {call} for an earlier card: "
            "{target} draws {count}",
            "{catcher} catches {target}, who did not say {call} for an earlier card: "
            "{target} draws {count}",
            count,
        )
    elif final:
        text = ngettext(
            "{catcher} catches {target}, who went out on {card} without saying {call}: "
            "{target} draws {count}",
            "{catcher} catches {target}, who went out on {card} without saying {call}: "
            "{target} draws {count}",
            count,
        )
    else:
        text = ngettext(
            "{catcher} catches {target}, who played {card} without saying {call}: "
            "{target} draws {count}",
            "{catcher} catches {target}, who played {card} without saying {call}: "
            "{target} draws {count}",
            count,
        )
    return text.format(
        catcher=r.who("catcher"),
        target=r.who("target"),
        count=count,
        call=_call_word(final),
        card=r.card("card") if card else None,
    )


def _false_catch(r: _Reader) -> str:
    count = int(r.need("count"))
    text = ngettext(
        "{catcher} wrongly tries to catch {target} and draws {count}",
        "{catcher} wrongly tries to catch {target} and draws {count}",
        count,
    )
    return text.format(catcher=r.who("catcher"), target=r.who("target"), count=count)


def _challenge_decided(r: _Reader) -> str:
    if r.need("upheld"):
        text = _("{challenger} challenges {target}'s Wild Draw Four and is right: {target} draws 4")
    else:
        text = _(
            "{challenger} challenges {target}'s Wild Draw Four and is wrong: {challenger} draws 6"
        )
    return text.format(challenger=r.who("challenger"), target=r.who("target"))


def _round_ended(r: _Reader) -> str:
    points = int(r.need("points"))
    text = ngettext(
        "Round {round} goes to {winner}, who scores {points}",
        "Round {round} goes to {winner}, who scores {points}",
        points,
    )
    return text.format(round=r.need("round"), winner=r.who("winner"), points=points)


def _match_ended(r: _Reader) -> str:
    winner = int(r.need("winner"))
    points = int(r.need("scores")[winner])
    text = ngettext(
        "{winner} wins the match with {points} points",
        "{winner} wins the match with {points} points",
        points,
    )
    return text.format(winner=r.who("winner"), points=points)


def _reversed(r: _Reader) -> str:
    direction = int(r.need("direction"))
    return _("Play now goes clockwise") if direction == 1 else _("Play now goes counter-clockwise")


def _reshuffled(r: _Reader) -> str:
    count = int(r.need("count"))
    text = ngettext(
        "The discard pile is shuffled into a new stock of {count} card",
        "The discard pile is shuffled into a new stock of {count} cards",
        count,
    )
    return text.format(count=count)


_EVENTS: dict[str, Callable[[_Reader], str]] = {
    "round_dealt": _round_dealt,
    "card_played": _card_played,
    "penalty_pending": _penalty_pending,
    "penalty_drawn": _penalty_drawn,
    "skipped": lambda r: _("{name} is skipped").format(name=r.who("seat")),
    "reversed": _reversed,
    "card_drawn": _card_drawn,
    "passed": lambda r: _("{name} keeps the drawn card").format(name=r.who("seat")),
    "reshuffled": _reshuffled,
    "mau_said": lambda r: _("{name} says {call}").format(
        name=r.who("seat"), call=_call_quoted(str(r.need("call")))
    ),
    "caught": _caught,
    "false_catch": _false_catch,
    "call_window_closed": lambda r: _("{name}'s call window closes").format(name=r.who("seat")),
    "challenge_decided": _challenge_decided,
    "timed_out": lambda r: _("{name} ran out of time; the server acts for them").format(
        name=r.who("seat")
    ),
    "round_ended": _round_ended,
    "match_ended": _match_ended,
}

#: Every event kind the client writes itself.
EVENT_KINDS = frozenset(_EVENTS)


def unknown_line(kind: str) -> str:
    """The line for an event (or decision) of a ``kind`` this program has no
    sentence for, or whose facts do not make one (a newer server's)."""
    # NOTE: an event this program has no words for (a newer server's); kind is its name.
    return _("({kind}: this program has no words for it)").format(kind=kind)


# --- call window decisions -----------------------------------------------------------


def _seconds(milliseconds: float) -> str:
    # NOTE: the decimal separator of numbers such as "0.42 s".
    return f"{milliseconds / 1000:.2f}".replace(".", pgettext("decimal separator", "."))


def decision_line(
    seat: int, outcome: str, stamps: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> str | None:
    """A call window's decision: "Ann said Mau 0.42 s after playing; Bob's catch came
    0.11 s later", or "Bob caught Ann 0.97 s after Ann's play", then how much earlier
    each claim counted for its connection (:func:`_credit_line`); None when a fact is
    missing (a call stamp without its ``call``: an older server) or not known (a
    ``basis`` this client has no words for)."""
    parts: list[str] = []
    credits: list[str] = []
    previous: float | None = None
    try:
        for stamp in stamps:
            credit = _credit_line(stamp, names)
            if credit is None:
                return None
            if credit:
                credits.append(credit)
            who = seat_name(names, int(stamp["seat"]))
            after = float(stamp["after_ms"])
            call = stamp.get("call")
            if stamp["what"] == "call" and call is None:
                return None
            if previous is None and stamp["what"] == "call":
                text = _("{name} said {call} {seconds} s after playing").format(
                    name=who, call=_call_word(call == "maumau"), seconds=_seconds(after)
                )
            elif previous is None:
                text = _("{name} caught {target} {seconds} s after {target}'s play").format(
                    name=who, target=seat_name(names, seat), seconds=_seconds(after)
                )
            elif stamp["what"] == "call":
                text = _("{name}'s call came {seconds} s later").format(
                    name=who, seconds=_seconds(after - previous)
                )
            else:
                text = _("{name}'s catch came {seconds} s later").format(
                    name=who, seconds=_seconds(after - previous)
                )
            parts.append(text)
            previous = after
    except (KeyError, ValueError, TypeError):
        return None
    if not parts:
        word = {"called": pgettext("decision", "called"), "caught": pgettext("decision", "caught")}
        if outcome not in word:
            return None
        return _("{name}: {outcome}").format(name=seat_name(names, seat), outcome=word[outcome])
    # NOTE: joins the clauses of one decision: "Ann said Mau ...; Bob's catch came ...".
    return pgettext("clause separator", "; ").join(parts + credits)


def _credit_line(stamp: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """How much earlier a claim counted with lag compensation, as the server's
    ``credit_text`` says it: "Ann's call counted 34 ms earlier for their connection
    (measured)". Empty when there is nothing to say (no ``basis``: compensation off;
    or less than a millisecond), None for a ``basis`` not known here."""
    basis = stamp.get("basis")
    if basis is None:
        return ""
    notes = {
        # NOTE: how a Mau claim's lag credit was found: the delay measured on its own
        # exchange; "Ann's call counted 34 ms earlier for their connection (measured)".
        "measured": pgettext("lag credit", "measured"),
        # NOTE: the connection's usual delay (the client reported nothing).
        "usual": pgettext("lag credit", "usual delay"),
        # NOTE: the client's report was implausible; the usual delay was used instead.
        "refused": pgettext("lag credit", "report refused"),
    }
    if basis not in notes:
        return None
    ms = round(float(stamp["shift_ms"]))
    if ms < 1:
        return ""
    if stamp["what"] == "call":
        text = _("{name}'s call counted {ms} ms earlier for their connection ({note})")
    else:
        text = _("{name}'s catch counted {ms} ms earlier for their connection ({note})")
    return text.format(name=seat_name(names, int(stamp["seat"])), ms=ms, note=notes[basis])

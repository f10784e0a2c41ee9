"""Sentences from the protocol's facts, through the catalogs (the shared renderer,
``maumau.protocol.sentences``, and the client's ``maumau.client.words``).

Every event kind is built as the server's value and turned into the facts of the
``event`` message; each is written (the English of real events is checked word for
word in tests/protocol/test_events_describe.py). Decisions read as written out below. Then,
with a small catalog made here, every sentence comes out of the catalog with its
placeholders filled; and missing facts or an unknown kind give None.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from maumau.client import i18n, words
from maumau.protocol import sentences
from maumau.protocol.cards import CARD_BY_CODE
from maumau.server.rules import event_map
from maumau.server.rules.events import (
    PENALTY_DRAW_TWO,
    PENALTY_SEVEN,
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    CardPlayed,
    Caught,
    ChallengeDecided,
    Event,
    FalseCatch,
    MatchEnded,
    MauSaid,
    Passed,
    PenaltyDrawn,
    PenaltyPending,
    Reshuffled,
    Reversed,
    RoundDealt,
    RoundEnded,
    Skipped,
    TimedOut,
)
from support.i18n_catalogs import extracted

NAMES = ["Ann", "Bob", "Cleo", ""]  # the last seat has no name: "Seat 4"


def c(code: str) -> int:
    return CARD_BY_CODE[code]


def facts(event: Event) -> dict[str, Any]:
    """The facts of a server event, as the server sends them (one declaration:
    ``maumau.server.rules.facts``)."""
    return event_map(event)


def every_event() -> Iterator[Event]:
    """Every kind, in every form its sentence takes."""
    for returned in (0, 1, 2):
        for top, suit in ((c("7H"), -1), (c("JS"), 2), (c("W"), 1), (c("G+2"), -1)):
            yield RoundDealt(3, 1, top, suit, 3, returned)
    for card, suit in ((c("10D"), -1), (c("JC"), 0), (c("W4"), 3), (c("YS"), -1)):
        for call in (None, "mau", "maumau"):
            for left in (0, 1, 2, 5):
                yield CardPlayed(0, card, suit, call, left)  # type: ignore[arg-type]
    for kind in (PENALTY_SEVEN, PENALTY_DRAW_TWO, PENALTY_WILD_DRAW_FOUR):
        for challenge in (False, True):
            yield PenaltyPending(2, 4, kind, challenge)
        yield PenaltyDrawn(1, 1, 2, kind)
        yield PenaltyDrawn(1, 4, 4, kind)
        yield PenaltyDrawn(1, 0, 2, kind)
    yield Skipped(3)
    yield Reversed(1)
    yield Reversed(-1)
    for count in (0, 1):
        for may_play in (False, True):
            yield CardDrawn(2, count, may_play)
    yield Passed(0)
    yield Reshuffled(1)
    yield Reshuffled(17)
    yield MauSaid(1, "mau")
    yield MauSaid(1, "maumau")
    for final in (False, True):
        for card in (-1, c("QH"), c("R7")):
            yield Caught(0, 1, 2, final, card)
    yield FalseCatch(2, 0, 1)
    yield FalseCatch(2, 0, 3)
    yield CallWindowClosed(0, 4)
    yield ChallengeDecided(1, 2, True)
    yield ChallengeDecided(1, 2, False)
    yield TimedOut(3)
    yield RoundEnded(2, 1, 37, ((), (), (), ()), (0, 37, 10, 0))
    yield RoundEnded(2, 1, 1, ((), (), (), ()), (0, 1, 10, 0))
    yield MatchEnded(2, (4, 0, 151, 3))
    yield MatchEnded(0, (1, 0, 0, 0))


EVENTS = list(every_event())


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_every_event_is_written(event: Event, ascii_only: bool) -> None:
    line = sentences.event_line(facts(event), NAMES, ascii_only)
    assert line and "{" not in line
    assert not ascii_only or line.isascii()


def test_every_kind_is_written() -> None:
    kinds = {facts(e)["kind"] for e in EVENTS}
    assert kinds == sentences.EVENT_KINDS


@pytest.mark.parametrize(
    "line",
    [
        {"kind": "card_played", "seat": 0},  # no card: an older server
        {"kind": "skipped"},
        {"kind": "a_new_kind", "seat": 0},
        {"kind": "match_ended", "winner": 7, "scores": [1]},
    ],
)
def test_missing_facts_or_an_unknown_kind_give_none(line: dict[str, Any]) -> None:
    assert sentences.event_line(line, NAMES) is None


def stamp(seat: int, what: str, after: float, call: str | None = None) -> dict[str, Any]:
    extra = {"call": call} if call else {}
    return {"seat": seat, "what": what, "after_ms": after * 1000, "shift_ms": 0.0, **extra}


DECISIONS = [
    (
        [stamp(0, "call", 0.42, "mau"), stamp(1, "catch", 0.53)],
        0,
        "called",
        "Ann said Mau 0.42 s after playing; Bob's catch came 0.11 s later",
    ),
    ([stamp(0, "call", 0.5, "maumau")], 0, "called", "Ann said Mau Mau 0.50 s after playing"),
    (
        [stamp(2, "catch", 0.97), stamp(0, "call", 1.5, "mau")],
        0,
        "caught",
        "Cleo caught Ann 0.97 s after Ann's play; Ann's call came 0.53 s later",
    ),
    ([], 1, "caught", "Bob: caught"),
]


@pytest.mark.parametrize("stamps,target,outcome,expected", DECISIONS)
def test_decisions_read_as_written(
    stamps: list[dict[str, Any]], target: int, outcome: str, expected: str
) -> None:
    assert sentences.decision_line(target, outcome, stamps, NAMES) == expected


def test_a_call_stamp_without_its_call_falls_back() -> None:
    assert sentences.decision_line(0, "called", [stamp(0, "call", 0.4)], NAMES) is None


def test_english_errors_and_goodbyes_are_the_servers_words() -> None:
    assert words.error_line("not_your_turn", None, "it is not your turn") == "it is not your turn"
    assert words.error_line("brand_new", {}, "something new") == "something new"
    assert words.goodbye_line("shutdown", "the server is shutting down") == (
        "the server is shutting down"
    )


# --- through a catalog ---------------------------------------------------------------


def marked(message: str) -> str:
    """A translation that shows it came from the catalog and keeps the placeholders."""
    return "«" + message + "»"


def install(catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    i18n.use(gettext.GNUTranslations(buffer), "de")


@functools.cache
def marked_catalog() -> Catalog:
    """Every message of the client (extracted once), translated as ``«message»``."""
    result = Catalog(locale="de")
    for message, context in extracted():
        if isinstance(message, tuple):
            result.add(message, tuple(marked(m) for m in message), context=context)
        else:
            result.add(message, marked(message), context=context)
    return result


@pytest.fixture
def catalog() -> Iterator[Catalog]:
    install(marked_catalog())
    yield marked_catalog()
    i18n.set_language("en")


@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_every_event_comes_from_the_catalog_filled(catalog: Catalog, event: Event) -> None:
    line = sentences.event_line(facts(event), NAMES)
    assert line is not None and line.startswith("«") and line.endswith("»")
    assert "{" not in line and "}" not in line and "None" not in line


@pytest.mark.parametrize("stamps,target,outcome,_english", DECISIONS)
def test_every_decision_comes_from_the_catalog_filled(
    catalog: Catalog, stamps: list[dict[str, Any]], target: int, outcome: str, _english: str
) -> None:
    line = sentences.decision_line(target, outcome, stamps, NAMES)
    assert line is not None and line.startswith("«") and "{" not in line and "None" not in line


DETAILS: dict[str, Any] = {
    "field": "seats",
    "name": "Ann",
    "card": "JS",
    "top": "7H",
    "limit": 3,
    "version": 4,
    "seconds": 10,
}


@pytest.mark.parametrize("code", sorted(words.ERROR_CODES))
@pytest.mark.parametrize("details", [None, DETAILS])
def test_every_error_code_comes_from_the_catalog_filled(
    catalog: Catalog, code: str, details: dict[str, Any] | None
) -> None:
    line = words.error_line(code, details, "the English message")
    assert line.startswith("«") and line.endswith("»")
    assert "{" not in line and "None" not in line


def test_an_error_names_its_facts(catalog: Catalog) -> None:
    assert words.error_line("does_not_match", DETAILS, "x") == "««J»♠ does not fit on 7♥.»"


def test_an_unknown_code_stays_in_the_servers_words(catalog: Catalog) -> None:
    assert words.error_line("brand_new", {}, "something new") == "something new"


def test_goodbyes_come_from_the_catalog(catalog: Catalog) -> None:
    assert words.goodbye_line("shutdown", "bye") == "«The server is shutting down.»"
    assert words.goodbye_line("replaced", "bye").startswith("«Another")
    assert words.goodbye_line(None, "bye") == "bye"


def test_card_words_come_from_the_catalog(catalog: Catalog) -> None:
    assert sentences.card_text("JH") == "«J»♥"
    assert sentences.card_text("JH", ascii_only=True) == "«J»«H»"
    assert sentences.card_text("GS") == "«G»«Skip»"
    assert sentences.card_text("W4") == "«W+4»"
    assert sentences.suit_text("C") == "♣ «clubs»"
    assert sentences.suit_text("B") == "«blue»"


@pytest.mark.parametrize(
    "field,expected",
    [
        ("create_table.name", "Der Name eines Tisches muss etwas zeigen."),
        ("play.named", "Diese Farbe gehört zum anderen Spiel."),
        ("hello.name", "Diesen Namen kannst du nicht nehmen"),
    ],
)
def test_bad_name_is_told_apart_by_its_field(field: str, expected: str) -> None:
    """The three names ``bad_name`` refuses get three sentences (in German here)."""
    i18n.set_language("de")
    line = words.error_line("bad_name", {"field": field}, "the English")
    assert line.startswith(expected.rstrip(".")), line


def test_seconds_are_written_as_the_server_writes_them() -> None:
    i18n.set_language("de")
    line = words.error_line("hello_timeout", {"seconds": 10.0}, "no hello within 10 s")
    assert "10 s" in line and "10.0" not in line, line

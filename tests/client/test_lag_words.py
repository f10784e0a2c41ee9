"""The lag credit of a Mau decision, in words (protocol 5 and on).

A ``mau_decision`` stamp may say on what ``basis`` its claim was counted earlier and
by how much (``shift_ms``); its sentence then ends with a clause per credited claim
("Ann's call counted 34 ms earlier for their connection (measured)"), written from
the stamps the server makes of the arbiter's claims: in English as written out
below, for every basis, for calls and catches; in German a whole sentence from the
catalog. A basis the renderer does not know gives None.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from maumau.client import i18n
from maumau.protocol import sentences
from maumau.server.arbiter import Claim
from maumau.server.table.claims import _stamp as claim_stamp

NAMES = ["Ann", "Bob", "Cleo"]
OPENED = 10.0
BASES = ["measured", "usual", "refused"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def stamp(claim: Claim) -> dict[str, Any]:
    """A claim as the server sends it in a ``mau_decision``."""
    return claim_stamp(claim, OPENED)


def race(first: str, call_basis: str | None, catch_basis: str | None) -> list[Claim]:
    """Ann's call (counted 34 ms earlier) and Bob's catch of Ann (12.6 ms), in
    deciding order: ``first`` is the one that won."""
    call = Claim("call", 0, 10.45, 0.034, 1, call="mau", basis=call_basis)
    catch = Claim("catch", 1, 10.40, 0.0126, 2, target=0, basis=catch_basis)
    if first == "call":
        catch.stamp = 10.60
        return [call, catch]
    return [catch, call]


def line(claims: list[Claim]) -> str | None:
    outcome = "called" if claims[0].kind == "call" else "caught"
    return sentences.decision_line(0, outcome, [stamp(c) for c in claims], NAMES)


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("first", ["call", "catch"])
def test_english_credit_reads_as_written(first: str, basis: str) -> None:
    note = {"measured": "measured", "usual": "usual delay", "refused": "report refused"}[basis]
    call = f"Ann's call counted 34 ms earlier for their connection ({note})"
    catch = f"Bob's catch counted 13 ms earlier for their connection ({note})"
    if first == "call":
        expected = (
            f"Ann said Mau 0.42 s after playing; Bob's catch came 0.17 s later; {call}; {catch}"
        )
    else:
        expected = (
            f"Bob caught Ann 0.39 s after Ann's play; Ann's call came 0.03 s later; {catch}; {call}"
        )
    assert line(race(first, basis, basis)) == expected


@pytest.mark.parametrize(
    "call_basis,catch_basis,expected",
    [
        (
            "measured",
            None,
            "Ann said Mau 0.42 s after playing; Bob's catch came 0.17 s later; "
            "Ann's call counted 34 ms earlier for their connection (measured)",
        ),
        (
            None,
            "refused",
            "Ann said Mau 0.45 s after playing; Bob's catch came 0.14 s later; "
            "Bob's catch counted 13 ms earlier for their connection (report refused)",
        ),
        (
            "usual",
            "measured",
            "Ann said Mau 0.42 s after playing; Bob's catch came 0.18 s later; "
            "Ann's call counted 34 ms earlier for their connection (usual delay)",
        ),
    ],
)
def test_only_credited_claims_get_a_clause(
    call_basis: str | None, catch_basis: str | None, expected: str
) -> None:
    claims = race("call", call_basis, catch_basis)
    if call_basis is None:
        claims[0].shift = 0.0  # compensation said nothing about this claim
    claims[1].shift = 0.0004 if call_basis == "usual" else claims[1].shift  # rounds to 0 ms
    assert line(claims) == expected


def test_the_english_example_of_the_protocol() -> None:
    claims = [
        Claim("call", 0, 10.42 + 0.034, 0.034, 1, call="mau", basis="measured"),
        Claim("catch", 1, 10.53, 0.0, 2, target=0, basis="usual"),
    ]
    assert line(claims) == (
        "Ann said Mau 0.42 s after playing; Bob's catch came 0.11 s later; "
        "Ann's call counted 34 ms earlier for their connection (measured)"
    )


def test_an_unknown_basis_gives_none() -> None:
    stamps = [stamp(c) for c in race("call", "measured", "measured")]
    stamps[1]["basis"] = "guessed"
    assert sentences.decision_line(0, "called", stamps, NAMES) is None


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("first", ["call", "catch"])
def test_german_credit_is_a_whole_sentence(first: str, basis: str) -> None:
    english = line(race(first, basis, basis))
    i18n.set_language("de")
    german = line(race(first, basis, basis))
    assert german is not None and english is not None
    assert "{" not in german and "}" not in german
    assert "34 ms" in german and "13 ms" in german
    assert "earlier" not in german and german != english


@pytest.mark.parametrize(
    ("shift", "ms"), [(0.0134996, 14), (0.0125004, 12), (0.0005, None), (0.0004996, None)]
)
def test_a_credit_on_a_rounding_edge_is_the_stamps_value_rounded(
    shift: float, ms: int | None
) -> None:
    """The stamp carries 3 decimals, and the clause's number is rounded from that
    value (13.4996 ms is 13.5 in the stamp, so 14); under 1 ms it says nothing."""
    claims = [Claim("call", 0, 10.45, shift, 1, call="mau", basis="measured")]
    written = line(claims)
    assert written is not None and written.startswith("Ann said Mau 0.4")
    credit = f"; Ann's call counted {ms} ms earlier for their connection (measured)"
    assert written.endswith(credit) if ms is not None else "earlier" not in written

"""Every catalog translates every message of the client, keeping its placeholders.

The messages are extracted from the code afresh with Babel's own extraction (the
same keywords as ``scripts/catalogs``), so a stale template does not hide a new
message. For each language's ``maumau.po``: every message must have a translation
that is neither empty nor fuzzy, and each translation (each plural form) must hold
exactly the ``{placeholders}`` of its message; and the catalog's ``Plural-Forms``
must have the language's number of forms (German 2, Czech 3, Scottish Gaelic 4).

These fail until the translators have filled the catalogs.
"""

from __future__ import annotations

import re

import pytest

from support.i18n_catalogs import (
    PLURAL_FORMS,
    catalog,
    extracted,
    placeholders,
    problems,
)


def test_the_code_has_messages() -> None:
    assert len(extracted()) > 100


@pytest.mark.parametrize("code", sorted(PLURAL_FORMS))
def test_every_message_is_translated_with_its_placeholders(code: str) -> None:
    wrong = problems(code)
    assert not wrong, f"{len(wrong)} problems in {code}, the first: " + "; ".join(wrong[:10])


@pytest.mark.parametrize("code", sorted(PLURAL_FORMS))
def test_plural_forms_fit_the_language(code: str) -> None:
    header = catalog(code).mime_headers
    forms = dict(header).get("Plural-Forms", "")
    match = re.search(r"nplurals\s*=\s*(\d+)", forms)
    assert match is not None and int(match.group(1)) == PLURAL_FORMS[code], forms


def test_the_checks_see_a_lost_placeholder() -> None:
    assert placeholders("{name} plays {card}") == {"name", "card"}
    assert placeholders("{name} spielt") != placeholders("{name} plays {card}")

"""The client's messages extracted afresh with Babel, and the problems of a
language's catalog."""

from __future__ import annotations

import functools
import string
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_from_dir
from babel.messages.pofile import read_po

from maumau.client import i18n
from maumau.protocol import sentences

PLURAL_FORMS = {"de": 2, "cs": 3, "gd": 4}


CODE = Path(i18n.__file__).parent


@functools.cache
def extracted() -> dict[tuple[str | tuple[str, ...], str | None], None]:
    """Every message of the client's code and of the shared sentences
    (:mod:`maumau.protocol.sentences`), with its context (as the catalog keys them)."""
    found: dict[tuple[str | tuple[str, ...], str | None], None] = {}
    for _path, _line, message, _comments, context in extract_from_dir(str(CODE)):
        found[(message, context)] = None
    # The sentences of events and decisions, shared with the server's side.
    with open(sentences.__file__, "rb") as source:
        for _line, message, _comments, context in extract("python", source):
            found[(message, context)] = None
    return found


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalog(code: str) -> Catalog:
    path = i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=code)


def problems(code: str) -> list[str]:
    found = catalog(code)
    wrong: list[str] = []
    for message, context in extracted():
        key = message[0] if isinstance(message, tuple) else message
        entry = found.get(key, context=context)
        where = f"{context + ': ' if context else ''}{key!r}"
        if entry is None:
            wrong.append(f"missing: {where}")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(forms):
            wrong.append(f"untranslated or fuzzy: {where}")
            continue
        ids = message if isinstance(message, tuple) else (message,)
        wanted = [placeholders(i) for i in ids]
        for n, form in enumerate(forms):
            have = placeholders(form)
            if have != wanted[-1] and not (n == 0 and have == wanted[0]):
                wrong.append(f"placeholders {sorted(have)} in form {n} of {where}")
    return wrong

"""The player's language: gettext catalogs, and which language to use.

Every word the client shows goes through this module:

- ``_("Leave the table?")`` translates a message now;
- ``ngettext("{n} card", "{n} cards", n)`` picks the plural form by the catalog's own
  rule (Czech has three, Scottish Gaelic four), to be filled with ``.format(n=n)``;
- ``N_("refresh")`` only marks a message for extraction, where the English must be
  kept (a ``Binding`` description, a module-level table); it is translated where it
  is shown, with ``_()``.

Placeholders are always named (``{name} plays {card}``), so a translation may put
them in another order. The catalogs are ``locale/<lang>/LC_MESSAGES/maumau.po`` beside
this file; the install compiles them to ``.mo`` (``hatch_build.py``), and
:mod:`gettext` reads those. English is the messages themselves.

The language comes from ``--lang``, else the client's config, else the environment
(:func:`from_environment`: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as
gettext reads them), else English. It can change while the client runs
(:func:`set_language`): every ``_()`` after that speaks the new language.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from pathlib import Path

from maumau.protocol import sentences

DOMAIN = "maumau"
LOCALE_DIR = Path(__file__).parent / "locale"

#: The languages offered, by code, each named in its own words.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "cs": "Čeština",
    "gd": "Gàidhlig",
}
DEFAULT = "en"

_language = DEFAULT


# The catalog spoken is kept by the shared renderer (maumau.protocol.sentences), which
# writes the sentences of events with it: one place, so both speak the same language.
_ = sentences._
ngettext = sentences.ngettext
pgettext = sentences.pgettext


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def language() -> str:
    """The code of the current language."""
    return _language


def normalize(code: str | None) -> str | None:
    """A language code as offered (``"de_AT.UTF-8"`` → ``"de"``), or None."""
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(env: Mapping[str, str]) -> str | None:
    """The language the environment asks for, read as gettext does: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set decides
    (``LANGUAGE`` may list several, ``cs:de``: the first offered wins). ``C`` and
    ``POSIX`` mean English. None when nothing is set or nothing is offered."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        if variable != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
            return DEFAULT
        for part in value.split(":"):
            found = normalize(part)
            if found:
                return found
        if variable != "LANGUAGE":
            return None
    return None


def choose(flag: str | None, remembered: str | None, env: Mapping[str, str]) -> str:
    """The language to use: ``--lang``, else the config's, else the environment's,
    else English. Codes not offered are passed over."""
    for candidate in (normalize(flag), normalize(remembered), from_environment(env)):
        if candidate:
            return candidate
    return DEFAULT


def catalog_path(code: str) -> Path:
    """Where the compiled catalog of ``code`` lives."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


class MissingCatalog(RuntimeError):
    """A language other than English was asked for, but its compiled catalog is not
    installed (the install did not compile the ``.po`` files)."""


def set_language(code: str) -> None:
    """Speak ``code`` from now on (one of :data:`LANGUAGES`)."""
    global _language
    if code not in LANGUAGES:
        raise ValueError(f"not an offered language: {code!r}")
    translation: gettext.NullTranslations
    if code == DEFAULT:
        translation = gettext.NullTranslations()
    else:
        path = catalog_path(code)
        if not path.is_file():
            raise MissingCatalog(f"{path.name} for {code!r} is not installed")
        with path.open("rb") as handle:
            translation = gettext.GNUTranslations(handle)
    _language = code
    sentences.speak(translation)


def use(translations: gettext.NullTranslations, code: str) -> None:
    """Speak through ``translations`` as language ``code`` (for tests: a catalog
    built on the spot, such as a pseudo-locale)."""
    global _language
    _language = code
    sentences.speak(translations)

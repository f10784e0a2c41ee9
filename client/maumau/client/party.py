"""The words of the SSH party's login, in the guest's language.

Before the client starts, ``scripts/ssh-party``'s wrapper asks a guest for a name
and a PIN. It runs with the Python of the party's venv, where this package is
installed, and asks its questions in the guest's language (the locale their ssh
sends) through the client's own catalogs: :func:`speak` chooses the language and
the wrapper writes each of these messages with ``_``. A wrapper that cannot import
this module speaks English.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import i18n
from .i18n import N_

NEEDS_TERMINAL = N_("maumau needs a terminal. Connect with: {command}")
NO_NAME = N_("No name typed; goodbye.")
WELCOME = N_("Welcome to the maumau party ({server}).")
WHY_NAME = N_("Your name is how the others see you; a PIN keeps it yours for next time.")
# NOTE: the SSH party's prompt for the guest's name (the answer follows on the line).
ASK_NAME = N_("Your name: ")
# NOTE: the SSH party's prompt for the PIN; the guest types it unseen.
ASK_PIN = N_("PIN to keep the name {name} (Enter for none): ")
EMPTY_NAME = N_("Type a name.")
LONG_NAME = N_("At most {most} characters, please.")
UNPRINTABLE_NAME = N_("Letters, digits, spaces and punctuation only, please.")
STAR_NAME = N_("No asterisk (*), please: it marks the server's bots.")


def speak(environ: Mapping[str, str]) -> str:
    """Speak the language the guest's locale asks for (English when the client has
    none of it); the code spoken."""
    code = i18n.choose(None, None, dict(environ))
    try:
        i18n.set_language(code)
    except i18n.MissingCatalog:
        code = i18n.DEFAULT
        i18n.set_language(code)
    return code


_ = i18n._


NAME_MOST = 24  # the protocol's longest name


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, in the language spoken, or None when
    it can: 1 to 24 printable characters and no asterisk (the mark of the bots'
    names). The server has the last word."""
    if not name:
        return _(EMPTY_NAME)
    if len(name) > NAME_MOST:
        return _(LONG_NAME).format(most=NAME_MOST)
    if not name.isprintable():
        return _(UNPRINTABLE_NAME)
    if "*" in name:
        return _(STAR_NAME)
    return None

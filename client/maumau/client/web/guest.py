"""One browser guest's client: the process ``maumau-web`` starts for each tab.

It is the real :class:`~maumau.client.app.MauMauApp`, drawn through textual-serve's
web driver (``TEXTUAL_DRIVER``, set by :class:`~.service.GuestService`), in web mode:
the server's address is fixed, the name and PIN are asked in the page, and the name's
secret is derived from them. Everything comes from the environment the service
builds, never from the visitor:

- ``MAUMAU_WEB_GAME``: the game server, ``host:port``;
- ``MAUMAU_WEB_KEY``: the host's key, in hex (:mod:`.identity`);
- ``LANGUAGE``: the languages the visitor's browser asks for (Accept-Language).

Run as ``python -m maumau.client.web.guest``; not meant to be started by hand.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from .. import i18n
from ..address import parse_address
from ..exit_guard import EXIT_SIGNALS

HOME_PREFIX = "maumau-web-guest-"  # the private homes GuestService makes


def main() -> int:
    game = parse_address(os.environ.get("MAUMAU_WEB_GAME", ""))
    try:
        key = bytes.fromhex(os.environ.get("MAUMAU_WEB_KEY", ""))
    except ValueError:
        key = b""
    if game is None or len(key) < 16:
        print("maumau web guest: MAUMAU_WEB_GAME and MAUMAU_WEB_KEY are needed", file=sys.stderr)
        return 2
    code = i18n.choose(None, None, os.environ)
    try:
        i18n.set_language(code)
    except i18n.MissingCatalog:
        i18n.set_language(i18n.DEFAULT)
    from ..app import MauMauApp

    app = MauMauApp(game[0], game[1], "", remember=False, web_key=key)
    app.exit_signals = EXIT_SIGNALS
    app.last_words.append(remove_home)  # should the process have to be ended by force
    try:
        app.run()
    finally:
        remove_home()
    return app.return_code or 0


def remove_home() -> None:
    """Remove the private home the web server made for this process. The web server
    removes it too once the process has ended; this covers a web server that was
    killed (the kernel then sends this process SIGTERM, and nobody else would). Only
    a home named as the service names them (in the web server's temporary folder,
    which may not be this process's: its environment has no TMPDIR)."""
    home = Path(os.environ.get("HOME", ""))
    if home.name.startswith(HOME_PREFIX):
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())

"""``maumau-client``: play Mau Mau in the terminal.

maumau-client host:port [--name NAME] [--ascii]
maumau-client --replay MATCH_ID host:port [--password P]   (watch a finished match, then quit)
maumau-client --local [--variant classic|american] [--bots N]
maumau-client                       (asks where to connect)
maumau-client --lang de ...         (the language; remembered for the next runs)
maumau-client --admin-key FILE host:port   (the server's host key: the host's powers)

The language is chosen before anything is shown, the ``--help`` text included:
``--lang``, else the one remembered in the config, else the environment's
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English
(:func:`~maumau.client.i18n.choose`). A language whose catalog is not installed
falls back to English, saying so.

The server's host: ``--admin-key FILE`` reads the server's host key (64 hex digits,
the ``host.key`` the server writes beside its database); every hello then proves it
and the session gets the host's powers. Without it, a client on the server's own
machine uses the key file of a server with the default database
(:func:`default_key_path`) when it can read one, silently, and proves it only to a
server on this machine (a server elsewhere could pass the proof on). ``--local`` and
``--replay`` never send a key. A browser guest's client (``maumau-web``) never gets
one: only this command line gives the app a key.

The exit status is 0, or 1 when ``--replay`` could not show the match (no such
match, still running, a server without records, or no connection); the reason is
printed. SIGTERM, SIGINT (``kill -INT``: in the app's raw mode Ctrl+C is a key, not
a signal) and SIGHUP end the client as a quit does, the terminal restored (the
alternate screen left, the cursor shown, mouse reporting off), with the status 128 +
the signal's number. So does the terminal going away (a closed window, ``tmux
kill-session``, a dropped SSH connection: its hang-up), whether or not a SIGHUP comes,
with the status 129. Whatever the client is doing, a write blocked on a terminal that
nobody reads included, it is gone within 2 seconds: should the quit not have finished
a second after it began, the process is ended by force
(:mod:`~maumau.client.exit_guard`). No ``bye`` is said, so the seat is kept on the
server for a resume, as after any dropped connection.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import getpass
import os
import sys
from pathlib import Path

from maumau.protocol import host_key

from . import config, i18n
from .address import parse_address
from .exit_guard import EXIT_SIGNALS
from .i18n import N_, _


def default_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    return (config.load().get("name") or name or "player")[:24]


def wants_ascii(environ: dict[str, str] | None = None) -> bool:
    """True when the terminal's locale is not UTF-8 (LC_ALL, else LANG). LC_CTYPE is
    not asked: Python itself may have set it to C.UTF-8 for a plain C locale."""
    env = os.environ if environ is None else environ
    value = env.get("LC_ALL") or env.get("LANG") or ""
    return "utf-8" not in value.lower() and "utf8" not in value.lower()


# argparse words its own parts ("usage:", "options", its errors) through gettext's
# default domain, which knows no language of ours: they go through the client's
# catalogs instead, so that --help and a mistyped argument speak the chosen language.
# These are argparse's own messages (Python 3.11 to 3.13), listed for extraction.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
)
argparse._ = _  # type: ignore[attr-defined]

BOTS_LIMIT = {"classic": 3, "american": 9}  # seats at most (4, 10), less the player's


def game_name(variant: str) -> str:
    return _("Mau Mau") if variant == "classic" else _("American Mau-Mau")


def choose_language(argv: list[str] | None, environ: dict[str, str] | None = None) -> str:
    """Read ``--lang`` from ``argv`` (an unknown code is an error naming the offered
    ones), choose the language (see the module's docstring), speak it, and remember
    a ``--lang`` in the config. Returns the code spoken."""
    early = argparse.ArgumentParser(prog="maumau-client", add_help=False)
    early.add_argument("--lang")
    flag = early.parse_known_args(argv)[0].lang
    env = dict(os.environ if environ is None else environ)
    if flag is not None and flag not in i18n.LANGUAGES:  # exactly as --lang's choices
        with contextlib.suppress(i18n.MissingCatalog):  # said in the language otherwise chosen
            i18n.set_language(i18n.choose(None, config.load().get("language"), env))
        offered = ", ".join(i18n.LANGUAGES)
        early.error(_("--lang: one of {codes}, not {code}").format(codes=offered, code=repr(flag)))
    code = i18n.choose(flag, config.load().get("language"), env)
    try:
        i18n.set_language(code)
    except i18n.MissingCatalog as error:
        print(f"maumau-client: {error}; using English", file=sys.stderr)
        code = i18n.DEFAULT
        i18n.set_language(code)
    if flag is not None:
        config.save({"language": code})
    return code


def check_bots(parser: argparse.ArgumentParser, variant: str, bots: int) -> None:
    """Refuse a number of bots the game has no seats for, naming the limits (never
    play with fewer bots than asked without saying so)."""
    limit = BOTS_LIMIT[variant]
    if not 1 <= bots <= limit:
        other = "american" if variant == "classic" else "classic"
        text = _(
            "--bots: 1 to {limit} for {game} ({seats} seats at most), not {bots}; "
            "{other_game} (--variant {other}) takes 1 to {other_limit}"
        )
        parser.error(
            text.format(
                limit=limit,
                game=game_name(variant),
                seats=limit + 1,
                bots=bots,
                other_game=game_name(other),
                other=other,
                other_limit=BOTS_LIMIT[other],
            )
        )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, its help and errors in the language already chosen."""
    parser = argparse.ArgumentParser(
        prog="maumau-client",
        description=_("Play Mau Mau and American Mau-Mau in the terminal."),
        epilog=_(
            "In the lobby: n new table, s the leaderboard (stats), h match history "
            "(Enter replays a match). Your name is kept for you on the server by a secret in "
            "{path}."
        ).format(path="$XDG_CONFIG_HOME/maumau/client.json"),
    )
    parser.add_argument(
        "address",
        nargs="?",
        help=_("server as host:port, e.g. {example}").format(example="192.168.1.20:7766"),
    )
    parser.add_argument("--name", help=_("your name at the table (default: your login name)"))
    parser.add_argument(
        "--ascii",
        action="store_true",
        help=_("S H D C instead of {symbols}").format(symbols="♠ ♥ ♦ ♣"),
    )
    parser.add_argument("--local", action="store_true", help=_("play against bots on this machine"))
    parser.add_argument(
        "--no-discover",
        action="store_true",
        help=_("without an address: do not list the servers announced on the network"),
    )
    parser.add_argument(
        "--variant", choices=["classic", "american"], default="classic", help=_("with --local")
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=3,
        help=_("with --local: how many bots (Mau Mau: 1-3, American Mau-Mau: 1-9)"),
    )
    parser.add_argument(
        "--replay",
        type=int,
        metavar="MATCH_ID",
        help=_(
            "watch the replay of a finished match (ids are in the lobby's history, h), "
            "then quit; needs host:port"
        ),
    )
    parser.add_argument(
        "--password",
        help=_(
            "with --replay: the password of the match's table (needed for a locked "
            "table's match by anyone who did not sit there)"
        ),
    )
    parser.add_argument(
        "--admin-key",
        metavar="FILE",
        help=_(
            "the server's host key file (host.key beside its database), for the host's "
            "powers; default: the key of a server on this machine, if there is one"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=list(i18n.LANGUAGES),
        help=_("the language: {choices} (remembered; default: your environment's)").format(
            choices=", ".join(f"{code} {name}" for code, name in i18n.LANGUAGES.items())
        ),
    )
    args = parser.parse_args(argv)
    if args.local and args.address:
        parser.error(_("give either an address or --local, not both"))
    if args.replay is not None and (args.local or not args.address):
        parser.error(_("--replay needs the server's host:port (and no --local)"))
    if args.replay is not None and args.replay < 1:
        parser.error(_("--replay: a match id is a number from 1"))
    if args.password is not None and args.replay is None:
        parser.error(_("--password goes with --replay"))
    if args.password is not None and not 1 <= len(args.password) <= 64:
        parser.error(_("--password: 1 to 64 characters"))
    if args.admin_key is not None and (args.local or args.replay is not None):
        parser.error(_("--admin-key does not go with --local or --replay"))
    if args.local:
        check_bots(parser, args.variant, args.bots)
    if args.name is not None and not 1 <= len(args.name.strip()) <= 24:
        parser.error(_("--name: 1 to 24 characters"))
    return args


def default_key_path() -> Path:
    """Where a server with the default database keeps its host key: ``host.key`` in
    the platform's data folder (as the server's own default path: ``$XDG_DATA_HOME``
    on Linux), found here without the server's code."""
    import platformdirs

    return Path(platformdirs.user_data_dir("maumau", appauthor=False)) / host_key.FILE_NAME


class KeyProblem(Exception):
    """The host key file given cannot be used; the message says why."""


def read_key(path: Path) -> bytes:
    """The host key in the file at ``path``; :class:`KeyProblem` when it cannot be read
    or holds no key."""
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError as error:
        why = error.strerror or str(error)
        raise KeyProblem(
            _("cannot read the host key {path}: {why}").format(path=path, why=why)
        ) from None
    key = host_key.parse_key(text)
    if key is None:
        raise KeyProblem(
            _("{path} holds no host key (the server's host.key: 64 hex digits)").format(path=path)
        )
    return key


def find_key(flag: str | None) -> bytes | None:
    """The host key to prove in every hello: ``--admin-key``'s (a problem with it is
    :class:`KeyProblem`), else the default key file's when it is there and readable
    and holds a key (otherwise none, silently)."""
    if flag is not None:
        return read_key(Path(flag).expanduser())
    try:
        return read_key(default_key_path())
    except KeyProblem:
        return None


def main(argv: list[str] | None = None) -> None:
    choose_language(argv)
    args = parse_args(argv)
    from .app import MauMauApp

    name = (args.name or default_name()).strip()
    ascii_only = args.ascii or wants_ascii()
    key = None
    here = args.admin_key is None  # a key found, not given: proved to this machine only
    if not args.local and args.replay is None:
        try:
            key = find_key(args.admin_key)
        except KeyProblem as problem:
            print(f"maumau-client: {problem}", file=sys.stderr)
            raise SystemExit(2) from None
    if args.local:
        from .local import create_local_table, start_embedded_server

        port = start_embedded_server()
        app = MauMauApp(
            "127.0.0.1",
            port,
            name,
            ascii_only,
            on_welcome=functools.partial(create_local_table, variant=args.variant, bots=args.bots),
            remember=False,
            local=True,
        )
    elif args.address:
        parsed = parse_address(args.address)
        if parsed is None:
            text = _("maumau-client: {address} is not host:port")
            print(text.format(address=repr(args.address)), file=sys.stderr)
            raise SystemExit(2)
        app = MauMauApp(
            parsed[0],
            parsed[1],
            name,
            ascii_only,
            replay=args.replay,
            host_key=key,
            key_only_here=here,
        )
        app.replay_password = args.password
    else:
        app = MauMauApp(None, None, name, ascii_only, host_key=key, key_only_here=here)
        app.discover = not args.no_discover
    app.exit_signals = EXIT_SIGNALS
    app.run()
    if os.environ.get("MAUMAU_DEBUG"):
        print("bye", file=sys.stderr)
    if app.return_code:
        raise SystemExit(app.return_code)


if __name__ == "__main__":
    main()

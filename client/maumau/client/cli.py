"""``maumau-client``: play Mau Mau in the terminal.

maumau-client host:port [--name NAME] [--ascii]
maumau-client --replay MATCH_ID host:port   (watch a finished match, then quit)
maumau-client --local [--variant classic|american] [--bots N]
maumau-client                       (asks where to connect)

The exit status is 0, or 1 when ``--replay`` could not show the match (no such
match, still running, a server without records, or no connection); the reason is
printed. SIGTERM and SIGHUP (a closed terminal, a dropped SSH connection) end the
client as a quit does, the terminal restored (the alternate screen left, the cursor
shown, mouse reporting off), with the status 128 + the signal's number; the seat
is kept on the server for a resume.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import os
import signal
import sys

from . import config
from .address import parse_address


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


BOTS_LIMIT = {"classic": 3, "american": 9}  # seats at most (4, 10), less the player's
GAME_NAMES = {"classic": "Mau Mau", "american": "American Mau-Mau"}


def check_bots(parser: argparse.ArgumentParser, variant: str, bots: int) -> None:
    """Refuse a number of bots the game has no seats for, naming the limits (never
    play with fewer bots than asked without saying so)."""
    limit = BOTS_LIMIT[variant]
    if not 1 <= bots <= limit:
        other = "american" if variant == "classic" else "classic"
        parser.error(
            f"--bots: 1 to {limit} for {GAME_NAMES[variant]} ({limit + 1} seats at most), "
            f"not {bots}; {GAME_NAMES[other]} (--variant {other}) takes 1 to {BOTS_LIMIT[other]}"
        )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="maumau-client",
        description="Play Mau Mau and American Mau-Mau in the terminal.",
        epilog=(
            "In the lobby: n new table, s the leaderboard (stats), h match history "
            "(Enter replays a match). Your name is kept for you on the server by a secret in "
            "$XDG_CONFIG_HOME/maumau/client.json."
        ),
    )
    parser.add_argument("address", nargs="?", help="server as host:port, e.g. 192.168.1.20:7766")
    parser.add_argument("--name", help="your name at the table (default: your login name)")
    parser.add_argument("--ascii", action="store_true", help="S H D C instead of ♠ ♥ ♦ ♣")
    parser.add_argument("--local", action="store_true", help="play against bots on this machine")
    parser.add_argument(
        "--variant", choices=["classic", "american"], default="classic", help="with --local"
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=3,
        help="with --local: how many bots (Mau Mau: 1-3, American Mau-Mau: 1-9)",
    )
    parser.add_argument(
        "--replay",
        type=int,
        metavar="MATCH_ID",
        help="watch the replay of a finished match (ids are in the lobby's history, h), "
        "then quit; needs host:port",
    )
    args = parser.parse_args(argv)
    if args.local and args.address:
        parser.error("give either an address or --local, not both")
    if args.replay is not None and (args.local or not args.address):
        parser.error("--replay needs the server's host:port (and no --local)")
    if args.replay is not None and args.replay < 1:
        parser.error("--replay: a match id is a number from 1")
    if args.local:
        check_bots(parser, args.variant, args.bots)
    if args.name is not None and not 1 <= len(args.name.strip()) <= 24:
        parser.error("--name: 1 to 24 characters")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    from .app import MauMauApp, create_local_table

    name = (args.name or default_name()).strip()
    ascii_only = args.ascii or wants_ascii()
    if args.local:
        from .local import start_embedded_server

        port = start_embedded_server()
        app = MauMauApp(
            "127.0.0.1",
            port,
            name,
            ascii_only,
            on_welcome=functools.partial(create_local_table, variant=args.variant, bots=args.bots),
            remember=False,
        )
    elif args.address:
        parsed = parse_address(args.address)
        if parsed is None:
            print(f"maumau-client: {args.address!r} is not host:port", file=sys.stderr)
            raise SystemExit(2)
        app = MauMauApp(parsed[0], parsed[1], name, ascii_only, replay=args.replay)
    else:
        app = MauMauApp(None, None, name, ascii_only)
    app.exit_signals = (signal.SIGTERM, signal.SIGHUP)
    app.run()
    if os.environ.get("MAUMAU_DEBUG"):
        print("bye", file=sys.stderr)
    if app.return_code:
        raise SystemExit(app.return_code)


if __name__ == "__main__":
    main()

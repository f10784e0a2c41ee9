"""``maumau-server``: run the lobby server.

Prints the addresses players can type, logs one line per connection and per table
event, and on SIGINT or SIGTERM tells every client it is shutting down and exits
within 2 seconds.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import logging
import os
import shlex
import signal
import socket
import sqlite3
import sys
from pathlib import Path
from typing import TypeVar

import trio

from maumau.protocol.host_key import FILE_NAME as HOST_KEY_FILE
from maumau.protocol.lan import shown_hosts
from maumau.protocol.messages import PASSWORD_MAX, PROTOCOL_VERSION

from . import kernel_rtt, names, store, web_guests
from .announce import announce
from .bounds import IDLE_TIMEOUT, TABLES_PER_ADDRESS, TABLES_PER_SESSION
from .config import BOT_DELAY, HARD_BUDGET, MAX_CLIENTS, MOVE_RATE, ServerConfig
from .host_rights import HostKeyError, key_file
from .link import FLUSH_INTERVAL
from .server import DEFAULT_PORT, Server, serve
from .tournaments import BREAK_S
from .wheelhouse import DEFAULT_PORT as WHEELHOUSE_PORT
from .wheelhouse import Wheelhouse, WheelhouseError, find_wheel, install_lines

log = logging.getLogger("maumau.server")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="maumau-server",
        description="Run a maumau lobby server: tables of Mau Mau and American Mau-Mau.",
    )
    parser.add_argument("--host", default=None, help="address to listen on (default: all)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 = any)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed for shuffles (default: random)"
    )
    parser.add_argument(
        "--max-clients",
        type=int,
        default=MAX_CLIENTS,
        help=f"most players online at once (default {MAX_CLIENTS})",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=None,
        help="most tables open at once (default: as many as --max-clients)",
    )
    parser.add_argument(
        "--tables-per-session",
        type=int,
        default=TABLES_PER_SESSION,
        help="tables one player may have made that still wait for players "
        f"(default {TABLES_PER_SESSION})",
    )
    parser.add_argument(
        "--tables-per-address",
        type=int,
        default=TABLES_PER_ADDRESS,
        help="tables made from one address that nobody connected is at "
        f"(default {TABLES_PER_ADDRESS})",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=IDLE_TIMEOUT,
        help="seconds a waiting or finished table with nobody connected, or a "
        f"disconnected player without a seat, is kept (default {IDLE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--tournament-break",
        type=float,
        default=BREAK_S,
        metavar="SECONDS",
        help=f"pause between two series of a tournament (default {BREAK_S:g})",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=BOT_DELAY,
        help=f"seconds a bot thinks before it plays (default {BOT_DELAY:g})",
    )
    parser.add_argument(
        "--bot-forgets",
        type=float,
        default=None,
        help="how often every bot forgets to say Mau, 0 to 1 (default: as its level does)",
    )
    parser.add_argument(
        "--hard-budget-ms",
        type=int,
        default=round(HARD_BUDGET * 1000),
        help=f"how long the hard bot may think per move, in ms (default {HARD_BUDGET * 1000:g})",
    )
    parser.add_argument(
        "--commit-every-ms",
        type=float,
        default=FLUSH_INTERVAL * 1000,
        help="under load, commit the journal and send what it allows at most this often, "
        f"in ms: longer saves work, shorter answers sooner (default {FLUSH_INTERVAL * 1000:g})",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help=f"SQLite database: journal, tables, results (default {store.default_path()})",
    )
    parser.add_argument(
        "--no-db",
        action="store_true",
        help="keep nothing: no crash recovery, results, leaderboard or replays",
    )
    parser.add_argument(
        "--hello-timeout",
        type=float,
        default=10.0,
        help="seconds a new connection has to send its hello (default 10)",
    )
    parser.add_argument(
        "--move-rate",
        type=float,
        default=MOVE_RATE,
        help="messages a second one connection may send, bursts of twice that "
        f"(default {MOVE_RATE:g})",
    )
    parser.add_argument(
        "--web",
        type=int,
        default=None,
        metavar="PORT",
        help="also serve the client to browsers and phones on this port (maumau-web; "
        "0 = any): prints the address guests open and its QR code",
    )
    parser.add_argument(
        "--web-max",
        type=int,
        default=20,
        help="with --web: browser guests at once (default 20; about 60 MiB each)",
    )
    parser.add_argument(
        "--web-per-address",
        type=int,
        default=4,
        help="with --web: browser guests at once from one address (default 4)",
    )
    parser.add_argument(
        "--web-idle",
        type=float,
        default=1800,
        metavar="SECONDS",
        help="with --web: seconds a browser tab may sit without a key, click or tap "
        "before its client is closed (default 1800; the seat is kept)",
    )
    parser.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the server on the LAN (DNS-SD), where clients find it",
    )
    parser.add_argument(
        "--announce-name",
        default=socket.gethostname() or "maumau",
        metavar="NAME",
        help="the name clients list the server by (default: this machine's name)",
    )
    parser.add_argument(
        "--wheelhouse",
        type=Path,
        default=None,
        metavar="DIR",
        help="also serve this folder of wheels (made by scripts/wheelhouse) over HTTP, "
        "for guests without internet to install maumau from; prints the lines they type",
    )
    parser.add_argument(
        "--wheelhouse-port",
        type=int,
        default=WHEELHOUSE_PORT,
        metavar="PORT",
        help=f"with --wheelhouse: its port (default {WHEELHOUSE_PORT}; 0 = any)",
    )
    parser.add_argument(
        "--admin",
        action="append",
        default=[],
        metavar="NAME",
        help="also give the host's powers to the player NAME, once their hello proves "
        "the name's secret (needs the database; may be given more than once)",
    )
    parser.add_argument(
        "--password",
        default=None,
        metavar="WORD",
        help="every newcomer must give this server password (the host can set or clear "
        "it at run time too); MAUMAU_PASSWORD in the environment does the same unseen",
    )
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="how much to log (default INFO)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be between 0 and 65535, not {args.port}")
    if args.web is not None and not 0 <= args.web <= 65535:
        parser.error(f"--web must be a port between 0 and 65535, not {args.web}")
    if not 0 <= args.wheelhouse_port <= 65535:
        parser.error(f"--wheelhouse-port must be between 0 and 65535, not {args.wheelhouse_port}")
    name_problem = names.chat_problem(args.announce_name)
    if name_problem is not None or len(args.announce_name) > 63:
        parser.error(f"--announce-name: {name_problem or 'at most 63 characters'}")
    if args.wheelhouse is not None:
        try:
            find_wheel(args.wheelhouse)
        except WheelhouseError as error:
            parser.error(f"--wheelhouse: {error}")
    if not 1 <= args.web_max <= 1000:
        parser.error("--web-max must be between 1 and 1000")
    if not 1 <= args.web_per_address <= 1000:
        parser.error("--web-per-address must be between 1 and 1000")
    if not 10 <= args.web_idle <= 7 * 24 * 3600:
        parser.error("--web-idle must be between 10 and 604800 seconds")
    if args.max_clients < 1:
        parser.error("--max-clients must be at least 1")
    if args.max_tables is not None and args.max_tables < 1:
        parser.error("--max-tables must be at least 1")
    if args.tables_per_session < 1 or args.tables_per_address < 1:
        parser.error("--tables-per-session and --tables-per-address must be at least 1")
    if not 0.1 <= args.idle_timeout <= 86_400:
        parser.error("--idle-timeout must be between 0.1 and 86400 seconds")
    if args.move_rate <= 0:
        parser.error("--move-rate must be above 0")
    if args.bot_forgets is not None and not 0 <= args.bot_forgets <= 1:
        parser.error("--bot-forgets must be between 0 and 1")
    if not 0 <= args.tournament_break <= 3600:
        parser.error("--tournament-break must be between 0 and 3600 seconds")
    if args.bot_delay < 0:
        parser.error("--bot-delay cannot be negative")
    if not 0.1 <= args.hello_timeout <= 600:
        parser.error("--hello-timeout must be between 0.1 and 600 seconds")
    if not 0 <= args.commit_every_ms <= 1000:
        parser.error("--commit-every-ms must be between 0 and 1000")
    if not 0 <= args.hard_budget_ms <= 10_000:
        parser.error("--hard-budget-ms must be between 0 and 10000")
    if args.db is not None and args.no_db:
        parser.error("--db and --no-db cannot be used together")
    if args.admin and args.no_db:
        parser.error("--admin needs the database: a name is proven by its secret, kept there")
    for admin in args.admin:
        problem = names.name_problem(admin)
        if problem is not None:
            parser.error(f"--admin {admin}: {problem}")
    if args.password is None:
        args.password = os.environ.get("MAUMAU_PASSWORD") or None
    if args.password is not None and not 1 <= len(args.password) <= PASSWORD_MAX:
        parser.error(f"--password must be 1 to {PASSWORD_MAX} characters")
    return args


async def run(args: argparse.Namespace, db: store.Store | None, host_key: bytes) -> None:
    config = ServerConfig(
        seed=args.seed,
        max_clients=args.max_clients,
        bot_delay=args.bot_delay,
        bot_forgets=args.bot_forgets,
        move_rate=args.move_rate,
        hello_timeout=args.hello_timeout,
        hard_budget=args.hard_budget_ms / 1000,
        flush_interval=args.commit_every_ms / 1000,
        max_tables=args.max_tables,
        tables_per_session=args.tables_per_session,
        tables_per_address=args.tables_per_address,
        idle_timeout=args.idle_timeout,
        tournament_break=args.tournament_break,
        host_key=host_key,
        admins=tuple(args.admin),
        password=args.password,
    )
    server = Server(config, db)
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, server, args.port, args.host)
            hosts = shown_hosts(args.host)
            print(f"maumau-server listening on port {port}. Players can connect with:", flush=True)
            for host in hosts:
                shown = f"[{host}]" if ":" in host else host
                print(f"  maumau-client {shown}:{port}", flush=True)
            if db is not None:
                print(f"Games are journaled to {db.path}", flush=True)
            print(
                f"The host key is {host_key_file(db)}: maumau-client on this machine, as "
                "this user, has the host's powers (elsewhere: --admin-key FILE)",
                flush=True,
            )
            if args.password is not None:
                print("Newcomers must give the server password.", flush=True)
            wheels = None
            if args.wheelhouse is not None:
                wheels = Wheelhouse(args.wheelhouse, args.host or "0.0.0.0", args.wheelhouse_port)
                wheels.start()
                show_wheelhouse(wheels, hosts)
            web = None
            if args.web is not None:
                web, web_port = await web_guests.start(
                    web_game(args.host, port),
                    args.host or "0.0.0.0",
                    args.web,
                    str(web_key_file(db)),
                    args.web_max,
                    args.web_per_address,
                    args.web_idle,
                )
                watching = trio.CancelScope()

                async def watch_web(process: trio.Process = web) -> None:
                    with watching:
                        await web_guests.watch(process)

                nursery.start_soon(watch_web)
            if not args.no_announce and not loopback_only(args.host):
                web_url = None
                if args.web is not None and hosts:
                    shown = f"[{hosts[0]}]" if ":" in hosts[0] else hosts[0]
                    web_url = f"http://{shown}:{web_port}/"
                nursery.start_soon(announced, args, port, server, web_url)
            async for signum in signals:
                log.info("received %s", signal.Signals(signum).name)
                break
            if wheels is not None:
                wheels.stop()
            async with trio.open_nursery() as stopping:
                if web is not None:
                    watching.cancel()
                    stopping.start_soon(web_guests.stop, web)
                with trio.move_on_after(1.5):
                    await server.shutdown()
            nursery.cancel_scope.cancel()


def loopback_only(host: str | None) -> bool:
    """Whether the server listens on this machine's loopback only: nobody on the LAN
    could connect, so it is not announced there."""
    if host in (None, "", "0.0.0.0", "::"):
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def announced(
    args: argparse.Namespace, port: int, server: Server, web_url: str | None
) -> None:
    """Announce the server on the LAN (see :mod:`.announce`); a LAN where that
    cannot be done is said in the log, and the server plays on without it."""
    try:
        await announce(
            args.announce_name,
            port,
            args.host,
            PROTOCOL_VERSION,
            lambda: len(server.online()),
            web_url,
        )
    except Exception as error:  # no multicast, no interface: the game goes on
        log.warning("the server is not announced on the LAN: %s", error)


def show_wheelhouse(wheels: Wheelhouse, hosts: list[str]) -> None:
    """The lines a guest without internet types to install maumau from the server."""
    urls = [f"http://{f'[{h}]' if ':' in h else h}:{wheels.port}/" for h in hosts]
    print(f"Guests without internet install maumau from {urls[0]} with one of:", flush=True)
    for line in install_lines(urls[0], wheels.wheel.name):
        print(f"  {line}", flush=True)
    for other in urls[1:]:
        print(f"  (or from {other})", flush=True)


def web_game(host: str | None, port: int) -> str:
    """The game's address for the web server's guests, on this machine."""
    if host in (None, "", "0.0.0.0"):
        return f"127.0.0.1:{port}"
    if host == "::":
        return f"[::1]:{port}"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def host_key_file(db: store.Store | None) -> Path:
    """The host key: beside the database (see :mod:`.host_rights`)."""
    base = Path(db.path) if db is not None else store.default_path()
    return base.with_name(HOST_KEY_FILE)


def web_key_file(db: store.Store | None) -> Path:
    """The browser guests' name key: beside the database (it makes the secrets the
    database keeps the hashes of)."""
    base = Path(db.path) if db is not None else store.default_path()
    return base.with_name("web.key")


def raise_open_file_limit() -> None:
    """Allow as many open connections as the system lets this process have."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


E = TypeVar("E", bound=BaseException)


def _first_error(error: BaseException, kind: type[E]) -> E | None:
    """``error`` if it is a ``kind``, else the first ``kind`` in its group."""
    if isinstance(error, kind):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = _first_error(inner, kind)
            if found is not None:
                return found
    return None


def unusable_database(error: store.StoreDamaged) -> str:
    """One line: what is wrong with the database file, its path, and what to do."""
    path = error.path
    if error.kind == "not-a-database":
        return (
            f"{path} is not a SQLite database, so it cannot be the maumau "
            "database: name the right file with --db PATH, or move this one aside to start "
            "with a new, empty database, or run with --no-db"
        )
    if error.kind == "foreign":
        return (
            f"{path} is not maumau's: it is {error.problem}. Leave it alone and give the "
            "server a file of its own with --db PATH, or run with --no-db"
        )
    original = Path(path)
    saved = str(original.with_name(f"{original.stem}-recovered{original.suffix or '.db'}"))
    return (
        f"the database {path} is damaged ({error.problem}). Move it aside to start with a "
        f"new, empty one (`sqlite3 {shlex.quote(path)} .recover | sqlite3 "
        f"{shlex.quote(saved)}` may save what it holds, then use --db {shlex.quote(saved)}), "
        "or run with --no-db"
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, args.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # The server makes many short-lived objects and few cycles: collect less often,
    # and never scan what was loaded at start-up.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    raise_open_file_limit()
    db: store.Store | None = None
    if not args.no_db:
        path = args.db or str(store.default_path())
        try:
            db = store.Store(path)
        except store.StoreDamaged as error:
            print(f"maumau-server: {unusable_database(error)}", file=sys.stderr)
            raise SystemExit(1) from None
        except (store.StoreError, OSError) as error:
            print(f"maumau-server: {error}", file=sys.stderr)
            raise SystemExit(1) from None
        except sqlite3.DatabaseError as error:  # damage the check at opening did not see
            damaged = store.StoreDamaged(path, "damaged", str(error))
            print(f"maumau-server: {unusable_database(damaged)}", file=sys.stderr)
            raise SystemExit(1) from None
        log.info("database: %s", path)
    try:
        host_key = key_file(host_key_file(db))
    except HostKeyError as error:
        print(f"maumau-server: the host key: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    measured, how = kernel_rtt.available()
    if measured:
        log.info("lag compensation: credits bounded by the kernel's round trips (%s)", how)
    else:
        log.info("lag compensation: %s, so the pongs alone bound credits", how)
    try:
        trio.run(run, args, db, host_key)
    except (OSError, web_guests.WebFailed, WheelhouseError, BaseExceptionGroup) as error:
        web_failure = _first_error(error, web_guests.WebFailed)
        if web_failure is not None:
            print(f"maumau-server: --web {args.web}: {web_failure}", file=sys.stderr)
            raise SystemExit(1) from None
        wheels_failure = _first_error(error, WheelhouseError)
        if wheels_failure is not None:
            print(f"maumau-server: --wheelhouse: {wheels_failure}", file=sys.stderr)
            raise SystemExit(1) from None
        failure = _first_error(error, OSError)
        if failure is None:
            raise
        print(
            f"maumau-server: cannot listen on port {args.port}: {failure.strerror}", file=sys.stderr
        )
        raise SystemExit(1) from None
    print("maumau-server stopped.", flush=True)


if __name__ == "__main__":
    main()

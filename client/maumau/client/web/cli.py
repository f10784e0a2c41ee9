"""``maumau-web``: serve the client to the party's browsers and phones.

maumau-web [GAME_HOST:PORT] [--host H] [--port P] [--max N] [--max-per-address N]
           [--idle S] [--key-file PATH] [--no-qr]

Prints the address guests type (every LAN address of this machine, never
``0.0.0.0``) and shows the first as a QR code for phones; ``maumau-server --web
PORT`` runs it beside the game server. Stops on SIGINT or SIGTERM, every guest's
client process first. ``--ready-fd FD`` (for ``maumau-server``) writes the port to
that file descriptor once the server listens, then closes it; a web server started
so also stops by itself when that parent is gone (a killed ``maumau-server`` leaves
no web server holding its port, nor guests playing on a dead game).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from maumau.protocol.lan import shown_hosts

from ..address import parse_address

DEFAULT_PORT = 8080
DEFAULT_GAME = "127.0.0.1:7766"
PARENT_CHECK_SECONDS = 1.0


def default_key_file() -> Path:
    """``maumau/web.key`` in the platform's data directory (beside the server's
    database)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("maumau", appauthor=False)) / "web.key"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="maumau-web",
        description="Serve the maumau client to browsers and phones on the LAN: each "
        "visitor gets their own client, playing on the game server GAME.",
    )
    parser.add_argument(
        "game",
        nargs="?",
        default=DEFAULT_GAME,
        metavar="GAME",
        help=f"the game server as host:port (default {DEFAULT_GAME})",
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 = any)"
    )
    parser.add_argument(
        "--max", type=int, default=20, help="browser guests at once (default 20; about 60 MiB each)"
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=4,
        help="browser guests at once from one address (default 4)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=1800,
        help="seconds a tab may sit without a key, click or tap before its client is "
        "closed (default 1800; the seat is kept as for any dropped player)",
    )
    parser.add_argument(
        "--key-file",
        type=Path,
        default=None,
        help="the file of the key that turns a guest's name and PIN into the name's "
        "secret (made when missing; default: web.key beside the server's database)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name guests may use for this server besides its IP addresses, localhost "
        "and its host name (e.g. a proxy's), repeatable",
    )
    parser.add_argument("--no-qr", action="store_true", help="print no QR code")
    parser.add_argument("--ready-fd", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if parse_address(args.game) is None:
        parser.error(f"GAME must be host:port, not {args.game!r}")
    if not 0 <= args.port < 65536:
        parser.error("--port must be between 0 and 65535")
    if not 1 <= args.max <= 1000:
        parser.error("--max must be between 1 and 1000")
    if not 1 <= args.max_per_address <= 1000:
        parser.error("--max-per-address must be between 1 and 1000")
    if not 10 <= args.idle <= 7 * 24 * 3600:
        parser.error("--idle must be between 10 and 604800 seconds")
    return args


def guest_urls(host: str, port: int) -> list[str]:
    """The URLs guests type: one per LAN address (loopback last)."""
    return [f"http://{'[' + h + ']' if ':' in h else h}:{port}/" for h in shown_hosts(host)]


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with half blocks (two rows of modules a line), light
    modules as blocks: scannable on a dark terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def announce(host: str, port: int, game: str, qr: bool) -> None:
    urls = guest_urls(host, port)
    print(f"maumau-web on port {port}, for the game server {game}. Guests open:", flush=True)
    for url in urls:
        print(f"  {url}", flush=True)
    encoding = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "")
    if qr and encoding == "utf8":
        print(qr_text(urls[0]), end="", flush=True)
        print(f"  (a phone's camera opens {urls[0]})", flush=True)


async def watch_parent(parent: int, stop: Callable[[], object]) -> None:
    """Call ``stop`` once this process's parent is no longer ``parent`` (it died: the
    process was handed to another). Not PR_SET_PDEATHSIG: maumau-server starts this
    process from a worker thread, whose end would send the signal."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_SECONDS)
    logging.getLogger("maumau.web").warning("maumau-server is gone: stopping")
    stop()


async def serve(args: argparse.Namespace, key: bytes, parent: int | None = None) -> None:
    from .server import GuestServer

    server = GuestServer(
        args.game,
        key,
        host=args.host,
        port=args.port,
        max_guests=args.max,
        max_per_address=args.max_per_address,
        idle_seconds=args.idle,
        allowed_hosts=tuple(args.allow_host),
    )

    def ready(port: int) -> None:
        if args.ready_fd is not None:  # first: whoever reads the address may act at once
            with contextlib.suppress(OSError):
                os.write(args.ready_fd, f"{port}\n".encode())
                os.close(args.ready_fd)
        announce(args.host, port, args.game, not args.no_qr)

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, task.cancel)
    watcher = None if parent is None else asyncio.create_task(watch_parent(parent, task.cancel))
    with contextlib.suppress(asyncio.CancelledError):
        await server.run(ready)
    if watcher is not None:
        watcher.cancel()


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    parent = os.getppid() if args.ready_fd is not None else None
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    from .identity import load_key

    key_file = args.key_file or default_key_file()
    try:
        key = load_key(key_file)
    except (OSError, ValueError) as error:
        print(f"maumau-web: the key file: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    try:
        asyncio.run(serve(args, key, parent))
    except OSError as error:
        print(f"maumau-web: cannot listen on port {args.port}: {error.strerror}", file=sys.stderr)
        raise SystemExit(1) from None
    print("maumau-web stopped.", flush=True)


if __name__ == "__main__":
    main()

"""``maumau-server --web PORT``: the browser guests' web server, run beside the game.

The web server (``maumau-web``, in the client's package: it serves the client) runs
as a child process of the game server, on the asyncio loop it needs, and plays on
this server over loopback like any client. :func:`start` starts it and waits until
it listens (it writes its port to a pipe; it prints the guests' address and QR code
to the same terminal); a child that ends before that (its port taken, say) is an
error that stops the start. :func:`stop` asks it to stop (SIGTERM: it ends every
guest's process first) and kills it if it has not within :data:`STOP_SECONDS`. Should
this server die without stopping it (SIGKILL), the web server sees its parent gone
within a second and stops the same way (``maumau.client.web.cli``); should the web
server itself be killed, the kernel ends every guest's process (see
``maumau.client.web.service``).
"""

from __future__ import annotations

import logging
import os
import signal
import sys

import trio

log = logging.getLogger("maumau.server")

STOP_SECONDS = 6.0
READY_SECONDS = 30.0


class WebFailed(Exception):
    """The web server ended before it listened (its own message is on stderr)."""


async def start(
    game: str,
    host: str,
    port: int,
    key_file: str,
    max_guests: int,
    per_address: int,
    idle_seconds: float,
) -> tuple[trio.Process, int]:
    """Start ``maumau-web`` for the game at ``game`` (``host:port``); the process and
    the port it listens on."""
    read_end, write_end = os.pipe()
    argv = [
        sys.executable,
        "-m",
        "maumau.client.web",
        game,
        "--host",
        host,
        "--port",
        str(port),
        "--max",
        str(max_guests),
        "--max-per-address",
        str(per_address),
        "--idle",
        f"{idle_seconds:g}",
        "--key-file",
        key_file,
        "--ready-fd",
        str(write_end),
    ]
    try:
        process = await trio.lowlevel.open_process(argv, pass_fds=(write_end,))
    finally:
        os.close(write_end)
    said = b""
    with trio.move_on_after(READY_SECONDS):
        async with trio.lowlevel.FdStream(read_end) as stream:
            while chunk := await stream.receive_some(64):
                said += chunk
    if not said.strip().isdigit():
        await stop(process)
        raise WebFailed(f"maumau-web ended before it listened (exit {process.returncode})")
    return process, int(said)


async def watch(process: trio.Process) -> None:
    """Log it if the web server ends while the game goes on (the browser guests have
    lost their page; the game server plays on for everyone else)."""
    code = await process.wait()
    log.error(
        "maumau-web ended (exit %s): browser guests cannot play until the server is started again",
        code,
    )


async def stop(process: trio.Process) -> None:
    """SIGTERM, then SIGKILL after :data:`STOP_SECONDS`; waits for the end."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        with trio.move_on_after(STOP_SECONDS):
            await process.wait()
    if process.returncode is None:
        process.kill()
        await process.wait()

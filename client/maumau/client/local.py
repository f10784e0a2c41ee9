"""One-command local play: an embedded server on 127.0.0.1, in a background thread.

Theory of operation
-------------------
``maumau-client --local`` starts a server in this process
(:func:`start_embedded_server`), points the app at it, and makes the table when the
server has said ``welcome`` (:func:`create_local_table`, the app's one-shot
``on_welcome``): a table with bots, whose match the table screen starts once it is
shown, so nobody plays before the player sees the table. Leaving that table quits.

This is the only place the client uses ``maumau.server``, and it imports it only
when ``--local`` is asked for.
"""

from __future__ import annotations

import queue
import threading

from maumau.protocol.messages import CreateTable

from .app import MauMauApp


def start_embedded_server(seed: int | None = None) -> int:
    """Start a maumau server on 127.0.0.1 on a free port, with the server's defaults
    (and ``seed``); returns the port. The server runs in a daemon thread and ends
    with the process."""
    import trio

    from maumau.server.config import ServerConfig
    from maumau.server.server import Server, serve

    config = ServerConfig(seed=seed)

    ports: queue.Queue[int | BaseException] = queue.Queue()

    async def main() -> None:
        server = Server(config)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, server, 0, "127.0.0.1")
            ports.put(port)

    def run() -> None:
        try:
            trio.run(main)
        except BaseException as error:
            ports.put(error)

    threading.Thread(target=run, name="maumau-local-server", daemon=True).start()
    result = ports.get(timeout=10)
    if isinstance(result, BaseException):
        raise RuntimeError(f"the local server did not start: {result}")
    return result


async def create_local_table(app: MauMauApp, variant: str, bots: int) -> None:
    """After the welcome of ``--local`` play: make a table with bots (the table
    screen starts its match once it is shown: nobody plays before the player sees
    the table)."""
    seats = bots + 1
    await app.send(
        CreateTable("Local", {"variant": variant, "seats": seats}, tuple(range(1, seats)))
    )

"""``maumau-server --wheelhouse DIR``: the party's wheels, served on the LAN.

A party without internet installs maumau from a wheelhouse: a folder of maumau's
wheel and the wheels of what it needs, for the platforms and Pythons guests bring
(``scripts/wheelhouse`` builds one where there is internet). The server can serve
that folder over plain HTTP, beside the game, so that a guest's pip (or uv, or pipx)
finds the wheels at the server's address: :class:`Wheelhouse` runs Python's own
HTTP file server in a thread, its directory listing being the page of links pip
reads (``--find-links``). The folder is read only; at most MAX_REQUESTS requests are
served at once (more are closed unanswered), so the game is not starved by them.
:func:`install_lines` are the lines a guest types, printed at the server's start.
"""

from __future__ import annotations

import functools
import http.server
import logging
import shlex
import socket
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger("maumau.server")

DEFAULT_PORT = 7768
MAX_REQUESTS = 16  # served at once


class WheelhouseError(Exception):
    """The folder is no wheelhouse, or its port cannot be listened on."""


def find_wheel(folder: Path) -> Path:
    """maumau's own wheel in ``folder`` (the newest, if there are several)."""
    if not folder.is_dir():
        raise WheelhouseError(f"{folder} is not a folder")
    wheels = sorted(folder.glob("maumau-*.whl"), key=lambda w: w.stat().st_mtime)
    if not wheels:
        raise WheelhouseError(f"{folder} has no maumau wheel: build it with scripts/wheelhouse")
    return wheels[-1]


def install_lines(source: str, wheel_name: str) -> list[str]:
    """What a guest types to install maumau from ``source``: a folder, or the address
    of a server serving it (plain HTTP: pip must be told to trust that host). pipx is
    given pip's options itself: it does not pass ``PIP_*`` variables on to uv."""
    if "://" in source:
        base = source.rstrip("/") + "/"
        host = base.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[0]
        where, wheel = base, base + wheel_name
        pip_args = f"--no-index --find-links {base} --trusted-host {host.strip('[]')}"
    else:
        where, wheel = shlex.quote(source), shlex.quote(str(Path(source) / wheel_name))
        pip_args = f"--no-index --find-links {where}"
    return [
        f"pipx install --pip-args={shlex.quote(pip_args)} {wheel}",
        f"uv tool install --no-index --find-links {where} maumau",
        f"python3 -m pip install {pip_args} maumau",
    ]


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        log.debug("wheelhouse: %s %s", self.address_string(), format % args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any) -> None:
        self.slots = threading.BoundedSemaphore(MAX_REQUESTS)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)  # too many at once: closed unanswered
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


class Wheelhouse:
    """The folder ``folder`` served over HTTP on ``host``:``port`` (0: any free port)."""

    def __init__(self, folder: Path, host: str, port: int) -> None:
        self.folder = folder.resolve()
        self.wheel = find_wheel(self.folder)
        handler = functools.partial(_Handler, directory=str(self.folder))
        try:
            self._server = _Server((host, port), handler)
        except OSError as error:
            raise WheelhouseError(f"the wheelhouse cannot listen on port {port}: {error}") from None
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="wheelhouse", daemon=True
        )

    def start(self) -> None:
        self._thread.start()
        log.info("wheelhouse %s served on port %d", self.folder, self.port)

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

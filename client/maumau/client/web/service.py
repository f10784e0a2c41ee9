"""One browser tab's client process, started and ended by the web server.

:class:`GuestService` is textual-serve's ``AppService`` with what a party needs of it:

- **No shell, no inherited environment.** The guest is started with ``exec`` (never
  through a shell) as ``python -m maumau.client.web.guest``, with an environment made
  here: the game server's address, the host's key, the visitor's languages, a UTF-8
  locale, and a private, empty home (``HOME`` and the ``XDG_*`` folders) that is
  removed when the process ends. Nothing of the host's environment reaches it.
- **It ends with its tab, and with the web server.** :meth:`GuestService.stop` asks the
  client to quit, then terminates and kills it if it has not ended within
  :data:`STOP_SECONDS` each; on Linux the process also gets SIGTERM from the kernel if
  the web server itself dies (``PR_SET_PDEATHSIG``). The client's quit drops its
  connection without a ``bye``: the server keeps the seat for the guest's return. A
  client process that ends by itself (a quit, a crash, a kill) closes its tab.
- **It knows when its visitor last did something** (:attr:`GuestService.last_input`:
  a key, a click, a tap or a resize on the server's monotonic clock), so the web
  server can close an idle tab's process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from importlib.metadata import version
from pathlib import Path

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

STOP_SECONDS = 2.0  # after a quit, then after SIGTERM, before the next step
GUEST_MODULE = "maumau.client.web.guest"
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """In the child, before exec: SIGTERM when the web server dies (Linux only)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class GuestService(AppService):
    """One tab's client process (see the module docstring)."""

    def __init__(
        self,
        *,
        environment: Mapping[str, str],
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
    ) -> None:
        super().__init__(
            GUEST_MODULE,
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.environment = dict(environment)
        self.home: str | None = None
        self.last_input = time.monotonic()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        assert self.home is not None
        home = Path(self.home)
        return {
            **self.environment,
            "PATH": os.defpath,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
            "TEXTUAL_FPS": "60",
            "TEXTUAL_COLOR_SYSTEM": "truecolor",
            "TERM_PROGRAM": "textual",
            "TERM_PROGRAM_VERSION": version("textual-serve"),
            "COLUMNS": str(width),
            "ROWS": str(height),
        }

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        self.home = tempfile.mkdtemp(prefix="maumau-web-guest-")
        self._process = process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            GUEST_MODULE,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width, height),
            cwd=self.home,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """textual-serve's loop over the client's output; then the tab is closed,
        however the process ended: a client that was killed (or crashed) sends no
        "exit", and its tab would sit frozen, holding a browser seat."""
        try:
            await super().run()
        finally:
            with contextlib.suppress(Exception):
                await self.remote_close()

    async def send_bytes(self, data: bytes) -> bool:
        self.last_input = time.monotonic()
        return await super().send_bytes(data)

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.last_input = time.monotonic()
        await super().set_terminal_size(width, height)

    async def stop(self) -> None:
        """Ask the client to quit; terminate, then kill it if it lingers; remove its
        home. Bounded: at most about 2 × :data:`STOP_SECONDS`."""
        process = self._process
        if self._task is not None:
            task, self._task = self._task, None
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send_meta({"type": "quit"}), STOP_SECONDS)
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), STOP_SECONDS)
            if process is not None and process.returncode is None:
                for sending in (process.terminate, process.kill):
                    with contextlib.suppress(ProcessLookupError):
                        sending()
                    try:
                        await asyncio.wait_for(process.wait(), STOP_SECONDS)
                        break
                    except TimeoutError:
                        continue
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, TimeoutError):
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

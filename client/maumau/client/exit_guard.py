"""The client leaves within a bound when told to stop, or when its terminal is gone.

Why a guard is needed
---------------------
Textual's ``LinuxDriver`` reads the terminal in one thread (``textual-input``, a
``select`` and ``os.read`` of stdin) and writes it from another (``textual-output``, a
``WriterThread`` fed through a queue of at most 30 writes, writing stderr). When the
terminal is gone (its pseudo-terminal's other end closed: a terminal window closed,
``tmux kill-session``, a dropped SSH connection), the kernel hangs the terminal up:
a read returns EOF at once, which the input thread takes for a piped stdin and so
polls again at once (a core busy), and a write fails with EIO, which ends the writer
thread by its exception. The app is not told: it queues its frames until the queue is
full, then blocks on the queue in the asyncio loop's own thread. When the terminal is
alive but nobody reads it (a stalled connection), the writer blocks in ``write`` and
the same follows. A loop blocked there never runs a handler added with
``loop.add_signal_handler``: SIGTERM, SIGHUP and SIGINT were ignored, and only SIGKILL
ended the process, which held its seat and a share of a core.

What the guard does
-------------------
:class:`ExitGuard` owns the exit signals and watches the terminal from a thread of its
own, outside the loop:

- the signal handlers only write the signal's number to a pipe. They are Python's
  handlers, which run in the main thread even while the loop is blocked on a lock or
  in a system call (the wait is interrupted, the handler runs, the wait goes on);
- the guard thread polls that pipe and the terminal's descriptors: a hung-up
  terminal reports POLLHUP (whatever reading or writing it would say: EOF, EIO), and
  counts as SIGHUP;
- the first of these begins the exit: the app's own exit is asked for on the loop
  (``on_exit(signum)``, as a quit, restoring the terminal when it is there). If the
  process has not ended :data:`GRACE` seconds later, the guard runs its last words
  (each in a thread of their own, together at most :data:`LAST_WORDS` seconds: the
  terminal's modes put back, a browser guest's home removed) and ends the process
  with ``os._exit(128 + signum)``. The connection then closes with the process, as
  any dropped connection does: the server keeps the seat for a resume.

So the client is gone within about 1.5 seconds of the signal or the hang-up, whatever
it was doing; a signal after the first changes nothing.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

# The signals that end the client (those this system has): SIGTERM, SIGHUP (the
# terminal or the SSH connection gone), and SIGINT (``kill -INT``: in the raw mode of
# the app, the terminal never sends it for Ctrl+C, which is a key).
EXIT_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)
GRACE = 1.0  # seconds the app's own exit may take before the process is ended
LAST_WORDS = 0.3  # seconds the last words may take, all together


def terminal_fds() -> list[int]:
    """The descriptors of stdin, stdout and stderr that are terminals (for a browser
    guest, whose are pipes, none)."""
    found: list[int] = []
    for stream in (sys.__stdin__, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            assert stream is not None
            fd = stream.fileno()
            if os.isatty(fd) and fd not in found:
                found.append(fd)
    return found


class ExitGuard:
    """Ends the process within :data:`GRACE` (plus :data:`LAST_WORDS`) seconds of the
    first of ``signals`` or of the terminal's hang-up (see the module's docstring).

    ``on_exit(signum)`` is called on the loop to begin the app's own exit; each of
    ``last_words`` is called (in a thread of its own, its errors ignored) before the
    process is ended by force."""

    def __init__(
        self,
        signals: Iterable[signal.Signals],
        on_exit: Callable[[signal.Signals], object],
        last_words: Iterable[Callable[[], object]] = (),
        terminal: Iterable[int] | None = None,
        grace: float = GRACE,
    ) -> None:
        self.signals = tuple(signals)
        self.on_exit = on_exit
        self.last_words = list(last_words)
        self.terminal = list(terminal_fds() if terminal is None else terminal)
        self.grace = grace
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._thread = threading.Thread(target=self._watch, name="maumau-exit-guard", daemon=True)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take the signals over (from asyncio too, if it had them) and start watching.
        Call it in the main thread, on the running ``loop``."""
        self.loop = loop
        for signum in self.signals:
            with contextlib.suppress(RuntimeError, ValueError):
                loop.remove_signal_handler(signum)  # one owner: an earlier one would run too
            signal.signal(signum, self._signalled)
        self._thread.start()

    def _signalled(self, signum: int, _frame: FrameType | None) -> None:
        """The signal handler: only tell the guard thread (never blocks)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_write, bytes([signum]))

    def _watch(self) -> None:
        poller = select.poll()
        poller.register(self._wake_read, select.POLLIN)
        for fd in self.terminal:
            poller.register(fd, 0)  # POLLHUP, POLLERR and POLLNVAL only: the terminal gone
        signum: signal.Signals | None = None
        while signum is None:
            for fd, _events in poller.poll():
                if fd == self._wake_read:
                    got = os.read(self._wake_read, 64)
                    if got and signum is None:
                        signum = signal.Signals(got[0])
                elif signum is None:
                    signum = signal.SIGHUP
        if self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: already leaving
                self.loop.call_soon_threadsafe(self.on_exit, signum)
        time.sleep(self.grace)
        self._say_last_words()
        os._exit(128 + signum)

    def _say_last_words(self) -> None:
        threads = [
            threading.Thread(target=self._quietly, args=(words,), daemon=True)
            for words in self.last_words
        ]
        deadline = time.monotonic() + LAST_WORDS
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    @staticmethod
    def _quietly(words: Callable[[], object]) -> None:
        with contextlib.suppress(Exception):
            words()

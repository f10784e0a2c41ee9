"""What the benchmarks share so that they never hang and never lie.

- :class:`BenchError`: why a bench cannot go on (a refusal, a stall, a deadline, a
  process that would not stop). :func:`report_error` prints it as a JSON line
  ``{"error": ...}`` on stdout and as ``<bench>: ...`` on stderr; the bench then exits
  with status 1. :func:`refusal` words an ``error`` message from the server: its
  code, text and what it answered.
- :class:`Processes`: every process a bench starts (servers, clients, tmux's), ended
  by PID at the end, in a ``finally``: SIGTERM, then SIGKILL after a bound. Processes
  it did not start itself but found running for it (the programs in a tmux pane) are
  *adopted* by PID and start time, so that a PID used again by someone else is never
  signalled.
- :class:`Deadline`: a bench's overall deadline. :meth:`Deadline.alarm` makes it raise
  :class:`DeadlineExpired` in the main thread (for benches whose main thread blocks in
  plain calls); async benches wrap their run in their framework's timeout with
  :meth:`Deadline.left` instead. :meth:`Deadline.watchdog` is the last resort of
  both: a thread that, a grace period after the deadline, prints the error, kills
  every process of :class:`Processes` and ends the bench (``os._exit``), whatever its
  main thread is stuck in.
- :class:`Output`: a child's stdout, read by a thread line by line (so its pipe never
  fills), and :meth:`Output.wait_for` a line, with a timeout and failing if the child
  ends first; :func:`server_command` the command line of ``maumau-server`` from the
  source tree (under cProfile or ``sampler.py`` if asked).
- :func:`raise_nofile` lifts the soft limit of open files to the hard one (children
  inherit it); :func:`loopback_source` gives the n-th loopback address for a bench's
  clients to connect from (all of 127.0.0.0/8 is loopback on Linux), so that a server's
  caps per address do not limit what a bench measures.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
SERVER_PATH = os.pathsep.join(str(ROOT / part) for part in ("protocol", "server"))
TERM_GRACE = 10.0  # seconds between SIGTERM and SIGKILL, by default


class BenchError(Exception):
    """A bench cannot go on; the text says why."""


class DeadlineExpired(BenchError):
    """The bench's overall deadline has passed."""


def unwrap(error: BaseException) -> BaseException:
    """What to report of ``error``, maybe an exception group of a nursery or task group
    (maybe nested): the first :class:`BenchError` in it; else the first lost or
    refused connection in it, as a BenchError; else ``error`` itself."""
    leaves = list(_leaves(error))
    for leaf in leaves:
        if isinstance(leaf, BenchError):
            return leaf
    for leaf in leaves:
        if isinstance(leaf, OSError | EOFError):
            return BenchError(f"a connection to the server failed: {leaf!r}")
    return error


def _leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def refusal(error: Mapping[str, Any] | Any, who: str = "") -> str:
    """An ``error`` message from the server (a decoded map or an ``Error``), worded:
    what it refused, its code and its text."""
    if isinstance(error, Mapping):
        code, text, ref = error.get("code"), error.get("message"), error.get("ref")
    else:
        code, text, ref = error.code, error.message, error.ref
    what = f"{ref}" if ref else "a request"
    prefix = f"{who}: " if who else ""
    return f"{prefix}the server refused {what}: {code}: {text}"


def report_error(bench: str, message: str, **extra: Any) -> None:
    """The bench's error: a JSON line on stdout, a plain line on stderr."""
    print(json.dumps({"error": message, **extra}), flush=True)
    print(f"{bench}: {message}", file=sys.stderr, flush=True)


def raise_nofile() -> int:
    """Lift this process's soft limit of open files to its hard limit (children
    inherit it); returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def loopback_source(n: int, block: int = 1) -> str:
    """The ``n``-th loopback address of ``block`` (127.block.x.y, x and y in 1..254,
    254 * 254 of them per block, the next block after): one for a bench's clients to
    bind to before they connect."""
    return f"127.{block + n // 64516}.{n // 254 % 254 + 1}.{n % 254 + 1}"


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks after boot), None if there is no such
    process or it is a zombie."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = data[data.rindex(")") + 2 :].split()
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (its children, theirs, ...)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            data = stat.read_text()
        except OSError:
            continue
        ppid = int(data[data.rindex(")") + 2 :].split()[1])
        parents.setdefault(ppid, []).append(int(stat.parent.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


class Processes:
    """Every process a bench started or adopted; :meth:`end_all` ends them by PID."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[Any]] = []
        self.adopted: dict[int, int] = {}  # pid -> its start time
        self._lock = threading.Lock()

    def start(self, command: Sequence[str], **options: Any) -> subprocess.Popen[Any]:
        process: subprocess.Popen[Any] = subprocess.Popen(command, **options)
        with self._lock:
            self.started.append(process)
        return process

    def adopt(self, pids: Iterable[int]) -> None:
        """Processes this bench caused but did not start itself (a tmux pane's)."""
        with self._lock:
            for pid in pids:
                started = start_time(pid)
                if started is not None:
                    self.adopted.setdefault(pid, started)

    def alive_adopted(self, pids: Iterable[int] | None = None) -> list[int]:
        """The adopted processes (of ``pids``, if given) that still run."""
        chosen = self.adopted if pids is None else [p for p in pids if p in self.adopted]
        return [pid for pid in chosen if start_time(pid) == self.adopted[pid]]

    def signal_adopted(self, pids: Iterable[int], signum: int) -> None:
        for pid in self.alive_adopted(pids):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)

    def end(self, process: subprocess.Popen[Any], grace: float = TERM_GRACE) -> bool:
        """SIGTERM to ``process``, SIGKILL after ``grace`` seconds; True if it ended
        of itself (or had ended), False if it had to be killed."""
        if process.poll() is not None:
            return True
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(grace)
            return True
        except subprocess.TimeoutExpired:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
            return False

    def end_adopted(self, pids: Iterable[int], grace: float = TERM_GRACE) -> list[int]:
        """SIGTERM to those of ``pids`` still running, SIGKILL after ``grace``; returns
        the ones that had to be killed."""
        chosen = list(pids)
        self.signal_adopted(chosen, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while self.alive_adopted(chosen) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = self.alive_adopted(chosen)
        self.signal_adopted(left, signal.SIGKILL)
        return left

    def end_all(self, grace: float = TERM_GRACE) -> list[int]:
        """End every process started or adopted (SIGTERM to all, SIGKILL after
        ``grace`` to any left); returns the PIDs that had to be killed."""
        with self._lock:
            started = [p for p in self.started if p.poll() is None]
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        self.signal_adopted(list(self.adopted), signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and (
            any(p.poll() is None for p in started) or self.alive_adopted()
        ):
            time.sleep(0.05)
        killed = [p.pid for p in started if p.poll() is None] + self.alive_adopted()
        self.kill_all()
        for process in started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
        return killed

    def kill_all(self) -> None:
        """SIGKILL to everything still running (no waiting: the watchdog's way)."""
        with self._lock:
            started = list(self.started)
        for process in started:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        self.signal_adopted(list(self.adopted), signal.SIGKILL)


class Deadline:
    """A bench's overall deadline of ``seconds`` from now (see the module docstring)."""

    def __init__(self, seconds: float, bench: str, option: str = "--deadline") -> None:
        self.seconds = seconds
        self.bench = bench
        self.option = option
        self.at = time.monotonic() + seconds
        self.finished = threading.Event()

    def message(self) -> str:
        return f"not done within {self.option} {self.seconds:g} s"

    def left(self) -> float:
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def check(self) -> None:
        if self.expired():
            raise DeadlineExpired(self.message())

    def alarm(self) -> None:
        """Raise :class:`DeadlineExpired` in the main thread at the deadline."""

        def expire(signum: int, frame: object) -> None:
            raise DeadlineExpired(self.message())

        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, max(0.001, self.left()))

    def disarm(self) -> None:
        """No alarm any more (the bench is ending: its cleanup is not interrupted)."""
        if threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, 0)

    def watchdog(self, processes: Processes, grace: float = 30.0) -> None:
        """``grace`` seconds after the deadline, unless :meth:`done` was called: print
        the error, SIGKILL every process of ``processes`` and every descendant of this
        one (a worker pool's, say), and end this one (status 1)."""

        def watch() -> None:
            if self.finished.wait(self.left() + grace):
                return
            with contextlib.suppress(Exception):
                report_error(
                    self.bench,
                    f"{self.message()}, nor {grace:g} s after it: killed what it started",
                )
            processes.kill_all()
            for pid in descendants(os.getpid()):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            os._exit(1)

        threading.Thread(target=watch, name="deadline-watchdog", daemon=True).start()

    def done(self) -> None:
        self.disarm()
        self.finished.set()


class Output:
    """A child's stdout (text), read line by line by a thread as it comes."""

    def __init__(self, stream: IO[str] | None, keep: int = 1000) -> None:
        assert stream is not None
        self.lines: list[str] = []
        self.keep = keep
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        with contextlib.suppress(ValueError, OSError):
            for line in stream:
                self._queue.put(line)
        self._queue.put(None)

    def wait_for(
        self, pattern: str, timeout: float, process: subprocess.Popen[Any], what: str = "server"
    ) -> re.Match[str]:
        """The first line (from here on) that ``pattern`` matches; BenchError if the
        process ends or ``timeout`` passes first."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchError(f"the {what} did not say {pattern!r} within {timeout:g} s")
            try:
                line = self._queue.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line is None:
                process.wait(5)
                tail = "".join(self.lines[-5:]).strip()
                raise BenchError(
                    f"the {what} ended (status {process.returncode}) before it said "
                    f"{pattern!r}" + (f"; it said: {tail}" if tail else "")
                )
            self.lines.append(line)
            del self.lines[: -self.keep]
            found = re.search(pattern, line)
            if found:
                return found


def server_command(
    arguments: Sequence[str], profile: str | None = None, sample: str | None = None
) -> list[str]:
    """``maumau-server`` from the source tree (with ``env=server_env()``), under
    cProfile writing to ``profile`` if given, or under ``scripts/lib/sampler.py``
    writing its samples to ``sample`` (sampling only between SIGUSR1 and SIGUSR2)."""
    if sample:
        prefix = [str(ROOT / "scripts" / "lib" / "sampler.py"), sample, "--paused"]
    else:
        prefix = ["-m", "cProfile", "-o", profile] if profile else []
    return [sys.executable, *prefix, "-m", "maumau.server.cli", *arguments]


def server_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SERVER_PATH, **extra}


def start_server(
    processes: Processes,
    arguments: Sequence[str],
    timeout: float = 30.0,
    profile: str | None = None,
    stderr: int | None = None,
    sample: str | None = None,
) -> tuple[subprocess.Popen[str], int, Output]:
    """Start ``maumau-server`` with ``arguments`` and read its port; BenchError if it
    ends or says nothing within ``timeout``."""
    server: subprocess.Popen[str] = processes.start(
        server_command(arguments, profile, sample),
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=server_env(),
    )
    output = Output(server.stdout)
    found = output.wait_for(r"listening on port (\d+)", timeout, server)
    return server, int(found.group(1)), output

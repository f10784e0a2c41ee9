"""Processes seen through /proc (Linux): who is a descendant of whom, what each runs,
and whether one is still there, for tests that check that no process outlives what
it was started for. Nothing here ever signals a process."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command's name (state first), or
    None when there is no such process."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return text[text.rindex(")") + 2 :].split()


def started(pid: int) -> int | None:
    """When the process started (clock ticks since boot): with the pid, it names one
    process, not a later one given the same pid."""
    fields = stat_fields(pid)
    return None if fields is None else int(fields[19])


def running(pid: int, since: int | None = None) -> bool:
    """Whether the process is there and not a zombie (a zombie has ended: only its
    parent has not yet read its status); with ``since`` (:func:`started`), whether it
    is still that same process."""
    fields = stat_fields(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return False
    return since is None or int(fields[19]) == since


def cmdline(pid: int) -> list[str]:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def parents() -> dict[int, int]:
    """Every process's parent, as /proc shows them now."""
    found: dict[int, int] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = stat_fields(int(entry.name))
            if fields is not None:
                found[int(entry.name)] = int(fields[1])
    return found


def descendants(root: int) -> list[int]:
    """The processes under ``root`` (children, their children, ...), now."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents().items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return sorted(found)


def ancestors(pid: int) -> list[int]:
    """The processes above ``pid``: its parent, the parent's parent, ... up to init."""
    parent_of = parents()
    found: list[int] = []
    while (pid := parent_of.get(pid, 0)) > 1:
        found.append(pid)
    return found


def waiting_in(pid: int) -> dict[int, str]:
    """Where in the kernel each of the process's threads waits (``wchan``), by thread
    id (the main thread's is the pid): e.g. ``wait_woken`` for a write to a terminal
    whose buffer is full, a ``futex`` wait for a lock."""
    found: dict[int, str] = {}
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        for task in (PROC / str(pid) / "task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError, PermissionError):
                found[int(task.name)] = (task / "wchan").read_text().strip()
    return found


def blocked_on_terminal(pid: int) -> bool:
    """Whether a Textual app's writes are blocked on a terminal nobody reads: a
    thread waits in the kernel's write (the writer thread), and the main thread waits
    on a lock (the asyncio loop, on the writer's full queue) instead of in epoll."""
    waits = waiting_in(pid)
    return "wait_woken" in waits.values() and "futex" in waits.get(pid, "")


def wait_gone(pids: Iterable[tuple[int, int | None]], seconds: float) -> float | None:
    """Wait until none of ``pids`` (each a pid and its :func:`started`) is running;
    the seconds that took, or None when some still ran after ``seconds``."""
    waiting = list(pids)
    start = time.monotonic()
    while True:
        waiting = [(pid, since) for pid, since in waiting if running(pid, since)]
        took = time.monotonic() - start
        if not waiting:
            return took
        if took > seconds:
            return None
        time.sleep(0.02)

"""The lock file beside the database: two servers never share one database.

The lock is an exclusive ``flock`` on ``PATH.lock``, held for as long as the store is
open (the operating system lets go of it when the process ends, ``kill -9`` too)."""

from __future__ import annotations

from typing import IO

from .errors import StoreError


def lock_beside(path: str) -> IO[bytes] | None:
    """Hold an exclusive lock on ``PATH.lock`` so two servers never share a database."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    handle = open(path + ".lock", "wb")  # noqa: SIM115 - held open for the lock's lifetime
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreError(f"another maumau-server is using {path}") from None
    return handle

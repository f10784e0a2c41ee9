"""Who has the host's powers: the holder of the host key, and the ``--admin`` names.

The host is whoever runs the server. At start-up the server makes sure there is a
host key (:mod:`maumau.protocol.host_key`) in its data folder, beside the database,
in a file only its own user may read (:func:`key_file`): a ``maumau-client`` of that
user on that machine reads it and proves it in every ``hello``; so does a client
given the file with ``--admin-key``. A proof counts once: the server remembers each
nonce until the proof's time is out of the window it accepts
(:data:`~maumau.protocol.messages.HOST_CLOCK_SKEW_S` either way of its own clock),
and refuses a proof made before it started, which an earlier run of it may have
spent (a host client whose clock is behind is let in that much later: it tries
again with a fresh proof at every reconnect).
``maumau-server --admin NAME`` grants the powers to a session whose hello proves
NAME's secret too (so only on a server that keeps records), once the name is claimed:
the hello that claims a name nobody had claimed proves nothing yet (whoever came
first under that name would otherwise be the host), the next one does.

A session's powers are worked out again at each of its hellos, and kept nowhere.
"""

from __future__ import annotations

import logging
import os
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from maumau.protocol import host_key
from maumau.protocol.messages import HOST_CLOCK_SKEW_S, Hello

from . import names

log = logging.getLogger("maumau.server")

NONCES_MAX = 10_000  # proofs remembered at once (more in the window are refused)


class HostKeyError(Exception):
    """The host key file cannot be made or read."""


def key_file(path: Path) -> bytes:
    """The key in ``path``, made first if there is none. The file is the server's
    user's alone (mode 0600; a looser one is tightened, a key others could read
    having been theirs to copy is replaced)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            mode = stat.S_IMODE(path.stat().st_mode)
            key = host_key.parse_key(path.read_text(encoding="ascii", errors="replace"))
            if key is not None and not mode & 0o077:
                return key
            why = "could be read by others" if key is not None else "held no key"
            log.warning("the host key in %s %s: a new one is made", path, why)
            path.unlink()
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        text = host_key.new_key()
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(text + "\n")
    except OSError as error:
        raise HostKeyError(f"{path}: {error.strerror or error}") from None
    key = host_key.parse_key(text)
    assert key is not None
    return key


class HostRights:
    """Decides whether a hello carries the host's powers (see the module docstring).
    ``clock`` is the wall clock the proofs' times are compared with."""

    def __init__(
        self,
        key: bytes | None,
        admins: Iterable[str] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.key = key
        self.admins = {names.skeleton(name) for name in admins}
        self.clock = clock
        self._nonces: dict[str, float] = {}  # nonce -> when it stops mattering
        self.started = clock()  # proofs made before were for an earlier run

    def proves_key(self, hello: Hello, peer: str) -> bool:
        """Whether ``hello.host`` proves the host key (once: its nonce is spent)."""
        claim = hello.host
        if claim is None or self.key is None:
            return False
        now = self.clock()
        at = float(claim["at"])
        if abs(now - at) > HOST_CLOCK_SKEW_S:
            log.warning("a host proof from %s is %.0f s off this clock: refused", peer, at - now)
            return False
        if at < self.started:
            log.warning("a host proof from %s was made before the server started: refused", peer)
            return False
        if not host_key.valid(self.key, hello.name, claim):
            log.warning("a hello from %s claimed the host key with a wrong proof", peer)
            return False
        self._nonces = {n: t for n, t in self._nonces.items() if t > now}
        nonce = str(claim["nonce"])
        if nonce in self._nonces or len(self._nonces) >= NONCES_MAX:
            log.warning("a host proof from %s was used before: refused", peer)
            return False
        self._nonces[nonce] = at + HOST_CLOCK_SKEW_S
        return True

    def admin(self, name: str, verified: bool) -> bool:
        """Whether ``name``, proven by its secret (``verified``), is a --admin name."""
        return verified and names.skeleton(name) in self.admins

"""The host key: how a client proves, in its ``hello``, that it holds the key the
server wrote into its data folder (the host's powers go with it).

The key is 32 random bytes, kept as 64 hex digits in a file readable by the server's
user only. A hello proves it with ``{"at", "nonce", "proof"}``: ``proof`` is the
HMAC-SHA256 under the key of ``maumau-host:{at}:{nonce}:{name}``. The key itself never
crosses the network; the server accepts a proof once (it remembers the nonces of the
last :data:`~maumau.protocol.messages.HOST_CLOCK_SKEW_S` seconds either way, and
refuses proofs older or newer than that), so a proof overheard on the LAN cannot be
used again. Pure: the key file is read and written by its callers.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

KEY_BYTES = 32
FILE_NAME = "host.key"


def new_key() -> str:
    """A fresh key, as the file holds it."""
    return secrets.token_hex(KEY_BYTES)


def parse_key(text: str) -> bytes | None:
    """The key in a key file's text, or None when it holds none."""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        return None
    return key if len(key) == KEY_BYTES else None


def proof(key: bytes, name: str, at: float, nonce: str) -> str:
    """The proof of ``key`` for a hello of ``name`` made at ``at`` with ``nonce``."""
    message = f"maumau-host:{float(at)!r}:{nonce}:{name}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def make(key: bytes, name: str, at: float) -> dict[str, Any]:
    """The ``hello.host`` map for ``name``, made now (``at``, a Unix time)."""
    nonce = secrets.token_hex(16)
    return {"at": at, "nonce": nonce, "proof": proof(key, name, at, nonce)}


def valid(key: bytes, name: str, claim: dict[str, Any]) -> bool:
    """Whether ``claim`` (a decoded ``hello.host``) proves ``key`` for ``name`` (the
    time and the nonce are the caller's to check)."""
    expected = proof(key, name, float(claim["at"]), str(claim["nonce"]))
    return hmac.compare_digest(expected, str(claim["proof"]))

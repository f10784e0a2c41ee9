"""A browser guest's name secret, derived from the name, the PIN and the host's key.

Each tab's client starts with an empty home, so it cannot keep a random secret per
name as the terminal client does (:mod:`maumau.client.config`). Instead the secret
is derived: HMAC-SHA256 over the name and PIN, keyed by a random key kept in a file
only the host reads. The same name and PIN give the same secret in every tab, on
every device, after every restart of ``maumau-web`` (the key file stays), so the
server gives that player their name and session (seat included) back; another PIN
gives another secret, which the server refuses the name (``name_reserved``). An
empty PIN means "anyone who types this name", as at the SSH party. The key keeps
the server's stored hashes from being guessable from names and short PINs.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

KEY_BYTES = 32


def name_secret(name: str, pin: str, key: bytes) -> str:
    """The secret that reserves ``name`` on the server for whoever types ``pin``."""
    message = f"maumau-web\0{name}\0{pin}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def load_key(path: Path) -> bytes:
    """The host's key from ``path``, made (random, readable by its owner only) when
    the file does not exist yet. Raises OSError when it can be neither read nor made,
    and ValueError when the file holds no key."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = secrets.token_hex(KEY_BYTES)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # made meanwhile by another process: use that one
            text = path.read_text().strip()
        else:
            with os.fdopen(descriptor, "w") as handle:
                handle.write(text + "\n")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 16:
        raise ValueError(f"{path} holds no key (64 hex digits); remove it to make a new one")
    return key

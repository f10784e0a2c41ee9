"""Digests of secrets: the database keeps the SHA-256 of each resume token and of each
player's secret, never the token or the secret itself."""

from __future__ import annotations

import hashlib
import hmac


def digest(secret: str) -> str:
    """SHA-256 of a token or secret, in hex (tokens are random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_digest(a: str, b: str) -> bool:
    """Compare two digests in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())

"""Remembering the last server and name between runs, and each name's secret.

They live in ``maumau/client.json`` under the platform's config directory
(``$XDG_CONFIG_HOME``, else ``~/.config``). A missing or damaged file is an empty
one: remembering is a convenience, never a reason to fail.

**Secrets.** A server that keeps records reserves a name for the first player who
said ``hello`` with it and a ``secret`` (see docs/protocol.md, "Names and secrets").
The client makes one random secret per name the first time that name is used and
keeps it under ``"secrets": {name: secret}``, so the same person gets the same name
back on every run. Another machine (or another config directory) has other
secrets, and the server refuses it the name with ``name_reserved``.
The secret also brings a player back to their seat after their client was closed
without quitting (a closed terminal, a crash): a ``hello`` with the name's secret
takes that name's session back on such a server.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any


def path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "maumau" / "client.json"


def load() -> dict[str, Any]:
    try:
        data = json.loads(path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(values: dict[str, Any]) -> None:
    try:
        target = path()
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps({**load(), **values}, indent=2))
        if os.name == "posix":
            temporary.chmod(0o600)  # it holds secrets
        temporary.replace(target)
    except OSError:
        pass


def secret_for(name: str) -> str:
    """This player's secret for ``name``: the kept one, or a new one (then kept)."""
    kept = load().get("secrets")
    kept = dict(kept) if isinstance(kept, dict) else {}
    secret = kept.get(name)
    if isinstance(secret, str) and 16 <= len(secret) <= 128:
        return secret
    secret = secrets.token_urlsafe(24)
    kept[name] = secret
    save({"secrets": kept})
    return secret

"""Remembering the last server and name between runs.

They live in ``maumau/client.json`` under the platform's config directory
(``$XDG_CONFIG_HOME``, else ``~/.config``). A missing or damaged file is an empty
one: remembering is a convenience, never a reason to fail.
"""

from __future__ import annotations

import json
import os
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
        target.write_text(json.dumps({**load(), **values}, indent=2))
    except OSError:
        pass

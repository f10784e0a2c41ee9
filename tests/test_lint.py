"""Static checks run as tests: ruff on the whole tree, mypy --strict on the protocol
package, the server and the client (configured in pyproject.toml). Strict types hold the
server's parts to the small interfaces they are given (a table's ``TableHost`` and
``Player``, for one)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    assert found, f"{name} is not installed; scripts/test installs the lint extra"
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_everywhere() -> None:
    result = subprocess.run(
        [tool("mypy"), "protocol", "server/maumau/server", "client/maumau/client"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr

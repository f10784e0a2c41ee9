"""Static checks run as tests: ruff on the whole tree (the Python scripts without a
``.py`` ending too), mypy --strict on the protocol package, the server, the client
and the scripts (configured in pyproject.toml). Strict types hold the
server's parts to the small interfaces they are given (a table's ``TableHost`` and
``Player``, for one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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


def python_scripts() -> list[str]:
    """The commands in scripts/ written in Python (their first line says so)."""
    found = []
    for path in sorted((ROOT / "scripts").iterdir()):
        if path.is_file() and "python" in path.read_text(errors="replace").split("\n", 1)[0]:
            found.append(str(path.relative_to(ROOT)))
    return found


def test_every_python_script_is_linted() -> None:
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    assert sorted(listed["extend-include"]) == python_scripts()


def test_mypy_strict_on_the_scripts() -> None:
    result = subprocess.run(
        [tool("mypy"), "--scripts-are-modules", "--follow-imports=silent", *python_scripts()]
        + [str(p.relative_to(ROOT)) for p in sorted((ROOT / "scripts" / "lib").glob("*.py"))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MYPYPATH": os.pathsep.join(["scripts/lib"])},
    )
    assert result.returncode == 0, result.stdout + result.stderr

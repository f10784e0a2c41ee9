"""The design's import boundaries, checked in fresh interpreters.

- ``maumau.protocol`` imports nothing from the server or the client, and no trio,
  asyncio or textual: both sides share it.
- The rules engine imports no trio, asyncio, textual, socket, time or threading: it is
  pure and reads no clock.
- ``maumau.client`` imports nothing from ``maumau.server`` (an embedded server for
  local play is started lazily, never at import).

Each check imports the package in a new interpreter and looks at ``sys.modules``, so
indirect imports count too.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def modules_under(package_dir: Path, prefix: str) -> list[str]:
    names = [prefix]
    for info in pkgutil.walk_packages([str(package_dir)], prefix + "."):
        names.append(info.name)
    return names


def loaded_after_import(modules: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(out.stdout))


def offenders(loaded: set[str], forbidden: list[str]) -> list[str]:
    return sorted(
        name for name in loaded for bad in forbidden if name == bad or name.startswith(bad + ".")
    )


PROTOCOL = modules_under(ROOT / "protocol" / "maumau" / "protocol", "maumau.protocol")
RULES = modules_under(ROOT / "server" / "maumau" / "server" / "rules", "maumau.server.rules")
CLIENT = modules_under(ROOT / "client" / "maumau" / "client", "maumau.client")


def test_protocol_imports_no_io_framework_and_no_other_part() -> None:
    loaded = loaded_after_import(PROTOCOL)
    bad = offenders(loaded, ["trio", "asyncio", "textual", "maumau.server", "maumau.client"])
    assert bad == [], f"maumau.protocol pulls in {bad}"


def test_rules_engine_is_pure() -> None:
    loaded = loaded_after_import(RULES)
    forbidden = ["trio", "asyncio", "textual", "socket", "selectors", "threading", "maumau.client"]
    assert offenders(loaded, forbidden) == []
    # ``time`` is a builtin module that the interpreter loads itself; check the source.
    for path in (ROOT / "server" / "maumau" / "server" / "rules").rglob("*.py"):
        text = path.read_text()
        for needle in ("import time", "from time", "datetime", "perf_counter", "monotonic"):
            assert needle not in text, f"{path.name} mentions {needle}"


def test_client_does_not_import_the_server() -> None:
    if len(CLIENT) == 1:
        pytest.importorskip("maumau.client")
    loaded = loaded_after_import(CLIENT)
    assert offenders(loaded, ["maumau.server"]) == []


def test_boundary_check_detects_a_violation() -> None:
    loaded = loaded_after_import(["maumau.server.rules", "trio"])
    assert "trio" in offenders(loaded, ["trio"])

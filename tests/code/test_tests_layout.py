"""The tests' own shape: each test file in its group, none importing another.

What several test files share lives in ``tests/support`` (fixtures for one group in
that group's ``conftest.py``); a test file that imported another would run the
other's module-level set-up, and tie the two so that moving or splitting one breaks
the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
GROUPS = {"protocol", "rules", "server", "client", "e2e", "code"}


def test_every_test_file_is_in_a_group() -> None:
    stray = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if path.parent.name not in GROUPS or path.parent.parent != TESTS
    ]
    assert stray == []


def test_no_test_file_imports_another() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            found += [
                f"{path.relative_to(TESTS)}: {module}"
                for module in modules
                if module.split(".")[-1].startswith("test_")
            ]
    assert found == []

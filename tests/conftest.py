"""Shared test setup.

Every trio test runs under a deadline inside trio (``trio.fail_after``), not
pytest-timeout, which corrupts trio's state. Under ``MockClock`` the deadline is in
virtual seconds, so a hang fails at once. Mark a test ``@pytest.mark.deadline(S)`` to
change it.

The wire client and the delaying proxy that tests and benchmarks share are tools, not
part of the product: they live in ``scripts/lib`` (which this puts on ``sys.path``).
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts" / "lib"))

DEFAULT_DEADLINE = 120.0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "deadline(seconds): time limit of a trio test")
    # Servers and clients started by tests keep their database and config here, never
    # in the user's own directories.
    home = Path(tempfile.mkdtemp(prefix="maumau-tests-"))
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))


def _run_with_deadline(seconds: float, fn: Any, *args: Any, **kwargs: Any) -> Any:
    async def main() -> Any:
        try:
            with trio.fail_after(seconds):
                return await fn(*args)
        except trio.TooSlowError:
            pytest.fail(f"the test did not finish within its deadline of {seconds} s", False)

    return trio.run(main, **kwargs)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("trio") is None:
            continue
        marker = item.get_closest_marker("deadline")
        seconds = marker.args[0] if marker else DEFAULT_DEADLINE
        run = functools.partial(_run_with_deadline, seconds)
        item.add_marker(pytest.mark.trio(run=run), append=False)


@pytest.fixture(autouse=True)
def own_client_config(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """Each test has a client config of its own: what one test's client remembers (a
    language, the last table's settings) never changes what another one shows."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))

"""The client's config file: remembered server and name, and each name's secret."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from maumau.client import config


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path / "maumau" / "client.json"


def test_a_secret_is_made_the_first_time_and_kept(config_home: Path) -> None:
    first = config.secret_for("Ann")
    assert 16 <= len(first) <= 128
    assert config.secret_for("Ann") == first
    other = config.secret_for("Bob")
    assert other != first
    saved = json.loads(config_home.read_text())
    assert saved["secrets"] == {"Ann": first, "Bob": other}
    assert stat.S_IMODE(config_home.stat().st_mode) == 0o600  # it holds secrets


def test_saving_the_server_keeps_the_secrets(config_home: Path) -> None:
    secret = config.secret_for("Ann")
    config.save({"server": "box:7766", "name": "Ann"})
    assert config.secret_for("Ann") == secret
    assert config.load()["server"] == "box:7766"


def test_a_damaged_file_gets_a_new_secret(config_home: Path) -> None:
    config_home.parent.mkdir(parents=True)
    config_home.write_text("{not json")
    secret = config.secret_for("Ann")
    assert config.secret_for("Ann") == secret
    config_home.write_text(json.dumps({"secrets": {"Ann": "short"}}))
    assert config.secret_for("Ann") != "short"

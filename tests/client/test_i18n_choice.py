"""Choosing the client's language: ``--lang``, else the config's, else the
environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English;
``C``/``POSIX`` mean English; an unknown ``--lang`` is an error naming the offered
codes; ``--lang`` is remembered. The real CLI runs as a subprocess for the error
and the help text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from maumau.client import config, i18n
from maumau.client.cli import choose_language


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    yield tmp_path
    i18n.set_language("en")


def speak(argv: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    """The code chosen (catalogs may not be compiled: set_language is not asked)."""
    monkeypatch.setattr(i18n, "set_language", lambda code: None)
    return choose_language(argv, env)


@pytest.mark.parametrize(
    "env,expected",
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_MESSAGES": "cs_CZ.UTF-8", "LANG": "de_DE.UTF-8"}, "cs"),
        ({"LC_ALL": "gd_GB.UTF-8", "LC_MESSAGES": "cs_CZ.UTF-8"}, "gd"),
        ({"LANGUAGE": "fr:cs", "LC_ALL": "de_DE.UTF-8"}, "cs"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_the_environment_decides_without_flag_or_config(
    env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert speak([], env, monkeypatch) == expected


def test_the_flag_beats_the_config_which_beats_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config.save({"language": "cs"})
    assert speak([], {"LANG": "de_DE.UTF-8"}, monkeypatch) == "cs"
    assert speak(["--lang", "gd", "--local"], {"LANG": "de_DE.UTF-8"}, monkeypatch) == "gd"
    assert config.load()["language"] == "gd"  # remembered
    assert speak([], {}, monkeypatch) == "gd"


def test_an_unknown_config_language_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    config.save({"language": "xx"})
    assert speak([], {"LANG": "de_DE.UTF-8"}, monkeypatch) == "de"


def run_cli(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(home), "LANG": "C.UTF-8", "LANGUAGE": ""}
    return subprocess.run(
        [sys.executable, "-m", "maumau.client.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )


def test_an_unknown_flag_is_a_clear_error(own_config: Path) -> None:
    done = run_cli(["--lang", "xx", "--local"], own_config)
    assert done.returncode == 2
    assert "--lang: one of en, de, cs, gd, not 'xx'" in done.stderr
    assert not (own_config / "maumau" / "client.json").exists()


def test_help_offers_the_languages_in_their_own_names(own_config: Path) -> None:
    done = run_cli(["--help"], own_config)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "de Deutsch" in text and "cs Čeština" in text and "gd Gàidhlig" in text
    assert (
        json.loads((own_config / "maumau" / "client.json").read_text() or "{}") == {}
        if (own_config / "maumau" / "client.json").exists()
        else True
    )


def test_help_and_argument_errors_speak_the_language_argparse_included(
    own_config: Path,
) -> None:
    """argparse's own words ("usage:", "options", its errors) go through the catalogs."""
    done = run_cli(["--help", "--lang", "de"], own_config)
    assert done.returncode == 0
    assert done.stdout.startswith("Aufruf: maumau-client"), done.stdout[:200]
    assert "Optionen:" in done.stdout and "diese Hilfe zeigen und beenden" in done.stdout
    wrong = run_cli(["--lang", "cs", "--bots", "x"], own_config)
    assert wrong.returncode == 2
    assert "maumau-client: chyba: argument --bots: neplatná hodnota (int): 'x'" in wrong.stderr
    english = run_cli(["--lang", "en", "--help"], own_config)
    assert english.stdout.startswith("usage: maumau-client"), english.stdout[:200]

"""The real client in a real terminal (tmux, 80x24, TERM=xterm): scripts/tmux-smoke."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tmux_smoke() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "tmux-smoke")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "tmux-smoke: ok" in done.stdout

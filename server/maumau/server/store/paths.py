"""Where the database lives when the command line names no file."""

from __future__ import annotations

from pathlib import Path


def default_path() -> Path:
    """``maumau/server.db`` in the platform's data directory (``$XDG_DATA_HOME`` on
    Linux, ``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("maumau", appauthor=False)) / "server.db"

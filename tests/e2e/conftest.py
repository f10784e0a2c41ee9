"""What the end-to-end tests share as fixtures: a LAN of two network namespaces."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Any

import pytest

from support.discovery import ip


@pytest.fixture
def lan() -> Any:
    """Two namespaces joined by a veth pair: (host namespace, guest namespace)."""
    if os.geteuid() != 0 and not os.environ.get("MAUMAU_REQUIRE_NETNS"):
        pytest.skip("network namespaces need root")
    assert shutil.which("ip"), "ip (iproute2) is needed"
    tag = f"mm{os.getpid() % 100000}"
    host, guest = f"{tag}h", f"{tag}g"
    ip("netns", "add", host)
    try:
        ip("netns", "add", guest)
        ip("link", "add", f"{tag}a", "netns", host, "type", "veth", "peer", "name", f"{tag}b",
           "netns", guest)  # fmt: skip
        ip("-n", host, "addr", "add", "10.213.0.1/24", "dev", f"{tag}a")
        ip("-n", guest, "addr", "add", "10.213.0.2/24", "dev", f"{tag}b")
        for ns, dev in ((host, f"{tag}a"), (guest, f"{tag}b")):
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        yield host, guest, f"{tag}a"
    finally:
        subprocess.run(["ip", "netns", "del", host], capture_output=True, timeout=30)
        subprocess.run(["ip", "netns", "del", guest], capture_output=True, timeout=30)

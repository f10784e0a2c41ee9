"""An address ban on a LAN of its own (two network namespaces the test makes, as
root, joined by a veth pair, as in tests/e2e/test_discovery.py): the host, on the
server's machine, sees a guest's real address, bans it, and the guest is sent away
and refused when it comes back, under any name. Nothing is sent on this machine's
own interfaces."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from support.discovery import ENV, ROOT, ended, in_ns, started

LIB = str(ROOT / "scripts" / "lib")

GUEST = textwrap.dedent(
    """
    import json, sys, trio
    sys.path.insert(0, sys.argv[3])
    from wireclient import Refused, WireClient
    from maumau.protocol.messages import Goodbye

    async def main(host, port):
        zed = await WireClient.connect(host, port, "Zed")
        print(json.dumps({"welcome": zed.welcome.name}), flush=True)
        bye = await zed.wait_for(Goodbye, timeout=60)
        print(json.dumps({"goodbye": bye.code, "by": bye.by, "note": bye.note}), flush=True)
        try:
            await WireClient.connect(host, port, "Someone Else")
        except Refused as refused:
            print(json.dumps({"refused": refused.error.code, **refused.error.details}))

    trio.run(main, sys.argv[1], int(sys.argv[2]))
    """
)

HOST = textwrap.dedent(
    """
    import json, sys, time, trio
    from pathlib import Path
    sys.path.insert(0, sys.argv[3])
    from wireclient import WireClient
    from maumau.protocol import host_key
    from maumau.protocol.messages import Ban, HostList, HostView

    async def main(port, key_path):
        key = host_key.parse_key(Path(key_path).read_text())
        hana = await WireClient.connect(
            "127.0.0.1", port, "Hana", host_proof=host_key.make(key, "Hana", time.time())
        )
        with trio.fail_after(30):
            while True:
                await hana.send(HostList())
                seen = await hana.wait_for(HostView)
                guests = [c for c in seen.connections if c["name"] == "Zed"]
                if guests:
                    break
                await trio.sleep(0.2)
        print(json.dumps(guests[0]), flush=True)
        await hana.send(Ban("address", guests[0]["address"], "life", "go home"))
        print(json.dumps([dict(b) for b in (await hana.wait_for(HostView)).bans]), flush=True)

    trio.run(main, int(sys.argv[1]), sys.argv[2])
    """
)


def test_the_host_bans_a_guests_real_address(lan, tmp_path: Path) -> None:
    host, guest, _ = lan
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path)}
    server = subprocess.Popen(
        in_ns(host, sys.executable, "-m", "maumau.server.cli", "--port", "0", "--no-db",
              "--no-announce"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    zed = None
    try:
        assert server.stdout is not None
        listening = server.stdout.readline()
        assert "listening on port" in listening, listening + server.stderr.read()
        port = listening.split("port ")[1].split(".")[0]
        zed = started(guest, sys.executable, "-c", GUEST, "10.213.0.1", port, LIB)
        assert zed.stdout is not None
        assert json.loads(zed.stdout.readline()) == {"welcome": "Zed"}
        key = tmp_path / "maumau" / "host.key"
        hana = subprocess.run(
            in_ns(host, sys.executable, "-c", HOST, port, str(key), LIB),
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert hana.returncode == 0, hana.stderr
        seen, bans = (json.loads(line) for line in hana.stdout.splitlines())
        assert seen["address"] == "10.213.0.2" and not seen["host"]
        assert bans == [
            {"what": "address", "target": "10.213.0.2", "lasting": "life", "by": "Hana",
             "reason": "go home"}
        ]  # fmt: skip
        told = [json.loads(line) for line in zed.communicate(timeout=30)[0].splitlines()]
        assert told == [
            {"goodbye": "banned", "by": "Hana", "note": "go home"},
            {"refused": "banned", "why": "address"},
        ]
    finally:
        ended(*(p for p in (zed, server) if p is not None))

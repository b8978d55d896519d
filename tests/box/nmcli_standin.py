"""A stand-in ``nmcli``: answers as NetworkManager 1.42's nmcli does, from a JSON state file.

The fixture (``tests/box/conftest.py``) copies this file as an executable ``nmcli`` onto
``PATH``, with ``NMCLI_STANDIN`` naming a directory holding ``state.json`` (the networks in
reach, the saved profiles, what is active, whether NetworkManager runs) and ``calls.jsonl``
(every call's argv, one JSON list a line, appended). Output is nmcli's terse format (``-t``:
fields joined by ``:``, a ``:`` or ``\\`` inside a field escaped with ``\\``); failures print
nmcli's own messages on stderr with its exit codes (``nmcli(1)``: 2 bad arguments, 4
activation failed, 8 NetworkManager not running, 10 not found).

Standard library only: it runs under the test's Python, outside the venv's imports. Calls are
taken one at a time (a lock file) and the state file is replaced whole, never half written.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any, NoReturn

AP_MODE_SCAN = "Error: Scanning not allowed while in AP mode."


def fail(message: str, code: int) -> NoReturn:
    print(f"Error: {message}", file=sys.stderr)
    sys.exit(code)


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


def print_rows(fields: list[str], rows: list[dict[str, str]]) -> None:
    for row in rows:
        print(":".join(escape(row[name]) for name in fields))


class NM:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "state.json"
        self.state: dict[str, Any] = json.loads(self.path.read_text())

    def save(self) -> None:
        staged = self.path.with_suffix(".tmp")
        staged.write_text(json.dumps(self.state, indent=1))
        os.replace(staged, self.path)  # a reader never sees half a file

    @property
    def wifi_device(self) -> str | None:
        for device in self.state["devices"]:
            if device["type"] == "wifi":
                return str(device["device"])
        return None

    def profile(self, name: str) -> dict[str, Any] | None:
        for profile in self.state["profiles"]:
            if profile["name"] == name:
                return dict(profile)
        return None

    def network(self, ssid: str) -> dict[str, Any] | None:
        for network in self.state["networks"]:
            if network["ssid"] == ssid:
                return dict(network)
        return None

    def active_profile(self) -> dict[str, Any] | None:
        active = self.state.get("active")
        return self.profile(active) if active else None

    def activate(self, profile: dict[str, Any]) -> None:
        if profile.get("mode") == "ap":
            self.state["active"] = profile["name"]
            return
        network = self.network(profile["ssid"])
        if network is None:
            fail("Connection activation failed: The Wi-Fi network could not be found.", 4)
        if network.get("password") is not None and profile.get("psk") != network["password"]:
            self.state["active"] = None  # the device left what it had for the attempt
            self.save()
            fail("Connection activation failed: (7) Secrets were required, but not provided.", 4)
        self.state["active"] = profile["name"]


def device_status(nm: NM, fields: list[str]) -> None:
    rows = []
    for device in nm.state["devices"]:
        connection = ""
        state = "unmanaged" if device["type"] == "loopback" else "disconnected"
        if device["type"] == "wifi" and nm.state.get("active"):
            connection, state = nm.state["active"], "connected"
        rows.append(
            {
                "DEVICE": device["device"],
                "TYPE": device["type"],
                "STATE": state,
                "CONNECTION": connection,
            }
        )
    print_rows(fields, rows)


def wifi_list(nm: NM, fields: list[str], rescan: str) -> None:
    active = nm.active_profile()
    if rescan == "yes" and active is not None and active.get("mode") == "ap":
        print(AP_MODE_SCAN, file=sys.stderr)
        sys.exit(1)
    in_use = active["ssid"] if active is not None and active.get("mode") != "ap" else None
    rows = []
    for network in nm.state["networks"]:
        rows.append(
            {
                "IN-USE": "*" if network["ssid"] == in_use else " ",
                "SSID": network["ssid"],
                "SIGNAL": str(network["signal"]),
                "SECURITY": network.get("security", "WPA2"),
            }
        )
    print_rows(fields, rows)


def wifi_connect(nm: NM, args: list[str]) -> None:
    ssid = args[0]
    options = dict(zip(args[1::2], args[2::2], strict=False))
    network = nm.network(ssid)
    if network is None:
        fail(f"No network with SSID '{ssid}' found.", 10)
    profile = nm.profile(ssid) or {"name": ssid, "ssid": ssid, "type": "802-11-wireless"}
    if "password" in options:
        profile["psk"] = options["password"]
    nm.activate(profile)  # exits 4 on a wrong password, keeping no new profile
    nm.state["profiles"] = [p for p in nm.state["profiles"] if p["name"] != ssid] + [profile]
    device = options.get("ifname", nm.wifi_device)
    print(f"Device '{device}' successfully activated with '{uuid.uuid4()}'.")


def connection_show(nm: NM, fields: list[str]) -> None:
    active = nm.state.get("active")
    rows = [
        {
            "NAME": p["name"],
            "TYPE": p["type"],
            "DEVICE": (nm.wifi_device or "") if p["name"] == active else "",
        }
        for p in nm.state["profiles"]
    ]
    print_rows(fields, rows)


def connection_add(nm: NM, args: list[str]) -> None:
    options = dict(zip(args[0::2], args[1::2], strict=False))
    if options.get("type") != "wifi" or "con-name" not in options or "ssid" not in options:
        fail("invalid or missing arguments for 'connection add'", 2)
    psk = options.get("wifi-sec.psk", "")
    if options.get("wifi-sec.key-mgmt") == "wpa-psk" and not 8 <= len(psk) <= 63:
        fail(
            "Failed to add 'x' connection: 802-11-wireless-security.psk: property is invalid",
            2,
        )
    profile = {
        "name": options["con-name"],
        "ssid": options["ssid"],
        "type": "802-11-wireless",
        "mode": options.get("mode", "infrastructure"),
        "psk": psk,
        "options": options,
    }
    nm.state["profiles"].append(profile)
    print(f"Connection '{profile['name']}' ({uuid.uuid4()}) successfully added.")


def connection(nm: NM, args: list[str]) -> None:
    verb, rest = args[0], args[1:]
    if verb == "show":
        return connection_show(nm, FIELDS)
    if verb == "add":
        return connection_add(nm, rest)
    if len(rest) != 2 or rest[0] != "id":
        fail(f"invalid arguments for 'connection {verb}'", 2)
    name = rest[1]
    profile = nm.profile(name)
    if verb == "up":
        if profile is None:
            fail(f"unknown connection '{name}'.", 10)
        nm.activate(profile)
        print("Connection successfully activated (D-Bus active path: "
              "/org/freedesktop/NetworkManager/ActiveConnection/7)")  # fmt: skip
    elif verb == "down":
        if nm.state.get("active") != name:
            fail(
                f"'{name}' is not an active connection.\nError: no active connection provided.", 10
            )
        nm.state["active"] = None
        print(f"Connection '{name}' successfully deactivated.")
    elif verb == "delete":
        if profile is None:
            fail(f"unknown connection '{name}'.\nError: cannot delete unknown connection(s): "
                 f"'{name}'.", 10)  # fmt: skip
        nm.state["profiles"] = [p for p in nm.state["profiles"] if p["name"] != name]
        if nm.state.get("active") == name:
            nm.state["active"] = None
        print(f"Connection '{name}' ({uuid.uuid4()}) successfully deleted.")
    else:
        fail(f"argument '{verb}' not understood. Try passing --help instead.", 2)
    return None


FIELDS: list[str] = []


def main(argv: list[str]) -> None:
    folder = Path(os.environ["NMCLI_STANDIN"])
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # NetworkManager answers one change at a time
        run(folder, argv)


def run(folder: Path, argv: list[str]) -> None:
    with (folder / "calls.jsonl").open("a") as calls:
        calls.write(json.dumps(argv) + "\n")
    args = list(argv)
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-f", "--fields", "-w", "--wait"):
            value = args.pop(0)
            if option in ("-f", "--fields"):
                FIELDS[:] = value.split(",")
    nm = NM(folder)
    if not nm.state["running"]:
        fail("NetworkManager is not running.", 8)
    if args[:2] == ["device", "status"]:
        device_status(nm, FIELDS)
    elif args[:3] == ["device", "wifi", "list"]:
        rest = args[3:]
        options = dict(zip(rest[0::2], rest[1::2], strict=False))
        if nm.wifi_device is None:
            fail("No Wi-Fi device found.", 10)
        wifi_list(nm, FIELDS, options.get("--rescan", "auto"))
    elif args[:3] == ["device", "wifi", "connect"]:
        if nm.wifi_device is None:
            fail("No Wi-Fi device found.", 10)
        wifi_connect(nm, args[3:])
    elif args[:1] == ["connection"]:
        connection(nm, args[1:])
    else:
        fail(f"argument '{' '.join(args)}' not understood. Try passing --help instead.", 2)
    nm.save()


if __name__ == "__main__":
    main(sys.argv[1:])

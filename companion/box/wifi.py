"""The box's Wi-Fi through NetworkManager's ``nmcli``: known networks, scan, join, its own AP.

Every call runs ``nmcli`` (found on ``PATH``) in terse mode with the C locale, so its output
and its messages are the untranslated ones parsed here. The exact commands:

- state: ``nmcli -t -f DEVICE,TYPE,STATE,CONNECTION device status`` (the Wi-Fi device and
  what it is connected to) and ``nmcli -t -f NAME,TYPE,DEVICE connection show`` (the known
  networks, ``802-11-wireless`` profiles, and which is active);
- scan: ``nmcli -t -f IN-USE,SSID,SIGNAL,SECURITY device wifi list ifname DEV --rescan yes``
  (``--rescan no`` while the box is its own access point: the radio cannot scan then, so
  NetworkManager's list from before is shown);
- join: ``nmcli -w 45 device wifi connect SSID [password PW] ifname DEV`` (NetworkManager
  keeps the profile, so the box keeps several networks and joins the best known one by
  itself); a known network without a new password: ``nmcli -w 45 connection up id NAME``;
- forget: ``nmcli connection delete id NAME``;
- its own access point (:data:`AP_CONNECTION`, SSID ``Mandala-XXXX``, WPA2-PSK with CCMP,
  the address :data:`AP_ADDRESS`, DHCP and DNS by NetworkManager's shared mode):
  ``nmcli connection delete id Mandala-AP`` (an old profile, if any), then ``nmcli
  connection add type wifi ifname DEV con-name Mandala-AP autoconnect no ssid Mandala-XXXX
  mode ap 802-11-wireless.band bg ipv4.method shared ipv4.addresses 10.42.0.1/24
  ipv6.method disabled wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp
  wifi-sec.group ccmp wifi-sec.psk PASSWORD`` and ``nmcli -w 30 connection up id
  Mandala-AP``; stopped with ``nmcli connection down id Mandala-AP`` (NetworkManager then
  joins a known network by itself).

nmcli's exit codes (``nmcli(1)``): 0 done, 3 timeout, 4 activation failed (``Secrets were
required, but not provided``: the password is wrong; ``The Wi-Fi network could not be
found``), 8 NetworkManager not running, 10 connection, device or network not found. Each
becomes one of the errors below with a plain message.

``XXXX`` is the first four hex digits of the SHA-256 of ``/etc/machine-id`` (the same box
always opens the same network); the password is made once at random and kept in the data
directory (``access-point.key``, mode 0600), printed by ``mandala pair``.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import logging
import os
import secrets
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final

from companion.games.base import MandalaError
from companion.phrases import say

log = logging.getLogger(__name__)

NMCLI: Final = "nmcli"
AP_CONNECTION: Final = "Mandala-AP"
"""The name of the access point's NetworkManager profile."""
AP_ADDRESS: Final = "10.42.0.1"
"""The box's own address on its access point (NetworkManager's shared-mode default)."""
AP_PREFIX: Final = "Mandala-"
JOIN_WAIT_S: Final = 45
"""How long ``nmcli -w`` waits for a network to be joined."""
AP_WAIT_S: Final = 30
RUN_SLACK_S: Final = 15
"""How much longer than its own ``-w`` an nmcli call may take before it is given up."""
PASSWORD_FILE: Final = "access-point.key"
MACHINE_ID: Final = Path("/etc/machine-id")
WIFI_TYPES: Final = frozenset({"wifi", "802-11-wireless"})
PASSWORD_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
PASSWORD_LENGTH: Final = 12

EXIT_TIMEOUT: Final = 3
EXIT_ACTIVATION: Final = 4
EXIT_NOT_RUNNING: Final = 8
EXIT_NOT_FOUND: Final = 10


class WifiError(MandalaError):
    """The Wi-Fi could not do what was asked; the message says what nmcli said."""

    code: ClassVar[str] = "wifi"


class WrongPassword(WifiError):
    """The network refused the password."""

    code: ClassVar[str] = "wrong_password"


class NetworkGone(WifiError):
    """No network of that name is in reach (or no such known network)."""

    code: ClassVar[str] = "network_gone"


class NetworkManagerDown(WifiError):
    """NetworkManager is not running (or nmcli is not installed)."""

    code: ClassVar[str] = "networkmanager_down"


class NoWifiDevice(WifiError):
    """This machine has no Wi-Fi device NetworkManager manages."""

    code: ClassVar[str] = "no_wifi_device"


class WifiTimeout(WifiError):
    """nmcli did not finish in time."""

    code: ClassVar[str] = "wifi_timeout"


def split_terse(line: str) -> list[str]:
    """Split one line of ``nmcli -t`` output into its fields (``\\:`` and ``\\\\`` undone)."""
    fields: list[str] = []
    current: list[str] = []
    escaped = False
    for char in line:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def terse_rows(output: str, width: int) -> list[list[str]]:
    """Every non-empty line of ``output`` split, padded or cut to ``width`` fields."""
    rows = []
    for line in output.splitlines():
        if line.strip():
            row = split_terse(line)
            rows.append((row + [""] * width)[:width])
    return rows


def nmcli_message(result: subprocess.CompletedProcess[str]) -> str:
    """nmcli's own message (its first line), without its ``Error:`` prefix."""
    lines = (result.stderr or result.stdout or "").strip().splitlines()
    text = " ".join(lines[0].split()) if lines else ""
    return text.removeprefix("Error: ").strip() or f"nmcli exited with {result.returncode}"


@dataclass(frozen=True)
class Network:
    """A Wi-Fi network in reach: its name, signal (0-100), security and whether it is in use."""

    ssid: str
    signal: int
    security: str
    in_use: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "ssid": self.ssid,
            "signal": self.signal,
            "security": self.security or "open",
            "in_use": self.in_use,
        }


@dataclass(frozen=True)
class WifiState:
    """What NetworkManager says now."""

    running: bool
    device: str | None = None
    connection: str | None = None
    """The connection active on the Wi-Fi device (the access point's name when it is up)."""
    known: tuple[str, ...] = ()
    """The Wi-Fi networks the box keeps (its own access point left out)."""

    @property
    def is_access_point(self) -> bool:
        return self.connection == AP_CONNECTION

    def to_json(self) -> dict[str, Any]:
        return {
            "running": self.running,
            "device": self.device,
            "connection": self.connection,
            "access_point": self.is_access_point,
            "known": list(self.known),
        }


@dataclass(frozen=True)
class AccessPoint:
    """The box's own network: its name, password and the panel's address on it."""

    ssid: str
    password: str
    address: str = AP_ADDRESS

    def to_json(self) -> dict[str, Any]:
        return {"ssid": self.ssid, "password": self.password, "address": self.address}


def box_id(machine_id: Path = MACHINE_ID) -> str:
    """Four hex digits that name this box (from ``/etc/machine-id``; ``0000`` without one)."""
    try:
        seed = machine_id.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return "0000"
    if not seed:
        return "0000"
    return hashlib.sha256(seed.encode()).hexdigest()[:4].upper()


def access_point_password(data_dir: Path) -> str:
    """The access point's password, made at random the first time and kept in ``data_dir``."""
    path = data_dir / PASSWORD_FILE
    try:
        found = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        found = ""
    except (OSError, UnicodeDecodeError) as error:
        raise WifiError.said(
            say(
                "cannot read the access point's password from {path}: {error}",
                path=str(path),
                error=str(error),
            )
        ) from None
    if len(found) >= 8:
        return found
    made = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(made + "\n")
            out.flush()
            os.fsync(out.fileno())
    except OSError as error:
        raise WifiError.said(
            say(
                "cannot keep the access point's password in {path}: {error}",
                path=str(path),
                error=str(error),
            )
        ) from None
    return made


@dataclass
class Nmcli:
    """Runs ``nmcli`` (``program``, found on ``PATH``) and turns its failures into errors."""

    program: str = NMCLI
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    def run(self, args: Sequence[str], wait: int | None = None) -> str:
        """Run ``nmcli -t [-w wait] ARGS``; answer its output.

        :raises WifiError: (or a subclass) for any exit but 0, with nmcli's message.
        """
        command = [self.program, "-t"]
        if wait is not None:
            command += ["-w", str(wait)]
        command += list(args)
        env = dict(self.env, LC_ALL="C.UTF-8", LANG="C.UTF-8", LANGUAGE="")
        try:
            result = subprocess.run(
                command,
                capture_output=True,
                text=True,
                env=env,
                timeout=(wait or 10) + RUN_SLACK_S,
                check=False,
            )
        except FileNotFoundError:
            raise NetworkManagerDown.said(
                say(
                    "NetworkManager's nmcli is not installed on this box "
                    "(sudo apt-get install network-manager)"
                )
            ) from None
        except subprocess.TimeoutExpired:
            raise WifiTimeout.said(
                say("nmcli did not answer within {seconds} s", seconds=(wait or 10) + RUN_SLACK_S)
            ) from None
        if result.returncode != 0:
            raise classify(result)
        return result.stdout


def classify(result: subprocess.CompletedProcess[str]) -> WifiError:
    """The error a failed nmcli call means, by its exit code and message."""
    message = nmcli_message(result)
    code = result.returncode
    if code == EXIT_NOT_RUNNING:
        return NetworkManagerDown.said(
            say(
                "NetworkManager is not running, so the box cannot change its Wi-Fi ({message})",
                message=message,
            )
        )
    if code == EXIT_NOT_FOUND:
        return NetworkGone(message)
    if code == EXIT_TIMEOUT:
        return WifiTimeout.said(
            say("the network did not answer in time ({message})", message=message)
        )
    if code == EXIT_ACTIVATION and "Secrets were required" in message:
        return WrongPassword.said(say("the password was not accepted ({message})", message=message))
    if code == EXIT_ACTIVATION and "could not be found" in message:
        return NetworkGone(message)
    return WifiError(message)


class Wifi:
    """The box's Wi-Fi: one small interface over ``nmcli`` (see the module's commands)."""

    def __init__(
        self, data_dir: Path, nmcli: Nmcli | None = None, machine_id: Path = MACHINE_ID
    ) -> None:
        self.data_dir = data_dir
        self.nmcli = nmcli or Nmcli()
        self.ssid = AP_PREFIX + box_id(machine_id)

    def state(self) -> WifiState:
        """What NetworkManager runs now (``running`` false when it is not running).

        :raises WifiError: when nmcli fails otherwise.
        """
        try:
            devices = terse_rows(
                self.nmcli.run(["-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"]), 4
            )
            profiles = terse_rows(
                self.nmcli.run(["-f", "NAME,TYPE,DEVICE", "connection", "show"]), 3
            )
        except NetworkManagerDown:
            return WifiState(running=False)
        wifi = [row for row in devices if row[1] in WIFI_TYPES]
        device = wifi[0][0] if wifi else None
        connection = wifi[0][3] or None if wifi else None
        known = tuple(
            name for name, kind, _ in profiles if kind in WIFI_TYPES and name != AP_CONNECTION
        )
        return WifiState(True, device, connection, known)

    def device(self) -> str:
        """The Wi-Fi device's name (``wlan0``).

        :raises NetworkManagerDown: when NetworkManager is not running.
        :raises NoWifiDevice: when it manages no Wi-Fi device.
        """
        state = self.state()
        if not state.running:
            raise NetworkManagerDown.said(
                say(
                    "NetworkManager is not running, so the box cannot change its Wi-Fi "
                    "(sudo systemctl start NetworkManager)"
                )
            )
        if state.device is None:
            raise NoWifiDevice.said(
                say("this box has no Wi-Fi device NetworkManager manages (nmcli device status)")
            )
        return state.device

    def scan(self, rescan: bool = True) -> list[Network]:
        """The networks in reach, strongest first, each name once (hidden ones left out)."""
        device = self.device()
        output = self.nmcli.run(
            [
                "-f",
                "IN-USE,SSID,SIGNAL,SECURITY",
                "device",
                "wifi",
                "list",
                "ifname",
                device,
                "--rescan",
                "yes" if rescan else "no",
            ]
        )
        best: dict[str, Network] = {}
        for in_use, ssid, signal, security in terse_rows(output, 4):
            if not ssid:
                continue
            strength = int(signal) if signal.isdigit() else 0
            network = Network(ssid, strength, "" if security in ("", "--") else security)
            network = Network(network.ssid, network.signal, network.security, in_use == "*")
            old = best.get(ssid)
            if old is None or (network.in_use, network.signal) > (old.in_use, old.signal):
                best[ssid] = network
        return sorted(best.values(), key=lambda n: (-n.signal, n.ssid))

    def join(self, ssid: str, password: str | None) -> None:
        """Join ``ssid`` (with ``password``; without one, a known or open network).

        :raises WrongPassword: when the network refused the password.
        :raises NetworkGone: when no network of that name is in reach.
        :raises WifiError: for the rest (NetworkManager down, no device, a timeout).
        """
        device = self.device()
        try:
            if password is None and ssid in self.state().known:
                self.nmcli.run(["connection", "up", "id", ssid], wait=JOIN_WAIT_S)
                return
            args = ["device", "wifi", "connect", ssid]
            if password is not None:
                args += ["password", password]
            self.nmcli.run([*args, "ifname", device], wait=JOIN_WAIT_S)
        except NetworkGone as error:
            log.warning("wifi: joining %r: %s", ssid, error)  # nmcli's words, for the log
            raise NetworkGone.said(
                say(
                    "no Wi-Fi network {ssid} is in reach; check its name, or bring the box "
                    "closer to its router",
                    ssid=repr(ssid),
                )
            ) from None
        except WrongPassword as error:
            log.warning("wifi: joining %r: %s", ssid, error)
            raise WrongPassword.said(
                say(
                    "{ssid} did not take that password; check it (capital letters count) "
                    "and try again",
                    ssid=repr(ssid),
                )
            ) from None

    def forget(self, name: str) -> None:
        """Forget the known network ``name`` (the box no longer joins it).

        :raises NetworkGone: when the box knows no network of that name.
        """
        if name == AP_CONNECTION:
            raise NetworkGone.said(
                say("{name} is the box's own access point, not a known network", name=repr(name))
            )
        try:
            self.nmcli.run(["connection", "delete", "id", name])
        except NetworkGone:
            raise NetworkGone.said(
                say("the box knows no Wi-Fi network {name}", name=repr(name))
            ) from None

    def access_point(self) -> AccessPoint:
        """The box's own network (its password made and kept the first time)."""
        return AccessPoint(self.ssid, access_point_password(self.data_dir))

    def open_access_point(self) -> AccessPoint:
        """Open the box's own network ``Mandala-XXXX`` (WPA2) and answer its name and password.

        :raises WifiError: when NetworkManager, the device or the radio refuse.
        """
        device = self.device()
        point = self.access_point()
        with contextlib.suppress(NetworkGone):  # no profile from before
            self.nmcli.run(["connection", "delete", "id", AP_CONNECTION])
        settings = {
            "type": "wifi",
            "ifname": device,
            "con-name": AP_CONNECTION,
            "autoconnect": "no",
            "ssid": point.ssid,
            "mode": "ap",
            "802-11-wireless.band": "bg",
            "ipv4.method": "shared",
            "ipv4.addresses": f"{AP_ADDRESS}/24",
            "ipv6.method": "disabled",
            "wifi-sec.key-mgmt": "wpa-psk",
            "wifi-sec.proto": "rsn",  # WPA2 only
            "wifi-sec.pairwise": "ccmp",
            "wifi-sec.group": "ccmp",
            "wifi-sec.psk": point.password,
        }
        self.nmcli.run(["connection", "add", *itertools.chain.from_iterable(settings.items())])
        self.nmcli.run(["connection", "up", "id", AP_CONNECTION], wait=AP_WAIT_S)
        return point

    def stop_access_point(self) -> None:
        """Close the box's own network (NetworkManager then joins a known one by itself)."""
        with contextlib.suppress(NetworkGone):  # it was not up
            self.nmcli.run(["connection", "down", "id", AP_CONNECTION])

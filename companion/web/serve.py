"""``mandala serve``: options (command line over config file), the companion's parts, waitress.

The config file is TOML with the command line's names (``host``, ``port``, ``data``,
``emulate``) plus ``board`` (the board whose spokes the sensors count), ``pin_map`` and
``led_map`` (files; the bundled maps when absent) and ``hardware`` (``auto``, ``emulate``,
``lgpio`` or ``rpigpio``); options given on the command line win. ``auto`` emulates where no
Raspberry Pi is found, and says so.
"""

from __future__ import annotations

import os
import socket
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.games.base import (
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_str,
    check_keys,
)

HARDWARE_MODES = ("auto", "emulate", "lgpio", "rpigpio")
CONFIG_KEYS = ("host", "port", "data", "emulate", "board", "pin_map", "led_map", "hardware")
STREAM_THREADS = 8  # waitress threads beyond one per live stream, for ordinary requests


def default_data_dir() -> Path:
    """Return the user's data directory for the companion (XDG: ``~/.local/share/mandala``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mandala"


@dataclass(frozen=True)
class ServeOptions:
    """What ``mandala serve`` runs with."""

    host: str = "127.0.0.1"
    port: int = 8000
    data: Path | None = None
    hardware: str = "auto"
    board: str = "reference"
    pin_map: Path | None = None
    led_map: Path | None = None

    @property
    def data_dir(self) -> Path:
        """Where games, ring offsets and the owner's boards are kept."""
        return self.data if self.data is not None else default_data_dir()


def read_config(path: Path) -> ServeOptions:
    """Read a TOML config file; relative paths in it are relative to the file.

    :raises RecordError: ``<file>: <key>: ...`` for an unreadable file, a key that is unknown
        or a value of the wrong kind.
    """
    label = str(path)
    try:
        obj: Any = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise RecordError(f"{label}: cannot read: {reason}") from None
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"{label}: not TOML: {error}") from None
    try:
        return options_from_mapping(as_dict(obj, "config"), path.parent)
    except RecordError as error:
        raise error.at(label) from None


def options_from_mapping(obj: dict[str, Any], base: Path) -> ServeOptions:
    """Build options from a parsed config file (``base`` resolves relative paths)."""
    check_keys(obj, "", (), CONFIG_KEYS)
    options = ServeOptions()

    def path(key: str) -> Path:
        value = Path(as_str(obj[key], key)).expanduser()
        return value if value.is_absolute() else base / value

    if "host" in obj:
        options = replace(options, host=as_str(obj["host"], "host"))
    if "port" in obj:
        options = replace(options, port=as_int(obj["port"], "port", 0, 65535))
    if "data" in obj:
        options = replace(options, data=path("data"))
    if "hardware" in obj:
        options = replace(options, hardware=as_str(obj["hardware"], "hardware", HARDWARE_MODES))
    if "emulate" in obj and as_bool(obj["emulate"], "emulate"):
        options = replace(options, hardware="emulate")
    if "board" in obj:
        options = replace(options, board=as_str(obj["board"], "board"))
    if "pin_map" in obj:
        options = replace(options, pin_map=path("pin_map"))
    if "led_map" in obj:
        options = replace(options, led_map=path("led_map"))
    return options


def is_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """Say whether this machine is a Raspberry Pi (its device tree says so)."""
    try:
        return "raspberry pi" in model_file.read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def choose_backend(hardware: str, on_pi: bool) -> tuple[str, str]:
    """Return the pin backend (``mock``, ``lgpio``, ``rpigpio``) and a line saying why."""
    if hardware == "emulate":
        return "mock", "emulated rings and LEDs (--emulate): turn the rings from the panel"
    if hardware == "auto" and not on_pi:
        return "mock", (
            "no Raspberry Pi found: emulated rings and LEDs; turn the rings from the panel"
        )
    backend = "lgpio" if hardware == "auto" else hardware
    return backend, f"sensing the real rings through {backend}"


def addresses(host: str, port: int) -> list[str]:
    """Return the panel's address(es) to open: every interface's own for a wildcard host."""
    if host in ("0.0.0.0", "::", ""):
        found = ["127.0.0.1"]
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("10.255.255.255", 1))  # no packet is sent: it picks a route
                found.insert(0, probe.getsockname()[0])
        except OSError:
            pass
        return [f"http://{name}:{port}/" for name in dict.fromkeys(found)]
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}/"]

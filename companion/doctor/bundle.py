"""The diagnostics bundle: one .zip the owner downloads from the Health page.

It is made on the box from what the box knows (config, pin and LED maps, versions of the
OS, Python and every installed library, the sensor counters, the checks, the last log
lines) and handed to the owner's browser; nothing is ever sent anywhere else. No game, seat
token or owner token is in it.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import io
import json
import platform
import sys
import time
import zipfile
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from companion.doctor.checks import Check

README = """Mandala Companion diagnostics bundle, made {made} on this box.

It was made by the companion itself and downloaded by your browser; the companion never
sends it anywhere. Look inside before you share it: it holds your config and maps, the
versions of the system and its libraries, the sensors' counters, the Health checks and the
last {lines} log lines. It holds no games and no tokens.
"""


def versions(root: Path = Path("/")) -> str:
    """The OS, the board, Python and every installed distribution with its version."""
    lines = [f"os: {_os_release(root)}", f"platform: {platform.platform()}"]
    model = _read(root / "proc/device-tree/model")
    lines.append(f"board: {model.strip(chr(0)).strip() if model else 'not a Raspberry Pi'}")
    lines.append(f"python: {sys.version.split()[0]} ({sys.executable})")
    found = {
        (dist.metadata["Name"] or "?").lower(): dist.version
        for dist in importlib.metadata.distributions()
    }
    lines.append("libraries:")
    lines += [f"  {name}=={version}" for name, version in sorted(found.items())]
    return "\n".join(lines) + "\n"


def _os_release(root: Path) -> str:
    text = _read(root / "etc/os-release") or ""
    for line in text.splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return platform.system()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def map_text(path: Path | None, bundled: str) -> str:
    """The text of a configured map file, or of the bundled ``hardware/<bundled>``."""
    if path is not None:
        return _read(path) or f"# {path}: cannot be read\n"
    return files("hardware").joinpath(bundled).read_text(encoding="utf-8")


def _json(value: Any) -> str:
    def plain(item: Any) -> Any:
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.asdict(item)
        if isinstance(item, Path):
            return str(item)
        return repr(item)

    return json.dumps(value, indent=2, default=plain) + "\n"


def make_bundle(  # noqa: PLR0917
    checks: Sequence[Check],
    config_text: str | None,
    options: Any,
    maps: Mapping[str, str],
    parsed: Mapping[str, Any],
    sensors: Any,
    service: Any,
    log_lines: Sequence[str],
    root: Path = Path("/"),
) -> bytes:
    """Zip everything into one archive; return its bytes.

    ``maps``: file name -> text (``pins.toml``, ``leds.toml``); ``parsed``: the maps as read;
    ``sensors``: the ring bank's counters; ``service``: the table's status.
    """
    made = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", README.format(made=made, lines=len(log_lines)))
        archive.writestr("checks.txt", "".join(check.line() + "\n" for check in checks))
        archive.writestr("config.toml", config_text or "# no config file: every default\n")
        archive.writestr("options.json", _json(options))
        for name, text in maps.items():
            archive.writestr(name, text)
        archive.writestr("maps.json", _json(dict(parsed)))
        archive.writestr("versions.txt", versions(root))
        archive.writestr("sensors.json", _json(sensors))
        archive.writestr("service.json", _json(service))
        archive.writestr("log.txt", "".join(line + "\n" for line in log_lines))
    return out.getvalue()

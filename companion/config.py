"""``mandala serve``'s options: the config file under the command line, the backend, the maps.

The config file is TOML with the command line's names (``host``, ``port``, ``data``,
``emulate``) plus ``board`` (the board whose spokes the sensors count), ``pin_map`` and
``led_map`` (files; the bundled maps when absent) and ``hardware`` (``auto``, ``emulate``,
``lgpio`` or ``rpigpio``); options given on the command line win. ``auto`` emulates where no
Raspberry Pi is found, and says so. Emulation without a ``pin_map`` uses the bundled map of
the PWM LED driver (``hardware/pins-pwm.toml``), which wires an ``undo`` button too.
``cards_budget_ms`` (the card companion's search time per decision, default 200) and
``cards_pause_ms`` (the least time each of its actions takes, default 700) are config-only,
and so is ``allowed_hosts`` (names the panel answers to besides localhost, the hostname, its
``.local`` name and the machine's addresses, e.g. ``["mandala.home.arpa"]``), and ``wifi``
(``auto``: the box manages its Wi-Fi through NetworkManager on a Pi, never in emulation;
``on``: in emulation too; ``off``: never), ``language`` (the box's: ``en`` or ``de``, what
the table view and the Pi's speaker use; phones choose their own), and the ``[speech]``
table: ``speaker = true`` has the Pi's speaker say the announcements through ``espeak-ng``
(``voice``, default the box's ``language``; ``rate`` in words a minute, default 160;
``companion.speaker``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.catalogue import SOURCE, languages
from companion.games.base import (
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
)

HARDWARE_MODES = ("auto", "emulate", "lgpio", "rpigpio")
CONFIG_KEYS = (
    "host",
    "port",
    "data",
    "emulate",
    "board",
    "pin_map",
    "led_map",
    "hardware",
    "cards_budget_ms",
    "cards_pause_ms",
    "allowed_hosts",
    "wifi",
    "language",
    "speech",
)
SPEECH_KEYS = ("speaker", "voice", "rate")
WIFI_MODES = ("auto", "on", "off")
MAX_CARDS_MS = 60_000


def default_data_dir() -> Path:
    """Return the user's data directory for the companion (XDG: ``~/.local/share/mandala``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mandala"


@dataclass(frozen=True)
class SpeechOptions:
    """The config's ``[speech]`` table: ``speaker`` (off by default), ``voice``, ``rate``."""

    speaker: bool = False
    voice: str | None = None
    """An ``espeak-ng`` voice (``espeak-ng --voices`` lists them; None: the box's language)."""
    rate: int = 160
    """Words a minute (``espeak-ng -s``; its own default is 175)."""


def parse_speech(value: object) -> SpeechOptions:
    """Read the ``[speech]`` table.

    :raises RecordError: ``speech.rate: ...`` for a key unknown or a value of the wrong kind.
    """
    table = as_dict(value, "speech")
    check_keys(table, "speech", (), SPEECH_KEYS)
    found = SpeechOptions()
    if "speaker" in table:
        found = replace(found, speaker=as_bool(table["speaker"], "speech.speaker"))
    if "voice" in table:
        voice = as_str(table["voice"], "speech.voice")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_+/.-]{0,63}", voice):
            raise RecordError(f"speech.voice: {voice!r} is not an espeak-ng voice name")
        found = replace(found, voice=voice)
    if "rate" in table:
        found = replace(found, rate=as_int(table["rate"], "speech.rate", 80, 450))
    return found


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
    cards_budget_ms: int | None = None
    """The card companion's search budget per decision (None: its default, 200 ms)."""
    cards_pause_ms: int | None = None
    """How long each of the card companion's actions takes at least (None: 700 ms)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the panel answers to besides its own (``companion.web.security``)."""
    language: str = SOURCE
    """The box's language (``companion.catalogue``): the table view's and the speaker's."""
    wifi: str = "auto"
    """Whether the box manages its Wi-Fi through NetworkManager (``companion.box.wifi``):
    ``auto`` on a Pi (never in emulation), ``on`` also in emulation, ``off`` never."""
    speech: SpeechOptions = SpeechOptions()
    """The Pi's speaker (``[speech]``; ``companion.speaker``)."""
    config_file: Path | None = None
    """The config file these options were read from (the diagnostics bundle carries it)."""

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
        options = options_from_mapping(as_dict(obj, "config"), path.parent)
    except RecordError as error:
        raise error.at(label) from None
    return replace(options, config_file=path)


def options_from_mapping(obj: dict[str, Any], base: Path) -> ServeOptions:
    """Build options from a parsed config file (``base`` resolves relative paths)."""
    check_keys(obj, "", (), CONFIG_KEYS)

    def path(value: Any, key: str) -> Path:
        found = Path(as_str(value, key)).expanduser()
        return found if found.is_absolute() else base / found

    def emulate(value: Any, key: str) -> str | None:
        return "emulate" if as_bool(value, key) else None

    # In this order (``emulate = true`` wins over ``hardware``): config key, option, reader.
    readers: tuple[tuple[str, str, Callable[[Any, str], object]], ...] = (
        ("host", "host", as_str),
        ("port", "port", lambda value, key: as_int(value, key, 0, 65535)),
        ("data", "data", path),
        ("hardware", "hardware", lambda value, key: as_str(value, key, HARDWARE_MODES)),
        ("emulate", "hardware", emulate),
        ("board", "board", as_str),
        ("pin_map", "pin_map", path),
        ("led_map", "led_map", path),
        ("cards_budget_ms", "cards_budget_ms", lambda v, key: as_int(v, key, 1, MAX_CARDS_MS)),
        ("cards_pause_ms", "cards_pause_ms", lambda v, key: as_int(v, key, 0, MAX_CARDS_MS)),
        ("allowed_hosts", "allowed_hosts", lambda value, key: parse_hosts(value)),
        ("wifi", "wifi", lambda value, key: as_str(value, key, WIFI_MODES)),
        ("language", "language", lambda value, key: as_str(value, key, languages())),
        ("speech", "speech", lambda value, key: parse_speech(value)),
    )
    changes: dict[str, Any] = {}
    for key, option, read in readers:
        if key in obj:
            value = read(obj[key], key)
            if value is not None:
                changes[option] = value
    return replace(ServeOptions(), **changes)


HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")


def parse_hosts(value: object) -> tuple[str, ...]:
    """Read ``allowed_hosts``: a list of host names (``mandala.home.arpa``).

    :raises RecordError: ``allowed_hosts[i]: ...`` for an entry that is not a host name.
    """
    names = []
    for index, item in enumerate(as_list(value, "allowed_hosts")):
        name = as_str(item, f"allowed_hosts[{index}]").rstrip(".").lower()
        if len(name) > 253 or not HOST_NAME.fullmatch(name):
            raise RecordError(f"allowed_hosts[{index}]: {item!r} is not a host name")
        names.append(name)
    return tuple(names)


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


def load_maps(options: ServeOptions, backend: str) -> tuple[Any, Any]:
    """Read the configured pin and LED maps (``firmware.maps.PinMap``, ``LedMap``).

    Emulation without a configured pin map uses the PWM-driver map: it wires both the "done"
    and the "undo" button (the SPI map has no free pin for "undo").

    :raises RecordError: for a map that cannot be used (the message names the key).
    """
    from firmware.maps import BUNDLED_PIN_MAP, PWM_PIN_MAP, MapError, load_led_map, load_pin_map

    try:
        bundled = PWM_PIN_MAP if backend == "mock" else BUNDLED_PIN_MAP
        return load_pin_map(options.pin_map, bundled=bundled), load_led_map(options.led_map)
    except MapError as error:
        raise RecordError(str(error)) from None

"""``mandala serve``: options (command line over config file), the companion's parts, waitress.

The config file is TOML with the command line's names (``host``, ``port``, ``data``,
``emulate``) plus ``board`` (the board whose spokes the sensors count), ``pin_map`` and
``led_map`` (files; the bundled maps when absent) and ``hardware`` (``auto``, ``emulate``,
``lgpio`` or ``rpigpio``); options given on the command line win. ``auto`` emulates where no
Raspberry Pi is found, and says so. Emulation without a ``pin_map`` uses the bundled map of
the PWM LED driver (``hardware/pins-pwm.toml``), which wires an ``undo`` button too.
``cards_budget_ms`` (the card companion's search time per decision, default 200) and
``cards_pause_ms`` (the least time each of its actions takes, default 700) are config-only,
and so is ``allowed_hosts`` (names the panel answers to besides localhost, the hostname, its
``.local`` name and the machine's addresses, e.g. ``["mandala.home.arpa"]``).
"""

from __future__ import annotations

import gc
import logging
import os
import re
import socket
import sqlite3
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from companion.games.base import (
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
)

log = logging.getLogger(__name__)


def firmware_errors() -> tuple[tuple[type[Exception], int, str], ...]:
    """The firmware's errors as the panel answers them (``create_app(more_errors=...)``).

    No such part (e.g. an unwired button) is 404 ``not_found``; hardware that fails is 503
    ``hardware``. The web layer does not import the firmware, so they are mapped here.
    """
    from firmware.errors import HardwareError, RequestError

    return ((RequestError, 404, "not_found"), (HardwareError, 503, "hardware"))


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
)
MAX_CARDS_MS = 60_000
STREAM_THREADS = 8  # waitress threads beyond one per live stream, for ordinary requests
CONNECTIONS = 500  # open connections waitress accepts (its default, 100, is one busy client)
OUTBUF_BYTES = 1024 * 1024  # the most one connection may hold unsent before its writer waits


def make_server(app: Any, host: str, port: int) -> Any:
    """Build the panel's waitress server (bound, not yet serving).

    A thread per live stream the table allows and :data:`STREAM_THREADS` more for ordinary
    requests. ``channel_request_lookahead`` keeps reading a connection while its request
    runs, so a phone that closes a live stream is noticed at once (its place is freed)
    rather than at the next write; ``outbuf_high_watermark`` caps what one connection may
    hold unsent (a live stream is ended long before, see ``companion.web.events``).
    """
    from waitress.server import create_server

    from companion.table.hub import MAX_SUBSCRIBERS

    return create_server(
        app,
        host=host,
        port=port,
        threads=MAX_SUBSCRIBERS + STREAM_THREADS,
        ident="mandala",
        clear_untrusted_proxy_headers=True,
        channel_request_lookahead=1,
        connection_limit=CONNECTIONS,
        outbuf_high_watermark=OUTBUF_BYTES,
    )


def stop_server(server: Any, table: Any) -> None:
    """End every live stream, then close the server (it waits for its threads to finish)."""
    table.close_streams()
    server.close()


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
    cards_budget_ms: int | None = None
    """The card companion's search budget per decision (None: its default, 200 ms)."""
    cards_pause_ms: int | None = None
    """How long each of the card companion's actions takes at least (None: 700 ms)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the panel answers to besides its own (``companion.web.security``)."""
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
    if "cards_budget_ms" in obj:
        budget = as_int(obj["cards_budget_ms"], "cards_budget_ms", 1, MAX_CARDS_MS)
        options = replace(options, cards_budget_ms=budget)
    if "cards_pause_ms" in obj:
        pause = as_int(obj["cards_pause_ms"], "cards_pause_ms", 0, MAX_CARDS_MS)
        options = replace(options, cards_pause_ms=pause)
    if "allowed_hosts" in obj:
        options = replace(options, allowed_hosts=parse_hosts(obj["allowed_hosts"]))
    return options


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


def run(options: ServeOptions, stdout: TextIO, stderr: TextIO, on_pi: bool | None = None) -> int:
    """Lock the data directory, then serve as :func:`serve` does until stopped.

    :raises RecordError: ``data: DIR is in use by another mandala serve (process N); ...``
        when another server holds the directory (one server per data directory).
    """
    from companion.table.lock import DataDirInUse, lock_data_dir

    data = options.data_dir
    try:
        data.mkdir(parents=True, exist_ok=True)
        lock = lock_data_dir(data)  # held for the process's life: one server per data dir
    except DataDirInUse as error:
        raise RecordError(str(error)) from None
    except OSError as error:
        raise RecordError(f"data: cannot use {data}: {error.strerror or error}") from None
    try:
        return serve(options, stdout, stderr, on_pi)
    finally:
        lock.release()
        # The process exits next: spare it the final collection of every object the
        # companion built (0.7 s of a 1 s stop on the test machine); nothing is left to close.
        gc.freeze()


def serve(options: ServeOptions, stdout: TextIO, stderr: TextIO, on_pi: bool | None = None) -> int:
    """Start the table (with its rings) and the panel on waitress; serve until stopped.

    :returns: the exit status (0 after SIGTERM/SIGINT, 69 when the pin backend is missing).
    :raises RecordError: for a pin or LED map that cannot be used (the CLI prints it).
    """
    from companion import systemd
    from companion.doctor import logbuffer
    from companion.table import Table
    from companion.table.errors import StorageError
    from companion.web import create_app
    from firmware import HardwareError
    from firmware.hardware import Hardware
    from firmware.maps import MapError

    backend, why = choose_backend(options.hardware, is_raspberry_pi() if on_pi is None else on_pi)
    pin_map, led_map = load_maps(options, backend)
    data = options.data_dir
    boards = data / "boards"
    try:
        boards.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"data: cannot use {data}: {error.strerror or error}") from None

    def open_hardware(
        report_ring: Callable[[Any], None],
        report_button: Callable[[str], None],
        spokes: int,
        offsets: list[int] | None,
    ) -> Any:
        emulate = backend == "mock"
        return Hardware.open(
            pin_map,
            led_map,
            spokes,
            emulate,
            report_ring,
            report_button,
            offsets,
            pin_backend=backend,
        )

    log_buffer = logbuffer.install()  # the Health page's bundle carries the last lines
    table = Table(data, open_hardware, boards)
    table.companion.configure(options.cards_budget_ms, options.cards_pause_ms)
    try:
        table.start()
    except HardwareError as error:
        table.close()
        return systemd.report_unavailable(error, backend, stderr=stderr)
    except MapError as error:
        table.close()
        raise RecordError(str(error)) from None
    except (StorageError, sqlite3.Error, OSError) as error:
        # A database from a newer release, a read-only or damaged file: restarting the
        # service cannot fix it, so it is one line and exit 2, never a traceback.
        table.close()
        raise RecordError(f"data: {' '.join(str(error).split())}") from None
    config = {
        "BOARDS_DIR": boards,
        "DEFAULT_BOARD": options.board,
        "DETENTS_PER_SLOT": [ring.detents_per_slot for ring in pin_map.rings],
        "SERVE_OPTIONS": options,
        "CONFIG_FILE": options.config_file,
        "LOG_BUFFER": log_buffer,
        "ALLOWED_HOSTS": list(options.allowed_hosts),
    }
    app = create_app(config, table=table, more_errors=firmware_errors())
    server = make_server(app, options.host, options.port)
    listen = getattr(server, "effective_listen", None) or [
        (server.effective_host, server.effective_port)
    ]
    port = int(listen[0][1])
    print(f"mandala: {why}", file=stdout, flush=True)
    print(f"mandala: data in {data}", file=stdout, flush=True)
    for address in addresses(options.host, port):
        print(f"mandala: open the panel at {address}", file=stdout, flush=True)
    log.info("%s; data in %s; serving on port %d", why, data, port)
    return systemd.run_service(
        server.run,
        is_alive=systemd.table_liveness(table),
        close_table=table.close,
        blank_leds=lambda: None,  # the table blanks the strip as it closes
        close_server=lambda: stop_server(server, table),
        end_streams=table.close_streams,
        ready_status=f"serving on port {port}",
        stderr=stderr,
    )

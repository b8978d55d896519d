"""``mandala doctor [--emulate] [--config FILE] [--data DIR]``: one line per check, exit 0 or 1.

The hardware is chosen as ``mandala serve`` chooses it (``hardware`` in the config; off a Pi,
or with ``--emulate``, the emulated pins and strip), and the same pin and LED maps are read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from companion.config import ServeOptions, choose_backend, is_raspberry_pi, load_maps
from companion.doctor.checks import Check, Probes, has_failure, run_checks
from companion.doctor.probes import HostFiles, host_probes, running_companion
from companion.games.base import RecordError
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME
from firmware.maps import PinMap

EXIT_OK = 0
EXIT_FAILED = 1


def doctor(
    options: ServeOptions,
    stdout: TextIO,
    *,
    on_pi: bool | None = None,
    root: Path = Path("/"),
) -> int:
    """Print every check's line; return 1 when any failed, else 0.

    ``root`` is where the system's files are read (``/``; tests give a folder of stand-ins).
    """
    backend, _ = choose_backend(options.hardware, is_raspberry_pi() if on_pi is None else on_pi)
    emulate = backend == "mock"
    what = "the emulated pins and LED strip" if emulate else "this Raspberry Pi"
    print(f"mandala doctor: checking {what}", file=stdout, flush=True)
    try:
        pin_map, _ = load_maps(options, backend)
    except RecordError as error:
        print(Check("maps", "fail", str(error)).line(), file=stdout)
        return EXIT_FAILED
    pid = None if emulate else running_companion(options.data_dir, HostFiles(root))
    held_by = None if pid is None else f"the running companion (process {pid})"
    with host_probes(pin_map, emulate, root, held_by) as probes:
        checks = collect(pin_map, options.data_dir, probes)
    for check in checks:
        print(check.line(), file=stdout, flush=True)
    return EXIT_FAILED if has_failure(checks) else EXIT_OK


def collect(pin_map: PinMap, data_dir: Path, probes: Probes) -> list[Check]:
    """Run every check with this release's database name and schema."""
    return run_checks(pin_map, data_dir, probes, schema_version=SCHEMA_VERSION, db_name=DB_NAME)

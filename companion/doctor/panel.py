"""The doctor as the panel's Health page asks it: checks on the running companion, LED roles,
the diagnostics bundle.

The web layer does not import the doctor (nor the firmware): ``companion.serve`` builds a
:class:`PanelDoctor` and hands it to ``create_app(diagnostics=...)``, which the Health page
and ``/api/health`` reach through ``companion.web.context.Diagnostics``.
"""

from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.doctor.bundle import make_bundle, map_text
from companion.doctor.checks import (
    Check,
    check_clock,
    check_data_dir,
    check_database,
    run_checks,
)
from companion.doctor.logbuffer import LogBuffer
from companion.doctor.probes import (
    HostDisk,
    HostFiles,
    SqliteDatabase,
    SystemClock,
    running_probes,
)
from companion.games.base import JSON
from companion.phrases import say
from companion.table.guided import role_pixels
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME
from companion.web.i18n import words
from firmware.maps import LED_ROLES


class PanelDoctor:
    """The doctor's answers about a running companion, for the panel.

    ``options`` are the ``mandala serve`` options it runs with, ``config_file`` the file they
    came from and ``logs`` the last log lines: the bundle carries all three (None: left out).
    """

    def __init__(
        self,
        options: Any = None,
        config_file: Path | None = None,
        logs: LogBuffer | None = None,
        speaker: Any = None,
    ) -> None:
        self.options = options
        self.config_file = config_file
        self.logs = logs
        self.speaker = speaker
        """The Pi's speaker (``companion.speaker.Speaker``), or None when it is off."""

    def checks(self, service: Any) -> list[dict[str, JSON]]:
        """Every check against the running companion, as JSON (fewer with no ring board), in
        the language of the request that asks."""
        return [check.to_json(words) for check in self._checks(service) + self.speaker_checks()]

    def speaker_checks(self) -> list[Check]:
        """The speaker's line when it is on: whether espeak-ng is there and speaks."""
        if self.speaker is None:
            return []
        status, phrase = self.speaker.check_words()
        return [Check("speaker", status, phrase)]

    def led_roles(self, hardware: Any) -> list[tuple[str, int]]:
        """Each role of the LED map with how many pixels it lights."""
        return [(role, len(role_pixels(hardware.led_map, role))) for role in LED_ROLES]

    def bundle(self, service: Any) -> tuple[str, bytes]:
        """The diagnostics .zip of the running companion: its file name and its bytes."""
        hardware = service.hardware
        maps: dict[str, str] = {}
        parsed: dict[str, Any] = {}
        sensors: Any = None
        if hardware is not None:
            bundled = "pins-pwm.toml" if hardware.emulated else "pins.toml"
            maps["pins.toml"] = map_text(getattr(self.options, "pin_map", None), bundled)
            maps["leds.toml"] = map_text(getattr(self.options, "led_map", None), "leds.toml")
            parsed = {"pin_map": hardware.pin_map, "led_map": hardware.led_map}
            sensors = [asdict(status) for status in hardware.bank.status()]
        config_text = None
        if self.config_file is not None:
            try:
                config_text = Path(self.config_file).read_text(encoding="utf-8")
            except OSError as error:
                config_text = f"# {self.config_file}: cannot be read: {error.strerror or error}\n"
        data = make_bundle(
            self._checks(service),
            config_text,
            self.options,
            maps,
            parsed,
            {"rings": sensors, "health": service.health_view()},
            service.status(),
            self.logs.lines() if self.logs is not None else [],
        )
        return time.strftime("mandala-diagnostics-%Y%m%d-%H%M%S.zip"), data

    @staticmethod
    def _checks(service: Any) -> list[Check]:
        hardware = service.hardware
        data_dir = service.data_dir
        if hardware is None:
            return [
                Check("hardware", "warn", say("no ring board is attached to this companion")),
                check_data_dir(data_dir, HostDisk(), serving=True),
                check_database(data_dir / DB_NAME, SqliteDatabase(), SCHEMA_VERSION),
                check_clock(SystemClock(HostFiles())),
            ]
        return run_checks(
            hardware.pin_map,
            data_dir,
            running_probes(hardware),
            schema_version=SCHEMA_VERSION,
            db_name=DB_NAME,
            serving=True,
        )

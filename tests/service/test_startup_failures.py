"""Every start-up failure of ``mandala serve`` is one line and an exit status the unit keeps.

The real command runs in a subprocess: on the real pin path with the lgpio stand-in (its
world says which line another program holds), or emulated for the data directory's
failures. systemd is the notify socket of ``tests/service/test_notify.py``; the unit's
``RestartPreventExitStatus`` must list every status seen here, so ``systemctl status``
shows the line and systemd does not restart the service into the same failure.
"""

from __future__ import annotations

import configparser
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.table.schema import SCHEMA_VERSION
from tests.firmware.lgpio_standin import pi_world, standin_env
from tests.firmware.test_imports import PWM_MISSING
from tests.service.test_notify import FakeSystemd

REPO = Path(__file__).resolve().parents[2]


def restart_prevented() -> set[int]:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(REPO / "systemd" / "mandala.service")
    return {int(status) for status in unit["Service"]["RestartPreventExitStatus"].split()}


def pin_map_without_the_serial_pins(tmp_path: Path) -> Path:
    """The PWM build's map with ring 5 on GPIO11/9 (its undo button dropped), so GPIO14/15
    (this machine's kernel has console=ttyS0) are not claimed."""
    text = (REPO / "hardware" / "pins-pwm.toml").read_text()
    text = text.replace("a = 14\nb = 15", "a = 11\nb = 9").replace("undo = 9\n", "")
    path = tmp_path / "pins.toml"
    path.write_text(text)
    return path


def serve(
    tmp_path: Path, config: str, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    systemd = FakeSystemd(str(tmp_path / "notify.sock"))
    env = {**env, "NOTIFY_SOCKET": systemd.address}
    path = tmp_path / "config.toml"
    path.write_text(f'port = 0\ndata = "{tmp_path / "data"}"\n' + config)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion.cli", "serve", "--config", str(path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=REPO,
            timeout=120,
            check=False,
        )
        messages = systemd.wait_for("ERRNO=69") if done.returncode == 69 else []
        statuses = [
            line for message in messages for line in message.split("\n") if "STATUS=" in line
        ]
    finally:
        systemd.close()
    return done, statuses


def test_a_busy_ring_pin_is_one_line_naming_key_pin_and_holder_and_no_restart(
    tmp_path: Path,
) -> None:
    env = standin_env(pi_world(held={25: "pigpio"}))
    pins = pin_map_without_the_serial_pins(tmp_path)
    done, statuses = serve(tmp_path, f'hardware = "lgpio"\npin_map = "{pins}"\n', env)
    line = (
        "mandala: the 'lgpio' hardware backend is unavailable: rings[7].b: GPIO25 is busy "
        "(the kernel says 'pigpio' holds it): stop the other program or service using it, or "
        "wire rings[7].b to a free pin"
    )
    assert (done.returncode, done.stdout, done.stderr) == (69, "", line + "\n")
    assert statuses == ["STATUS=" + line.removeprefix("mandala: ")]
    assert done.returncode in restart_prevented()


def test_the_pwm_driver_under_the_service_is_refused_in_one_line_saying_how_to_run_it(
    tmp_path: Path,
) -> None:
    env = standin_env(pi_world())
    pins = pin_map_without_the_serial_pins(tmp_path)
    done, _ = serve(tmp_path, f'hardware = "lgpio"\npin_map = "{pins}"\n', env)
    assert done.returncode == 69
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        "mandala: the 'lgpio' hardware backend is unavailable: leds.driver: the \"neopixel\" "
        "(PWM) driver cannot run under the mandala service: it needs root and the rpi_ws281x "
        f"library ({PWM_MISSING})"
    )
    assert lines[0].endswith(
        "sudo /opt/mandala/venv/bin/mandala serve --config /etc/mandala/config.toml"
    )


def test_a_database_from_a_newer_release_is_one_line_and_no_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "table.db") as db:
        db.execute("PRAGMA user_version = 999")
    done, _ = serve(tmp_path, 'hardware = "emulate"\n', {**standin_env(pi_world())})
    assert done.returncode == 2
    assert done.stderr == (
        f"mandala: data: {data / 'table.db'}: schema version 999 is newer than this release "
        f"understands ({SCHEMA_VERSION}); install a newer mandala-companion\n"
    )
    assert done.returncode in restart_prevented()


def test_a_read_only_data_directory_is_one_line_and_no_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    locked = subprocess.run(
        ["chattr", "+i", str(data)], capture_output=True, text=True, check=False
    )
    if locked.returncode != 0:
        pytest.skip(f"this file system cannot make a directory immutable: {locked.stderr}")
    try:
        done, _ = serve(tmp_path, 'hardware = "emulate"\n', {**standin_env(pi_world())})
    finally:
        subprocess.run(["chattr", "-i", str(data)], check=False)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"mandala: data: cannot use {data}: ")
    assert "Traceback" not in done.stderr

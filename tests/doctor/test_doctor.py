"""`mandala doctor`: one line per check, exit 0 when nothing fails, the right reason if one does.

The checks run over the real probes; only what this machine lacks stands in: lgpio's C calls
on a Pi's header (``tests/doctor/standins.py``), a Pi's files under a folder (``/dev/spidev0.0``,
``/proc/cmdline``, ``/etc/group``), and the clock's answers where they would come from a Pi.
"""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.catalogue import render
from companion.config import ServeOptions
from companion.doctor.checks import (
    check_clock,
    check_data_dir,
    check_database,
    check_groups,
    check_pins_free,
    check_rest_levels,
    check_serial,
    check_strip,
)
from companion.doctor.command import doctor
from companion.doctor.probes import (
    TIME_ERROR,
    FileAccounts,
    HostFiles,
    LgpioLines,
    PiStrip,
    SqliteDatabase,
    SystemClock,
)
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME
from companion.table.table import Table
from firmware.maps import load_pin_map
from tests.conftest import run_cli
from tests.doctor.standins import pi_files
from tests.firmware.lgpio_standin import encoder_pins, load_standin, pi_world, standin_env

PIN_MAP = load_pin_map()  # the bundled SPI map: rings on 14/15, done on 21


def lines_of(text: str) -> dict[str, str]:
    """The doctor's output as check name -> its whole line."""
    found = {}
    for line in text.splitlines()[1:]:
        name = line[5:].split(":", 1)[0]
        found[name] = line
    return found


def test_doctor_emulate_passes_and_prints_one_line_per_check(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    mandala = Path(sys.executable).parent / "mandala"
    done = subprocess.run(
        [str(mandala), "doctor", "--emulate", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    first, *checks = done.stdout.splitlines()
    assert first == "mandala doctor: checking the emulated pins and LED strip"
    names = [line[5:].split(":", 1)[0] for line in checks]
    assert names == ["leds", "groups", "serial", "pins", "rest", "data", "database", "clock"]
    for line in checks:
        assert line[:5] in ("ok   ", "warn "), line
    assert lines_of(done.stdout)["rest"] == (
        "ok   rest: all 10 rings rest with both lines at their rest level"
    )


def world(missing_pull_up: int | None = None, held: dict[int, str] | None = None) -> Any:
    """A Pi 4 whose encoder lines all have their pull-ups but ``missing_pull_up``."""
    pull_ups = set(encoder_pins(PIN_MAP)) - {missing_pull_up}
    return pi_world("pi4", pull_ups=pull_ups, held=held)


def test_doctor_fails_naming_a_busy_pin_and_a_missing_pull_up(
    tmp_path: Path, lgpio_kernel: Any
) -> None:
    # Every encoder line has its external pull-up except ring 3's line B (GPIO19), and the
    # done button's GPIO21 is held by another program.
    kernel = load_standin().standin_reset(world(missing_pull_up=19, held={21: "gpio-keys"}))
    root = pi_files(tmp_path / "root")
    data = tmp_path / "data"
    data.mkdir()
    out = io.StringIO()
    status = doctor(ServeOptions(data=data, hardware="lgpio"), out, on_pi=True, root=root)
    found = lines_of(out.getvalue())
    assert status == 1
    assert found["pins"] == (
        "fail pins: GPIO21 (buttons.done) is busy, held by 'gpio-keys': stop what holds it "
        "(sudo systemctl stop mandala if it is the companion, or open its Health page "
        "instead) or change the pin map"
    )
    assert found["rest"].startswith(
        'fail rest: ring 3: line B (GPIO19) reads low at rest (rest = "open" expects high): '
        "a missing pull-up (10 kOhm to 3.3 V)"
    )
    assert found["serial"] == "ok   serial: the serial console is off " + (
        "(GPIO14 (rings[5].a) and GPIO15 (rings[5].b) are free for rings)"
    )
    assert found["groups"] == "ok   groups: the mandala user is in gpio, spi"
    # Each ring line was claimed with the pull-down on (only a real pull-up reads high),
    # and released again: lgpio_kernel checks that the chip was closed.
    claims = {call[1]: call[2] for call in kernel.calls if call[0] == "gpio_claim_input"}
    assert {claims[pin] for pin in encoder_pins(PIN_MAP)} == {load_standin().SET_PULL_DOWN}
    freed = {call[1] for call in kernel.calls if call[0] == "gpio_free"}
    assert freed == set(encoder_pins(PIN_MAP))


def test_mandala_doctor_on_a_pi_exits_1_with_one_line_per_failure(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('hardware = "lgpio"\n')
    (tmp_path / "data").mkdir()
    mandala = Path(sys.executable).parent / "mandala"
    done = subprocess.run(
        [str(mandala), "doctor", "--config", str(config), "--data", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=standin_env(world(missing_pull_up=26, held={4: "lg"})),
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    found = lines_of(done.stdout)
    assert done.stdout.splitlines()[0] == "mandala doctor: checking this Raspberry Pi"
    assert found["pins"].startswith(
        "fail pins: GPIO4 (rings[0].a) is busy, held by 'lg': stop what holds it"
    )
    assert found["rest"] == (
        'fail rest: ring 4: line A (GPIO26) reads low at rest (rest = "open" expects high): '
        "a missing pull-up (10 kOhm to 3.3 V), a broken wire, or the ring is between two "
        "clicks (turn it into one and check again); it was read with the Pi's pull-down on, "
        "so only a pull-up makes it high"
    )
    assert len(done.stdout.splitlines()) == 9


def test_a_line_pulled_up_reads_high_and_passes(lgpio_kernel: Any) -> None:
    lines = LgpioLines(load_standin())
    assert check_pins_free(PIN_MAP, lines).status == "ok"
    assert check_rest_levels(PIN_MAP, lines).line() == (
        "ok   rest: all 10 rings rest with both lines at their rest level"
    )
    lines.close()


def test_both_lines_of_a_ring_low_suggest_the_closed_rest(lgpio_kernel: Any) -> None:
    module = load_standin()
    module.standin_reset(pi_world("pi4", pull_ups=set(encoder_pins(PIN_MAP)) - {4, 17}))
    lines = LgpioLines(module)
    check = check_rest_levels(PIN_MAP, lines)
    lines.close()
    assert check.status == "fail"
    assert check.message.startswith("ring 0: line A (GPIO4) and line B (GPIO17) read low at rest")
    assert 'an encoder that rests closed needs rest = "closed"' in check.message


def test_a_busy_ring_line_is_not_read_and_says_so(lgpio_kernel: Any) -> None:
    module = load_standin()
    module.standin_reset(world(held={4: "lg"}))
    lines = LgpioLines(module)
    check = check_rest_levels(PIN_MAP, lines)
    lines.close()
    assert check.line() == "warn rest: not read: ring 0 line A (GPIO4: busy, held by 'lg')"


def test_a_pi_5_with_its_header_on_gpiochip4_is_found(lgpio_kernel: Any) -> None:
    module = load_standin()
    module.standin_reset(pi_world("pi5", pull_ups=encoder_pins(PIN_MAP), pi5_chip=4))
    lines = LgpioLines(module)
    assert check_rest_levels(PIN_MAP, lines).status == "ok"
    lines.close()


def test_no_gpio_chip_the_user_may_open_fails_the_pin_check(lgpio_kernel: Any) -> None:
    module = load_standin()
    module.standin_reset(pi_world("pi4", access=False))
    check = check_pins_free(PIN_MAP, LgpioLines(module))
    assert check.status == "fail"
    assert check.message.startswith("no GPIO chip of a Raspberry Pi's header")


def test_the_serial_console_on_fails_when_gpio14_and_15_are_ring_lines(tmp_path: Path) -> None:
    root = pi_files(tmp_path, cmdline="console=serial0,115200 console=tty1 root=/dev/mmcblk0p2")
    check = check_serial(PIN_MAP, HostFiles(root), emulated=False)
    assert check.status == "fail"
    assert check.message.startswith(
        "the serial console is on (console=serial0 in /proc/cmdline) but GPIO14 (rings[5].a) "
        "and GPIO15 (rings[5].b) are ring lines: turn it off: sudo raspi-config nonint "
        "do_serial_cons 1"
    )


def test_a_login_prompt_on_the_serial_port_fails_too(tmp_path: Path) -> None:
    root = pi_files(tmp_path)
    wants = root / "etc/systemd/system/getty.target.wants"
    wants.mkdir(parents=True)
    (wants / "serial-getty@ttyS0.service").write_text("")
    check = check_serial(PIN_MAP, HostFiles(root), emulated=False)
    assert check.status == "fail"
    assert "a login prompt runs on the serial port (serial-getty@ttyS0)" in check.message


def test_spi_off_fails_with_how_to_turn_it_on(tmp_path: Path) -> None:
    root = pi_files(tmp_path)
    (root / "dev" / "spidev0.0").unlink()
    check = check_strip(PIN_MAP.leds, HostFiles(root), PiStrip())
    assert check.line() == (
        "fail leds: SPI is off (no /dev/spidev0.0): add dtparam=spi=on to "
        "/boot/firmware/config.txt (sudo systemd/install.sh does) and reboot"
    )


def test_a_service_user_without_the_spi_group_fails(tmp_path: Path) -> None:
    root = pi_files(tmp_path)
    (root / "etc" / "group").write_text("gpio:x:997:mandala\nspi:x:999:pi\nmandala:x:995:\n")
    check = check_groups(PIN_MAP.leds, FileAccounts(HostFiles(root)), emulated=False)
    assert check.line() == (
        "fail groups: the mandala user is not in the spi group: sudo usermod -aG spi mandala "
        "(sudo systemd/install.sh does), then sudo systemctl restart mandala"
    )


def test_no_service_user_fails_with_the_install_command(tmp_path: Path) -> None:
    root = pi_files(tmp_path)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    check = check_groups(PIN_MAP.leds, FileAccounts(HostFiles(root)), emulated=False)
    assert check.line() == (
        "fail groups: there is no 'mandala' user: install the service with sudo systemd/install.sh"
    )


def test_the_database_check_reads_a_running_servers_database_without_disturbing_it(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, None)
    table.start()
    try:
        created = table.create_game({"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 3})
        check = check_database(tmp_path / DB_NAME, SqliteDatabase(), SCHEMA_VERSION)
        assert check.line() == (
            f"ok   database: {tmp_path / DB_NAME} passes quick_check (schema {SCHEMA_VERSION})"
        )
        # The server still writes after the check has looked.
        table.delete(str(created["id"]))
        assert table.list_games() == []
    finally:
        table.close()


def test_a_damaged_database_fails_and_says_it_will_be_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(b"this is not an SQLite file at all" * 200)
    check = check_database(path, SqliteDatabase(), SCHEMA_VERSION)
    assert check.status == "fail"
    assert check.message.startswith(f"{path} is damaged (file is not a database)")
    assert f"{DB_NAME}.damaged-<time>" in check.message


def test_a_database_from_a_newer_release_fails(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    check = check_database(path, SqliteDatabase(), SCHEMA_VERSION)
    assert check.status == "fail"
    assert "is from a newer release" in check.message


def test_the_clock_is_ok_once_timesyncd_has_synchronised_it(tmp_path: Path) -> None:
    root = pi_files(tmp_path)
    (root / "run/systemd/timesync").mkdir(parents=True)
    (root / "run/systemd/timesync/synchronized").write_text("")
    clock = SystemClock(HostFiles(root), run=lambda argv: None, kernel_state=lambda: TIME_ERROR)
    assert check_clock(clock).line() == "ok   clock: synchronised (systemd-timesyncd)"


def test_a_clock_never_synchronised_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    clock = SystemClock(
        HostFiles(pi_files(tmp_path)), run=lambda argv: "no\n", kernel_state=lambda: TIME_ERROR
    )
    check = check_clock(clock)
    assert check.status == "warn"
    assert check.message.startswith(
        "the clock was never synchronised since boot (adjtimex: the kernel clock is unsynchronised)"
    )


def test_a_config_file_that_cannot_be_read_is_the_usual_one_line_error(tmp_path: Path) -> None:
    result = run_cli(["doctor", "--config", str(tmp_path / "missing.toml")])
    assert result.status == 2
    assert result.stderr.startswith("mandala: ")
    assert "missing.toml: cannot read" in result.stderr


def test_while_the_companion_serves_the_doctor_leaves_its_pins_alone(tmp_path: Path) -> None:
    from tests.web.browser import serve_emulated

    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text('hardware = "lgpio"\n')
    mandala = Path(sys.executable).parent / "mandala"
    with serve_emulated(data):
        pid = int((data / "serve.lock").read_text())
        done = subprocess.run(
            [str(mandala), "doctor", "--config", str(config), "--data", str(data)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=standin_env(world(missing_pull_up=19)),
        )
    found = lines_of(done.stdout)
    assert found["pins"] == (
        f"ok   pins: all 21 ring and button pins are held by the running companion (process {pid})"
    )
    assert found["rest"] == (
        f"warn rest: not read: the encoder lines are held by the running companion (process "
        f"{pid}): its Health page reads them; or stop it (sudo systemctl stop mandala) and "
        "check again"
    )
    assert found["database"].startswith("ok   database: ")


def test_spi_keeping_its_chip_selects_on_ring_8_says_which_overlay_frees_them(
    lgpio_kernel: Any,
) -> None:
    module = load_standin()
    module.standin_reset(world(held={8: "spi0 CS0", 7: "spi0 CS1"}))
    lines = LgpioLines(module)
    check = check_pins_free(PIN_MAP, lines)
    lines.close()
    assert check.line() == (
        "fail pins: GPIO8 (rings[8].a) is busy, held by 'spi0 CS0'; GPIO7 (rings[8].b) is busy, "
        "held by 'spi0 CS1': SPI still keeps its chip selects on GPIO7/8; add "
        "dtoverlay=spi0-0cs to /boot/firmware/config.txt (sudo systemd/install.sh does when "
        "leds.spi_chip_selects = false) and reboot"
    )


class _FreeDisk:
    def __init__(self, free: int) -> None:
        self.free = free

    def write_test(self, folder: Path) -> str | None:
        return None

    def free_bytes(self, folder: Path) -> int:
        return self.free


def test_the_data_checks_free_space_has_the_decimal_mark_of_the_readers_language(
    tmp_path: Path,
) -> None:
    free = int(75.1 * 1024**3)
    check = check_data_dir(tmp_path, _FreeDisk(free), serving=True)
    assert check.message == f"{tmp_path} is writable, 75.1 GB free"
    assert (
        check.text(lambda found: render(found, "de"))
        == f"{tmp_path} ist beschreibbar, 75,1 GB frei"
    )
    small = check_data_dir(tmp_path, _FreeDisk(int(2.5 * 1024**2)), serving=True)
    assert small.message.endswith(", 2.5 MB free: free some space, games cannot be saved")
    assert ", 2,5 MB " in small.text(lambda found: render(found, "de"))

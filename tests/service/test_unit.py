"""The systemd unit: systemd's own checker accepts it, and it says what the spec requires."""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "mandala.service"
EXEC = "/opt/mandala/venv/bin/mandala"


def tool(name: str) -> str:
    """The path of a system tool; a missing one is a failure (CI installs systemd)."""
    found = shutil.which(name)
    assert found is not None, f"{name} is not installed: apt-get install systemd"
    return found


def directives(text: str) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit file, every value of a repeated key kept in order."""
    found: dict[str, list[str]] = defaultdict(list)
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found[key].append(value)
    return dict(found)


def staged_root(base: Path, unit_text: str) -> Path:
    """A filesystem root as the install script leaves it: the unit and the program in place.

    The distribution's own units are copied in so the unit's dependencies
    (multi-user.target, network-online.target) resolve as they do on the Pi.
    """
    root = base / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    program = root / EXEC.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    unit = root / "etc/systemd/system/mandala.service"
    unit.parent.mkdir(parents=True)
    unit.write_text(unit_text)
    return root


def verify(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            tool("systemd-analyze"),
            "verify",
            f"--root={root}",
            str(root / "etc/systemd/system/mandala.service"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_systemd_analyze_verify_passes_with_nothing_on_stderr(tmp_path: Path) -> None:
    done = verify(staged_root(tmp_path, UNIT.read_text()))
    assert done.stderr == ""
    assert done.returncode == 0


def test_systemd_analyze_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("Type=notify", "Type=notifyy")
    done = verify(staged_root(tmp_path, broken))
    assert "Failed to parse service type, ignoring: notifyy" in done.stderr


def test_systemd_analyze_verify_catches_a_missing_program(tmp_path: Path) -> None:
    root = staged_root(tmp_path, UNIT.read_text())
    (root / EXEC.lstrip("/")).unlink()
    done = verify(root)
    assert done.returncode != 0
    assert f"Command {EXEC} is not executable: No such file or directory" in done.stderr


UPDATE_UNITS = ("mandala-update.service", "mandala-update.path")
PYTHON = "/opt/mandala/venv/bin/python"


def test_the_updater_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    root = staged_root(tmp_path, UNIT.read_text())
    (root / PYTHON.lstrip("/")).write_text("#!/bin/sh\nexit 0\n")
    (root / PYTHON.lstrip("/")).chmod(0o755)
    for name in UPDATE_UNITS:
        (root / "etc/systemd/system" / name).write_text((REPO / "systemd" / name).read_text())
    done = subprocess.run(
        [tool("systemd-analyze"), "verify", f"--root={root}",
         *(str(root / "etc/systemd/system" / name) for name in UPDATE_UNITS)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.stderr == ""
    assert done.returncode == 0


def test_the_service_runs_the_current_release_first_and_tells_the_panel_of_the_updater(
    unit: dict[str, list[str]],
) -> None:
    env = unit["Environment"]
    assert "PYTHONPATH=/opt/mandala/current" in env
    assert "MANDALA_INSTALL=/opt/mandala" in env
    # The updater's window is systemd's own start timeout: READY=1 within a minute.
    assert unit["TimeoutStartSec"] == ["60"]


def test_the_path_unit_starts_the_updater_when_the_panel_staged_a_release() -> None:
    path = directives((REPO / "systemd" / "mandala-update.path").read_text())
    assert path["PathExists"] == ["/var/lib/mandala/updates/request.json"]
    assert path["Unit"] == ["mandala-update.service"]
    updater = directives((REPO / "systemd" / "mandala-update.service").read_text())
    assert updater["Type"] == ["oneshot"]
    assert updater["ExecStart"] == [
        f"{PYTHON} -m companion.box.update --data /var/lib/mandala --install /opt/mandala "
        "--window 60"
    ]
    assert "User" not in updater  # root: it stops and starts mandala.service
    assert updater["WantedBy"] == ["multi-user.target"]  # at boot: an interrupted update
    assert "Environment" not in updater  # never an uploaded release's code as root


def test_enabling_the_unit_links_it_into_multi_user_target(tmp_path: Path) -> None:
    root = staged_root(tmp_path, UNIT.read_text())
    done = subprocess.run(
        [tool("systemctl"), f"--root={root}", "enable", "mandala.service"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    link = root / "etc/systemd/system/multi-user.target.wants/mandala.service"
    assert link.is_symlink()
    assert link.readlink() == Path("/etc/systemd/system/mandala.service")


@pytest.fixture(scope="module")
def unit() -> dict[str, list[str]]:
    return directives(UNIT.read_text())


def test_unit_is_notify_type_and_only_the_main_process_may_notify(
    unit: dict[str, list[str]],
) -> None:
    assert unit["Type"] == ["notify"]
    assert unit["NotifyAccess"] == ["main"]


def test_unit_runs_the_installed_mandala_serve_as_its_own_user(
    unit: dict[str, list[str]],
) -> None:
    assert unit["ExecStart"] == [
        f"{EXEC} serve --config /etc/mandala/config.toml --data ${{STATE_DIRECTORY}}"
    ]
    assert unit["User"] == ["mandala"]
    assert unit["Group"] == ["mandala"]
    assert unit["SupplementaryGroups"] == ["gpio spi"]


def test_unit_restarts_on_failure_under_a_watchdog(unit: dict[str, list[str]]) -> None:
    assert unit["Restart"] == ["on-failure"]
    assert unit["WatchdogSec"] == ["30"]
    # Neither a bad config or data directory (exit 2) nor the hardware (69) is retried:
    # restarting cannot fix them, and each is one line in `systemctl status`.
    assert unit["RestartPreventExitStatus"] == ["2 69"]
    assert unit["StartLimitBurst"] == ["5"]
    assert unit["TimeoutStopSec"] == ["15"]


def test_unit_has_state_and_runtime_directories_and_lgpio_works_in_the_latter(
    unit: dict[str, list[str]],
) -> None:
    assert unit["StateDirectory"] == ["mandala"]
    assert unit["RuntimeDirectory"] == ["mandala"]
    env = unit["Environment"]
    assert "LG_WD=%t/mandala" in env
    assert "BLINKA_SKIP_DEPENDENCY_CHECK=1" in env


def test_unit_binds_port_80_without_root(unit: dict[str, list[str]]) -> None:
    assert unit["AmbientCapabilities"] == ["CAP_NET_BIND_SERVICE"]
    assert unit["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]


def test_unit_is_hardened_but_keeps_the_gpio_and_spi_devices(
    unit: dict[str, list[str]],
) -> None:
    assert unit["ProtectSystem"] == ["strict"]
    assert unit["PrivateTmp"] == ["yes"]
    assert unit["NoNewPrivileges"] == ["yes"]
    assert unit["ProtectHome"] == ["yes"]
    assert "PrivateDevices" not in unit
    assert "DevicePolicy" not in unit

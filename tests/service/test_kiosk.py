"""The kiosk: its unit passes systemd's checker, install.sh installs it disabled for the desktop
user, and its program starts Chromium full-screen on the desktop's display with the table view.

This machine has no desktop: the display is a real Unix socket named as Wayland names its
own (``$XDG_RUNTIME_DIR/wayland-0``) and Chromium a stand-in on ``PATH`` that records how it
was started (the program ``exec``s it, as it would the real one).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.test_install import Installer
from tests.service.test_unit import UNIT, directives, staged_root, tool

REPO = Path(__file__).resolve().parents[2]
KIOSK_UNIT = REPO / "systemd" / "mandala-kiosk.service"
PROGRAM = REPO / "systemd" / "mandala-kiosk"
NOBODY = 65534

STANDIN = """#!/bin/sh
exec /usr/bin/python3 - "$@" <<'PY'
import json, os, sys
with open(os.environ["KIOSK_LOG"], "w") as log:
    json.dump({"argv": sys.argv[1:], "uid": os.getuid(),
               "wayland": os.environ.get("WAYLAND_DISPLAY"),
               "runtime": os.environ.get("XDG_RUNTIME_DIR")}, log)
PY
"""


def verify(root: Path, *units: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("systemd-analyze"), "verify", f"--root={root}", *map(str, units)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def kiosk_root(tmp_path: Path) -> Path:
    """A root as install.sh leaves it: the service, the kiosk's program and unit in place."""
    root = staged_root(tmp_path, UNIT.read_text())
    program = root / "opt/mandala/kiosk"
    shutil.copy(PROGRAM, program)
    (root / "etc/systemd/system/mandala-kiosk.service").write_text(KIOSK_UNIT.read_text())
    return root


def test_the_kiosk_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    root = kiosk_root(tmp_path)
    dropin = root / "etc/systemd/system/mandala-kiosk.service.d"
    dropin.mkdir()
    (dropin / "user.conf").write_text(
        "[Service]\nUser=pi\nEnvironment=MANDALA_KIOSK_URL=http://127.0.0.1/table\n"
    )
    done = verify(root, root / "etc/systemd/system/mandala-kiosk.service")
    assert done.stderr == ""
    assert done.returncode == 0


def test_verify_sees_the_kiosk_unit_broken(tmp_path: Path) -> None:
    root = kiosk_root(tmp_path)
    unit = root / "etc/systemd/system/mandala-kiosk.service"
    unit.write_text(KIOSK_UNIT.read_text().replace("Restart=always", "Restart=sometimes"))
    done = verify(root, unit)
    assert "Failed to parse service restart specifier, ignoring: sometimes" in done.stderr


def test_the_kiosk_starts_after_the_panel_is_ready_on_the_desktop_and_comes_back() -> None:
    unit = directives(KIOSK_UNIT.read_text())
    assert unit["Wants"] == ["mandala.service"]
    assert "mandala.service" in unit["After"][0].split()  # Type=notify: after READY=1
    assert unit["WantedBy"] == ["graphical.target"]
    assert unit["ExecStart"] == ["/opt/mandala/kiosk"]
    assert unit["Restart"] == ["always"]
    assert "User" not in unit  # install.sh's drop-in names the desktop user
    assert "PrivateTmp" not in unit  # X's socket is in /tmp


def run_kiosk(
    tmp_path: Path, env: dict[str, str], uid: int | None
) -> subprocess.CompletedProcess[str]:
    """Run the kiosk program as ``uid`` (None: as this process) with the stand-in Chromium."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    chromium = bin_dir / "chromium"
    chromium.write_text(STANDIN)
    chromium.chmod(0o755)
    full = {"PATH": f"{bin_dir}:/usr/bin:/bin", "KIOSK_LOG": str(tmp_path / "log.json"), **env}
    # A copy beside the stand-in, as install.sh puts it in /opt: the checkout may be in a
    # folder the desktop user cannot read (CI's is in /root).
    program = bin_dir / "kiosk"
    shutil.copyfile(PROGRAM, program)
    program.chmod(0o755)
    command = [str(program)]
    if uid is not None:
        setpriv = tool("setpriv")
        command = [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *command]
    return subprocess.run(
        command, env=full, capture_output=True, text=True, timeout=30, check=False
    )


@pytest.fixture
def desktop() -> Iterator[tuple[Path, int | None]]:
    """A desktop user's runtime folder with a Wayland socket; the uid to run as (not root).

    In a folder of its own under /tmp: pytest's temporary folders are root's alone."""
    uid = NOBODY if os.getuid() == 0 else None
    tmp_path = Path(tempfile.mkdtemp(prefix="kiosk-"))
    tmp_path.chmod(0o755)
    runtime = tmp_path / "run-user"
    runtime.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(runtime / "wayland-0"))
    if uid is not None:
        for path in (runtime, home, runtime / "wayland-0", tmp_path):
            os.chown(path, uid, uid)
    yield tmp_path, uid
    listener.close()
    shutil.rmtree(tmp_path)


def test_the_kiosk_runs_chromium_full_screen_on_the_wayland_display_with_the_table_view(
    desktop: tuple[Path, int | None],
) -> None:
    base, uid = desktop
    env = {
        "XDG_RUNTIME_DIR": str(base / "run-user"),
        "HOME": str(base / "home"),
        "MANDALA_KIOSK_URL": "http://127.0.0.1:8000/table",
    }
    preferences = base / "home/.config/mandala-kiosk/Default/Preferences"
    preferences.parent.mkdir(parents=True)
    preferences.write_text('{"profile":{"exit_type":"Crashed","exited_cleanly":false}}')
    if uid is not None:
        for path in (preferences, *preferences.parents):
            if path == base:
                break
            os.chown(path, uid, uid)
    done = run_kiosk(base, env, uid)
    assert done.returncode == 0, done.stderr
    started = json.loads((base / "log.json").read_text())
    argv = started["argv"]
    assert argv[-1] == "http://127.0.0.1:8000/table"
    for flag in ("--kiosk", "--noerrdialogs", "--no-first-run", "--ozone-platform=wayland",
                 "--autoplay-policy=no-user-gesture-required", "--disable-infobars"):  # fmt: skip
        assert flag in argv, (flag, argv)
    assert f"--user-data-dir={base}/home/.config/mandala-kiosk" in argv
    assert started["wayland"] == "wayland-0"
    assert started["runtime"] == str(base / "run-user")
    assert started["uid"] == (uid if uid is not None else os.getuid())
    # A power cut left the profile "crashed": no "restore pages?" bubble on the next start.
    assert preferences.read_text() == ('{"profile":{"exit_type":"Normal","exited_cleanly":true}}')


def test_the_kiosk_without_a_display_says_how_to_log_the_desktop_in(
    desktop: tuple[Path, int | None],
) -> None:
    base, uid = desktop
    empty = base / "run-user-empty"
    empty.mkdir()
    if uid is not None:
        os.chown(empty, uid, uid)
    env = {"XDG_RUNTIME_DIR": str(empty), "HOME": str(base / "home"), "MANDALA_KIOSK_WAIT": "1"}
    if Path("/tmp/.X11-unix/X0").exists():
        pytest.fail("this machine has an X display :0; the test needs none")
    done = run_kiosk(base, env, uid)
    assert done.returncode == 1
    assert done.stderr == (
        "kiosk: no desktop display after 1 s: log the desktop user in by itself (raspi-config: "
        "System Options, Boot / Auto Login, Desktop Autologin)\n"
    )
    assert not (base / "log.json").exists()


def test_the_kiosk_refuses_to_run_as_root(tmp_path: Path) -> None:
    if os.getuid() != 0:  # not root here: an `id` that answers as root's does
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "id").write_text("#!/bin/sh\necho 0\n")
        (tmp_path / "bin" / "id").chmod(0o755)
    done = run_kiosk(tmp_path, {}, None)
    assert done.returncode == 2
    assert done.stderr == (
        "kiosk: runs as the desktop user, not root: sudo systemd/install.sh --kiosk-user NAME\n"
    )
    assert not (tmp_path / "log.json").exists()


def test_install_puts_the_kiosk_in_disabled_for_the_first_user_and_the_panels_port(
    tmp_path: Path,
) -> None:
    installer = Installer(tmp_path)
    passwd = installer.path("/etc/passwd")
    passwd.write_text(passwd.read_text() + "ann:x:1000:1000:Ann:/home/ann:/bin/bash\n")
    run = installer.run("--port", "8000")
    assert run.status == 0, run.stderr
    unit = installer.path("/etc/systemd/system/mandala-kiosk.service")
    assert unit.read_bytes() == KIOSK_UNIT.read_bytes()
    program = installer.path("/opt/mandala/kiosk")
    assert program.read_bytes() == PROGRAM.read_bytes()
    assert program.stat().st_mode & 0o777 == 0o755
    dropin = installer.path("/etc/systemd/system/mandala-kiosk.service.d/user.conf")
    assert directives(dropin.read_text()) == {
        "User": ["ann"],
        "Environment": ["MANDALA_KIOSK_URL=http://127.0.0.1:8000/table"],
    }
    assert not [call for call in run.calls if "mandala-kiosk.service" in call]  # not enabled
    assert (
        "== the kiosk (installed disabled: sudo systemctl enable --now mandala-kiosk)"
        in run.stdout.splitlines()
    )


def test_install_takes_the_kiosk_user_given_and_says_when_there_is_none(tmp_path: Path) -> None:
    installer = Installer(tmp_path / "given")
    run = installer.run("--kiosk-user", "bo")
    assert run.status == 0, run.stderr
    dropin = installer.path("/etc/systemd/system/mandala-kiosk.service.d/user.conf")
    assert directives(dropin.read_text()) == {
        "User": ["bo"],
        "Environment": ["MANDALA_KIOSK_URL=http://127.0.0.1/table"],
    }
    nobody = Installer(tmp_path / "none")
    run = nobody.run()
    assert run.status == 0, run.stderr
    assert "no desktop user (UID 1000): the kiosk needs one (--kiosk-user NAME)" in run.stdout
    assert not nobody.path("/etc/systemd/system/mandala-kiosk.service.d").exists()
    assert nobody.path("/etc/systemd/system/mandala-kiosk.service").is_file()


def test_uninstall_removes_the_kiosk_unit_and_its_drop_in(tmp_path: Path) -> None:
    installer = Installer(tmp_path)
    assert installer.run("--kiosk-user", "ann").status == 0
    gone = installer.run("--uninstall")
    assert gone.status == 0, gone.stderr
    assert ["systemctl", "stop", "mandala-kiosk.service"] in gone.calls
    assert not installer.path("/etc/systemd/system/mandala-kiosk.service").exists()
    assert not installer.path("/etc/systemd/system/mandala-kiosk.service.d").exists()
    assert not installer.path("/opt/mandala/kiosk").exists()

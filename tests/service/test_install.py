"""systemd/install.sh into a temporary root, with recording stubs for the system's tools.

The Pi's package archive and a running systemd cannot be reached here, so apt-get,
systemctl, pip and the account tools are replaced by stubs that record their arguments
(the account tools also do what they would do inside ``--root``: edit its /etc/passwd and
/etc/group, so the second run can see the user). The virtual environment is real.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"

STUB = f"""#!{sys.executable}
import json, os, sys
from pathlib import Path

name = Path(sys.argv[0]).name
args = sys.argv[1:]
with open(os.environ["STUB_LOG"], "a") as log:
    log.write(json.dumps([name, *args]) + "\\n")
root = Path(args[args.index("--root") + 1]) if "--root" in args else None
if root is not None and name in ("useradd", "groupadd", "userdel", "usermod"):
    passwd, group = root / "etc" / "passwd", root / "etc" / "group"
    for path in (passwd, group):
        path.touch()
    if name == "groupadd":
        with group.open("a") as f:
            f.write(f"{{args[-1]}}:x:990:\\n")
    elif name == "useradd":
        user = args[-1]
        with passwd.open("a") as f:
            f.write(f"{{user}}:x:991:991::/var/lib/{{user}}:/usr/sbin/nologin\\n")
        lines = group.read_text().splitlines()
        extra = args[args.index("--groups") + 1].split(",")
        lines = [line + ("," if line.split(":")[3] else "") + user
                 if line.split(":")[0] in extra else line for line in lines]
        lines.append(f"{{user}}:x:991:")
        group.write_text("\\n".join(lines) + "\\n")
    elif name == "usermod":
        user = args[-1]
        extra = args[args.index("--groups") + 1].split(",")
        lines = [line + ("," if line.split(":")[3] else "") + user
                 if line.split(":")[0] in extra else line
                 for line in group.read_text().splitlines()]
        group.write_text("\\n".join(lines) + "\\n")
    elif name == "userdel":
        user = args[-1]
        passwd.write_text("".join(
            line + "\\n" for line in passwd.read_text().splitlines()
            if not line.startswith(user + ":")))
"""

# Stands in for /usr/bin/python3 where the venv is not what a test is about (making a real
# one takes seconds): ``-m venv`` writes what venv would; anything else runs real Python.
FAKE_PYTHON = """#!EXECUTABLE
import json, os, sys
from pathlib import Path

if sys.argv[1:3] == ["-m", "venv"]:
    with open(os.environ["STUB_LOG"], "a") as log:
        log.write(json.dumps(["python3", *sys.argv[1:]]) + "\\n")
    venv = Path(sys.argv[-1])
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\\n")
    (venv / "bin" / "python").symlink_to(sys.executable)
else:
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
""".replace("EXECUTABLE", sys.executable)

TOOLS = ("apt-get", "systemctl", "useradd", "usermod", "userdel", "groupadd", "pip")


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str
    calls: list[list[str]]

    def steps(self, base: Path) -> list[str]:
        """The ``+ command`` lines, with the temporary directory spelled ``BASE``."""
        return [
            line.replace(str(base), "BASE")
            for line in self.stdout.splitlines()
            if line.startswith("+ ")
        ]


class Installer:
    """Runs install.sh against one temporary root with stubs on the side."""

    def __init__(self, base: Path, real_venv: bool = False) -> None:
        base.mkdir(parents=True, exist_ok=True)
        self.base = base
        self.root = base / "root"
        self.root.mkdir()
        (self.root / "etc").mkdir()
        # A Pi OS image has its gpio and spi groups already; start with an empty group file.
        (self.root / "etc" / "group").write_text("root:x:0:\n")
        (self.root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
        self.bin = base / "bin"
        self.bin.mkdir()
        for tool in TOOLS:
            path = self.bin / tool
            path.write_text(STUB)
            path.chmod(0o755)
        self.log = base / "calls.jsonl"
        self.python: Path | None = None
        if not real_venv:
            self.python = self.bin / "python3"
            self.python.write_text(FAKE_PYTHON)
            self.python.chmod(0o755)

    def run(self, *args: str, source: Path = REPO) -> Run:
        self.log.write_text("")
        env = dict(os.environ)
        env.update(
            {f"MANDALA_{tool.upper().replace('-', '_')}": str(self.bin / tool) for tool in TOOLS}
        )
        env["STUB_LOG"] = str(self.log)
        if self.python is not None:
            env["MANDALA_PYTHON"] = str(self.python)
        env.pop("MANDALA_ROOT", None)
        done = subprocess.run(
            [str(SCRIPT), "--root", str(self.root), "--source", str(source), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        calls = [json.loads(line) for line in self.log.read_text().splitlines()]
        return Run(done.returncode, done.stdout, done.stderr, calls)

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")


@pytest.fixture
def installer(tmp_path: Path) -> Installer:
    return Installer(tmp_path)


@pytest.fixture
def real_installer(tmp_path: Path) -> Installer:
    """Makes a real virtual environment with the system's Python."""
    return Installer(tmp_path, real_venv=True)


PACKAGES = [
    "python3-venv",
    "python3-pip",
    "python3-lgpio",
    "avahi-daemon",
    "dnsmasq-base",
]
KIOSK = ("mandala-kiosk.service", "mandala-kiosk")
PIP = ["pip", "install", "--upgrade", "--disable-pip-version-check", "--only-binary=:all:"]


def unit_calls(root: Path) -> list[list[str]]:
    """The service and the updater's units: enabled (the updater at boot too, to finish an
    update a power cut interrupted) and (re)started."""
    return [
        ["systemctl", "daemon-reload"],
        ["systemctl", f"--root={root}", "enable", "mandala.service"],
        ["systemctl", f"--root={root}", "enable", "mandala-update.path"],
        ["systemctl", f"--root={root}", "enable", "mandala-update.service"],
        ["systemctl", "restart", "mandala.service"],
        ["systemctl", "restart", "mandala-update.path"],
    ]


def first_run_calls(root: Path) -> list[list[str]]:
    return [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", *PACKAGES],
        ["groupadd", "--root", str(root), "--system", "gpio"],
        ["groupadd", "--root", str(root), "--system", "spi"],
        [
            "useradd", "--root", str(root), "--system", "--user-group",
            "--home-dir", "/var/lib/mandala", "--no-create-home",
            "--shell", "/usr/sbin/nologin", "--groups", "gpio,spi",
            "--comment", "Mandala Companion", "mandala",
        ],
        [*PIP, f"{REPO}[pi]"],
        *unit_calls(root),
    ]  # fmt: skip


def test_install_sets_up_packages_user_venv_config_and_unit(real_installer: Installer) -> None:
    installer = real_installer
    run = installer.run()
    assert run.status == 0, run.stderr
    assert run.stderr == ""
    root = installer.root
    assert run.calls == first_run_calls(root)
    # The units are the repository's, byte for byte.
    for unit in ("mandala.service", "mandala-update.service", "mandala-update.path"):
        installed = installer.path(f"/etc/systemd/system/{unit}").read_bytes()
        assert installed == (REPO / "systemd" / unit).read_bytes()
    # A real venv that sees the system's python3-lgpio.
    cfg = installer.path("/opt/mandala/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg.splitlines()
    assert os.access(installer.path("/opt/mandala/venv/bin/python"), os.X_OK)
    config = tomllib.loads(installer.path("/etc/mandala/config.toml").read_text())
    assert config["host"] == "0.0.0.0"
    assert config["port"] == 80
    assert config["data"] == "/var/lib/mandala"
    assert config["hardware"] == "lgpio"
    assert config["board"] == "reference"
    # ...and `mandala serve --config` reads it.
    from companion.config import read_config

    options = read_config(installer.path("/etc/mandala/config.toml"))
    assert (options.host, options.port, options.hardware) == ("0.0.0.0", 80, "lgpio")
    assert options.data == Path("/var/lib/mandala")
    assert options.board == "reference"
    assert installer.path("/etc/mandala/config.toml").stat().st_mode & 0o777 == 0o644
    passwd = installer.path("/etc/passwd").read_text().splitlines()
    assert [line for line in passwd if line.startswith("mandala:")] == [
        "mandala:x:991:991::/var/lib/mandala:/usr/sbin/nologin"
    ]
    groups = installer.path("/etc/group").read_text().splitlines()
    assert "gpio:x:990:mandala" in groups
    assert "spi:x:990:mandala" in groups
    assert run.stdout.splitlines()[-1].startswith("Done. The panel: http://")
    assert run.stdout.splitlines()[-1].endswith(".local/   Logs: journalctl -u mandala -f")


def test_install_twice_is_idempotent_and_keeps_the_owners_config(installer: Installer) -> None:
    assert installer.run().status == 0
    config = installer.path("/etc/mandala/config.toml")
    edited = config.read_text().replace('board = "reference"', 'board = "my-board"')
    config.write_text(edited)
    files_before = sorted(str(p.relative_to(installer.root)) for p in installer.root.rglob("*"))

    again = installer.run()
    assert again.status == 0, again.stderr
    root = installer.root
    # No second user or group, no new venv; packages, pip and the unit are asked again.
    assert again.calls == [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", *PACKAGES],
        [*PIP, f"{REPO}[pi]"],
        *unit_calls(root),
    ]
    out = again.stdout.splitlines()
    assert "group gpio exists" in out
    assert "user mandala exists" in out
    assert "venv /opt/mandala/venv exists" in out
    assert "config /etc/mandala/config.toml exists, kept as it is" in out
    assert config.read_text() == edited
    files_after = sorted(str(p.relative_to(installer.root)) for p in installer.root.rglob("*"))
    assert files_after == files_before
    passwd = installer.path("/etc/passwd").read_text().splitlines()
    assert [line.split(":")[0] for line in passwd] == ["root", "mandala"]


def test_install_again_replaces_releases_installed_from_the_panel(installer: Installer) -> None:
    """The checkout's release runs after install.sh: ``current`` (first on the unit's
    PYTHONPATH) and the releases the panel installed are removed."""
    assert installer.run().status == 0
    releases = installer.path("/opt/mandala/releases/0.2.0")
    releases.mkdir(parents=True)
    installer.path("/opt/mandala/current").symlink_to("releases/0.2.0")
    again = installer.run()
    assert again.status == 0, again.stderr
    assert "releases installed from the panel are replaced by this checkout's" in again.stdout
    assert not installer.path("/opt/mandala/current").is_symlink()
    assert not installer.path("/opt/mandala/releases").exists()
    assert installer.path("/opt/mandala/venv").is_dir()


def test_user_missing_a_group_is_added_to_it(installer: Installer) -> None:
    installer.path("/etc/group").write_text("root:x:0:\ngpio:x:997:\nspi:x:999:pi\n")
    installer.path("/etc/passwd").write_text("mandala:x:991:991::/var/lib/mandala:/bin/false\n")
    run = installer.run()
    assert run.status == 0, run.stderr
    assert ["usermod", "--root", str(installer.root), "--append", "--groups", "gpio,spi",
            "mandala"] in run.calls  # fmt: skip
    assert not [call for call in run.calls if call[0] in ("useradd", "groupadd")]
    assert installer.path("/etc/group").read_text().splitlines()[1:] == [
        "gpio:x:997:mandala",
        "spi:x:999:pi,mandala",
    ]


def test_dry_run_prints_the_same_steps_and_changes_nothing(
    installer: Installer, tmp_path: Path
) -> None:
    dry = installer.run("--dry-run")
    assert dry.status == 0, dry.stderr
    assert dry.calls == []
    assert sorted(p.name for p in installer.root.rglob("*")) == ["etc", "group", "passwd"]

    real_installer = Installer(tmp_path / "real")
    real = real_installer.run()
    assert real.status == 0, real.stderr
    steps = dry.steps(installer.base)
    assert steps == real.steps(real_installer.base)
    assert steps[0] == "+ BASE/bin/apt-get update"
    assert (
        "+ BASE/bin/python3 -m venv --clear --system-site-packages BASE/root/opt/mandala/venv"
        in steps
    )
    assert steps[-2:] == [
        "+ BASE/bin/systemctl restart mandala.service",
        "+ BASE/bin/systemctl restart mandala-update.path",
    ]
    # 18, the Wi-Fi rule, the captive DNS and their folders, the kiosk's program and unit
    assert len(steps) == 23


def test_uninstall_keeps_games_config_and_user_and_purge_removes_them(
    installer: Installer,
) -> None:
    assert installer.run().status == 0
    games = installer.path("/var/lib/mandala/games.sqlite3")
    games.parent.mkdir(parents=True)
    games.write_text("the journal")
    root = installer.root

    gone = installer.run("--uninstall")
    assert gone.status == 0, gone.stderr
    assert gone.calls == [
        ["systemctl", "stop", "mandala.service"],
        ["systemctl", f"--root={root}", "disable", "mandala.service"],
        ["systemctl", "stop", "mandala-update.path"],
        ["systemctl", f"--root={root}", "disable", "mandala-update.path"],
        ["systemctl", f"--root={root}", "disable", "mandala-update.service"],
        ["systemctl", "stop", "mandala-kiosk.service"],
        ["systemctl", f"--root={root}", "disable", "mandala-kiosk.service"],
        ["systemctl", "daemon-reload"],
    ]
    for unit in ("mandala.service", "mandala-update.service", "mandala-update.path"):
        assert not installer.path(f"/etc/systemd/system/{unit}").exists()
    assert not installer.path("/opt/mandala").exists()
    assert games.read_text() == "the journal"
    assert installer.path("/etc/mandala/config.toml").is_file()
    assert "\nmandala:" in installer.path("/etc/passwd").read_text()

    again = installer.run("--uninstall")
    assert again.status == 0
    assert again.calls == []
    assert "no unit /etc/systemd/system/mandala.service" in again.stdout.splitlines()

    purge = installer.run("--uninstall", "--purge")
    assert purge.status == 0, purge.stderr
    assert purge.calls == [["userdel", "--root", str(root), "mandala"]]
    assert not installer.path("/var/lib/mandala").exists()
    assert not installer.path("/etc/mandala").exists()
    assert installer.path("/etc/passwd").read_text() == "root:x:0:0:root:/root:/bin/bash\n"


def fake_source(base: Path, spi_chip_selects: bool) -> Path:
    """A checkout whose pin map frees (or keeps) the SPI chip selects."""
    source = base / "source"
    (source / "systemd").mkdir(parents=True)
    (source / "hardware").mkdir()
    shutil.copy(REPO / "pyproject.toml", source / "pyproject.toml")
    for unit in ("mandala.service", "mandala-update.service", "mandala-update.path", *KIOSK):
        shutil.copy(REPO / "systemd" / unit, source / "systemd" / unit)
    flag = "true" if spi_chip_selects else "false"
    (source / "hardware" / "pins.toml").write_text(
        f'[leds]\ndriver = "spi"\npin = 10\nspi_chip_selects = {flag}\n'
    )
    return source


def test_spi_is_enabled_once_in_the_boot_config(installer: Installer, tmp_path: Path) -> None:
    source = fake_source(tmp_path, spi_chip_selects=False)
    boot = installer.path("/boot/firmware/config.txt")
    boot.parent.mkdir(parents=True)
    boot.write_text("[all]\ndtparam=audio=on")  # no final newline
    first = installer.run(source=source)
    assert first.status == 0, first.stderr
    assert boot.read_text() == "[all]\ndtparam=audio=on\ndtparam=spi=on\ndtoverlay=spi0-0cs\n"
    second = installer.run(source=source)
    assert second.status == 0
    assert boot.read_text() == "[all]\ndtparam=audio=on\ndtparam=spi=on\ndtoverlay=spi0-0cs\n"
    assert "/boot/firmware/config.txt has dtoverlay=spi0-0cs" in second.stdout.splitlines()


def test_chip_selects_kept_means_no_spi0_0cs_overlay(installer: Installer, tmp_path: Path) -> None:
    source = fake_source(tmp_path, spi_chip_selects=True)
    boot = installer.path("/boot/config.txt")
    boot.parent.mkdir(parents=True)
    boot.write_text("dtparam=spi=on\n")
    run = installer.run("--dry-run", source=source)
    assert run.status == 0
    assert "/boot/config.txt has dtparam=spi=on" in run.stdout.splitlines()
    assert "spi0-0cs" not in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "eighty"], "install.sh: --port: not a port number: eighty"),
        (["--port", "70000"], "install.sh: --port: not a port number: 70000"),
        (["--purge"], "install.sh: --purge only goes with --uninstall"),
        (["--frobnicate"], "install.sh: unknown option: --frobnicate (try --help)"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    installer: Installer, args: list[str], message: str
) -> None:
    run = installer.run(*args)
    assert run.status == 2
    assert run.stderr == message + "\n"
    assert run.calls == []


def test_a_source_that_is_not_a_checkout_is_refused(installer: Installer, tmp_path: Path) -> None:
    run = installer.run(source=tmp_path)
    assert run.status == 2
    assert run.stderr == f"install.sh: --source: not a Mandala Companion checkout: {tmp_path}\n"


def write_model(installer: Installer, model: str) -> None:
    path = installer.path("/proc/device-tree/model")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model.encode() + b"\0")  # the device tree's string ends in NUL


def use_pin_map(installer: Installer, text: str) -> None:
    pins = installer.path("/etc/mandala/pins.toml")
    pins.parent.mkdir(parents=True, exist_ok=True)
    pins.write_text(text)
    installer.path("/etc/mandala/config.toml").write_text(f'pin_map = "{pins}"\n')


def test_a_pi_4_gets_the_pi_extra_from_wheels_only(installer: Installer) -> None:
    write_model(installer, "Raspberry Pi 4 Model B Rev 1.4")
    run = installer.run()
    assert run.status == 0, run.stderr
    assert "board: Raspberry Pi 4 Model B Rev 1.4; Python extra: [pi]" in run.stdout
    assert [*PIP, f"{REPO}[pi]"] in run.calls
    assert not installer.path("/etc/udev/rules.d/60-mandala-pio.rules").exists()


def test_a_pi_5_with_the_pio_driver_gets_the_pi5_extra_and_the_pio_udev_rule(
    installer: Installer,
) -> None:
    write_model(installer, "Raspberry Pi 5 Model B Rev 1.0")
    pwm = (REPO / "hardware" / "pins-pwm.toml").read_text()
    use_pin_map(installer, pwm.replace('driver = "neopixel"', 'driver = "pi5"'))
    run = installer.run()
    assert run.status == 0, run.stderr
    assert "Python extra: [pi5]" in run.stdout
    assert [*PIP, f"{REPO}[pi5]"] in run.calls
    rule = installer.path("/etc/udev/rules.d/60-mandala-pio.rules").read_text()
    assert 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' in rule.splitlines()
    removed = installer.run("--uninstall")
    assert removed.status == 0, removed.stderr
    assert not installer.path("/etc/udev/rules.d/60-mandala-pio.rules").exists()


def test_a_pi_5_with_the_spi_strip_gets_the_plain_pi_extra(installer: Installer) -> None:
    write_model(installer, "Raspberry Pi 5 Model B Rev 1.0")
    run = installer.run()
    assert run.status == 0, run.stderr
    assert [*PIP, f"{REPO}[pi]"] in run.calls
    assert installer.path("/etc/udev/rules.d/60-mandala-pio.rules").exists()


def test_a_32_bit_os_is_refused_in_one_line_before_anything_is_installed(
    installer: Installer,
) -> None:
    os.environ["MANDALA_MACHINE"] = "armv7l"
    try:
        run = installer.run()
    finally:
        del os.environ["MANDALA_MACHINE"]
    assert run.status == 2
    assert run.calls == []
    assert run.stderr.splitlines() == [
        "install.sh: this is a 32-bit OS (armv7l): flash Raspberry Pi OS Lite (64-bit); the "
        "LED libraries have no 32-bit wheels and nothing is compiled"
    ]


def test_the_pi_extra_brings_gpiod_and_leaves_the_pi5_driver_to_its_own_extra() -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pi = [req.split(">")[0] for req in extras["optional-dependencies"]["pi"]]
    assert "gpiod" in pi  # Blinka 10's `import board` needs it; its installer is off
    assert "adafruit-blinka-raspberry-pi5-neopixel" not in pi  # aarch64-only, Pi 5 only


def test_install_lets_the_service_change_the_wifi_and_its_own_ap_answer_every_name(
    installer: Installer,
) -> None:
    assert installer.run().status == 0
    rule = installer.path("/etc/polkit-1/rules.d/50-mandala-wifi.rules")
    dns = installer.path("/etc/NetworkManager/dnsmasq-shared.d/mandala-captive.conf")
    assert 'subject.user == "mandala"' in rule.read_text()
    assert '"org.freedesktop.NetworkManager.wifi.share.protected"' in rule.read_text()
    assert [line for line in dns.read_text().splitlines() if not line.startswith("#")] == [
        "address=/#/10.42.0.1"
    ]
    assert rule.stat().st_mode & 0o777 == 0o644 and dns.stat().st_mode & 0o777 == 0o644
    assert installer.run("--uninstall").status == 0
    assert not rule.exists() and not dns.exists()

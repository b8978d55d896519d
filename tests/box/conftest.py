"""The stand-in ``nmcli`` on ``PATH`` (``nmcli_standin.py``) and a box's Wi-Fi over it."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.box.wifi import Wifi

STANDIN = Path(__file__).with_name("nmcli_standin.py")
MACHINE_ID = "0123456789abcdef0123456789abcdef\n"


class StandinNM:
    """The stand-in's state file and the calls it recorded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def state(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads((self.folder / "state.json").read_text())
        return loaded

    def set(self, **changes: Any) -> None:
        state = self.state
        state.update(changes)
        staged = self.folder / "state.tmp"
        staged.write_text(json.dumps(state))
        staged.replace(self.folder / "state.json")

    def calls(self) -> list[list[str]]:
        path = self.folder / "calls.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines()]

    def forget_calls(self) -> None:
        (self.folder / "calls.jsonl").unlink(missing_ok=True)


def home_state() -> dict[str, Any]:
    """A box on its home Wi-Fi with a second network in reach."""
    return {
        "running": True,
        "devices": [
            {"device": "wlan0", "type": "wifi"},
            {"device": "lo", "type": "loopback"},
        ],
        "networks": [
            {"ssid": "Home", "signal": 70, "security": "WPA2", "password": "home-secret"},
            {"ssid": "Cabin: upstairs", "signal": 82, "security": "WPA1 WPA2",
             "password": "cabin-secret"},
            {"ssid": "Cafe", "signal": 30, "security": "", "password": None},
            {"ssid": "Home", "signal": 40, "security": "WPA2", "password": "home-secret"},
            {"ssid": "", "signal": 50, "security": "WPA2", "password": "x"},
        ],
        "profiles": [
            {"name": "Home", "ssid": "Home", "type": "802-11-wireless", "psk": "home-secret"},
            {"name": "Wired connection 1", "ssid": "", "type": "802-3-ethernet"},
        ],
        "active": "Home",
    }  # fmt: skip


def install_standin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandinNM:
    """Put the stand-in ``nmcli`` first on ``PATH``, on :func:`home_state`."""
    folder = tmp_path / "nm"
    folder.mkdir()
    (folder / "state.json").write_text(json.dumps(home_state()))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "nmcli"
    program.write_text(f"#!{sys.executable}\n" + STANDIN.read_text())
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("NMCLI_STANDIN", str(folder))
    assert shutil.which("nmcli") == str(program)
    return StandinNM(folder)


def write_machine_id(tmp_path: Path) -> Path:
    path = tmp_path / "machine-id"
    path.write_text(MACHINE_ID)
    return path


@pytest.fixture
def nm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandinNM:
    """``nmcli`` on ``PATH`` is the stand-in, on :func:`home_state`."""
    return install_standin(tmp_path, monkeypatch)


@pytest.fixture
def machine_id(tmp_path: Path) -> Path:
    return write_machine_id(tmp_path)


@pytest.fixture
def wifi(nm: StandinNM, tmp_path: Path, machine_id: Path) -> Wifi:
    """The box's Wi-Fi over the stand-in (data in ``tmp_path/data``)."""
    return Wifi(tmp_path / "data", machine_id=machine_id)

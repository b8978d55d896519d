"""A laptop without lgpio, Blinka or the NeoPixel libraries imports every module we ship,
and choosing a Pi backend there fails with one clear message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.conftest import ROOT

PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys

    BLOCKED = ("lgpio", "board", "neopixel", "neopixel_spi", "RPi", "adafruit_")

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.startswith(BLOCKED[-1]) or name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Blocker())
    result = {"imported": [], "failed": {}, "errors": {}}
    for package in ("companion", "firmware"):
        root = importlib.import_module(package)
        names = [package] + [
            info.name for info in pkgutil.walk_packages(root.__path__, package + ".")
        ]
        for name in names:
            try:
                importlib.import_module(name)
                result["imported"].append(name)
            except Exception as error:
                result["failed"][name] = f"{type(error).__name__}: {error}"

    from firmware.errors import HardwareError
    from firmware.leds import make_strip
    from firmware.maps import load_pin_map
    from firmware.pins import make_factory
    from dataclasses import replace

    config = load_pin_map().leds
    attempts = {
        "lgpio": lambda: make_factory("lgpio"),
        "rpigpio": lambda: make_factory("rpigpio"),
        "neopixel-spi": lambda: make_strip(config, emulate=False),
        "neopixel": lambda: make_strip(replace(config, driver="neopixel", pin=18), False),
        "pi5": lambda: make_strip(replace(config, driver="pi5"), False),
    }
    for name, attempt in attempts.items():
        try:
            attempt()
            result["errors"][name] = "opened"
        except HardwareError as error:
            result["errors"][name] = str(error)
    leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED[:-1])
    result["leaked"] = leaked
    print(json.dumps(result))
    """
)


PWM_MISSING = ", ".join(
    (["not running as root"] if os.geteuid() != 0 else []) + ["rpi_ws281x is not installed"]
)


def run_probe() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_every_module_imports_and_pi_backends_fail_clearly_without_pi_libraries() -> None:
    result = run_probe()
    assert result["failed"] == {}
    imported = result["imported"]
    assert isinstance(imported, list)
    for module in (
        "firmware.maps",
        "firmware.decoder",
        "firmware.pins",
        "firmware.rings",
        "firmware.buttons",
        "firmware.emulator",
        "firmware.leds",
        "firmware.hardware",
        "companion.cli",
    ):
        assert module in imported
    assert result["leaked"] == []
    pi_os = (
        "install python3-lgpio from Raspberry Pi OS's archive and make the virtual "
        "environment with --system-site-packages; use --emulate on a laptop"
    )
    leds = (
        "on the Pi install the extra with pip install 'mandala-companion[pi]'; use "
        "--emulate on a laptop"
    )
    assert result["errors"] == {
        "lgpio": f"pin backend 'lgpio' is not available here (No module named 'lgpio'): {pi_os}",
        "rpigpio": "pin backend 'rpigpio' is not available here (No module named 'RPi'): "
        "install RPi.GPIO (python3-rpi.gpio); it only works on older Pi OS images; "
        "use --emulate on a laptop",
        "neopixel-spi": f"LED driver 'neopixel-spi' is not available here (No module named "
        f"'board'): {leds}",
        # Refused before its libraries are looked for: the service could never run it.
        "neopixel": 'leds.driver: the "neopixel" (PWM) driver cannot run under the mandala '
        f"service: it needs root and the rpi_ws281x library ({PWM_MISSING}); use "
        'driver = "neopixel-spi" (GPIO10, the default) or "pi5" on a Pi 5, or run it by hand as '
        "root: sudo /opt/mandala/venv/bin/pip install rpi_ws281x, then sudo "
        "/opt/mandala/venv/bin/mandala serve --config /etc/mandala/config.toml",
        "pi5": f"LED driver 'pi5' is not available here (No module named 'board'): {leds}",
    }

"""Use the lgpio stand-in (``tests/firmware/standin/lgpio.py``) in process or in a subprocess.

In process, the ``lgpio_kernel`` fixture (``tests/conftest.py`` re-exports it) puts the
stand-in on ``sys.path``, starts a fresh simulated kernel and yields it; the test drives it
with :func:`drive` and reads ``kernel.calls``. For a subprocess (``mandala serve``,
``mandala doctor``), :func:`standin_env` returns the environment that makes it import the
stand-in as ``lgpio`` with the given world.

A world is JSON: ``{"revision": "c03114", "chips": [{"number": 0, "label":
"pinctrl-bcm2711", "lines": 58, "access": true, "held": {"17": "someone"},
"external": {"4": "up"}}]}``. :func:`pi_world` builds the usual ones.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from firmware.maps import PinMap

STANDIN_DIR = Path(__file__).resolve().parent / "standin"

PI4_REVISION = "c03114"  # Raspberry Pi 4 Model B 4 GB, rev 1.4
PI5_REVISION = "d04170"  # Raspberry Pi 5 4 GB
PI3_REVISION = "a02082"  # Raspberry Pi 3 Model B
LABELS = {"pi3": "pinctrl-bcm2835", "pi4": "pinctrl-bcm2711", "pi5": "pinctrl-rp1"}
REVISIONS = {"pi3": PI3_REVISION, "pi4": PI4_REVISION, "pi5": PI5_REVISION}


def encoder_pins(pin_map: PinMap) -> list[int]:
    """Every encoder line of the map, ring 0's A first."""
    return [pin for ring in pin_map.rings for pin in (ring.a, ring.b)]


def pi_world(
    board: str = "pi4",
    *,
    pull_ups: Iterable[int] = (),
    held: Mapping[int, str] | None = None,
    pi5_chip: int = 0,
    access: bool = True,
) -> dict[str, Any]:
    """A Pi (``pi3``, ``pi4``, ``pi5``) with external pull-ups on ``pull_ups``.

    ``held`` names lines another consumer holds (line -> its label). A Pi 5's header chip
    is ``gpiochip0`` on kernels from 6.6.45 and ``gpiochip4`` before (``pi5_chip=4``, with
    the SoC's own chips 0..3 in front of it).
    """
    header: dict[str, Any] = {
        "label": LABELS[board],
        "lines": 54 if board == "pi5" else 58,
        "access": access,
        "external": {str(pin): "up" for pin in pull_ups},
        "held": {str(pin): who for pin, who in (held or {}).items()},
    }
    chips: list[dict[str, Any]]
    if board == "pi5" and pi5_chip == 4:
        others = ("gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00")
        chips = [{"number": n, "label": label, "lines": 32} for n, label in enumerate(others)]
        chips.append({"number": 3, "label": "gpio-brcmstb@107d517c20", "lines": 17})
        chips.append({"number": 4, **header})
    else:
        chips = [{"number": 0, **header}]
        if board == "pi5":
            chips += [
                {"number": 10, "label": "gpio-brcmstb@107d508500", "lines": 32},
                {"number": 11, "label": "gpio-brcmstb@107d517c00", "lines": 15},
            ]
    return {"revision": REVISIONS[board], "chips": chips}


def load_standin() -> ModuleType:
    """Import the stand-in as ``lgpio`` (:func:`unload_standin` forgets it again)."""
    module = sys.modules.get("lgpio")
    if module is None:
        sys.path.insert(0, str(STANDIN_DIR))
        try:
            module = importlib.import_module("lgpio")
        finally:
            sys.path.remove(str(STANDIN_DIR))
    if not hasattr(module, "standin_reset"):
        raise RuntimeError(f"a real lgpio shadows the stand-in: {module.__file__}")
    return module


def unload_standin() -> None:
    """Forget the stand-in and gpiozero's backend over it: this process has no lgpio again."""
    module = sys.modules.pop("lgpio", None)
    sys.modules.pop("gpiozero.pins.lgpio", None)
    if module is not None and hasattr(module, "standin_unload"):
        module.standin_unload()


def standin_env(world: Mapping[str, Any], base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a subprocess that must import the stand-in with ``world``."""
    env = dict(os.environ if base is None else base)
    paths = [str(STANDIN_DIR), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["LGPIO_STANDIN"] = json.dumps(world)
    return env


def drive(gpio: int, level: int | None, chip: int = 0) -> None:
    """Drive a line from outside (0: the contact closed to ground; None: let it go)."""
    load_standin().standin_drive(gpio, level, chip)


def flush() -> None:
    """Wait until the stand-in's callback thread has delivered every alert so far."""
    load_standin().standin_flush()


@pytest.fixture
def lgpio_kernel() -> Iterator[Any]:
    """A fresh simulated kernel (a Pi 4, every encoder line with its external pull-up).

    Call ``lgpio.standin_reset(pi_world(...))`` for another world. The test fails if, at
    the end, a gpiochip handle is still open, a callback is still registered, or a callback
    raised in lgpio's thread (which ends it for good, as in lgpio).
    """
    from firmware.maps import load_pin_map

    module = load_standin()
    kernel = module.standin_reset(pi_world(pull_ups=encoder_pins(load_pin_map())))
    try:
        yield kernel
    finally:
        alive = module.standin_thread_alive()
        unload_standin()
    assert alive, "a callback raised in lgpio's thread, ending it"
    assert module.standin_kernel().handles == {}, "a gpiochip handle was left open"
    assert module.standin_callbacks() == 0, "a closed pin left its lgpio callback registered"

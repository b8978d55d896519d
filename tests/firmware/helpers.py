"""Small helpers shared by the firmware tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from firmware.maps import PinMap, RingPins


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll ``condition`` until true; fail after ``timeout`` (a hang guard, not a speed test)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.005)


def with_ring(pin_map: PinMap, index: int, **changes: Any) -> PinMap:
    """The pin map with ring ``index``'s encoder settings changed."""
    rings = list(pin_map.rings)
    rings[index] = replace(rings[index], **changes)
    return replace(pin_map, rings=tuple(rings))


def all_rings(pin_map: PinMap, **changes: Any) -> PinMap:
    """The pin map with every ring's encoder settings changed."""
    rings: tuple[RingPins, ...] = tuple(replace(ring, **changes) for ring in pin_map.rings)
    return replace(pin_map, rings=rings)

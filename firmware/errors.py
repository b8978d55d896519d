"""The firmware's error family: one base, one class per kind of failure.

The firmware imports nothing of ``companion``, so these are not ``MandalaError``s; the
process wiring (``companion.serve``) maps them: a part that does not exist is 404, hardware
that cannot be used 503 on the panel and exit 69 at start-up, a bad map one line and exit 2.
"""

from __future__ import annotations


class FirmwareError(Exception):
    """Base of every error the firmware raises on purpose."""


class HardwareError(FirmwareError):
    """A backend or device cannot be used here (library missing, no Pi, closed device)."""


class RequestError(FirmwareError, ValueError):
    """A call asked for something that does not exist (ring, offset, button, frame size)."""

"""The firmware's error family: one base, one class per kind of failure."""

from __future__ import annotations


class FirmwareError(Exception):
    """Base of every error the firmware raises on purpose."""


class HardwareError(FirmwareError):
    """A backend or device cannot be used here (library missing, no Pi, closed device)."""


class RequestError(FirmwareError, ValueError):
    """A call asked for something that does not exist (ring, offset, button, frame size)."""

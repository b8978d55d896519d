"""Everything that touches pins: encoder decoding, ring sensing, buttons, LED strip output.

What lives here: small interfaces with a Raspberry Pi implementation (hardware libraries
imported lazily, only when chosen) and an emulated one on gpiozero's MockFactory; pure
decoders and LED frame scaling.

What must not: any game rule. The firmware reports offsets and button presses and shows
frames it is given; the meaning belongs to ``companion``.
"""

from firmware.errors import FirmwareError, HardwareError

__all__ = ["FirmwareError", "HardwareError"]

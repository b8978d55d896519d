"""The LED strip: one small interface, an emulated strip and three Pi backends.

A frame is one ``(red, green, blue)`` tuple (0..255 each) per pixel, in strip order. Before
any backend sees it, :func:`scale_frame` applies the configured brightness and then the
current limiter: the strip's draw is estimated at :data:`MILLIAMPS_PER_CHANNEL` per colour
channel at full (a white pixel 60 mA), and a frame over ``max_milliamps`` is scaled down
evenly until it is under. Both round down, so the limit always holds.

Backends (``leds.driver`` in the pin map): ``neopixel-spi`` (GPIO10, no root; the default),
``neopixel`` (PWM, needs root), ``pi5`` (the Pi 5's PIO driver). Each imports Adafruit's
libraries only when chosen, so a laptop imports this module without them.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import os
import threading
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Final, Protocol

from firmware.errors import HardwareError, RequestError
from firmware.maps import StripConfig

RGB = tuple[int, int, int]
MILLIAMPS_PER_CHANNEL: Final = 20
FRAME_HISTORY: Final = 1000
"""How many recent frames the emulated strip keeps."""
SWEEP_COLOURS: Final[tuple[RGB, ...]] = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
SWEEP_DELAY_S: Final = 0.02
OFF: Final[RGB] = (0, 0, 0)


class LedStrip(Protocol):
    """What the table drives: show a frame, and go dark on close."""

    @property
    def count(self) -> int:
        """Pixels on the strip."""
        ...

    def show(self, frame: Sequence[tuple[int, int, int]]) -> None:
        """Light the strip with ``frame`` (scaled by brightness and the current limit)."""
        ...

    def close(self) -> None:
        """Turn every pixel off and release the strip."""
        ...


# -- pure frame arithmetic -------------------------------------------------------------------


def check_frame(frame: Sequence[Sequence[int]], count: int) -> list[RGB]:
    """Return ``frame`` as RGB tuples after checking its length and values.

    :raises RequestError: naming the pixel and the value.
    """
    if len(frame) != count:
        raise RequestError(f"frame: {len(frame)} pixels for a strip of {count}")
    pixels: list[RGB] = []
    for i, pixel in enumerate(frame):
        if len(pixel) != 3:
            raise RequestError(f"frame: pixel {i}: {pixel!r} is not (red, green, blue)")
        for value in pixel:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
                raise RequestError(f"frame: pixel {i}: {value!r} is out of 0..255")
        pixels.append((pixel[0], pixel[1], pixel[2]))
    return pixels


def frame_milliamps(frame: Sequence[RGB]) -> float:
    """Estimate a frame's draw: :data:`MILLIAMPS_PER_CHANNEL` per channel at 255."""
    return sum(r + g + b for r, g, b in frame) * MILLIAMPS_PER_CHANNEL / 255


def scale_frame(frame: Sequence[RGB], brightness: float, max_milliamps: int) -> list[RGB]:
    """Apply ``brightness`` (0..1), then scale the frame down to draw at most
    ``max_milliamps``; every channel rounds down."""
    dimmed = [(int(r * brightness), int(g * brightness), int(b * brightness)) for r, g, b in frame]
    draw = frame_milliamps(dimmed)
    if draw <= max_milliamps:
        return dimmed
    factor = max_milliamps / draw
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in dimmed]


def encode_frame(frame: Sequence[RGB], order: str) -> bytes:
    """Return the bytes a strip wired in colour ``order`` (e.g. ``"GRB"``) expects."""
    index = ["RGB".index(colour) for colour in order]
    return bytes(pixel[i] for pixel in frame for i in index)


def sweep_frames(count: int) -> list[list[RGB]]:
    """The start-up self-test: each pixel in turn lit red, green, blue, ..., then all off."""
    frames = []
    for lit in range(count):
        frame = [OFF] * count
        frame[lit] = SWEEP_COLOURS[lit % len(SWEEP_COLOURS)]
        frames.append(frame)
    frames.append([OFF] * count)
    return frames


def self_test(strip: LedStrip, count: int, delay_s: float = SWEEP_DELAY_S) -> None:
    """Run the start-up sweep on ``strip`` (``delay_s`` between frames), ending dark."""
    for frame in sweep_frames(count):
        strip.show(frame)
        if delay_s:
            time.sleep(delay_s)


# -- strips ----------------------------------------------------------------------------------


class PixelStrip:
    """A strip behind a writer of whole frames: brightness, limit and closing done here once."""

    def __init__(
        self, config: StripConfig, write: Callable[[list[RGB]], None], release: Callable[[], None]
    ) -> None:
        self.config = config
        self._write = write
        self._release = release
        self._lock = threading.Lock()
        self._closed = False

    @property
    def count(self) -> int:
        return self.config.count

    @property
    def closed(self) -> bool:
        return self._closed

    def show(self, frame: Sequence[tuple[int, int, int]]) -> None:
        """Send ``frame`` to the strip (brightness and limit applied).

        :raises RequestError: when the frame is malformed.
        :raises HardwareError: when the strip is closed.
        """
        pixels = check_frame(frame, self.config.count)
        scaled = scale_frame(pixels, self.config.brightness, self.config.max_milliamps)
        with self._lock:
            if self._closed:
                raise HardwareError("the LED strip is closed")
            self._write(scaled)

    def close(self) -> None:
        """Turn every pixel off and release the strip (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._write([OFF] * self.config.count)
            finally:
                self._release()


class EmulatedStrip(PixelStrip):
    """A strip that keeps what it shows: the last :data:`FRAME_HISTORY` scaled frames."""

    def __init__(self, config: StripConfig) -> None:
        self._frames: collections.deque[list[RGB]] = collections.deque(maxlen=FRAME_HISTORY)
        super().__init__(config, self._frames.append, lambda: None)

    @property
    def frames(self) -> list[list[RGB]]:
        """The frames shown, oldest first."""
        with self._lock:
            return list(self._frames)

    @property
    def last_frame(self) -> list[RGB]:
        """What the strip shows now (all off before the first frame)."""
        with self._lock:
            return list(self._frames[-1]) if self._frames else [OFF] * self.config.count

    @property
    def wire(self) -> bytes:
        """The last frame as the strip's data line would carry it (colour order applied)."""
        return encode_frame(self.last_frame, self.config.order)


def make_strip(config: StripConfig, emulate: bool) -> LedStrip:
    """Open the strip ``config`` describes, or an :class:`EmulatedStrip`.

    :raises HardwareError: when the driver's libraries or the Pi are not there.
    """
    if emulate:
        return EmulatedStrip(config)
    openers = {"neopixel-spi": _open_neopixel_spi, "neopixel": _open_neopixel, "pi5": _open_pi5}
    opener = openers.get(config.driver)
    if opener is None:
        raise HardwareError(f"unknown LED driver {config.driver!r}")
    try:
        return opener(config)
    except HardwareError:
        raise
    except (OSError, RuntimeError, ValueError, NotImplementedError, AttributeError) as error:
        raise HardwareError(
            f"LED driver {config.driver!r} cannot open the strip on GPIO{config.pin}: {error}"
        ) from error


def _import(driver: str, *modules: str) -> list[ModuleType]:
    try:
        return [importlib.import_module(name) for name in modules]
    except (ImportError, RuntimeError) as error:
        # Blinka turns a missing platform library (gpiod for `import board`) into a
        # RuntimeError whose install hint is for its own installer, off under the unit.
        missing = error if isinstance(error, ImportError) else error.__cause__
        if not isinstance(missing, ImportError):
            raise
        raise HardwareError(
            f"LED driver {driver!r} is not available here ({missing}): on the Pi install "
            "the extra with pip install 'mandala-companion[pi]'; use --emulate on a laptop"
        ) from error


def _pixel_strip(config: StripConfig, pixels: Any) -> PixelStrip:
    def write(frame: list[RGB]) -> None:
        for i, pixel in enumerate(frame):
            pixels[i] = pixel
        pixels.show()

    return PixelStrip(config, write, pixels.deinit)


def _open_neopixel_spi(config: StripConfig) -> LedStrip:
    board, neopixel_spi = _import(config.driver, "board", "neopixel_spi")
    try:
        bus = board.SPI()
    except FileNotFoundError as error:
        raise HardwareError(f"leds.driver: {spi_off_message()}") from error
    except OSError as error:
        if not os.path.exists(SPI_DEVICE):  # PureIO says "does not exist" as a plain OSError
            raise HardwareError(f"leds.driver: {spi_off_message()}") from error
        if isinstance(error, PermissionError):
            raise HardwareError(
                f"leds.driver: no permission on {SPI_DEVICE}: add the service user to the spi "
                "group (systemd/install.sh does), or run it as a user in that group"
            ) from error
        raise
    try:
        pixels = neopixel_spi.NeoPixel_SPI(
            bus, config.count, pixel_order=config.order, brightness=1.0, auto_write=False
        )
    except BaseException:
        release_spi(bus)
        raise

    def write(frame: list[RGB]) -> None:
        for i, pixel in enumerate(frame):
            pixels[i] = pixel
        pixels.show()

    # NeoPixel_SPI.deinit only blanks the strip, which close has just done.
    return PixelStrip(config, write, lambda: release_spi(bus))


SPI_DEVICE: Final = "/dev/spidev0.0"
"""The device Blinka's ``board.SPI()`` opens (SPI0, chip select 0) on every Pi."""


def spi_off_message() -> str:
    """What to do when the SPI device is missing."""
    return (
        f"SPI is off ({SPI_DEVICE} is missing): add dtparam=spi=on to "
        "/boot/firmware/config.txt (systemd/install.sh does) and reboot"
    )


def release_spi(bus: Any) -> None:
    """Release Blinka's SPI bus and close its ``/dev/spidev`` descriptor.

    ``busio.SPI.deinit`` only drops its object, and ``Adafruit_PureIO``'s SPI has no
    ``close``: its descriptor would stay open until the process ends.
    """
    inner: Any = getattr(getattr(bus, "_spi", None), "_spi", None)
    handle = getattr(inner, "handle", None)
    bus.deinit()
    if isinstance(handle, int):
        inner.handle = None
        os.close(handle)


PWM_REFUSED: Final = (
    'leds.driver: the "neopixel" (PWM) driver cannot run under the mandala service: it '
    'needs root and the rpi_ws281x library ({missing}); use driver = "neopixel-spi" '
    '(GPIO10, the default) or "pi5" on a Pi 5, or run it by hand as root: '
    "sudo /opt/mandala/venv/bin/pip install rpi_ws281x, then sudo /opt/mandala/venv/bin/"
    "mandala serve --config /etc/mandala/config.toml"
)
"""The unit runs as the ``mandala`` user with ``NoNewPrivileges``: the PWM driver's
``/dev/mem`` and DMA are out of its reach, so it is refused before anything is opened."""


def _open_neopixel(config: StripConfig) -> LedStrip:
    missing = []
    if os.geteuid() != 0:
        missing.append("not running as root")
    if importlib.util.find_spec("_rpi_ws281x") is None:
        missing.append("rpi_ws281x is not installed")
    if missing:
        raise HardwareError(PWM_REFUSED.format(missing=", ".join(missing)))
    board, neopixel = _import(config.driver, "board", "neopixel")
    pixels = neopixel.NeoPixel(
        getattr(board, f"D{config.pin}"),
        config.count,
        pixel_order=config.order,
        brightness=1.0,
        auto_write=False,
    )
    return _pixel_strip(config, pixels)


def _open_pi5(config: StripConfig) -> LedStrip:
    board, pi5 = _import(config.driver, "board", "adafruit_raspberry_pi5_neopixel_write")
    pin = getattr(board, f"D{config.pin}")

    def write(frame: list[RGB]) -> None:
        pi5.neopixel_write(pin, bytearray(encode_frame(frame, config.order)))

    # free_pio gives the RP1's PIO state machine back (the strip stays dark: close has just
    # sent the all-off frame); without it the next start finds the PIO still claimed.
    return PixelStrip(config, write, getattr(pi5, "free_pio", lambda: None))

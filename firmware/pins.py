"""Pin factories, chosen explicitly by name: never gpiozero's silent default.

``make_factory("lgpio")`` on a Pi (the only backend for a Pi 5 and kernels 6.6+),
``make_factory("rpigpio")`` opt-in for older Pi OS images, ``make_factory("mock")`` on a
laptop and in tests. The mock factory behaves like lgpio where it matters: a pin's
``when_changed`` callback never runs in the thread that changed the pin, but on ONE separate
callback thread, in the order the changes happened. (gpiozero's own ``MockFactory`` calls
back in the caller's thread, which hides every race a real Pi has.)
"""

from __future__ import annotations

import collections
import importlib
import logging
import sys
import threading
import time
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Final, Literal

from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory, MockPin, PinState

from firmware.errors import HardwareError
from firmware.maps import Pull

Backend = Literal["mock", "lgpio", "rpigpio"]
BACKENDS: Final[tuple[Backend, ...]] = ("mock", "lgpio", "rpigpio")
_ticks = time.monotonic
PIN_HISTORY: Final = 4096
"""How many recent level changes each emulated pin keeps in ``states`` (for tests)."""

log = logging.getLogger(__name__)


class EmulatedPin(MockPin):  # type: ignore[misc]
    """A mock pin whose events go through its factory's callback thread.

    It starts high, as the encoder lines do with their external pull-ups, and keeps only the
    last :data:`PIN_HISTORY` level changes. They are kept as plain ``(seconds since the
    change before, level)`` pairs and become gpiozero ``PinState`` records only when
    ``states`` is read (by tests): building a record per edge was a tenth of the emulator's
    cost per edge.
    """

    _history: collections.deque[tuple[float, bool]]
    _last_change: float

    def __init__(self, factory: EmulatedFactory, info: Any) -> None:
        super().__init__(factory, info)
        self._state = True
        self._put = factory.dispatch
        self.clear_states()

    @property
    def states(self) -> list[Any]:
        """The recorded level changes, oldest first, as gpiozero ``PinState`` records."""
        return [PinState(*change) for change in self._history]

    @states.setter
    def states(self, value: Any) -> None:
        # MockPin.__init__ assigns a list; keep it in the bounded history instead.
        self._history = collections.deque(
            ((float(s.timestamp), bool(s.state)) for s in value), maxlen=PIN_HISTORY
        )

    def drive_high(self) -> None:
        """Pull the line high (as an input's outside world does)."""
        self._drive(True)

    def drive_low(self) -> None:
        """Pull the line low."""
        self._drive(False)

    def _change_state(self, value: bool) -> bool:
        # gpiozero's MockPin uses this for every level change it makes itself.
        return self._drive(value, silent=True)

    def _drive(self, level: bool, silent: bool = False) -> bool:
        # MockPin's drive_high/low and _change_state in one call: the emulator's hot path.
        assert silent or self._function == "input"
        if self._state == level:
            return False
        now = _ticks()
        self._history.append((now - self._last_change, level))
        self._state = level
        self._last_change = now
        if (
            not silent
            and self._when_changed is not None
            and self._edges in (_RISING if level else _FALLING)
        ):
            self._put(self, now, level)
        return True

    def clear_states(self) -> None:
        """Forget the recorded level changes (keeps the current level as the first)."""
        self._last_change = factory_ticks()
        self._history = collections.deque([(0.0, self._state)], maxlen=PIN_HISTORY)

    def _call_when_changed(self) -> None:
        # Capture the level now; it may change again before the callback thread runs.
        self.factory.dispatch(self, self._last_change, self._state)

    def drive_silently(self, level: bool) -> None:
        """Change the level without an event: an edge the Pi would have missed."""
        self._change_state(bool(level))


_RISING: Final = ("both", "rising")
_FALLING: Final = ("both", "falling")


def factory_ticks() -> float:
    """The mock factories' clock (monotonic seconds)."""
    return float(MockFactory.ticks())


_FLUSH: Final = object()
_STOP: Final = object()


class EmulatedFactory(MockFactory):  # type: ignore[misc]
    """gpiozero's MockFactory with every pin event delivered on one callback thread.

    :attr:`failures` collects exceptions raised by callbacks (they are logged, and the thread
    goes on, as lgpio's does); tests check it is empty.
    """

    def __init__(self) -> None:
        super().__init__(pin_class=EmulatedPin)
        self.failures: list[Exception] = []
        self._events: SimpleQueue[tuple[Any, Any, Any]] = SimpleQueue()
        self._thread = threading.Thread(
            target=self._deliver, name="mock-pin-callbacks", daemon=True
        )
        self._thread.start()

    def dispatch(self, pin: MockPin, ticks: float, state: bool) -> None:
        """Queue ``pin``'s change for the callback thread."""
        self._events.put((pin, ticks, state))

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every pin event queued so far has been delivered.

        :raises HardwareError: when the callback thread does not catch up in ``timeout``.
        """
        if threading.current_thread() is self._thread:
            return
        done = threading.Event()
        self._events.put((_FLUSH, done, None))
        if not done.wait(timeout):
            raise HardwareError(f"mock pin callbacks still busy after {timeout} s")

    @property
    def callback_thread(self) -> threading.Thread:
        """The one thread that runs every pin callback."""
        return self._thread

    def close(self) -> None:
        """Close every pin, deliver what is queued, then stop the callback thread."""
        super().close()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._events.put((_STOP, None, None))
            self._thread.join()

    def _deliver(self) -> None:
        get = self._events.get
        while True:
            pin, ticks, state = get()
            if pin is _FLUSH:
                ticks.set()
                continue
            if pin is _STOP:
                return
            handler = pin._when_changed
            method = None if handler is None else handler()
            if method is None:
                continue
            try:
                method(ticks, state)
            except Exception as error:
                log.exception("pin %s callback failed", pin)
                self.failures.append(error)


def set_bias(device: Any, pull: Pull) -> None:
    """Set ``device``'s line bias to ``pull`` explicitly, never leaving its boot state.

    gpiozero only re-requests a line whose bias reads differently from the one asked for,
    and lgpio reports a line claimed with flags 0 as unbiased while its pad keeps the pull
    it had; so ``none`` is requested as lgpio's ``SET_PULL_NONE`` (bias disabled) by
    assigning the pin's pull even when it already reads ``floating``. A pin already watched
    for edges is watched again afterwards (lgpio frees the line to change its bias).
    """
    pin = device.pin
    handler = pin.when_changed  # changing the bias frees the line: claim its alerts again
    if handler is not None:
        pin.when_changed = None
    pin.pull = {"up": "up", "down": "down", "none": "floating"}[pull]
    if handler is not None:
        pin.when_changed = handler


def release(device: Any) -> None:
    """Close ``device`` after cancelling its pin's callback.

    gpiozero's ``LGPIOPin.close`` leaves the lgpio callback registered; a later alert on the
    same line (a pin factory opened again in this process) would then reach the closed pin,
    which raises in lgpio's one notification thread and ends it.
    """
    pin = getattr(device, "_pin", None)
    if pin is not None:
        pin.when_changed = None
    device.close()


def claim_error(key: str, pin: int, error: BaseException, factory: Any) -> HardwareError:
    """Say in one line why ``key``'s GPIO``pin`` cannot be claimed, and what to do.

    lgpio says only ``'GPIO busy'``; the holder's name comes from the kernel's line info.
    """
    reason = " ".join(str(error).strip("'\"").split()) or type(error).__name__
    if "busy" in reason.lower():
        holder = line_holder(factory, pin)
        who = f" (the kernel says {holder!r} holds it)" if holder else ""
        return HardwareError(
            f"{key}: GPIO{pin} is busy{who}: stop the other program or service using it, "
            f"or wire {key} to a free pin"
        )
    return HardwareError(f"{key}: cannot use GPIO{pin}: {reason}")


def line_holder(factory: Any, pin: int) -> str:
    """The consumer the kernel names for an lgpio factory's line (``""`` when unknown)."""
    lgpio = sys.modules.get("lgpio")
    handle = getattr(factory, "_handle", None)
    if lgpio is None or handle is None:
        return ""
    try:
        return str(lgpio.gpio_get_line_info(handle, pin)[4])
    except Exception:
        return ""


def claim_errors() -> tuple[type[BaseException], ...]:
    """The exceptions a pin claim may raise: gpiozero's, and lgpio's plain ``error``."""
    errors: tuple[type[BaseException], ...] = (GPIOZeroError, OSError)
    library_error = getattr(sys.modules.get("lgpio"), "error", None)
    if isinstance(library_error, type) and issubclass(library_error, Exception):
        errors += (library_error,)
    return errors


SERIAL_CONSOLES: Final = ("serial0", "serial1", "ttyAMA0", "ttyAMA10", "ttyS0")
"""``console=`` names of the UART on GPIO14/15 (``serial0`` is its alias on every Pi)."""
SERIAL_PINS: Final = frozenset({14, 15})
CMDLINE = Path("/proc/cmdline")  # not Final: tests point it at a file of their own


def serial_console(cmdline: str) -> str | None:
    """The serial console the kernel command line turns on (``ttyAMA0``...), or ``None``."""
    for word in cmdline.split():
        name = word.removeprefix("console=").split(",")[0]
        if word.startswith("console=") and name in SERIAL_CONSOLES:
            return name
    return None


def check_serial_console(uses: list[tuple[str, int]], cmdline: Path | None = None) -> None:
    """Refuse GPIO14/15 as inputs while the serial console drives them.

    :param uses: the (key, pin) pairs the pin map claims.
    :param cmdline: the kernel's command line (default :data:`CMDLINE`).
    :raises HardwareError: naming the key and how to turn the console off.
    """
    keys = [key for key, pin in uses if pin in SERIAL_PINS]
    cmdline = cmdline or CMDLINE
    try:
        console = serial_console(cmdline.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return
    if keys and console is not None:
        raise HardwareError(
            f"{keys[0]}: GPIO14/15 carry the serial console (console={console} in {cmdline}): "
            "turn it off with sudo raspi-config nonint do_serial_cons 1 (or raspi-config, "
            "Interface Options, Serial Port: login shell no) and reboot"
        )


HEADER_CHIPS: Final = frozenset({"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"})
"""The gpiochip labels of the 40-pin header: Pi Zero 2 W/3, Pi 4, Pi 5 (RP1)."""
GPIO_DEVICES: Final = Path("/dev")
MAX_CHIPS: Final = 16


def header_chip(lgpio: Any, devices: Path = GPIO_DEVICES) -> int:
    """Find the header's gpiochip by its label, whatever the kernel numbered it.

    A Pi 5 has it as ``gpiochip4`` on kernels before 6.6.45 and ``gpiochip0`` after, and
    gpiozero only looks for the first on one board type (not the 500 or the CM5).

    :raises HardwareError: when no chip opens (naming the group or the missing device) or
        none is the header's.
    """
    refused: list[int] = []
    labels: list[str] = []
    for number in range(MAX_CHIPS):
        try:
            handle = lgpio.gpiochip_open(number)
        except lgpio.error:
            if (devices / f"gpiochip{number}").exists():
                refused.append(number)
            continue
        try:
            label = str(lgpio.gpio_get_chip_info(handle)[3])
        finally:
            lgpio.gpiochip_close(handle)
        if label in HEADER_CHIPS:
            return number
        labels.append(label)
    if refused:
        raise HardwareError(
            f"pins: no permission on {devices}/gpiochip{refused[0]}: add the service user to "
            "the gpio group (systemd/install.sh does), or run it as a user in that group"
        )
    if labels:
        raise HardwareError(
            f"pins: none of the GPIO chips is a Raspberry Pi's header ({', '.join(labels)}): "
            "is this a Raspberry Pi? (--emulate on a laptop)"
        )
    raise HardwareError(
        f"pins: no GPIO chip ({devices}/gpiochip0 is missing): is this a Raspberry Pi? "
        "(--emulate on a laptop)"
    )


def make_factory(backend: str) -> Any:
    """Return a gpiozero pin factory for ``backend`` ("mock", "lgpio" or "rpigpio").

    Never falls back to another backend.

    :raises HardwareError: when the backend is unknown or cannot be used on this machine.
    """
    if backend == "mock":
        return EmulatedFactory()
    if backend == "lgpio":
        return _open_pi_backend(
            "lgpio",
            "gpiozero.pins.lgpio",
            "LGPIOFactory",
            "install python3-lgpio from Raspberry Pi OS's archive and make the virtual "
            "environment with --system-site-packages",
        )
    if backend == "rpigpio":
        return _open_pi_backend(
            "rpigpio",
            "gpiozero.pins.rpigpio",
            "RPiGPIOFactory",
            "install RPi.GPIO (python3-rpi.gpio); it only works on older Pi OS images",
        )
    raise HardwareError(f"unknown pin backend {backend!r} (choose one of {', '.join(BACKENDS)})")


def _open_pi_backend(name: str, module: str, factory: str, remedy: str) -> Any:
    try:
        factory_class = getattr(importlib.import_module(module), factory)
    except ImportError as error:
        raise HardwareError(
            f"pin backend {name!r} is not available here ({error}): {remedy}; "
            "use --emulate on a laptop"
        ) from error
    errors: tuple[type[Exception], ...] = (OSError, RuntimeError, GPIOZeroError)
    library_error = getattr(sys.modules.get("lgpio"), "error", None)
    if isinstance(library_error, type) and issubclass(library_error, Exception):
        errors += (library_error,)
    try:
        if name == "lgpio":
            return factory_class(chip=header_chip(sys.modules["lgpio"]))
        return factory_class()
    except errors as error:
        raise HardwareError(
            f"pin backend {name!r} cannot open the GPIO chip ({error}): is this a "
            "Raspberry Pi, and is the user in the gpio group?"
        ) from error

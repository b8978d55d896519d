"""A stand-in for the ``lgpio`` module (lg 0.2.2), answering as its C library and the kernel do.

This machine has no ``/dev/gpiochip*`` and no lgpio wheel, so the tests put this directory
on ``sys.path`` (or ``PYTHONPATH`` for a subprocess) and gpiozero's real ``LGPIOFactory`` /
``LGPIOPin`` import it as ``lgpio``. Only the module's calls are replaced; every answer
follows lg 0.2.2's ``lgGpio.c`` and ``lgpio.py``:

- errors are ``lgpio.error`` (a plain ``Exception`` whose ``str`` is the *repr* of the C
  library's text, e.g. ``'GPIO busy'``): a missing chip and a chip without permission both
  say ``'can not open gpiochip'``; a line another consumer holds says ``'GPIO busy'``;
- ``gpio_claim_input`` on a line this process already holds as an input does nothing (its
  flags are ignored), any other claim frees the line first and requests it again;
- ``gpio_get_mode`` reports the kernel's line flags (bias bits only as requested: a line
  claimed with flags 0 reports no bias while the pad keeps whatever bias it had) plus the
  library's own bits shifted left by 8;
- alerts go to ONE notification thread, started at import, that calls every callback as
  ``func(chip, gpio, level, tick_ns)``; a line's debounce delays an alert until the level
  has been stable that long and drops edges that do not last.

The world it simulates (the board's revision, its chips, their labels, which lines another
consumer holds, the external pull resistors) comes from the ``LGPIO_STANDIN`` environment
variable (JSON, or the path of a JSON file) at import, or from :func:`standin_reset` in
process; ``tests/firmware/lgpio_standin.py`` builds both. Without either it is a Pi 4 whose
chip 0 is ``pinctrl-bcm2711`` with no external resistors.

It also answers gpiozero's read of the board revision (``/proc/device-tree/system/
linux,revision``, absent here) with the world's revision: that file is the other part of
the kernel boundary gpiozero crosses when it opens pins.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from typing import Any

LGPIO_PY_VERSION = 0x00020200
exceptions = True

OFF = LOW = CLEAR = 0
ON = HIGH = SET = 1
TIMEOUT = 2

SET_ACTIVE_LOW = 4
SET_OPEN_DRAIN = 8
SET_OPEN_SOURCE = 16
SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128

RISING_EDGE = 1
FALLING_EDGE = 2
BOTH_EDGES = 3

OKAY = 0
BAD_HANDLE = -5
NOT_PERMITTED = -7
BAD_GPIO_NUMBER = -73
CANNOT_OPEN_CHIP = -78
GPIO_BUSY = -79
GPIO_NOT_ALLOCATED = -80
BAD_GPIOCHIP = -89
BAD_DEBOUNCE_MICS = -98
GPIO_NOT_AN_OUTPUT = -104

_TEXTS = {
    BAD_HANDLE: "unknown handle",
    NOT_PERMITTED: "GPIO operation not permitted",
    BAD_GPIO_NUMBER: "bad GPIO number",
    CANNOT_OPEN_CHIP: "can not open gpiochip",
    GPIO_BUSY: "GPIO busy",
    GPIO_NOT_ALLOCATED: "GPIO not allocated",
    BAD_GPIOCHIP: "bad gpiochip",
    BAD_DEBOUNCE_MICS: "bad debounce microseconds",
    GPIO_NOT_AN_OUTPUT: "GPIO not an output",
}
MAX_DEBOUNCE_MICROS = 5_000_000  # LG_MAX_MICS_DEBOUNCE

# gpio_get_mode's bits (lgpio.h): the kernel's line flags, then the library's (<< 8).
_IS_KERNEL = 1 << 0
_IS_OUTPUT = 1 << 1
_IS_ACTIVE_LOW = 1 << 2
_IS_PULL_UP = 1 << 5
_IS_PULL_DOWN = 1 << 6
_IS_PULL_NONE = 1 << 7
_IS_INPUT = 1 << 16
_IS_RISING = 1 << 17
_IS_FALLING = 1 << 18
_LG_INPUT = 1 << 0
_LG_OUTPUT = 1 << 1
_LG_ALERT = 1 << 2

CONSUMER = "lg"
"""The consumer label lgpio gives the lines it requests (``chip->userLabel``)."""


class error(Exception):
    """lgpio module exception (``str`` is the repr of the value, as lgpio.py's is)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


def error_text(errnum: int) -> str:
    """Describe an error number as the C library does."""
    return _TEXTS.get(errnum, "unknown error")


def _fail(status: int) -> None:
    raise error(error_text(status))


# -- the simulated kernel --------------------------------------------------------------------

PI4_REVISION = 0xC03114
BOOT_PULL_UP_BELOW = 9
"""At power-on GPIO0-8 have the pad's pull-up and GPIO9-27 its pull-down (BCM2711, RP1)."""


class _Line:
    """One line of a chip: who holds it, how, and what the pad and the wiring do to it."""

    def __init__(self, chip: _Chip, offset: int, external: str | None, holder: str) -> None:
        self.chip = chip
        self.offset = offset
        self.external = external  # "up" / "down": a resistor on the board; None: nothing
        self.pad_bias = "up" if offset < BOOT_PULL_UP_BELOW else "down"  # "disabled" too
        self.holder = holder  # another consumer's label ("" when free of others)
        self.owner: int | None = None  # the handle holding it in this process
        self.mode = 0  # the library's bits for our claim
        self.flags = 0  # kernel flags of our request (bias bits only as requested)
        self.edges = 0
        self.debounce_us = 0
        self.output = 0
        self.driven: int | None = None  # an outside contact driving the line (0 or 1)
        self.generation = 0  # bumped on every edge, for the debounce filter

    def level(self) -> int:
        if self.mode & _LG_OUTPUT:
            return self.output
        if self.driven is not None:
            return self.driven
        if self.external is not None:  # 10 kOhm outside beats the pad's ~50 kOhm
            return 1 if self.external == "up" else 0
        return 1 if self.pad_bias == "up" else 0  # a floating pad reads low here


class _Chip:
    def __init__(self, number: int, spec: dict[str, Any]) -> None:
        self.number = number
        self.label = str(spec.get("label", "pinctrl-bcm2711"))
        self.access = bool(spec.get("access", True))
        external = {int(k): v for k, v in dict(spec.get("external", {})).items()}
        held = {int(k): str(v) for k, v in dict(spec.get("held", {})).items()}
        count = int(spec.get("lines", 58))
        self.lines = [_Line(self, n, external.get(n), held.get(n, "")) for n in range(count)]


class _Kernel:
    def __init__(self, world: dict[str, Any]) -> None:
        self.lock = threading.RLock()
        self.revision = int(str(world.get("revision", f"{PI4_REVISION:x}")), 16)
        chips = world.get("chips", [{"number": 0}])
        self.chips = {int(c["number"]): _Chip(int(c["number"]), c) for c in chips}
        self.handles: dict[int, _Chip] = {}
        self.next_handle = 0
        self.calls: list[tuple[Any, ...]] = []  # every module call, for tests to read

    def chip_of(self, handle: int) -> _Chip:
        chip = self.handles.get(handle & 0xFFFF)
        if chip is None or (handle >> 16) != chip.number:
            _fail(BAD_HANDLE)
        assert chip is not None
        return chip

    def line(self, handle: int, gpio: int) -> _Line:
        chip = self.chip_of(handle)
        if not 0 <= gpio < len(chip.lines):
            _fail(BAD_GPIO_NUMBER)
        return chip.lines[gpio]


def _world_from_env() -> dict[str, Any]:
    text = os.environ.get("LGPIO_STANDIN", "")
    if not text:
        return {}
    if not text.lstrip().startswith("{"):
        with open(text, encoding="utf-8") as file:
            text = file.read()
    world: dict[str, Any] = json.loads(text)
    return world


_kernel = _Kernel(_world_from_env())


def standin_reset(world: dict[str, Any] | None = None) -> _Kernel:
    """Start again as a fresh process would: a new kernel (every handle gone), no callbacks,
    a live notification thread; return the kernel for the test to drive."""
    global _kernel, _notify_thread  # noqa: PLW0603 -- a fresh process, as far as lgpio knows
    _kernel = _Kernel(world or {})
    if not _notify_thread.is_alive():
        _notify_thread = _CallbackThread()
    _notify_thread.callbacks.clear()
    return _kernel


def standin_callbacks() -> int:
    """How many callbacks are registered (not cancelled)."""
    return len(_notify_thread.callbacks)


def standin_thread_alive() -> bool:
    """Whether the notification thread still runs (an exception in a callback ends it, as
    in lgpio, and then no callback is ever called again)."""
    return _notify_thread.is_alive()


def standin_kernel() -> _Kernel:
    """The simulated kernel now in use."""
    return _kernel


def _record(*call: Any) -> None:
    _kernel.calls.append(call)


# -- notifications: one thread, as lgpio's _notify_thread ------------------------------------


class _CallbackADT:
    def __init__(self, chip: int, gpio: int, edge: int, func: Any) -> None:
        self.chip = chip
        self.gpio = gpio
        self.edge = edge
        self.func = func


class _CallbackThread(threading.Thread):
    """Delivers alerts to the callbacks, one at a time, in the order they happened."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.events: queue.Queue[tuple[float, Any]] = queue.Queue()
        self.callbacks: list[_CallbackADT] = []
        self.pending: list[tuple[float, Any]] = []  # debounced alerts waiting for their time
        self.go = True
        self.start()

    def stop(self) -> None:
        self.go = False

    def append(self, callb: _CallbackADT) -> None:
        self.callbacks.append(callb)

    def remove(self, callb: _CallbackADT) -> None:
        if callb in self.callbacks:
            self.callbacks.remove(callb)

    def run(self) -> None:
        while self.go:
            timeout = None
            if self.pending:
                timeout = max(0.0, min(due for due, _ in self.pending) - time.monotonic())
            try:
                due, event = self.events.get(timeout=timeout)
                self.pending.append((due, event))
            except queue.Empty:
                pass
            now = time.monotonic()
            ready = sorted((item for item in self.pending if item[0] <= now), key=_due)
            self.pending = [item for item in self.pending if item[0] > now]
            for _, event in ready:
                self._deliver(event)

    def _deliver(self, event: Any) -> None:
        if callable(event):  # a flush marker
            event()
            return
        line, level, tick, generation = event
        if line.generation != generation and line.debounce_us:
            return  # the level did not stay long enough: debounced away
        for cb in list(self.callbacks):
            if cb.chip == line.chip.number and cb.gpio == line.offset:
                cb.func(line.chip.number, line.offset, level, tick)


def _due(item: tuple[float, Any]) -> float:
    return item[0]


_notify_thread = _CallbackThread()


def standin_flush(timeout: float = 10.0) -> None:
    """Wait until every alert raised so far (debounce included) has been delivered."""
    done = threading.Event()
    longest = max(
        (line.debounce_us for chip in _kernel.chips.values() for line in chip.lines), default=0
    )
    _notify_thread.events.put((time.monotonic() + longest / 1e6 + 0.001, done.set))
    if not done.wait(timeout):
        raise AssertionError("the lgpio stand-in's callback thread did not catch up")


def _changed(line: _Line, before: int) -> None:
    """Raise an alert when the line's level changed and it is claimed for that edge."""
    after = line.level()
    if after == before:
        return
    line.generation += 1
    if not line.mode & _LG_ALERT:
        return
    if not line.edges & (RISING_EDGE if after else FALLING_EDGE):
        return
    delay = line.debounce_us / 1e6
    tick = time.monotonic_ns() + line.debounce_us * 1000
    _notify_thread.events.put((time.monotonic() + delay, (line, after, tick, line.generation)))


def standin_drive(gpio: int, level: int | None, chip: int = 0) -> None:
    """Drive a line from outside (a contact to ground is 0); ``None`` lets it go again."""
    with _kernel.lock:
        line = _kernel.chips[chip].lines[gpio]
        before = line.level()
        line.driven = level
        _changed(line, before)


class _callback:
    def __init__(self, chip: int, gpio: int, edge: int = RISING_EDGE, func: Any = None) -> None:
        self.count = 0
        if func is None:
            func = self._tally
        self.callb = _CallbackADT(chip, gpio, edge, func)
        _notify_thread.append(self.callb)

    def cancel(self) -> None:
        _notify_thread.remove(self.callb)

    def _tally(self, chip: int, gpio: int, level: int, tick: int) -> None:
        self.count += 1

    def tally(self) -> int:
        return self.count


# -- the module's calls ----------------------------------------------------------------------


def get_module_version() -> str:
    return "lgpio.py_0.2.2.0"


def gpiochip_open(gpiochip: int) -> int:
    with _kernel.lock:
        _record("gpiochip_open", gpiochip)
        if gpiochip < 0:
            _fail(BAD_GPIOCHIP)
        chip = _kernel.chips.get(gpiochip)
        if chip is None or not chip.access:  # open("/dev/gpiochipN") failed
            _fail(CANNOT_OPEN_CHIP)
        assert chip is not None
        handle = _kernel.next_handle
        _kernel.next_handle += 1
        _kernel.handles[handle] = chip
        return handle | (gpiochip << 16)


def gpiochip_close(handle: int) -> int:
    with _kernel.lock:
        _record("gpiochip_close", handle)
        chip = _kernel.chip_of(handle)
        for line in chip.lines:
            if line.owner == handle & 0xFFFF:
                _free(line)
        del _kernel.handles[handle & 0xFFFF]
        return OKAY


def gpio_get_chip_info(handle: int) -> list[Any]:
    with _kernel.lock:
        chip = _kernel.chip_of(handle)
        return [OKAY, len(chip.lines), f"gpiochip{chip.number}", chip.label]


def _status(line: _Line, mine: bool) -> int:
    if line.owner is None:
        return _IS_KERNEL | _IS_INPUT if line.holder else _IS_INPUT
    status = _IS_KERNEL | line.flags
    if mine:
        status |= line.mode << 8
    return status


def gpio_get_line_info(handle: int, gpio: int) -> list[Any]:
    with _kernel.lock:
        line = _kernel.line(handle, gpio)
        user = line.holder or (CONSUMER if line.owner is not None else "")
        return [OKAY, gpio, _status(line, line.owner == handle & 0xFFFF), f"GPIO{gpio}", user]


def gpio_get_mode(handle: int, gpio: int) -> int:
    with _kernel.lock:
        line = _kernel.line(handle, gpio)
        return _status(line, line.owner == handle & 0xFFFF)


def _bias_flags(lflags: int) -> int:
    flags = 0
    if lflags & SET_ACTIVE_LOW:
        flags |= _IS_ACTIVE_LOW
    if lflags & SET_PULL_UP:
        flags |= _IS_PULL_UP
    if lflags & SET_PULL_DOWN:
        flags |= _IS_PULL_DOWN
    if lflags & SET_PULL_NONE:
        flags |= _IS_PULL_NONE
    return flags


def _request(handle: int, line: _Line, lflags: int, mode: int, eflags: int = 0) -> None:
    """The GPIO_V2_GET_LINE ioctl: EBUSY while another consumer holds the line."""
    if line.holder:
        _fail(GPIO_BUSY)
    before = line.level()
    line.owner = handle & 0xFFFF
    line.mode = mode
    line.edges = eflags
    line.flags = _bias_flags(lflags)
    if mode & _LG_OUTPUT:
        line.flags |= _IS_OUTPUT
    else:
        line.flags |= _IS_INPUT
        if eflags & RISING_EDGE:
            line.flags |= _IS_RISING
        if eflags & FALLING_EDGE:
            line.flags |= _IS_FALLING
    if lflags & SET_PULL_UP:  # flags 0 leaves the pad's bias as it was
        line.pad_bias = "up"
    elif lflags & SET_PULL_DOWN:
        line.pad_bias = "down"
    elif lflags & SET_PULL_NONE:
        line.pad_bias = "disabled"
    _changed(line, before)


def _free(line: _Line) -> None:
    before = line.level()
    line.owner = None
    line.mode = 0
    line.flags = 0
    line.edges = 0
    _changed(line, before)


def _check_owner(handle: int, line: _Line) -> None:
    if line.owner is not None and line.owner != handle & 0xFFFF:
        _fail(GPIO_BUSY)


def gpio_claim_input(handle: int, gpio: int, lFlags: int = 0) -> int:
    with _kernel.lock:
        _record("gpio_claim_input", gpio, lFlags)
        line = _kernel.line(handle, gpio)
        _check_owner(handle, line)
        if line.mode & _LG_INPUT:
            return OKAY  # "nothing to do, already an input": the flags are not applied
        _free(line)
        _request(handle, line, lFlags, _LG_INPUT)
        return OKAY


def gpio_claim_output(handle: int, gpio: int, level: int = 0, lFlags: int = 0) -> int:
    with _kernel.lock:
        _record("gpio_claim_output", gpio, level, lFlags)
        line = _kernel.line(handle, gpio)
        _check_owner(handle, line)
        line.output = 1 if level else 0
        if not line.mode & _LG_OUTPUT:
            _free(line)
            _request(handle, line, lFlags, _LG_OUTPUT)
        return OKAY


def gpio_claim_alert(
    handle: int,
    gpio: int,
    eFlags: int,
    lFlags: int = 0,
    notify_handle: Any = None,
) -> int:
    with _kernel.lock:
        _record("gpio_claim_alert", gpio, eFlags, lFlags)
        line = _kernel.line(handle, gpio)
        _check_owner(handle, line)
        _free(line)
        _request(handle, line, lFlags, _LG_ALERT, eFlags)
        return OKAY


def gpio_free(handle: int, gpio: int) -> int:
    with _kernel.lock:
        _record("gpio_free", gpio)
        line = _kernel.line(handle, gpio)
        if line.owner != handle & 0xFFFF:
            _fail(GPIO_NOT_ALLOCATED)
        _free(line)
        return OKAY


def gpio_read(handle: int, gpio: int) -> int:
    with _kernel.lock:
        line = _kernel.line(handle, gpio)
        if line.owner != handle & 0xFFFF:
            _fail(GPIO_NOT_ALLOCATED)
        return line.level()


def gpio_write(handle: int, gpio: int, level: int) -> int:
    with _kernel.lock:
        _record("gpio_write", gpio, level)
        line = _kernel.line(handle, gpio)
        if line.owner != handle & 0xFFFF:
            _fail(GPIO_NOT_ALLOCATED)
        if not line.mode & _LG_OUTPUT:
            _fail(GPIO_NOT_AN_OUTPUT)
        before = line.level()
        line.output = 1 if level else 0
        _changed(line, before)
        return OKAY


def gpio_set_debounce_micros(handle: int, gpio: int, debounce_micros: int) -> int:
    with _kernel.lock:
        _record("gpio_set_debounce_micros", gpio, debounce_micros)
        if not 0 <= debounce_micros <= MAX_DEBOUNCE_MICROS:
            _fail(BAD_DEBOUNCE_MICS)
        _kernel.line(handle, gpio).debounce_us = debounce_micros
        return OKAY


def gpio_set_watchdog_micros(handle: int, gpio: int, watchdog_micros: int) -> int:
    with _kernel.lock:
        _kernel.line(handle, gpio)
        return OKAY


def callback(handle: int, gpio: int, edge: int = RISING_EDGE, func: Any = None) -> _callback:
    _record("callback", gpio, edge)
    return _callback(handle >> 16, gpio, edge, func)


# -- gpiozero's read of the board revision (the device tree) ---------------------------------


def _revision() -> int:
    return _kernel.revision


def _answer_revision() -> Any:
    from gpiozero.pins import local

    original = local.get_pi_revision
    local.get_pi_revision = _revision
    return original


_real_get_pi_revision = _answer_revision()


def standin_unload() -> None:
    """Stop the notification thread and give gpiozero back its own revision reader."""
    from gpiozero.pins import local

    local.get_pi_revision = _real_get_pi_revision
    _notify_thread.events.put((0.0, _notify_thread.stop))

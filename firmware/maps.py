"""Read and check the pin map (``pins.toml``) and the LED map (``leds.toml``).

Both files are TOML. The bundled copies live in the ``hardware`` package and are read
through :func:`importlib.resources.files`; an owner may pass their own path. Every problem
raises :class:`MapError` with the file, the key and the value, e.g.
``hardware/pins.toml: rings[4].b: pin 21 is already used by buttons.done``.

Pin rules (hardware.md): BCM numbers 2..27 only; 2 and 3 (I2C) never; no pin twice; with the
SPI LED driver 9, 10 and 11 belong to SPI (the strip's data goes out on 10) and 7 and 8 (the
chip selects) only when ``leds.spi_chip_selects = false`` (``dtoverlay=spi0-0cs``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Final, Literal, cast

from firmware.errors import FirmwareError

RING_COUNT: Final = 10
"""Mandala has ten rings; the pin map lists one encoder per ring, ring 0 first."""

LOWEST_PIN: Final = 2
HIGHEST_PIN: Final = 27
I2C_PINS: Final = frozenset({2, 3})
SPI_PINS: Final = frozenset({9, 10, 11})
SPI_MOSI: Final = 10
SPI_CHIP_SELECTS: Final = frozenset({7, 8})
PWM_LED_PINS: Final = (12, 18, 21)
MAX_SCORE_PIXELS: Final = 6

Driver = Literal["neopixel-spi", "neopixel", "pi5"]
DRIVERS: Final[tuple[Driver, ...]] = ("neopixel-spi", "neopixel", "pi5")
Rest = Literal["open", "closed"]
RESTS: Final[tuple[Rest, ...]] = ("open", "closed")
Pull = Literal["up", "down", "none"]
PULLS: Final[tuple[Pull, ...]] = ("up", "down", "none")
RING_PULL: Final[Pull] = "none"
"""The wiring guide puts a 10 kOhm pull-up on every encoder line, so the Pi's own bias is
switched off: the pad's pull-down (GPIO9-27 at power-on) would fight it, and a pull-up
would hide a missing resistor from ``mandala doctor``."""
BUTTON_PULL: Final[Pull] = "up"
"""Buttons go to ground with nothing else wired: the Pi's internal pull-up holds them high."""
ORDERS: Final = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
BUTTONS: Final = ("done", "undo")
LED_ROLES: Final = ("spokes", "entrances", "bases", "scores")


class MapError(FirmwareError, ValueError):
    """A pin or LED map that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class RingPins:
    """One ring's encoder: its two lines and how its detents map onto slots.

    ``rest`` is the level both lines sit at in a detent: ``"open"`` (contacts open, lines
    pulled high) or ``"closed"`` (both low). With 2 edges per detent the encoder rests at
    both levels in turn, so ``rest`` does not matter there. ``pull`` is the bias the Pi
    sets on both lines: ``"none"`` (the default: the board's own pull-ups), ``"up"`` or
    ``"down"``.
    """

    a: int
    b: int
    edges_per_detent: int = 4
    detents_per_slot: int = 1
    invert: bool = False
    rest: Rest = "open"
    pull: Pull = RING_PULL


@dataclass(frozen=True)
class StripConfig:
    """The WS2812 strip: how it is driven and how much current it may draw."""

    driver: Driver
    pin: int
    count: int
    order: str
    brightness: float
    max_milliamps: int
    spi_chip_selects: bool = True


@dataclass(frozen=True)
class PinMap:
    """Everything wired to the Pi's header.

    ``buttons`` maps each wired button to its pin; ``button_pulls`` to its bias (default
    :data:`BUTTON_PULL`), written ``done = 21`` or ``done = { pin = 21, pull = "up" }``.
    """

    rings: tuple[RingPins, ...]
    leds: StripConfig
    buttons: dict[str, int]
    button_pulls: dict[str, Pull] = field(default_factory=dict)

    def button_pull(self, name: str) -> Pull:
        """The bias of button ``name``'s line."""
        return self.button_pulls.get(name, BUTTON_PULL)


@dataclass(frozen=True)
class LedMap:
    """Roles to pixel indices; an absent role is an empty tuple."""

    spokes: tuple[int, ...] = ()
    entrances: tuple[int, ...] = ()
    bases: tuple[int, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()

    def pixels(self) -> list[tuple[str, int]]:
        """List every (key, pixel index) the map uses, in file order."""
        roles = {"spokes": self.spokes, "entrances": self.entrances, "bases": self.bases}
        used = [
            (f"{role}[{i}]", pixel)
            for role, pixels in roles.items()
            for i, pixel in enumerate(pixels)
        ]
        used += [
            (f"scores[{corner}][{i}]", pixel)
            for corner, pixels in enumerate(self.scores)
            for i, pixel in enumerate(pixels)
        ]
        return used


# -- reading ---------------------------------------------------------------------------------


def _read(path: Path | None, name: str) -> tuple[dict[str, Any], str]:
    """Return the parsed TOML document and the label used in messages."""
    if path is None:
        label = f"hardware/{name}"
        try:
            text = files("hardware").joinpath(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise MapError(f"{label}: cannot read the bundled map: {error}") from error
    else:
        label = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise MapError(f"{label}: cannot read: {reason}") from error
    try:
        return tomllib.loads(text), label
    except tomllib.TOMLDecodeError as error:
        raise MapError(f"{label}: not TOML: {error}") from error


BUNDLED_PIN_MAP: Final = "pins.toml"
"""The bundled starting map (SPI LED driver, a ``done`` button; every free pin used)."""
PWM_PIN_MAP: Final = "pins-pwm.toml"
"""The bundled map for builds with the PWM LED driver: SPI's pins freed, an ``undo`` button
on GPIO9. Emulation uses it when no pin map is configured, so both buttons are there."""


def load_pin_map(path: Path | None = None, *, bundled: str = BUNDLED_PIN_MAP) -> PinMap:
    """Read and check a pin map; ``None`` reads the bundled ``hardware/<bundled>``
    (``hardware/pins.toml`` unless :data:`PWM_PIN_MAP` is asked for).

    :raises MapError: when the file cannot be read or breaks a pin rule.
    """
    document, label = _read(path, bundled)
    return parse_pin_map(document, label)


def load_led_map(path: Path | None = None, count: int | None = None) -> LedMap:
    """Read and check an LED map; ``None`` reads the bundled ``hardware/leds.toml``.

    With ``count`` (the strip's pixel count) every index is also checked to be on the strip.

    :raises MapError: when the file cannot be read or a pixel is wrong.
    """
    document, label = _read(path, "leds.toml")
    led_map = parse_led_map(document, label)
    if count is not None:
        check_led_map(led_map, count, label)
    return led_map


# -- checking helpers ------------------------------------------------------------------------


class _Fields:
    """Typed access to one TOML table, every message naming ``label: key``."""

    def __init__(self, table: object, label: str, where: str, allowed: Sequence[str]) -> None:
        self.label = label
        self.where = where
        if not isinstance(table, dict):
            raise self.error(where, f"must be a table, got {_show(table)}")
        for key in table:
            if key not in allowed:
                raise self.error(
                    self.key(key), f"unknown key (expected one of {', '.join(allowed)})"
                )
        self.table: dict[str, object] = table

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def error(self, key: str, problem: str) -> MapError:
        return MapError(f"{self.label}: {key}: {problem}")

    def has(self, name: str) -> bool:
        return name in self.table

    def raw(self, name: str) -> object:
        if name not in self.table:
            raise self.error(self.key(name), "missing")
        return self.table[name]

    def integer(self, name: str, default: int | None = None) -> int:
        if default is not None and name not in self.table:
            return default
        value = self.raw(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(self.key(name), f"must be a whole number, got {_show(value)}")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        if name not in self.table:
            return default
        value = self.raw(name)
        if not isinstance(value, bool):
            raise self.error(self.key(name), f"must be true or false, got {_show(value)}")
        return value

    def choice(self, name: str, options: Sequence[str], default: str | None = None) -> str:
        if default is not None and name not in self.table:
            return default
        value = self.raw(name)
        if not isinstance(value, str) or value not in options:
            raise self.error(
                self.key(name), f"must be one of {', '.join(options)}, got {_show(value)}"
            )
        return value


def _show(value: object) -> str:
    """Quote a TOML value the way a user wrote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


# -- pin map ---------------------------------------------------------------------------------


def parse_pin_map(document: Mapping[str, object], label: str = "pins.toml") -> PinMap:
    """Check a parsed pin map and build a :class:`PinMap`.

    :raises MapError: naming ``label`` and the offending key.
    """
    top = _Fields(dict(document), label, "", ("rings", "leds", "buttons"))
    rings_raw = top.raw("rings")
    if not isinstance(rings_raw, list):
        raise top.error("rings", f"must be a list of [[rings]] tables, got {_show(rings_raw)}")
    if len(rings_raw) != RING_COUNT:
        raise top.error("rings", f"{len(rings_raw)} rings listed; the board has {RING_COUNT}")
    rings = tuple(_parse_ring(raw, label, i) for i, raw in enumerate(rings_raw))
    leds = _parse_strip(top.raw("leds"), label)
    buttons_table = _Fields(top.table.get("buttons", {}), label, "buttons", BUTTONS)
    buttons: dict[str, int] = {}
    pulls: dict[str, Pull] = {}
    for name in BUTTONS:
        if not buttons_table.has(name):
            continue
        if isinstance(buttons_table.raw(name), dict):
            button = _Fields(buttons_table.raw(name), label, f"buttons.{name}", ("pin", "pull"))
            buttons[name] = button.integer("pin")
            pulls[name] = cast(Pull, button.choice("pull", PULLS, BUTTON_PULL))
        else:
            buttons[name] = buttons_table.integer(name)
            pulls[name] = BUTTON_PULL
    pin_map = PinMap(rings=rings, leds=leds, buttons=buttons, button_pulls=pulls)
    check_pins(pin_map, label)
    return pin_map


def _parse_ring(raw: object, label: str, index: int) -> RingPins:
    ring = _Fields(
        raw,
        label,
        f"rings[{index}]",
        ("a", "b", "edges_per_detent", "detents_per_slot", "invert", "rest", "pull"),
    )
    edges = ring.integer("edges_per_detent", 4)
    if edges not in (2, 4):
        raise ring.error(ring.key("edges_per_detent"), f"must be 4 or 2, got {edges}")
    detents = ring.integer("detents_per_slot", 1)
    if detents < 1:
        raise ring.error(ring.key("detents_per_slot"), f"must be 1 or more, got {detents}")
    return RingPins(
        a=ring.integer("a"),
        b=ring.integer("b"),
        edges_per_detent=edges,
        detents_per_slot=detents,
        invert=ring.boolean("invert", False),
        rest=cast(Rest, ring.choice("rest", RESTS, "open")),
        pull=cast(Pull, ring.choice("pull", PULLS, RING_PULL)),
    )


def _parse_strip(raw: object, label: str) -> StripConfig:
    leds = _Fields(
        raw,
        label,
        "leds",
        ("driver", "pin", "count", "order", "brightness", "max_milliamps", "spi_chip_selects"),
    )
    driver = cast(Driver, leds.choice("driver", DRIVERS, "neopixel-spi"))
    count = leds.integer("count")
    if count < 1:
        raise leds.error("leds.count", f"must be 1 or more, got {count}")
    brightness = leds.raw("brightness") if leds.has("brightness") else 1.0
    if (
        not isinstance(brightness, int | float)
        or isinstance(brightness, bool)
        or not 0 <= brightness <= 1
    ):
        raise leds.error("leds.brightness", f"must be a number 0..1, got {_show(brightness)}")
    milliamps = leds.integer("max_milliamps")
    if milliamps < 1:
        raise leds.error("leds.max_milliamps", f"must be 1 or more, got {milliamps}")
    return StripConfig(
        driver=driver,
        pin=leds.integer("pin", SPI_MOSI if driver == "neopixel-spi" else None),
        count=count,
        order=leds.choice("order", ORDERS, "GRB"),
        brightness=float(brightness),
        max_milliamps=milliamps,
        spi_chip_selects=leds.boolean("spi_chip_selects", True),
    )


def pin_uses(pin_map: PinMap) -> list[tuple[str, int]]:
    """List every (key, BCM pin) the map uses, in file order."""
    uses: list[tuple[str, int]] = []
    for i, ring in enumerate(pin_map.rings):
        uses += [(f"rings[{i}].a", ring.a), (f"rings[{i}].b", ring.b)]
    uses.append(("leds.pin", pin_map.leds.pin))
    uses += [(f"buttons.{name}", pin) for name, pin in pin_map.buttons.items()]
    return uses


def check_pins(pin_map: PinMap, label: str = "pins.toml") -> None:
    """Apply hardware.md's pin rules.

    :raises MapError: naming the first key that breaks one.
    """
    leds = pin_map.leds
    spi = leds.driver == "neopixel-spi"
    if spi and leds.pin != SPI_MOSI:
        raise MapError(
            f"{label}: leds.pin: the neopixel-spi driver sends on GPIO{SPI_MOSI} (SPI MOSI), "
            f"not {leds.pin}"
        )
    if leds.driver == "neopixel" and leds.pin not in PWM_LED_PINS:
        raise MapError(
            f"{label}: leds.pin: the neopixel (PWM) driver drives GPIO12, 18 or 21, not {leds.pin}"
        )
    seen: dict[int, str] = {}
    for key, pin in pin_uses(pin_map):
        where = f"{label}: {key}"
        if not LOWEST_PIN <= pin <= HIGHEST_PIN:
            raise MapError(f"{where}: pin {pin} is outside {LOWEST_PIN}..{HIGHEST_PIN}")
        if pin in I2C_PINS:
            raise MapError(f"{where}: pin {pin} is an I2C pin (2 and 3 stay free for I2C)")
        if spi and pin in SPI_PINS and key != "leds.pin":
            raise MapError(
                f"{where}: pin {pin} belongs to SPI (the neopixel-spi LED driver uses 9, 10 and 11)"
            )
        if spi and leds.spi_chip_selects and pin in SPI_CHIP_SELECTS:
            raise MapError(
                f"{where}: pin {pin} is an SPI chip select; free 7 and 8 with "
                "dtoverlay=spi0-0cs and set leds.spi_chip_selects = false"
            )
        if pin in seen:
            raise MapError(f"{where}: pin {pin} is already used by {seen[pin]}")
        seen[pin] = key


# -- LED map ---------------------------------------------------------------------------------


def parse_led_map(document: Mapping[str, object], label: str = "leds.toml") -> LedMap:
    """Check a parsed LED map and build a :class:`LedMap` (no strip length check).

    :raises MapError: naming ``label`` and the offending key.
    """
    top = _Fields(dict(document), label, "", LED_ROLES)

    def indices(raw: object, key: str) -> tuple[int, ...]:
        if not isinstance(raw, list):
            raise top.error(key, f"must be a list of pixel indices, got {_show(raw)}")
        for i, pixel in enumerate(raw):
            if not isinstance(pixel, int) or isinstance(pixel, bool) or pixel < 0:
                raise top.error(
                    f"{key}[{i}]", f"must be a pixel index 0 or more, got {_show(pixel)}"
                )
        return tuple(raw)

    roles = {
        role: indices(top.table[role], role) if role in top.table else () for role in LED_ROLES[:3]
    }
    scores_raw = top.table.get("scores", [])
    if not isinstance(scores_raw, list):
        raise top.error(
            "scores", f"must be a list of lists (one per corner), got {_show(scores_raw)}"
        )
    scores = tuple(indices(corner, f"scores[{i}]") for i, corner in enumerate(scores_raw))
    for i, corner in enumerate(scores):
        if len(corner) > MAX_SCORE_PIXELS:
            raise top.error(
                f"scores[{i}]", f"{len(corner)} pixels; a corner has at most {MAX_SCORE_PIXELS}"
            )
    led_map = LedMap(scores=scores, **roles)
    seen: dict[int, str] = {}
    for key, pixel in led_map.pixels():
        if pixel in seen:
            raise top.error(key, f"pixel {pixel} is already used by {seen[pixel]}")
        seen[pixel] = key
    return led_map


def check_led_map(led_map: LedMap, count: int, label: str = "leds.toml") -> None:
    """Check that every pixel the map names is on a strip of ``count`` pixels.

    :raises MapError: naming the first key outside the strip.
    """
    for key, pixel in led_map.pixels():
        if pixel >= count:
            raise MapError(
                f"{label}: {key}: pixel {pixel} is outside the strip's {count} pixels "
                f"(0..{count - 1})"
            )

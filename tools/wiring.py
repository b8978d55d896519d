"""Generate the wiring guide's pin table, header drawing and LED power budget from the maps.

    python tools/wiring.py           # rewrite hardware/header.svg and the generated
                                     # sections of hardware/README.md
    python tools/wiring.py --check   # exit 1 if either is out of date with the maps

Everything comes from ``hardware/pins.toml`` and ``hardware/leds.toml`` through
``firmware.maps`` (the same checks the service runs at start-up), so the guide cannot drift
from the map. The power figures use ``firmware.leds.scale_frame`` -- the renderer's own
brightness and current limit.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from firmware.leds import MILLIAMPS_PER_CHANNEL, frame_milliamps, scale_frame  # noqa: E402
from firmware.maps import LedMap, PinMap, load_led_map, load_pin_map  # noqa: E402

README = ROOT / "hardware" / "README.md"
SVG = ROOT / "hardware" / "header.svg"

#: The 40-pin header, physical pin -> what it is (BCM number for the GPIOs).
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
PHYSICAL = {bcm: pin for pin, bcm in HEADER.items() if isinstance(bcm, int)}
#: What a GPIO is for when the map does not use it.
ALT_FUNCTION = {
    0: "ID EEPROM (keep free)", 1: "ID EEPROM (keep free)", 2: "I2C SDA", 3: "I2C SCL",
    7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK",
    14: "UART TXD", 15: "UART RXD",
}  # fmt: skip

#: A WS2812's own draw with every LED dark (the datasheets give 0.6 to 1 mA).
IDLE_MILLIAMPS_PER_PIXEL = 1.0
#: Headroom on the supply over the worst case the renderer allows.
SUPPLY_MARGIN = 1.25


@dataclass(frozen=True)
class PinUse:
    """One wired GPIO: which part, which signal, where on the header, and notes."""

    part: str
    signal: str
    bcm: int
    physical: int
    key: str
    notes: str


PULL_NOTES = {"none": ", Pi's bias off", "up": ", Pi's pull-up on", "down": ", Pi's pull-down on"}
"""What a ring's ``pull`` key does, for the notes (``none``: the board's pull-ups alone)."""
BUTTON_PULL_NOTES = {"up": "internal pull-up", "down": "internal pull-down", "none": "bias off"}


def pin_uses(pin_map: PinMap) -> list[PinUse]:
    """List every GPIO the map uses, in the map's order (ring 0 first)."""
    uses: list[PinUse] = []
    for i, ring in enumerate(pin_map.rings):
        notes = (
            f"{ring.edges_per_detent} edges/detent, {ring.detents_per_slot} detent(s)/slot"
            + (", inverted" if ring.invert else "")
            + (", rests closed" if ring.rest == "closed" else "")
            + PULL_NOTES[ring.pull]
        )
        uses.append(PinUse(f"ring {i} encoder", "A", ring.a, PHYSICAL[ring.a],
                           f"rings[{i}].a", notes))  # fmt: skip
        uses.append(PinUse(f"ring {i} encoder", "B", ring.b, PHYSICAL[ring.b],
                           f"rings[{i}].b", notes))  # fmt: skip
    leds = pin_map.leds
    uses.append(
        PinUse(
            "LED strip",
            "DIN (via 74AHCT125)",
            leds.pin,
            PHYSICAL[leds.pin],
            "leds.pin",
            f"{leds.driver}, {leds.count} pixels, {leds.order}",
        )
    )
    for name, pin in pin_map.buttons.items():
        uses.append(PinUse(f"{name} button", "to GND", pin, PHYSICAL[pin], f"buttons.{name}",
                           BUTTON_PULL_NOTES[pin_map.button_pull(name)]))  # fmt: skip
    return uses


def alt_function(bcm: int, pin_map: PinMap) -> str | None:
    """What an unused GPIO is otherwise for (the SPI lines are held by the SPI LED driver)."""
    alt = ALT_FUNCTION.get(bcm)
    if alt is not None and pin_map.leds.driver == "neopixel-spi" and bcm in (9, 11):
        return f"{alt}, held by the SPI LED driver"
    return alt


def pin_table_markdown(pin_map: PinMap) -> str:
    """The pin table: one row per wired GPIO, then the free GPIOs."""
    lines = [
        "| part | signal | GPIO (BCM) | header pin | `pins.toml` key | notes |",
        "|---|---|---|---|---|---|",
    ]
    for use in pin_uses(pin_map):
        lines.append(
            f"| {use.part} | {use.signal} | GPIO{use.bcm} | {use.physical} | `{use.key}` "
            f"| {use.notes} |"
        )
    used = {use.bcm for use in pin_uses(pin_map)}
    free = [bcm for bcm in sorted(PHYSICAL) if bcm not in used]
    described = ", ".join(
        f"GPIO{bcm} (pin {PHYSICAL[bcm]}" + (f", {alt}" if alt else "") + ")"
        for bcm in free
        for alt in [alt_function(bcm, pin_map)]
    )
    lines += [
        "",
        f"Not used by the map: {described}.",
        "",
        "Power: 3.3 V on header pins 1 and 17 (the encoders' pull-ups); 5 V on pins 2 and 4 "
        "(the level shifter's supply; the strip gets its own 5 V feed, see the power budget); "
        "ground on pins 6, 9, 14, 20, 25, 30, 34 and 39.",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Budget:
    """Worst-case LED current, before and after the renderer's brightness and limit."""

    count: int
    mapped: int
    full_white_milliamps: float
    after_brightness_milliamps: float
    after_limit_milliamps: float
    idle_milliamps: float

    @property
    def worst_milliamps(self) -> float:
        """The most the strip can draw: the renderer's worst frame plus the pixels' own."""
        return self.after_limit_milliamps + self.idle_milliamps

    @property
    def supply_milliamps(self) -> int:
        """A supply for the strip with margin, rounded up to the next 500 mA."""
        wanted = self.worst_milliamps * SUPPLY_MARGIN
        return int(-(-wanted // 500) * 500)


def led_budget(pin_map: PinMap, led_map: LedMap) -> Budget:
    """Work out the strip's worst case: every pixel on the strip full white."""
    leds = pin_map.leds
    white = [(255, 255, 255)] * leds.count
    dimmed = scale_frame(white, leds.brightness, 10**9)
    limited = scale_frame(white, leds.brightness, leds.max_milliamps)
    return Budget(
        count=leds.count,
        mapped=len(led_map.pixels()),
        full_white_milliamps=frame_milliamps(white),
        after_brightness_milliamps=frame_milliamps(dimmed),
        after_limit_milliamps=frame_milliamps(limited),
        idle_milliamps=leds.count * IDLE_MILLIAMPS_PER_PIXEL,
    )


def budget_markdown(pin_map: PinMap, led_map: LedMap) -> str:
    """The power budget as a table and a recommendation."""
    budget = led_budget(pin_map, led_map)
    leds = pin_map.leds
    per_pixel = 3 * MILLIAMPS_PER_CHANNEL
    rows = [
        "| case | current |",
        "|---|---|",
        f"| every pixel full white ({budget.count} x {per_pixel} mA) "
        f"| {budget.full_white_milliamps:.0f} mA |",
        f"| ... at `brightness = {leds.brightness:g}` "
        f"| {budget.after_brightness_milliamps:.0f} mA |",
        f"| ... capped by `max_milliamps = {leds.max_milliamps}` (what the renderer sends) "
        f"| {budget.after_limit_milliamps:.0f} mA |",
        f"| the pixels' own draw, all dark ({budget.count} x {IDLE_MILLIAMPS_PER_PIXEL:g} mA) "
        f"| {budget.idle_milliamps:.0f} mA |",
        f"| **worst case for the strip** | **{budget.worst_milliamps:.0f} mA** |",
    ]
    text = "\n".join(rows) + "\n\n"
    text += (
        f"The LED map uses {budget.mapped} of the strip's {budget.count} pixels. "
        f"Feed the strip from a 5 V supply of at least {budget.supply_milliamps} mA "
        f"({SUPPLY_MARGIN:g} x the worst case, rounded up), injected at the strip's start "
        "(and its end for more than about 100 pixels), with its ground joined to the Pi's. "
        "One 5 V supply may feed both if it covers the Pi too (Pi 4: 3 A; Pi 5: 5 A); "
        "never draw the strip's current through the Pi's 5 V pins.\n"
    )
    return text


# -- the header drawing ---------------------------------------------------------------------

ROW_HEIGHT = 26
TOP = 80
COLOURS = {
    "ring": "#2f6fb5",
    "leds": "#2e8b57",
    "button": "#d2691e",
    "spi": "#9fd3b5",
    "3V3": "#e8a33d",
    "5V": "#c0392b",
    "GND": "#222222",
    "free": "#ffffff",
}


def _label(pin: int, pin_map: PinMap) -> tuple[str, str]:
    """The text beside a header pin and its colour key."""
    what = HEADER[pin]
    if isinstance(what, str):
        return what, what
    for use in pin_uses(pin_map):
        if use.bcm == what:
            if use.part.startswith("ring"):
                return f"GPIO{what} ring {use.part.split()[1]} {use.signal}", "ring"
            if use.part == "LED strip":
                return f"GPIO{what} LED strip data", "leds"
            return f"GPIO{what} {use.part}", "button"
    held = pin_map.leds.driver == "neopixel-spi" and what in (9, 11)
    alt = ALT_FUNCTION.get(what)
    if alt is not None and alt.endswith("(keep free)"):
        alt = alt.removesuffix(" (keep free)")
    text = f"GPIO{what} ({alt})" if alt else f"GPIO{what}"
    return text, "spi" if held else "free"


def header_svg(pin_map: PinMap) -> str:
    """Draw the 40-pin header (pin 1 top left, as seen from above with the USB ports down)."""
    width, height = 720, TOP + 20 * ROW_HEIGHT + 70
    left_x, right_x = 340, 380
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        "<title>Raspberry Pi 40-pin header as wired by hardware/pins.toml</title>",
        f'<rect width="{width}" height="{height}" fill="#fafafa"/>',
        '<text x="360" y="26" text-anchor="middle" font-size="15" font-weight="bold">'
        "Raspberry Pi 40-pin header (generated from hardware/pins.toml)</text>",
        '<text x="360" y="48" text-anchor="middle">pin 1 top left, board seen from above, '
        "SD card to the left</text>",
        f'<rect x="{left_x - 18}" y="{TOP - 16}" width="{right_x - left_x + 36}" '
        f'height="{20 * ROW_HEIGHT + 6}" rx="4" fill="#1b1b1b"/>',
    ]
    for pin in range(1, 41):
        row = (pin - 1) // 2
        y = TOP + row * ROW_HEIGHT
        x = left_x if pin % 2 else right_x
        text, kind = _label(pin, pin_map)
        fill = COLOURS[kind]
        shape = (
            f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}" stroke="#999"/>'
            if pin == 1
            else f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#999"/>'
        )
        parts.append(shape)
        number_x, anchor_x, anchor = (
            (x - 26, x - 40, "end") if pin % 2 else (x + 26, x + 40, "start")
        )
        weight = ' font-weight="bold"' if kind in ("ring", "leds", "button") else ""
        parts.append(
            f'<text x="{number_x}" y="{y + 4}" text-anchor="middle" fill="#666">{pin}</text>'
        )
        parts.append(
            f'<text x="{anchor_x}" y="{y + 4}" text-anchor="{anchor}"{weight}>{escape(text)}</text>'
        )
    legend_y = TOP + 20 * ROW_HEIGHT + 24
    legend = [
        ("ring", "ring encoder"),
        ("leds", "LED data"),
        ("button", "button"),
        ("spi", "held by SPI"),
        ("3V3", "3.3 V"),
        ("5V", "5 V"),
        ("GND", "ground"),
        ("free", "not used"),
    ]
    x = 24
    for kind, name in legend:
        parts.append(
            f'<circle cx="{x}" cy="{legend_y}" r="7" fill="{COLOURS[kind]}" stroke="#999"/>'
        )
        parts.append(f'<text x="{x + 12}" y="{legend_y + 4}">{name}</text>')
        x += 30 + 7 * len(name)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# -- the README's generated sections --------------------------------------------------------

MARKER = re.compile(
    r"(<!-- BEGIN GENERATED: (?P<name>[a-z-]+) .*?-->\n)(?P<body>.*?)(<!-- END GENERATED -->)",
    re.DOTALL,
)


def sections(pin_map: PinMap, led_map: LedMap) -> dict[str, str]:
    """The README's generated sections by name."""
    return {
        "pin-table": pin_table_markdown(pin_map),
        "power-budget": budget_markdown(pin_map, led_map),
    }


class WiringError(Exception):
    """The README's generated sections cannot be found."""


def fill_readme(text: str, generated: dict[str, str]) -> str:
    """Replace the body of every ``BEGIN GENERATED: name`` section with ``generated[name]``.

    :raises WiringError: when a section is missing or unknown.
    """
    found: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in generated:
            raise WiringError(f"hardware/README.md: unknown generated section {name!r}")
        found.append(name)
        return match.group(1) + generated[name] + match.group(4)

    result = MARKER.sub(replace, text)
    missing = sorted(set(generated) - set(found))
    if missing:
        raise WiringError(f"hardware/README.md: no generated section {missing[0]!r}")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check``, compare) the SVG and the README's generated sections."""
    parser = argparse.ArgumentParser(prog="tools/wiring.py", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("--pins", type=Path, help="pin map (default: the bundled one)")
    parser.add_argument("--leds", type=Path, help="LED map (default: the bundled one)")
    args = parser.parse_args(argv)
    pin_map = load_pin_map(args.pins)
    led_map = load_led_map(args.leds, pin_map.leds.count)
    svg = header_svg(pin_map)
    readme = fill_readme(README.read_text(encoding="utf-8"), sections(pin_map, led_map))
    stale = [
        path.relative_to(ROOT).as_posix()
        for path, text in ((SVG, svg), (README, readme))
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    if args.check:
        for name in stale:
            print(f"wiring: {name} is out of date: run python tools/wiring.py", file=sys.stderr)
        return 1 if stale else 0
    SVG.write_text(svg, encoding="utf-8")
    README.write_text(readme, encoding="utf-8")
    for name in stale:
        print(f"wiring: wrote {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

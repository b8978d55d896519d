"""Pin and LED maps: the shipped maps pass; every broken rule names its key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware.maps import (
    LedMap,
    MapError,
    RingPins,
    StripConfig,
    check_led_map,
    load_led_map,
    load_pin_map,
)

STARTING_PAIRS = [
    (4, 17),
    (27, 22),
    (5, 6),
    (13, 19),
    (26, 20),
    (14, 15),
    (18, 23),
    (24, 25),
    (8, 7),
    (12, 16),
]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def pins_text(
    pairs: list[tuple[int, int]] | None = None,
    ring_extra: dict[int, dict[str, Any]] | None = None,
    leds: dict[str, Any] | None = None,
    buttons: dict[str, Any] | None = None,
) -> str:
    """Render a pin map: the starting map unless told otherwise."""
    lines = []
    for i, (a, b) in enumerate(pairs if pairs is not None else STARTING_PAIRS):
        lines += ["[[rings]]", f"a = {a}", f"b = {b}"]
        lines += [f"{k} = {_value(v)}" for k, v in (ring_extra or {}).get(i, {}).items()]
    strip = {
        "driver": "neopixel-spi",
        "pin": 10,
        "count": 48,
        "order": "GRB",
        "brightness": 0.5,
        "max_milliamps": 1500,
        "spi_chip_selects": False,
    }
    strip.update(leds or {})
    lines.append("[leds]")
    lines += [f"{k} = {_value(v)}" for k, v in strip.items() if v is not None]
    lines.append("[buttons]")
    lines += [
        f"{k} = {_value(v)}" for k, v in (buttons if buttons is not None else {"done": 21}).items()
    ]
    return "\n".join(lines) + "\n"


def load(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "pins.toml"
    path.write_text(text, encoding="utf-8")
    return load_pin_map(path)


def assert_map_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(MapError) as caught:
        load(tmp_path, text)
    assert str(caught.value) == f"{tmp_path / 'pins.toml'}: {message}"


def with_pair(index: int, pair: tuple[int, int]) -> list[tuple[int, int]]:
    pairs = list(STARTING_PAIRS)
    pairs[index] = pair
    return pairs


# -- the shipped maps ------------------------------------------------------------------------


def test_bundled_pin_map_is_the_spec_starting_map() -> None:
    pin_map = load_pin_map()
    assert [(ring.a, ring.b) for ring in pin_map.rings] == STARTING_PAIRS
    assert all(ring == RingPins(ring.a, ring.b, 4, 1, False, "open") for ring in pin_map.rings)
    assert pin_map.leds == StripConfig("neopixel-spi", 10, 48, "GRB", 0.5, 1500, False)
    assert pin_map.buttons == {"done": 21}


def test_bundled_led_map_is_the_reference_board() -> None:
    led_map = load_led_map(count=48)
    assert led_map.spokes == tuple(range(16))
    assert led_map.entrances == (16, 17, 18, 19)
    assert led_map.bases == (20, 21, 22, 23)
    assert led_map.scores == (
        (24, 25, 26, 27, 28, 29),
        (30, 31, 32, 33, 34, 35),
        (36, 37, 38, 39, 40, 41),
        (42, 43, 44, 45, 46, 47),
    )


def test_optional_undo_button_on_a_pin_freed_by_the_pwm_driver(tmp_path: Path) -> None:
    # PWM LEDs on 18 free SPI's 9 and 11: ring 6 moves to 9/23 and undo takes 11.
    pin_map = load(
        tmp_path,
        pins_text(
            with_pair(6, (9, 23)),
            leds={"driver": "neopixel", "pin": 18},
            buttons={"done": 21, "undo": 11},
        ),
    )
    assert pin_map.buttons == {"done": 21, "undo": 11}
    assert pin_map.rings[6] == RingPins(9, 23)
    assert pin_map.leds.driver == "neopixel"


def test_buttons_and_ring_options_are_optional_with_defaults(tmp_path: Path) -> None:
    pin_map = load(
        tmp_path,
        pins_text(
            ring_extra={
                3: {"edges_per_detent": 2, "detents_per_slot": 3, "invert": True, "rest": "closed"}
            },
            buttons={},
        ),
    )
    assert pin_map.buttons == {}
    assert pin_map.rings[3] == RingPins(13, 19, 2, 3, True, "closed")
    assert pin_map.rings[4] == RingPins(26, 20, 4, 1, False, "open")


def test_chip_selects_are_usable_with_the_pwm_driver_without_the_flag(tmp_path: Path) -> None:
    pin_map = load(
        tmp_path,
        pins_text(
            with_pair(6, (9, 23)),
            leds={"driver": "neopixel", "pin": 18, "spi_chip_selects": None},
        ),
    )
    assert pin_map.rings[8] == RingPins(8, 7)
    assert pin_map.leds.spi_chip_selects is True


# -- pin rules -------------------------------------------------------------------------------


def test_pin_used_twice_names_both_keys(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path,
        pins_text(buttons={"done": 4}),
        "buttons.done: pin 4 is already used by rings[0].a",
    )


def test_pin_used_twice_within_one_ring(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path, pins_text(with_pair(2, (5, 5))), "rings[2].b: pin 5 is already used by rings[2].a"
    )


@pytest.mark.parametrize("pin", [0, 1, 28, 40])
def test_pin_outside_2_to_27_is_refused(tmp_path: Path, pin: int) -> None:
    assert_map_error(
        tmp_path, pins_text(with_pair(4, (26, pin))), f"rings[4].b: pin {pin} is outside 2..27"
    )


@pytest.mark.parametrize("pin", [2, 3])
def test_i2c_pins_are_never_used(tmp_path: Path, pin: int) -> None:
    assert_map_error(
        tmp_path,
        pins_text(buttons={"done": 21, "undo": pin}),
        f"buttons.undo: pin {pin} is an I2C pin (2 and 3 stay free for I2C)",
    )


@pytest.mark.parametrize("pin", [9, 11])
def test_spi_pins_are_not_used_with_the_spi_led_driver(tmp_path: Path, pin: int) -> None:
    assert_map_error(
        tmp_path,
        pins_text(buttons={"done": 21, "undo": pin}),
        f"buttons.undo: pin {pin} belongs to SPI (the neopixel-spi LED driver uses 9, 10 and 11)",
    )


def test_spi_data_pin_is_not_used_by_a_ring_with_the_spi_led_driver(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path,
        pins_text(with_pair(0, (10, 17))),
        "rings[0].a: pin 10 belongs to SPI (the neopixel-spi LED driver uses 9, 10 and 11)",
    )


@pytest.mark.parametrize("chip_selects", [True, None])
def test_chip_selects_need_the_map_to_say_they_are_freed(
    tmp_path: Path, chip_selects: bool | None
) -> None:
    assert_map_error(
        tmp_path,
        pins_text(leds={"spi_chip_selects": chip_selects}),
        "rings[8].a: pin 8 is an SPI chip select; free 7 and 8 with dtoverlay=spi0-0cs and "
        "set leds.spi_chip_selects = false",
    )


def test_spi_led_driver_sends_on_gpio10_only(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path,
        pins_text(leds={"pin": 18}),
        "leds.pin: the neopixel-spi driver sends on GPIO10 (SPI MOSI), not 18",
    )


def test_pwm_led_driver_needs_a_pwm_pin(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path,
        pins_text(leds={"driver": "neopixel", "pin": 10}),
        "leds.pin: the neopixel (PWM) driver drives GPIO12, 18 or 21, not 10",
    )


def test_pi5_driver_may_use_any_free_pin(tmp_path: Path) -> None:
    pin_map = load(tmp_path, pins_text(leds={"driver": "pi5", "pin": 11}))
    assert pin_map.leds.pin == 11


def test_led_pin_used_twice_is_refused(tmp_path: Path) -> None:
    assert_map_error(
        tmp_path,
        pins_text(leds={"driver": "neopixel", "pin": 18}),
        "leds.pin: pin 18 is already used by rings[6].a",
    )


# -- shape and types -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (pins_text(STARTING_PAIRS[:9]), "rings: 9 rings listed; the board has 10"),
        (
            pins_text(ring_extra={1: {"edges_per_detent": 3}}),
            "rings[1].edges_per_detent: must be 4 or 2, got 3",
        ),
        (
            pins_text(ring_extra={1: {"detents_per_slot": 0}}),
            "rings[1].detents_per_slot: must be 1 or more, got 0",
        ),
        (
            pins_text(ring_extra={0: {"invert": "yes"}}),
            "rings[0].invert: must be true or false, got 'yes'",
        ),
        (
            pins_text(ring_extra={0: {"rest": "half"}}),
            "rings[0].rest: must be one of open, closed, got 'half'",
        ),
        (
            pins_text(ring_extra={5: {"inverted": True}}),
            "rings[5].inverted: unknown key (expected one of a, b, edges_per_detent, "
            "detents_per_slot, invert, rest, pull)",
        ),
        (pins_text(leds={"count": 0}), "leds.count: must be 1 or more, got 0"),
        (pins_text(leds={"count": "48"}), "leds.count: must be a whole number, got '48'"),
        (pins_text(leds={"count": None}), "leds.count: missing"),
        (pins_text(leds={"brightness": 1.5}), "leds.brightness: must be a number 0..1, got 1.5"),
        (
            pins_text(leds={"order": "GRBW"}),
            "leds.order: must be one of RGB, RBG, GRB, GBR, BRG, BGR, got 'GRBW'",
        ),
        (
            pins_text(leds={"driver": "ws2812"}),
            "leds.driver: must be one of neopixel-spi, neopixel, pi5, got 'ws2812'",
        ),
        (pins_text(leds={"max_milliamps": 0}), "leds.max_milliamps: must be 1 or more, got 0"),
        (
            pins_text(buttons={"select": 21}),
            "buttons.select: unknown key (expected one of done, undo)",
        ),
        (pins_text(buttons={"done": True}), "buttons.done: must be a whole number, got true"),
        ("[leds]\ncount = 48\nmax_milliamps = 100\n", "rings: missing"),
        ("rings = 3\n", "rings: must be a list of [[rings]] tables, got 3"),
        (pins_text() + "[extra]\n", "extra: unknown key (expected one of rings, leds, buttons)"),
    ],
)
def test_malformed_pin_map_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    assert_map_error(tmp_path, text, message)


def test_ring_missing_a_line_names_it(tmp_path: Path) -> None:
    text = pins_text().replace("a = 24\n", "", 1)
    assert_map_error(tmp_path, text, "rings[7].a: missing")


def test_not_toml_is_refused_with_the_position(tmp_path: Path) -> None:
    with pytest.raises(MapError) as caught:
        load(tmp_path, "[[rings]\n")
    assert str(caught.value).startswith(f"{tmp_path / 'pins.toml'}: not TOML: ")
    assert "line 1" in str(caught.value)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(MapError) as caught:
        load_pin_map(path)
    assert str(caught.value) == f"{path}: cannot read: No such file or directory"


def test_map_error_is_a_value_error() -> None:
    assert issubclass(MapError, ValueError)


# -- LED map ---------------------------------------------------------------------------------


def load_leds(tmp_path: Path, text: str, count: int | None = 48) -> LedMap:
    path = tmp_path / "leds.toml"
    path.write_text(text, encoding="utf-8")
    return load_led_map(path, count)


def test_led_roles_may_be_absent(tmp_path: Path) -> None:
    assert load_leds(tmp_path, "bases = [3, 1]\n") == LedMap(bases=(3, 1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("spokes = [0, 1]\nbases = [2, 1]\n", "bases[1]: pixel 1 is already used by spokes[1]"),
        ("spokes = [0, 48]\n", "spokes[1]: pixel 48 is outside the strip's 48 pixels (0..47)"),
        (
            "scores = [[0], [1, 60]]\n",
            "scores[1][1]: pixel 60 is outside the strip's 48 pixels (0..47)",
        ),
        ("entrances = [-1]\n", "entrances[0]: must be a pixel index 0 or more, got -1"),
        ("entrances = 4\n", "entrances: must be a list of pixel indices, got 4"),
        ("scores = [[0, 1, 2, 3, 4, 5, 6]]\n", "scores[0]: 7 pixels; a corner has at most 6"),
        ("scores = [1, 2]\n", "scores[0]: must be a list of pixel indices, got 1"),
        ("rim = [1]\n", "rim: unknown key (expected one of spokes, entrances, bases, scores)"),
    ],
)
def test_malformed_led_map_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(MapError) as caught:
        load_leds(tmp_path, text)
    assert str(caught.value) == f"{tmp_path / 'leds.toml'}: {message}"


def test_led_map_is_checked_against_a_shorter_strip() -> None:
    with pytest.raises(MapError) as caught:
        check_led_map(load_led_map(), 40, "leds")
    assert (
        str(caught.value) == "leds: scores[2][4]: pixel 40 is outside the strip's 40 pixels (0..39)"
    )


def test_the_pull_key_defaults_to_the_wiring_guides_resistors(tmp_path: Path) -> None:
    pin_map = load(tmp_path, pins_text())
    assert {ring.pull for ring in pin_map.rings} == {"none"}  # 10 kOhm pull-ups on the board
    assert pin_map.button_pull("done") == "up"  # a button to ground, nothing else wired
    assert {ring.pull for ring in load_pin_map().rings} == {"none"}


def test_a_ring_and_a_button_may_set_their_pull(tmp_path: Path) -> None:
    text = pins_text(ring_extra={3: {"pull": "up"}}).replace(
        "done = 21", 'done = { pin = 21, pull = "none" }'
    )
    pin_map = load(tmp_path, text)
    assert [ring.pull for ring in pin_map.rings][2:5] == ["none", "up", "none"]
    assert pin_map.buttons == {"done": 21}
    assert pin_map.button_pull("done") == "none"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "a = 13\n",
            'a = 13\npull = "high"\n',
            "rings[3].pull: must be one of up, down, none, got 'high'",
        ),
        (
            "done = 21",
            'done = { pin = 21, pull = "off" }',
            "buttons.done.pull: must be one of up, down, none, got 'off'",
        ),
        (
            "done = 21",
            'done = { pull = "up" }',
            "buttons.done.pin: missing",
        ),
    ],
)
def test_a_wrong_pull_names_its_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert_map_error(tmp_path, pins_text().replace(old, new, 1), message)

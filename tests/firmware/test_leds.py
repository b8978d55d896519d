"""LED frames: brightness, the current limiter, colour order, the emulated strip, the sweep."""

from __future__ import annotations

import sys

import pytest

from firmware.errors import HardwareError, RequestError
from firmware.leds import (
    FRAME_HISTORY,
    EmulatedStrip,
    check_frame,
    encode_frame,
    frame_milliamps,
    make_strip,
    scale_frame,
    self_test,
    sweep_frames,
)
from firmware.maps import StripConfig

R, G, B, K = (255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)


def config(
    count: int = 4,
    brightness: float = 1.0,
    max_milliamps: int = 10_000,
    order: str = "GRB",
    driver: str = "neopixel-spi",
) -> StripConfig:
    return StripConfig(driver, 10, count, order, brightness, max_milliamps, False)  # type: ignore[arg-type]


def test_brightness_scales_every_channel_rounding_down() -> None:
    assert scale_frame([(255, 128, 1), (10, 20, 30)], 0.5, 10_000) == [(127, 64, 0), (5, 10, 15)]


def test_frame_under_the_current_limit_is_left_alone() -> None:
    # One white pixel draws 60 mA.
    assert frame_milliamps([(255, 255, 255)]) == 60
    assert scale_frame([(255, 255, 255)], 1.0, 60) == [(255, 255, 255)]


def test_frame_over_the_current_limit_is_scaled_down_under_it() -> None:
    # 48 white pixels draw 48 * 60 = 2880 mA; a 1440 mA limit halves them: 127.5 -> 127.
    scaled = scale_frame([(255, 255, 255)] * 48, 1.0, 1440)
    assert scaled == [(127, 127, 127)] * 48
    assert frame_milliamps(scaled) <= 1440


def test_brightness_applies_before_the_limit() -> None:
    # Brightness 0.5 -> 127 per channel: 48 * 381 * 20 / 255 = 1434.35 mA; a 1000 mA limit
    # scales by 1000 / 1434.35 = 0.6972: 127 -> 88.54 -> 88.
    scaled = scale_frame([(255, 255, 255)] * 48, 0.5, 1000)
    assert scaled == [(88, 88, 88)] * 48
    assert frame_milliamps(scaled) <= 1000


@pytest.mark.parametrize(
    ("order", "wire"),
    [("GRB", [2, 1, 3, 5, 4, 6]), ("RGB", [1, 2, 3, 4, 5, 6]), ("BGR", [3, 2, 1, 6, 5, 4])],
)
def test_colour_order_decides_the_bytes_on_the_wire(order: str, wire: list[int]) -> None:
    assert list(encode_frame([(1, 2, 3), (4, 5, 6)], order)) == wire


def test_emulated_strip_keeps_frames_in_order_as_shown() -> None:
    strip = EmulatedStrip(config(count=2, brightness=0.5))
    assert strip.last_frame == [K, K]
    strip.show([R, G])
    strip.show([(200, 100, 50), B])
    assert strip.frames == [[(127, 0, 0), (0, 127, 0)], [(100, 50, 25), (0, 0, 127)]]
    assert strip.last_frame == [(100, 50, 25), (0, 0, 127)]
    assert list(strip.wire) == [50, 100, 25, 0, 0, 127]


def test_emulated_strip_applies_the_current_limit() -> None:
    strip = EmulatedStrip(config(count=2, max_milliamps=60))
    strip.show([(255, 255, 255), (255, 255, 255)])
    assert strip.last_frame == [(127, 127, 127), (127, 127, 127)]


def test_emulated_strip_keeps_a_bounded_history() -> None:
    strip = EmulatedStrip(config(count=1))
    for value in range(FRAME_HISTORY + 5):
        strip.show([(value % 256, 0, 0)])
    frames = strip.frames
    assert len(frames) == FRAME_HISTORY
    assert frames[0] == [(5, 0, 0)]


def test_closing_turns_every_pixel_off_and_refuses_more_frames() -> None:
    strip = EmulatedStrip(config(count=3))
    strip.show([R, G, B])
    strip.close()
    strip.close()
    assert strip.frames == [[R, G, B], [K, K, K]]
    with pytest.raises(HardwareError, match=r"^the LED strip is closed$"):
        strip.show([R, G, B])


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ([R, G, B], "frame: 3 pixels for a strip of 4"),
        ([R, (0, 256, 0), B, K], "frame: pixel 1: 256 is out of 0..255"),
        ([R, G, B, (1, 2)], "frame: pixel 3: (1, 2) is not (red, green, blue)"),
        ([R, G, (0, 0, True), K], "frame: pixel 2: True is out of 0..255"),
    ],
)
def test_malformed_frame_is_refused_naming_the_pixel(
    frame: list[tuple[int, ...]], message: str
) -> None:
    strip = EmulatedStrip(config())
    with pytest.raises(RequestError) as caught:
        strip.show(frame)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert strip.frames == []


def test_check_frame_returns_tuples() -> None:
    assert check_frame([[1, 2, 3]], 1) == [(1, 2, 3)]


def test_self_test_sweeps_red_green_blue_along_the_strip_then_goes_dark() -> None:
    assert sweep_frames(4) == [[R, K, K, K], [K, G, K, K], [K, K, B, K], [K, K, K, R], [K, K, K, K]]
    strip = EmulatedStrip(config(count=4, brightness=0.5))
    self_test(strip, 4, delay_s=0)
    half = (127, 0, 0)
    assert strip.frames[0] == [half, K, K, K]
    assert strip.frames[3] == [K, K, K, half]
    assert len(strip.frames) == 5
    assert strip.last_frame == [K, K, K, K]


class Blocker:
    """A laptop without Blinka: importing ``board`` fails as a missing module does."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.partition(".")[0] in ("board", "neopixel", "neopixel_spi", "adafruit_blinka"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


@pytest.mark.parametrize(
    ("driver", "missing"),
    [("neopixel-spi", "board"), ("pi5", "board")],
)
def test_real_driver_without_its_libraries_fails_with_one_clear_message(
    driver: str, missing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] in ("board", "neopixel_spi")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [Blocker(), *sys.meta_path])
    with pytest.raises(HardwareError) as caught:
        make_strip(config(driver=driver), emulate=False)
    assert str(caught.value) == (
        f"LED driver {driver!r} is not available here (No module named {missing!r}): on the Pi "
        "install the extra with pip install 'mandala-companion[pi]'; use --emulate on a laptop"
    )

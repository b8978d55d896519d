"""Rings and buttons through gpiozero's real LGPIOFactory, with only lgpio's calls stood in.

The stand-in (``tests/firmware/standin/lgpio.py``) answers as lg 0.2.2's C library and the
kernel do; these tests read the calls gpiozero made and drive the lines from outside.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware.buttons import BOUNCE_S, Buttons
from firmware.errors import HardwareError
from firmware.hardware import Hardware
from firmware.maps import PinMap, load_led_map, pin_uses
from firmware.pins import check_serial_console, header_chip, make_factory
from firmware.rings import RingBank, RingReport
from tests.firmware.helpers import all_rings, wait_for
from tests.firmware.lgpio_standin import drive, encoder_pins, flush, load_standin, pi_world

SET_PULL_UP = 32
BOTH_EDGES = 3


def calls_for(kernel: Any, gpio: int) -> list[tuple[Any, ...]]:
    return [call for call in kernel.calls if len(call) > 1 and call[1] == gpio]


def turn_clockwise(a: int, b: int) -> None:
    """One detent of a quadrature encoder resting open: A closes, B closes, A opens, B opens."""
    for gpio, level in ((a, 0), (b, 0), (a, None), (b, None)):
        drive(gpio, level)


def test_encoder_lines_are_claimed_for_both_edges_without_debounce(
    lgpio_kernel: Any, pin_map: PinMap
) -> None:
    factory = make_factory("lgpio")
    bank = RingBank(pin_map, 16, factory, lambda report: None)
    try:
        for gpio in encoder_pins(pin_map):
            calls = calls_for(lgpio_kernel, gpio)
            alerts = [call for call in calls if call[0] == "gpio_claim_alert"]
            assert alerts, f"GPIO{gpio} never claimed for alerts"
            assert alerts[-1][2] == BOTH_EDGES
            assert ("callback", gpio, BOTH_EDGES) in calls
            debounce = [call for call in calls if call[0] == "gpio_set_debounce_micros"]
            assert all(call[2] == 0 for call in debounce), f"GPIO{gpio} debounced: {debounce}"
    finally:
        bank.close()
        factory.close()


def test_buttons_are_claimed_with_the_pull_up_and_debounced(
    lgpio_kernel: Any, pin_map: PinMap
) -> None:
    factory = make_factory("lgpio")
    buttons = Buttons(pin_map, factory, lambda name: None)
    try:
        done = pin_map.buttons["done"]
        calls = calls_for(lgpio_kernel, done)
        assert ("gpio_set_debounce_micros", done, int(BOUNCE_S * 1_000_000)) in calls
        alert = [call for call in calls if call[0] == "gpio_claim_alert"][-1]
        assert alert[2] == BOTH_EDGES
        assert alert[3] & SET_PULL_UP
    finally:
        buttons.close()
        factory.close()


def test_ring_edges_arrive_on_lgpios_one_callback_thread_and_count_a_detent(
    lgpio_kernel: Any, pin_map: PinMap
) -> None:
    threads: set[str] = set()
    reports: list[RingReport] = []

    def report(item: RingReport) -> None:
        threads.add(threading.current_thread().name)
        reports.append(item)

    factory = make_factory("lgpio")
    bank = RingBank(pin_map, 16, factory, report)
    try:
        for ring in (0, 3, 7):
            turn_clockwise(pin_map.rings[ring].a, pin_map.rings[ring].b)
        flush()
        wait_for(lambda: bank.offsets()[7] == 1)
        assert bank.offsets() == [1, 0, 0, 1, 0, 0, 0, 1, 0, 0]
        moved = [r for r in reports if r.kind == "moved"]
        assert {r.ring for r in moved} == {0, 3, 7}
        edge_threads = threads - {"ring-settle"}
        assert len(edge_threads) == 1
        assert threading.main_thread().name not in edge_threads
        assert [s.errors for s in bank.status()] == [0] * 10
    finally:
        bank.close()
        factory.close()


def test_a_missing_gpio_chip_is_one_line_saying_so(lgpio_kernel: Any, tmp_path: Path) -> None:
    load_standin().standin_reset({"chips": []})
    with pytest.raises(HardwareError) as caught:
        header_chip(load_standin(), tmp_path)
    assert str(caught.value) == (
        f"pins: no GPIO chip ({tmp_path}/gpiochip0 is missing): is this a Raspberry Pi? "
        "(--emulate on a laptop)"
    )
    with pytest.raises(HardwareError, match=r"^pins: no GPIO chip"):
        make_factory("lgpio")


def test_a_gpio_chip_without_permission_names_the_gpio_group(
    lgpio_kernel: Any, tmp_path: Path
) -> None:
    load_standin().standin_reset(pi_world(access=False))
    (tmp_path / "gpiochip0").touch()  # the device is there; lgpio cannot open it
    with pytest.raises(HardwareError) as caught:
        header_chip(load_standin(), tmp_path)
    assert str(caught.value) == (
        f"pins: no permission on {tmp_path}/gpiochip0: add the service user to the gpio group "
        "(systemd/install.sh does), or run it as a user in that group"
    )


@pytest.mark.parametrize(
    ("board", "pi5_chip", "chip"), [("pi3", 0, 0), ("pi4", 0, 0), ("pi5", 0, 0), ("pi5", 4, 4)]
)
def test_the_factory_opens_the_headers_chip_whatever_the_kernel_numbered_it(
    lgpio_kernel: Any, board: str, pi5_chip: int, chip: int
) -> None:
    load_standin().standin_reset(pi_world(board, pi5_chip=pi5_chip))
    factory = make_factory("lgpio")
    try:
        assert factory.chip == chip
    finally:
        factory.close()


def test_a_pi_500_on_an_old_kernel_finds_gpiochip4_where_gpiozero_would_open_0(
    lgpio_kernel: Any,
) -> None:
    world = pi_world("pi5", pi5_chip=4)
    world["revision"] = "d04190"  # Raspberry Pi 500: gpiozero picks chip 4 only for type 0x17
    load_standin().standin_reset(world)
    factory = make_factory("lgpio")
    try:
        assert factory.chip == 4
    finally:
        factory.close()


def test_the_stand_in_answers_a_busy_line_as_lgpio_does(lgpio_kernel: Any) -> None:
    lgpio = load_standin()
    lgpio.standin_reset(pi_world(held={17: "other-program"}))
    handle = lgpio.gpiochip_open(0)
    try:
        with pytest.raises(lgpio.error) as caught:
            lgpio.gpio_claim_input(handle, 17, 0)
        assert str(caught.value) == "'GPIO busy'"
        assert lgpio.gpio_get_line_info(handle, 17)[4] == "other-program"
        assert not issubclass(lgpio.error, OSError | RuntimeError)
    finally:
        lgpio.gpiochip_close(handle)


def bias_of(kernel: Any, gpio: int) -> str:
    return str(kernel.chips[0].lines[gpio].pad_bias)


@pytest.mark.parametrize(("pull", "flag", "bias"), [("none", 128, "disabled"), ("up", 32, "up")])
def test_encoder_lines_get_the_bias_the_map_says_and_keep_it_for_alerts(
    lgpio_kernel: Any, pin_map: PinMap, pull: str, flag: int, bias: str
) -> None:
    factory = make_factory("lgpio")
    bank = RingBank(all_rings(pin_map, pull=pull), 16, factory, lambda report: None)
    try:
        for gpio in encoder_pins(pin_map):
            alert = [c for c in calls_for(lgpio_kernel, gpio) if c[0] == "gpio_claim_alert"][-1]
            assert alert[3] & (32 | 64 | 128) == flag, f"GPIO{gpio}: {alert}"
            assert bias_of(lgpio_kernel, gpio) == bias
    finally:
        bank.close()
        factory.close()


def test_no_encoder_line_keeps_its_power_on_pull_down(lgpio_kernel: Any, pin_map: PinMap) -> None:
    # GPIO9-27 power up pulled down, against the board's 10 kOhm pull-ups.
    boot_down = [gpio for gpio in encoder_pins(pin_map) if gpio >= 9]
    assert all(bias_of(lgpio_kernel, gpio) == "down" for gpio in boot_down)
    factory = make_factory("lgpio")
    bank = RingBank(pin_map, 16, factory, lambda report: None)
    try:
        assert [bias_of(lgpio_kernel, gpio) for gpio in boot_down] == ["disabled"] * len(boot_down)
    finally:
        bank.close()
        factory.close()


def test_a_button_pulled_down_reads_a_press_to_3v3_and_is_still_watched(
    lgpio_kernel: Any, pin_map: PinMap
) -> None:
    pressed: list[str] = []
    changed = replace(pin_map, button_pulls={"done": "down"})
    factory = make_factory("lgpio")
    buttons = Buttons(changed, factory, pressed.append)
    try:
        done = pin_map.buttons["done"]
        assert bias_of(lgpio_kernel, done) == "down"
        drive(done, 1)  # held: a press shorter than the 20 ms debounce is dropped
        wait_for(lambda: pressed == ["done"])
        drive(done, None)
    finally:
        buttons.close()
        factory.close()


def test_a_busy_encoder_line_is_one_line_naming_the_key_the_pin_and_the_holder(
    lgpio_kernel: Any, pin_map: PinMap
) -> None:
    lgpio = load_standin()
    lgpio.standin_reset(pi_world(held={25: "pigpio"}))
    factory = make_factory("lgpio")
    try:
        with pytest.raises(HardwareError) as caught:
            RingBank(pin_map, 16, factory, lambda report: None)
    finally:
        factory.close()
    assert str(caught.value) == (
        "rings[7].b: GPIO25 is busy (the kernel says 'pigpio' holds it): stop the other "
        "program or service using it, or wire rings[7].b to a free pin"
    )


def test_a_busy_button_line_names_its_key(lgpio_kernel: Any, pin_map: PinMap) -> None:
    lgpio = load_standin()
    lgpio.standin_reset(pi_world(held={21: "gpio-keys"}))
    factory = make_factory("lgpio")
    try:
        with pytest.raises(HardwareError, match=r"^buttons\.done: GPIO21 is busy \(the kernel"):
            Buttons(pin_map, factory, lambda name: None)
    finally:
        factory.close()


@pytest.mark.parametrize(
    "cmdline",
    [
        "console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait",
        "coherent_pool=1M console=ttyAMA0,115200 console=tty1",
        "console=ttyS0,115200 quiet",
    ],
)
def test_the_serial_console_on_ring_pins_14_and_15_refuses_start_up_in_one_line(
    lgpio_kernel: Any, pin_map: PinMap, tmp_path: Path, cmdline: str
) -> None:
    path = tmp_path / "cmdline"
    path.write_text(cmdline + "\n")
    with pytest.raises(HardwareError) as caught:
        check_serial_console(pin_uses(pin_map), path)
    console = cmdline.split("console=")[1].split(",", maxsplit=1)[0]
    assert str(caught.value) == (
        f"rings[5].a: GPIO14/15 carry the serial console (console={console} in {path}): turn "
        "it off with sudo raspi-config nonint do_serial_cons 1 (or raspi-config, Interface "
        "Options, Serial Port: login shell no) and reboot"
    )


def test_the_serial_console_is_no_matter_when_14_and_15_are_free_or_it_is_off(
    pin_map: PinMap, tmp_path: Path
) -> None:
    on, off = tmp_path / "on", tmp_path / "off"
    on.write_text("console=serial0,115200 console=tty1\n")
    off.write_text("console=tty1 root=PARTUUID=1\n")
    check_serial_console(pin_uses(pin_map), off)
    free = [(key, pin) for key, pin in pin_uses(pin_map) if pin not in (14, 15)]
    check_serial_console(free, on)


def test_hardware_open_checks_the_serial_console_before_claiming_a_pin_and_closes_the_chip(
    lgpio_kernel: Any, pin_map: PinMap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cmdline"
    path.write_text("console=serial0,115200 console=tty1\n")
    monkeypatch.setattr("firmware.pins.CMDLINE", path)
    with pytest.raises(HardwareError, match=r"^rings\[5\]\.a: GPIO14/15 carry the serial"):
        Hardware.open(pin_map, load_led_map(), 16, False, print, print)
    assert [call for call in lgpio_kernel.calls if call[0].startswith("gpio_claim")] == []
    assert lgpio_kernel.calls[-1][0] == "gpiochip_close"

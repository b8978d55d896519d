"""The SPI LED strip through the real Blinka and NeoPixel_SPI, only the spidev device stood in.

Each test runs the strip in a fresh Python forced to a Pi 4 or a Pi 5 board identity
(``BLINKA_FORCEBOARD``/``BLINKA_FORCECHIP``, read once at import) with the stand-in of
``tests/firmware/standin/spidev_standin.py`` at the system calls on ``/dev/spidev0.0``, and
decodes what reached the device as WS2812 bits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware.leds import OFF, encode_frame, scale_frame
from firmware.maps import load_pin_map
from tests.firmware.lgpio_standin import STANDIN_DIR

ROOT = Path(__file__).resolve().parents[2]
BOARDS = {"pi4": "RASPBERRY_PI_4B", "pi5": "RASPBERRY_PI_5"}
CLOCK_HZ = 6_400_000  # NeoPixel_SPI: 8 SPI bits per WS2812 bit at 800 kHz
BIT1, BIT0 = 0b11110000, 0b11000000
RESET_S = 50e-6  # WS2812: a low line for 50 us latches the frame

SCRIPT = """
import json, os, sys
from dataclasses import replace

class Blocker:  # a library the install left out (BLOCK names it)
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == os.environ.get("BLOCK"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, Blocker())
from firmware.leds import make_strip
from firmware.maps import load_pin_map
config = replace(load_pin_map().leds, **json.loads(sys.argv[1]))
frames = json.loads(sys.argv[2])
strip = make_strip(config, emulate=False)
for frame in frames:
    strip.show([tuple(pixel) for pixel in frame])
strip.close()
print("closed")
"""


def run_strip(
    tmp_path: Path,
    board: str,
    frames: list[list[tuple[int, int, int]]],
    devices: str | None = None,
    block: str = "",
    deny: str = "",
    **config: Any,
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    log = tmp_path / "spidev.jsonl"
    env = dict(os.environ)
    env.update(
        PYTHONPATH=os.pathsep.join([str(STANDIN_DIR), str(ROOT)]),
        SPIDEV_STANDIN=str(log),
        BLINKA_FORCEBOARD=BOARDS[board],
        BLINKA_FORCECHIP="BCM2XXX",
        BLINKA_SKIP_DEPENDENCY_CHECK="1",  # as the unit sets it
        BLOCK=block,
        SPIDEV_STANDIN_DENY=deny,
    )
    if devices is not None:
        env["SPIDEV_STANDIN_DEVICES"] = devices
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(config), json.dumps(frames)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return done, records


def decode(data: bytes) -> tuple[int, bytes, int]:
    """Split one transfer into (leading zero bytes, WS2812 data bytes, trailing zero bytes)."""
    lead = len(data) - len(data.lstrip(b"\0"))
    trail = len(data) - len(data.rstrip(b"\0"))
    body = data[lead : len(data) - trail]
    # A data byte ends with its bits, so trailing zero bits of the last symbol are data too:
    # pad the body back to whole 8-symbol groups from the trailing zeros.
    while len(body) % 8:
        body += b"\0"
        trail -= 1
    out = bytearray()
    for i in range(0, len(body), 8):
        value = 0
        for symbol in body[i : i + 8]:
            assert symbol in (BIT0, BIT1, 0), f"not a WS2812 symbol: {symbol:#010b}"
            value = value << 1 | (symbol == BIT1)
        out.append(value)
    return lead, bytes(out), trail


def transfers(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["op"] == "transfer"]


def frame_bytes(record: dict[str, Any], count: int) -> bytes:
    """The colour bytes a transfer carries (a dark frame is all reset: all zeros)."""
    data = bytes.fromhex(record["data"])
    if not data.strip(b"\0"):
        return bytes(3 * count)
    _, body, _ = decode(data)
    return body + bytes(3 * count - len(body))


@pytest.mark.parametrize("board", ["pi4", "pi5"])
def test_the_spi_strip_sends_each_frame_as_ws2812_bits_in_the_maps_pixel_order(
    tmp_path: Path, board: str
) -> None:
    count = load_pin_map().leds.count
    frame = [((i * 37) % 256, (i * 91) % 256, (255 - i * 5) % 256) for i in range(count)]
    done, records = run_strip(tmp_path, board, [frame], brightness=1.0, max_milliamps=100_000)
    assert done.returncode == 0, done.stderr
    assert records[0] == {"op": "open", "path": "/dev/spidev0.0", "fd": records[0]["fd"]}
    sent = transfers(records)
    assert [r["speed_hz"] for r in sent] == [CLOCK_HZ] * len(sent)
    assert {(r["bits"], r["mode"]) for r in sent} == {(8, 0)}
    lead, body, trail = decode(bytes.fromhex(sent[0]["data"]))
    assert body == encode_frame(frame, "GRB")  # the map's order = GRB: green byte first
    assert lead * 8 / CLOCK_HZ >= RESET_S
    assert trail * 8 / CLOCK_HZ >= RESET_S


@pytest.mark.parametrize("board", ["pi4", "pi5"])
def test_brightness_and_the_current_limit_are_applied_once_and_close_sends_all_off(
    tmp_path: Path, board: str
) -> None:
    count = load_pin_map().leds.count
    white = [(255, 255, 255)] * count
    done, records = run_strip(tmp_path, board, [white], brightness=0.5, max_milliamps=500)
    assert done.returncode == 0, done.stderr
    sent = transfers(records)
    expected = scale_frame(white, 0.5, 500)
    assert expected != scale_frame(expected, 0.5, 500)  # twice would show
    assert frame_bytes(sent[0], count) == encode_frame(expected, "GRB")
    assert frame_bytes(sent[-1], count) == encode_frame([OFF] * count, "GRB")
    assert len(sent) == 2  # the frame, then one all-off frame on close
    closes = [r for r in records if r["op"] == "close"]
    assert closes == [{"op": "close", "path": "/dev/spidev0.0", "fd": records[0]["fd"]}]
    assert records[-1]["op"] == "close"  # the descriptor goes after the all-off frame


def test_spi_off_is_one_line_saying_how_to_turn_it_on(tmp_path: Path) -> None:
    done, records = run_strip(tmp_path, "pi4", [], devices="")
    assert done.returncode == 1
    assert records == []
    last = done.stderr.strip().splitlines()[-1]
    assert last.endswith(
        "HardwareError: leds.driver: SPI is off (/dev/spidev0.0 is missing): add "
        "dtparam=spi=on to /boot/firmware/config.txt (systemd/install.sh does) and reboot"
    )


@pytest.mark.parametrize("board", ["pi4", "pi5"])
def test_blinka_without_gpiod_is_one_line_naming_it(tmp_path: Path, board: str) -> None:
    # Blinka 10's `import board` imports gpiod; with BLINKA_SKIP_DEPENDENCY_CHECK=1 (the
    # unit) nothing installs it, so the pi extra must: without it this is the line.
    done, records = run_strip(tmp_path, board, [], block="gpiod")
    assert done.returncode == 1
    assert records == []
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "HardwareError: LED driver 'neopixel-spi' is not available here (No module named "
            "'gpiod'): on the Pi install the extra with pip install 'mandala-companion[pi]'; use "
            "--emulate on a laptop"
        )
    )


def test_no_permission_on_the_spi_device_names_the_spi_group(tmp_path: Path) -> None:
    done, records = run_strip(tmp_path, "pi4", [], deny="/dev/spidev0.0")
    assert done.returncode == 1
    assert records == []
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "HardwareError: leds.driver: no permission on /dev/spidev0.0: add the service user to "
            "the spi group (systemd/install.sh does), or run it as a user in that group"
        )
    )

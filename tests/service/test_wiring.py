"""tools/wiring.py: the wiring guide's table, drawing and power budget follow the maps."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware.maps import load_led_map, load_pin_map
from tools import wiring

REPO = Path(__file__).resolve().parents[2]
PINS = REPO / "hardware" / "pins.toml"


def table_rows(markdown: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("| ") and not line.startswith("| part")
    ]


def test_committed_readme_and_svg_are_current_with_the_maps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert wiring.main(["--check"]) == 0, capsys.readouterr().err


def test_generated_table_lists_every_pin_of_pins_toml_at_its_header_pin() -> None:
    document = tomllib.loads(PINS.read_text())
    rows = table_rows(wiring.pin_table_markdown(load_pin_map(PINS)))
    expected = []
    for i, ring in enumerate(document["rings"]):
        expected.append([f"ring {i} encoder", "A", f"GPIO{ring['a']}", f"`rings[{i}].a`"])
        expected.append([f"ring {i} encoder", "B", f"GPIO{ring['b']}", f"`rings[{i}].b`"])
    expected.append(["LED strip", "DIN (via 74AHCT125)", f"GPIO{document['leds']['pin']}",
                     "`leds.pin`"])  # fmt: skip
    for name, pin in document.get("buttons", {}).items():
        expected.append([f"{name} button", "to GND", f"GPIO{pin}", f"`buttons.{name}`"])
    assert [[row[0], row[1], row[2], row[4]] for row in rows] == expected


def test_header_pin_numbers_are_the_pi_header_s() -> None:
    # Worked out from the Raspberry Pi pinout, not from the tool's own table.
    rows = {row[2]: row[3] for row in table_rows(wiring.pin_table_markdown(load_pin_map(PINS)))}
    assert rows["GPIO4"] == "7"
    assert rows["GPIO17"] == "11"
    assert rows["GPIO14"] == "8"
    assert rows["GPIO8"] == "24"
    assert rows["GPIO7"] == "26"
    assert rows["GPIO10"] == "19"
    assert rows["GPIO21"] == "40"
    assert rows["GPIO16"] == "36"


def test_the_readme_carries_the_generated_table() -> None:
    readme = (REPO / "hardware" / "README.md").read_text()
    assert wiring.pin_table_markdown(load_pin_map(PINS)) in readme
    assert "| ring 0 encoder | A | GPIO4 | 7 | `rings[0].a` |" in readme


def test_power_budget_of_the_bundled_maps() -> None:
    pin_map = load_pin_map(PINS)
    budget = wiring.led_budget(pin_map, load_led_map(None, pin_map.leds.count))
    # 48 pixels x 3 channels x 20 mA at full white.
    assert budget.full_white_milliamps == 2880
    # brightness 0.5: each channel int(255 * 0.5) = 127 -> 48 * 3 * 127 * 20 / 255.
    assert budget.after_brightness_milliamps == pytest.approx(1434.35, abs=0.01)
    # Under max_milliamps = 1500, so the limit leaves it alone.
    assert budget.after_limit_milliamps == pytest.approx(1434.35, abs=0.01)
    assert budget.idle_milliamps == 48
    assert budget.worst_milliamps == pytest.approx(1482.35, abs=0.01)
    # 1482.35 x 1.25 = 1852.9 -> the next 500 mA step.
    assert budget.supply_milliamps == 2000
    assert budget.mapped == 48


def test_max_milliamps_caps_the_budget(tmp_path: Path) -> None:
    text = PINS.read_text().replace("max_milliamps = 1500", "max_milliamps = 500")
    (tmp_path / "pins.toml").write_text(text)
    pin_map = load_pin_map(tmp_path / "pins.toml")
    budget = wiring.led_budget(pin_map, load_led_map(None, pin_map.leds.count))
    # 1434.35 mA scaled by 500/1434.35, every channel rounded down: 127 * 0.3486 -> 44;
    # 48 * 3 * 44 * 20 / 255 = 496.94 mA.
    assert budget.after_limit_milliamps == pytest.approx(496.94, abs=0.01)
    assert budget.after_limit_milliamps <= 500


def test_a_changed_map_makes_the_check_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    swapped = PINS.read_text().replace("a = 4\nb = 17", "a = 17\nb = 4")
    assert swapped != PINS.read_text()
    (tmp_path / "pins.toml").write_text(swapped)
    assert wiring.main(["--check", "--pins", str(tmp_path / "pins.toml")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "wiring: hardware/header.svg is out of date: run python tools/wiring.py",
        "wiring: hardware/README.md is out of date: run python tools/wiring.py",
    ]


def test_header_svg_draws_all_forty_pins_with_their_uses() -> None:
    svg = wiring.header_svg(load_pin_map(PINS))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    pins = [el for el in root.iter() if el.tag in (f"{ns}circle", f"{ns}rect")
            and el.get("stroke") == "#999"]  # fmt: skip
    legend = 8
    assert len(pins) == 40 + legend
    texts = [el.text for el in root.iter(f"{ns}text")]
    assert "GPIO4 ring 0 A" in texts
    assert "GPIO7 ring 8 B" in texts
    assert "GPIO10 LED strip data" in texts
    assert "GPIO21 done button" in texts
    assert "GPIO2 (I2C SDA)" in texts
    assert (REPO / "hardware" / "header.svg").read_text() == svg


def test_a_readme_without_the_generated_section_is_an_error() -> None:
    with pytest.raises(wiring.WiringError, match=r"^hardware/README.md: no generated section "
                       r"'pin-table'$"):  # fmt: skip
        wiring.fill_readme("# nothing here\n", {"pin-table": "x"})

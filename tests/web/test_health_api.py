"""``/api/health``: the checks on the running companion, the guided tests, the bundle, errors."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.doctor.panel import PanelDoctor
from companion.table.health import LED_TEST_HOLD_S, HealthDesk
from companion.table.table import Table
from companion.web import create_app
from firmware.maps import load_led_map
from tests.doctor.ring_results import passed_ring
from tests.firmware.helpers import wait_for
from tests.phrase_json import english
from tests.web.conftest import assert_error

NAMES = ["leds", "groups", "serial", "pins", "rest", "data", "database", "clock"]


def test_the_checks_run_against_the_emulated_hardware(emulated_client: FlaskClient) -> None:
    answer = emulated_client.get("/api/health")
    assert answer.status_code == 200
    body = answer.get_json()
    assert [check["name"] for check in body["checks"]] == NAMES
    by_name = {check["name"]: check for check in body["checks"]}
    assert by_name["pins"] == {
        "name": "pins",
        "status": "ok",
        "message": "all 21 ring and button pins are held by this companion",
    }
    assert by_name["rest"]["status"] == "ok"
    assert by_name["database"]["status"] == "ok"
    assert body["emulated"] is True
    assert body["rings"] is None  # no ring test started
    assert body["buttons"] == [{"button": "done", "presses": 0, "last": None}]


def test_the_checks_answer_in_the_phone_s_language(
    emulated_table: Table, emulated_client: FlaskClient
) -> None:
    # German asked: what was found and what to do are German; the names stay the doctor's.
    pin = emulated_table.hardware.pin_map.rings[2].b
    emulated_table.hardware.factory.pin(pin).drive_low()
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    checks = emulated_client.get("/api/health", headers=german).get_json()["checks"]
    by_name = {check["name"]: check for check in checks}
    assert [check["name"] for check in checks] == NAMES
    assert by_name["pins"]["message"] == "Alle 21 Ring- und Tasten-Pins gehören dieser Box"
    assert by_name["rest"]["message"].startswith(
        f'Ring 2: Leitung B (GPIO{pin}) liest in Ruhe Low (rest = "open" erwartet High): '
        "ein fehlender Pull-up"
    )
    english = emulated_client.get("/api/health", headers={"Accept-Language": "en"}).get_json()
    assert {c["name"]: c for c in english["checks"]}["pins"]["message"] == (
        "all 21 ring and button pins are held by this companion"
    )


def test_a_line_low_at_rest_fails_the_rest_check_on_the_running_companion(
    emulated_table: Table, emulated_client: FlaskClient
) -> None:
    # Ring 2's line B loses its pull-up: the emulated line sits low.
    pin = emulated_table.hardware.pin_map.rings[2].b
    emulated_table.hardware.factory.pin(pin).drive_low()
    check = next(
        c for c in emulated_client.get("/api/health").get_json()["checks"] if c["name"] == "rest"
    )
    assert check["status"] == "fail"
    assert check["message"].startswith(
        f'ring 2: line B (GPIO{pin}) reads low at rest (rest = "open" expects high)'
    )


@pytest.mark.usefixtures("emulated_owner")
def test_the_ring_test_follows_a_turn_each_way(
    emulated_table: Table, emulated_client: FlaskClient
) -> None:
    started = emulated_client.post("/api/health/ring-test", json={})
    assert started.status_code == 200
    assert started.get_json()["rings"][0]["verdict"] == "waiting"
    emulated_table.emulator_turn(0, 1)
    emulated_table.emulator_turn(0, -1)

    def ring_0() -> dict[str, object]:
        return emulated_client.get("/api/health/live").get_json()["rings"][0]

    wait_for(lambda: ring_0()["verdict"] == "passed")
    assert ring_0() == passed_ring(0, [4, 4])
    assert english(ring_0()["phrase"]) == "ring 0: +1 ✓, −1 ✓, lines A and B both toggled, 0 errors"


@pytest.mark.usefixtures("emulated_owner")
def test_a_ring_whose_line_never_moves_is_named(
    emulated_table: Table, emulated_client: FlaskClient
) -> None:
    emulated_client.post("/api/health/ring-test", json={})
    pin = emulated_table.hardware.pin_map.rings[6].a
    line_a = emulated_table.hardware.factory.pin(pin)
    for _ in range(2):  # a hand turns the ring; only line A reaches the Pi
        line_a.drive_low()
        line_a.drive_high()

    def ring_6() -> dict[str, object]:
        return emulated_client.get("/api/health/live").get_json()["rings"][6]

    wait_for(lambda: ring_6()["verdict"] == "failed")
    b = emulated_table.hardware.pin_map.rings[6].b
    assert english(ring_6()["phrase"]) == (
        f"ring 6: line B (GPIO{b}) never moved while line A toggled 4 times: check line B's "
        "wire, its pull-up and its filter"
    )


@pytest.mark.usefixtures("emulated_owner")
def test_an_led_role_is_lit_and_the_strip_goes_back_to_the_game(
    emulated_table: Table, emulated_client: FlaskClient
) -> None:
    answer = emulated_client.post("/api/health/leds", json={"show": "entrances"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["led_step"] == {"show": "entrances"}
    entrances = set(load_led_map().entrances)
    assert {i for i, pixel in enumerate(body["leds"]) if pixel != [0, 0, 0]} == entrances
    strip = emulated_table.hardware.strip
    shown = strip.last_frame
    assert {i for i, pixel in enumerate(shown) if pixel != (0, 0, 0)} == entrances
    off = emulated_client.post("/api/health/leds", json={"show": "off"}).get_json()
    assert off["led_step"] is None
    assert strip.last_frame == [(0, 0, 0)] * 48


@pytest.mark.usefixtures("emulated_owner")
def test_one_pixel_of_the_chase(emulated_client: FlaskClient) -> None:
    body = emulated_client.post("/api/health/leds", json={"show": "pixel", "pixel": 47}).get_json()
    assert body["led_step"] == {"show": "pixel", "pixel": 47, "of": 48}
    assert [i for i, pixel in enumerate(body["leds"]) if pixel != [0, 0, 0]] == [47]


@pytest.mark.usefixtures("emulated_owner")
def test_bad_led_steps_are_refused_in_json(emulated_client: FlaskClient) -> None:
    assert_error(
        emulated_client.post("/api/health/leds", json={"show": "rainbow"}),
        400,
        "malformed",
        "show: 'rainbow' is not one of spokes, entrances, bases, scores, pixel, off",
    )
    answer = emulated_client.post("/api/health/leds", json={"show": "pixel", "pixel": 48})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"].startswith("pixel: ")
    assert_error(
        emulated_client.post("/api/health/leds", json={"show": "pixel", "pixel": "3", "x": 1}),
        400,
        "malformed",
        "request body.x: unknown key",
    )
    assert_error(
        emulated_client.post("/api/health/leds", json={}),
        400,
        "malformed",
        "request body.show: missing key",
    )


@pytest.mark.usefixtures("owner")
def test_without_a_ring_board_the_tests_are_refused_and_the_checks_say_why(
    client: FlaskClient,
) -> None:
    assert_error(
        client.post("/api/health/ring-test", json={}), 409, "conflict", "no ring board is attached"
    )
    assert_error(
        client.post("/api/health/leds", json={"show": "spokes"}),
        409,
        "conflict",
        "no LED strip is attached",
    )
    checks = client.get("/api/health").get_json()["checks"]
    assert [check["name"] for check in checks] == ["hardware", "data", "database", "clock"]
    assert checks[0]["status"] == "warn"


@pytest.mark.usefixtures("emulated_owner")
def test_the_bundle_is_a_zip_made_here_with_the_maps_versions_counters_and_checks(
    emulated_client: FlaskClient,
) -> None:
    answer = emulated_client.get("/api/health/bundle")
    assert answer.status_code == 200
    assert answer.mimetype == "application/zip"
    assert answer.headers["Content-Disposition"].startswith(
        'attachment; filename="mandala-diagnostics-'
    )
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        names = archive.namelist()
        assert names == [
            "README.txt",
            "checks.txt",
            "config.toml",
            "options.json",
            "pins.toml",
            "leds.toml",
            "maps.json",
            "versions.txt",
            "sensors.json",
            "service.json",
            "log.txt",
        ]
        readme = " ".join(archive.read("README.txt").decode().split())
        assert "the companion never sends it anywhere" in readme
        assert "[[rings]]" in archive.read("pins.toml").decode()
        versions = archive.read("versions.txt").decode()
        assert "python: " in versions and "gpiozero==" in versions
        assert '"line_edges"' in archive.read("sensors.json").decode()


def test_an_led_test_step_lets_go_of_the_strip_after_its_hold() -> None:
    desk = HealthDesk()
    desk.show_pixel(4, 2)
    now = time.monotonic()
    assert desk.led_frame(now) == [(0, 0, 0), (0, 0, 0), (255, 255, 255), (0, 0, 0)]
    assert 0 < (desk.wake_in(now) or 0) <= LED_TEST_HOLD_S
    assert desk.led_frame(now + LED_TEST_HOLD_S + 1) is None
    assert desk.step is None
    assert desk.wake_in(now) is None


def test_a_data_directory_gone_under_the_running_companion_fails_its_check(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    table = Table(data, None)
    table.start()
    try:
        client = create_app({}, table=table, diagnostics=PanelDoctor()).test_client()
        moved = tmp_path / "moved"
        data.rename(moved)
        check = next(
            c for c in client.get("/api/health").get_json()["checks"] if c["name"] == "data"
        )
        assert check["status"] == "fail"
        assert check["message"].startswith(f"{data} is gone: every change is refused")
    finally:
        table.close()

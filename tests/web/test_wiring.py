"""What the process wiring hands the panel: the firmware's errors and the doctor.

The web layer imports nothing of ``firmware`` or ``companion.doctor``; ``companion.serve``
hands the error mapping to ``create_app(more_errors=...)`` and the doctor to
``create_app(diagnostics=...)``, and these tests build the panel the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion.doctor.panel import PanelDoctor
from companion.serve import firmware_errors
from companion.table.table import Table
from companion.web import create_app
from firmware.errors import FirmwareError, HardwareError, RequestError
from tests.web.conftest import assert_error


@pytest.fixture
def panel(tmp_path: Path) -> Iterator[Flask]:
    table = Table(tmp_path / "data", None, tmp_path / "data" / "boards")
    table.start()
    app = create_app(
        {"BOARDS_DIR": tmp_path / "data" / "boards"}, table=table, more_errors=firmware_errors()
    )

    def raise_request() -> str:
        raise RequestError("no button 'reset' on this map")

    def raise_hardware() -> str:
        raise HardwareError("the LED strip stopped answering")

    def raise_other() -> str:
        raise FirmwareError("something else of the firmware's")

    app.add_url_rule("/api/test/request", view_func=raise_request)
    app.add_url_rule("/api/test/hardware", view_func=raise_hardware)
    app.add_url_rule("/api/test/other", view_func=raise_other)
    yield app
    table.close()


def test_a_part_the_firmware_does_not_have_is_404_not_found(panel: Flask) -> None:
    response = panel.test_client().get("/api/test/request")
    assert_error(response, 404, "not_found", "no button 'reset' on this map")


def test_hardware_that_fails_is_503_hardware(panel: Flask) -> None:
    response = panel.test_client().get("/api/test/hardware")
    assert_error(response, 503, "hardware", "the LED strip stopped answering")


def test_a_firmware_error_not_mapped_is_the_500_format_not_a_crash(panel: Flask) -> None:
    response = panel.test_client().get("/api/test/other")
    assert_error(response, 500, "internal", "the companion failed: FirmwareError")


def test_the_web_layer_maps_no_firmware_error_itself() -> None:
    from companion.web.errors import MAPPED

    assert not [kind for kind, _, _ in MAPPED if issubclass(kind, FirmwareError)]


def test_a_panel_built_without_the_doctor_answers_its_health_checks_404(tmp_path: Path) -> None:
    with Table(tmp_path / "data", None) as table:
        client = create_app({}, table=table).test_client()
        message = "this panel was started without its diagnostics"
        assert_error(client.get("/api/health"), 404, "not_found", message)
        assert client.get("/api/health/live").status_code == 200  # the table's own part


def test_the_doctor_handed_in_answers_the_health_checks(tmp_path: Path) -> None:
    with Table(tmp_path / "data", None) as table:
        client = create_app({}, table=table, diagnostics=PanelDoctor()).test_client()
        answer = client.get("/api/health")
        assert answer.status_code == 200
        names = [check["name"] for check in answer.get_json()["checks"]]
        assert names == ["hardware", "data", "database", "clock"]

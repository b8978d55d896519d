"""Fixtures for the panel: a real Table on a temporary SQLite store, the app, a client."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.doctor.panel import PanelDoctor
from companion.table.store import DB_NAME
from companion.table.table import Table
from companion.web import create_app
from companion.web.context import TABLE_KEY
from companion.web.viewer import host_cookie

TWO_SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]


def open_board(name: str) -> dict[str, Any]:
    """A 16-spoke board (as JSON) whose every slot is black, the only entrance at spoke 2."""
    return {
        "name": name,
        "spokes": 16,
        "corners": [2, 6, 10, 14],
        "entrances": [2],
        "dice": [0, 1, 2, 3, 4],
        "rings": [
            {"colour": colour, "black": list(range(16))}
            for colour in ["red", "blue", "green", "yellow", "brown"] * 2
        ],
    }


NEW_RINGS_GAME = {"kind": "rings", "seats": TWO_SEATS, "board": "reference", "variant": "standard"}


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def table(data_dir: Path) -> Iterator[Table]:
    """A running table with no ring board attached (games only)."""
    service = Table(data_dir, None, data_dir / "boards")
    service.start()
    yield service
    service.close()


@pytest.fixture
def app(table: Table, data_dir: Path) -> Flask:
    config = {"BOARDS_DIR": data_dir / "boards", "SSE_HEARTBEAT_SECONDS": 0.2}
    return create_app(config, table=table, diagnostics=PanelDoctor())


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def pair_owner(client: FlaskClient, data_dir: Path) -> str:
    """Make ``client`` the box's owner as a phone does: ``mandala pair --data DIR`` prints a
    code, the phone sends it; the client keeps the owner cookie. Returns the owner token."""
    from tests.conftest import run_cli

    printed = run_cli(["pair", "--data", str(data_dir)])
    assert printed.status == 0, printed
    answer = client.post("/api/owner/pair", json={"code": printed.stdout.splitlines()[-1]})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    token: str = answer.get_json()["owner_token"]
    return token


@pytest.fixture
def owner(client: FlaskClient, data_dir: Path) -> str:
    """The ``client`` fixture, paired as the box's owner (deleting, importing, the rings)."""
    return pair_owner(client, data_dir)


def stacked_cards(host: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    """Create a card game whose deck the test knows (``seed`` or ``deck`` in ``body``).

    The panel refuses a chosen deck for a game played on it, so this goes through the
    table's own API, below that check; ``host`` then keeps the host token in the panel's
    cookie, as the phone that creates a game does. Returns the table's answer.
    """
    table: Table = host.application.extensions[TABLE_KEY]
    answer = table.create_game({"kind": "cards", **body})
    token = answer.get("host_token")
    if isinstance(token, str):
        host.set_cookie(host_cookie(str(answer["id"])), token)
    return answer


def stored_setup(data_dir: Path, game_id: str) -> dict[str, Any]:
    """A game's setup as the table stored it on disk (read as the box's own shell can)."""
    with sqlite3.connect(data_dir / DB_NAME) as db:
        (text,) = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
    setup: dict[str, Any] = json.loads(text)
    return setup


def assert_error(response: Any, status: int, code: str, message: str) -> None:
    """Check the one error format, the status, the code and the exact message."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert response.get_json() == {"error": {"code": code, "message": message}}


def is_error_format(body: bytes) -> bool:
    """Say whether a body is exactly ``{"error": {"code": str, "message": str}}``."""
    try:
        value = json.loads(body)
    except ValueError:
        return False
    if not isinstance(value, dict) or set(value) != {"error"}:
        return False
    inner = value["error"]
    return (
        isinstance(inner, dict)
        and set(inner) == {"code", "message"}
        and isinstance(inner["code"], str)
        and isinstance(inner["message"], str)
        and bool(inner["message"])
    )


@pytest.fixture
def emulated_table(data_dir: Path) -> Iterator[Table]:
    """A running table with emulated rings (real decoder on gpiozero mock pins)."""
    from firmware.hardware import Hardware
    from firmware.maps import load_led_map, load_pin_map

    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets, settle_ms=50
        )

    service = Table(data_dir, open_hardware, data_dir / "boards")
    service.start()
    yield service
    service.close()


@pytest.fixture
def emulated_client(emulated_table: Table, data_dir: Path) -> FlaskClient:
    config = {"BOARDS_DIR": data_dir / "boards", "SSE_HEARTBEAT_SECONDS": 0.2}
    return create_app(config, table=emulated_table, diagnostics=PanelDoctor()).test_client()


@pytest.fixture
def emulated_owner(emulated_client: FlaskClient, data_dir: Path) -> str:
    """The ``emulated_client`` fixture, paired as the box's owner (Health's actions)."""
    return pair_owner(emulated_client, data_dir)


def serving(
    table: Table, config: dict[str, Any], wifi: Any = None, *, reach: Any = None
) -> Iterator[str]:
    """Serve the panel of ``table`` (and ``wifi``) on ``mandala serve``'s waitress server (a
    free port, a thread) until the generator is closed; yield its base URL. With ``reach``
    (``companion.box.address.Reach``) it listens on that host and tells it the port."""
    import threading

    from companion.serve import make_server, stop_server

    host = "127.0.0.1" if reach is None else reach.host
    app = create_app(config, table=table, diagnostics=PanelDoctor(), wifi=wifi, reach=reach)
    httpd: Any = make_server(app, host, 0)
    if reach is not None:
        reach.bound(httpd.effective_port)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    yield f"http://{host}:{httpd.effective_port}"
    stop_server(httpd, table)
    thread.join(timeout=5)


@pytest.fixture
def server(emulated_table: Table, data_dir: Path) -> Iterator[str]:
    """The panel on a real waitress server (a free port, a thread); yields its base URL."""
    config = {"BOARDS_DIR": data_dir / "boards", "SSE_HEARTBEAT_SECONDS": 0.2}
    yield from serving(emulated_table, config)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, launched through Playwright (see ``tests/web/browser.py``)."""
    from tests.web.browser import chromium

    with chromium() as launched:
        yield launched

"""Same origin only: cross-site changes, rebinding Hosts, non-JSON bodies; security headers."""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import read_config
from companion.table.table import Table
from companion.web import create_app
from companion.web.security import CONTENT_SECURITY_POLICY
from tests.web.conftest import NEW_RINGS_GAME, assert_error

EVIL = "http://evil.example"
CROSS_SITE = (
    "this request came from another web page ('http://evil.example'); the companion takes "
    "changes only from its own panel"
)


def unknown_host(value: str) -> str:
    return (
        f"Host {value!r} is not a name this companion answers to; open the panel by its own "
        "address (a name of yours can be added to the config's allowed_hosts)"
    )


def games(client: FlaskClient) -> list[str]:
    return [g["id"] for g in client.get("/api/games").get_json()["games"]]


# Cross-site requests -------------------------------------------------------------------


def test_a_web_page_cannot_create_act_undo_or_press_buttons(
    emulated_client: FlaskClient,
) -> None:
    client = emulated_client
    game = client.post("/api/games", json=NEW_RINGS_GAME).get_json()
    evil = {"Origin": EVIL}
    dice = {"red": 1, "blue": 0, "green": 2, "yellow": 0, "brown": 3}
    attempts = [
        ("/api/games", NEW_RINGS_GAME),
        (f"/api/games/{game['id']}/actions", {"version": 1, "action": {"dice": dice}}),
        (f"/api/games/{game['id']}/undo", {"version": 1}),
        ("/api/board/zero", {}),
        ("/api/emulator/buttons/done/press", {}),
        ("/api/emulator/rings/0/turn", {"detents": 1}),
    ]
    for path, body in attempts:
        assert_error(client.post(path, json=body, headers=evil), 403, "cross_site", CROSS_SITE)
    assert_error(
        client.delete(f"/api/games/{game['id']}", headers=evil), 403, "cross_site", CROSS_SITE
    )
    assert games(client) == [game["id"]]
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_text_plain_body_is_refused_even_without_an_origin(client: FlaskClient) -> None:
    for content_type in ("text/plain", "application/x-www-form-urlencoded"):
        response = client.post(
            "/api/games", data=json.dumps(NEW_RINGS_GAME), content_type=content_type
        )
        assert_error(
            response,
            400,
            "malformed",
            "request body: send it as JSON with Content-Type: application/json "
            f"(it was {content_type!r})",
        )
    assert games(client) == []


def test_sec_fetch_site_cross_site_without_an_origin_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json=NEW_RINGS_GAME, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert_error(
        response,
        403,
        "cross_site",
        "this request came from another web page (Sec-Fetch-Site: cross-site); the companion "
        "takes changes only from its own panel",
    )
    assert games(client) == []


def test_the_panels_own_origin_may_change_things(client: FlaskClient) -> None:
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/games", json=NEW_RINGS_GAME, headers=own).status_code == 201


@pytest.mark.parametrize(
    "origin", ["http://localhost:8001", "null", "file://", "http://localhost.evil.example"]
)
def test_another_port_a_null_or_a_lookalike_origin_is_cross_site(
    client: FlaskClient, origin: str
) -> None:
    response = client.post("/api/games", json=NEW_RINGS_GAME, headers={"Origin": origin})
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "cross_site"
    assert games(client) == []


# Hosts the box answers to ---------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "localhost:8001", "203.0.113.9", "a@b"])
def test_a_host_the_box_does_not_answer_to_is_refused_even_for_reading(
    client: FlaskClient, host: str
) -> None:
    assert_error(
        client.get("/api/games", headers={"Host": host}), 403, "unknown_host", unknown_host(host)
    )
    response = client.post("/api/games", json=NEW_RINGS_GAME, headers={"Host": host})
    assert response.status_code == 403
    assert games(client) == []


def test_the_hostname_its_local_name_and_own_addresses_are_answered(client: FlaskClient) -> None:
    short = socket.gethostname().split(".")[0]
    for host in (short, f"{short}.local", "127.0.0.1", "127.0.0.2", "[::1]", "LOCALHOST."):
        response = client.get("/api/games", headers={"Host": host})
        assert response.status_code == 200, (host, response.get_json())


def test_names_from_the_config_are_answered(table: Table, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('allowed_hosts = ["Mandala.Home.Arpa"]\n')
    options = read_config(config)
    assert options.allowed_hosts == ("mandala.home.arpa",)
    app = create_app({"ALLOWED_HOSTS": list(options.allowed_hosts)}, table=table)
    client = app.test_client()
    assert client.get("/api/games", headers={"Host": "mandala.home.arpa"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "other.home.arpa"}).status_code == 403


def test_a_config_host_that_is_not_a_name_is_refused(tmp_path: Path, cli: object) -> None:
    from tests.conftest import assert_cli_error, run_cli

    config = tmp_path / "config.toml"
    config.write_text('allowed_hosts = ["ok.example", "http://x/"]\n')
    assert_cli_error(
        run_cli(["serve", "--config", str(config)]),
        f"{config}: allowed_hosts[1]: 'http://x/' is not a host name",
    )


def test_a_rebinding_host_is_refused_by_the_real_server(server: str) -> None:
    port = int(server.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/api/games", headers={"Host": f"evil.example:{port}"})
        response = connection.getresponse()
        body = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 403
    assert body["error"]["code"] == "unknown_host"


# Security headers -----------------------------------------------------------------------


def test_every_kind_of_response_carries_the_security_headers(app: Flask) -> None:
    client = app.test_client()
    game = client.post("/api/games", json=NEW_RINGS_GAME).get_json()
    answers = [
        client.get("/"),
        client.get(f"/games/{game['id']}"),
        client.get("/static/panel.js"),
        client.get("/api/games"),
        client.get("/api/nope"),
        client.post("/api/games", json={}, headers={"Origin": EVIL}),
        client.get("/api/games", headers={"Host": "evil.example"}),
    ]
    for response in answers:
        headers = response.headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"

"""``/api/wifi`` and the captive portal over the stand-in nmcli: owner only, each failure said."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.box.wifi import Wifi
from companion.box.wifi_box import WifiBox
from companion.catalogue import render
from companion.doctor.panel import PanelDoctor
from companion.table import Table
from companion.web import create_app
from companion.web.api_wifi import PROBES
from tests.box.conftest import StandinNM
from tests.phrase_json import english, from_json
from tests.web.conftest import assert_error, pair_owner

FOREIGN = "connectivitycheck.gstatic.com"
WRONG = (
    "'Cabin: upstairs' did not take that password; check it (capital letters count) and try again"
)


@pytest.fixture
def wifi_box(nm: StandinNM, data_dir: Path, machine_id: Path) -> WifiBox:
    return WifiBox(Wifi(data_dir, machine_id=machine_id))


@pytest.fixture
def wifi_app(table: Table, data_dir: Path, wifi_box: WifiBox) -> Flask:
    config = {"BOARDS_DIR": data_dir / "boards"}
    return create_app(config, table=table, diagnostics=PanelDoctor(), wifi=wifi_box)


@pytest.fixture
def phone(wifi_app: Flask) -> FlaskClient:
    return wifi_app.test_client()


@pytest.fixture
def box_owner(wifi_app: Flask, data_dir: Path) -> Iterator[FlaskClient]:
    client = wifi_app.test_client()
    pair_owner(client, data_dir)
    yield client


def settled(client: FlaskClient, box: WifiBox) -> dict[str, Any]:
    """Wait for the change the box runs to end; answer ``GET /api/wifi``."""
    assert box.wait_idle(60), "the Wi-Fi change did not end"
    answer = client.get("/api/wifi")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    state: dict[str, Any] = answer.get_json()
    assert state["doing"] is None
    return state


ACTIONS = [
    ("GET", "/api/wifi", None, "see the box's Wi-Fi"),
    ("GET", "/api/wifi/networks", None, "scan for Wi-Fi networks"),
    ("POST", "/api/wifi/join", {"ssid": "Cafe"}, "change the box's Wi-Fi"),
    ("POST", "/api/wifi/access-point", {"open": True}, "change the box's Wi-Fi"),
    ("POST", "/api/wifi/forget", {"name": "Home"}, "change the box's Wi-Fi"),
]


@pytest.mark.parametrize(("method", "url", "body", "what"), ACTIONS)
def test_every_wifi_action_is_the_owners_only(
    phone: FlaskClient,
    nm: StandinNM,
    method: str,
    url: str,
    body: Any,
    what: str,
) -> None:
    answer = phone.open(url, method=method, json=body)
    assert answer.status_code == 403
    error = answer.get_json()["error"]
    assert error["code"] == "owner_required"
    assert error["message"].startswith(f"only the box's owner can {what}; ")
    assert nm.calls() == []  # nothing was asked of NetworkManager


def test_the_owner_sees_the_state_and_the_boxs_own_network(
    box_owner: FlaskClient, wifi_box: WifiBox
) -> None:
    state = settled(box_owner, wifi_box)
    own = wifi_box.wifi.access_point()
    assert state == {
        "running": True,
        "device": "wlan0",
        "connection": "Home",
        "access_point": False,
        "known": ["Home"],
        "own_network": {"ssid": own.ssid, "password": own.password, "address": "10.42.0.1"},
        "doing": None,
        "last": None,
    }


def test_the_owner_scans_the_networks_in_reach(box_owner: FlaskClient) -> None:
    answer = box_owner.get("/api/wifi/networks")
    assert answer.status_code == 200
    assert [n["ssid"] for n in answer.get_json()["networks"]] == ["Cabin: upstairs", "Home", "Cafe"]


def test_join_answers_at_once_and_the_box_joins_and_keeps_both(
    box_owner: FlaskClient,
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    answer = box_owner.post(
        "/api/wifi/join", json={"ssid": "Cabin: upstairs", "password": "cabin-secret"}
    )
    assert answer.status_code == 202
    assert answer.get_json() == {
        "started": True,
        "doing": {"action": "join", "ssid": "Cabin: upstairs"},
    }
    state = settled(box_owner, wifi_box)
    assert state["connection"] == "Cabin: upstairs"
    assert state["known"] == ["Home", "Cabin: upstairs"]
    assert state["last"]["ok"] is True
    assert english(state["last"]["phrase"]) == "joined 'Cabin: upstairs'"
    # the words once, as a phrase: a German phone reads them in German
    assert "message" not in state["last"]
    assert render(from_json(state["last"]["phrase"]), "de") == "mit 'Cabin: upstairs' verbunden"


def open_access_point(client: FlaskClient, box: WifiBox) -> dict[str, Any]:
    answer = client.post("/api/wifi/access-point", json={"open": True})
    assert answer.status_code == 202, answer.get_data(as_text=True)
    state = settled(client, box)
    assert state["access_point"] is True, state
    return state


def test_a_wrong_password_is_said_and_the_box_opens_its_own_wifi_again(
    box_owner: FlaskClient,
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    open_access_point(box_owner, wifi_box)
    answer = box_owner.post(
        "/api/wifi/join", json={"ssid": "Cabin: upstairs", "password": "wrong-one"}
    )
    assert answer.status_code == 202
    state = settled(box_owner, wifi_box)
    assert state["last"]["ok"] is False
    assert state["last"]["error"] == "wrong_password"
    assert english(state["last"]["phrase"]) == WRONG
    assert state["access_point"] is True  # the phone can come back and read why
    assert state["known"] == ["Home"]


def test_a_wrong_password_from_a_home_network_goes_back_to_it(
    box_owner: FlaskClient, wifi_box: WifiBox, nm: StandinNM
) -> None:
    answer = box_owner.post(
        "/api/wifi/join", json={"ssid": "Cabin: upstairs", "password": "wrong-one"}
    )
    assert answer.status_code == 202
    state = settled(box_owner, wifi_box)
    assert state["last"]["error"] == "wrong_password"
    assert english(state["last"]["phrase"]) == WRONG
    assert state["connection"] == "Home"  # not left on no network at all
    assert ["-t", "-w", "45", "connection", "up", "id", "Home"] in nm.calls()


def test_a_network_gone_is_said_by_name(
    box_owner: FlaskClient, wifi_box: WifiBox, nm: StandinNM
) -> None:
    box_owner.post("/api/wifi/join", json={"ssid": "Neighbours", "password": "whatever1"})
    state = settled(box_owner, wifi_box)
    assert state["last"]["error"] == "network_gone"
    assert english(state["last"]["phrase"]) == (
        "no Wi-Fi network 'Neighbours' is in reach; check its name, or bring the box closer to "
        "its router"
    )
    assert state["connection"] == "Home"
    assert not any("up" in call for call in nm.calls())  # Home was never left, nor re-joined


def test_networkmanager_not_running_is_said_for_each_action(
    box_owner: FlaskClient,
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    nm.set(running=False)
    message = (
        "NetworkManager is not running, so the box cannot change its Wi-Fi "
        "(sudo systemctl start NetworkManager)"
    )
    assert_error(box_owner.get("/api/wifi/networks"), 503, "networkmanager_down", message)
    assert box_owner.post("/api/wifi/access-point", json={"open": True}).status_code == 202
    state = settled(box_owner, wifi_box)
    assert state["running"] is False
    assert state["last"]["error"] == "networkmanager_down"
    assert english(state["last"]["phrase"]) == message


def test_the_access_point_opens_and_stops_from_the_panel(
    box_owner: FlaskClient,
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    state = open_access_point(box_owner, wifi_box)
    assert state["connection"] == "Mandala-AP"
    assert (
        english(state["last"]["phrase"])
        == f"opened {state['own_network']['ssid']} (asked on the panel)"
    )
    scans = [c for c in nm.calls() if "list" in c]
    assert scans[-1][-2:] == ["--rescan", "yes"]  # scanned before the radio became an AP
    networks = box_owner.get("/api/wifi/networks")
    assert networks.status_code == 200
    assert nm.calls()[-1][-2:] == ["--rescan", "no"]  # NetworkManager's list from before
    assert len(networks.get_json()["networks"]) == 3
    assert box_owner.post("/api/wifi/access-point", json={"open": False}).status_code == 202
    state = settled(box_owner, wifi_box)
    assert state["access_point"] is False and state["last"]["ok"] is True


def test_forget_a_known_network_and_one_it_does_not_know(
    box_owner: FlaskClient, wifi_box: WifiBox
) -> None:
    answer = box_owner.post("/api/wifi/forget", json={"name": "Home"})
    assert answer.status_code == 200 and answer.get_json() == {"forgotten": "Home"}
    assert settled(box_owner, wifi_box)["known"] == []
    assert_error(
        box_owner.post("/api/wifi/forget", json={"name": "Home"}),
        404,
        "network_gone",
        "the box knows no Wi-Fi network 'Home'",
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "ssid: missing key"),
        ({"ssid": ""}, "ssid: '' cannot be a Wi-Fi network's name (1-32 bytes)"),
        ({"ssid": "x" * 33}, f"ssid: {'x' * 33!r} cannot be a Wi-Fi network's name (1-32 bytes)"),
        (
            {"ssid": "Home", "password": "short"},
            "password: a Wi-Fi password has 8 to 63 characters",
        ),
        ({"ssid": "Home", "password": 12345678}, None),
        ({"ssid": "Home", "extra": 1}, None),
    ],
)
def test_a_bad_join_is_refused_and_nothing_is_asked_of_networkmanager(
    box_owner: FlaskClient,
    nm: StandinNM,
    body: dict[str, Any],
    message: str | None,
) -> None:
    nm.forget_calls()
    answer = box_owner.post("/api/wifi/join", json=body)
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert answer.get_json()["error"]["code"] == "malformed"
    if message is not None:
        assert answer.get_json()["error"]["message"] == message
    assert nm.calls() == []


@pytest.mark.parametrize("path", sorted(PROBES))
def test_captive_probes_lead_to_the_panel_only_while_the_box_is_its_own_wifi(
    box_owner: FlaskClient, phone: FlaskClient, wifi_box: WifiBox, path: str
) -> None:
    refused = phone.get(path)
    assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "not_found"
    assert phone.get(path, headers={"Host": FOREIGN}).status_code == 403  # the Host check
    open_access_point(box_owner, wifi_box)
    for host in (FOREIGN, "captive.apple.com", "10.42.0.1"):
        answer = phone.get(path, headers={"Host": host})
        assert answer.status_code == 302
        assert answer.headers["Location"] == "http://10.42.0.1/wifi"
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["X-Frame-Options"] == "DENY"


def test_in_ap_mode_the_host_check_still_guards_every_other_path(
    box_owner: FlaskClient, phone: FlaskClient, wifi_box: WifiBox
) -> None:
    open_access_point(box_owner, wifi_box)
    for path in ("/", "/api/games", "/wifi", "/api/wifi", "/generate_204/x"):
        answer = phone.get(path, headers={"Host": FOREIGN})
        assert answer.status_code == 403, path
        assert answer.get_json()["error"]["code"] == "unknown_host"


def test_without_a_wifi_to_manage_the_api_says_so_and_probes_stay_404(
    client: FlaskClient, owner: str
) -> None:
    assert_error(
        client.get("/api/wifi"),
        404,
        "not_found",
        "this companion does not manage its Wi-Fi (it is emulated, or the config says "
        'wifi = "off"); the computer it runs on keeps its own network settings',
    )
    assert client.get("/generate_204").status_code == 404
    page = client.get("/wifi")
    assert page.status_code == 200
    assert "does not manage its Wi-Fi" in page.get_data(as_text=True)


def test_the_box_opens_its_own_wifi_when_no_known_network_is_joined_at_start(
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    nm.set(active=None)
    started = time.monotonic()
    wifi_box.start_when_no_network(wait_s=0.5, poll_s=0.1).join(30)
    assert wifi_box.wait_idle(60)
    assert time.monotonic() - started >= 0.5
    assert nm.state["active"] == "Mandala-AP"
    assert english(wifi_box.status()["last"]["phrase"]).endswith("(no known network at start-up)")


def test_a_known_network_joined_at_start_keeps_the_box_off_its_own_wifi(
    wifi_box: WifiBox,
    nm: StandinNM,
) -> None:
    wifi_box.start_when_no_network(wait_s=0.5, poll_s=0.1).join(30)
    assert wifi_box.wait_idle(60)
    assert nm.state["active"] == "Home"
    assert not any("add" in call for call in nm.calls())

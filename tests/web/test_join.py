"""GET /api/join and /join.svg: the address a phone can open, its QR code, a free seat's code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import catalogue
from companion.box.address import Reach
from companion.doctor.panel import PanelDoctor
from companion.table.table import Table
from companion.web import create_app
from companion.web.security import CONTENT_SECURITY_POLICY
from tests.phrase_json import from_json
from tests.web.conftest import NEW_RINGS_GAME, assert_error, stacked_cards

LAN = "192.168.1.20"
SEATS = ["Ann", "Bo"]


def joined(table: Table, data_dir: Path, host: str = "0.0.0.0", port: int = 8000) -> Flask:
    """The panel as ``mandala serve --host HOST --port PORT`` builds it (one LAN address)."""
    reach = Reach(host, port, addresses=lambda: [LAN, "10.42.0.1"], hostname=lambda: "mandala")
    config = {"BOARDS_DIR": data_dir / "boards"}
    return create_app(config, table=table, diagnostics=PanelDoctor(), reach=reach)


def assert_not_free(phone: FlaskClient, game_id: str, seat: int) -> None:
    """The seat's code is refused: 409, the seat named."""
    message = f"seat {seat} of game {game_id} is not free to take"
    assert_error(phone.get(f"/join.svg?game={game_id}&seat={seat}"), 409, "conflict", message)


@pytest.fixture
def phone(table: Table, data_dir: Path) -> FlaskClient:
    return joined(table, data_dir).test_client()


def test_without_a_reach_the_join_routes_answer_404(client: FlaskClient) -> None:
    message = "this panel does not know its address on the network"
    assert_error(client.get("/api/join"), 404, "not_found", message)
    assert_error(client.get("/join.svg"), 404, "not_found", message)
    assert 'id="join"' not in client.get("/").get_data(as_text=True)  # no block, no script use


def test_the_join_answer_carries_the_lan_address_and_names_the_local_one(
    phone: FlaskClient,
) -> None:
    answer = phone.get("/api/join")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body == {
        "reachable": True,
        "url": "http://192.168.1.20:8000/",
        "addresses": ["http://192.168.1.20:8000/", "http://10.42.0.1:8000/"],
        "name": "http://mandala.local:8000/",
        "words": {
            "text": "Scan the code, or open {url} (or {name}) on a phone on the same network.",
            "values": {"url": "http://192.168.1.20:8000/", "name": "http://mandala.local:8000/"},
        },
        "text": "Scan the code, or open http://192.168.1.20:8000/ (or "
        "http://mandala.local:8000/) on a phone on the same network.",
        "listening": {"host": "0.0.0.0", "port": 8000, "local_only": False},
        "start": None,
        "config": None,
        "qr": "/join.svg",
        "alt": {
            "text": "QR code of the panel's address, {url}",
            "values": {"url": "http://192.168.1.20:8000/"},
        },
    }


def test_port_80_is_left_out_of_every_address(table: Table, data_dir: Path) -> None:
    body = joined(table, data_dir, port=80).test_client().get("/api/join").get_json()
    assert body["url"] == "http://192.168.1.20/"
    assert body["name"] == "http://mandala.local/"


def test_listening_on_127_0_0_1_the_answer_says_phones_cannot_join_and_how_to_fix_it(
    table: Table, data_dir: Path
) -> None:
    local = joined(table, data_dir, host="127.0.0.1").test_client()
    body = local.get("/api/join").get_json()
    assert body["reachable"] is False and body["url"] is None and body["addresses"] == []
    assert body["listening"] == {"host": "127.0.0.1", "port": 8000, "local_only": True}
    assert body["start"] == "./run.sh --host 0.0.0.0"
    assert body["config"] == 'host = "0.0.0.0"'
    assert "alt" not in body
    said = (
        "Phones cannot join: the panel listens on this computer only (127.0.0.1). Start it "
        'with ./run.sh --host 0.0.0.0 (or put host = "0.0.0.0" in its config file) so phones '
        "on the same network can open it."
    )
    assert body["text"] == said
    assert_error(local.get("/join.svg"), 404, "not_found", said)


def test_the_code_is_an_svg_with_no_style_attribute_served_with_the_panels_csp(
    phone: FlaskClient,
) -> None:
    answer = phone.get("/join.svg")
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    svg = answer.get_data(as_text=True)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "style=" not in svg and "<script" not in svg and "<style" not in svg
    assert 'fill="#fff"' in svg and 'stroke="#000"' in svg  # dark on white in any theme


def test_the_code_is_cached_and_asked_again_so_a_new_address_gives_a_new_code(
    table: Table, data_dir: Path
) -> None:
    addresses = [LAN]
    reach = Reach("0.0.0.0", 8000, addresses=lambda: list(addresses))
    client = create_app({}, table=table, reach=reach).test_client()
    first = client.get("/join.svg")
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    again = client.get("/join.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    addresses[0] = "10.42.0.1"  # the box opened its own Wi-Fi
    moved = client.get("/join.svg", headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != etag and moved.get_data() != first.get_data()


def test_a_hidden_card_game_has_one_code_per_free_seat_and_none_for_a_taken_one(
    phone: FlaskClient,
) -> None:
    game = stacked_cards(phone, {"seats": SEATS, "seed": 7})
    game_id = game["id"]
    taken = phone.application.test_client()
    assert taken.post(f"/api/games/{game_id}/seats/0/take", json={}).status_code == 200
    body = phone.get(f"/api/join?game={game_id}").get_json()
    assert body["game"] == game_id
    assert body["seats"] == [
        {
            "seat": seat,
            "name": name,
            "url": f"http://192.168.1.20:8000/games/{game_id}?seat={seat}",
            "qr": f"/join.svg?game={game_id}&seat={seat}",
            "words": {"text": "Scan to take {name}'s seat", "values": {"name": name}},
            "alt": {"text": "QR code to take {name}'s seat", "values": {"name": name}},
        }
        for seat, name in [(1, "Bo")]
    ]
    assert phone.get(f"/join.svg?game={game_id}&seat=1").mimetype == "image/svg+xml"
    assert_not_free(phone, game_id, 0)


def test_no_token_is_in_any_join_answer_or_seat_code(phone: FlaskClient) -> None:
    game = stacked_cards(phone, {"seats": SEATS, "seed": 7})  # the phone keeps the host token
    game_id = game["id"]
    host_token = game["host_token"]
    seat_token = phone.post(f"/api/games/{game_id}/seats/0/take", json={}).get_json()["token"]
    tokens = [host_token, seat_token]
    answers = [phone.get("/api/join"), phone.get(f"/api/join?game={game_id}")]
    answers.append(phone.get(f"/join.svg?game={game_id}&seat=1"))
    payloads = [s["url"] for s in answers[1].get_json()["seats"]]
    assert payloads == [f"http://192.168.1.20:8000/games/{game_id}?seat=1"]
    for answer in answers:
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        assert not any(token in text for token in tokens)
    for payload in payloads:  # what each seat's code carries: the game and seat, nothing else
        assert re.fullmatch(r"http://[0-9.]+:8000/games/[0-9a-f]+\?seat=\d", payload), payload


def test_a_game_that_hides_nothing_has_no_seat_codes(phone: FlaskClient) -> None:
    tracked = stacked_cards(phone, {"seats": SEATS, "mode": "table", "seed": 3})["id"]
    rings = phone.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    for game_id in (tracked, rings):
        assert phone.get(f"/api/join?game={game_id}").get_json()["seats"] == []
        assert_not_free(phone, game_id, 0)


def test_the_companions_seat_gets_no_code(phone: FlaskClient) -> None:
    body = {"seats": ["Ann", {"name": "Bo", "computer": "easy"}], "seed": 5}
    game_id = stacked_cards(phone, body)["id"]
    seats = phone.get(f"/api/join?game={game_id}").get_json()["seats"]
    assert [seat["name"] for seat in seats] == ["Ann"]


@pytest.mark.parametrize(
    "query",
    ["seat=0", "game=x", "game=x&seat=", "game=x&seat=-1", "game=x&seat=1e3", "game=x&seat=99999"],
)
def test_a_seat_code_asked_without_a_game_and_seat_number_is_refused(
    phone: FlaskClient, query: str
) -> None:
    assert_error(
        phone.get(f"/join.svg?{query}"),
        404,
        "not_found",
        "a seat's code needs ?game=<id>&seat=<number>",
    )


def test_an_unknown_game_is_404_for_its_seats(phone: FlaskClient) -> None:
    answer = phone.get("/api/join?game=nosuch")
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"
    answer = phone.get("/join.svg?game=nosuch&seat=0")
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"


GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def in_german(found: dict[str, Any]) -> str:
    """A phrase's JSON (what ``panel.js`` renders) in German, from the compiled catalogue."""
    return catalogue.render(from_json(found), "de")


def test_the_join_words_and_the_seat_codes_words_are_german_for_a_german_reader(
    phone: FlaskClient,
) -> None:
    body = phone.get("/api/join", headers=GERMAN).get_json()
    assert in_german(body["words"]) == (
        "Scanne den Code oder öffne http://192.168.1.20:8000/ (oder http://mandala.local:8000/)"
        " auf einem Handy im selben Netzwerk."
    )
    assert in_german(body["alt"]) == "QR-Code der Adresse des Panels, http://192.168.1.20:8000/"
    game_id = stacked_cards(phone, {"seats": SEATS, "seed": 7})["id"]
    seats = phone.get(f"/api/join?game={game_id}").get_json()["seats"]
    assert [in_german(seat["words"]) for seat in seats] == [
        "Scannen für den Platz von Ann",
        "Scannen für den Platz von Bo",
    ]
    assert in_german(seats[1]["alt"]) == "QR-Code für den Platz von Bo"


def test_a_german_phone_is_told_in_german_why_no_code_is_given(
    client: FlaskClient, phone: FlaskClient, table: Table, data_dir: Path
) -> None:
    refused = client.get("/join.svg", headers=GERMAN)
    assert_error(refused, 404, "not_found", "dieses Panel kennt seine Adresse im Netzwerk nicht")
    needs = "der Code eines Platzes braucht ?game=<id>&seat=<number>"
    assert_error(phone.get("/join.svg?seat=0", headers=GERMAN), 404, "not_found", needs)
    rings = phone.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    taken = phone.get(f"/join.svg?game={rings}&seat=0", headers=GERMAN)
    assert_error(taken, 409, "conflict", f"Platz 0 von Spiel {rings} ist nicht frei")
    local = joined(table, data_dir, host="127.0.0.1").test_client()
    assert_error(
        local.get("/join.svg", headers=GERMAN),
        404,
        "not_found",
        "Handys können nicht dazukommen: Das Panel hört nur auf diesem Computer (127.0.0.1)."
        ' Starte es mit ./run.sh --host 0.0.0.0 (oder schreib host = "0.0.0.0" in seine'
        " Konfigurationsdatei), dann können Handys im selben Netzwerk es öffnen.",
    )
    nowhere = Reach("0.0.0.0", 8000, addresses=lambda: [], hostname=lambda: "mandala")
    alone = create_app({"BOARDS_DIR": data_dir / "boards"}, table=table, reach=nowhere)
    assert_error(
        alone.test_client().get("/join.svg", headers=GERMAN),
        404,
        "not_found",
        "Handys können noch nicht dazukommen: Die Box ist in keinem Netzwerk. Verbinde sie mit"
        " deinem WLAN (Seite Box) oder lass sie ihr eigenes öffnen.",
    )

"""The refusals people meet in play come in the phone's language through the real API: the
engines', the table's and the web layer's, with the status, the code and the one JSON shape
(``{"error": {"code", "message"}}``) they have in English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.catalogue import render
from companion.table import Conflict, Table
from tests.conftest import SPEC_EXAMPLES
from tests.games.icehouse_helpers import block_path
from tests.web.conftest import NEW_RINGS_GAME, assert_error
from tests.web.icehouse_game import SEATS as ICEHOUSE_SEATS
from tests.web.test_cards_api import Game

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en"}
ZERO_GREEN_TURNED = {
    "dice": {"red": 0, "blue": 1, "green": 0, "yellow": 0, "brown": 0},
    "rotations": [{"ring": 2, "steps": 1}],
}


def ring_game(client: FlaskClient) -> dict[str, Any]:
    created = client.post("/api/games", json=NEW_RINGS_GAME)
    assert created.status_code == 201, created.get_json()
    game: dict[str, Any] = created.get_json()
    return game


def post(client: FlaskClient, url: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    return client.post(url, json=body, headers=headers)


def test_an_illegal_ring_turn_is_refused_in_german_naming_the_turn(client: FlaskClient) -> None:
    game = ring_game(client)
    url = f"/api/games/{game['id']}/actions"
    body = {"version": 1, "action": ZERO_GREEN_TURNED}
    assert_error(
        post(client, url, body, GERMAN),
        409,
        "illegal",
        "Zug 1: Der Würfel in Grün zeigt 0, aber Ring 2 (Grün) wurde gedreht",
    )
    assert_error(
        post(client, url, body, ENGLISH),
        409,
        "illegal",
        "turn 1: the green die shows 0 but ring 2 (green) turned",
    )
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_die_the_board_lacks_entered_live_is_refused_in_german(client: FlaskClient) -> None:
    game = ring_game(client)
    dice = {"red": 4, "blue": 0, "green": 0, "yellow": 0, "brown": 0}
    answer = post(
        client, f"/api/games/{game['id']}/actions", {"version": 1, "action": {"dice": dice}}, GERMAN
    )
    assert_error(
        answer,
        409,
        "illegal",
        "Der Würfel in Rot zeigt 4: Das ist keine Seite der Würfel dieses Bretts (0, 1, 2, 3)",
    )


def test_nothing_to_undo_is_said_in_german(client: FlaskClient) -> None:
    game = ring_game(client)
    answer = post(client, f"/api/games/{game['id']}/undo", {"version": 1}, GERMAN)
    assert_error(answer, 409, "conflict", "Nichts rückgängig zu machen: Es gab noch keinen Zug.")


def test_an_icehouse_pick_behind_the_pawn_is_refused_in_german(client: FlaskClient) -> None:
    created = client.post(
        "/api/games", json={"kind": "icehouse", "seats": ICEHOUSE_SEATS, "path": block_path()}
    )
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url = f"/api/games/{game['id']}/actions"
    for version, index in enumerate((5, 6, 7), start=game["version"]):
        picked = post(client, url, {"version": version, "action": {"pick": index}}, GERMAN)
        assert picked.status_code == 200, picked.get_json()
    behind = post(client, url, {"version": version + 1, "action": {"pick": 3}}, GERMAN)
    assert_error(
        behind,
        409,
        "illegal",
        f"Zug 4: {ICEHOUSE_SEATS[0]} kann Platz 3 nicht nehmen: "
        "Er liegt hinter der Spielfigur auf 5.",
    )


def test_the_card_games_turn_and_rules_refusals_are_in_german(app: Flask) -> None:
    game = Game(app)
    bo = game.seated(1)
    ann = game.seated(0)
    play = {"mountain": 0, "colour": "yellow"}
    not_yours = bo.post(
        f"{game.url}/actions", json={"version": game.version, "action": play}, headers=GERMAN
    )
    assert_error(
        not_yours,
        403,
        "forbidden",
        "Ann ist am Zug: Nur das Handy mit dem Platz von Ann darf spielen.",
    )
    illegal = ann.post(
        f"{game.url}/actions",
        json={"version": game.version, "action": {"field": 0, "colour": "red", "count": 1}},
        headers=GERMAN,
    )
    assert_error(
        illegal,
        409,
        "illegal",
        "Zug 1: Ann kann Rot nicht ins Feld 0 spielen: Rot liegt im Zentrum 0",
    )


def test_a_wrong_owner_code_and_an_owners_page_are_refused_in_german(
    client: FlaskClient,
) -> None:
    wrong = post(client, "/api/owner/pair", {"code": "1234-5678"}, GERMAN)
    assert_error(
        wrong,
        403,
        "forbidden",
        "Der Code ist falsch, schon benutzt oder abgelaufen (ein Code gilt einmal, 10 Minuten "
        "lang). Starte `mandala pair` auf der Box für einen neuen.",
    )
    phones = client.get("/api/owner/phones", headers=GERMAN)
    assert phones.status_code == 403
    said = phones.get_json()
    assert list(said) == ["error"] and list(said["error"]) == ["code", "message"]
    assert said["error"]["code"] == "owner_required"
    assert said["error"]["message"].startswith(
        "Nur der Besitzer der Box darf die Handys der Besitzer sehen. Um Besitzer zu werden, "
    )
    english = client.get("/api/owner/phones", headers=ENGLISH).get_json()["error"]["message"]
    assert english.startswith("only the box's owner can see the phones that hold the owner role; ")


def test_a_stale_version_stays_english_for_the_scripts_that_read_it(client: FlaskClient) -> None:
    """panel.js and rings.js recognise a stale version by its English words and say in the
    page's words that the game moved on: its message is not translated."""
    game = ring_game(client)
    url = f"/api/games/{game['id']}/undo"
    assert_error(
        post(client, url, {"version": 7}, GERMAN),
        409,
        "conflict",
        "version 7 is stale: the game is at version 1; reload it and try again",
    )


def test_a_new_games_seat_names_are_refused_in_german_naming_the_seat(
    client: FlaskClient,
) -> None:
    """home.js reads ``seats[i]`` to name the player and shows the reason as it comes: on a
    German phone the reason is German, the key path stays as it is."""
    cases = [
        (
            {"kind": "icehouse", "seats": ["Ann", "Ann"]},
            "seats[1]: 'Ann' is already a seat",
            "seats[1]: 'Ann' hat schon einen Platz",
        ),
        (
            {"kind": "icehouse", "seats": ["Ann", " "]},
            "seats[1]: a seat needs a name",
            "seats[1]: Jeder Platz braucht einen Namen",
        ),
        (
            {"kind": "stones", "seats": ["Ann", "Bo", "Ann"]},
            "seats[2]: 'Ann' is listed twice",
            "seats[2]: 'Ann' steht zweimal in der Liste",
        ),
        (
            {"kind": "cards", "seats": ["Ann", "Ann"]},
            "seats[1]: 'Ann' is already the first seat's name",
            "seats[1]: Der erste Platz heißt schon 'Ann'",
        ),
        (
            {"kind": "cards", "seats": ["Ann", "Bo", "Cy"]},
            "seats: the card game has 2 seats, got 3",
            "seats: Das Kartenspiel hat 2 Plätze, es sind 3",
        ),
    ]
    for body, english, german in cases:
        for headers, message in ((GERMAN, german), (ENGLISH, english)):
            answer = client.post("/api/games", json=body, headers=headers)
            assert_error(answer, 400, "malformed", message)


@pytest.mark.usefixtures("owner")  # importing a record is the owner's
def test_a_roll_once_the_ring_game_is_won_is_refused_in_german(client: FlaskClient) -> None:
    won = SPEC_EXAMPLES / "rings-07-win-by-snipe-stops-turn.record.json"
    record = json.loads(won.read_text())
    created = client.post("/api/games", json={"record": record})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url = f"/api/games/{game['id']}/actions"
    body = {"version": game["version"], "action": {"roll": True}}
    assert_error(post(client, url, body, GERMAN), 409, "illegal", "Das Spiel ist vorbei.")
    assert_error(post(client, url, body, ENGLISH), 409, "illegal", "the game is over")


def test_a_computer_seat_in_a_solo_ring_game_is_refused_in_german(client: FlaskClient) -> None:
    body = {
        "kind": "rings",
        "board": "reference",
        "variant": "solo",
        "seats": [{"name": "Ann", "corner": 0, "computer": "easy"}],
    }
    assert_error(
        client.post("/api/games", json=body, headers=GERMAN),
        400,
        "malformed",
        "seats[0].computer: Ein Computerplatz braucht einen zweiten Platz als Gegner "
        "(dieses Spiel hat nur einen Platz)",
    )


@pytest.mark.usefixtures("owner")  # importing a record is the owner's
def test_importing_an_unfinished_card_game_played_on_the_panel_is_refused_in_german(
    client: FlaskClient,
) -> None:
    played = SPEC_EXAMPLES / "cards-07-sixth-river-colour-ends.record.json"
    record = json.loads(played.read_text())
    unfinished = {**record, "actions": record["actions"][:-1]}
    assert_error(
        client.post("/api/games", json={"record": unfinished}, headers=GERMAN),
        400,
        "malformed",
        "record: Dieses auf dem Panel gespielte Kartenspiel ist nicht vorbei, und seine "
        "Aufzeichnung zeigt den Nachziehstapel und jede Hand. Importiere es erst, wenn es "
        "vorbei ist",
    )


@pytest.mark.usefixtures("owner")  # deleting a game is the owner's
def test_a_game_the_box_no_longer_holds_is_refused_in_german(client: FlaskClient) -> None:
    """A phone still showing a game another phone deleted: its next step is refused in the
    phone's language."""
    game = ring_game(client)
    assert client.delete(f"/api/games/{game['id']}").status_code == 200
    url = f"/api/games/{game['id']}/undo"
    assert_error(
        post(client, url, {"version": 1}, GERMAN),
        404,
        "not_found",
        f"Es gibt kein Spiel '{game['id']}'",
    )
    assert_error(
        post(client, url, {"version": 1}, ENGLISH), 404, "not_found", f"no game '{game['id']}'"
    )


def test_a_player_the_logbook_no_longer_holds_is_refused_in_german(client: FlaskClient) -> None:
    for headers, message in ((GERMAN, "Es gibt keinen Spieler 999"), (ENGLISH, "no player 999")):
        assert_error(client.get("/api/players/999", headers=headers), 404, "not_found", message)


def test_a_stopped_table_is_said_in_german(tmp_path: Path) -> None:
    table = Table(tmp_path)
    with pytest.raises(Conflict) as stopped:
        table.list_games()
    assert str(stopped.value) == "the table service is not running"
    assert stopped.value.phrase is not None
    assert render(stopped.value.phrase, "de") == "Der Spieldienst der Box läuft nicht."

"""The table view's routes (``companion.web.table_view``): which game is in play, the shared
view whatever the phone holds, and the one error format."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.table.adapters import adapter
from companion.web.table_view import game_in_play
from tests.phrase_json import english
from tests.web.conftest import NEW_RINGS_GAME, assert_error, stacked_cards


def listed(game_id: str, updated: str) -> dict[str, Any]:
    return {"id": game_id, "updated": updated}


def rings_moved(game: str | None, *moved: float | None) -> dict[str, Any]:
    return {"game": game, "rings": [{"ring": i, "last_movement": at} for i, at in enumerate(moved)]}


def test_the_game_in_play_is_the_one_that_took_a_step_last() -> None:
    games = [listed("new", "2026-12-01T10:00:00Z"), listed("old", "2026-12-01T10:05:00Z")]
    assert game_in_play(games, rings_moved(None)) == "old"


def test_a_ring_turned_makes_the_game_on_the_board_the_one_in_play() -> None:
    games = [listed("cards", "2026-12-01T10:05:00Z"), listed("rings", "2026-12-01T10:00:00Z")]
    turned = 1796119560.0  # 2026-12-01T10:06:00Z
    assert game_in_play(games, rings_moved("rings", None, turned)) == "rings"
    assert game_in_play(games, rings_moved("rings", None, turned - 120)) == "cards"


def test_a_tie_goes_to_the_game_on_the_ring_board_then_to_the_newest_game() -> None:
    same = "2026-12-01T10:00:00Z"
    assert game_in_play([listed("a", same), listed("b", same)], rings_moved("b")) == "b"
    assert game_in_play([listed("a", same), listed("b", same)], rings_moved(None)) == "a"


def test_without_games_no_game_is_in_play(client: FlaskClient) -> None:
    assert game_in_play([], rings_moved(None)) is None
    answer = client.get("/api/table")
    assert answer.status_code == 200
    assert answer.get_json()["game"] is None
    page = client.get("/table")
    assert page.status_code == 200
    assert "No game yet" in page.get_data(as_text=True)


def test_the_table_answers_the_ring_game_with_its_board_and_seats(client: FlaskClient) -> None:
    game = client.post("/api/games", json=NEW_RINGS_GAME).get_json()
    answer = client.get("/api/table")
    assert answer.status_code == 200
    scene = answer.get_json()
    assert scene["game"]["id"] == game["id"]
    assert scene["game"]["state"]["to_move"] == "Ann"
    assert [seat["name"] for seat in scene["seats"]] == ["Ann", "Bo"]
    assert len(scene["board"]["rings"]) == 10
    assert [g["id"] for g in scene["games"]] == [game["id"]]
    assert english(scene["kind_names"]["rings"]) == adapter("rings").title


def test_the_table_names_the_kinds_as_phrases_whoever_asks(client: FlaskClient) -> None:
    """The table view renders them in the box's language, whatever language the phone
    that asks for /api/table reads (it named them in German on a German phone)."""
    german = client.get("/api/table", headers={"Accept-Language": "de"}).get_json()
    assert german["kind_names"] == client.get("/api/table").get_json()["kind_names"]
    for kind, title in german["kind_names"].items():
        assert english(title) == adapter(kind).title


def test_a_named_game_is_shown_and_an_unknown_one_is_404(client: FlaskClient) -> None:
    first = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    client.post("/api/games", json={"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1})
    shown = client.get(f"/api/table?game={first}").get_json()
    assert shown["game"]["id"] == first
    assert_error(client.get("/api/table?game=nope"), 404, "not_found", "no game 'nope'")
    assert_error(client.get("/api/table?game="), 404, "not_found", "no game ''")


def test_a_phone_holding_a_seat_sees_no_hand_in_the_table_view(client: FlaskClient) -> None:
    game_id = stacked_cards(client, {"seats": ["Ann", "Bo"], "seed": 9})["id"]
    taken = client.post(f"/api/games/{game_id}/seats/0/take", json={})
    assert taken.status_code == 200
    own = client.get(f"/api/games/{game_id}").get_json()["state"]
    assert own["seat"] == "Ann" and isinstance(own["hands"]["Ann"], dict)  # its own page
    shown = client.get("/api/table").get_json()["game"]["state"]
    assert shown["seat"] is None
    assert all(isinstance(count, int) for count in shown["hands"].values())
    assert all(isinstance(count, int) for count in shown["cups"].values())


def test_the_home_page_links_to_the_table_view(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<a href="/table" id="table-view-link">Table view</a>' in page

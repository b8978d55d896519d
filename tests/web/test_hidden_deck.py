"""The hidden deck stays hidden (issue 21): nobody chooses or sees the deck of a card game
played on the panel before it is over; a tracked table's game and other kinds keep their seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import cards
from tests.web.conftest import assert_error, stored_setup
from tests.web.test_cards_api import SEATS, record_of


def chosen(key: str) -> str:
    return (
        f"{key}: a card game played on the panel shuffles its own deck, so that nobody knows "
        f"the hands; leave {key} out (or track a real table's game)"
    )


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"mode": "play", "seed": 42}, "seed"),
        ({"seed": 42}, "seed"),  # "play" is the default mode
        ({"seats": ["Ann", {"name": "Bo", "computer": "hard"}], "seed": 42}, "seed"),
        ({"mode": "play", "reshuffles": [list(range(108))]}, "reshuffles"),
    ],
)
def test_a_card_game_played_on_the_panel_refuses_a_chosen_seed(
    client: FlaskClient, body: dict[str, Any], key: str
) -> None:
    answer = client.post("/api/games", json={"kind": "cards", "seats": SEATS, **body})
    assert_error(answer, 400, "malformed", chosen(key))
    assert client.get("/api/games").get_json()["games"] == []


def test_a_card_game_played_on_the_panel_refuses_a_chosen_deck(client: FlaskClient) -> None:
    deck = record_of("spec-cards")["deck"]
    answer = client.post(
        "/api/games", json={"kind": "cards", "seats": SEATS, "mode": "play", "deck": deck}
    )
    assert_error(answer, 400, "malformed", chosen("deck"))
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.usefixtures("owner")
def test_importing_a_card_game_played_on_the_panel_that_is_not_over_is_refused(
    client: FlaskClient,
) -> None:
    record = record_of("cards-07-sixth-river-colour-ends")
    unfinished = {**record, "actions": record["actions"][:-1]}
    answer = client.post("/api/games", json={"record": unfinished})
    assert_error(
        answer,
        400,
        "malformed",
        "record: this card game played on the panel is not over, and its record shows the "
        "deck and every hand; import it once the game is over",
    )
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.usefixtures("owner")
def test_a_finished_card_game_played_on_the_panel_imports_with_its_deck(
    client: FlaskClient,
) -> None:
    record = record_of("cards-07-sixth-river-colour-ends")
    answer = client.post("/api/games", json={"record": record})
    assert answer.status_code == 201, answer.get_json()
    game_id = answer.get_json()["id"]
    listed = client.get("/api/games").get_json()["games"]
    assert [(game["id"], game["over"]) for game in listed] == [(game_id, True)]
    exported = client.get(f"/api/games/{game_id}/record").get_json()
    assert exported["deck"] == record["deck"]
    assert exported["actions"] == record["actions"]


def test_a_tracked_table_card_game_keeps_its_seed(client: FlaskClient, data_dir: Path) -> None:
    answer = client.post(
        "/api/games", json={"kind": "cards", "seats": SEATS, "mode": "table", "seed": 42}
    )
    assert answer.status_code == 201, answer.get_json()
    assert stored_setup(data_dir, answer.get_json()["id"])["seed"] == 42


@pytest.mark.parametrize("kind", ["icehouse", "stones"])
def test_other_kinds_keep_a_chosen_seed(client: FlaskClient, data_dir: Path, kind: str) -> None:
    answer = client.post("/api/games", json={"kind": kind, "seats": ["Ann", "Bo"], "seed": 42})
    assert answer.status_code == 201, answer.get_json()
    assert stored_setup(data_dir, answer.get_json()["id"])["seed"] == 42


def test_two_card_games_played_on_the_panel_get_different_decks(
    client: FlaskClient, data_dir: Path
) -> None:
    body = {"kind": "cards", "seats": SEATS, "mode": "play"}
    assert not {"seed", "deck", "reshuffles"} & set(body)  # the panel's own body: no deck
    made = [client.post("/api/games", json=body) for _ in range(2)]
    assert [answer.status_code for answer in made] == [201, 201]
    setups = [stored_setup(data_dir, answer.get_json()["id"]) for answer in made]
    seeds = [setup["seed"] for setup in setups]
    assert all(isinstance(seed, int) and 0 <= seed < 2**63 for seed in seeds)
    assert seeds[0] != seeds[1]
    decks = [cards.new_game(setup).deck for setup in setups]
    assert decks[0] != decks[1]

"""Icehouse games over the HTTP API: create (a seed, a random seed, a given path), pick, undo,
every refusal with its status and JSON, the page, and the export that ``mandala replay`` reads.

Values are worked out by hand on the block path (see ``tests/web/icehouse_game.py``).
"""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from companion.games import icehouse
from tests.conftest import run_cli
from tests.games.icehouse_helpers import block_path
from tests.phrase_json import english_all
from tests.web import icehouse_game as plan
from tests.web.conftest import assert_error

NEW = {"kind": "icehouse", "seats": plan.SEATS, "path": block_path()}


def create(client: FlaskClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json=body or NEW)
    assert response.status_code == 201, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def pick(client: FlaskClient, game: dict[str, Any], index: int) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": game["version"], "action": {"pick": index}},
    )
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def play(client: FlaskClient, picks: list[int]) -> dict[str, Any]:
    game = create(client)
    for index in picks:
        game = pick(client, game, index)
    return game


# Creating


def test_a_new_game_on_a_given_path_starts_with_every_piece_on_it_and_pawns_at_minus_1(
    client: FlaskClient,
) -> None:
    game = create(client)
    assert game["kind"] == "icehouse"
    assert game["version"] == 1
    state = game["state"]
    assert state["path"][:6] == ["red-1"] * 5 + ["red-2"]
    assert state["path"][70:] == ["black-3"] * 5
    assert state["places"] == ["path"] * 75
    assert state["pawns"] == {"Ann": -1, "Bo": -1, "Cy": -1}
    assert state["scores"] == {"Ann": 0, "Bo": 0, "Cy": 0}
    assert state["to_move"] == "Ann"
    assert state["left"] == list(range(75))
    assert state["seed"] is None
    assert state["scorings"] == [] and state["at_end"] == [] and state["log"] == []


def test_a_new_game_with_a_seed_keeps_it_and_lays_that_seeds_path(client: FlaskClient) -> None:
    game = create(client, {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 7})
    assert game["state"]["seed"] == 7
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert record == {
        "game": "icehouse",
        "seats": ["Ann", "Bo"],
        "seed": 7,
        "path": game["state"]["path"],
        "picks": [],
    }
    assert game["state"]["path"] == icehouse.random_path(7)


def test_a_new_game_without_seed_or_path_gets_a_random_seed_kept_in_its_record(
    client: FlaskClient,
) -> None:
    first = create(client, {"kind": "icehouse", "seats": ["Ann", "Bo", "Cy", "Di", "Ed"]})
    second = create(client, {"kind": "icehouse", "seats": ["Ann", "Bo"]})
    seeds = [first["state"]["seed"], second["state"]["seed"]]
    assert all(isinstance(seed, int) and seed >= 0 for seed in seeds)
    assert seeds[0] != seeds[1]  # 1 chance in 2**31 of a false alarm
    record = client.get(f"/api/games/{first['id']}/record").get_json()
    assert record["seed"] == seeds[0]
    assert record["path"] == first["state"]["path"] == icehouse.random_path(seeds[0])
    # the seed alone lays the same path again: pick 3 takes the same kind
    del record["path"]
    record["picks"] = [3]
    replayed = run_cli(["replay", "-"], stdin=json.dumps(record)).json()
    assert replayed["held"]["Ann"] == {first["state"]["path"][3]: 1}


def test_the_icehouse_page_embeds_the_layout_and_loads_its_own_script(
    client: FlaskClient,
) -> None:
    game = create(client)
    response = client.get(f"/games/{game['id']}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "/static/icehouse.js" in page and "/static/icehouse.css" in page
    assert 'id="mandala"' in page
    assert '"path": ["red-1", "red-1"' in page
    for name in ("icehouse.js", "icehouse.css"):
        assert client.get(f"/static/{name}").status_code == 200


# Picking


def test_a_pick_moves_the_pawn_takes_the_piece_and_passes_the_turn(client: FlaskClient) -> None:
    game = pick(client, create(client), 5)
    assert game["version"] == 2
    state = game["state"]
    assert state["places"][5] == "Ann"
    assert state["pawns"] == {"Ann": 5, "Bo": -1, "Cy": -1}
    assert state["held"] == {"Ann": {"red-2": 1}, "Bo": {}, "Cy": {}}
    assert state["to_move"] == "Bo"
    assert state["picks"] == 1
    assert state["left"] == [i for i in range(75) if i != 5]
    assert [entry["action"] for entry in state["log"]] == [5]
    assert [english_all(entry["instructions"]) for entry in state["log"]] == [
        ["Ann takes the red-2 at 5"]
    ]


def test_pieces_behind_the_rearmost_pawn_fall_into_the_eye_once_every_pawn_moved(
    client: FlaskClient,
) -> None:
    game = play(client, plan.PICKS[:3])  # Ann 1, Bo 2, Cy 5
    state = game["state"]
    assert state["places"][:6] == ["eye", "Ann", "Bo", "path", "path", "Cy"]
    assert state["eye"] == {"red-1": 1}
    assert english_all(state["log"][2]["instructions"]) == [
        "Cy takes the red-2 at 5",
        "the red-1 at 0 falls into the Eye",
    ]


def test_a_completed_set_scores_3_and_2_with_the_tie_broken_by_the_pawn_ahead(
    client: FlaskClient,
) -> None:
    state = play(client, plan.PICKS[:5])["state"]  # red-1: Ann 1+3, Bo 2+4, Bo's pawn ahead
    assert state["scorings"] == [plan.RED_1]
    assert state["scores"] == {"Ann": 2, "Bo": 3, "Cy": 0}
    assert state["scored"] == ["red-1"]
    assert english_all(state["log"][4]["instructions"]) == [
        "Bo takes the red-1 at 4",
        "red-1 scores: Bo 3, Ann 2",
    ]


def test_a_tie_for_second_goes_to_the_pawn_ahead_and_a_set_wholly_in_the_eye_scores_nothing(
    client: FlaskClient,
) -> None:
    state = play(client, plan.PICKS[:12])["state"]
    assert state["scorings"] == [plan.RED_1, plan.RED_2, plan.RED_3]
    assert state["scores"] == {"Ann": 2, "Bo": 5, "Cy": 3}
    assert state["eye"] == {"red-1": 1, "red-3": 5}
    assert (
        english_all(state["log"][11]["instructions"])[-1]
        == "red-3 is lost to the Eye: nobody scores"
    )


def test_a_whole_game_ends_with_the_last_seat_collecting_and_the_winner(
    client: FlaskClient,
) -> None:
    game = play(client, plan.PICKS)
    state = game["state"]
    assert game["version"] == 1 + len(plan.PICKS)
    assert state["over"] is True and state["to_move"] is None
    assert state["winner"] == "Cy"
    assert state["scores"] == plan.FINAL_SCORES
    assert state["pawns"] == {"Ann": 74, "Bo": 73, "Cy": 20}
    assert state["at_end"] == ["Ann", "Bo", "Cy"]
    assert state["left"] == []
    assert state["scored"] == plan.SCORED_IN_ORDER
    assert state["scorings"][3] == plan.YELLOW_1
    assert state["scorings"][-1] == plan.BLACK_3
    assert state["eye"] == {"red-1": 1, "red-3": 5, "yellow-1": 3}
    notes = english_all(state["log"][-1]["instructions"])
    assert notes[:6] == [
        "Bo takes the black-3 at 73",
        "the yellow-1 at 17 falls into the Eye",
        "the yellow-1 at 18 falls into the Eye",
        "the yellow-1 at 19 falls into the Eye",
        "yellow-1 scores: Ann 3, Bo 2",
        "Bo has reached the end and passes from now on",
    ]
    assert "Cy takes the 52 pieces left on the path" in notes
    assert notes[-1] == "the game is over: Cy wins"


def test_the_export_replays_with_mandala_replay_to_the_summary_shown(client: FlaskClient) -> None:
    game = play(client, plan.PICKS)
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert record == {
        "game": "icehouse",
        "seats": plan.SEATS,
        "path": block_path(),
        "picks": plan.PICKS,
    }
    result = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert result.status == 0, result.stderr
    summary = result.json()
    assert isinstance(summary, dict)
    assert {key: game["state"][key] for key in summary} == summary


# Undo


def test_undo_takes_back_the_pick_its_falls_and_its_scoring_and_raises_the_version(
    client: FlaskClient,
) -> None:
    game = play(client, plan.PICKS[:5])
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 6})
    assert response.status_code == 200
    undone = response.get_json()
    assert undone["version"] == 7
    state = undone["state"]
    assert state["to_move"] == "Bo"
    assert state["places"][:6] == ["eye", "Ann", "Bo", "Ann", "path", "Cy"]
    assert state["scorings"] == [] and state["scores"] == {"Ann": 0, "Bo": 0, "Cy": 0}
    assert len(state["log"]) == 4
    again = pick(client, undone, 4)
    assert again["version"] == 8 and again["state"]["scorings"] == [plan.RED_1]


def test_undo_after_the_end_reopens_the_game(client: FlaskClient) -> None:
    game = play(client, plan.PICKS)
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": game["version"]})
    state = response.get_json()["state"]
    assert state["over"] is False and state["winner"] is None
    assert state["to_move"] == "Bo"
    # red-3 (10-14) fell at pick 12; Ann took 74; 73 is back on the path
    assert state["left"] == [17, 18, 19, *range(21, 74)]


def test_undo_with_no_pick_is_409(client: FlaskClient) -> None:
    game = create(client)
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 1})
    assert_error(response, 409, "conflict", "nothing to undo: no pick yet")


# Refusals: the status, the JSON, and nothing changed


def refused(
    client: FlaskClient, game: dict[str, Any], action: Any, version: int | None = None
) -> Any:
    """Post a refused action; check the game did not change; return the response."""
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": game["version"] if version is None else version, "action": action},
    )
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after == {key: game[key] for key in ("id", "kind", "version", "seq", "state")}
    return response


def test_a_pick_behind_the_pawn_is_409_naming_the_pick(client: FlaskClient) -> None:
    game = play(client, [5, 6, 7])  # Ann at 5
    response = refused(client, game, {"pick": 3})
    assert_error(response, 409, "illegal", "pick 4: Ann cannot pick 3: it is behind the pawn at 5")


def test_a_pick_of_an_empty_place_is_409(client: FlaskClient) -> None:
    game = play(client, [5])
    response = refused(client, game, {"pick": 5})
    assert_error(response, 409, "illegal", "pick 2: Bo cannot pick 5: the place is empty")


def test_a_pick_out_of_range_is_409(client: FlaskClient) -> None:
    game = create(client)
    assert_error(
        refused(client, game, {"pick": 75}),
        409,
        "illegal",
        "pick 1: index 75 is out of range 0..74",
    )
    assert_error(
        refused(client, game, {"pick": -1}),
        409,
        "illegal",
        "pick 1: index -1 is out of range 0..74",
    )


def test_a_pick_after_the_end_is_409(client: FlaskClient) -> None:
    game = play(client, plan.PICKS)
    response = refused(client, game, {"pick": 0})
    assert_error(response, 409, "illegal", "pick 15: the game is over")


def test_a_pick_that_is_not_a_whole_number_is_400(client: FlaskClient) -> None:
    game = create(client)
    response = refused(client, game, {"pick": "5"})
    assert_error(response, 400, "malformed", "pick 1: index: expected a whole number, got a string")


def test_a_stale_version_is_409_and_the_pick_is_not_made(client: FlaskClient) -> None:
    game = play(client, [5])
    response = refused(client, game, {"pick": 6}, version=1)
    assert_error(
        response,
        409,
        "conflict",
        "version 1 is stale: the game is at version 2; reload it and try again",
    )


def test_bad_new_games_are_400_naming_the_key(client: FlaskClient) -> None:
    cases = [
        ({"seats": ["Ann"]}, "seats: 2 to 5 seats, got 1"),
        ({"seats": ["A", "B", "C", "D", "E", "F"]}, "seats: 2 to 5 seats, got 6"),
        ({"seats": ["Ann", "Ann"]}, "seats[1]: 'Ann' is already a seat"),
        ({"seats": ["Ann", "Bo"], "seed": -3}, "seed: -3 is out of 0..9223372036854775807"),
        ({"seats": ["Ann", "Bo"], "seed": "7"}, "seed: expected a whole number, got a string"),
        ({"seats": ["Ann", "Bo"], "variant": "solo"}, "variant: unknown key"),
        (
            {"seats": ["Ann", "Bo"], "path": [*block_path()[:-1], "red-1"]},
            "path: needs exactly 5 pieces of each of the 15 kinds (75 in all), "
            "got 75 pieces with red-1 6 times, black-3 4 times",
        ),
        (
            {"seats": ["Ann", "Bo"], "path": ["red-9"]},
            "path[0]: 'red-9' is not one of red-1, red-2, red-3, yellow-1, yellow-2, yellow-3, "
            "green-1, green-2, green-3, blue-1, blue-2, blue-3, black-1, black-2, black-3",
        ),
    ]
    for body, message in cases:
        response = client.post("/api/games", json={"kind": "icehouse", **body})
        assert_error(response, 400, "malformed", message)
    assert client.get("/api/games").get_json() == {"games": [], "page": 1, "pages": 1, "total": 0}

"""The Stones game through the HTTP API on a real Table (stones.md, interfaces.md).

Expected values come from the spec examples (worked out by hand by the spec) or are worked
out by hand below. Example 02 (its inline data file: space 1 level 6/4/2/1, space 2 heights
counting empty spaces, bonus +1 on mandala place 4) after its four PICKs: Ann has
[red-dots, purple-dots] on space 1 and [yellow-lines, purple-lines] on space 2.

- Ann's options, best first: purple by colour = 7 (space 1 first: level at height 2 = 4;
  then space 2 sees heights {1, 2, 0} = 3), then tops of 1 and 2 = 2, then top of 1 = 1,
  then top of 2 = 1 (equal VP and stones: by spaces). Places 1 and 2 carry no bonus.
- After Ann's purple score (order 2, 1): Ann 7 VP, mandala [purple-lines, purple-dots]. Bo
  has [purple-dots, yellow-dots, purple-dots] on 2 and [blue-lines, red-lines, red-lines]
  on 5 (purple and red tops: no colour score). His tops of 2 and 5 cover places 3 and 4,
  and place 4 gives +1: 3 VP; the single tops are 1 VP each (place 3, no bonus).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import stones
from companion.games.base import replay
from tests.conftest import SPEC_EXAMPLES, run_cli
from tests.web.conftest import assert_error


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return record


def new_game_from(client: FlaskClient, record: dict[str, Any]) -> dict[str, Any]:
    """Start a stones game from the home page's body with a record's setup (no actions)."""
    body = {key: value for key, value in record.items() if key not in ("game", "actions")}
    response = client.post("/api/games", json={"kind": "stones", **body})
    assert response.status_code == 201, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def act(client: FlaskClient, game: dict[str, Any], action: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": game["version"], "action": action}
    )
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def at_ann_score(client: FlaskClient) -> dict[str, Any]:
    """Example 02 after its four PICKs, played through the API: Ann to score."""
    record = example("stones-02-colour-heights-lowered")
    game = new_game_from(client, record)
    for action in record["actions"][:4]:
        game = act(client, game, action)
    return game


def option(vp: int, stones_vp: int, bonus_vp: int, action: dict[str, Any]) -> dict[str, Any]:
    return {
        "action": action,
        "vp": vp,
        "stones_vp": stones_vp,
        "bonus_vp": bonus_vp,
        "covers_end": False,
    }


def tops(*spaces: int) -> dict[str, Any]:
    return {"score": "tops", "spaces": list(spaces), "order": list(spaces)}


def engine_options(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's ``score_options`` for a record (replayed through the engine)."""
    state = replay(stones, record)
    return [stones.score_option_to_json(o) for o in stones.score_options(state)]


# ---------------------------------------------------------------------------- new game


def test_a_new_game_with_a_seed_lays_the_stacks_four_stones_each_in_reading_order(
    client: FlaskClient,
) -> None:
    response = client.post("/api/games", json={"kind": "stones", "seats": ["Ann", "Bo"], "seed": 7})
    assert response.status_code == 201
    game = response.get_json()
    assert game["kind"] == "stones" and game["version"] == 1
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert record["seed"] == 7
    assert record["stones"] == stones.random_setup(7, ["Ann", "Bo"])["stones"]
    state = game["state"]
    # Stones 1-4 form the first stack space in reading order ([1, 2]), 93-96 the last ([7, 6]).
    assert state["stacks"]["1,2"] == record["stones"][0:4]
    # [3, 4] is the ninth stack space: [1, 2] [1, 4] [1, 6], [2, 1] [2, 3] [2, 5] [2, 7], [3, 2].
    assert state["stacks"]["3,4"] == record["stones"][4 * 8 : 4 * 9]
    assert state["stacks"]["7,6"] == record["stones"][92:96]
    assert [a["at"] for a in state["artists"]] == [[2, 4], [4, 2], [4, 6], [6, 4]]
    assert sorted(a["pattern"] for a in state["artists"]) == ["dots", "dots", "lines", "lines"]
    assert state["to_move"] == "Ann" and state["scores"] == {"Ann": 0, "Bo": 0}


def test_a_new_game_without_a_seed_gets_a_random_seed_kept_in_its_record(
    client: FlaskClient, tmp_path: Path
) -> None:
    game = client.post("/api/games", json={"kind": "stones", "seats": ["Ann", "Bo", "Cy"]})
    assert game.status_code == 201
    game_id = game.get_json()["id"]
    record = client.get(f"/api/games/{game_id}/record").get_json()
    seed = record["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**31
    assert record["stones"] == stones.random_setup(seed, ["Ann", "Bo", "Cy"])["stones"]
    # The record replays to the game's state (its stacks included).
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = run_cli(["replay", str(path)])
    assert result.status == 0, result
    summary = json.loads(result.stdout)
    state = client.get(f"/api/games/{game_id}").get_json()["state"]
    assert summary == {key: state[key] for key in summary}


def test_two_games_given_the_same_seed_get_the_same_board(client: FlaskClient) -> None:
    body = {"kind": "stones", "seats": ["Ann", "Bo"], "seed": 123}
    first = client.post("/api/games", json=body).get_json()
    second = client.post("/api/games", json=body).get_json()
    assert first["id"] != second["id"]
    assert first["state"]["stacks"] == second["state"]["stacks"]
    assert first["state"]["artists"] == second["state"]["artists"]


def test_a_new_game_with_five_seats_is_refused_400_naming_seats(client: FlaskClient) -> None:
    body = {"kind": "stones", "seats": ["A", "B", "C", "D", "E"], "seed": 1}
    response = client.post("/api/games", json=body)
    assert_error(response, 400, "malformed", "seats: expected 2 to 4 seats, got 5")
    assert client.get("/api/games").get_json() == {"games": [], "page": 1, "pages": 1, "total": 0}


def test_a_seed_that_is_not_a_whole_number_is_refused_400(client: FlaskClient) -> None:
    body = {"kind": "stones", "seats": ["Ann", "Bo"], "seed": "seven"}
    response = client.post("/api/games", json=body)
    assert_error(response, 400, "malformed", "seed: expected a whole number, got a string")


# ---------------------------------------------------------------------------- PICK


def test_a_pick_takes_the_eligible_stones_clockwise_from_the_first(client: FlaskClient) -> None:
    record = example("stones-01-pick-blocked-clockwise")
    game = new_game_from(client, record)
    after = act(client, game, record["actions"][0])
    assert after["version"] == 2
    state = after["state"]
    assert state["boards"]["Ann"] == [[], [], ["blue-lines", "purple-lines", "blue-lines"], [], []]
    assert state["artists"][0] == {"at": [2, 6], "pattern": "lines"}
    assert state["to_move"] == "Bo"
    assert state["log"] == [{"action": record["actions"][0], "instructions": []}]


def test_the_state_lists_each_pick_move_with_its_eligible_first_stones(
    client: FlaskClient,
) -> None:
    # Example 01 at the start: the lines artist on [2, 4] moving to [2, 6] may take W ([2, 5])
    # and N ([1, 6]) -- E ([2, 7]) is dots on top, S ([3, 6]) touches the artist on [4, 6]
    # (the spec's error example x1 shows S refused).
    game = new_game_from(client, example("stones-01-pick-blocked-clockwise"))
    moves = game["state"]["picks"]
    move = next(m for m in moves if m["artist"] == [2, 4] and m["to"] == [2, 6])
    assert "S" not in move["first"] and "W" in move["first"]
    state = replay(stones, {**example("stones-01-pick-blocked-clockwise"), "actions": []})
    expected = [
        {"artist": list(a.at), "to": list(to), "first": list(first)}
        for i, a in enumerate(state.artists)
        for to in stones.ARTIST_SPACES
        if state.artist_on(to) is None
        for first in [stones.eligible_directions(state, i, to)]
        if first
    ]
    assert moves == expected


def test_a_pick_from_a_blocked_stack_is_409_naming_the_action_and_changes_nothing(
    client: FlaskClient,
) -> None:
    record = example("stones-x1-first-is-a-blocked-stack")
    game = new_game_from(client, record)
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": 1, "action": record["actions"][0]},
    )
    message = (SPEC_EXAMPLES / "stones-x1-first-is-a-blocked-stack.error.txt").read_text().strip()
    assert message == (
        "action 1: first S: the stack at [3, 6] touches the artist on [4, 6]; it is not eligible"
    )
    assert_error(response, 409, "illegal", message)
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_a_malformed_pick_is_400_naming_the_key(client: FlaskClient) -> None:
    game = new_game_from(client, example("stones-01-pick-blocked-clockwise"))
    bad = {"pick": {"artist": [2, 4], "to": [2, 6], "first": "X", "space": 3}}
    response = client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": bad})
    assert_error(response, 400, "malformed", "action 1: pick.first: 'X' is not one of N, E, S, W")
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_stale_version_is_409_and_changes_nothing(client: FlaskClient) -> None:
    record = example("stones-01-pick-blocked-clockwise")
    game = new_game_from(client, record)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 0, "action": record["actions"][0]}
    )
    assert_error(
        response,
        409,
        "conflict",
        "version 0 is stale: the game is at version 1; reload it and try again",
    )
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_undo_takes_back_the_pick_and_raises_the_version(client: FlaskClient) -> None:
    record = example("stones-01-pick-blocked-clockwise")
    game = new_game_from(client, record)
    after = act(client, game, record["actions"][0])
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 2})
    assert response.status_code == 200
    undone = response.get_json()
    assert undone["version"] == 3
    assert undone["state"] == {**game["state"]}
    assert after["state"] != undone["state"]


# ---------------------------------------------------------------------------- SCORE


def test_the_score_options_are_worth_what_they_score_best_first(client: FlaskClient) -> None:
    game = at_ann_score(client)
    purple = {"score": "colour", "colour": "purple", "order": [1, 2]}
    assert game["state"]["score_options"] == [
        option(7, 7, 0, purple),
        option(2, 2, 0, tops(1, 2)),
        option(1, 1, 0, tops(1)),
        option(1, 1, 0, tops(2)),
    ]


def test_the_score_options_in_the_state_equal_the_engines(client: FlaskClient) -> None:
    game = at_ann_score(client)
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert game["state"]["score_options"] == engine_options(record)
    after = act(client, game, {"score": "tops", "spaces": [2], "order": [2]})
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert after["state"]["score_options"] == engine_options(record)
    assert len(after["state"]["score_options"]) == 3  # Bo: tops of 2, 5, or both


def test_a_colour_score_lowers_each_tower_before_the_next_scores(client: FlaskClient) -> None:
    game = at_ann_score(client)
    after = act(client, game, {"score": "colour", "colour": "purple", "order": [2, 1]})
    state = after["state"]
    assert state["scores"] == {"Ann": 7, "Bo": 0}
    assert state["mandala"] == ["purple-lines", "purple-dots"]
    assert state["boards"]["Ann"] == [["red-dots"], ["yellow-lines"], [], [], []]
    assert state["to_move"] == "Bo"
    # Bo's options now: the mandala place 4 bonus (+1) goes with the second stone placed.
    assert state["score_options"] == [
        option(3, 2, 1, tops(2, 5)),
        option(1, 1, 0, tops(2)),
        option(1, 1, 0, tops(5)),
    ]
    summary = json.loads(
        (SPEC_EXAMPLES / "stones-02-colour-heights-lowered.summary.json").read_text()
    )
    assert {key: state[key] for key in summary} == summary


def test_a_colour_score_with_one_tower_of_that_colour_is_409(client: FlaskClient) -> None:
    game = at_ann_score(client)
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={
            "version": game["version"],
            "action": {"score": "colour", "colour": "red", "order": [1]},
        },
    )
    assert_error(
        response,
        409,
        "illegal",
        "action 5: colour: red tops 0 of Ann's towers; a colour score needs at least two",
    )
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_a_score_whose_order_is_not_the_scored_spaces_is_409(client: FlaskClient) -> None:
    game = at_ann_score(client)
    bad = {"score": "colour", "colour": "purple", "order": [2]}
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": game["version"], "action": bad}
    )
    assert_error(
        response, 409, "illegal", "action 5: order: [2] must list exactly the scored spaces [1, 2]"
    )


# ---------------------------------------------------------------------------- objectives


@pytest.mark.usefixtures("owner")
def test_objectives_are_entered_in_seat_order_and_a_tie_goes_to_the_first_seat(
    client: FlaskClient,
) -> None:
    record = example("stones-06-objectives-tie")
    played = copy.deepcopy(record)
    played["actions"] = record["actions"][:4]
    game = client.post("/api/games", json={"record": played}).get_json()
    state = game["state"]
    assert state["phase"] == "objectives" and state["to_move"] == "Ann"
    assert state["score_options"] == [] and state["picks"] == []
    wrong = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": game["version"], "action": {"objective": "Bo", "vp": 2}},
    )
    assert_error(
        wrong, 409, "illegal", "action 5: objective: it is Ann's objective entry, not Bo's"
    )
    game = act(client, game, {"objective": "Ann", "vp": 4})
    game = act(client, game, {"objective": "Bo", "vp": 2})
    summary = json.loads((SPEC_EXAMPLES / "stones-06-objectives-tie.summary.json").read_text())
    assert {key: game["state"][key] for key in summary} == summary
    assert game["state"]["winner"] == "Ann" and game["state"]["scores"] == {"Ann": 5, "Bo": 5}

"""The HTTP API on a real Table: every status code and error path, each with its JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.games import rings
from tests.conftest import SPEC_EXAMPLES, run_cli
from tests.web.conftest import NEW_RINGS_GAME, assert_error

TURN_1 = {
    "dice": {"red": 1, "blue": 2, "green": 0, "yellow": 3, "brown": 1},
    "rotations": [
        {"ring": 5, "steps": 1},
        {"ring": 1, "steps": -2},
        {"ring": 3, "steps": 3},
        {"ring": 9, "steps": -1},
    ],
}


def new_game(client: FlaskClient) -> dict[str, object]:
    response = client.post("/api/games", json=NEW_RINGS_GAME)
    assert response.status_code == 201
    answer: dict[str, object] = response.get_json()
    return answer


def spec_record(name: str) -> dict[str, object]:
    record: dict[str, object] = json.loads((SPEC_EXAMPLES / name).read_text())
    return record


# Games: the happy paths


def test_no_games_lists_an_empty_list(client: FlaskClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    assert response.get_json() == {"games": [], "page": 1, "pages": 1, "total": 0}


def test_a_new_ring_game_answers_201_at_version_1_with_pegs_on_the_corners(
    client: FlaskClient,
) -> None:
    answer = new_game(client)
    assert answer["kind"] == "rings"
    assert answer["version"] == 1
    state = answer["state"]
    assert isinstance(state, dict)
    # reference board: corner 0 is spoke 2, corner 2 is spoke 10; one peg out, five waiting
    assert state["pegs"] == [["Ann", 0, 2], ["Bo", 0, 10]]
    assert state["waiting"] == {"Ann": [5], "Bo": [5]}
    assert state["scores"] == {"Ann": 0, "Bo": 0}
    assert state["to_move"] == "Ann"
    assert state["turns"] == 0


def test_the_game_list_names_each_game_with_its_seats_and_version(client: FlaskClient) -> None:
    game = new_game(client)
    (listed,) = client.get("/api/games").get_json()["games"]
    assert listed["id"] == game["id"]
    assert listed["kind"] == "rings"
    assert listed["seats"] == ["Ann", "Bo"]
    assert listed["version"] == 1
    assert listed["over"] is False


def test_get_game_answers_id_kind_version_and_state(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    answer = response.get_json()
    assert (answer["id"], answer["kind"], answer["version"]) == (game["id"], "rings", 1)
    assert answer["state"]["pegs"] == [["Ann", 0, 2], ["Bo", 0, 10]]


def test_a_record_turn_raises_the_version_by_one_and_passes_the_move(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 1, "action": TURN_1}
    )
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["version"] == 2
    assert answer["state"]["turns"] == 1
    assert answer["state"]["to_move"] == "Bo"
    assert answer["state"]["offsets"] == [0, 14, 0, 3, 0, 1, 0, 0, 0, 15]


def test_entered_dice_are_kept_with_the_turn_in_progress(client: FlaskClient) -> None:
    game = new_game(client)
    dice = {"red": 1, "blue": 0, "green": 2, "yellow": 0, "brown": 3}
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 1, "action": {"dice": dice}}
    )
    assert response.status_code == 200
    assert response.get_json()["version"] == 2
    assert response.get_json()["state"]["dice"] == dice


def test_undo_takes_back_the_turn_and_still_raises_the_version(client: FlaskClient) -> None:
    game = new_game(client)
    client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": TURN_1})
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 2})
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["version"] == 3
    assert answer["state"]["turns"] == 0
    assert answer["state"]["offsets"] == [0] * 10


@pytest.mark.usefixtures("owner")
def test_delete_removes_the_game(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.delete(f"/api/games/{game['id']}")
    assert response.status_code == 200
    assert response.get_json() == {"id": game["id"], "deleted": True}
    response = client.get(f"/api/games/{game['id']}")
    assert_error(response, 404, "not_found", f"no game {game['id']!r}")


@pytest.mark.usefixtures("owner")
def test_an_imported_record_gives_the_summary_of_its_spec_example(client: FlaskClient) -> None:
    record = spec_record("rings-04-snipe-two-in-one-run.record.json")
    expected = json.loads(
        (SPEC_EXAMPLES / "rings-04-snipe-two-in-one-run.summary.json").read_text()
    )
    response = client.post("/api/games", json={"record": record})
    assert response.status_code == 201
    answer = response.get_json()
    assert answer["version"] == 1
    state = answer["state"]
    assert {key: state[key] for key in expected} == expected


def test_export_replays_with_mandala_replay_to_the_same_summary(client: FlaskClient) -> None:
    game = new_game(client)
    client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": TURN_1})
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    record = response.get_json()
    assert isinstance(record["board"], dict)  # the board travels inline
    result = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert result.status == 0
    state = client.get(f"/api/games/{game['id']}").get_json()["state"]
    summary = result.json()
    assert isinstance(summary, dict)
    assert {key: state[key] for key in summary} == summary


# Games: every error path


def test_malformed_json_is_400_naming_line_and_column(client: FlaskClient) -> None:
    response = client.post("/api/games", data="{", content_type="application/json")
    assert_error(
        response,
        400,
        "malformed",
        "request body: not JSON: line 1 column 2: "
        "Expecting property name enclosed in double quotes",
    )


def test_a_body_that_is_not_utf8_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", data=b'{"kind": "\xff"}')
    assert_error(response, 400, "malformed", "request body: not UTF-8 text at byte 10")


def test_a_body_that_is_not_an_object_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", json=[1, 2])
    assert_error(response, 400, "malformed", "request body: expected an object, got a list")


def test_an_unknown_kind_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"kind": "chess", "seats": []})
    message = "game: unknown game 'chess'; one of rings, icehouse, cards, stones"
    assert_error(response, 400, "malformed", message)


def test_two_seats_on_one_corner_is_400_naming_the_seat(client: FlaskClient) -> None:
    seats = [{"name": "Ann", "corner": 2}, {"name": "Bo", "corner": 2}]
    response = client.post("/api/games", json={**NEW_RINGS_GAME, "seats": seats})
    assert_error(response, 400, "malformed", "seats[1]: corner 2 is already taken")


@pytest.mark.usefixtures("owner")
def test_an_imported_record_with_an_illegal_turn_is_409_naming_the_turn(
    client: FlaskClient,
) -> None:
    record = spec_record("rings-x1-both-red-rings.record.json")
    expected = (SPEC_EXAMPLES / "rings-x1-both-red-rings.error.txt").read_text().strip()
    response = client.post("/api/games", json={"record": record})
    assert_error(response, 409, "illegal", expected)
    assert client.get("/api/games").get_json() == {"games": [], "page": 1, "pages": 1, "total": 0}


@pytest.mark.usefixtures("owner")
def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/games/nope"), 404, "not_found", "no game 'nope'")
    response = client.post("/api/games/nope/actions", json={"version": 1, "action": TURN_1})
    assert_error(response, 404, "not_found", "no game 'nope'")
    assert_error(client.delete("/api/games/nope"), 404, "not_found", "no game 'nope'")
    assert_error(client.get("/api/games/nope/record"), 404, "not_found", "no game 'nope'")
    response = client.post("/api/games/nope/undo", json={"version": 1})
    assert_error(response, 404, "not_found", "no game 'nope'")


def test_a_stale_version_is_409_and_changes_nothing(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 0, "action": TURN_1}
    )
    assert_error(
        response,
        409,
        "conflict",
        "version 0 is stale: the game is at version 1; reload it and try again",
    )
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_stale_undo_is_409(client: FlaskClient) -> None:
    game = new_game(client)
    client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": TURN_1})
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 1})
    assert_error(
        response,
        409,
        "conflict",
        "version 1 is stale: the game is at version 2; reload it and try again",
    )


def test_a_version_that_is_not_a_number_is_400(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": "1", "action": TURN_1}
    )
    assert_error(response, 400, "malformed", "version: expected a whole number, got a string")
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": True})
    assert_error(response, 400, "malformed", "version: expected a whole number, got a boolean")


def test_an_action_missing_or_not_an_object_is_400(client: FlaskClient) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/actions"
    response = client.post(url, json={"version": 1})
    assert_error(response, 400, "malformed", "request body.action: missing key")
    response = client.post(url, json={"version": 1, "action": [1]})
    assert_error(response, 400, "malformed", "action: expected an object, got a list")
    response = client.post(url, json={"action": TURN_1})
    assert_error(response, 400, "malformed", "request body.version: missing key")


def test_an_illegal_turn_is_409_in_the_engines_words(client: FlaskClient) -> None:
    game = new_game(client)
    turn = {
        "dice": {"red": 0, "blue": 1, "green": 0, "yellow": 0, "brown": 0},
        "rotations": [{"ring": 2, "steps": 1}],
    }
    response = client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": turn})
    assert_error(
        response, 409, "illegal", "turn 1: the green die shows 0 but ring 2 (green) turned"
    )
    assert client.get(f"/api/games/{game['id']}").get_json()["state"]["turns"] == 0


def test_dice_missing_a_colour_are_400(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 1, "action": {"dice": {"red": 1}}}
    )
    assert_error(response, 400, "malformed", "dice.blue: missing key")


def test_a_die_face_the_board_lacks_is_409_entered_live_as_in_a_record_turn(
    client: FlaskClient,
) -> None:
    game = new_game(client)
    dice = {"red": 4, "blue": 0, "green": 0, "yellow": 0, "brown": 0}
    url = f"/api/games/{game['id']}/actions"
    said = "the red die shows 4, not a face of this board's dice (0, 1, 2, 3)"
    live = client.post(url, json={"version": 1, "action": {"dice": dice}})
    assert_error(live, 409, "illegal", said)
    turn = {"dice": dice, "rotations": [{"ring": 0, "steps": 4}]}
    record = client.post(url, json={"version": 1, "action": turn})
    assert_error(record, 409, "illegal", f"turn 1: {said}")
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_confirm_without_a_ring_board_is_409(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": 1, "action": {"confirm": True}}
    )
    assert_error(
        response,
        409,
        "conflict",
        'no ring board is attached: post the turn as {"dice", "rotations"}',
    )


def test_undo_with_nothing_to_undo_is_409(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 1})
    assert_error(response, 409, "conflict", "nothing to undo: no turn yet")


def test_a_body_over_the_limit_is_413(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", data=b'{"kind": "' + b"x" * 300_000 + b'"}', content_type="application/json"
    )
    assert_error(response, 413, "too_large", "request body is larger than the panel accepts")


def test_a_wrong_method_is_405_in_the_error_format(client: FlaskClient) -> None:
    assert_error(
        client.put("/api/games"),
        405,
        "method_not_allowed",
        "The method is not allowed for the requested URL.",
    )


def test_an_unknown_address_is_404_in_the_error_format(client: FlaskClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


# The ring board without rings attached, and the checks the panel makes itself


def test_the_board_without_rings_says_so(client: FlaskClient) -> None:
    response = client.get("/api/board")
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["offsets"] == []
    assert answer["emulated"] is False
    assert answer["hardware"] is False


@pytest.mark.usefixtures("owner")
def test_zero_and_emulator_without_rings_are_409(client: FlaskClient) -> None:
    message = "no ring board is attached"
    assert_error(client.post("/api/board/zero", json={}), 409, "conflict", message)
    response = client.post("/api/board/rings/3/offset", json={"offset": 2})
    assert_error(response, 409, "conflict", message)
    response = client.post("/api/emulator/rings/3/turn", json={"detents": 1})
    assert_error(response, 409, "conflict", message)
    assert_error(client.post("/api/emulator/buttons/done/press"), 409, "conflict", message)


@pytest.mark.usefixtures("owner")
def test_a_ring_that_does_not_exist_is_404(client: FlaskClient) -> None:
    response = client.post("/api/board/rings/10/offset", json={"offset": 0})
    assert_error(response, 404, "not_found", "no ring 10; the rings are 0..9")
    response = client.post("/api/emulator/rings/12/turn", json={"detents": 1})
    assert_error(response, 404, "not_found", "no ring 12; the rings are 0..9")


def test_a_button_that_does_not_exist_is_404(client: FlaskClient) -> None:
    response = client.post("/api/emulator/buttons/reset/press", json={})
    assert_error(response, 404, "not_found", "no button 'reset'; the buttons are done, undo")


def test_more_than_1000_detents_is_400(client: FlaskClient) -> None:
    response = client.post("/api/emulator/rings/0/turn", json={"detents": 1001})
    assert_error(response, 400, "malformed", "detents: 1001 is out of -1000..1000")


@pytest.mark.usefixtures("owner")
def test_an_offset_that_is_not_a_number_or_an_extra_key_is_400(client: FlaskClient) -> None:
    response = client.post("/api/board/rings/0/offset", json={"offset": "3"})
    assert_error(response, 400, "malformed", "offset: expected a whole number, got a string")
    response = client.post("/api/board/rings/0/offset", json={"offset": 3, "ring": 0})
    assert_error(response, 400, "malformed", "request body.ring: unknown key")
    response = client.post("/api/board/zero", json={"all": True})
    assert_error(response, 400, "malformed", "request body.all: unknown key")


# Boards: list, read, save from the editor


def editor_board() -> dict[str, object]:
    board = rings.board_to_json(rings.load_board("reference"))
    board["name"] = "Our board"
    board["rings"][4]["black"] = [0, 1, 2, 4, 6, 8, 10, 12, 14]  # type: ignore[index]
    return board


def test_the_bundled_boards_are_listed(client: FlaskClient) -> None:
    response = client.get("/api/boards")
    assert response.status_code == 200
    assert response.get_json() == {"bundled": rings.bundled_board_names(), "saved": []}


@pytest.mark.usefixtures("owner")
def test_a_saved_board_is_a_toml_file_that_reads_back_equal(
    client: FlaskClient, data_dir: Path
) -> None:
    board = editor_board()
    response = client.post("/api/boards", json={"file": "our-board", "board": board})
    assert response.status_code == 201
    assert response.get_json() == {"file": "our-board", "board": board}
    path = data_dir / "boards" / "our-board.toml"
    assert rings.board_to_json(rings.parse_board_text(path.read_text(), str(path))) == board
    assert client.get("/api/boards").get_json()["saved"] == ["our-board"]
    assert client.get("/api/boards/our-board").get_json() == {"file": "our-board", "board": board}


@pytest.mark.usefixtures("owner")
def test_a_new_game_can_use_a_saved_board_and_exports_it_inline(client: FlaskClient) -> None:
    board = editor_board()
    client.post("/api/boards", json={"file": "our-board", "board": board})
    response = client.post("/api/games", json={**NEW_RINGS_GAME, "board": "our-board"})
    assert response.status_code == 201
    record = client.get(f"/api/games/{response.get_json()['id']}/record").get_json()
    assert record["board"] == board


@pytest.mark.usefixtures("owner")
def test_saving_over_an_existing_board_is_409(client: FlaskClient) -> None:
    board = editor_board()
    client.post("/api/boards", json={"file": "our-board", "board": board})
    response = client.post("/api/boards", json={"file": "our-board", "board": board})
    assert_error(
        response,
        409,
        "conflict",
        "file: a board named 'our-board' exists already; choose another name",
    )
    response = client.post("/api/boards", json={"file": "reference", "board": board})
    assert_error(
        response,
        409,
        "conflict",
        "file: a board named 'reference' exists already; choose another name",
    )


@pytest.mark.usefixtures("owner")
def test_an_own_board_is_saved_over_when_asked_and_a_bundled_one_never(
    client: FlaskClient, data_dir: Path
) -> None:
    board = editor_board()
    client.post("/api/boards", json={"file": "our-board", "board": board})
    board["name"] = "Our board, redrawn"
    body = {"file": "our-board", "board": board, "overwrite": True}
    response = client.post("/api/boards", json=body)
    assert response.status_code == 201
    assert client.get("/api/boards/our-board").get_json()["board"]["name"] == "Our board, redrawn"
    assert_error(
        client.post("/api/boards", json={**body, "file": "reference"}),
        409,
        "conflict",
        "file: a board named 'reference' exists already; choose another name",
    )
    assert_error(
        client.post("/api/boards", json={**body, "overwrite": "yes"}),
        400,
        "malformed",
        "overwrite: expected true or false, got a string",
    )


@pytest.mark.usefixtures("owner")
def test_a_board_file_name_with_a_path_in_it_is_400(client: FlaskClient) -> None:
    response = client.post("/api/boards", json={"file": "../evil", "board": editor_board()})
    assert_error(
        response,
        400,
        "malformed",
        "file: '../evil' is not a board file name (1-40 of a-z, 0-9 and -, not - first)",
    )


@pytest.mark.usefixtures("owner")
def test_an_invalid_board_is_400_in_the_engines_words(client: FlaskClient) -> None:
    board = editor_board()
    board["rings"][3]["black"] = [16]  # type: ignore[index]
    response = client.post("/api/boards", json={"file": "bad", "board": board})
    assert_error(response, 400, "malformed", "board: rings[3].black: slot 16 is out of 0..15")


def test_an_unknown_board_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/boards/nope"), 404, "not_found", "no board 'nope'")


# Pages


def test_every_page_renders_for_a_ring_game(client: FlaskClient) -> None:
    game = new_game(client)
    home = client.get("/")
    assert home.status_code == 200
    assert f'data-id="{game["id"]}"' in home.get_data(as_text=True)
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert '<svg id="board"' in text
    assert '"name": "Reference layout"' in text or '"name":"Reference layout"' in text
    for path in ("/calibrate", "/health", "/boards/new", "/boards/new?from=nope"):
        assert client.get(path).status_code == 200, path


def test_a_page_for_an_unknown_game_is_a_404_page_with_a_way_home(client: FlaskClient) -> None:
    page = client.get("/games/nope")
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert "There is no game <strong>nope</strong> on this companion." in text
    assert '<a class="button primary" id="home-link" href="/">Back to the games</a>' in text
    # nothing of a game's page: no exports, no speech switch, no speech script
    assert 'id="speech"' not in text and "speech.js" not in text and 'id="play-exports"' not in text
    # the API keeps its JSON
    assert_error(client.get("/api/games/nope"), 404, "not_found", "no game 'nope'")


def test_no_page_or_script_loads_anything_from_another_machine(client: FlaskClient) -> None:
    game = new_game(client)
    paths = ["/", f"/games/{game['id']}", "/calibrate", "/health", "/boards/new"]
    static = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"
    texts = [client.get(path).get_data(as_text=True) for path in paths]
    texts += [
        file.read_text() for file in static.rglob("*") if file.suffix in (".js", ".css", ".svg")
    ]
    for text in texts:
        for word in ("http://", "https://", "//cdn", "fonts.googleapis"):
            assert word not in text.replace("http://www.w3.org/2000/svg", ""), word

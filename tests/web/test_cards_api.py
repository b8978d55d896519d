"""The card game over HTTP: seat and host tokens, undo (section 11), every error, the sheet.

The games played on the panel here use one deck stacked by hand (top first):

- mountain 0: red, red; mountain 1: orange, orange
- Ann's hand: yellow, yellow, green, green, purple, black
- Bo's hand: yellow, green, purple, purple, black, black
- Ann's cup: red, orange; Bo's cup: green, black
- then 15 red, 15 orange, 15 yellow, 14 green, 15 purple, 14 black (the deck: 88 cards)

So Ann's hand is {yellow 2, green 2, purple 1, black 1}; a mountain play of hers draws
3 red (hand 5 -> 8).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.table import Table
from companion.web import create_app
from tests.conftest import SPEC_EXAMPLES
from tests.phrase_json import english, english_all
from tests.web.conftest import assert_error, pair_owner, stacked_cards

SEATS = ["Ann", "Bo"]
COUNTS = {"red": 15, "orange": 15, "yellow": 15, "green": 14, "purple": 15, "black": 14}
DECK = (
    ["red", "red", "orange", "orange"]
    + ["yellow", "yellow", "green", "green", "purple", "black"]
    + ["yellow", "green", "purple", "purple", "black", "black"]
    + ["red", "orange", "green", "black"]
    + [colour for colour, n in COUNTS.items() for _ in range(n)]
)
ANN_HAND = {"yellow": 2, "green": 2, "purple": 1, "black": 1}
BO_HAND = {"yellow": 1, "green": 1, "purple": 2, "black": 2}
HIDDEN = "only the host (the phone that created this game) may"


def record_of(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return value


class Game:
    """A card game played on the panel, its host phone and one phone per taken seat."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.host = app.test_client()
        self.created = stacked_cards(self.host, {"seats": SEATS, "deck": DECK})
        self.id: str = self.created["id"]
        self.url = f"/api/games/{self.id}"
        self.version = 1

    def phone(self) -> FlaskClient:
        return self.app.test_client()

    def seated(self, seat: int) -> FlaskClient:
        phone = self.phone()
        answer = phone.post(f"{self.url}/seats/{seat}/take", json={})
        assert answer.status_code == 200, answer.get_json()
        return phone

    def act(self, phone: FlaskClient, action: dict[str, Any]) -> Any:
        answer = phone.post(f"{self.url}/actions", json={"version": self.version, "action": action})
        if answer.status_code == 200:
            self.version = answer.get_json()["version"]
        return answer

    def undo(self, phone: FlaskClient) -> Any:
        answer = phone.post(f"{self.url}/undo", json={"version": self.version})
        if answer.status_code == 200:
            self.version = answer.get_json()["version"]
        return answer


@pytest.fixture
def game(app: Flask) -> Game:
    return Game(app)


# ---------------------------------------------------------------------------------------
# Creating: the host token


def test_creating_a_game_played_on_the_panel_gives_the_creator_a_host_token(
    client: FlaskClient,
) -> None:
    created = client.post("/api/games", json={"kind": "cards", "seats": SEATS})
    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    token = answer["host_token"]
    assert isinstance(token, str) and len(token) == 43  # 32 random bytes, URL-safe base64
    cookie = created.headers["Set-Cookie"]
    assert cookie.startswith(f"mandala_host_{answer['id']}={token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    state = answer["state"]
    assert state["host"] is True and state["seat"] is None
    assert state["hands"] == {"Ann": 6, "Bo": 6}  # the host is no seat: counts only
    assert state["cups"] == {"Ann": 2, "Bo": 2}
    assert state["scores"] == {"Ann": None, "Bo": None}
    assert state["taken"] == [False, False]
    assert state["legal"] == []


@pytest.mark.usefixtures("owner")
def test_a_tracked_table_has_no_host_token_and_hides_nothing(client: FlaskClient) -> None:
    created = client.post(
        "/api/games", json={"record": record_of("cards-t1-deals-destruction-deal")}
    )
    assert created.status_code == 201
    assert "host_token" not in created.get_json()
    assert "Set-Cookie" not in created.headers
    state = created.get_json()["state"]
    assert state["mode"] == "table"
    # Ann: 6 - 1 + 3 (mountain) - 2 - 1 (fields) = 5; Bo: 6 - 1 (field) - 1 + 3 (mountain) = 7.
    assert state["hands"] == {"Ann": 5, "Bo": 7}
    # Public: Ann's cup holds 1 yellow, space 1 of her river (yellow, black); Bo's cup none.
    assert state["scores"] == {"Ann": 1, "Bo": 0}
    game_id = created.get_json()["id"]
    assert client.get(f"/api/games/{game_id}/record").status_code == 200  # its public record
    assert_error(
        client.post(f"/api/games/{game_id}/seats/0/take", json={}),
        409,
        "conflict",
        "this game tracks a real table: nothing is hidden, no seat to take",
    )
    assert client.delete(f"/api/games/{game_id}").status_code == 200  # no host needed


def test_a_game_played_on_the_panel_without_deck_or_seed_gets_a_random_seed(
    client: FlaskClient, table: Table
) -> None:
    first = client.post("/api/games", json={"kind": "cards", "seats": SEATS, "mode": "play"})
    second = client.post("/api/games", json={"kind": "cards", "seats": SEATS})
    assert first.status_code == second.status_code == 201
    setups = [table.state.games[a.get_json()["id"]].setup for a in (first, second)]
    assert all(isinstance(setup["seed"], int) for setup in setups)
    assert setups[0]["deck"] != setups[1]["deck"]  # two shuffles of 108 cards


# ---------------------------------------------------------------------------------------
# Taking and freeing seats


def test_taking_a_free_seat_gives_its_token_and_shows_that_seat_only(game: Game) -> None:
    ann = game.phone()
    taken = ann.post(f"{game.url}/seats/0/take", json={})
    assert taken.status_code == 200
    answer = taken.get_json()
    assert answer == {"id": game.id, "seat": 0, "name": "Ann", "token": answer["token"]}
    assert taken.headers["Set-Cookie"].startswith(f"mandala_seat_{game.id}={answer['token']};")
    state = ann.get(game.url).get_json()["state"]
    assert state["seat"] == "Ann"
    assert state["hands"] == {"Ann": ANN_HAND, "Bo": 6}
    assert state["cups"] == {"Ann": {"red": 1, "orange": 1}, "Bo": 2}
    assert state["scores"] == {"Ann": 0, "Bo": None}
    assert state["taken"] == [True, False]
    assert {"mountain": 0, "colour": "yellow"} in state["legal"]
    # The same token in the header, from a phone without the cookie (the page's copy).
    header = game.phone().get(game.url, headers={"X-Seat-Token": answer["token"]})
    assert header.get_json()["state"]["hands"] == {"Ann": ANN_HAND, "Bo": 6}


def test_a_taken_seat_is_taken_again_only_with_its_own_token(game: Game) -> None:
    ann = game.phone()
    token = ann.post(f"{game.url}/seats/0/take", json={}).get_json()["token"]
    again = ann.post(f"{game.url}/seats/0/take", json={})  # the cookie: a reload
    assert again.status_code == 200 and again.get_json()["token"] == token
    slept = game.phone().post(f"{game.url}/seats/0/take", json={}, headers={"X-Seat-Token": token})
    assert slept.status_code == 200 and slept.get_json()["token"] == token
    message = "seat 0 (Ann) is taken by another phone; the host may free it"
    assert_error(game.phone().post(f"{game.url}/seats/0/take", json={}), 403, "forbidden", message)
    wrong = {"X-Seat-Token": "not-the-token"}
    assert_error(
        game.phone().post(f"{game.url}/seats/0/take", json={}, headers=wrong),
        403,
        "forbidden",
        message,
    )
    bo = game.seated(1)
    assert_error(bo.post(f"{game.url}/seats/0/take", json={}), 403, "forbidden", message)


def test_only_the_host_frees_a_seat_and_a_freed_token_sees_the_shared_view(game: Game) -> None:
    ann = game.seated(0)
    assert_error(
        ann.post(f"{game.url}/seats/0/free", json={}), 403, "forbidden", f"{HIDDEN} free a seat"
    )
    assert_error(
        game.phone().post(f"{game.url}/seats/0/free", json={}),
        403,
        "forbidden",
        f"{HIDDEN} free a seat",
    )
    freed = game.host.post(f"{game.url}/seats/0/free", json={})
    assert freed.status_code == 200
    assert freed.get_json() == {"id": game.id, "seat": 0, "taken": False}
    state = ann.get(game.url).get_json()["state"]
    assert state["seat"] is None and state["hands"] == {"Ann": 6, "Bo": 6}
    # Anyone may take the freed seat now: a new token.
    other = game.phone()
    assert other.post(f"{game.url}/seats/0/take", json={}).status_code == 200
    assert other.get(game.url).get_json()["state"]["hands"]["Ann"] == ANN_HAND
    # The host token in a header works as the cookie does; freeing a free seat is no change.
    host = {"X-Host-Token": game.created["host_token"]}
    assert game.phone().post(f"{game.url}/seats/1/free", json={}, headers=host).status_code == 200


def test_a_seat_that_does_not_exist_and_a_bad_body_are_refused(
    app: Flask, game: Game, data_dir: Path
) -> None:
    phone = game.phone()
    pair_owner(phone, data_dir)  # to import the Icehouse record below
    assert_error(
        phone.post(f"{game.url}/seats/2/take", json={}),
        404,
        "not_found",
        "no seat 2: the seats are 0 and 1",
    )
    assert phone.post(f"{game.url}/seats/x/take", json={}).status_code == 404
    assert_error(
        phone.post("/api/games/nope/seats/0/take", json={}), 404, "not_found", "no game 'nope'"
    )
    assert_error(
        phone.post(f"{game.url}/seats/0/take", data="[1]", content_type="application/json"),
        400,
        "malformed",
        "request body: expected an object, got a list",
    )
    assert_error(
        game.host.post(f"{game.url}/seats/5/free", json={}),
        404,
        "not_found",
        "no seat 5: the seats are 0 and 1",
    )
    icehouse = phone.post("/api/games", json={"record": record_of("icehouse-01-eye-after-a-pick")})
    other = icehouse.get_json()["id"]
    assert_error(
        phone.post(f"/api/games/{other}/seats/0/take", json={}),
        409,
        "conflict",
        f"game {other} has no seats to take: only cards played on the panel",
    )
    assert game.phone().post(f"{game.url}/seats/0/take", json={}).status_code == 200  # untaken


def test_an_overlong_or_unknown_token_is_the_shared_view(game: Game) -> None:
    for token in ("x" * 5000, "", "ünïcode"):
        answer = game.phone().get(game.url, headers={"X-Seat-Token": token})
        assert answer.status_code == 200
        assert answer.get_json()["state"]["hands"] == {"Ann": 6, "Bo": 6}


# ---------------------------------------------------------------------------------------
# Acting and deleting


def test_an_action_needs_the_token_of_the_seat_whose_action_it_is(game: Game) -> None:
    bo = game.seated(1)
    ann = game.seated(0)
    message = "it is Ann's turn: only the phone that took Ann's seat may act"
    play = {"mountain": 0, "colour": "yellow"}
    assert_error(game.act(game.phone(), play), 403, "forbidden", message)
    assert_error(game.act(game.host, play), 403, "forbidden", message)
    assert_error(game.act(bo, play), 403, "forbidden", message)
    answer = game.act(ann, play)
    assert answer.status_code == 200
    state = answer.get_json()["state"]
    # Hand 6 - 1 = 5 draws min(3, 8 - 5) = 3: the next three cards, all red.
    assert state["hands"]["Ann"] == {"red": 3, "yellow": 1, "green": 2, "purple": 1, "black": 1}
    assert state["deck"] == 85
    assert [entry["action"] for entry in state["log"]] == [{"mountain": 0, "colour": "yellow"}]
    assert [english_all(entry["instructions"]) for entry in state["log"]] == [
        ["Ann plays yellow into mountain 0", "Ann draws 3 (deck 85)"]
    ]
    bo_sees = bo.get(game.url).get_json()["state"]
    assert bo_sees["hands"] == {"Ann": 8, "Bo": BO_HAND}
    assert_error(
        game.act(ann, {"discard": "black", "count": 1}),
        403,
        "forbidden",
        "it is Bo's turn: only the phone that took Bo's seat may act",
    )


def test_the_acting_seat_gets_the_rules_refusals_stale_and_malformed(game: Game) -> None:
    ann = game.seated(0)
    assert_error(
        game.act(ann, {"field": 0, "colour": "red", "count": 1}),
        409,
        "illegal",
        "action 1: Ann cannot play red into field 0: red is in mountain 0",
    )
    assert_error(
        game.act(ann, {"discard": "orange", "count": 1}),
        409,
        "illegal",
        "action 1: Ann cannot discard orange: Ann holds no orange",
    )
    assert_error(
        game.act(ann, {"mountain": 5, "colour": "red"}),
        400,
        "malformed",
        "action 1: mountain: 5 is out of 0..1",
    )
    stale = ann.post(
        f"{game.url}/actions", json={"version": 7, "action": {"mountain": 0, "colour": "green"}}
    )
    assert_error(
        stale,
        409,
        "conflict",
        "version 7 is stale: the game is at version 1; reload it and try again",
    )
    assert game.version == 1


def test_deleting_a_game_that_hides_hands_needs_the_host_token(game: Game, data_dir: Path) -> None:
    ann = game.seated(0)
    stranger = game.phone()
    for phone in (ann, stranger, game.host):  # deleting needs the owner; then the host rule
        pair_owner(phone, data_dir)
    message = f"{HIDDEN} delete it"
    assert_error(ann.delete(game.url), 403, "forbidden", message)
    assert_error(stranger.delete(game.url), 403, "forbidden", message)
    assert game.host.get(game.url).status_code == 200
    answer = game.host.delete(game.url)
    assert answer.status_code == 200
    assert answer.get_json() == {"id": game.id, "deleted": True}
    assert_error(game.host.get(game.url), 404, "not_found", f"no game '{game.id}'")


@pytest.mark.usefixtures("owner")
def test_a_game_played_on_the_panel_that_is_over_is_public(client: FlaskClient) -> None:
    record = record_of("cards-07-sixth-river-colour-ends")
    created = client.post("/api/games", json={"record": record})
    game_id = created.get_json()["id"]
    state = client.get(f"/api/games/{game_id}").get_json()["state"]
    expected = json.loads(
        (SPEC_EXAMPLES / "cards-07-sixth-river-colour-ends.summary.json").read_text()
    )
    assert {key: state[key] for key in expected} == expected  # every card shown once over
    assert client.get(f"/api/games/{game_id}/record").get_json()["actions"] == record["actions"]
    assert client.delete(f"/api/games/{game_id}").status_code == 200


def test_the_export_of_a_game_that_hides_hands_is_refused_before_the_end(game: Game) -> None:
    ann = game.seated(0)
    for phone in (ann, game.host, game.phone()):
        assert_error(
            phone.get(f"{game.url}/record"),
            403,
            "forbidden",
            f"game {game.id} hides the seats' hands: its record is exported once it is over",
        )


# ---------------------------------------------------------------------------------------
# Undo (section 11)


def test_a_seat_undoes_its_own_field_play_before_the_other_acts(game: Game) -> None:
    ann, bo = game.seated(0), game.seated(1)
    assert game.act(ann, {"field": 0, "colour": "yellow", "count": 1}).status_code == 200
    assert ann.get(game.url).get_json()["state"]["undo"] is None
    assert english(bo.get(game.url).get_json()["state"]["undo"]) == (
        "only Ann may undo the last action"
    )
    assert_error(game.undo(bo), 409, "conflict", "cannot undo: only Ann may undo the last action")
    assert_error(
        game.undo(game.phone()),
        403,
        "forbidden",
        "undo in a game with hidden hands needs the seat token of a seat",
    )
    assert_error(
        game.undo(game.host),
        403,
        "forbidden",
        "undo in a game with hidden hands needs the seat token of a seat",
    )
    undone = game.undo(ann)
    assert undone.status_code == 200
    assert undone.get_json()["version"] == 3
    state = undone.get_json()["state"]
    assert state["hands"]["Ann"] == ANN_HAND
    assert state["to_move"] == "Ann" and state["log"] == []


def test_a_play_that_drew_cards_is_final(game: Game) -> None:
    ann = game.seated(0)
    assert game.act(ann, {"mountain": 1, "colour": "green"}).status_code == 200
    reason = "the last action drew cards: it is final"
    assert english(ann.get(game.url).get_json()["state"]["undo"]) == reason
    assert_error(game.undo(ann), 409, "conflict", f"cannot undo: {reason}")


def test_a_seat_cannot_undo_once_the_other_seat_has_acted(game: Game) -> None:
    ann, bo = game.seated(0), game.seated(1)
    assert game.act(ann, {"field": 0, "colour": "green", "count": 1}).status_code == 200
    assert game.act(bo, {"field": 1, "colour": "purple", "count": 1}).status_code == 200
    assert_error(game.undo(ann), 409, "conflict", "cannot undo: only Bo may undo the last action")
    assert game.undo(bo).status_code == 200  # Bo's own field play, before Ann acts


@pytest.mark.usefixtures("owner")
def test_nothing_to_undo_and_a_tracked_table_always_undoes(client: FlaskClient, game: Game) -> None:
    assert_error(game.undo(game.seated(0)), 409, "conflict", "nothing to undo: no action yet")
    tracked = client.post(
        "/api/games", json={"record": record_of("cards-t1-deals-destruction-deal")}
    )
    game_id = tracked.get_json()["id"]
    assert tracked.get_json()["state"]["undo"] is None
    undone = client.post(f"/api/games/{game_id}/undo", json={"version": 1})  # no token at all
    assert undone.status_code == 200
    assert undone.get_json()["state"]["due"] == {"deal": 1}


# ---------------------------------------------------------------------------------------
# Tracking a table: the guided destruction, in words worked out by hand


@pytest.mark.usefixtures("owner")
def test_a_tracked_destruction_says_who_chooses_whose_claim_and_where_cards_go(
    client: FlaskClient,
) -> None:
    record = record_of("cards-t1-deals-destruction-deal")
    record["actions"] = record["actions"][:7]  # up to Ann's orange: mandala 1 complete
    created = client.post("/api/games", json={"record": record}).get_json()
    state = created["state"]
    assert state["claiming"] == {"mandala": 1, "chooser": "Ann"}
    assert state["to_move"] == "Ann"
    # Mountain 1: yellow 2, green, black. Ann's field there holds 3 cards, her river none.
    assert state["claims"] == [
        {"colour": "yellow", "count": 2, "to": "river", "river_space": 1},
        {"colour": "green", "count": 1, "to": "river", "river_space": 1},
        {"colour": "black", "count": 1, "to": "river", "river_space": 1},
    ]
    assert english_all(state["log"][6]["instructions"]) == [
        "Ann plays orange into their field of mandala 1",
        "Mandala 1 is complete: Ann chooses first (more cards in their field there)",
        "Ann claims next",
    ]
    assert {"claim": "yellow"} in state["legal"]
    url = f"/api/games/{created['id']}/actions"
    answer = client.post(url, json={"version": 1, "action": {"claim": "yellow"}}).get_json()
    assert english_all(answer["state"]["log"][7]["instructions"]) == [
        "Ann claims 2 yellow: 1 to Ann's river (space 1), 1 to Ann's cup",
        "Bo claims next",
    ]
    answer = client.post(url, json={"version": 2, "action": {"claim": "green"}}).get_json()
    answer = client.post(url, json={"version": 3, "action": {"claim": "black"}}).get_json()
    assert english_all(answer["state"]["log"][9]["instructions"]) == [
        "Ann claims black: 1 to Ann's river (space 2)",
        "Mandala 1 is destroyed: both its fields go to the discard pile",
        "Deal the new cards of mountain 1 and enter them",
    ]
    assert answer["state"]["due"] == {"deal": 1}
    assert answer["state"]["claims"] == []


def test_an_empty_field_claim_goes_to_the_discard_pile_in_the_preview(
    client: FlaskClient, table: Table
) -> None:
    record = record_of("cards-04-empty-field-claims-to-discard")
    # Not over: the panel refuses to import it (its record shows the hands); the table's own.
    game_id = table.create_game({"record": {**record, "mode": "play"}})["id"]
    log = client.get(f"/api/games/{game_id}").get_json()["state"]["log"]
    discarded = [
        line
        for entry in log
        for line in english_all(entry["instructions"])
        if "to the discard pile (" in line
    ]
    assert discarded and all("'s field there is empty)" in line for line in discarded)


# ---------------------------------------------------------------------------------------
# The score sheet


@pytest.mark.parametrize("number", ["1-scoring", "2-tie-fewer-cup-cards", "3-full-tie"])
def test_the_score_sheet_route_scores_as_mandala_score(client: FlaskClient, number: str) -> None:
    sheet = json.loads((SPEC_EXAMPLES / f"cards-sheet-{number}.sheet.json").read_text())
    expected = json.loads((SPEC_EXAMPLES / f"cards-sheet-{number}.score.json").read_text())
    answer = client.post("/api/cards/score", json=sheet)
    assert answer.status_code == 200
    assert answer.get_json() == expected


def test_the_score_sheet_route_scores_by_hand(client: FlaskClient) -> None:
    sheet = {
        "game": "cards",
        "sheet": {
            "Ann": {"river": ["red", "green", "black"], "cup": {"red": 4, "green": 2, "black": 1}},
            "Bo": {"river": ["orange"], "cup": {"orange": 9, "red": 0}},
        },
    }
    # Ann: 4 x 1 + 2 x 2 + 1 x 3 = 11; Bo: 9 x 1 = 9.
    answer = client.post("/api/cards/score", json=sheet)
    assert answer.get_json() == {"scores": {"Ann": 11, "Bo": 9}, "winner": "Ann"}


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (
            {"Ann": {"river": ["red", "red"], "cup": {}}, "Bo": {"river": [], "cup": {}}},
            "sheet.Ann.river[1]: 'red' is already in the river",
        ),
        (
            {"Ann": {"river": [], "cup": {"red": -1}}, "Bo": {"river": [], "cup": {}}},
            "sheet.Ann.cup.red: -1 is negative; counts are whole numbers >= 0",
        ),
        (
            {"Ann": {"river": [], "cup": {"blue": 1}}, "Bo": {"river": [], "cup": {}}},
            "sheet.Ann.cup.blue: 'blue' is not one of red, orange, yellow, green, purple, black",
        ),
        ({"Ann": {"river": [], "cup": {}}}, "sheet: the card game has 2 seats, got 1"),
    ],
)
def test_a_bad_score_sheet_is_malformed_and_names_the_key(
    client: FlaskClient, sheet: dict[str, Any], message: str
) -> None:
    answer = client.post("/api/cards/score", json={"game": "cards", "sheet": sheet})
    assert_error(answer, 400, "malformed", message)


def test_the_score_sheet_route_refuses_a_body_that_is_not_json(client: FlaskClient) -> None:
    answer = client.post("/api/cards/score", data="{", content_type="application/json")
    assert_error(
        answer,
        400,
        "malformed",
        "request body: not JSON: line 1 column 2: "
        "Expecting property name enclosed in double quotes",
    )


def test_the_score_sheet_page_has_two_rivers_and_cups(client: FlaskClient) -> None:
    page = client.get("/cards/sheet")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert text.count('class="sheet-seat"') == 2
    assert text.count('name="river-5"') == 2
    assert text.count('name="cup-black"') == 2


# ---------------------------------------------------------------------------------------
# Durable tokens


def test_tokens_survive_a_restart_and_only_their_digests_are_stored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data) as table:
        app = create_app({}, table=table)
        game = Game(app)
        ann = game.phone()
        token = ann.post(f"{game.url}/seats/0/take", json={}).get_json()["token"]
        host = game.created["host_token"]
    raw = b"".join(path.read_bytes() for path in data.iterdir() if path.is_file())
    assert token.encode() not in raw and host.encode() not in raw
    assert hashlib.sha256(token.encode()).hexdigest().encode() in raw
    with Table(data) as table:
        app = create_app({}, table=table)
        phone = app.test_client()
        seen = phone.get(game.url, headers={"X-Seat-Token": token}).get_json()["state"]
        assert seen["hands"]["Ann"] == ANN_HAND
        assert seen["taken"] == [True, False]
        freed = phone.post(f"{game.url}/seats/0/free", json={}, headers={"X-Host-Token": host})
        assert freed.status_code == 200
    with Table(data) as table:
        app = create_app({}, table=table)
        seen = app.test_client().get(game.url, headers={"X-Seat-Token": token})
        assert seen.get_json()["state"]["taken"] == [False, False]
        assert seen.get_json()["state"]["hands"]["Ann"] == 6


@pytest.mark.usefixtures("owner")
def test_a_tracked_game_ends_with_both_starting_cups_and_the_final_scores(
    client: FlaskClient,
) -> None:
    record = record_of("cards-t2-cups-decide")
    record["actions"] = record["actions"][:29]  # up to Bo's last claim: play has ended
    created = client.post("/api/games", json={"record": record}).get_json()
    state = created["state"]
    assert state["due"] == {"cup": "Ann"} and state["over"] is False
    assert state["rivers"]["Ann"] == ["black", "red", "green", "purple", "yellow", "orange"]
    assert english_all(state["log"][28]["instructions"])[-1] == (
        "Play has ended: turn over Ann's two starting cup cards"
    )
    assert {"cup": "Ann", "colours": ["orange", "black"]} in state["legal"]
    url = f"/api/games/{created['id']}/actions"
    cup = {"cup": "Ann", "colours": ["orange", "black"]}
    state = client.post(url, json={"version": 1, "action": cup}).get_json()["state"]
    assert state["due"] == {"cup": "Bo"}
    assert english_all(state["log"][29]["instructions"]) == [
        "Ann's starting cup cards: orange, black",
        "Play has ended: turn over Bo's two starting cup cards",
    ]
    cup = {"cup": "Bo", "colours": ["green", "green"]}
    state = client.post(url, json={"version": 2, "action": cup}).get_json()["state"]
    # Ann: orange in river space 6 and black in space 1: 6 + 1 = 7. Bo: purple in space 1
    # scores 1, his two green (not in his river) 0.
    assert (state["over"], state["winner"], state["scores"]) == (True, "Ann", {"Ann": 7, "Bo": 1})
    assert english_all(state["log"][30]["instructions"]) == [
        "Bo's starting cup cards: green, green",
        "The game is over: Ann wins (7 to 1)",
    ]

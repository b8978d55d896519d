"""More refusals come in the phone's language through the real API (issue 27): a Stones pick
of a stack that is not eligible. Each keeps its English word for word."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.catalogue import render
from companion.games import stones
from companion.games.base import IllegalAction
from companion.games.stones import Pick
from tests.conftest import SPEC_EXAMPLES
from tests.games.stones_build import position
from tests.web.conftest import assert_error

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en"}


def created(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    game: dict[str, Any] = answer.get_json()
    return game


# Stones ------------------------------------------------------------------------------------


def test_a_stones_pick_of_a_blocked_stack_is_refused_in_german(client: FlaskClient) -> None:
    record = json.loads(
        (SPEC_EXAMPLES / "stones-x1-first-is-a-blocked-stack.record.json").read_text()
    )
    body = {key: value for key, value in record.items() if key not in ("game", "actions")}
    game = created(client, {"kind": "stones", **body})
    url = f"/api/games/{game['id']}/actions"
    pick = {"version": 1, "action": record["actions"][0]}
    assert_error(
        client.post(url, json=pick, headers=GERMAN),
        409,
        "illegal",
        "Zug 1: Erster Stein S: der Stapel auf [3, 6] grenzt an den Künstler auf [4, 6]. "
        "Er ist nicht wählbar.",
    )
    english = (SPEC_EXAMPLES / "stones-x1-first-is-a-blocked-stack.error.txt").read_text()
    assert_error(client.post(url, json=pick, headers=ENGLISH), 409, "illegal", english.strip())
    assert client.get(url.removesuffix("/actions")).get_json()["version"] == 1


def test_a_pick_that_takes_no_stone_names_each_direction_and_stone_in_german() -> None:
    stacks = {(3, 4): ["red-lines"], (4, 5): ["blue-lines"]}
    artists = (((2, 2), "dots"), ((2, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    with pytest.raises(IllegalAction) as refused:
        stones.apply(position(stacks=stacks, artists=artists), Pick((2, 2), (4, 4), "N", 1))
    assert refused.value.phrase is not None
    assert render(refused.value.phrase, "de") == (
        "Kein Stein ist für den Künstler (Punkte) auf [4, 4] wählbar ("
        "N: der oberste Stein des Stapels auf [3, 4] ist Rot, Linien, nicht Punkte wie der "
        "Künstler; O: der oberste Stein des Stapels auf [4, 5] ist Blau, Linien, nicht Punkte "
        "wie der Künstler; S: der Stapel auf [5, 4] ist leer; W: der Stapel auf [4, 3] ist leer)."
    )
    assert str(refused.value) == refused.value.phrase.english()

"""One colour per player: the same name keeps its colour across games and kinds."""

from __future__ import annotations

import json

from companion.table import Table
from companion.table.colours import PALETTE, known_colours, seat_colours, stable_pick
from tests.conftest import SPEC_EXAMPLES
from tests.table.conftest import TWO_SEATS


def test_a_name_never_at_the_ring_board_gets_the_same_pick_whatever_its_case() -> None:
    assert stable_pick("Ann") == stable_pick(" ann ") in PALETTE
    assert len({stable_pick(name) for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]}) > 1


def test_the_earliest_game_that_names_a_colour_gives_it() -> None:
    games = [(5.0, [("Ann", "cyan")]), (1.0, [("Ann", "orange"), ("Bo", None)])]
    assert known_colours(games) == {"Ann": "orange"}


def test_two_players_of_one_game_never_share_a_colour() -> None:
    known = {"Ann": "orange", "Bo": "orange"}
    assert seat_colours([("Ann", None), ("Bo", None)], known) == ["orange", "purple"]
    # a colour the record names stays, and the others move around it
    assert seat_colours([("Ann", None), ("Bo", "orange")], known) == ["purple", "orange"]


def test_the_games_list_shows_a_players_ring_colour_in_every_game(table: Table) -> None:
    rings = table.create_game(
        {**TWO_SEATS, "seats": [{"name": "Ann", "corner": 2}, {"name": "Bo", "corner": 0}]}
    )
    ice = json.loads((SPEC_EXAMPLES / "icehouse-02-sole-owner-scores-5.record.json").read_text())
    ice_game = table.create_game({"record": ice})
    listing = {g["id"]: g for g in table.list_games()}
    assert listing[rings["id"]]["colours"] == ["cyan", "orange"]  # the corners' own colours
    assert listing[ice_game["id"]]["seats"] == ["Ann", "Bo"]
    assert listing[ice_game["id"]]["colours"] == ["cyan", "orange"]
    assert listing[ice_game["id"]]["to_move"] == "Ann"
    assert listing[ice_game["id"]]["scores"] == {"Ann": 5, "Bo": 0}
    assert listing[rings["id"]]["winner"] is None
    assert listing[rings["id"]]["created"].endswith("Z")

"""The finished play's result: one shape for every kind, ties shared (the logbook's input).

Each spec example that ends is imported into a real Table; its result lists the seats in
order with scores and ranks, the winners, the variant and board, and start and end times.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.table import NotFound, Table
from companion.table.adapters.result import Result, ranked, result_of
from tests.conftest import SPEC_EXAMPLES

ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def imported(table: Table, name: str) -> str:
    record = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    game_id: str = table.create_game({"record": record})["id"]
    return game_id


def result_json(table: Table, name: str) -> dict[str, Any]:
    result = table.result(imported(table, name))
    assert isinstance(result, Result)
    answer: dict[str, Any] = result.to_json()
    assert ISO.fullmatch(answer.pop("started")) and ISO.fullmatch(answer.pop("ended"))
    return answer


def test_a_ring_board_result_names_the_winner_the_variant_and_the_board(table: Table) -> None:
    assert result_json(table, "rings-08-win-by-centre-entry") == {
        "kind": "rings",
        "seats": [{"name": "Ann", "score": 6, "rank": 1}, {"name": "Bo", "score": 0, "rank": 2}],
        "winners": ["Ann"],
        "variant": "standard",
        "board": "win demo",  # the record's own board, inline
    }


def test_an_icehouse_tie_on_points_goes_to_the_winner_and_the_others_share_second(
    table: Table,
) -> None:
    assert result_json(table, "icehouse-09-winner-tie-break") == {
        "kind": "icehouse",
        "seats": [
            {"name": "Ann", "score": 5, "rank": 1},
            {"name": "Bo", "score": 5, "rank": 2},
            {"name": "Cy", "score": 5, "rank": 2},
        ],
        "winners": ["Ann"],
        "variant": None,
        "board": None,
    }


def test_a_card_game_won_on_points_ranks_the_winner_first(table: Table) -> None:
    assert result_json(table, "cards-t2-cups-decide") == {
        "kind": "cards",
        "seats": [{"name": "Ann", "score": 7, "rank": 1}, {"name": "Bo", "score": 1, "rank": 2}],
        "winners": ["Ann"],
        "variant": "table",
        "board": None,
    }


def test_a_card_game_the_rules_leave_tied_has_both_seats_winning_first(table: Table) -> None:
    assert result_json(table, "cards-10-reshuffle-same-turn-destruction-ends") == {
        "kind": "cards",
        "seats": [{"name": "Ann", "score": 0, "rank": 1}, {"name": "Bo", "score": 0, "rank": 1}],
        "winners": ["Ann", "Bo"],
        "variant": "play",
        "board": None,
    }


def test_a_stones_tie_goes_to_the_earlier_seat_as_the_rules_say(table: Table) -> None:
    assert result_json(table, "stones-06-objectives-tie") == {
        "kind": "stones",
        "seats": [{"name": "Ann", "score": 5, "rank": 1}, {"name": "Bo", "score": 5, "rank": 2}],
        "winners": ["Ann"],
        "variant": None,
        "board": None,
    }


def test_a_game_still_in_play_has_no_result_yet(table: Table) -> None:
    assert table.result(imported(table, "rings-01-riding-pegs")) is None
    with pytest.raises(NotFound):
        table.result("nope")


def test_the_result_starts_when_the_game_was_made_and_ends_at_its_last_change(
    table: Table,
) -> None:
    game_id = imported(table, "stones-06-objectives-tie")
    listing = next(game for game in table.list_games() if game["id"] == game_id)
    result = table.result(game_id)
    assert result is not None
    assert result.to_json()["started"] == listing["created"]
    assert result.to_json()["ended"] == listing["updated"]


def test_ranks_are_shared_on_equal_scores_and_skip_the_places_taken() -> None:
    assert ranked([3, 7, 7, 1], winners=[1]) == (3, 1, 2, 4)
    assert ranked([5, 5, 2], winners=[0, 1]) == (1, 1, 3)


def test_no_winner_named_makes_every_seat_of_the_best_score_a_winner() -> None:
    result = result_of(
        "nim", ["A", "B", "C"], [2, 4, 4], None, variant=None, board=None, started=0.0, ended=60.0
    )
    assert result.winners == ("B", "C")
    assert [seat.rank for seat in result.seats] == [3, 1, 1]
    assert result.to_json()["started"] == "1970-01-01T00:00:00Z"
    assert result.to_json()["ended"] == "1970-01-01T00:01:00Z"

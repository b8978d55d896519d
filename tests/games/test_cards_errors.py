"""Every refusal of ``mandala replay`` and ``mandala score`` for the card game: exit 2, one
line on stderr naming the key or the action."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import SPEC_EXAMPLES, assert_cli_error, run_cli
from tests.games.cards_support import make_deck

COLOURS_TEXT = "red, orange, yellow, green, purple, black"
DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["red", "red", "yellow", "purple", "black", "black"],
    bo=["purple", "purple", "purple", "purple", "orange", "red"],
)


def replay_json(record: Any) -> Any:
    return run_cli(["replay", "-"], stdin=json.dumps(record))


def play_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"game": "cards", "seats": ["Ann", "Bo"], "deck": DECK, "actions": []}
    record.update(changes)
    return {key: value for key, value in record.items() if value is not None}


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return record


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seats": None}, "seats: missing key"),
        ({"seats": ["Ann", "Bo", "Cy"]}, "seats: the card game has 2 seats, got 3"),
        ({"seats": ["Ann", "Ann"]}, "seats[1]: 'Ann' is already the first seat's name"),
        ({"seats": ["Ann", " "]}, "seats[1]: a seat needs a name"),
        ({"seats": ["Ann", 7]}, "seats[1]: expected a string, got a number"),
        ({"deck": DECK[:107]}, "deck: 107 cards, expected 108"),
        ({"deck": ["red", *DECK[:107]]}, "deck: 19 red, expected 18 of each colour"),
        ({"deck": [*DECK[:5], "pink", *DECK[6:]]}, f"deck[5]: 'pink' is not one of {COLOURS_TEXT}"),
        ({"deck": None}, "deck: missing key"),
        ({"deck": "shuffled"}, "deck: expected a list, got a string"),
        ({"mode": "solo"}, "mode: 'solo' is not one of play, table"),
        ({"mode": "table"}, "deck: a table record (mode 'table') has no deck"),
        (
            {"mode": "table", "deck": None, "reshuffles": []},
            "reshuffles: a table record (mode 'table') has no reshuffles",
        ),
        ({"reshuffles": 3}, "reshuffles: expected a list, got a number"),
        (
            {"reshuffles": [["red", "pink"]]},
            f"reshuffles[0][1]: 'pink' is not one of {COLOURS_TEXT}",
        ),
        ({"seed": "lucky"}, "seed: expected a whole number, got a string"),
        ({"extra": 1}, "extra: unknown key"),
        ({"actions": {"mountain": 0}}, "actions: expected a list, got an object"),
        ({"actions": None}, "actions: missing key"),
    ],
)
def test_malformed_record_is_refused_naming_the_key(changes: dict[str, Any], message: str) -> None:
    result = replay_json(play_record(**changes))
    assert_cli_error(result, message)
    assert result.stderr == f"mandala: {message}\n"


def test_a_record_that_is_not_an_object_is_refused() -> None:
    assert_cli_error(replay_json(["cards"]), "mandala: record: expected an object, got a list")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (5, "action 1: action: expected an object, got a number"),
        (
            {"mountain": 0, "field": 0, "colour": "red"},
            "action 1: action: expected exactly one of the keys mountain, field, discard, claim, "
            "deal, cup",
        ),
        ({"colour": "red"}, "action 1: action: expected exactly one of the keys"),
        ({"mountain": 0, "colour": "red", "count": 1}, "action 1: action.count: unknown key"),
        ({"mountain": 0}, "action 1: action.colour: missing key"),
        ({"field": 0, "colour": "red"}, "action 1: action.count: missing key"),
        ({"mountain": 2, "colour": "red"}, "action 1: mountain: 2 is out of 0..1"),
        ({"field": -1, "colour": "black", "count": 1}, "action 1: field: -1 is out of 0..1"),
        ({"field": 1, "colour": "black", "count": 0}, "action 1: count: 0 is out of 1..108"),
        (
            {"discard": "red", "count": "2"},
            "action 1: count: expected a whole number, got a string",
        ),
        (
            {"discard": "red", "count": 1.5},
            "action 1: count: expected a whole number, got a number",
        ),
        (
            {"discard": "red", "count": True},
            "action 1: count: expected a whole number, got a boolean",
        ),
        (
            {"mountain": 0, "colour": "pink"},
            f"action 1: colour: 'pink' is not one of {COLOURS_TEXT}",
        ),
        ({"claim": 3}, "action 1: claim: expected a string, got a number"),
        (
            {"deal": 0, "colours": ["red", "red"]},
            "action 1: deal: a deal entry is only for tracking a real table",
        ),
        (
            {"cup": "Ann", "colours": ["red", "red"]},
            "action 1: cup: a cup entry is only for tracking a real table",
        ),
    ],
)
def test_malformed_action_is_refused_naming_the_action(action: Any, message: str) -> None:
    result = replay_json(play_record(actions=[action]))
    assert_cli_error(result, message)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (
            [{"field": 0, "colour": "red", "count": 1}],
            "action 1: Ann cannot play red into field 0: red is in mountain 0",
        ),
        (
            [{"mountain": 0, "colour": "orange"}],
            "action 1: Ann cannot play orange into mountain 0: Ann holds no orange",
        ),
        (
            [{"discard": "black", "count": 3}],
            "action 1: Ann cannot discard 3 black: Ann holds only 2 black",
        ),
        ([{"claim": "red"}], "action 1: a claim when no destruction is under way"),
        (
            [{"field": 1, "colour": "black", "count": 2}, {"mountain": 0, "colour": "black"}],
            "action 2: Bo cannot play black into mountain 0: Bo holds no black",
        ),
        (
            [
                {"field": 1, "colour": "black", "count": 2},
                {"mountain": 1, "colour": "red"},
                {"mountain": 1, "colour": "black"},
            ],
            "action 3: Ann cannot play black into mountain 1: black is in a field of mandala 1",
        ),
    ],
)
def test_illegal_action_is_refused_naming_the_action(actions: list[Any], message: str) -> None:
    assert_cli_error(replay_json(play_record(actions=actions)), message)


def test_an_action_after_the_end_is_refused() -> None:
    record = example("cards-07-sixth-river-colour-ends")
    record["actions"].append({"discard": "red", "count": 1})
    assert_cli_error(replay_json(record), "action 19: the game is over")


def test_a_missing_reshuffle_is_an_error_of_the_action_that_needs_it() -> None:
    record = example("cards-08-reshuffle-then-next-destruction-ends")
    del record["reshuffles"]
    assert_cli_error(replay_json(record), "action 19: reshuffles[0]: missing: the deck is empty")


def test_a_wrong_reshuffle_is_an_error_of_the_action_that_needs_it() -> None:
    record = example("cards-08-reshuffle-then-next-destruction-ends")
    record["reshuffles"][0][0] = "purple" if record["reshuffles"][0][0] != "purple" else "red"
    assert_cli_error(
        replay_json(record), "action 19: reshuffles[0]: not a shuffle of the discard pile"
    )


def test_unused_reshuffle_lists_are_ignored() -> None:
    record = example("cards-08-reshuffle-then-next-destruction-ends")
    record["reshuffles"].append(["red"])
    result = replay_json(record)
    assert result.status == 0
    assert result.json()["over"] is True  # type: ignore[index]


def test_table_entry_errors_name_the_action() -> None:
    record = {
        "game": "cards",
        "mode": "table",
        "seats": ["Ann", "Bo"],
        "actions": [{"mountain": 0, "colour": "red"}],
    }
    assert_cli_error(
        replay_json(record), "action 1: a mountain play while the deal for mountain 0 is due"
    )
    record["actions"] = [{"deal": 0, "colours": ["red", "pink"]}]
    assert_cli_error(
        replay_json(record), f"action 1: colours[1]: 'pink' is not one of {COLOURS_TEXT}"
    )
    record["actions"] = [
        {"deal": 0, "colours": ["red", "red"]},
        {"deal": 1, "colours": ["red", "red"]},
        {"cup": "Cy", "colours": ["red", "red"]},
    ]
    assert_cli_error(replay_json(record), "action 3: cup: 'Cy' is not one of Ann, Bo")


# ---------------------------------------------------------------------------------------
# mandala score

GOOD_SHEET: dict[str, Any] = {
    "game": "cards",
    "sheet": {
        "Ann": {
            "river": ["red", "green", "black"],
            "cup": {"red": 4, "green": 2, "black": 1, "yellow": 1},
        },
        "Bo": {"river": ["orange"], "cup": {"orange": 9}},
    },
}


def score_json(sheet: Any) -> Any:
    return run_cli(["score", "-"], stdin=json.dumps(sheet))


def test_the_sheet_of_section_9_scores_11_to_9() -> None:
    result = score_json(GOOD_SHEET)
    assert result.status == 0
    assert result.json() == {"scores": {"Ann": 11, "Bo": 9}, "winner": "Ann"}


def sheet_with(seat: str, **entry: Any) -> dict[str, Any]:
    sheet = json.loads(json.dumps(GOOD_SHEET))
    sheet["sheet"][seat] = {**sheet["sheet"][seat], **entry}
    return sheet  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (
            sheet_with("Ann", river=["red", "orange", "yellow", "green", "purple", "black", "red"]),
            "sheet.Ann.river: 7 colours; a river has at most 6",
        ),
        (
            sheet_with("Ann", river=["red", "red"]),
            "sheet.Ann.river[1]: 'red' is already in the river",
        ),
        (
            sheet_with("Bo", river=["pink"]),
            f"sheet.Bo.river[0]: 'pink' is not one of {COLOURS_TEXT}",
        ),
        (sheet_with("Bo", river="red"), "sheet.Bo.river: expected a list, got a string"),
        (
            sheet_with("Bo", cup={"pink": 1}),
            f"sheet.Bo.cup.pink: 'pink' is not one of {COLOURS_TEXT}",
        ),
        (
            sheet_with("Bo", cup={"red": -1}),
            "sheet.Bo.cup.red: -1 is negative; counts are whole numbers >= 0",
        ),
        (
            sheet_with("Bo", cup={"red": 1.5}),
            "sheet.Bo.cup.red: expected a whole number, got a number",
        ),
        (
            sheet_with("Bo", cup={"red": "2"}),
            "sheet.Bo.cup.red: expected a whole number, got a string",
        ),
        (sheet_with("Bo", cup=[1]), "sheet.Bo.cup: expected an object, got a list"),
        (sheet_with("Ann", score=3), "sheet.Ann.score: unknown key"),
        (
            {"game": "cards", "sheet": {"Ann": {"river": []}, "Bo": {"river": [], "cup": {}}}},
            "sheet.Ann.cup: missing key",
        ),
        (
            {"game": "cards", "sheet": {"Ann": [], "Bo": {"river": [], "cup": {}}}},
            "sheet.Ann: expected an object, got a list",
        ),
        (
            {"game": "cards", "sheet": {"Ann": {"river": [], "cup": {}}}},
            "sheet: the card game has 2 seats, got 1",
        ),
        ({"game": "rings", "sheet": GOOD_SHEET["sheet"]}, "game: 'rings' is not 'cards'"),
        ({"game": "cards"}, "sheet: missing key"),
        ({"sheet": GOOD_SHEET["sheet"]}, "game: missing key"),
        ({**GOOD_SHEET, "extra": 1}, "extra: unknown key"),
        ([], "sheet file: expected an object, got a list"),
    ],
)
def test_malformed_sheet_is_refused_naming_the_key(sheet: Any, message: str) -> None:
    result = score_json(sheet)
    assert_cli_error(result, message)
    assert result.stderr == f"mandala: {message}\n"


def test_zero_counts_are_allowed_on_a_sheet() -> None:
    sheet = sheet_with("Bo", cup={"orange": 9, "red": 0})
    assert score_json(sheet).json() == {"scores": {"Ann": 11, "Bo": 9}, "winner": "Ann"}


def test_a_sheet_file_that_is_not_json_is_refused() -> None:
    result = run_cli(["score", "-"], stdin="{not json")
    assert_cli_error(result, "mandala: stdin: not JSON: line 1 column 2")

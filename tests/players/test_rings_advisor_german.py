"""The advisor's line saying what a set does is a phrase: the hints read in German on a German
page, while the option's English ``text`` stays word for word what it was
(tests/players/test_rings_advisor.py)."""

from __future__ import annotations

from companion import catalogue
from companion.games import rings
from companion.phrases import Phrase
from companion.players import rings as players
from tests.games.rings_helpers import board_json, dice, position


def german(phrase: Phrase | None) -> str:
    assert phrase is not None
    return catalogue.render(phrase, "de")


def test_a_snipe_and_a_move_read_in_german() -> None:
    board = board_json(coloured=[(2, s) for s in range(8)])
    ann = [(0, 0, 7)] + [(0, 1, s) for s in range(1, 6)]
    cy = [(2, r, s) for r in (3, 4) for s in range(3)]
    state = position(
        board,
        [("Ann", 0), ("Bo", 1), ("Cy", 2)],
        [*ann, (1, 1, 6), *cy],
        waiting=[[0], [5], [0]],
        scores=[0, 0, 3],
    )
    first = players.rank(state, dice(red=1))[0]
    assert first.does is not None
    assert first.text == f"ring 0 -1: {first.does.english()}"
    assert german(first.does) == (
        "Ann versetzt den Stift auf Speiche 6 von Ring 0 auf Ring 1, "
        "wirft Bo auf Ring 1, Speiche 6 raus"
    )


def test_entries_and_no_move_read_in_german() -> None:
    start = rings.new_game(
        {
            "board": board_json(),
            "variant": "standard",
            "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
        }
    )
    outcome = rings.resolve(start, rings.Turn(dice(), ()))
    assert german(players.outcome_phrase(start, outcome)) == (
        "Ann versetzt den Stift auf Speiche 0 von Ring 0 auf Ring 9, setzt einen Stift ein"
    )
    blocked = position(
        board_json(coloured=[(1, 4)]),
        [("Ann", 0), ("Bo", 2)],
        [(0, 9, 0), (0, 0, 0), (1, 0, 4)],
        waiting=[[4], [5]],
        scores=[0, 0],
        to_move=1,
    )
    nothing = rings.resolve(blocked, rings.Turn(dice(), ()))
    assert german(players.outcome_phrase(blocked, nothing)) == "Bo: kein Stift bewegt sich"
    two = Phrase(
        "enters {number} peg", {"number": players.NUMBER_PHRASES[2]}, "enters {number} pegs", 2
    )
    assert german(two) == "setzt zwei Stifte ein"

"""The inverse the sensors need (explain), legal sets, preview, table words, state JSON."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import rings
from companion.games.base import IllegalAction, RecordError
from tests.games.rings_helpers import (
    ANN_BO,
    ZERO,
    board_json,
    dice,
    position,
    reference_game,
    sensed,
    turn,
)


def test_explain_finds_the_rotation_set_of_the_spec_example_turn() -> None:
    rolled = {"red": 1, "blue": 2, "green": 0, "yellow": 3, "brown": 1}
    found = rings.explain(reference_game(), rolled, sensed(r5=1, r1=14, r3=3, r9=15))
    assert found.reason is None
    assert found.rotations == (
        rings.Rotation(1, -2),
        rings.Rotation(3, 3),
        rings.Rotation(5, 1),
        rings.Rotation(9, -1),
    )
    assert {c: s.status for c, s in found.dice.items()} == {
        "red": "used",
        "blue": "used",
        "green": "used",
        "yellow": "used",
        "brown": "used",
    }
    assert found.dice["blue"].reason == "ring 1 (blue) turned 2 counter-clockwise"
    assert found.dice["green"].reason == "the green die shows 0: no green ring turns"
    assert found.rings == {}


def test_explain_a_die_with_no_ring_turned() -> None:
    found = rings.explain(reference_game(), dice(blue=3), sensed())
    assert found.rotations is None
    assert found.reason == "the blue die shows 3 but no blue ring turned"
    assert found.dice["blue"] == rings.DieStatus(
        "unused", "the blue die shows 3 but no blue ring turned"
    )


def test_explain_a_ring_turned_further_than_its_die() -> None:
    found = rings.explain(reference_game(), dice(brown=1), sensed(r4=2))
    assert found.rotations is None
    assert found.reason == "ring 4 (brown) turned 2 but the brown die shows 1"
    assert found.dice["brown"].status == "wrong"
    assert found.rings == {4: "ring 4 is 2 slots clockwise of where the game has it"}


def test_explain_both_rings_of_one_colour_turned() -> None:
    found = rings.explain(reference_game(), dice(red=1), sensed(r0=1, r5=15))
    assert found.reason == "both red rings turned"
    assert found.rings == {
        0: "ring 0 is 1 slot clockwise of where the game has it",
        5: "ring 5 is 1 slot counter-clockwise of where the game has it",
    }


def test_explain_a_ring_turned_for_a_die_showing_zero() -> None:
    found = rings.explain(reference_game(), dice(), sensed(r2=1))
    assert found.reason == "the green die shows 0 but ring 2 (green) turned"
    assert found.dice["green"].status == "wrong"


def test_explain_counts_from_the_games_offsets_across_the_wrap() -> None:
    state = rings.apply(reference_game(), turn(dice(red=1), (0, -1)))  # ring 0 at 15
    found = rings.explain(state, dice(red=2), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    assert found.rotations == (rings.Rotation(0, 2),)
    wrong = rings.explain(state, dice(red=2), [14] + [0] * 9)
    assert wrong.reason == "ring 0 (red) turned -1 but the red die shows 2"
    assert wrong.rings == {0: "ring 0 is 1 slot counter-clockwise of where the game has it"}


def test_explain_the_first_reason_goes_colour_by_colour() -> None:
    found = rings.explain(reference_game(), dice(red=1, brown=1), sensed(r9=3))
    assert found.reason == "the red die shows 1 but no red ring turned"
    assert found.dice["brown"].status == "wrong"


def solo_late() -> rings.State:
    pegs = [(0, 6, 0), (0, 7, 0), (0, 8, 0), (0, 9, 0), (0, 6, 4), (0, 7, 4)]
    return position(board_json(entrances=[1]), (("Ann", 0),), pegs, [[0, 0]], [0], "solo")


def test_explain_void_and_locked_in_solo() -> None:
    state = solo_late()
    found = rings.explain(state, dice(red=1, blue=1), sensed(r6=1))
    assert found.rotations == (rings.Rotation(6, 1),)
    assert found.dice["red"] == rings.DieStatus(
        "void", "the red die is void: both red rings are locked"
    )
    locked = rings.explain(state, dice(red=1, blue=1), sensed(r1=1))
    assert locked.reason == "ring 1 (blue) is locked"
    assert locked.rings == {1: "ring 1 is 1 slot clockwise of where the game has it"}


def test_explain_inverts_every_legal_set_of_a_roll() -> None:
    state = reference_game()
    rolled = {"red": 1, "blue": 2, "green": 3, "yellow": 1, "brown": 2}
    sets = rings.legal_rotation_sets(state, rolled)
    assert len(sets) == 4**5
    assert len(set(sets)) == len(sets)
    for rotations in sets:
        after = rings.apply(state, rings.Turn(rolled, rotations))
        assert rings.explain(state, rolled, after.offsets).rotations == rotations


def test_legal_sets_skip_zero_dice_and_are_empty_once_over() -> None:
    state = reference_game()
    assert rings.legal_rotation_sets(state, dice()) == [()]
    assert rings.legal_rotation_sets(state, dice(green=2)) == [
        (rings.Rotation(2, 2),),
        (rings.Rotation(2, -2),),
        (rings.Rotation(7, 2),),
        (rings.Rotation(7, -2),),
    ]
    over = rings.apply(
        position(board_json(entrances=[1]), (("Ann", 0),), [(0, 9, 1)], [[0, 0]], [5], "solo"),
        turn(dict(ZERO)),
    )
    assert rings.legal_rotation_sets(over, dice(green=2)) == []


def test_legal_sets_refuse_dice_that_are_not_the_boards() -> None:
    with pytest.raises(IllegalAction, match="the red die shows 7, not a face"):
        rings.legal_rotation_sets(reference_game(), dice(red=7))
    with pytest.raises(RecordError, match="dice: expected exactly the colours"):
        rings.legal_rotation_sets(reference_game(), {"red": 1})


def test_outcomes_resolve_every_set_like_apply() -> None:
    state = rings.apply(reference_game(), turn(dice(red=1), (0, -1)))
    rolled = dice(blue=1, yellow=2)
    results = rings.outcomes(state, rolled)
    assert [r for r, _ in results] == rings.legal_rotation_sets(state, rolled)
    for rotations, outcome in results:
        assert outcome == rings.resolve(state, rings.Turn(rolled, rotations))


def test_preview_shows_the_advance_for_sensed_offsets() -> None:
    # rings-01's first turn, seen before it is confirmed: ring 0 at 15
    outcome = rings.preview(reference_game(), [15] + [0] * 9)
    assert [(e.kind, e.start, e.end) for e in outcome.events] == [("advance", (0, 1), (1, 1))]
    assert rings.summary(outcome.state)["pegs"] == [["Ann", 1, 1], ["Bo", 0, 9]]
    with pytest.raises(RecordError, match="offsets: expected 10 offsets, got 2"):
        rings.preview(reference_game(), [0, 0])


def test_describe_says_what_to_do_at_the_table() -> None:
    state = position(
        board_json(coloured=[(6, 0)], entrances=[1]),
        ANN_BO,
        pegs=[(0, 0, 0), (0, 9, 1), (1, 1, 0), (1, 0, 4)],
        waiting=[[4], [4]],
        scores=[0, 0],
    )
    outcome = rings.resolve(state, turn(dict(ZERO)))
    assert [p.english() for p in rings.describe_all(outcome)] == [
        "Ann's peg on ring 9, spoke 1 enters Central Control (1 point): back to Ann's base",
        "move Ann's peg on spoke 0 from ring 0 to ring 1",
        "Bo's peg on ring 1, spoke 0 is sniped: back to Bo's base",
        "move Ann's peg on spoke 0 from ring 1 to ring 5",
        "put a peg from Ann's base on ring 0, spoke 0",
    ]


def test_describe_names_the_corner_in_two_bases_and_the_end_of_solo() -> None:
    two = position(
        board_json(),
        (("Ann", 0), ("Bo", 1)),
        pegs=[(1, 0, 0), (1, 0, 2), (1, 0, 6)],
        waiting=[[3, 3], [2, 1]],
        scores=[5, 0],
        variant="two-bases",
    )
    assert [p.english() for p in rings.describe_all(rings.resolve(two, turn(dict(ZERO))))] == [
        "put a peg from Ann's base at corner 0 on ring 0, spoke 0",
        "Bo's peg on ring 0, spoke 0 is sniped: back to Bo's base at corner 3",
        "Ann wins with 6 points",
    ]
    solo = position(board_json(entrances=[1]), (("Ann", 0),), [(0, 9, 1)], [[0, 0]], [5], "solo")
    assert [p.english() for p in rings.describe_all(rings.resolve(solo, turn(dict(ZERO))))] == [
        "Ann's peg on ring 9, spoke 1 enters Central Control (1 point): it leaves the game",
        "Ann has brought all six pegs into Central Control",
    ]


def test_open_paths_follow_the_offsets() -> None:
    state = reference_game()
    assert rings.open_paths(state) == [2, 6, 10, 14]
    # ring 0 +1: spokes 2, 6 and 14 now show ring 0's slots 1, 5 and 13 (coloured);
    # spoke 10 shows slot 9 (black)
    turned = rings.apply(state, turn(dice(red=1), (0, 1)))
    assert rings.open_paths(turned) == [10]


def test_roll_gives_five_dice_from_the_boards_faces() -> None:
    board = rings.load_board("reference")
    rolled = rings.roll(random.Random(4), board)
    assert list(rolled) == list(rings.COLOURS)
    assert all(value in board.dice for value in rolled.values())
    only_two = rings.parse_board(board_json(dice=[2]))
    assert rings.roll(random.Random(1), only_two) == dice(red=2, blue=2, green=2, yellow=2, brown=2)


def test_a_turn_round_trips_through_its_record_form() -> None:
    state = reference_game()
    played = turn(dice(red=1, yellow=3), (0, -1), (8, 3))
    assert rings.parse_action(state, rings.action_to_json(played)) == played


def test_state_json_round_trips_through_text() -> None:
    state = rings.apply(reference_game(), turn(dice(red=1, blue=1), (0, -1), (1, 1)))
    state = rings.apply(state, turn(dice(red=1, blue=1), (5, 1), (6, -1)))
    text = json.dumps(rings.state_to_json(state))
    assert rings.state_from_json(json.loads(text)) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.pop("pegs"), "pegs: missing key"),
        (lambda s: s["pegs"].append([0, 5, 3]), "pegs: seat 'Ann' has 7 pegs in all, expected 6"),
        (lambda s: s["pegs"].append(list(s["pegs"][0])), "pegs[2]: ring 0 slot 2 holds two pegs"),
        (lambda s: s["pegs"].append([0, 5]), "pegs[2]: expected [seat, ring, slot], got 2 items"),
        (lambda s: s["offsets"].pop(), "offsets: expected 10 offsets, got 9"),
        (lambda s: s["offsets"].__setitem__(0, 16), "offsets[0]: 16 is out of 0..15"),
        (lambda s: s.update(to_move=None), "to_move: null exactly when there is a winner"),
        (lambda s: s.update(to_move=2), "to_move: 2 is out of 0..1"),
        (lambda s: s["waiting"][0].append(0), "waiting[0]: expected 1 bases, got 2"),
    ],
)
def test_a_bad_state_json_is_refused_by_key(change: object, message: str) -> None:
    obj = rings.state_to_json(reference_game())
    change(obj)  # type: ignore[operator]
    with pytest.raises(RecordError) as refused:
        rings.state_from_json(obj)
    assert str(refused.value) == message

"""Edges of the ring board's inputs: state JSON bounds, rings that do not exist, signed turns."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import rings
from companion.games.base import IllegalAction, RecordError
from tests.games.rings_helpers import (
    ANN_BO,
    board_json,
    dice,
    position,
    record,
    reference_game,
    turn,
)


@pytest.mark.parametrize(
    ("peg", "message"),
    [
        ([0, -1, 3], "pegs[2][1]: -1 is out of 0..9"),
        ([0, 10, 3], "pegs[2][1]: 10 is out of 0..9"),
        ([0, 11, 3], "pegs[2][1]: 11 is out of 0..9"),
        ([0, 5, 16], "pegs[2][2]: 16 is out of 0..15"),
        ([0, 5, -1], "pegs[2][2]: -1 is out of 0..15"),
        ([2, 5, 3], "pegs[2][0]: 2 is out of 0..1"),
        ([-1, 5, 3], "pegs[2][0]: -1 is out of 0..1"),
    ],
)
def test_a_state_json_with_a_peg_off_the_board_is_refused(peg: list[int], message: str) -> None:
    obj = rings.state_to_json(reference_game())
    assert len(obj["pegs"]) == 2  # one peg per seat on its corner
    obj["pegs"].append(peg)
    with pytest.raises(RecordError) as refused:
        rings.state_from_json(obj)
    assert str(refused.value) == message


@pytest.mark.parametrize(("ring", "slot"), [(0, 0), (9, 15), (9, 0), (0, 15)])
def test_a_state_json_peg_on_the_first_or_last_ring_and_slot_is_accepted(
    ring: int, slot: int
) -> None:
    obj = rings.state_to_json(reference_game())
    seat = obj["pegs"][0][0]
    obj["pegs"][0] = [seat, ring, slot]
    other = tuple(obj["pegs"][1])
    assert set(rings.state_from_json(obj).pegs) == {(seat, ring, slot), other}


@pytest.mark.parametrize("ring", [-1, 10, 11])
def test_a_rotation_of_a_ring_that_does_not_exist_is_refused(ring: int) -> None:
    state = reference_game()
    played = turn(dice(red=1), (ring, 1))
    for gate in (rings.resolve, rings.apply):
        with pytest.raises(RecordError) as refused:
            gate(state, played)
        assert str(refused.value) == f"ring {ring} is out of 0..9"


@pytest.mark.parametrize("ring", [-1, 10])
def test_a_record_turning_a_ring_that_does_not_exist_is_refused_by_key(ring: int) -> None:
    state = reference_game()
    obj = {"dice": dice(red=1), "rotations": [{"ring": ring, "steps": 1}]}
    with pytest.raises(RecordError) as refused:
        rings.parse_action(state, obj)
    assert str(refused.value) == f"rotations[0].ring: {ring} is out of 0..9"


@given(
    spokes=st.sampled_from([8, 12, 16, 20, 32, 64]),
    data=st.data(),
)
def test_the_named_wrong_turn_is_the_shortest_signed_turn(spokes: int, data: st.DataObject) -> None:
    """``explain`` names a wrong turn as ``s`` with s = delta (mod spokes), |s| <= spokes / 2,
    half a turn counted clockwise (+)."""
    start = data.draw(st.integers(0, spokes - 1), label="start")
    value = data.draw(st.integers(1, spokes // 2), label="die")
    right = (value, spokes - value)
    delta = data.draw(st.integers(1, spokes - 1).filter(lambda d: d not in right), label="delta")
    board = board_json(spokes=spokes, dice=list(range(spokes // 2 + 1)))
    offsets = [0] * 10
    offsets[0] = start
    state = position(board, ANN_BO, [], [[6], [6]], [0, 0], offsets=offsets)
    sensed = list(offsets)
    sensed[0] = (start + delta) % spokes
    told = rings.explain(state, dice(red=value), sensed)
    reason = told.dice["red"].reason
    prefix, suffix = "ring 0 (red) turned ", f" but the red die shows {value}"
    assert reason.startswith(prefix) and reason.endswith(suffix), reason
    named = int(reason[len(prefix) : -len(suffix)])
    assert named % spokes == delta
    assert abs(named) <= spokes // 2
    if delta == spokes // 2:
        assert named == spokes // 2
    way = "clockwise" if named > 0 else "counter-clockwise"
    count = abs(named)
    assert told.rings[0] == (
        f"ring 0 is {count} slot{'s' if count != 1 else ''} {way} of where the game has it"
    )


def test_a_wrong_turn_is_named_the_short_way_round_and_half_a_turn_clockwise() -> None:
    state = reference_game()
    for turned, named in ((6, "6"), (10, "-6"), (8, "8"), (9, "-7")):
        sensed = [turned] + [0] * 9
        reason = rings.explain(state, dice(red=1), sensed).dice["red"].reason
        assert reason == f"ring 0 (red) turned {named} but the red die shows 1"


@pytest.mark.parametrize(
    ("variant", "count", "message"),
    [
        ("standard", 1, "seats: the standard variant takes 2 to 4 seats, got 1"),
        ("standard", 5, "seats: the standard variant takes 2 to 4 seats, got 5"),
        ("two-bases", 1, "seats: the two-bases variant takes 2 seats, got 1"),
        ("two-bases", 3, "seats: the two-bases variant takes 2 seats, got 3"),
        ("solo", 2, "seats: the solo variant takes 1 seat, got 2"),
        ("solo", 0, "seats: the solo variant takes 1 seat, got 0"),
    ],
)
def test_each_variant_takes_its_number_of_seats(variant: str, count: int, message: str) -> None:
    seats = [("Ann", 0), ("Bo", 1), ("Cy", 2), ("Di", 3), ("Ed", 0)][:count]
    with pytest.raises(RecordError) as refused:
        rings.new_game(record("reference", seats, variant=variant))
    assert str(refused.value) == message


@pytest.mark.parametrize(("variant", "count"), [("standard", 2), ("standard", 4), ("solo", 1)])
def test_each_variant_accepts_its_least_and_most_seats(variant: str, count: int) -> None:
    seats = [("Ann", 0), ("Bo", 1), ("Cy", 2), ("Di", 3)][:count]
    assert len(rings.new_game(record("reference", seats, variant=variant)).seats) == count


def test_a_blank_seat_colour_is_refused() -> None:
    obj = record("reference", ANN_BO)
    obj["seats"][1]["colour"] = " "
    with pytest.raises(RecordError) as refused:
        rings.new_game(obj)
    assert str(refused.value) == "seats[1].colour: expected a non-empty string, got ' '"


def test_a_die_value_that_is_not_a_number_is_quoted_in_the_refusal() -> None:
    state = reference_game()
    rolled = {**dice(), "red": "1"}
    with pytest.raises(IllegalAction) as refused:
        rings.explain(state, rolled, [0] * 10)
    assert str(refused.value) == (
        "the red die shows '1', not a face of this board's dice (0, 1, 2, 3)"
    )


def test_a_record_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError) as refused:
        rings.new_game([])  # type: ignore[arg-type]
    assert str(refused.value) == "record: expected an object, got a list"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["waiting"].append([1]), "waiting: expected 2 lists, got 3"),
        (lambda s: s["waiting"][0].__setitem__(0, -1), "waiting[0][0]: -1 is out of 0.."),
        (lambda s: s["scores"].append(0), "scores: expected 2 scores, got 3"),
        (lambda s: s["scores"].__setitem__(0, -1), "scores[0]: -1 is out of 0..6"),
        (lambda s: s["scores"].__setitem__(0, 7), "scores[0]: 7 is out of 0..6"),
        (lambda s: s.update(turns=-1), "turns: -1 is out of 0.."),
    ],
)
def test_a_state_json_with_counts_out_of_range_is_refused(change: object, message: str) -> None:
    obj = rings.state_to_json(reference_game())
    change(obj)  # type: ignore[operator]
    with pytest.raises(RecordError) as refused:
        rings.state_from_json(obj)
    assert str(refused.value).startswith(message), str(refused.value)


@pytest.mark.parametrize(
    ("gate", "message"),
    [
        (rings.state_from_json, "state: expected an object, got a list"),
        (rings.export_setup, "record: expected an object, got a list"),
    ],
)
def test_a_state_or_setup_that_is_not_an_object_is_refused(gate: object, message: str) -> None:
    with pytest.raises(RecordError) as refused:
        gate([])  # type: ignore[operator]
    assert str(refused.value) == message


def test_dice_with_a_colour_too_many_are_refused() -> None:
    state = reference_game()
    rolled = {**dice(red=1), "pink": 1}
    for check in (
        lambda: rings.apply(state, rings.Turn(rolled, (rings.Rotation(0, 1),))),
        lambda: rings.explain(state, rolled, [1] + [0] * 9),
        lambda: rings.legal_rotation_sets(state, rolled),
    ):
        with pytest.raises(RecordError) as refused:
            check()
        assert (
            str(refused.value)
            == "dice: expected exactly the colours red, blue, green, yellow, brown"
        )


def test_explain_names_the_first_ring_when_both_rings_of_a_zero_die_turned() -> None:
    state = reference_game()
    told = rings.explain(state, dice(), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    assert told.reason == "the red die shows 0 but ring 0 (red) turned"


def _two_seats() -> rings.State:
    seats = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}]
    return rings.new_game({"board": "reference", "variant": "standard", "seats": seats})


def test_dice_entered_on_their_own_are_read_colour_by_colour() -> None:
    roll = dict(zip(rings.COLOURS, [1, 2, 0, 1, 3], strict=True))
    assert rings.parse_dice(_two_seats(), roll) == roll


@pytest.mark.parametrize(
    ("roll", "error", "message"),
    [
        ({"red": 1, "blue": 1, "green": 1, "yellow": 1}, RecordError, "dice.brown: missing key"),
        (
            {"red": 1, "blue": 1, "green": 1, "yellow": 1, "brown": 7},
            IllegalAction,
            "the brown die shows 7, not a face of this board's dice (0, 1, 2, 3)",
        ),
    ],
)
def test_dice_entered_on_their_own_are_checked_as_a_turns_dice_are(
    roll: dict[str, int], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        rings.parse_dice(_two_seats(), roll)
    assert str(caught.value) == message

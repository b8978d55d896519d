"""Each rule of rings.md section 3, on small boards, against summaries worked out by hand.

Boards have 8 spokes and corners [0, 2, 4, 6]; with Ann at corner 0 and Bo at corner 2 they
enter pegs on spokes 0 and 4. Positions are placed by hand as (seat, ring, spoke).
"""

from __future__ import annotations

import pytest

from companion.games import rings
from companion.games.base import IllegalAction, replay
from tests.games.rings_helpers import (
    ZERO,
    board_json,
    dice,
    position,
    record,
    turn,
    zero_turn,
)

ANN_BO = (("Ann", 0), ("Bo", 2))


def after(state: rings.State, played: rings.Turn) -> dict[str, object]:
    return rings.summary(rings.apply(state, played))


def play(board: object, turns: list[dict[str, object]], seats=ANN_BO, variant="standard"):
    return rings.summary(replay(rings, record(board, seats, turns, variant)))


def test_pegs_ride_their_ring_when_it_turns() -> None:
    # Ring 1 is all coloured, so no peg leaves ring 0. Red 1 turns ring 0 clockwise: Ann's
    # peg (slot 0) rides to spoke 1, Bo's (slot 4) to spoke 5; the cell in front of Ann's
    # base is now slot 7, black and empty, so a peg enters there.
    board = board_json(coloured=[(1, s) for s in range(8)])
    turns = [{"dice": dice(red=1), "rotations": [{"ring": 0, "steps": 1}]}]
    assert play(board, turns) == {
        "game": "rings",
        "turns": 1,
        "to_move": "Bo",
        "over": False,
        "winner": None,
        "scores": {"Ann": 0, "Bo": 0},
        "offsets": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        "pegs": [["Ann", 0, 0], ["Ann", 0, 1], ["Bo", 0, 5]],
        "waiting": {"Ann": [4], "Bo": [5]},
    }


def test_a_peg_steps_inward_until_a_coloured_slot_stops_it() -> None:
    board = board_json(coloured=[(4, 0)])
    summary = play(board, [zero_turn()])
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 3, 0], ["Bo", 0, 4]]
    assert summary["waiting"] == {"Ann": [4], "Bo": [5]}


def test_a_peg_never_steps_onto_its_own_seats_peg() -> None:
    # Turn 1: Ann runs to (3, 0). Turn 2: Bo runs down spoke 4 to ring 9 (not an entrance).
    # Turn 3: Ann's (3, 0) is stuck; her (0, 0) stops on (2, 0) below her own peg.
    board = board_json(coloured=[(4, 0)])
    summary = play(board, [zero_turn(), zero_turn(), zero_turn()])
    assert summary["pegs"] == [
        ["Ann", 0, 0],
        ["Ann", 2, 0],
        ["Ann", 3, 0],
        ["Bo", 0, 4],
        ["Bo", 9, 4],
    ]
    assert summary["waiting"] == {"Ann": [3], "Bo": [4]}
    assert summary["to_move"] == "Bo"


def passing_over() -> rings.State:
    """Ann's peg on (0, 0) passes over Bo's pegs on (1, 0) and (3, 0)."""
    return position(
        board_json(coloured=[(6, 0)]),
        ANN_BO,
        pegs=[(0, 0, 0), (1, 1, 0), (1, 3, 0), (1, 0, 4)],
        waiting=[[5], [3]],
        scores=[0, 0],
    )


def entering_onto_bo() -> rings.State:
    """Ann's entry cell (0, 0) holds Bo's peg."""
    return position(
        board_json(coloured=[(1, 0)]),
        ANN_BO,
        pegs=[(1, 0, 0), (1, 0, 4)],
        waiting=[[6], [4]],
        scores=[0, 0],
    )


def test_opponent_pegs_never_block_and_each_one_passed_over_is_sniped() -> None:
    state = passing_over()
    outcome = rings.resolve(state, turn(dict(ZERO)))
    summary = rings.summary(outcome.state)
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 5, 0], ["Bo", 0, 4]]
    assert summary["scores"] == {"Ann": 2, "Bo": 0}
    assert summary["waiting"] == {"Ann": [4], "Bo": [5]}
    assert [(e.kind, e.seat, e.start, e.end) for e in outcome.events] == [
        ("advance", 0, (0, 0), (1, 0)),
        ("snipe", 1, None, (1, 0)),
        ("advance", 0, (1, 0), (3, 0)),
        ("snipe", 1, None, (3, 0)),
        ("advance", 0, (3, 0), (5, 0)),
        ("entry", 0, None, (0, 0)),
    ]


def test_the_peg_on_the_highest_ring_advances_first() -> None:
    # (9, 1) enters Central Control first, so (8, 1) can follow it in: 2 points. Lowest
    # first would have blocked (8, 1) behind Ann's own peg (1 point).
    state = position(
        board_json(entrances=[1]),
        ANN_BO,
        pegs=[(0, 8, 1), (0, 9, 1), (1, 0, 4)],
        waiting=[[4], [5]],
        scores=[0, 0],
    )
    summary = after(state, turn(dict(ZERO)))
    assert summary["scores"] == {"Ann": 2, "Bo": 0}
    assert summary["pegs"] == [["Ann", 0, 0], ["Bo", 0, 4]]
    assert summary["waiting"] == {"Ann": [5], "Bo": [5]}


def test_among_pegs_on_one_ring_the_lower_spoke_advances_first() -> None:
    # Ann has 5 points; her spoke-2 peg moves first, snipes Bo on (1, 2) for the sixth point
    # and the turn stops: her spoke-6 peg never reaches Bo's peg on (1, 6).
    state = position(
        board_json(entrances=[1]),
        ANN_BO,
        pegs=[(0, 0, 2), (0, 0, 6), (1, 1, 2), (1, 1, 6)],
        waiting=[[4], [4]],
        scores=[5, 0],
    )
    assert after(state, turn(dict(ZERO))) == {
        "game": "rings",
        "turns": 1,
        "to_move": None,
        "over": True,
        "winner": "Ann",
        "scores": {"Ann": 6, "Bo": 0},
        "offsets": [0] * 10,
        "pegs": [["Ann", 0, 6], ["Ann", 1, 2], ["Bo", 1, 6]],
        "waiting": {"Ann": [4], "Bo": [5]},
    }


def test_a_ring_9_peg_enters_central_control_only_from_an_entrance_spoke() -> None:
    state = position(
        board_json(entrances=[1]),
        ANN_BO,
        pegs=[(0, 9, 0), (0, 9, 1), (1, 0, 4)],
        waiting=[[4], [5]],
        scores=[0, 0],
    )
    summary = after(state, turn(dict(ZERO)))
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 9, 0], ["Bo", 0, 4]]
    assert summary["scores"] == {"Ann": 1, "Bo": 0}
    # the peg from the centre waited at the base (5) before the entry took one (4)
    assert summary["waiting"] == {"Ann": [4], "Bo": [5]}


def test_the_entry_places_a_waiting_peg_that_does_not_advance_this_turn() -> None:
    # All black, no entrance on spoke 0: Ann's first peg runs to (9, 0); the entered peg
    # stays on the outer cell.
    summary = play(board_json(entrances=[1]), [zero_turn()])
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 9, 0], ["Bo", 0, 4]]
    assert summary["waiting"] == {"Ann": [4], "Bo": [5]}


def test_no_entry_when_the_outer_cell_is_coloured() -> None:
    # Red 1 turns ring 0 clockwise: the cell in front of Ann's base is slot 7, coloured.
    board = board_json(coloured=[(0, 7), (1, 1)])
    turns = [{"dice": dice(red=1), "rotations": [{"ring": 0, "steps": 1}]}]
    summary = play(board, turns)
    assert summary["pegs"] == [["Ann", 0, 1], ["Bo", 0, 5]]
    assert summary["waiting"] == {"Ann": [5], "Bo": [5]}


def test_no_entry_when_the_movers_own_peg_is_on_the_outer_cell() -> None:
    summary = play(board_json(coloured=[(1, 0)]), [zero_turn()])
    assert summary["pegs"] == [["Ann", 0, 0], ["Bo", 0, 4]]
    assert summary["waiting"] == {"Ann": [5], "Bo": [5]}


def test_the_entry_snipes_an_opponent_peg_on_the_outer_cell() -> None:
    state = entering_onto_bo()
    outcome = rings.resolve(state, turn(dict(ZERO)))
    summary = rings.summary(outcome.state)
    assert summary["pegs"] == [["Ann", 0, 0], ["Bo", 0, 4]]
    assert summary["scores"] == {"Ann": 1, "Bo": 0}
    assert summary["waiting"] == {"Ann": [5], "Bo": [5]}
    assert [e.kind for e in outcome.events] == ["entry", "snipe"]


def test_a_snipe_on_entry_that_brings_the_sixth_point_ends_the_turn_at_once() -> None:
    # two-bases: Ann (corners 0 and 2) has 5 points; her corner-0 entry snipes Bo on (0, 0):
    # 6 points, so her corner-2 base does not enter. Bo's peg goes to his base with fewer
    # waiting (corner 3: [2, 1] -> [2, 2]).
    state = position(
        board_json(),
        (("Ann", 0), ("Bo", 1)),
        pegs=[(1, 0, 0), (1, 0, 2), (1, 0, 6)],
        waiting=[[3, 3], [2, 1]],
        scores=[5, 0],
        variant="two-bases",
    )
    outcome = rings.resolve(state, turn(dict(ZERO)))
    assert rings.summary(outcome.state) == {
        "game": "rings",
        "turns": 1,
        "to_move": None,
        "over": True,
        "winner": "Ann",
        "scores": {"Ann": 6, "Bo": 0},
        "offsets": [0] * 10,
        "pegs": [["Ann", 0, 0], ["Bo", 0, 2], ["Bo", 0, 6]],
        "waiting": {"Ann": [2, 3], "Bo": [2, 2]},
    }
    assert [(e.kind, e.base) for e in outcome.events] == [
        ("entry", 0),
        ("snipe", 3),
        ("win", None),
    ]


def test_a_centre_entry_that_wins_leaves_the_peg_waiting_and_stops_the_turn() -> None:
    state = position(
        board_json(entrances=[1]),
        ANN_BO,
        pegs=[(0, 9, 1), (0, 5, 3), (1, 0, 4)],
        waiting=[[4], [5]],
        scores=[5, 0],
    )
    summary = after(state, turn(dict(ZERO)))
    assert summary["over"] is True
    assert summary["winner"] == "Ann"
    assert summary["to_move"] is None
    assert summary["pegs"] == [["Ann", 5, 3], ["Bo", 0, 4]]  # (5, 3) did not move, no entry
    assert summary["waiting"] == {"Ann": [5], "Bo": [5]}


def test_two_bases_a_peg_back_from_the_centre_goes_to_the_base_with_fewer_waiting() -> None:
    state = position(
        board_json(coloured=[(1, 0), (1, 4)], entrances=[1]),
        (("Ann", 0), ("Bo", 1)),
        pegs=[(0, 0, 0), (0, 0, 4), (0, 9, 1), (1, 0, 2), (1, 0, 6)],
        waiting=[[1, 2], [2, 2]],
        scores=[0, 0],
        variant="two-bases",
    )
    summary = after(state, turn(dict(ZERO)))
    assert summary["waiting"] == {"Ann": [2, 2], "Bo": [2, 2]}
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 0, 4], ["Bo", 0, 2], ["Bo", 0, 6]]
    assert summary["scores"] == {"Ann": 1, "Bo": 0}


def test_two_bases_on_a_tie_a_returning_peg_goes_to_the_seats_own_corner() -> None:
    # Ann's own corner is 2 here, so her bases are [corner 2, corner 0]: the tie goes to 2.
    state = position(
        board_json(coloured=[(1, 0), (1, 4)], entrances=[1]),
        (("Ann", 2), ("Bo", 1)),
        pegs=[(0, 0, 0), (0, 0, 4), (0, 9, 1), (0, 5, 5), (1, 0, 2), (1, 0, 6)],
        waiting=[[1, 1], [2, 2]],
        scores=[0, 0],
        variant="two-bases",
    )
    outcome = rings.resolve(state, turn(dict(ZERO)))
    summary = rings.summary(outcome.state)
    assert summary["waiting"] == {"Ann": [2, 1], "Bo": [2, 2]}
    assert summary["pegs"][:3] == [["Ann", 0, 0], ["Ann", 0, 4], ["Ann", 9, 5]]
    assert [(e.kind, e.base) for e in outcome.events][:1] == [("centre", 2)]


def test_solo_a_ring_is_locked_once_no_peg_waits_and_every_peg_has_passed_it() -> None:
    board = board_json(entrances=[1])
    pegs = [(0, 3, 0), (0, 5, 4), (0, 9, 2), (0, 7, 7), (0, 8, 3), (0, 4, 1)]
    state = position(board, (("Ann", 0),), pegs, [[0, 0]], [0], variant="solo")
    assert rings.locked_rings(state) == frozenset({0, 1, 2})
    waiting = position(board, (("Ann", 0),), pegs[1:], [[1, 0]], [0], variant="solo")
    assert rings.locked_rings(waiting) == frozenset()


def test_locked_rings_are_a_solo_rule_only() -> None:
    state = position(
        board_json(),
        ANN_BO,
        pegs=[(0, 5, 0), (1, 6, 4)],
        waiting=[[5], [5]],
        scores=[0, 0],
    )
    assert rings.locked_rings(state) == frozenset()


SOLO_PEGS = [(0, 6, 0), (0, 7, 0), (0, 8, 0), (0, 9, 0), (0, 6, 4), (0, 7, 4)]


def solo_late() -> rings.State:
    return position(board_json(entrances=[1]), (("Ann", 0),), SOLO_PEGS, [[0, 0]], [0], "solo")


def test_solo_a_die_whose_two_rings_are_locked_is_void_and_the_other_ring_must_turn() -> None:
    state = solo_late()  # rings 0-5 locked: red (0, 5) void, blue only on ring 6
    assert rings.legal_rotation_sets(state, dice(red=1, blue=1)) == [
        (rings.Rotation(6, 1),),
        (rings.Rotation(6, -1),),
    ]
    # Ring 6 turns +1: its pegs ride to spokes 1 and 5. Ring 9 first: (9, 0) stops (no
    # entrance); (8, 0) and (7, 0) are blocked by Ann's own pegs; (7, 4) runs to (9, 4);
    # (6, 1) runs to (9, 1) and enters (it leaves the game); (6, 5) runs to (9, 5).
    assert after(state, turn(dice(red=1, blue=1), (6, 1))) == {
        "game": "rings",
        "turns": 1,
        "to_move": "Ann",
        "over": False,
        "winner": None,
        "scores": {"Ann": 1},
        "offsets": [0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
        "pegs": [["Ann", 7, 0], ["Ann", 8, 0], ["Ann", 9, 0], ["Ann", 9, 4], ["Ann", 9, 5]],
        "waiting": {"Ann": [0, 0]},
    }


def test_solo_a_locked_ring_may_not_turn() -> None:
    with pytest.raises(IllegalAction, match=r"^ring 1 \(blue\) is locked$"):
        rings.apply(solo_late(), turn(dice(red=1, blue=1), (1, 1)))


def test_solo_an_unlocked_ring_must_still_take_its_die() -> None:
    with pytest.raises(IllegalAction, match=r"^the blue die shows 1 but no blue ring turned$"):
        rings.apply(solo_late(), turn(dice(red=1, blue=1)))


def test_solo_ends_when_the_sixth_peg_enters_and_the_peg_leaves_the_game() -> None:
    state = position(board_json(entrances=[1]), (("Ann", 0),), [(0, 9, 1)], [[0, 0]], [5], "solo")
    assert after(state, turn(dict(ZERO))) == {
        "game": "rings",
        "turns": 1,
        "to_move": None,
        "over": True,
        "winner": "Ann",
        "scores": {"Ann": 6},
        "offsets": [0] * 10,
        "pegs": [],
        "waiting": {"Ann": [0, 0]},
    }


def test_solo_setup_puts_a_peg_at_each_base_and_two_waiting() -> None:
    summary = play(board_json(), [], seats=(("Ann", 1),), variant="solo")
    assert summary["pegs"] == [["Ann", 0, 2], ["Ann", 0, 6]]
    assert summary["waiting"] == {"Ann": [2, 2]}
    assert summary["to_move"] == "Ann"


def test_two_bases_setup_puts_a_peg_at_each_base_and_two_waiting_at_each() -> None:
    summary = play(board_json(), [], seats=(("Ann", 0), ("Bo", 3)), variant="two-bases")
    assert summary["pegs"] == [["Ann", 0, 0], ["Ann", 0, 4], ["Bo", 0, 2], ["Bo", 0, 6]]
    assert summary["waiting"] == {"Ann": [2, 2], "Bo": [2, 2]}


def test_seats_move_in_the_order_they_are_listed() -> None:
    summary = play(board_json(entrances=[1]), [zero_turn()], seats=(("Bo", 2), ("Ann", 0)))
    assert summary["to_move"] == "Ann"
    assert summary["pegs"] == [["Bo", 0, 4], ["Bo", 9, 4], ["Ann", 0, 0]]
    assert summary["waiting"] == {"Bo": [4], "Ann": [5]}


def test_the_turn_that_ends_the_game_counts_and_no_turn_may_follow() -> None:
    state = position(board_json(entrances=[1]), (("Ann", 0),), [(0, 9, 1)], [[0, 0]], [5], "solo")
    over = rings.apply(state, turn(dict(ZERO)))
    assert over.turns == 1
    with pytest.raises(IllegalAction, match=r"^the game is over$"):
        rings.apply(over, turn(dict(ZERO)))


def test_rotations_commute() -> None:
    state = rings.new_game(record("reference", ANN_BO))
    rolled = dice(red=1, blue=2, yellow=3, brown=1)
    one = rings.apply(state, turn(rolled, (5, 1), (1, -2), (3, 3), (9, -1)))
    other = rings.apply(state, turn(rolled, (9, -1), (3, 3), (5, 1), (1, -2)))
    assert one == other
    assert one.offsets == (0, 14, 0, 3, 0, 1, 0, 0, 0, 15)


def test_a_die_showing_half_the_board_may_turn_either_way() -> None:
    state = rings.new_game(record(board_json(dice=[0, 4]), ANN_BO))
    rolled = dice(red=4)
    assert rings.apply(state, turn(rolled, (0, 4))).offsets[0] == 4
    assert rings.apply(state, turn(rolled, (0, -4))).offsets[0] == 4
    assert len(rings.legal_rotation_sets(state, rolled)) == 4


@pytest.mark.parametrize(
    ("rolled", "rotations", "reason"),
    [
        (dice(red=5), [(0, 5)], "the red die shows 5, not a face of this board's dice (0, 1, 2)"),
        (dice(red=1), [(0, 1), (0, -1)], "ring 0 (red) turned twice"),
        (dice(blue=1), [(1, 1), (2, 0)], "the green die shows 0 but ring 2 (green) turned"),
        (dice(yellow=2), [(3, 10)], "ring 3 (yellow) turned 10 but the yellow die shows 2"),
        (dice(yellow=2), [(3, 1)], "ring 3 (yellow) turned 1 but the yellow die shows 2"),
        (dice(red=1), [(0, 1), (5, -1)], "both red rings turned"),
        (dice(blue=2, brown=1), [(9, -1)], "the blue die shows 2 but no blue ring turned"),
    ],
)
def test_every_illegal_turn_is_refused_with_its_reason(
    rolled: dict[str, int], rotations: list[tuple[int, int]], reason: str
) -> None:
    state = rings.new_game(record(board_json(), ANN_BO))
    with pytest.raises(IllegalAction) as refused:
        rings.apply(state, turn(rolled, *rotations))
    assert str(refused.value) == reason
    with pytest.raises(IllegalAction):
        rings.resolve(state, turn(rolled, *rotations))


def test_a_refused_turn_leaves_the_state_unchanged() -> None:
    state = rings.new_game(record(board_json(), ANN_BO))
    before = rings.state_to_json(state)
    with pytest.raises(IllegalAction):
        rings.apply(state, turn(dice(red=1)))
    assert rings.state_to_json(state) == before


def test_the_summary_keys_come_in_the_spec_order() -> None:
    state = rings.new_game(record("reference", ANN_BO))
    assert list(rings.summary(state)) == [
        "game",
        "turns",
        "to_move",
        "over",
        "winner",
        "scores",
        "offsets",
        "pegs",
        "waiting",
    ]


def test_a_snipe_names_the_seat_that_sniped_and_the_base_the_peg_waits_at() -> None:
    events = rings.resolve(passing_over(), turn(dict(ZERO))).events
    assert [(e.kind, e.by, e.base) for e in events if e.kind == "snipe"] == [
        ("snipe", 0, 2),
        ("snipe", 0, 2),
    ]
    events = rings.resolve(entering_onto_bo(), turn(dict(ZERO))).events
    assert [(e.kind, e.seat, e.by, e.base) for e in events] == [
        ("entry", 0, None, 0),
        ("snipe", 1, 0, 2),
    ]


def test_a_peg_that_advances_into_central_control_reports_the_advance_then_the_centre() -> None:
    # Ann's peg on (7, 1): every cell black, spoke 1 an entrance; it rides to ring 9 and in.
    state = position(board_json(), ANN_BO, pegs=[(0, 7, 1)], waiting=[[5], [6]], scores=[0, 0])
    events = rings.resolve(state, turn(dict(ZERO))).events
    assert [(e.kind, e.seat, e.start, e.end) for e in events] == [
        ("advance", 0, (7, 1), (9, 1)),
        ("centre", 0, (9, 1), None),
        ("entry", 0, None, (0, 0)),
    ]


def test_a_finished_game_refuses_any_turn_and_any_preview_as_over() -> None:
    state = position(board_json(), ANN_BO, pegs=[(0, 7, 1)], waiting=[[5], [6]], scores=[5, 0])
    over = rings.apply(state, turn(dict(ZERO)))
    assert over.winner == 0
    for attempt in (
        lambda: rings.apply(over, turn(dict(ZERO))),
        lambda: rings.apply(over, turn(dice(red=1), (0, 1), (0, 1))),
        lambda: rings.preview(over, [0] * 10),
    ):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        assert str(refused.value) == "the game is over"


def test_two_bases_a_seat_whose_first_base_is_empty_enters_from_its_second() -> None:
    seats = (("Ann", 0), ("Bo", 1))
    state = position(
        board_json(), seats, pegs=[], waiting=[[0, 6], [3, 3]], scores=[0, 0], variant="two-bases"
    )
    events = rings.resolve(state, turn(dict(ZERO))).events
    assert [(e.kind, e.seat, e.end, e.base) for e in events] == [("entry", 0, (0, 4), 2)]


def test_two_bases_a_seat_whose_first_entry_cell_is_not_black_enters_from_its_second() -> None:
    # Ring 0 turned one slot: spoke 0 faces slot 7, which is not black; spoke 4 faces slot 3.
    seats = (("Ann", 0), ("Bo", 1))
    state = position(
        board_json(coloured=[(0, 7)]),
        seats,
        pegs=[],
        waiting=[[3, 3], [3, 3]],
        scores=[0, 0],
        variant="two-bases",
        offsets=(1,) + (0,) * 9,
    )
    events = rings.resolve(state, turn(dict(ZERO))).events
    assert [(e.kind, e.seat, e.end, e.base) for e in events] == [("entry", 0, (0, 4), 2)]


def test_with_three_seats_the_turn_passes_to_the_next_seat_listed() -> None:
    seats = (("Ann", 0), ("Bo", 1), ("Cy", 2))
    state = rings.new_game(record(board_json(), seats))
    order = []
    for _ in range(4):
        state = rings.apply(state, turn(dict(ZERO)))
        order.append(state.to_move)
    assert order == [1, 2, 0, 1]


def test_a_game_is_over_exactly_once_it_has_a_winner_and_seats_know_their_bases() -> None:
    state = position(board_json(), ANN_BO, pegs=[(0, 7, 1)], waiting=[[5], [6]], scores=[5, 0])
    assert not rings.is_over(state)
    assert rings.is_over(rings.apply(state, turn(dict(ZERO))))
    assert (state.bases(0), state.bases(1)) == ((0,), (2,))
    two = rings.new_game(record(board_json(), (("Ann", 0), ("Bo", 1)), variant="two-bases"))
    assert (two.bases(0), two.bases(1)) == ((0, 2), (1, 3))

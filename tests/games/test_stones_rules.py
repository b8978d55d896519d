"""One test per rule of stones.md, each with values worked out by hand.

The positions are built with ``stones_build.position``: only the stacks named hold stones.
The data file is the spec's example unless a test says otherwise: space 1 ``heights``
(count_empty), 2 ``level`` [6, 4, 2, 1], 3 ``level`` [2, 4, 4, 2], 4 ``level`` [1, 2, 4, 6],
5 ``colours``; bonus places 4 (1 VP), 9 (2), ...; end places 48/64/80 for 2/3/4 seats.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import stones
from companion.games.base import IllegalAction
from companion.games.stones import Objective, Pick, ScoreColour, ScoreTops
from tests.games.stones_build import board_with, position, spaces_of, stack_of

# A mover (dots, on [2, 2]) and three artists far from [4, 4]: nothing blocks around [4, 4].
FAR = (((2, 2), "dots"), ((2, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
AROUND_44 = {
    (3, 4): ["red-lines", "blue-dots"],  # N, top blue-dots
    (4, 5): ["yellow-dots"],  # E
    (5, 4): ["purple-lines"],  # S, wrong pattern for a dots artist
    (4, 3): ["red-dots", "red-dots"],  # W
}


# ---------------------------------------------------------------- main board and setup


def test_main_board_has_24_stack_spaces_in_reading_order_and_9_artist_spaces() -> None:
    assert stones.STACK_SPACES[:7] == ((1, 2), (1, 4), (1, 6), (2, 1), (2, 3), (2, 5), (2, 7))
    assert stones.STACK_SPACES[-3:] == ((7, 2), (7, 4), (7, 6))
    assert len(stones.STACK_SPACES) == 24
    assert stones.ARTIST_SPACES == (
        (2, 2), (2, 4), (2, 6), (4, 2), (4, 4), (4, 6), (6, 2), (6, 4), (6, 6),
    )  # fmt: skip


def test_setup_fills_stacks_four_stones_each_in_reading_order_first_stone_at_the_bottom() -> None:
    setup = stones.random_setup(7, ["Ann", "Bo"])
    order = setup["stones"]
    state = stones.new_game(setup)
    assert stack_of(state, (1, 2)) == order[0:4]
    assert stack_of(state, (1, 4)) == order[4:8]
    assert stack_of(state, (2, 1)) == order[12:16]  # the fourth stack space
    assert stack_of(state, (7, 6)) == order[92:96]
    assert state.to_move == 0
    assert state.scores == (0, 0)
    assert spaces_of(state, 1) == [[], [], [], [], []]


def test_seats_take_turns_in_the_listed_order() -> None:
    seats = ("Ann", "Bo", "Cy")
    boards = {name: [["red-dots"], ["blue-dots"], [], [], []] for name in seats}
    state = position(seats=seats, boards=boards)
    state = stones.apply(state, ScoreTops((1,), (1,)))
    assert state.to_move == 1
    state = stones.apply(state, ScoreTops((1,), (1,)))
    assert state.to_move == 2
    state = stones.apply(state, ScoreTops((1,), (1,)))
    assert state.to_move == 0
    assert state.actions == 3


# ---------------------------------------------------------------- PICK


def test_pick_takes_every_eligible_top_clockwise_from_the_first_stone() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    after = stones.apply(state, Pick((2, 2), (4, 4), "W", 3))
    # W, N, E (S is lines): red-dots, blue-dots, yellow-dots, the first at the bottom.
    assert spaces_of(after, 0)[2] == ["red-dots", "blue-dots", "yellow-dots"]
    assert stack_of(after, (4, 3)) == ["red-dots"]
    assert stack_of(after, (3, 4)) == ["red-lines"]
    assert stack_of(after, (4, 5)) == []
    assert stack_of(after, (5, 4)) == ["purple-lines"]
    assert after.artists[0].at == (4, 4)
    assert after.to_move == 1


def test_the_chosen_first_stone_sets_where_the_clockwise_order_starts() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    after = stones.apply(state, Pick((2, 2), (4, 4), "E", 1))
    # E, (S skipped), W, N.
    assert spaces_of(after, 0)[0] == ["yellow-dots", "red-dots", "blue-dots"]


def test_a_stack_touching_another_artist_is_blocked() -> None:
    artists = (((2, 2), "dots"), ((4, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    state = position(stacks=AROUND_44, artists=artists)
    after = stones.apply(state, Pick((2, 2), (4, 4), "N", 2))
    # E ([4, 5]) touches the artist on [4, 6]: N, W only.
    assert spaces_of(after, 0)[1] == ["blue-dots", "red-dots"]
    assert stack_of(after, (4, 5)) == ["yellow-dots"]


def test_the_moved_artists_old_space_does_not_block() -> None:
    artists = (((2, 4), "dots"), ((2, 2), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    state = position(stacks={(3, 4): ["yellow-dots"]}, artists=artists)
    # [3, 4] touches [2, 4], where the moving artist stood.
    after = stones.apply(state, Pick((2, 4), (4, 4), "N", 5))
    assert spaces_of(after, 0)[4] == ["yellow-dots"]


def test_first_naming_a_blocked_stack_is_illegal() -> None:
    artists = (((2, 2), "dots"), ((4, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    state = position(stacks=AROUND_44, artists=artists)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "E", 2))
    assert str(error.value) == (
        "first E: the stack at [4, 5] touches the artist on [4, 6]; it is not eligible"
    )


def test_first_naming_a_stone_of_the_other_pattern_is_illegal() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "S", 2))
    assert str(error.value) == (
        "first S: the top stone of the stack at [5, 4] is purple-lines, not dots like the "
        "artist; it is not eligible"
    )


def test_a_refused_first_stack_is_named_by_its_top_stone_not_its_bottom_one() -> None:
    state = position(stacks={**AROUND_44, (5, 4): ["red-dots", "purple-lines"]}, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "S", 2))
    assert str(error.value) == (
        "first S: the top stone of the stack at [5, 4] is purple-lines, not dots like the "
        "artist; it is not eligible"
    )


def test_first_naming_an_empty_stack_is_illegal() -> None:
    state = position(stacks={(3, 4): ["red-dots"]}, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "E", 2))
    assert str(error.value) == "first E: the stack at [4, 5] is empty; it is not eligible"


def test_a_pick_that_takes_no_stone_is_illegal() -> None:
    stacks = {(3, 4): ["red-lines"], (4, 5): ["blue-lines"]}
    state = position(stacks=stacks, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "N", 1))
    assert str(error.value) == (
        "to: no stone is eligible for the dots artist on [4, 4] ("
        "N: the top stone of the stack at [3, 4] is red-lines, not dots like the artist; "
        "E: the top stone of the stack at [4, 5] is blue-lines, not dots like the artist; "
        "S: the stack at [5, 4] is empty; W: the stack at [4, 3] is empty)"
    )


def test_a_pick_must_move_an_artist_that_is_there_to_a_free_artist_space() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    cases = [
        (Pick((4, 4), (4, 2), "N", 1), "artist: no artist stands on [4, 4]"),
        (Pick((2, 2), (2, 2), "N", 1), "to: the artist already stands on [2, 2]"),
        (Pick((2, 2), (2, 6), "N", 1), "to: another artist stands on [2, 6]"),
    ]
    for pick, message in cases:
        with pytest.raises(IllegalAction) as error:
            stones.apply(state, pick)
        assert str(error.value) == message


def test_a_pick_needs_an_empty_player_board_space() -> None:
    boards = {"Ann": [["red-dots"], [], [], [], []]}
    state = position(stacks=AROUND_44, artists=FAR, boards=boards)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Pick((2, 2), (4, 4), "N", 1))
    assert str(error.value) == "space 1: Ann's space 1 holds a tower"


def test_a_seat_with_five_towers_cannot_pick() -> None:
    full = [["red-dots"], ["blue-dots"], ["red-lines"], ["yellow-dots"], ["purple-dots"]]
    state = position(stacks=AROUND_44, artists=FAR, boards={"Ann": full})
    assert not stones.can_pick(state, 0)
    assert stones.can_pick(state, 1)
    assert not any(isinstance(a, Pick) for a in stones.legal_actions(state))


def test_legal_picks_list_each_artist_move_first_stone_and_empty_space() -> None:
    # Only [4, 3] and [3, 4] hold stones (dots). Dots artists on [2, 2] and [6, 2]:
    # [3, 4] touches [2, 4] and [4, 4]; [4, 3] touches [4, 2] and [4, 4].
    stacks = {(3, 4): ["blue-dots"], (4, 3): ["red-dots"]}
    artists = (((2, 2), "dots"), ((2, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    state = position(stacks=stacks, artists=artists)
    picks = {(a.artist, a.to, a.first) for a in stones.legal_actions(state) if isinstance(a, Pick)}
    assert picks == {
        ((2, 2), (4, 4), "N"), ((2, 2), (4, 4), "W"), ((2, 2), (2, 4), "S"),
        ((2, 2), (4, 2), "E"), ((6, 2), (4, 4), "N"), ((6, 2), (4, 4), "W"),
        ((6, 2), (2, 4), "S"), ((6, 2), (4, 2), "E"),
    }  # fmt: skip
    five_spaces = [a for a in stones.legal_actions(state) if isinstance(a, Pick)]
    assert len(five_spaces) == 8 * 5


# ---------------------------------------------------------------- SCORE by colour

LOWERING = board_with(
    spaces=[
        {"rule": "level", "table": [6, 4, 2, 1]},
        {"rule": "heights", "count_empty": False},
        {"rule": "colours"},
        {"rule": "level", "table": [1, 2, 4, 6]},
        {"rule": "colours"},
    ]
)


def test_colour_scoring_lowers_towers_before_later_towers_score() -> None:
    ann = [["blue-dots", "red-lines"], ["red-dots"], ["yellow-lines", "red-dots", "purple-lines"]]
    state = position(board=LOWERING, boards={"Ann": [*ann, [], []]})
    after = stones.apply(state, ScoreColour("red", (2, 1)))
    # Space 1 (level, height 2): 4. Space 2 (heights, empty not counted) sees space 1
    # lowered to 1: heights {1, 1, 3} -> 2 (3 if space 1 were still 2 high). 4 + 2 = 6.
    assert after.scores == (6, 0)
    assert spaces_of(after, 0) == [["blue-dots"], [], ann[2], [], []]
    assert [str(s) for s in after.mandala] == ["red-dots", "red-lines"]  # order [2, 1]


def test_colour_scoring_sees_the_scoring_tower_still_whole() -> None:
    ann = [[], [], [], ["purple-lines", "yellow-dots"], ["blue-lines", "red-dots", "yellow-lines"]]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("yellow", (5, 4)))
    # Space 4 level [1, 2, 4, 6] at height 2: 2. Space 5 colours of the whole tower: 3.
    assert after.scores == (5, 0)
    assert [str(s) for s in after.mandala] == ["yellow-lines", "yellow-dots"]
    assert spaces_of(after, 0)[3:] == [["purple-lines"], ["blue-lines", "red-dots"]]


def test_a_colour_score_scores_only_the_towers_topped_by_it_when_the_action_starts() -> None:
    ann = [["red-lines", "red-dots"], ["red-dots"], [], [], []]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("red", (1, 2)))
    # Space 1: heights 2, 1, 0, 0, 0 -> 3; space 2: level at height 1 -> 6. The red stone
    # uncovered on space 1 does not score again.
    assert after.scores == (9, 0)
    assert spaces_of(after, 0) == [["red-lines"], [], [], [], []]
    assert len(after.mandala) == 2


def test_heights_counts_an_empty_space_as_height_0_with_count_empty() -> None:
    state = position(boards={"Ann": [["blue-dots", "red-lines"], ["red-dots"], [], [], []]})
    after = stones.apply(state, ScoreColour("red", (1, 2)))
    # Space 1: heights 2, 1, 0, 0, 0 -> {0, 1, 2} = 3. Space 2: level height 1 -> 6.
    assert after.scores == (9, 0)


def test_heights_ignores_empty_spaces_without_count_empty() -> None:
    board = board_with(spaces=[{"rule": "heights"}, *[dict(s) for s in board_with()["spaces"][1:]]])
    ann = [["blue-dots", "red-lines"], ["red-dots"], [], [], []]
    state = position(board=board, boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("red", (1, 2)))
    # Space 1: heights 2, 1 -> 2. Space 2: 6.
    assert after.scores == (8, 0)


def test_heights_with_no_empty_space_counts_only_tower_heights() -> None:
    ann = [
        ["red-dots"],
        ["blue-dots"],
        ["yellow-lines", "red-lines"],
        ["blue-lines", "purple-dots"],
        ["blue-dots", "purple-lines", "red-dots"],
    ]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("red", (1, 3, 5)))
    # Space 1 (heights, none empty yet): 1, 1, 2, 2, 3 -> 3.
    # Space 3 (level [2, 4, 4, 2], height 2): 4. Space 5 (colours of 3 stones): 3.
    assert after.scores == (10, 0)


def test_level_gives_the_tables_value_for_the_towers_height() -> None:
    ann = [
        [],
        ["red-dots", "blue-dots", "red-lines", "blue-lines"],
        ["red-dots", "red-dots", "red-lines", "blue-lines"],
        ["purple-dots", "yellow-dots", "yellow-lines"],
        [],
    ]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("blue", (2, 3)))
    # Space 2 table [6, 4, 2, 1] at height 4: 1. Space 3 table [2, 4, 4, 2] at height 4: 2.
    assert after.scores == (3, 0)
    state = position(boards={"Ann": [[], ["yellow-dots"], [], ann[3], []]})
    after = stones.apply(state, ScoreColour("yellow", (2, 4)))
    # Space 2 at height 1: 6. Space 4 [1, 2, 4, 6] at height 3: 4.
    assert after.scores == (10, 0)


def test_colours_counts_distinct_colours_in_the_tower() -> None:
    ann = [[], [], [], ["purple-dots"], ["purple-dots", "purple-lines", "purple-lines"]]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreColour("purple", (4, 5)))
    # Space 4 at height 1: 1. Space 5: one colour: 1.
    assert after.scores == (2, 0)


def test_a_colour_score_needs_that_colour_on_top_of_two_towers() -> None:
    ann = [["blue-dots"], ["red-dots", "blue-lines"], ["blue-lines", "red-dots"], [], []]
    state = position(boards={"Ann": ann})
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, ScoreColour("red", (3,)))
    assert (
        str(error.value) == "colour: red tops 1 of Ann's towers; a colour score needs at least two"
    )


def test_a_colour_scores_order_is_exactly_the_scored_spaces() -> None:
    state = position(boards={"Ann": [["blue-dots"], [], ["blue-lines"], [], []]})
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, ScoreColour("blue", (1,)))
    assert str(error.value) == "order: [1] must list exactly the scored spaces [1, 3]"


def test_a_score_needs_a_tower() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, ScoreTops((1,), (1,)))
    assert str(error.value) == "score: Ann has no tower to score"


# ---------------------------------------------------------------- SCORE by tops, mandala


def test_tops_scores_one_vp_per_stone_in_the_given_mandala_order() -> None:
    ann = [["red-dots", "blue-lines"], [], ["yellow-dots"], [], ["purple-lines"]]
    state = position(boards={"Ann": ann})
    after = stones.apply(state, ScoreTops((5, 1), (1, 5)))
    assert after.scores == (2, 0)
    assert [str(s) for s in after.mandala] == ["blue-lines", "purple-lines"]
    assert spaces_of(after, 0) == [["red-dots"], [], ["yellow-dots"], [], []]


def test_tops_on_an_empty_space_is_illegal() -> None:
    state = position(boards={"Ann": [["red-dots"], [], [], [], []]})
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, ScoreTops((1, 2), (1, 2)))
    assert str(error.value) == "spaces: Ann's space 2 holds no tower"


def test_a_bonus_place_gives_its_vp_to_the_seat_that_covers_it() -> None:
    # Three stones already on the mandala: the next two cover places 4 (1 VP) and 5.
    state = position(boards={"Ann": [["red-dots"], ["blue-dots"], [], [], []]}, mandala=3)
    after = stones.apply(state, ScoreTops((1, 2), (2, 1)))
    assert after.scores == (2 + 1, 0)
    assert len(after.mandala) == 5


def test_stones_beyond_the_last_place_are_listed_but_give_nothing() -> None:
    board = board_with(places=3, bonus={"3": 5}, end={"2": 3, "3": 3, "4": 3})
    ann = [["red-dots"], ["blue-dots"], [], [], []]
    state = position(board=board, boards={"Ann": ann}, mandala=2)
    after = stones.apply(state, ScoreTops((1, 2), (1, 2)))
    # Place 3 gives 5; the second stone lies beyond place 3.
    assert after.scores == (2 + 5, 0)
    assert [str(s) for s in after.mandala][2:] == ["red-dots", "blue-dots"]


def test_a_score_option_for_the_panel_names_the_action_and_splits_its_value() -> None:
    ann = [["blue-dots", "red-lines"], ["red-dots"], ["yellow-dots"], [], []]
    best = stones.score_options(position(boards={"Ann": ann}, mandala=2))[0]
    assert stones.score_option_to_json(best) == {
        "action": {"score": "colour", "colour": "red", "order": [1, 2]},
        "vp": 10,
        "stones_vp": 9,
        "bonus_vp": 1,
        "covers_end": False,
    }


def test_score_options_list_every_legal_score_with_its_value_best_first() -> None:
    ann = [["blue-dots", "red-lines"], ["red-dots"], ["yellow-dots"], [], []]
    state = position(boards={"Ann": ann}, mandala=2)
    options = stones.score_options(state)
    values = [(stones.action_to_json(o.action), o.vp, o.bonus_vp) for o in options]
    # Colour red: space 1 heights {2, 1, 1, 0, 0} -> 3, space 2 level height 1 -> 6; two
    # stones cover places 3 and 4 (bonus 1): 10. Tops: 1 VP each, place 4 when 2+ stones.
    assert values == [
        ({"score": "colour", "colour": "red", "order": [1, 2]}, 10, 1),
        ({"score": "tops", "spaces": [1, 2, 3], "order": [1, 2, 3]}, 4, 1),
        ({"score": "tops", "spaces": [1, 2], "order": [1, 2]}, 3, 1),
        ({"score": "tops", "spaces": [1, 3], "order": [1, 3]}, 3, 1),
        ({"score": "tops", "spaces": [2, 3], "order": [2, 3]}, 3, 1),
        ({"score": "tops", "spaces": [1], "order": [1]}, 1, 0),
        ({"score": "tops", "spaces": [2], "order": [2]}, 1, 0),
        ({"score": "tops", "spaces": [3], "order": [3]}, 1, 0),
    ]
    for option in options:  # what the option says is what applying it gives
        after = stones.apply(state, option.action)
        assert after.scores[0] == option.vp


# ---------------------------------------------------------------- end of play


END_3_4_5 = board_with(bonus={}, end={"2": 3, "3": 4, "4": 5})


@pytest.mark.parametrize(
    ("seats", "mandala", "triggered"),
    [
        (("Ann", "Bo"), 2, True),  # place 3 is the end for 2 seats
        (("Ann", "Bo", "Cy"), 2, False),  # ... not for 3 (4)
        (("Ann", "Bo", "Cy"), 3, True),
        (("Ann", "Bo", "Cy", "Di"), 3, False),  # 4 seats: place 5
        (("Ann", "Bo", "Cy", "Di"), 4, True),
    ],
)
def test_the_end_place_depends_on_the_seat_count(
    seats: tuple[str, ...], mandala: int, triggered: bool
) -> None:
    boards = {name: [["red-dots"], [], [], [], []] for name in seats}
    state = position(seats=seats, board=END_3_4_5, mandala=mandala, boards=boards)
    after = stones.apply(state, ScoreTops((1,), (1,)))
    assert after.end_triggered is triggered
    assert after.phase == "play"
    assert after.to_move == 1


def test_the_round_is_finished_after_the_end_place_is_covered() -> None:
    boards = {name: [["red-dots"], ["blue-dots"], [], [], []] for name in ("Ann", "Bo", "Cy")}
    state = position(seats=("Ann", "Bo", "Cy"), board=END_3_4_5, mandala=3, boards=boards)
    state = stones.apply(state, ScoreTops((1,), (1,)))  # Ann covers place 4
    assert (state.end_triggered, state.phase, state.to_move) == (True, "play", 1)
    state = stones.apply(state, ScoreTops((1,), (1,)))  # Bo still plays
    assert (state.end_triggered, state.phase, state.to_move) == (True, "play", 2)
    state = stones.apply(state, ScoreTops((1,), (1,)))  # Cy, the last seat: play stops
    assert (state.end_triggered, state.phase, state.to_move) == (True, "objectives", 0)
    assert state.scores == (1, 1, 1)
    assert state.actions == 3


def test_the_last_seat_covering_the_end_place_stops_play_at_once() -> None:
    boards = {"Bo": [["red-dots"], [], [], [], []]}
    state = position(board=END_3_4_5, mandala=2, boards=boards, to_move=1)
    after = stones.apply(state, ScoreTops((1,), (1,)))
    assert (after.end_triggered, after.phase, after.to_move) == (True, "objectives", 0)
    with pytest.raises(IllegalAction) as error:
        stones.apply(after, ScoreTops((1,), (1,)))
    assert str(error.value) == "play has stopped: each seat enters its objective"


def test_play_stops_at_once_when_the_next_seat_can_neither_pick_nor_score() -> None:
    # One stone left on the main board; after Ann takes it Bo has no tower and nothing to take.
    state = position(stacks={(3, 4): ["red-dots"]}, artists=FAR)
    assert stones.can_move(state, 1)
    after = stones.apply(state, Pick((2, 2), (4, 4), "N", 1))
    assert not stones.can_pick(after, 1) and not stones.can_score(after, 1)
    assert (after.end_triggered, after.phase, after.to_move) == (False, "objectives", 0)


def test_a_seat_that_cannot_pick_must_score() -> None:
    state = position(boards={"Ann": [["red-dots"], [], [], [], []]})  # no stones on the board
    assert not stones.can_pick(state, 0)
    assert stones.can_move(state, 0)
    assert {type(a) for a in stones.legal_actions(state)} == {ScoreTops}


# ---------------------------------------------------------------- objectives and winner


def _objectives(seats: tuple[str, ...], scores: tuple[int, ...]) -> stones.State:
    state = position(seats=seats)
    return replace(state, phase="objectives", to_move=0, scores=scores, end_triggered=True)


def test_objectives_are_entered_in_seat_order_then_the_game_is_over() -> None:
    state = _objectives(("Ann", "Bo", "Cy"), (3, 5, 4))
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Objective("Bo", 2))
    assert str(error.value) == "objective: it is Ann's objective entry, not Bo's"
    state = stones.apply(state, Objective("Ann", 1))
    assert (state.phase, state.to_move, state.winner) == ("objectives", 1, None)
    state = stones.apply(state, Objective("Bo", 0))
    state = stones.apply(state, Objective("Cy", 3))
    assert (state.phase, state.to_move) == ("over", None)
    assert state.scores == (4, 5, 7)
    assert state.winner == 2
    assert stones.summary(state)["winner"] == "Cy"
    assert stones.is_over(state)
    assert stones.legal_actions(state) == []


def test_a_tie_goes_to_the_seat_earliest_in_seat_order() -> None:
    state = _objectives(("Ann", "Bo", "Cy"), (3, 7, 5))
    for name, vp in (("Ann", 0), ("Bo", 0), ("Cy", 2)):
        state = stones.apply(state, Objective(name, vp))
    assert state.scores == (3, 7, 7)
    assert stones.summary(state)["winner"] == "Bo"


def test_an_objective_during_play_is_illegal() -> None:
    state = position(stacks=AROUND_44, artists=FAR)
    with pytest.raises(IllegalAction) as error:
        stones.apply(state, Objective("Ann", 3))
    assert str(error.value) == "objective: play has not stopped; it is Ann's turn to PICK or SCORE"


def test_nothing_is_legal_after_the_game_is_over() -> None:
    state = _objectives(("Ann", "Bo"), (0, 0))
    state = stones.apply(stones.apply(state, Objective("Ann", 0)), Objective("Bo", 0))
    for action in (Objective("Ann", 1), ScoreTops((1,), (1,))):
        with pytest.raises(IllegalAction) as error:
            stones.apply(state, action)
        assert str(error.value) == "the game is over"


def _removed(option: stones.ScoreOption) -> int:
    action = option.action
    return len(action.order) if isinstance(action, ScoreColour) else len(action.spaces)


def test_among_scores_worth_as_much_and_removing_as_many_colour_comes_before_tops() -> None:
    """Random picks from seed 4 reach a turn where such a colour score (of a colour late in
    the colour order) ties a tops score whose first space is lower: colour still first."""
    import random

    rng = random.Random(4)
    state = stones.new_game(stones.random_setup(4, ["Ann", "Bo"]))
    ties = 0
    for _ in range(20):
        if state.phase != "play":
            break
        options = stones.score_options(state)
        for i, later in enumerate(options):
            for earlier in options[:i]:
                same = (earlier.vp, _removed(earlier)) == (later.vp, _removed(later))
                if same and isinstance(earlier.action, ScoreTops):
                    assert not isinstance(later.action, ScoreColour), (earlier, later)
                if same and isinstance(earlier.action, ScoreColour):
                    rank = stones.COLOURS.index(earlier.action.colour)
                    tops = later.action
                    ties += isinstance(tops, ScoreTops) and rank > tops.spaces[0]
        picks = [a for a in stones.legal_actions(state) if isinstance(a, Pick)]
        state = stones.apply(state, rng.choice(picks or stones.legal_actions(state)))
    assert ties > 0

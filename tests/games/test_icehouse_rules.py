"""One test per rule of icehouse.md sections 2-3, with values worked out by hand.

Block path (see ``icehouse_helpers``): red-1 at 0-4, red-2 5-9, red-3 10-14, yellow-1 15-19,
yellow-2 20-24, yellow-3 25-29, green-1 30-34, green-2 35-39, green-3 40-44, blue-1 45-49,
blue-2 50-54, blue-3 55-59, black-1 60-64, black-2 65-69, black-3 70-74.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games import icehouse
from companion.games.icehouse import (
    Award,
    Collect,
    Fall,
    GameOver,
    Pick,
    ReachEnd,
    Score,
    State,
    Take,
)
from tests.conftest import run_cli
from tests.games.icehouse_helpers import block_path, layout, record, record_text

ANN, BO, CY, DEE = 0, 1, 2, 3


def play(seats: Sequence[str], path: Sequence[str], picks: Sequence[int]) -> State:
    state = icehouse.new_game(record(seats, path, []))
    for index in picks:
        state = icehouse.apply(state, Pick(index))
    return state


def summary(seats: Sequence[str], path: Sequence[str], picks: Sequence[int]) -> dict[str, Any]:
    result = run_cli(["replay", "-"], stdin=record_text(seats, path, picks))
    assert result.status == 0, result.stderr
    got = result.json()
    assert isinstance(got, dict)
    return got


# 2.1 picks


def test_a_pick_takes_the_piece_and_moves_the_pawn_there() -> None:
    got = summary(["Ann", "Bo"], block_path(), [12])
    assert got["pawns"] == {"Ann": 12, "Bo": -1}
    assert got["held"] == {"Ann": {"red-3": 1}, "Bo": {}}
    assert got["to_move"] == "Bo"
    assert 12 not in got["left"] and len(got["left"]) == 74


def test_pawns_start_before_index_0_and_any_piece_ahead_is_legal() -> None:
    state = icehouse.new_game(record(["Ann", "Bo"], block_path(), []))
    assert state.pawns == (-1, -1)
    assert [pick.index for pick in icehouse.legal_actions(state)] == list(range(75))


def test_legal_picks_are_the_pieces_left_ahead_of_the_pawn() -> None:
    # Ann 3, Bo 7, Ann 8 (0-2 fell after Bo's pick, 4-6 after Ann's): Bo at 7 may pick 9-74.
    state = play(["Ann", "Bo"], block_path(), [3, 7, 8])
    assert [pick.index for pick in icehouse.legal_actions(state)] == list(range(9, 75))


# 2.2 the Eye


def test_nothing_falls_while_a_pawn_is_still_at_the_start() -> None:
    got = summary(["Ann", "Bo", "Cy"], block_path(), [40, 50])
    assert got["eye"] == {}
    assert len(got["left"]) == 73


def test_pieces_behind_the_rearmost_pawn_fall_right_after_the_pick_skipped_ones_included() -> None:
    start = play(["Ann", "Bo"], block_path(), [3])  # Ann skipped 0, 1, 2; Bo is still at -1
    assert start.places[:3] == (icehouse.ON_PATH,) * 3
    after_bo = icehouse.resolve(start, Pick(7))  # rearmost is Ann at 3: 0, 1, 2 fall
    assert after_bo.events == (
        Take(BO, 7, "red-2"),
        Fall(0, "red-1"),
        Fall(1, "red-1"),
        Fall(2, "red-1"),
    )
    # Ann picks 8: rearmost is Bo at 7, so 4 (skipped by both), 5 and 6 (skipped by Bo and
    # Ann) fall; red-1 is then complete (3 Ann, 0-2 and 4 in the Eye): Ann is its sole owner.
    after_ann = icehouse.resolve(after_bo.state, Pick(8))
    assert after_ann.events == (
        Take(ANN, 8, "red-2"),
        Fall(4, "red-1"),
        Fall(5, "red-2"),
        Fall(6, "red-2"),
        Score("red-1", (Award(ANN, 5),)),
    )
    got = icehouse.summary(after_ann.state)
    assert got["eye"] == {"red-1": 4, "red-2": 2}
    assert got["left"] == [9, *range(10, 75)]
    assert got["scores"] == {"Ann": 5, "Bo": 0}


# 2.3 set scoring


def test_the_majority_scores_3_and_the_next_2_a_tie_going_to_the_pawn_further_forward() -> None:
    # green-3 at 0-4. Ann 0, Bo 1, Cy 2, Ann 3, Bo 4: Ann 2 (pawn 3), Bo 2 (pawn 4), Cy 1.
    path = layout(["green-3"] * 5)
    got = summary(["Ann", "Bo", "Cy"], path, [0, 1, 2, 3, 4])
    assert got["scored"] == ["green-3"]
    assert got["scores"] == {"Ann": 2, "Bo": 3, "Cy": 0}
    assert got["held"]["Bo"] == {"green-3": 2}
    assert got["held"]["Ann"] == {"green-3": 2}


def test_more_pieces_beat_a_pawn_further_forward() -> None:
    # Ann 0, Bo 1, Ann 2, Bo 4, Ann 3: Ann 3 pieces (pawn 3), Bo 2 pieces (pawn 4).
    path = layout(["green-3"] * 5)
    state = play(["Ann", "Bo"], path, [0, 1, 2, 4])
    outcome = icehouse.resolve(state, Pick(3))
    assert outcome.events == (
        Take(ANN, 3, "green-3"),
        Score("green-3", (Award(ANN, 3), Award(BO, 2))),
    )
    assert outcome.state.scores == (3, 2)


def test_a_tie_for_second_goes_to_the_pawn_further_forward_the_others_score_nothing() -> None:
    # Four seats: Ann 0, Bo 1, Cy 2, Dee 3, Ann 4: Ann 2, and Bo, Cy, Dee 1 each (pawns 1-3).
    path = layout(["green-3"] * 5)
    got = summary(["Ann", "Bo", "Cy", "Dee"], path, [0, 1, 2, 3, 4])
    assert got["scores"] == {"Ann": 3, "Bo": 0, "Cy": 0, "Dee": 2}
    assert got["scored"] == ["green-3"]


def test_a_sole_owner_scores_5_though_some_pieces_fell() -> None:
    # green-3 at 0-4, red-1 at 5-9. Ann 0, Bo 5, Ann 1, Bo 6 (nothing falls: Ann is at 1),
    # Ann 7: the rearmost pawn is Bo's at 6, so 2, 3, 4 fall.
    path = layout(["green-3"] * 5)
    got = summary(["Ann", "Bo"], path, [0, 5, 1, 6, 7])
    assert got["held"] == {"Ann": {"green-3": 2, "red-1": 1}, "Bo": {"red-1": 2}}
    assert got["eye"] == {"green-3": 3}
    assert got["scored"] == ["green-3"]
    assert got["scores"] == {"Ann": 5, "Bo": 0}


def test_a_set_lost_entirely_to_the_eye_is_scored_for_nobody() -> None:
    # yellow-1 at 0, 2, 4, 6, 8 and red-2 at 1, 3, 5, 7; then red-1 at 9-13.
    # Ann 1, Bo 3, Ann 5, Bo 7, Ann 9, Bo 10 leave every yellow-1 behind the rearmost pawn.
    front = ["yellow-1", "red-2"] * 4 + ["yellow-1"]
    state = play(["Ann", "Bo"], layout(front), [1, 3, 5, 7, 9])
    assert state.scored == ()
    outcome = icehouse.resolve(state, Pick(10))
    assert outcome.events == (Take(BO, 10, "red-1"), Fall(8, "yellow-1"), Score("yellow-1", ()))
    got = icehouse.summary(outcome.state)
    assert got["scored"] == ["yellow-1"]
    assert got["eye"] == {"yellow-1": 5}
    assert got["scores"] == {"Ann": 0, "Bo": 0}


def test_kinds_completing_together_score_colour_by_colour_then_by_size() -> None:
    # black-2 x5 at 0-4 and blue-1 x5 at 5-9 before red-1: Ann 10, Bo 11 drop all ten.
    path = layout(["black-2"] * 5 + ["blue-1"] * 5)
    got = summary(["Ann", "Bo"], path, [10, 11])
    assert got["scored"] == ["blue-1", "black-2"]


def test_a_kind_scores_only_once() -> None:
    # red-1 scores on Ann's pick 8 (see the Eye test); later picks add nothing for it.
    state = play(["Ann", "Bo"], block_path(), [3, 7, 8, 9, 20, 21])
    assert state.scored.count("red-1") == 1
    assert state.scored == ("red-1", "red-2", "red-3", "yellow-1")
    # red-2: Bo 7 and 9, Ann 8, 5 and 6 fell: Bo 3, Ann 2. red-3 fell wholly, yellow-1 too.
    assert state.scores == (5 + 2, 3)


# 2.4 seats at the end


def test_a_seat_that_reaches_the_end_passes_every_later_turn() -> None:
    start = icehouse.new_game(record(["Ann", "Bo", "Cy"], block_path(), []))
    first = icehouse.resolve(start, Pick(74))
    assert first.events == (Take(ANN, 74, "black-3"), ReachEnd(ANN))
    assert first.state.to_move == BO
    second = icehouse.apply(first.state, Pick(10))
    assert second.to_move == CY
    # Cy 20: rearmost Bo at 10, red-1 and red-2 fall wholly; Ann passes, Bo moves.
    third = icehouse.resolve(second, Pick(20))
    assert [type(e) for e in third.events] == [Take] + [Fall] * 10 + [Score, Score]
    assert third.state.to_move == BO
    # Bo 30: rearmost Cy at 20, 11-19 fall: Bo sole owner of red-3; yellow-1 is lost.
    fourth = icehouse.apply(third.state, Pick(30))
    got = icehouse.summary(fourth)
    assert got["to_move"] == "Cy"
    assert got["scored"] == ["red-1", "red-2", "red-3", "yellow-1"]
    assert got["scores"] == {"Ann": 0, "Bo": 5, "Cy": 0}
    assert got["pawns"] == {"Ann": 74, "Bo": 30, "Cy": 20}
    assert icehouse.apply(fourth, Pick(21)).to_move == BO


def test_a_seat_reaches_the_end_when_another_takes_the_last_piece_ahead_of_it() -> None:
    state = play(["Ann", "Bo", "Cy"], block_path(), [73])
    assert not icehouse.reached_end(state, ANN)
    outcome = icehouse.resolve(state, Pick(74))
    assert ReachEnd(ANN) in outcome.events and ReachEnd(BO) in outcome.events


# 2.5 the last seat


def test_the_last_seat_takes_every_piece_left_and_those_kinds_score_in_a_step_of_their_own() -> (
    None
):
    # Ann 73, Bo 74: both at the end, nothing fell (Cy at -1); Cy takes 0-72 with her pawn
    # at -1. Cy is sole owner of 14 kinds (70); black-3: Cy 3 (70-72), Ann 1 (73), Bo 1 (74):
    # Cy 3, and Bo (pawn 74) beats Ann (73) for second: 2.
    state = play(["Ann", "Bo", "Cy"], block_path(), [73])
    outcome = icehouse.resolve(state, Pick(74))
    kinds = [f"{c}-{s}" for c in ("red", "yellow", "green", "blue", "black") for s in (1, 2, 3)]
    assert outcome.events[:4] == (
        Take(BO, 74, "black-3"),
        ReachEnd(ANN),
        ReachEnd(BO),
        Collect(CY, tuple(range(73))),
    )
    assert [e.kind for e in outcome.events[4:19] if isinstance(e, Score)] == kinds
    assert outcome.events[18] == Score("black-3", (Award(CY, 3), Award(BO, 2)))
    assert outcome.events[19:] == (GameOver(CY),)
    got = icehouse.summary(outcome.state)
    assert got["over"] is True and got["to_move"] is None
    assert got["scores"] == {"Ann": 0, "Bo": 2, "Cy": 73}
    assert got["pawns"] == {"Ann": 73, "Bo": 74, "Cy": -1}
    assert got["winner"] == "Cy"
    assert got["left"] == [] and got["eye"] == {}


def test_with_every_seat_at_the_end_the_game_simply_ends() -> None:
    # Two seats: Ann 73, Bo 74 puts both at the end; 0-72 fall behind Ann at 73.
    # black-3: Ann 1 (pawn 73), Bo 1 (pawn 74), 3 in the Eye: Bo 3, Ann 2.
    outcome = icehouse.resolve(play(["Ann", "Bo"], block_path(), [73]), Pick(74))
    assert not any(isinstance(e, Collect) for e in outcome.events)
    assert outcome.events[-1] == GameOver(BO)
    assert outcome.state.scores == (2, 3)
    assert icehouse.is_over(outcome.state)
    assert icehouse.legal_actions(outcome.state) == []


# 3 winner


def test_the_winner_tie_goes_to_the_pawn_furthest_forward_not_to_the_first_seat() -> None:
    # red-1 at 72, yellow-1 at 73, green-1 at 74. Ann 72, Bo 74, Cy 73: everything else falls,
    # each is sole owner of one kind: 5-5-5, and Bo's pawn at 74 is furthest forward.
    path = layout([], ["red-1", "yellow-1", "green-1"])
    got = summary(["Ann", "Bo", "Cy"], path, [72, 74, 73])
    assert got["scores"] == {"Ann": 5, "Bo": 5, "Cy": 5}
    assert got["over"] is True
    assert got["winner"] == "Bo"


def test_most_points_win_whatever_the_pawns() -> None:
    got = summary(["Ann", "Bo", "Cy"], block_path(), [73, 74])
    assert got["winner"] == "Cy" and got["pawns"]["Cy"] == -1


# Views the panel uses


def test_the_panel_views_name_the_seat_to_move_and_each_seats_pieces() -> None:
    state = play(["Ann", "Bo"], block_path(), [3, 7, 8])
    assert icehouse.seat_to_move(state) == BO
    assert icehouse.seat_pieces(state, ANN) == {"red-1": 1, "red-2": 1}
    assert icehouse.seat_pieces(state, BO) == {"red-2": 1}
    assert icehouse.eye_pieces(state) == {"red-1": 4, "red-2": 2}


def test_events_are_written_for_the_panel_with_seat_names() -> None:
    state = play(["Ann", "Bo"], block_path(), [3, 7])
    outcome = icehouse.resolve(state, Pick(8))
    written = [icehouse.event_to_json(e, outcome.state) for e in outcome.events]
    assert written == [
        {"type": "take", "seat": "Ann", "index": 8, "kind": "red-2"},
        {"type": "fall", "index": 4, "kind": "red-1"},
        {"type": "fall", "index": 5, "kind": "red-2"},
        {"type": "fall", "index": 6, "kind": "red-2"},
        {"type": "score", "kind": "red-1", "awards": {"Ann": 5}},
    ]
    assert [icehouse.describe(e, outcome.state).english() for e in outcome.events] == [
        "Ann takes the red-2 at 8",
        "the red-1 at 4 falls into the Eye",
        "the red-2 at 5 falls into the Eye",
        "the red-2 at 6 falls into the Eye",
        "red-1 scores: Ann 5",
    ]


def test_the_end_events_are_described_for_the_table() -> None:
    state = play(["Ann", "Bo", "Cy"], block_path(), [73])
    outcome = icehouse.resolve(state, Pick(74))
    said = [icehouse.describe(e, outcome.state).english() for e in outcome.events]
    assert said[1:4] == [
        "Ann has reached the end and passes from now on",
        "Bo has reached the end and passes from now on",
        "Cy takes the 73 pieces left on the path",
    ]
    assert said[-1] == "the game is over: Cy wins"
    lost = icehouse.resolve(play(["Ann", "Bo"], block_path(), [5]), Pick(6)).events[-1]
    assert icehouse.describe(lost, state).english() == "red-1 is lost to the Eye: nobody scores"
    assert icehouse.event_to_json(outcome.events[3], outcome.state) == {
        "type": "collect",
        "seat": "Cy",
        "indices": list(range(73)),
    }
    assert icehouse.event_to_json(outcome.events[-1], outcome.state) == {
        "type": "over",
        "winner": "Cy",
    }
    assert icehouse.event_to_json(ReachEnd(ANN), outcome.state) == {"type": "end", "seat": "Ann"}

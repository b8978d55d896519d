"""The ring-board advisor and computer seats (issue 10): ranking, evaluation, choices.

Hand-worked positions use small inline boards (8 spokes, dice faces 0, 1, 2: each value has
chance 1/3); every expected number below is worked out in the comment above it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import rings
from companion.games.base import IllegalAction, RecordError
from companion.players import rings as players
from tests.games.rings_helpers import board_json, dice, position

THIRD = 1 / 3


def _key(rotations: tuple[rings.Rotation, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r.ring, r.steps) for r in rotations)


def _random_position(seed: int, variant: str = "standard", seats: int = 2) -> rings.State:
    """Play a few random legal turns on the reference board from a seeded start."""
    rng = random.Random(seed)
    corners = [0, 2, 1, 3][:seats] if variant == "standard" else [rng.randint(0, 1)]
    if variant == "two-bases":
        corners = [0, 1]
    setup = {
        "board": "reference",
        "variant": variant,
        "seats": [{"name": f"P{i}", "corner": c} for i, c in enumerate(corners)],
    }
    state = rings.new_game(setup)
    for _ in range(rng.randint(0, 14)):
        rolled = rings.roll(rng, state.board)
        choices = rings.legal_rotation_sets(state, rolled)
        after = rings.apply(state, rings.Turn(rolled, rng.choice(choices)))
        if after.over:
            break
        state = after
    return state


def _some_roll(seed: int, board: rings.Board, zeros: int = 2) -> dict[str, int]:
    """Roll the dice; then ``zeros`` colours show 0 (fewer sets keep the tests quick)."""
    rng = random.Random(seed ^ 0x5EED)
    rolled = rings.roll(rng, board)
    for colour in rng.sample(rings.COLOURS, zeros):
        rolled[colour] = 0
    return rolled


# --------------------------------------------------------------------------------------------
# A hand-built position where one set snipes and three do not, all else equal.
#
# 8 spokes, every slot black except all of ring 2 (nobody passes ring 2). Ann (corner 0) has
# one peg on ring 0, slot 7 (spoke 7) and five on ring 1, spokes 1-5; none waiting. Bo
# (corner 1, base spoke 2) has one peg on ring 1, spoke 6, five waiting. Cy (corner 2) has
# six pegs on rings 3 and 4, none waiting, and 3 points. Only red shows (1): ring 0 or ring 5
# turns by +1 or -1.
#
# - ring 0 -1: Ann's peg rides to spoke 6, steps to (1, 6) and snipes Bo: 1 point.
# - ring 0 +1: it rides to spoke 0 and steps to (1, 0). ring 5 +-1: it steps to (1, 7).
#
# After each, Ann has six pegs on ring 1 (progress 6 * 0.10 = 0.60); Cy's progress is
# 3 * 0.20 + 3 * 0.25 = 1.35, the most of the others (Bo: 0.10 or 0) -> progress -0.75.
# Nobody can reach Ann's ring-1 pegs (Bo's peg is on ring 1 too, Cy's are inward, and entries
# only snipe on ring 0) -> exposure 0. Ann has nobody waiting; Bo's base cell is always black
# and free -> entries 0 - 0.2 = -0.2. Bo moves next -> threats 0. Points: -2 for the snipe
# (1 - 3), -3 for the others. Totals: -2.95 and -3.95.


def _snipe_choice() -> rings.State:
    board = board_json(coloured=[(2, s) for s in range(8)])
    ann = [(0, 0, 7)] + [(0, 1, s) for s in range(1, 6)]
    cy = [(2, r, s) for r in (3, 4) for s in range(3)]
    return position(
        board,
        [("Ann", 0), ("Bo", 1), ("Cy", 2)],
        [*ann, (1, 1, 6), *cy],
        waiting=[[0], [5], [0]],
        scores=[0, 0, 3],
    )


def test_the_snipe_ranks_first_when_everything_else_is_equal() -> None:
    state = _snipe_choice()
    options = players.rank(state, dice(red=1))
    assert [_key(o.rotations) for o in options] == [((0, -1),), ((0, 1),), ((5, -1),), ((5, 1),)]
    assert [o.points for o in options] == [1, 0, 0, 0]
    assert [o.score for o in options] == pytest.approx([-2.95, -3.95, -3.95, -3.95])
    top = options[0].breakdown
    assert (top.points, top.progress, top.exposure, top.entries, top.threats, top.win) == (
        pytest.approx(-2.0),
        pytest.approx(-0.75),
        0.0,
        pytest.approx(-0.2),
        0.0,
        0.0,
    )
    for lower in options[1:]:
        assert lower.breakdown.points == pytest.approx(-3.0)
        assert (lower.breakdown.progress, lower.breakdown.exposure, lower.breakdown.entries) == (
            top.progress,
            top.exposure,
            top.entries,
        )


def test_option_text_names_the_rotations_in_dice_order_and_what_the_turn_does() -> None:
    state = _snipe_choice()
    texts = [o.text for o in players.rank(state, dice(red=1))]
    assert texts == [
        "ring 0 -1: Ann moves the peg on spoke 6 from ring 0 to ring 1, snipes Bo on ring 1, "
        "spoke 6",
        "ring 0 +1: Ann moves the peg on spoke 0 from ring 0 to ring 1",
        "ring 5 -1: Ann moves the peg on spoke 7 from ring 0 to ring 1",
        "ring 5 +1: Ann moves the peg on spoke 7 from ring 0 to ring 1",
    ]


def test_option_text_counts_entries_and_says_when_no_peg_moves() -> None:
    # Two seats at corners 0 and 2, every slot black, pegs as at setup. Ann's peg on (0, 0)
    # walks all the way in: rings 1..9 are black, but spoke 0 is not the entrance (1), so it
    # stops on ring 9; then one waiting peg enters at (0, 0).
    start = rings.new_game(
        {
            "board": board_json(),
            "variant": "standard",
            "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
        }
    )
    assert players.rotations_text(start, ()) == "no ring turns"
    outcome = rings.resolve(start, rings.Turn(dice(), ()))
    assert players.outcome_text(start, outcome) == (
        "Ann moves the peg on spoke 0 from ring 0 to ring 9, enters one peg"
    )
    # Bo's peg on (0, 4) with ring 1 coloured on slot 4: it cannot move; Bo's base cell is
    # taken by that very peg, so nothing enters.
    blocked = position(
        board_json(coloured=[(1, 4)]),
        [("Ann", 0), ("Bo", 2)],
        [(0, 9, 0), (0, 0, 0), (1, 0, 4)],
        waiting=[[4], [5]],
        scores=[0, 0],
        to_move=1,
    )
    nothing = rings.resolve(blocked, rings.Turn(dice(), ()))
    assert players.outcome_text(blocked, nothing) == "Bo: no peg moves"


# --------------------------------------------------------------------------------------------
# Breakdown values by hand


def _adjacent_threat() -> rings.State:
    """Bo's peg on (1, 3) below Ann's on (2, 4); ring 0 at offset 1 with slots 1, 5, 7 coloured.

    Both seats have five pegs waiting; Bo moves next.
    """
    board = board_json(coloured=[(0, 1), (0, 5), (0, 7)])
    return position(
        board,
        [("Ann", 0), ("Bo", 2)],
        [(0, 2, 4), (1, 1, 3)],
        waiting=[[5], [5]],
        scores=[0, 0],
        to_move=1,
        offsets=(1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    )


def test_exposure_weighs_a_snipe_by_the_chance_of_the_dice_that_allow_it() -> None:
    # Bo's peg (ring 1, blue die) on spoke 3 + d1 must meet Ann's (ring 2, green die) on
    # 4 + d2: d1 - d2 = 1. A ring may stay put whatever its die shows.
    #   blue 0 (d1 = 0): needs d2 = -1, green 1 -> 1/3
    #   blue 1: d1 = +1, d2 = 0 always -> 1
    #   blue 2: d1 = 0 needs green 1; d1 = +2 needs d2 = +1, green 1; d1 = -2 impossible -> 1/3
    # Chance 1/3 * (1/3 + 1 + 1/3) = 5/9; the peg is worth a point plus 0.05 * 3 = 1.15.
    #
    # Entries: ring 0 at offset 1. Ann's base (spoke 0) shows slot 7 (coloured); turns +1,
    # -1 show slots 6, 0 (black); +2, -2 show slots 5, 1 (coloured): only red 1 lets Ann in
    # -> 0.2 / 3. Bo's base (spoke 4) shows slot 3 (black) -> 0.2. Progress 0.15 - 0.10.
    terms = players.breakdown(_adjacent_threat(), 0)
    assert terms.points == 0.0
    assert terms.progress == pytest.approx(0.05)
    assert terms.exposure == pytest.approx(-5 / 9 * 1.15)
    assert terms.entries == pytest.approx(0.2 * THIRD - 0.2)
    assert terms.threats == 0.0
    assert terms.win == 0.0
    assert players.evaluate(_adjacent_threat(), 0) == pytest.approx(
        0.05 - 5 / 9 * 1.15 + 0.2 * THIRD - 0.2
    )


def test_the_seat_to_move_counts_its_threats_not_its_exposure() -> None:
    # For Bo (to move): the snipe above (5/9, worth 1.15) and its peg's way into Central
    # Control: rings 2..9 are black, so it only needs to end on the entrance, spoke 1 = 3 - 2:
    # blue 2 -> 1/3, worth a point less its progress 0.10. Threats 0.5 * (5/9 * 1.15 + 0.3).
    terms = players.breakdown(_adjacent_threat(), 1)
    assert terms.exposure == 0.0
    assert terms.threats == pytest.approx(0.5 * (5 / 9 * 1.15 + THIRD * 0.9))
    assert terms.progress == pytest.approx(-0.05)
    assert terms.entries == pytest.approx(0.2 - 0.2 * THIRD)


def test_a_snipe_through_a_coloured_cell_needs_that_ring_turned_away() -> None:
    # Bo's peg on (1, 3), Ann's on (3, 3), ring 2's slot 3 coloured. On spoke s = 3 + d1 ring 2
    # must not show slot 3 and Ann's peg (yellow die) must come to s: d3 = d1.
    #   blue 0: s = 3, green must turn (not 0) -> 2/3
    #   blue 1: s = 3 needs green != 0; s = 4 or 2 needs yellow 1 -> 1 - 1/3 * 2/3 = 7/9
    #   blue 2: likewise with yellow 2 -> 7/9
    # Chance 1/3 * (2/3 + 7/9 + 7/9) = 20/27; Ann's peg is worth 1 + 0.05 * 4 = 1.2.
    state = position(
        board_json(coloured=[(2, 3)]),
        [("Ann", 0), ("Bo", 2)],
        [(0, 3, 3), (1, 1, 3)],
        waiting=[[5], [5]],
        scores=[0, 0],
        to_move=1,
    )
    assert players.breakdown(state, 0).exposure == pytest.approx(-20 / 27 * 1.2)


def test_a_peg_on_an_opponents_entry_cell_is_exposed_to_the_red_die() -> None:
    # Ann's peg on (0, 3); Bo (corner 2, base spoke 4) has all six pegs waiting. Ring 0 must
    # turn +1: red 1 -> 1/3; the peg is worth 1 + 0.05.
    state = position(
        board_json(),
        [("Ann", 0), ("Bo", 2)],
        [(0, 0, 3)],
        waiting=[[5], [6]],
        scores=[0, 0],
        to_move=1,
    )
    assert players.breakdown(state, 0).exposure == pytest.approx(-THIRD * 1.05)


def test_a_won_game_is_worth_the_win_to_the_winner_and_its_loss_to_the_others() -> None:
    state = rings.state_from_json(
        {
            **rings.state_to_json(_adjacent_threat()),
            "scores": [6, 0],
            "to_move": None,
            "winner": 0,
        }
    )
    assert players.breakdown(state, 0).win == players.WIN
    assert players.breakdown(state, 1).win == -players.WIN
    assert players.breakdown(state, 0).exposure == 0.0
    assert players.breakdown(state, 0).points == 6.0


def test_solo_counts_the_pegs_entered_and_nobody_snipes() -> None:
    # Solo seat at corner 0: one peg on (4, 2), one on (0, 4); 2 waiting at each base (0 and
    # 2), 2 pegs already entered. Progress 0.25 + 0.05; both bases (spokes 0 and 4) enter:
    # spoke 0's cell is black and free; spoke 4's cell holds the seat's own peg unless ring 0
    # turns (red 1 or 2 -> 2/3). Entries 0.2 + 0.2 * 2/3.
    state = position(
        board_json(),
        [("Sol", 0)],
        [(0, 4, 2), (0, 0, 4)],
        waiting=[[1, 1]],
        scores=[2],
        variant="solo",
    )
    terms = players.breakdown(state, 0)
    assert (terms.points, terms.exposure, terms.threats) == (2.0, 0.0, 0.0)
    assert terms.progress == pytest.approx(0.30)
    assert terms.entries == pytest.approx(0.2 + 0.2 * 2 * THIRD)


# --------------------------------------------------------------------------------------------
# Ranking: exactly the legal sets, ordered, deterministic


@settings(max_examples=8)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["standard", "two-bases"]),
    st.sampled_from([0, 2, 3]),
)
def test_ranked_options_are_exactly_the_legal_rotation_sets(
    seed: int, variant: str, zeros: int
) -> None:
    state = _random_position(seed, variant)
    rolled = _some_roll(seed, state.board, zeros)
    options = players.rank(state, rolled)
    legal = rings.legal_rotation_sets(state, rolled)
    assert sorted(_key(o.rotations) for o in options) == sorted(_key(r) for r in legal)
    assert len({_key(o.rotations) for o in options}) == len(options)
    for option in options:
        assert option.outcome == rings.resolve(state, rings.Turn(rolled, option.rotations))
        assert option.score == option.breakdown.total
        mover = state.to_move
        assert mover is not None
        assert option.points == option.outcome.state.scores[mover] - state.scores[mover]
    order = [(-o.score, _key(o.rotations)) for o in options]
    assert order == sorted(order)


@settings(max_examples=5)
@given(st.integers(min_value=0, max_value=2**32))
def test_rank_and_choose_are_deterministic_for_a_seed(seed: int) -> None:
    state = _random_position(seed)
    rolled = _some_roll(seed, state.board)
    first = players.rank(state, rolled)
    again = players.rank(state, rolled)
    assert [(o.rotations, o.score, o.text) for o in first] == [
        (o.rotations, o.score, o.text) for o in again
    ]
    for level in players.LEVELS:
        picks = {
            players.choose(state, rolled, level, random.Random(seed), deadline_s=None)
            for _ in range(2)
        }
        assert len(picks) == 1


@settings(max_examples=10)
@given(st.integers(min_value=0, max_value=2**32))
def test_medium_plays_the_top_ranked_option(seed: int) -> None:
    state = _random_position(seed, seats=2 + seed % 3)
    rolled = _some_roll(seed, state.board)
    best = players.rank(state, rolled)[0].rotations
    assert players.choose(state, rolled, "medium", random.Random(seed), deadline_s=None) == best


@settings(max_examples=10)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_higher_ranked_option_never_scores_fewer_points_when_all_else_is_equal(
    seed: int,
) -> None:
    state = _random_position(seed, seats=2 + seed % 3)
    options = players.rank(state, _some_roll(seed, state.board))

    def rest(option: players.Option) -> tuple[float, ...]:
        b = option.breakdown
        return (b.progress, b.exposure, b.entries, b.threats, b.win)

    for index, higher in enumerate(options):
        for lower in options[index + 1 :]:
            if rest(higher) == rest(lower):
                assert higher.points >= lower.points


def test_advise_returns_the_best_few_options() -> None:
    state = _snipe_choice()
    advice = players.advise(state, dice(red=1), top=3)
    assert [o.rotations for o in advice] == [
        o.rotations for o in players.rank(state, dice(red=1))[:3]
    ]
    assert len(players.advise(state, dice(red=1))) == 3


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(
        [("standard", 2), ("standard", 3), ("standard", 4), ("two-bases", 2), ("solo", 1)]
    ),
    st.integers(min_value=1, max_value=6),
)
def test_advise_finds_the_first_options_of_the_whole_ranking(
    seed: int, game: tuple[str, int], top: int
) -> None:
    # The panel's hints stop evaluating once no other set can enter the first ``top``; they
    # must still be exactly the head of the full ranking (same sets, scores, texts, order).
    variant, seats = game
    state = _random_position(seed, variant, seats)
    rolled = _some_roll(seed, state.board, zeros=seed % 3)
    assert players.advise(state, rolled, top, deadline_s=None) == players.rank(state, rolled)[:top]


def test_a_finished_game_has_no_options() -> None:
    state = rings.state_from_json(
        {**rings.state_to_json(_adjacent_threat()), "scores": [6, 0], "to_move": None, "winner": 0}
    )
    assert players.rank(state, dice(red=1)) == []


# --------------------------------------------------------------------------------------------
# Computer seats


def _play_levels(seed: int, variant: str, seats: int, turns: int) -> None:
    rng = random.Random(seed)
    if variant == "standard":
        corners = rng.sample(range(4), seats)
    elif variant == "two-bases":
        corners = [0, 1]
    else:
        corners = [rng.randrange(4)]
    state = rings.new_game(
        {
            "board": "reference",
            "variant": variant,
            "seats": [{"name": f"P{i}", "corner": c} for i, c in enumerate(corners)],
        }
    )
    levels = [rng.choice(players.LEVELS) for _ in corners]
    for _ in range(turns):
        if state.over:
            break
        rolled = rings.roll(rng, state.board)
        mover = state.to_move
        assert mover is not None
        chosen = players.choose(state, rolled, levels[mover], rng)
        assert chosen in rings.legal_rotation_sets(state, rolled)
        state = rings.apply(state, rings.Turn(rolled, chosen))


@settings(max_examples=12)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from([("standard", 2), ("standard", 3), ("standard", 4), ("two-bases", 2)]),
)
def test_choose_returns_a_legal_set_at_every_level_in_every_multi_seat_variant(
    seed: int, variant_seats: tuple[str, int]
) -> None:
    variant, seats = variant_seats
    _play_levels(seed, variant, seats, turns=4)


@settings(max_examples=6)
@given(st.integers(min_value=0, max_value=2**32))
def test_choose_plays_solo_games_with_locked_rings(seed: int) -> None:
    _play_levels(seed, "solo", 1, turns=30)


def test_solo_choose_works_once_rings_are_locked() -> None:
    # All pegs past ring 2 and none waiting: rings 0-2 are locked. Red (rings 0, 5) may only
    # turn ring 5; blue's rings 1 and 6: only ring 6; green's 2 and 7: only 7.
    state = position(
        board_json(),
        [("Sol", 0)],
        [(0, 3, 1), (0, 5, 2)],
        waiting=[[0, 0]],
        scores=[4],
        variant="solo",
    )
    assert rings.locked_rings(state) == frozenset({0, 1, 2})
    rolled = dice(red=1, blue=2, green=1)
    for level in players.LEVELS:
        chosen = players.choose(state, rolled, level, random.Random(3))
        assert {r.ring for r in chosen} == {5, 6, 7}


def test_every_level_takes_a_winning_snipe() -> None:
    # Ann at 5 points; her peg on (0, 6) snipes Bo on (1, 6) if ring 0 stays: red 0 would do,
    # here the only die is blue 1 (rings 1 and 6). Turning ring 6 keeps Bo's peg on spoke 6.
    # Ring 1 +-1 moves Bo's peg away (spoke 7 or 5), ring 1's cell there is black, so Ann
    # still steps in but snipes nobody. Ring 6 +-1: the snipe wins.
    state = position(
        board_json(coloured=[(2, s) for s in range(8)]),
        [("Ann", 0), ("Bo", 2)],
        [(0, 0, 6), (1, 1, 6)],
        waiting=[[5], [5]],
        scores=[5, 0],
    )
    winning = [o.rotations for o in players.rank(state, dice(blue=1)) if o.outcome.state.over]
    assert sorted(_key(r) for r in winning) == [((6, -1),), ((6, 1),)]
    for level in ("medium", "hard"):
        assert players.choose(state, dice(blue=1), level, random.Random(1)) in winning


# --------------------------------------------------------------------------------------------
# Hard plays the next seat's replies


def _gift_choice() -> rings.State:
    # 8 spokes, every slot black, entrance spoke 1, die faces 0 and 2 (each 1/2). Ann
    # (corner 0) has all six pegs waiting; Bo (corner 2, base spoke 4) has 5 points and one
    # peg on ring 9, spoke 3. Ann rolls brown 2: ring 4 or ring 9 turns by +2 or -2.
    return position(
        board_json(dice=(0, 2)),
        [("Ann", 0), ("Bo", 2)],
        [(1, 9, 3)],
        waiting=[[6], [5]],
        scores=[0, 5],
    )


def test_hard_plays_the_next_seats_replies_and_keeps_them_from_winning() -> None:
    # Whatever Ann does, one of her pegs enters at (0, 0) and nobody can reach it; her
    # evaluation of the four sets is the same, so medium takes the first in rotation order.
    # Bo wins next turn by bringing the ring-9 peg onto spoke 1:
    # - ring 4 +-2 leaves it on spoke 3: Bo wins when his brown die shows 2 (ring 9 -2);
    # - ring 9 -2 puts it on spoke 1: Bo wins whatever he rolls (ring 9 stays put);
    # - ring 9 +2 puts it on spoke 5: from there +-2 reaches 3 or 7, never 1.
    # Hard plays Bo's best reply to sampled rolls, so it takes ring 9 +2 (its ten sampled
    # rolls for Bo all show brown 0 with chance 2**-10).
    state = _gift_choice()
    options = players.rank(state, dice(brown=2))
    assert [_key(o.rotations) for o in options] == [((4, -2),), ((4, 2),), ((9, -2),), ((9, 2),)]
    assert len({round(o.score, 9) for o in options}) == 1
    assert _key(players.choose(state, dice(brown=2), "medium", random.Random(1))) == ((4, -2),)
    assert _key(players.choose(state, dice(brown=2), "hard", random.Random(1))) == ((9, 2),)


def test_hard_plays_as_medium_when_nobody_else_moves() -> None:
    # Solo: no seat replies, so hard's lookahead has nothing to play.
    state = position(
        board_json(dice=(0, 2)),
        [("Sol", 0)],
        [(0, 9, 3)],
        waiting=[[2, 3]],
        scores=[0],
        variant="solo",
    )
    for seed in range(3):
        rolled = _some_roll(seed, state.board, zeros=0)
        assert players.choose(state, rolled, "hard", random.Random(seed)) == players.choose(
            state, rolled, "medium", random.Random(seed)
        )


def test_hard_weighs_a_sure_entry_at_its_own_worth() -> None:
    # The position of the exposure test: Ann gets in with chance 1/3, Bo surely. The ranking
    # counts 0.2 / 3 - 0.2 for Ann's entries; hard's evaluation the same chances at HARD_ENTRY
    # (self-play found half of ENTRY stronger); every other term is the ranking's.
    state = _adjacent_threat()
    ctx = players._Context(state.board)
    ranking = players._breakdown(ctx, state, 0)
    hard = players._breakdown(ctx, state, 0, entry=players.HARD_ENTRY)
    assert ranking.entries == pytest.approx(0.2 * THIRD - 0.2)
    assert hard.entries == pytest.approx(players.HARD_ENTRY * (THIRD - 1))
    assert players.HARD_ENTRY < players.ENTRY
    assert (hard.points, hard.progress, hard.exposure, hard.threats, hard.win) == (
        ranking.points,
        ranking.progress,
        ranking.exposure,
        ranking.threats,
        ranking.win,
    )


def test_hard_picks_and_plays_out_its_candidates_with_its_own_entry_weight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every evaluation hard makes (picking candidates, then the lookahead's leaves) weighs
    # entries at HARD_ENTRY; medium's (the ranking's) at ENTRY. The search bounds the sets
    # with _settled (the evaluation's total without the turn-ahead terms): recorded too.
    weights: list[float] = []
    evaluate = players._breakdown
    settled = players._settled

    def recording(*args: object, entry: float = players.ENTRY, **kwargs: bool) -> object:
        weights.append(entry)
        return evaluate(*args, entry=entry, **kwargs)  # type: ignore[arg-type]

    def recording_bound(
        ctx: players._Context, state: rings.State, seat: int, entry: float
    ) -> float:
        weights.append(entry)
        return settled(ctx, state, seat, entry)

    monkeypatch.setattr(players, "_breakdown", recording)
    monkeypatch.setattr(players, "_settled", recording_bound)
    state = _random_position(3)
    rolled = _some_roll(3, state.board, zeros=1)
    levels: tuple[tuple[players.Level, float], ...] = (
        ("hard", players.HARD_ENTRY),
        ("medium", players.ENTRY),
    )
    for level, weight in levels:
        weights.clear()
        players.choose(state, rolled, level, random.Random(1))
        assert set(weights) == {weight}
        assert len(weights) > (players.HARD_CANDIDATES if level == "hard" else 1)


# --------------------------------------------------------------------------------------------
# The hard seat's quick answers agree with the engine


@settings(max_examples=20)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=4))
def test_the_quick_answer_search_counts_the_points_the_engine_scores(seed: int, seats: int) -> None:
    state = _random_position(seed, seats=seats)
    rolled = _some_roll(seed, state.board, zeros=0)
    mover = players._Mover(players._Context(state.board), state)
    to_win = rings.WINNING_SCORE - state.scores[state.to_move or 0]
    for rotations, outcome in rings.outcomes(state, rolled)[::7]:
        offsets = list(state.offsets)
        for rotation in rotations:
            offsets[rotation.ring] = (offsets[rotation.ring] + rotation.steps) % 16
        points, _ = mover.gain(offsets)
        scored = outcome.state.scores[state.to_move or 0] - state.scores[state.to_move or 0]
        assert min(points, to_win) == scored


@st.composite
def _crowded_positions(draw: st.DrawFn) -> rings.State:
    """A hand-placed crowded position on a random 8-spoke board: snipes, blocks and entries."""
    seats = draw(st.integers(min_value=1, max_value=4))
    corners = [0, 2, 1, 3][:seats]
    closed = draw(st.sets(st.tuples(st.integers(0, 9), st.integers(0, 7)), max_size=30))
    closed -= {(0, 2 * corner) for corner in range(4)}
    entrances = draw(st.lists(st.integers(0, 7), min_size=1, max_size=4, unique=True))
    cells = draw(st.permutations([(ring, spoke) for ring in range(10) for spoke in range(8)]))
    pegs: list[tuple[int, int, int]] = []
    waiting = []
    scores = draw(st.lists(st.integers(0, 5), min_size=seats, max_size=seats))
    for seat in range(seats):
        count = draw(st.integers(0, rings.PEGS_PER_SEAT))
        pegs += [(seat, ring, spoke) for ring, spoke in cells[len(pegs) : len(pegs) + count]]
        left = rings.PEGS_PER_SEAT - count
        if seats == 1:  # solo: two bases, and a scored peg has left the game
            scores = [min(scores[0], left)]
            first = draw(st.integers(0, left - scores[0]))
            waiting.append([first, left - scores[0] - first])
        else:
            waiting.append([left])
    return position(
        board_json(closed, entrances=entrances, dice=(0, 1, 2, 4)),
        [(f"P{seat}", corner) for seat, corner in enumerate(corners)],
        pegs,
        waiting=waiting,
        scores=scores,
        variant="solo" if seats == 1 else "standard",
        to_move=draw(st.integers(0, seats - 1)),
        offsets=draw(st.lists(st.integers(0, 7), min_size=10, max_size=10)),
    )


@settings(max_examples=150, deadline=None)
@given(_crowded_positions(), st.lists(st.sampled_from((0, 1, 2, 4)), min_size=5, max_size=5))
def test_the_quick_answer_search_finds_the_greatest_gain_of_every_legal_set(
    state: rings.State, values: list[int]
) -> None:
    # The search plays every set at once on bit masks; here each legal set is played on its
    # own by the plain count (gain), and the search's answer must be a legal set whose gain
    # is the greatest, and the gain it says.
    rolled = dict(zip(rings.COLOURS, values, strict=True))
    mover = players._Mover(players._Context(state.board), state)
    gains = {}
    for rotations in rings.legal_rotation_sets(state, rolled):
        offsets = list(state.offsets)
        for rotation in rotations:
            offsets[rotation.ring] = (offsets[rotation.ring] + rotation.steps) % 8
        gains[rotations] = mover.gain(offsets)[1]
    answer, gain = mover.best(rolled)
    assert answer in gains
    assert gain == pytest.approx(gains[answer], abs=1e-9)
    assert gain == pytest.approx(max(gains.values()), abs=1e-9)


def test_a_point_is_a_whole_number_of_progress_units() -> None:
    # The quick answer search counts gains exactly in PROGRESS units.
    assert players._POINT_UNITS * players.PROGRESS == players.POINT


def test_the_quick_answer_search_returns_a_legal_set() -> None:
    state = _random_position(11)
    rolled: Mapping[str, int] = _some_roll(11, state.board)
    answer, _ = players._Mover(players._Context(state.board), state).best(rolled)
    assert answer in rings.legal_rotation_sets(state, rolled)


# --------------------------------------------------------------------------------------------
# Errors


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(
        ValueError, match=r"^level: expected one of easy, medium, hard, got 'expert'$"
    ):
        players.choose(_snipe_choice(), dice(red=1), "expert", random.Random(1))  # type: ignore[arg-type]


def test_a_finished_game_refuses_a_choice() -> None:
    state = rings.state_from_json(
        {**rings.state_to_json(_adjacent_threat()), "scores": [6, 0], "to_move": None, "winner": 0}
    )
    for level in players.LEVELS:
        with pytest.raises(IllegalAction, match=r"^the game is over$"):
            players.choose(state, dice(red=1), level, random.Random(1))


def test_advise_refuses_fewer_than_one_option() -> None:
    with pytest.raises(ValueError, match=r"^top: expected at least 1 option, got 0$"):
        players.advise(_snipe_choice(), dice(red=1), top=0)


def test_breakdown_refuses_a_seat_the_game_lacks() -> None:
    with pytest.raises(IndexError, match=r"^seat 3 is not one of the game's 3 seats$"):
        players.breakdown(_snipe_choice(), 3)


def test_bad_dice_are_refused_with_the_engines_messages() -> None:
    state = _snipe_choice()
    with pytest.raises(RecordError, match=r"^dice: expected exactly the colours red, blue"):
        players.rank(state, {"red": 1})
    with pytest.raises(IllegalAction, match=r"^the red die shows 3, not a face of this board"):
        players.choose(state, dice(red=3), "hard", random.Random(1))

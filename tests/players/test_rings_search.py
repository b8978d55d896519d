"""The ring-board search's bound and deadline (issue 23): the same options as before, in time.

The search before issue 23 is kept here, as the reference: every set fully evaluated in the
order of its bound without the turn-ahead terms, until the next bound cannot enter the first
``count`` (or after ``limit`` evaluations). The new search must give exactly its options
wherever it runs to the end, and past a deadline the best legal option found so far.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Mapping

import pytest

from companion.games import rings
from companion.games.base import IllegalAction
from companion.players import rings as players
from tests.players.test_rings_advisor import _random_position, _some_roll

Scored = tuple[float, tuple[rings.Rotation, ...], rings.Outcome, players.Breakdown]
Kept = tuple[
    float, tuple[tuple[int, int], ...], tuple[rings.Rotation, ...], rings.Outcome, players.Breakdown
]


def _key(rotations: tuple[rings.Rotation, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r.ring, r.steps) for r in rotations)


def _old_best(
    ctx: players._Context,
    state: rings.State,
    dice: Mapping[str, int],
    count: int,
    limit: int | None = None,
    *,
    entry: float = players.ENTRY,
) -> list[Scored]:
    """The search of issue 10, as it was: full evaluations in the order of the bound."""
    mover = state.to_move
    assert mover is not None
    bounds = []
    for rotations, outcome in rings.outcomes(state, dice):
        bound = players._breakdown(ctx, outcome.state, mover, ahead=False, entry=entry).total
        bounds.append((-bound, _key(rotations), rotations, outcome))
    bounds.sort(key=lambda item: (item[0], item[1]))
    kept: list[Kept] = []
    for evaluated, (negative, key, rotations, outcome) in enumerate(bounds):
        if len(kept) >= count and (negative, key) > (-kept[-1][0], kept[-1][1]):
            break
        if limit is not None and evaluated >= limit:
            break
        terms = players._breakdown(ctx, outcome.state, mover, entry=entry)
        kept.append((terms.total, key, rotations, outcome, terms))
        kept.sort(key=lambda item: (-item[0], item[1]))
        del kept[count:]
    return [(total, rotations, outcome, terms) for total, _, rotations, outcome, terms in kept]


def _old_hard(state: rings.State, dice: Mapping[str, int], rng: random.Random) -> object:
    """Hard as it was: the old search's candidates, then the same sampled replies."""
    ctx = players._Context(state.board)
    count, limit = players.HARD_CANDIDATES, players.HARD_EVALUATIONS
    ranked = _old_best(ctx, state, dice, count, limit, entry=players.HARD_ENTRY)
    never = players._Deadline(None, lambda: 0.0)
    return players._replies(ctx, state, ranked, rng, never)


def _case(seed: int) -> tuple[rings.State, dict[str, int]]:
    """A 2-, 3- or 4-seat game after 5 to 40 random legal turns, and a roll that wins for no
    set (every die shown, or one die 0): positions where every seat's pegs can snipe."""
    rng = random.Random(seed)
    seats = 2 + seed % 3
    corners = [0, 2, 1, 3][:seats]
    setup = {
        "board": "reference",
        "variant": "standard",
        "seats": [{"name": f"P{i}", "corner": c} for i, c in enumerate(corners)],
    }
    state = rings.new_game(setup)
    for _ in range(rng.randint(5, 40)):
        rolled = rings.roll(rng, state.board)
        turn = rings.Turn(rolled, rng.choice(rings.legal_rotation_sets(state, rolled)))
        if rings.apply(state, turn).over:
            break
        state = rings.apply(state, turn)
    while True:
        rolled = rings.roll(rng, state.board)
        if seed % 2:
            rolled[rng.choice(rings.COLOURS)] = 0
        if not any(outcome.state.over for _, outcome in rings.outcomes(state, rolled)):
            return state, rolled


class SteppingClock:
    """A clock that moves on by ``step`` seconds each time it is read; counts its reads."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


# --------------------------------------------------------------------------------------------
# The same options as the search before


@pytest.mark.parametrize("seed", range(24))
def test_hints_and_medium_give_the_old_searchs_options(seed: int) -> None:
    state, rolled = _case(seed)
    old = _old_best(players._Context(state.board), state, rolled, 6)
    hints = players.advise(state, rolled, 6, deadline_s=None)
    assert [(o.rotations, o.score, o.breakdown) for o in hints] == [
        (rotations, total, terms) for total, rotations, _, terms in old
    ]
    medium = players.choose(state, rolled, "medium", random.Random(seed), deadline_s=None)
    assert medium == old[0][1]


@pytest.mark.parametrize("seed", range(24))
def test_hard_gives_the_old_searchs_choice(seed: int) -> None:
    state, rolled = _case(seed)
    old = _old_hard(state, rolled, random.Random(seed))
    assert players.choose(state, rolled, "hard", random.Random(seed), deadline_s=None) == old


@pytest.mark.parametrize("seed", range(8))
def test_a_deadline_never_reached_changes_nothing(seed: int) -> None:
    state, rolled = _case(seed)
    unbounded = players.advise(state, rolled, deadline_s=None)
    assert players.advise(state, rolled, deadline_s=1e9, clock=SteppingClock(1.0)) == unbounded
    for level in ("medium", "hard"):
        assert players.choose(
            state, rolled, level, random.Random(seed), deadline_s=1e9, clock=SteppingClock(1.0)
        ) == players.choose(state, rolled, level, random.Random(seed), deadline_s=None)


# --------------------------------------------------------------------------------------------
# Past the deadline: the best legal option found so far


def _hard_case() -> tuple[rings.State, dict[str, int]]:
    """A 4-seat position whose roll shows every die: 1,024 sets (the old search's worst)."""
    for seed in range(100):
        state = _random_position(seed, seats=4)
        rolled = _some_roll(seed, state.board, zeros=0)
        if all(rolled.values()) and len(rings.legal_rotation_sets(state, rolled)) == 1024:
            return state, rolled
    raise AssertionError("no 4-seat position with every die shown")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_past_the_deadline_a_decision_stops_and_plays_a_legal_set(level: players.Level) -> None:
    state, rolled = _hard_case()
    # The clock moves on a second at each read, the deadline is half a second away: the
    # search stops at its first look at the clock.
    clock = SteppingClock(1.0)
    chosen = players.choose(state, rolled, level, random.Random(1), deadline_s=0.5, clock=clock)
    assert chosen in rings.legal_rotation_sets(state, rolled)
    assert clock.reads <= 3
    unbounded = SteppingClock(1.0)
    players.choose(state, rolled, level, random.Random(1), deadline_s=1e9, clock=unbounded)
    assert unbounded.reads > 100  # the whole search looks at the clock at every step


def test_past_the_deadline_the_hints_are_fully_evaluated_legal_options() -> None:
    state, rolled = _hard_case()
    ranking = {_key(o.rotations): o for o in players.rank(state, rolled)}
    for reads in (1, 5, 40):
        # The deadline passes at the clock's ``reads``-th look after the start.
        clock = SteppingClock(1.0)
        hints = players.advise(state, rolled, 3, deadline_s=reads + 0.5, clock=clock)
        assert clock.reads <= reads + 2
        assert len(hints) == 3
        assert len({_key(o.rotations) for o in hints}) == 3
        # Each is evaluated as the whole ranking evaluates it, and they come best first.
        for option in hints:
            assert option == ranking[_key(option.rotations)]
        assert [o.score for o in hints] == sorted((o.score for o in hints), reverse=True)


@pytest.mark.parametrize("seed", range(60))
def test_pruning_never_changes_the_head_of_the_whole_ranking(seed: int) -> None:
    # Three dice show 0 (at most 64 sets), so the whole ranking is cheap: the first ten
    # hints are its first ten, with the same scores, terms and texts, in the same order.
    state, rolled = _case(seed)
    for colour in random.Random(seed).sample(rings.COLOURS, 3):
        rolled[colour] = 0
    assert players.advise(state, rolled, 10, deadline_s=None) == players.rank(state, rolled)[:10]


@pytest.mark.parametrize("seed", range(12))
def test_the_bound_of_every_set_is_its_evaluation_without_the_turn_ahead_terms(seed: int) -> None:
    # The search bounds each set with a sum made apart from the evaluation: it must be the
    # evaluation's own total without exposure and threats, the same float.
    state, rolled = _case(seed)
    ctx = players._Context(state.board)
    mover = state.to_move
    assert mover is not None
    for _, outcome in rings.outcomes(state, rolled):
        for entry in (players.ENTRY, players.HARD_ENTRY):
            terms = players._breakdown(ctx, outcome.state, mover, ahead=False, entry=entry)
            assert players._settled(ctx, outcome.state, mover, entry) == terms.total


# --------------------------------------------------------------------------------------------
# The collector is held off during a search, and left as it was found


def test_a_search_runs_without_the_cyclic_collector_and_turns_it_back_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    settled = players._settled

    def watching(ctx: players._Context, state: rings.State, seat: int, entry: float) -> float:
        seen.append(gc.isenabled())
        return settled(ctx, state, seat, entry)

    monkeypatch.setattr(players, "_settled", watching)
    state, rolled = _case(2)
    assert gc.isenabled()
    players.advise(state, rolled)
    players.choose(state, rolled, "medium", random.Random(1))
    players.choose(state, rolled, "hard", random.Random(1))
    assert seen
    assert not any(seen)
    assert gc.isenabled()


def test_a_search_that_fails_turns_the_collector_back_on() -> None:
    state, rolled = _case(2)
    rolled["red"] = 7  # not a face of the reference board
    with pytest.raises(IllegalAction):
        players.advise(state, rolled)
    assert gc.isenabled()


def test_a_search_leaves_a_collector_that_was_off_off() -> None:
    state, rolled = _case(2)
    gc.disable()
    try:
        players.advise(state, rolled)
        assert not gc.isenabled()
    finally:
        gc.enable()

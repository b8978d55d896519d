"""Hypothesis properties over random legal Icehouse games for 2 to 5 seats."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import icehouse
from companion.games.base import replay
from companion.games.icehouse import Collect, Fall, Outcome, Pick, Score, State, Take
from tests.conftest import run_cli
from tests.games.icehouse_helpers import BLOCK_KINDS, block_path, record

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


@dataclass(frozen=True)
class Game:
    """A whole random game: the record and every state and outcome on the way."""

    record: dict[str, object]
    states: list[State]
    outcomes: list[Outcome]

    def __repr__(self) -> str:
        return f"Game(record={json.dumps(self.record)})"


@st.composite
def games(draw: st.DrawFn) -> Game:
    """Play a random legal game to its end.

    ``reach`` is how far ahead picks tend to land: small values make long games with many
    pieces falling one by one, large ones short games with big drops into the Eye.
    """
    seats = NAMES[: draw(st.integers(2, 5), label="seats")]
    path = draw(st.one_of(st.permutations(block_path()), st.just(block_path())), label="path")
    rng = random.Random(draw(st.integers(0, 2**32), label="play seed"))
    reach = draw(st.sampled_from([0.3, 1.0, 3.0, 10.0, 40.0]), label="reach")
    state = icehouse.new_game(record(seats, path, []))
    states, outcomes, picks = [state], [], []
    while not icehouse.is_over(state):
        legal = icehouse.legal_actions(state)
        pick = legal[min(int(rng.expovariate(1 / reach)), len(legal) - 1)]
        outcome = icehouse.resolve(state, pick)
        state = outcome.state
        picks.append(pick.index)
        states.append(state)
        outcomes.append(outcome)
        assert len(picks) <= 75, "a game cannot last more than 75 picks"
    return Game(record(seats, path, picks), states, outcomes)


def kinds_on_path(state: State) -> set[str]:
    return {state.path[i] for i in icehouse.left_on_path(state)}


@settings(max_examples=300)
@given(games())
def test_the_75_pieces_are_always_on_the_path_held_or_in_the_eye(game: Game) -> None:
    for state in game.states:
        got = icehouse.summary(state)
        where = Counter[str]()
        for held in got["held"].values():
            where.update(held)
        where.update(got["eye"])
        where.update(state.path[i] for i in got["left"])
        assert where == Counter(dict.fromkeys(BLOCK_KINDS, 5))
        assert sum(where.values()) == 75


@settings(max_examples=300)
@given(games())
def test_every_kind_is_scored_exactly_once_and_as_soon_as_none_is_left_on_the_path(
    game: Game,
) -> None:
    for state in game.states:
        assert len(set(state.scored)) == len(state.scored)
        assert set(state.scored) == set(BLOCK_KINDS) - kinds_on_path(state)
    assert sorted(game.states[-1].scored) == sorted(BLOCK_KINDS)


@settings(max_examples=300)
@given(games())
def test_total_points_are_5_times_the_kinds_not_wholly_lost_to_the_eye(game: Game) -> None:
    for state in game.states:
        eye = icehouse.eye_pieces(state)
        kept = [kind for kind in state.scored if eye.get(kind, 0) < 5]
        assert sum(state.scores) == 5 * len(kept)
    final = game.states[-1]
    lost = [kind for kind, count in icehouse.eye_pieces(final).items() if count == 5]
    assert sum(final.scores) == 5 * (15 - len(lost))


@settings(max_examples=200)
@given(games())
def test_replay_of_the_record_equals_the_live_state(game: Game) -> None:
    final = game.states[-1]
    assert replay(icehouse, game.record) == final
    result = run_cli(["replay", "-"], stdin=json.dumps(game.record))
    assert result.status == 0, result.stderr
    assert result.json() == icehouse.summary(final)


@settings(max_examples=150)
@given(games())
def test_states_and_picks_round_trip_through_json(game: Game) -> None:
    for state in [*game.states[:: max(1, len(game.states) // 6)], game.states[-1]]:
        text = json.dumps(icehouse.state_to_json(state))
        assert icehouse.state_from_json(json.loads(text)) == state
    for outcome in game.outcomes:
        pick = Pick(outcome.state.picks[-1])
        written = json.loads(json.dumps(icehouse.action_to_json(pick)))
        assert icehouse.parse_action(outcome.state, written) == pick
        for event in outcome.events:
            json.dumps(icehouse.event_to_json(event, outcome.state))


@settings(max_examples=300)
@given(games())
def test_games_end_exactly_when_nothing_is_legal(game: Game) -> None:
    for state in game.states[:-1]:
        assert not icehouse.is_over(state)
        mover = icehouse.seat_to_move(state)
        assert mover is not None
        assert icehouse.legal_actions(state)
        assert not icehouse.reached_end(state, mover)
    final = game.states[-1]
    assert icehouse.is_over(final)
    assert icehouse.legal_actions(final) == []
    assert final.winner is not None and final.to_move is None
    assert icehouse.left_on_path(final) == []
    best = max(final.scores)
    leaders = [s for s, points in enumerate(final.scores) if points == best]
    assert final.winner == max(leaders, key=lambda s: final.pawns[s])


@settings(max_examples=300)
@given(games())
def test_events_say_exactly_what_changed(game: Game) -> None:
    for before, outcome in zip(game.states[:-1], game.outcomes, strict=True):
        after = outcome.state
        take = outcome.events[0]
        assert isinstance(take, Take)
        assert take.seat == before.to_move and take.index == after.picks[-1]
        assert after.pawns[take.seat] == take.index > before.pawns[take.seat]
        falls = {e.index for e in outcome.events if isinstance(e, Fall)}
        fell = {
            i
            for i in range(75)
            if before.places[i] == icehouse.ON_PATH and after.places[i] == icehouse.IN_EYE
        }
        assert falls == fell
        assert all(i < min(after.pawns) for i in fell)
        points = [0] * len(before.seats)
        for event in outcome.events:
            if isinstance(event, Score):
                for award in event.awards:
                    points[award.seat] += award.points
        assert [a - b for a, b in zip(after.scores, before.scores, strict=True)] == points
        collected = [e for e in outcome.events if isinstance(e, Collect)]
        if collected:
            assert icehouse.is_over(after)
            assert after.pawns[collected[0].seat] == before.pawns[collected[0].seat]
        # Pawns never move back and only the mover's moves.
        moved = [s for s in range(len(before.seats)) if after.pawns[s] != before.pawns[s]]
        assert moved == [take.seat]

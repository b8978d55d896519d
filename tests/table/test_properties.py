"""Properties over random play through the table: the state is always the replay of its
export, undo restores the state before the undone step, and a restart changes nothing."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import rings
from companion.games.base import replay
from companion.table import Table
from tests.table.conftest import TWO_SEATS


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), steps=st.lists(st.sampled_from("tturd"), max_size=25))
def test_random_play_and_undo_keep_the_state_the_replay_of_the_journal(
    seed: int, steps: list[str]
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        with Table(Path(folder)) as table:
            game = table.create_game({**TWO_SEATS, "seed": seed % 1000})
            game_id, version = game["id"], game["version"]
            history = [table.get_game(game_id)["state"]]
            for step in steps:
                state = replay(rings, table.export(game_id))
                if step == "u" and len(history) > 1:
                    game = table.undo(game_id, version)
                    history.pop()
                    assert {k: game["state"][k] for k in rings.summary(state)} == {
                        k: history[-1][k] for k in rings.summary(state)
                    }
                elif step == "r" and not rings.is_over(state):
                    game = table.act(game_id, version, {"roll": True})
                elif step in "td" and not rings.is_over(state):
                    roll = rings.roll(rng, state.board)
                    chosen = rng.choice(rings.legal_rotation_sets(state, roll))
                    turn = {
                        "dice": roll,
                        "rotations": [{"ring": r.ring, "steps": r.steps} for r in chosen],
                    }
                    game = table.act(game_id, version, turn)
                    history.append(game["state"])
                else:
                    continue
                assert game["version"] == version + 1
                version = game["version"]
                replayed = rings.summary(replay(rings, table.export(game_id)))
                assert {k: game["state"][k] for k in replayed} == replayed
            before = table.get_game(game_id)
        with Table(Path(folder)) as table:
            assert table.get_game(game_id) == before

"""A long ring-board game as a record: a solo game on the reference board, ``turns`` turns.

The benchmarks of live updates and their tests need a game of hundreds of turns (issue 23
measures a 650-turn one); a two-seat game ends long before, a solo game goes on. Each turn
rolls dice from a fixed seed and takes, of the legal ring turns, one that keeps the game
going (never one that ends it), entering and adding pegs as little as it can.
"""

from __future__ import annotations

import random

from companion.games import rings

SETUP = {"board": "reference", "variant": "solo", "seats": [{"name": "Ann", "corner": 0}]}


def long_record(turns: int, seed: int = 1) -> dict[str, object]:
    """The record of a solo game of ``turns`` turns (``{"record": ...}`` imports it)."""
    state = rings.new_game(SETUP)
    faces = sorted(set(state.board.dice))
    chance = random.Random(seed)
    played: list[dict[str, object]] = []
    while len(played) < turns:
        if rings.is_over(state):
            raise RuntimeError(f"the solo game ended after {len(played)} turns")
        dice = {colour: chance.choice(faces) for colour in rings.COLOURS}
        best: tuple[tuple[bool, int, int], rings.Turn, rings.State] | None = None
        now = (False, sum(state.scores), len(state.peg_cells()))
        for rotations in rings.legal_rotation_sets(state, dice):
            turn = rings.Turn(dice, rotations)
            after = rings.apply(state, turn)
            key = (rings.is_over(after), sum(after.scores), len(after.peg_cells()))
            if best is None or key < best[0]:
                best = (key, turn, after)
            if key <= now:
                break  # no peg entered nor added: good enough, and quicker than every set
        assert best is not None  # no ring turned is always a set
        played.append(rings.action_to_json(best[1]))
        state = best[2]
    return {"game": "rings", **SETUP, "turns": played}

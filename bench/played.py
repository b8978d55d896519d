"""Records of games played with random legal moves, of all four kinds, as a family's box holds.

:func:`record` makes one record (``{"game", ...setup, <steps>}``) that the table imports
(``Table.create_game({"record": ...})``); most games are finished, one in eight is left
under way. The same ``seed`` always gives the same record. ``bench/startup_memory.py`` stores
1,000 of them; the table's tests use a few.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import cards, icehouse, rings, stones

KINDS = ("rings", "icehouse", "cards", "stones")
NAMES = ("Ann", "Bo", "Cy", "Di")
CORNERS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
STEP_CAP = 400  # a random ring-board game may wander; a family's stops far sooner


def record(kind: str, seed: int, steps: int | None = None) -> dict[str, Any]:
    """A record of ``kind`` played with random legal moves (``steps``: stop after that many)."""
    rng = random.Random(seed)
    unfinished = rng.random() < 0.125
    cap = steps if steps is not None else (rng.randint(3, 30) if unfinished else STEP_CAP)
    return MAKERS[kind](rng, cap)


def _rings(rng: random.Random, cap: int) -> dict[str, Any]:
    count = rng.choice((2, 2, 3, 4))
    setup: dict[str, Any] = {
        "game": "rings",
        "board": "reference",
        "variant": "standard",
        "seats": [{"name": NAMES[i], "corner": c} for i, c in enumerate(CORNERS[count])],
    }
    state = rings.new_game(setup)
    turns: list[Any] = []
    while not state.over and len(turns) < cap:
        dice = rings.roll(rng, state.board)
        turn = rings.Turn(dice, rng.choice(rings.legal_rotation_sets(state, dice)))
        turns.append(rings.action_to_json(turn))
        state = rings.apply(state, turn)
    return {**setup, rings.ACTIONS_KEY: turns}


def _icehouse(rng: random.Random, cap: int) -> dict[str, Any]:
    setup: dict[str, Any] = {
        "game": "icehouse",
        "seats": list(NAMES[: rng.choice((2, 3, 4))]),
        "seed": rng.randrange(2**31),
    }
    return _played(icehouse, setup, rng, cap)


def _cards(rng: random.Random, cap: int) -> dict[str, Any]:
    setup: dict[str, Any] = {"game": "cards", "seats": ["Ann", "Bo"]}
    if rng.random() < 0.5:
        setup["mode"] = "table"
    else:
        setup["seed"] = rng.randrange(2**31)
    return _played(cards, setup, rng, cap)


def _stones(rng: random.Random, cap: int) -> dict[str, Any]:
    seats = list(NAMES[: rng.choice((2, 3, 4))])
    setup: dict[str, Any] = {"game": "stones", **stones.random_setup(rng.randrange(2**31), seats)}
    return _played(stones, setup, rng, cap)


def _played(engine: Any, setup: dict[str, Any], rng: random.Random, cap: int) -> dict[str, Any]:
    state = engine.new_game(setup)
    steps: list[Any] = []
    while not engine.is_over(state) and len(steps) < cap:
        legal = engine.legal_actions(state)
        if not legal:
            break
        action = rng.choice(legal)
        steps.append(engine.action_to_json(action))
        state = engine.apply(state, action)
    return {**setup, engine.ACTIONS_KEY: steps}


MAKERS = {"rings": _rings, "icehouse": _icehouse, "cards": _cards, "stones": _stones}

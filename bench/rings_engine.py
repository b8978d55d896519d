"""Benchmark the ring-board rules engine on the reference board.

Prints the median and 99th-percentile time to resolve one turn (checks, rotations, advance,
entry, events), and the time to enumerate and resolve every legal rotation set of a roll
(the worst case, five dice each showing a non-zero face: 4**5 = 1,024 sets).

Run: ``.venv/bin/python bench/rings_engine.py``
"""

from __future__ import annotations

import random
import statistics
import time

from companion.games import rings


def mid_game_states(count: int, seed: int = 1) -> list[rings.State]:
    """Play random legal games on the reference board; keep states from their middle."""
    rng = random.Random(seed)
    board = rings.load_board("reference")
    states: list[rings.State] = []
    while len(states) < count:
        seats = [{"name": f"P{i}", "corner": i} for i in range(rng.randint(2, 4))]
        state = rings.new_game({"board": "reference", "variant": "standard", "seats": seats})
        for _ in range(rng.randint(5, 40)):
            if state.over:
                break
            sets = rings.legal_rotation_sets(state, dice := rings.roll(rng, board))
            state = rings.apply(state, rings.Turn(dice, rng.choice(sets)))
        if not state.over:
            states.append(state)
    return states


def bench_one_turn(states: list[rings.State], rounds: int = 20_000) -> list[float]:
    rng = random.Random(2)
    board = states[0].board
    cases = []
    for state in states:
        dice = rings.roll(rng, board)
        cases.append((state, rings.Turn(dice, rng.choice(rings.legal_rotation_sets(state, dice)))))
    times = []
    clock = time.perf_counter
    for index in range(rounds):
        state, turn = cases[index % len(cases)]
        start = clock()
        rings.resolve(state, turn)
        times.append(clock() - start)
    return times


def bench_whole_roll(states: list[rings.State], rounds: int = 60) -> list[float]:
    dice = {"red": 1, "blue": 2, "green": 3, "yellow": 2, "brown": 1}
    times = []
    clock = time.perf_counter
    for index in range(rounds):
        state = states[index % len(states)]
        start = clock()
        results = rings.outcomes(state, dice)
        times.append(clock() - start)
        assert len(results) == 1024
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    states = mid_game_states(200)
    turn = bench_one_turn(states)
    whole = bench_whole_roll(states)
    print("rings engine, reference board (16 spokes), mid-game states of 2-4 seats")
    print(
        f"one turn (resolve with events): median {statistics.median(turn) * 1e6:.1f} us, "
        f"p99 {percentile(turn, 0.99) * 1e6:.1f} us   (target: median < 40 us)"
    )
    print(
        f"whole roll (enumerate + resolve all 1,024 sets): median "
        f"{statistics.median(whole) * 1e3:.1f} ms, p99 {percentile(whole, 0.99) * 1e3:.1f} ms"
        "   (target: < 40 ms)"
    )


if __name__ == "__main__":
    main()

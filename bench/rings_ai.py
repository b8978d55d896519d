"""Benchmark the ring-board computer seats (issue 10) on the reference board.

Prints, per level, the time of one decision (median and 95th percentile, over mid-game
two-seat positions and random rolls; target: hard under 200 ms), then the strength of each
level from self-play: two-seat ``standard`` games (corners 0 and 2), the seats swapped every
other game, each with its own seed. A game still running after ``--cap`` turns is stopped
and counted as a draw (a draw is not a win). Win rates come with 95% Wilson intervals.

Run: ``.venv/bin/python bench/rings_ai.py`` (``--games 400`` by default; ``--only time`` or
``--only strength``; ``--match hard-medium`` plays one pairing; ``--jobs 2`` plays two games
at once, with the same results; long: run it with ``nohup ... > log &``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from contextlib import nullcontext

from companion.games import rings
from companion.players import rings as players

SETUP = {
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "North", "corner": 0}, {"name": "South", "corner": 2}],
}


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (centre - half, centre + half)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def mid_game_positions(count: int, seed: int) -> list[rings.State]:
    """Play two-seat games with random legal sets and keep positions from their middle."""
    rng = random.Random(seed)
    board = rings.load_board("reference")
    positions: list[rings.State] = []
    while len(positions) < count:
        state = rings.new_game(SETUP)
        for _ in range(rng.randint(0, 30)):
            if state.over:
                break
            dice = rings.roll(rng, board)
            state = rings.apply(
                state, rings.Turn(dice, rng.choice(rings.legal_rotation_sets(state, dice)))
            )
        if not state.over:
            positions.append(state)
    return positions


def bench_time(decisions: int, seed: int) -> None:
    positions = mid_game_positions(decisions, seed)
    board = positions[0].board
    print(f"decision time, {decisions} mid-game two-seat positions with random rolls")
    for level in players.LEVELS:
        rng = random.Random(seed + 1)
        times = []
        for state in positions:
            dice = rings.roll(rng, board)
            start = time.perf_counter()
            players.choose(state, dice, level, rng)
            times.append(time.perf_counter() - start)
        target = "   (target: < 200 ms)" if level == "hard" else ""
        print(
            f"  {level:6s}: median {statistics.median(times) * 1e3:6.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1e3:6.1f} ms, max {max(times) * 1e3:6.1f} ms{target}",
            flush=True,
        )
    rng = random.Random(seed + 2)
    ranks = []
    hints = []
    for state in positions[: max(1, decisions // 4)]:
        dice = rings.roll(rng, board)
        start = time.perf_counter()
        players.rank(state, dice)
        ranks.append(time.perf_counter() - start)
        start = time.perf_counter()
        players.advise(state, dice)
        hints.append(time.perf_counter() - start)
    for name, times in (
        ("rank (every set, full evaluation)", ranks),
        ("advise (the panel's best three)", hints),
    ):
        print(
            f"  {name}: median {statistics.median(times) * 1e3:6.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1e3:6.1f} ms, max {max(times) * 1e3:6.1f} ms",
            flush=True,
        )


def play(
    levels: tuple[players.Level, players.Level], seed: int, cap: int
) -> tuple[int | None, int]:
    """Play one game, seat i at ``levels[i]``; return (winner seat or None if capped, turns)."""
    rng = random.Random(seed)
    state = rings.new_game(SETUP)
    board = state.board
    while not state.over and state.turns < cap:
        mover = state.to_move
        assert mover is not None
        dice = rings.roll(rng, board)
        rotations = players.choose(state, dice, levels[mover], rng)
        state = rings.apply(state, rings.Turn(dice, rotations))
    return state.winner, state.turns


Task = tuple[players.Level, players.Level, int, int, int]
"""One game of a match: (first level, second level, game index, match seed, turn cap)."""


def play_game(task: Task) -> tuple[bool, int | None, int]:
    """Play game ``index`` of a match (seats swapped on odd games); return (swapped, winner,
    turns). A top-level function, so that worker processes can run it."""
    first, second, index, seed, cap = task
    swapped = index % 2 == 1
    levels = (second, first) if swapped else (first, second)
    return (swapped, *play(levels, seed * 100_003 + index, cap))


def bench_match(
    first: players.Level, second: players.Level, games: int, seed: int, cap: int, jobs: int = 1
) -> None:
    wins = losses = draws = 0
    lengths = []
    start = time.perf_counter()
    tasks = [(first, second, game, seed, cap) for game in range(games)]
    with multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else nullcontext() as pool:
        results = pool.imap(play_game, tasks) if pool is not None else map(play_game, tasks)
        for game, (swapped, winner, turns) in enumerate(results):
            lengths.append(turns)
            if winner is None:
                draws += 1
            elif (winner == 1) == swapped:
                wins += 1
            else:
                losses += 1
            if (game + 1) % 50 == 0:
                print(f"    ... {game + 1} games: {wins}-{losses}-{draws}", flush=True)
    low, high = wilson(wins, games)
    print(
        f"  {first} vs {second}: {games} games, {first} won {wins}, lost {losses}, "
        f"drew {draws} (capped at {cap} turns); win rate {wins / games:.1%} "
        f"[95% Wilson {low:.1%} .. {high:.1%}]; turns median {statistics.median(lengths):.0f}; "
        f"{time.perf_counter() - start:.0f} s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--cap", type=int, default=300, help="turn cap; a capped game is a draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("time", "strength"))
    parser.add_argument(
        "--match",
        choices=("medium-easy", "hard-medium"),
        help="play only this pairing (default: both)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once, in worker processes"
    )
    args = parser.parse_args(argv)
    print("ring-board computer seats, reference board (16 spokes), two seats at corners 0 and 2")
    if args.only != "strength":
        bench_time(args.decisions, args.seed)
    if args.only != "time":
        print(f"strength: {args.games} games per pairing, seats swapped every other game")
        if args.match != "hard-medium":
            bench_match("medium", "easy", args.games, args.seed, args.cap, args.jobs)
            print("  (target: medium wins >= 80%)", flush=True)
        if args.match != "medium-easy":
            bench_match("hard", "medium", args.games, args.seed, args.cap, args.jobs)
            print("  (target: hard wins >= 60%)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

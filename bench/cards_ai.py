"""Benchmark the card game's computer seat (issue 11): decision time and playing strength.

Run: ``.venv/bin/python bench/cards_ai.py`` (everything; about half an hour on one core), or
one part: ``--part timing``, ``--part random`` (hard against uniformly random legal play) or
``--part easy`` (hard against easy). Prints:

- time per decision at each level (median, p95, max) at the default budget, over positions
  met in games between the two levels;
- strength over ``--games`` games (default 400), the hard seat and the first player swapped
  every other game on the same deck (seat 0 always moves first), with 95% Wilson intervals.
  A shared win counts half. The strength runs cap hard at ``--iterations`` search
  iterations per decision (deterministic, and cheaper than the default wall-time budget).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import cards
from companion.players import cards as ai

NONE: cards.Cards = (0, 0, 0, 0, 0, 0)
Player = str  # "easy", "hard" or "random"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(
    players: tuple[Player, Player],
    seed: int,
    rng: random.Random,
    budget_ms: int,
    iterations: int | None,
    timings: dict[str, list[float]] | None = None,
) -> cards.State:
    """Play one game through the engine, each computer seat deciding from its view."""
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": seed})
    seen = [NONE, NONE]
    while not cards.is_over(state):
        seat = cards.acting_seat(state)
        assert seat is not None
        player = players[seat]
        legal = cards.legal_actions(state)
        if player == "random":
            action = rng.choice(legal)
        else:
            view = ai.view_of(state, seat, seen[seat])
            level: ai.Level = "hard" if player == "hard" else "easy"
            began = time.perf_counter()
            action = ai.decide(view, level, rng, budget_ms, iterations)
            if timings is not None and len(legal) > 1:
                timings.setdefault(player, []).append(time.perf_counter() - began)
        if action not in legal:
            raise AssertionError(f"{player} chose an illegal action {action!r}")
        after = cards.apply(state, action)
        seen = [ai.observe(seen[s], state, action, after, s) for s in (0, 1)]
        state = after
    return state


def timing(games: int) -> None:
    timings: dict[str, list[float]] = {}
    rng = random.Random(2026)
    for g in range(games):
        players = ("hard", "easy") if g % 2 == 0 else ("easy", "hard")
        play_game(players, 50_000 + g, rng, ai.DEFAULT_BUDGET_MS, None, timings)
    print(f"time per decision, default budget {ai.DEFAULT_BUDGET_MS} ms ({games} games):")
    for level in ("easy", "hard"):
        ms = sorted(t * 1000 for t in timings[level])
        p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
        print(
            f"  {level}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
            f"max {ms[-1]:.1f} ms over {len(ms)} decisions"
        )
    sys.stdout.flush()


def strength(opponent: Player, games: int, iterations: int) -> None:
    rng = random.Random(7)
    wins = 0.0
    began = time.perf_counter()
    decisions = 0
    for g in range(games):
        hard_seat = g % 2
        players: tuple[Player, Player] = (
            ("hard", opponent) if hard_seat == 0 else (opponent, "hard")
        )
        timings: dict[str, list[float]] = {}
        final = play_game(players, 10_000 + g // 2, rng, 10_000, iterations, timings)
        decisions += len(timings.get("hard", []))
        best = cards.winner(final)
        wins += 1.0 if best == hard_seat else 0.5 if best is None else 0.0
        if (g + 1) % 50 == 0:
            low, high = wilson(wins, g + 1)
            print(
                f"  ... {g + 1} games: {wins / (g + 1):.1%} [{low:.1%}, {high:.1%}] "
                f"({time.perf_counter() - began:.0f} s)",
                flush=True,
            )
    low, high = wilson(wins, games)
    spent = time.perf_counter() - began
    print(
        f"hard ({iterations} iterations) vs {opponent}: {wins:g}/{games} wins = "
        f"{wins / games:.1%}, 95% Wilson [{low:.1%}, {high:.1%}]; "
        f"{spent:.0f} s, {spent / max(1, decisions) * 1000:.0f} ms per hard decision",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "timing", "random", "easy"], default="all")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--timing-games", type=int, default=6)
    args = parser.parse_args()
    if args.part in ("all", "timing"):
        timing(args.timing_games)
    if args.part in ("all", "random"):
        strength("random", args.games, args.iterations)
    if args.part in ("all", "easy"):
        strength("easy", args.games, args.iterations)


if __name__ == "__main__":
    main()

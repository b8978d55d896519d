"""Benchmark every ring-board decision that a phone or a computer seat waits for (issue 23).

Over ``--positions`` random positions (500 by default: 2-, 3- and 4-seat ``standard`` games
in turn on the reference board, each reached by random legal play from the start, then a
random roll), it times the panel's hints (``advise``, the best three), a medium decision and a
hard decision, and prints the median, 99th percentile and maximum of each in wall time
(targets: every one under 150 ms on this machine, under 1.5 s on the Pi Zero 2 stand-in and
never over 2 s), the same in CPU time (the thread's own: what load inflates least), then the
worst case per seat count.

It runs twice in one go through ``bench/zero2.py``: unconstrained, then on one core limited to
10% (the Zero 2 stand-in); ``--only host`` or ``--only zero2`` runs one. Other processes on
the machine inflate wall times; say so next to the figures.

Run: ``.venv/bin/python bench/rings_decisions.py [--positions N] [--seed S] [--no-deadline]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import zero2  # noqa: E402

from companion.games import rings  # noqa: E402
from companion.players import rings as players  # noqa: E402

CORNERS = (0, 2, 1, 3)
TURNS = 70
"""Random positions stop after up to this many turns (random games last 30-70)."""


def positions(count: int, seed: int) -> list[tuple[rings.State, dict[str, int]]]:
    """Return ``count`` (position, roll) pairs: 2, 3, 4 seats in turn, random legal play."""
    rng = random.Random(seed)
    found: list[tuple[rings.State, dict[str, int]]] = []
    while len(found) < count:
        seats = 2 + len(found) % 3
        state = rings.new_game(
            {
                "board": "reference",
                "variant": "standard",
                "seats": [{"name": f"P{i}", "corner": c} for i, c in enumerate(CORNERS[:seats])],
            }
        )
        for _ in range(rng.randint(0, TURNS)):
            if state.over:
                break
            dice = rings.roll(rng, state.board)
            state = rings.apply(
                state, rings.Turn(dice, rng.choice(rings.legal_rotation_sets(state, dice)))
            )
        if not state.over:
            found.append((state, rings.roll(rng, state.board)))
    return found


def timed(call: Callable[[], object]) -> tuple[float, float]:
    """Return the wall time and the CPU time of one call."""
    start, cpu = time.perf_counter(), time.thread_time()
    call()
    return time.perf_counter() - start, time.thread_time() - cpu


def decisions(
    index: int, state: rings.State, dice: dict[str, int], deadline: float | None
) -> tuple[tuple[float, float], ...]:
    """Time the hints, a medium and a hard decision for one position."""
    return (
        timed(lambda: players.advise(state, dice, deadline_s=deadline)),
        timed(
            lambda: players.choose(state, dice, "medium", random.Random(index), deadline_s=deadline)
        ),
        timed(
            lambda: players.choose(state, dice, "hard", random.Random(index), deadline_s=deadline)
        ),
    )


def spread(seconds: list[float]) -> str:
    """Say the median, p99 and maximum of some durations, in ms."""
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) * 1e3:7.1f} ms   p99 {p99 * 1e3:7.1f} ms   "
        f"max {ordered[-1] * 1e3:7.1f} ms"
    )


def figures(name: str, times: list[tuple[float, float]]) -> str:
    """Say the median, p99 and maximum wall time, then the same of the CPU time (the
    thread's own time: other processes inflate it far less than the wall time)."""
    return (
        f"  {name:7s} wall {spread([wall for wall, _ in times])}\n"
        f"  {'':7s} CPU  {spread([cpu for _, cpu in times])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument(
        "--no-deadline",
        action="store_true",
        help="let every search run to its end: its CPU time is then its whole cost, which a "
        "loaded machine inflates far less than the wall time (the deadline cuts both short)",
    )
    args = parser.parse_args()
    cases = positions(args.positions, args.seed)
    print(
        f"  {len(cases)} positions (2, 3 and 4 seats in turn), reference board, random rolls",
        flush=True,
    )
    times: dict[str, list[tuple[float, float]]] = {"hints": [], "medium": [], "hard": []}
    worst: dict[int, float] = {}
    for index, (state, dice) in enumerate(cases):
        spent = decisions(index, state, dice, None if args.no_deadline else players.DEADLINE_S)
        for name, seconds in zip(times, spent, strict=True):
            times[name].append(seconds)
        seats = len(state.seats)
        worst[seats] = max(worst.get(seats, 0.0), *(wall for wall, _ in spent))
    for name, values in times.items():
        print(figures(name, values), flush=True)
    walls = [wall for values in times.values() for wall, _ in values]
    target = "1.5 s (never over 2 s)" if zero2.on_stand_in() else "150 ms"
    print(f"  slowest decision {max(walls) * 1e3:.1f} ms (target: under {target})")
    deadline = None if args.no_deadline else players.DEADLINE_S
    if deadline is not None:
        cut = sum(wall >= deadline for wall in walls)
        print(f"  decisions that reached the {deadline:g} s deadline: {cut} of {len(walls)}")
    print(
        "  slowest per seat count: "
        + ", ".join(f"{seats} seats {worst[seats] * 1e3:.1f} ms" for seats in sorted(worst)),
        flush=True,
    )


if __name__ == "__main__":
    zero2.twice(main)

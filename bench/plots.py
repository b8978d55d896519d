"""Benchmark the logbook's plots: our own SVG (``companion.web.plots``) against ``pygal``.

With 5,000 plays of one player (a random win in about half, scores 0..40), prints for each
way of drawing: the time to draw the win rate over time and the score distribution (median
of 20 draws), the SVG's size, and the cost of importing it into a fresh interpreter that has
the panel (``companion.web``) loaded already, as the server has (time and resident memory
added, median of 5). ``pygal`` is measured only where it can be imported
(it is no dependency of the companion; e.g. ``PYTHONPATH=<a venv with pygal>/site-packages``);
pygal draws the same sampled points and the same bars as ours.

Run: ``.venv/bin/python bench/plots.py`` (prints this machine, then the Pi Zero 2 stand-in).
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import zero2

from companion.web import plots

PLAYS = 5_000
START = 1_700_000_000.0

IMPORT_PROBE = """
import time
import companion.web  # already in the running server: only the plot module's own cost counts
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    return 0
before, t = rss(), time.perf_counter()
import {module}
print(time.perf_counter() - t, rss() - before)
"""


def history(seed: int = 1) -> tuple[list[tuple[float, bool]], list[int]]:
    """5,000 plays a day or so apart: (when it ended, won) and the scores."""
    rng = random.Random(seed)
    plays = [(START + i * 86_000 + rng.random() * 3_600, rng.random() < 0.48) for i in range(PLAYS)]
    scores = [min(40, max(0, round(rng.gauss(18, 7)))) for _ in range(PLAYS)]
    return plays, scores


def ours(plays: Sequence[tuple[float, bool]], scores: Sequence[int]) -> tuple[str, str]:
    return plots.win_rate("rate", "Ann", plays), plots.score_distribution("dist", "Ann", scores)


def with_pygal(plays: Sequence[tuple[float, bool]], scores: Sequence[int]) -> tuple[str, str]:
    pygal: Any = importlib.import_module("pygal")  # optional: no dependency of ours

    wins, rates = 0, []
    for played, (_, won) in enumerate(plays, start=1):
        wins += won
        rates.append(wins / played)
    line = pygal.Line(
        title="Ann's win rate over time", show_legend=False, range=(0, 1),
        disable_xml_declaration=True, width=320, height=190,
    )  # fmt: skip
    line.add("win rate", [rates[i] for i in plots.sampled(len(rates))])
    bars = plots.bins(Counter(scores))
    bar = pygal.Bar(
        title="Ann's scores", show_legend=False, disable_xml_declaration=True,
        width=320, height=190, print_values=True,
    )  # fmt: skip
    bar.x_labels = [str(a) if a == b else f"{a}-{b}" for a, b, _ in bars]
    bar.add("plays", [count for _, _, count in bars])
    return line.render(is_unicode=True), bar.render(is_unicode=True)


def timed(draw: Callable[[], object], rounds: int = 20) -> float:
    """Median seconds of ``rounds`` calls of ``draw``."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def import_cost(module: str, rounds: int = 5) -> tuple[float, float]:
    """Median (seconds, KiB of resident memory) a fresh interpreter spends importing ``module``."""
    seen = []
    for _ in range(rounds):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_PROBE.format(module=module)],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        seen.append((float(out[0]), float(out[1])))
    return statistics.median(s for s, _ in seen), statistics.median(k for _, k in seen)


def report(name: str, module: str, draw: Callable[..., tuple[str, str]]) -> None:
    plays, scores = history()
    rate, dist = draw(plays, scores)
    rate_s = timed(lambda: draw(plays, scores)[0])
    dist_s = timed(lambda: draw([], scores)[1])
    seconds, kib = import_cost(module)
    print(
        f"{name:>8}: both plots {rate_s * 1000:7.1f} ms, distribution alone {dist_s * 1000:6.1f}"
        f" ms; SVG {len(rate):,} + {len(dist):,} bytes; import {seconds * 1000:6.1f} ms,"
        f" +{kib / 1024:5.1f} MiB resident",
        flush=True,
    )


def main() -> None:
    print(f"{PLAYS:,} plays of one player: win rate over time and score distribution")
    report("ours", "companion.web.plots", ours)
    if importlib.util.find_spec("pygal") is None:
        print("   pygal: not measured (not importable here)")
    else:
        report("pygal", "pygal", with_pygal)


if __name__ == "__main__":
    zero2.twice(main)

"""``bench/table_latency.py``'s figure with phones runs to its end: phones on real streams
each get their first item, every ring move that opens or closes a path writes an LED frame,
and the phones' bytes are counted (a benchmark that hangs or rots is a defect too)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_phones_figure_times_a_frame_for_every_move_and_counts_each_phones_bytes() -> None:
    env = {key: value for key, value in os.environ.items() if key != "MANDALA_BENCH_CHILD"}
    args = ["--only", "host", "--figures", "phones", "--phones", "3"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "table_latency.py"), *args, "--moves", "6"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # A frame late on a busy machine adds a line saying how long it waited for a CPU.
    lines = [line for line in done.stdout.splitlines() if not line.startswith("   (")]
    assert lines[0] == "== this machine (unconstrained)"
    assert re.fullmatch(
        r"650-turn game, 3 phones: last edge -> LED frame written: p50 [\d.]+ ms, "
        r"p99 [\d.]+ ms, max [\d.]+ ms \(n=6\)",
        lines[1],
    ), lines[1]
    assert re.fullmatch(
        r"last edge -> the last of the 3 phones has the board item: .* \(n=6\)", lines[2]
    ), lines[2]
    found = re.fullmatch(
        r"bytes each phone receives per ring move: mean (\d+), max (\d+) over 6 moves .*",
        lines[3],
    )
    assert found is not None, lines[3]
    assert 0 < int(found[1]) <= int(found[2])

"""Time the join codes (issue 25): the box's addresses and a QR code drawn as SVG with segno.

    .venv/bin/python bench/join_qr.py            # here, then on the Pi Zero 2 stand-in

Prints, for ``Reach.join()`` (the route probes and the interfaces' addresses, read at every
``GET /api/join``) and for drawing the SVG of the panel's address and of a card seat's longer one
(``GET /join.svg``): the first call (segno imported), the median and the slowest of 50, and
the SVG's size. The panel keeps the last 16 codes drawn, so only a new address or seat
costs this; a browser that holds the code is answered 304 (its ETag).
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import zero2  # noqa: E402

RUNS = 50


def timed(call: Callable[[], object]) -> tuple[float, float, float]:
    """First, median and slowest time of ``call`` in ms."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times[0], statistics.median(times), max(times)


def main() -> None:
    from companion.box.address import Reach
    from companion.web.api_join import svg_of

    draw: Callable[[str], bytes] = svg_of.__wrapped__  # each time drawn, not from the cache
    reach = Reach("0.0.0.0", 80)
    rows: list[tuple[str, tuple[float, float, float], int | None]] = [
        ("Reach.join()", timed(reach.join), None)
    ]
    for name, text in [
        ("SVG, the panel's address", "http://192.168.1.20/"),
        ("SVG, a seat's address", "http://192.168.178.120:8000/games/0123abcd?seat=1"),
    ]:
        rows.append((name, timed(functools.partial(draw, text)), len(svg_of(text))))
    for name, (first, median, slowest), size in rows:
        extra = f", {size:,} bytes" if size is not None else ""
        print(f"  {name}: first {first:.2f} ms, median {median:.2f} ms, "
              f"slowest {slowest:.2f} ms{extra}")  # fmt: skip


if __name__ == "__main__":
    zero2.twice(main)

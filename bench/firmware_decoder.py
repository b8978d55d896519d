"""Edges per second through the firmware's ring sensing, path by path.

    .venv/bin/python bench/firmware_decoder.py [--detents N]

1. the pure decoder alone (table look-ups on a precomputed edge list);
2. gpiozero MockFactory pins with callbacks in the caller's thread: our RingBank and
   gpiozero's own RotaryEncoder, on the same pin numbers, driven by the same edge sequence,
   side by side (and the ratio);
3. our pin callbacks called directly, as lgpio's C thread calls them on a Pi (no mock pin
   in between: this is the whole per-edge cost of our code on the device);
4. the emulated backend end to end: RingTurner -> mock pins -> the ONE callback thread ->
   decoder -> RingBank reports -> a consumer thread draining them (as the table would).

Hands on a real board make at most a few thousand edges per second; the last line prints
each path's margin over :data:`HAND_EDGES_PER_S`.
"""

from __future__ import annotations

import argparse
import gc
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import RotaryEncoder
from gpiozero.pins.mock import MockFactory

from firmware.decoder import LINE_A, Decoder, quadrature_edges
from firmware.emulator import RingTurner
from firmware.maps import load_pin_map
from firmware.pins import make_factory
from firmware.rings import RingBank, RingReport

HAND_EDGES_PER_S = 3000
OPEN = 0b11


class Rate:
    """Best edges per second over the rounds, by the wall clock and per CPU second.

    The machine may be shared: the CPU-time rate (all threads of this process) is what the
    code costs, the wall-clock rate what a round happened to get. Both keep the best round.
    """

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def add(self, edges: int, wall: float, cpu: float) -> None:
        self.wall = max(self.wall, edges / wall)
        self.cpu = max(self.cpu, edges / max(cpu, 1e-9))

    def __str__(self) -> str:
        return f"{self.wall:>12,.0f} edges/s wall  {self.cpu:>12,.0f} edges/CPU-s"


def timed(run: Callable[[], None]) -> tuple[float, float]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_decoder(detents: int, rounds: int) -> Rate:
    decoder = Decoder(4, "open")
    codes = [line * 2 + level for line, level in quadrature_edges(OPEN, detents)]
    table = decoder.edge_table
    counted = [0]

    def run() -> None:
        phase, total = decoder.start(OPEN), 0
        for code in codes:
            phase, step, _ = table[phase * 4 + code]
            total += step
        counted[0] = total

    rate = Rate()
    for _ in range(rounds):
        rate.add(len(codes), *timed(run))
        assert counted[0] == detents, counted
    return rate


def drive_actions(factory: Any, detents: int) -> list[Callable[[], None]]:
    """Bound pin methods that make ring 0's edges (GPIO4 = A, GPIO17 = B) on ``factory``."""
    pins = {LINE_A: factory.pin(4), 1: factory.pin(17)}
    return [
        pins[line].drive_high if level else pins[line].drive_low
        for line, level in quadrature_edges(OPEN, detents)
    ]


def ignore(ticks: float, state: Any) -> None:
    """A pin callback that does nothing: what the mock pins cost on their own."""


def bench_callers_thread(detents: int, rounds: int) -> tuple[Rate, Rate, Rate]:
    pin_map = load_pin_map()
    ours_factory = MockFactory()
    RingTurner(ours_factory, pin_map)  # lines to rest (high) before the bank reads them
    reports: queue.SimpleQueue[RingReport] = queue.SimpleQueue()
    bank = RingBank(pin_map, 16, ours_factory, reports.put)
    ours_actions = drive_actions(ours_factory, detents)

    bare_factory = MockFactory()
    for pin in (4, 17):
        bare_factory.pin(pin).drive_high()
        bare_factory.pin(pin).when_changed = ignore
    bare_actions = drive_actions(bare_factory, detents)

    theirs_factory = MockFactory()
    steps: queue.SimpleQueue[int] = queue.SimpleQueue()
    encoder = RotaryEncoder(4, 17, max_steps=0, pin_factory=theirs_factory)
    encoder.when_rotated = lambda: steps.put(1)
    theirs_actions = drive_actions(theirs_factory, detents)

    def run(actions: list[Callable[[], None]]) -> Callable[[], None]:
        def go() -> None:
            for act in actions:
                act()

        return go

    ours, theirs, bare = Rate(), Rate(), Rate()
    for _ in range(rounds):  # alternate, so all see the same machine
        ours.add(len(ours_actions), *timed(run(ours_actions)))
        theirs.add(len(theirs_actions), *timed(run(theirs_actions)))
        bare.add(len(bare_actions), *timed(run(bare_actions)))
        for pin in (4, 17):
            for factory in (ours_factory, theirs_factory, bare_factory):
                factory.pin(pin).clear_states()
        drain(reports)  # a consumer takes them as they come (the table does)
        drain(steps)
    assert bank.status()[0].detents == detents * rounds
    assert encoder.steps == detents * rounds, encoder.steps
    bank.close()
    encoder.close()
    ours_factory.close()
    theirs_factory.close()
    bare_factory.close()
    return ours, theirs, bare


def drain(items: queue.SimpleQueue[Any]) -> None:
    """Empty a queue of reports between rounds, as their consumer would have."""
    while not items.empty():
        items.get()


def bench_callbacks(detents: int, rounds: int) -> Rate:
    """Call the ring bank's own pin callbacks (read back through gpiozero's ``when_changed``)
    with the edge sequence, the way lgpio's thread calls them."""
    pin_map = load_pin_map()
    factory = MockFactory()
    RingTurner(factory, pin_map)
    reports: queue.SimpleQueue[RingReport] = queue.SimpleQueue()
    bank = RingBank(pin_map, 16, factory, reports.put)
    callbacks = {LINE_A: factory.pin(4).when_changed, 1: factory.pin(17).when_changed}
    calls = [(callbacks[line], bool(level)) for line, level in quadrature_edges(OPEN, detents)]

    def run() -> None:
        ticks = time.monotonic()
        for callback, level in calls:
            callback(ticks, level)

    rate = Rate()
    for _ in range(rounds):
        rate.add(len(calls), *timed(run))
        drain(reports)  # the table drains them as they come
    assert bank.status()[0].detents == detents * rounds
    bank.close()
    factory.close()
    return rate


def bench_emulated(detents: int, rounds: int) -> Rate:
    rate = Rate()
    for _ in range(rounds):
        edges, wall, cpu = emulated_round(detents)
        rate.add(edges, wall, cpu)
    return rate


def emulated_round(detents: int) -> tuple[int, float, float]:
    pin_map = load_pin_map()
    factory = make_factory("mock")
    turner = RingTurner(factory, pin_map)
    reports: queue.SimpleQueue[RingReport] = queue.SimpleQueue()
    bank = RingBank(pin_map, 16, factory, reports.put)
    arrived = threading.Event()
    last: list[RingReport] = []

    def consume() -> None:
        while True:
            report = reports.get()
            if report.kind == "moved" and report.detents == detents and report.aligned:
                last.append(report)
                arrived.set()
                return

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()

    def run() -> None:
        turner.turn(0, detents)
        if not arrived.wait(600):
            raise SystemExit("the last report never arrived")

    seconds = timed(run)
    consumer.join()
    assert last and last[0].offset == detents % 16
    edges = bank.status()[0].edges
    bank.close()
    factory.close()
    return (edges, *seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detents", type=int, default=10_000, help="detents per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per path (best kept)")
    args = parser.parse_args()
    detents, rounds = args.detents, args.rounds
    print(
        f"{detents * 4:,} edges per round ({detents:,} detents, 4 edges each), best of "
        f"{rounds} rounds"
    )
    decoder = bench_decoder(detents, rounds)
    print(f"decoder alone:                               {decoder}")
    ours, theirs, bare = bench_callers_thread(detents, rounds)
    print(f"MockFactory pins alone (callback ignores):   {bare}")
    print(f"MockFactory, caller's thread, RingBank:      {ours}")
    print(f"MockFactory, caller's thread, RotaryEncoder: {theirs}")
    print(
        f"  RingBank / RotaryEncoder:                  {ours.wall / theirs.wall:>12.2f}x wall"
        f"  {ours.cpu / theirs.cpu:>12.2f}x CPU"
    )
    callbacks = bench_callbacks(detents, rounds)
    print(f"our pin callbacks alone, as lgpio calls them: {callbacks}")
    emulated = bench_emulated(detents, rounds)
    print("emulated backend, turner -> callback thread -> RingBank reports -> consumer:")
    print(f"                                             {emulated}")
    margins = {
        "decoder": decoder,
        "caller's thread": ours,
        "callbacks alone": callbacks,
        "emulated": emulated,
    }
    print(f"margin over {HAND_EDGES_PER_S:,} edges/s by hand (wall / CPU):")
    for name, rate in margins.items():
        wall, cpu = rate.wall / HAND_EDGES_PER_S, rate.cpu / HAND_EDGES_PER_S
        print(f"  {name:<16} {wall:>8,.0f}x {cpu:>8,.0f}x")


if __name__ == "__main__":
    main()

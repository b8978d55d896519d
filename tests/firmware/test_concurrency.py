"""Concurrency as on a Pi: pin events on one callback thread, turns and commands from many."""

from __future__ import annotations

import itertools
import random
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from firmware.emulator import BOUNCE_TOGGLES, RingTurner
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory
from firmware.rings import RingBank, RingReport
from tests.firmware.helpers import wait_for

SPOKES = 16
SETTLE_MS = 30


@pytest.fixture(autouse=True)
def switch_threads_often() -> Iterator[None]:
    """Make the interpreter switch threads every 10 us, so turns and commands interleave."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


class TimedRecorder:
    """Records each report with the monotonic time it arrived."""

    def __init__(self) -> None:
        self.items: list[tuple[float, RingReport]] = []

    def __call__(self, report: RingReport) -> None:
        self.items.append((time.monotonic(), report))


def run_threads(targets: list[Any]) -> None:
    threads = [threading.Thread(target=target) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive()


def plan_turns(seed: int) -> list[tuple[int, bool]]:
    rng = random.Random(seed)
    return [(rng.randint(-6, 6), rng.random() < 0.3) for _ in range(60)]


def edges_of(turns: list[tuple[int, bool]]) -> int:
    return sum(abs(d) * 4 * (1 + 2 * BOUNCE_TOGGLES if bounce else 1) for d, bounce in turns)


def test_ten_rings_turned_from_ten_threads_end_exact_and_settle_last(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    reports = TimedRecorder()
    bank = RingBank(pin_map, SPOKES, factory, reports, SETTLE_MS)
    plans = [plan_turns(ring) for ring in range(10)]

    def turning(ring: int) -> Any:
        def turn_all() -> None:
            for detents, bounce in plans[ring]:
                turner.turn(ring, detents, bounce=bounce)

        return turn_all

    run_threads([turning(ring) for ring in range(10)])
    factory.flush()
    wait_for(lambda: all(s.settled for s in bank.status()))
    net = [sum(d for d, _ in plan) for plan in plans]
    assert bank.offsets() == [n % SPOKES for n in net]
    status = bank.status()
    # Every edge reached the decoder exactly once: no lost or doubled events.
    assert [s.edges for s in status] == [edges_of(plan) for plan in plans]
    assert [s.errors for s in status] == [0] * 10
    assert [s.detents for s in status] == net
    for ring in range(10):
        mine = [(at, r) for at, r in reports.items if r.ring == ring]
        detents = [r.detents for _, r in mine]
        assert all(abs(b - a) <= 1 for a, b in zip([0, *detents], detents, strict=False))
        last_at, last = mine[-1]
        assert last == RingReport(ring, net[ring] % SPOKES, True, True, "settled", net[ring])
        moves = [at for at, r in mine if r.kind == "moved"]
        assert moves, "every ring turned"
        assert last_at >= moves[-1] + SETTLE_MS / 1000 - 0.005
        # A settle report never comes while the ring is still moving.
        for (at, report), (next_at, _) in itertools.pairwise(mine):
            if report.kind == "settled":
                assert report.aligned
                assert next_at >= at
    bank.close()


def test_zero_and_set_from_other_threads_while_turning_match_the_recorded_order(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    reports = TimedRecorder()
    bank = RingBank(pin_map, SPOKES, factory, reports, SETTLE_MS)
    plans = [plan_turns(100 + ring) for ring in range(10)]
    requested: list[set[int]] = [{0} for _ in range(10)]
    failures: list[BaseException] = []

    # Every turner stops halfway until the gate has moved each ring's slot by one, so some
    # commands land between edges whatever the scheduler does; the random commanders run
    # alongside without a gate.
    halfway = threading.Barrier(11, timeout=30)
    commanded = threading.Event()

    def turning(ring: int) -> Any:
        def turn_all() -> None:
            half = len(plans[ring]) // 2
            for detents, bounce in plans[ring][:half]:
                turner.turn(ring, detents, bounce=bounce)
            halfway.wait()
            assert commanded.wait(30)
            for detents, bounce in plans[ring][half:]:
                turner.turn(ring, detents, bounce=bounce)

        return turn_all

    def gate() -> None:
        try:
            halfway.wait()
            factory.flush()
            for ring, offset in enumerate(bank.offsets()):
                moved = (offset + 1) % SPOKES
                requested[ring].add(moved)
                bank.set_offset(ring, moved)
        except BaseException as error:
            failures.append(error)
        finally:
            commanded.set()

    def commanding(seed: int) -> Any:
        rng = random.Random(seed)

        def command() -> None:
            try:
                for _ in range(40):
                    if rng.random() < 0.3:
                        bank.zero()
                    else:
                        ring, offset = rng.randrange(10), rng.randrange(SPOKES)
                        requested[ring].add(offset)
                        bank.set_offset(ring, offset)
                    time.sleep(0.0002)
            except BaseException as error:
                failures.append(error)

        return command

    run_threads([turning(ring) for ring in range(10)] + [gate, commanding(1), commanding(2)])
    factory.flush()
    wait_for(lambda: all(s.settled for s in bank.status()))
    assert failures == []
    final = bank.offsets()
    net = [sum(d for d, _ in plan) for plan in plans]
    # The commands really did land between the edges of turning rings.
    kinds = [[r.kind for _, r in reports.items if r.ring == ring] for ring in range(10)]
    interleaved = sum(
        1
        for ring_kinds in kinds
        for i, kind in enumerate(ring_kinds)
        if kind == "set" and "moved" in ring_kinds[:i] and "moved" in ring_kinds[i + 1 :]
    )
    assert interleaved > 0
    for ring in range(10):
        expected, detents = 0, 0
        for _, report in (item for item in reports.items if item[1].ring == ring):
            if report.kind == "set":
                assert report.detents == detents
                assert report.offset in requested[ring]
                expected = report.offset
            else:
                expected = (expected + report.detents - detents) % SPOKES
                detents = report.detents
            assert report.offset == expected
        assert final[ring] == expected
        assert detents == net[ring]
    bank.close()


def test_one_ring_turned_both_ways_from_two_threads_nets_out(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    bank = RingBank(pin_map, SPOKES, factory, lambda report: None, SETTLE_MS)

    def turning(detents: int, times: int) -> Any:
        def turn_all() -> None:
            for _ in range(times):
                turner.turn(4, detents)

        return turn_all

    run_threads([turning(1, 100), turning(-1, 60)])
    factory.flush()
    assert bank.status()[4].detents == 40
    assert bank.offsets()[4] == 40 % SPOKES
    bank.close()

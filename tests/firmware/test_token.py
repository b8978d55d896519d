"""The ring bank's token: mutual exclusion from many threads, retiring it, closing under load."""

from __future__ import annotations

import threading
import time

from firmware.emulator import RingTurner
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory
from firmware.rings import SETTLE_POLL_S, RingBank, RingReport, Token
from tests.firmware.conftest import Recorder
from tests.firmware.helpers import wait_for


def test_token_excludes_every_other_thread() -> None:
    token = Token()
    counts = {"total": 0, "inside": 0, "most_inside": 0}

    def work() -> None:
        for _ in range(2000):
            with token as held:
                assert held
                counts["inside"] += 1
                counts["most_inside"] = max(counts["most_inside"], counts["inside"])
                total = counts["total"]
                if total % 97 == 0:
                    time.sleep(0)  # let another thread try to enter
                counts["total"] = total + 1
                counts["inside"] -= 1

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert counts == {"total": 12000, "inside": 0, "most_inside": 1}


def test_take_raises_index_error_while_another_thread_holds_it() -> None:
    token = Token()
    token.take()
    taken = threading.Event()

    def other() -> None:
        try:
            token.take()
        except IndexError:
            return
        taken.set()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(timeout=10)
    assert not taken.is_set()
    token.give(None)
    assert token.acquire()


def test_retired_token_turns_every_waiter_away() -> None:
    token = Token()
    token.take()  # held, as by a pin callback, when close comes
    answers: list[bool] = []

    def wait() -> None:
        took = token.acquire()
        answers.append(took)
        if took:
            token.give(None)

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    closer = threading.Thread(target=lambda: answers.append(token.retire()), daemon=True)
    closer.start()
    time.sleep(0.05)
    assert answers == []  # both wait while the token is held
    token.give(None)
    waiter.join(timeout=10)
    closer.join(timeout=10)
    # Whichever got the token first: the closer retires it, and the waiter either held it
    # briefly before that or is turned away after; nobody is left waiting.
    assert sorted(answers) in ([False, True], [True, True])
    assert token.retired
    assert token.acquire() is False
    assert token.retire() is False
    with token as held:
        assert held is False


def test_close_while_rings_turn_stops_every_report(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    reports = Recorder()
    bank = RingBank(pin_map, 16, factory, reports, 40)
    stop = threading.Event()

    def turn() -> None:
        while not stop.is_set():
            turner.turn(3, 1)

    thread = threading.Thread(target=turn)
    thread.start()
    wait_for(lambda: len(reports.items) > 20)
    bank.close()
    count = len(reports.items)
    edges = bank.status()[3].edges  # a closed bank still answers queries
    stop.set()
    thread.join(timeout=10)
    factory.flush()
    assert bank.closed
    assert len(reports.items) == count
    assert bank.status()[3].edges == edges
    assert factory.failures == []


def test_callback_after_close_changes_nothing(factory: EmulatedFactory, pin_map: PinMap) -> None:
    RingTurner(factory, pin_map)
    reports = Recorder()
    bank = RingBank(pin_map, 16, factory, reports, 40)
    callback = factory.pin(4).when_changed  # ring 0, line A, as lgpio's thread holds it
    bank.close()
    callback(0.0, False)
    callback(0.0, True)
    assert reports.items == []
    assert bank.status()[0].edges == 0


def test_ring_settles_within_the_poll_after_settle_ms(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    arrivals: list[tuple[float, str]] = []

    def record(report: RingReport) -> None:
        arrivals.append((time.monotonic(), report.kind))

    bank = RingBank(pin_map, 16, factory, record, 100)
    try:
        turner.turn(2, 3)
        factory.flush()
        last_edge = time.monotonic()
        wait_for(lambda: bank.status()[2].settled)
        settled_at = next(at for at, kind in arrivals if kind == "settled")
        moved_at = max(at for at, kind in arrivals if kind == "moved")
        assert settled_at >= moved_at + 0.1
        # Not a speed test: the poll bounds the delay, and a generous slack covers a busy CI.
        assert settled_at <= last_edge + 0.1 + SETTLE_POLL_S + 0.5
    finally:
        bank.close()

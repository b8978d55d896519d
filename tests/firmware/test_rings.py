"""The ring bank on emulated pins: offsets, alignment, settling, zero, set, restore, health."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.emulator import RingTurner
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap, load_pin_map
from firmware.pins import EmulatedFactory, make_factory
from firmware.rings import RingBank, RingReport, RingStatus
from tests.firmware.conftest import Recorder
from tests.firmware.helpers import all_rings, wait_for, with_ring

SETTLE_MS = 40


class Rig:
    """A bank with a turner on one emulated factory, recording every report."""

    def __init__(
        self,
        factory: Any,
        pin_map: PinMap,
        spokes: int = 16,
        offsets: list[int] | None = None,
        settle_ms: int = SETTLE_MS,
    ) -> None:
        self.factory = factory
        self.turner = RingTurner(factory, pin_map)
        self.reports = Recorder()
        self.bank = RingBank(pin_map, spokes, factory, self.reports, settle_ms, offsets)

    def turn(self, ring: int, detents: int, **options: Any) -> None:
        self.turner.turn(ring, detents, **options)
        if isinstance(self.factory, EmulatedFactory):
            self.factory.flush()

    def of(self, ring: int) -> list[RingReport]:
        return [r for r in self.reports.items if r.ring == ring]

    def settled(self, ring: int) -> None:
        wait_for(lambda: self.bank.status()[ring].settled)


@pytest.fixture
def rig(factory: EmulatedFactory, pin_map: PinMap) -> Iterator[Rig]:
    made = Rig(factory, pin_map)
    yield made
    made.bank.close()


def moved(ring: int, offset: int, aligned: bool, detents: int) -> RingReport:
    return RingReport(ring, offset, aligned, False, "moved", detents)


# -- turning ---------------------------------------------------------------------------------


def test_one_detent_reports_leaving_and_arriving_then_settles(rig: Rig) -> None:
    rig.turn(0, 1)
    rig.settled(0)
    assert rig.of(0) == [
        moved(0, 0, False, 0),
        moved(0, 1, True, 1),
        RingReport(0, 1, True, True, "settled", 1),
    ]
    assert rig.bank.offsets() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]


def test_turn_drives_the_exact_pin_levels(rig: Rig) -> None:
    rig.turn(0, 2)
    a, b = rig.factory.pin(4), rig.factory.pin(17)
    assert [s.state for s in a.states] == [True, False, True, False, True]
    assert [s.state for s in b.states] == [True, False, True, False, True]
    assert rig.bank.status()[0].edges == 8


def test_offsets_wrap_modulo_the_spokes(rig: Rig) -> None:
    rig.turn(1, 18)
    rig.turn(2, -3)
    assert rig.bank.offsets()[1:3] == [2, 13]


def test_offsets_wrap_modulo_a_smaller_board(factory: EmulatedFactory, pin_map: PinMap) -> None:
    small = Rig(factory, pin_map, spokes=12)
    small.turn(0, -1)
    small.turn(5, 25)
    assert small.bank.offsets() == [11, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    small.bank.close()


def test_detents_per_slot_leave_a_ring_unaligned_between_slots(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    geared = Rig(factory, with_ring(pin_map, 0, detents_per_slot=2))
    geared.turn(0, 1)
    assert geared.bank.status()[0].offset == 0
    assert geared.bank.status()[0].aligned is False
    geared.turn(0, 1)
    assert (geared.bank.status()[0].offset, geared.bank.status()[0].aligned) == (1, True)
    geared.turn(0, -3)
    # Two slots back would be 15; one detent short of it the ring still counts slot 0.
    assert (geared.bank.status()[0].offset, geared.bank.status()[0].aligned) == (0, False)
    geared.turn(0, -1)
    assert (geared.bank.status()[0].offset, geared.bank.status()[0].aligned) == (15, True)
    geared.bank.close()


def test_unaligned_ring_never_settles(factory: EmulatedFactory, pin_map: PinMap) -> None:
    geared = Rig(factory, with_ring(pin_map, 0, detents_per_slot=2), settle_ms=10)
    geared.turn(0, 1)
    time.sleep(0.1)
    assert geared.bank.status()[0].settled is False
    assert [r.kind for r in geared.of(0)] == ["moved"]
    geared.turn(0, 1)
    geared.settled(0)
    assert geared.of(0) == [
        moved(0, 0, False, 0),
        moved(0, 1, True, 2),
        RingReport(0, 1, True, True, "settled", 2),
    ]
    geared.bank.close()


@pytest.mark.parametrize(
    ("changes", "rest_low"),
    [
        ({"edges_per_detent": 2}, False),
        ({"rest": "closed"}, True),
        ({"edges_per_detent": 2, "rest": "closed"}, True),
        ({"invert": True}, False),
    ],
)
def test_every_encoder_type_counts_turns_exactly(
    factory: EmulatedFactory, pin_map: PinMap, changes: dict[str, Any], rest_low: bool
) -> None:
    typed = Rig(factory, all_rings(pin_map, **changes))
    assert factory.pin(4).state is not rest_low
    typed.turn(3, 5)
    typed.turn(4, -7)
    typed.turn(3, -2)
    assert typed.bank.offsets() == [0, 0, 0, 3, 9, 0, 0, 0, 0, 0]
    assert [s.errors for s in typed.bank.status()] == [0] * 10
    typed.bank.close()


def test_inverted_ring_counts_a_clockwise_sequence_backwards(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    bank = RingBank(with_ring(pin_map, 0, invert=True), 16, factory, Recorder(), SETTLE_MS)
    a, b = factory.pin(4), factory.pin(17)
    # Clockwise from 11: A falls, B falls, A rises, B rises.
    for step in (a.drive_low, b.drive_low, a.drive_high, b.drive_high):
        step()
    factory.flush()
    assert bank.offsets()[0] == 15
    bank.close()


def test_bounce_is_counted_as_edges_but_not_as_detents(rig: Rig) -> None:
    rig.turn(6, 3, bounce=True)
    status = rig.bank.status()[6]
    assert (status.offset, status.errors) == (3, 0)
    assert status.edges == 3 * 4 * 5


def test_dropped_edge_loses_that_detent_and_counts_an_error(rig: Rig) -> None:
    rig.turn(2, 3, drop=1)
    status = rig.bank.status()[2]
    assert (status.offset, status.edges, status.errors, status.detents) == (2, 11, 1, 2)
    rig.turn(2, 1)
    assert rig.bank.offsets()[2] == 3


def test_plain_mock_factory_reports_in_the_callers_thread(pin_map: PinMap) -> None:
    plain = MockFactory()
    try:
        rig = Rig(plain, pin_map)
        rig.turn(9, 2)
        assert rig.bank.offsets()[9] == 2
        rig.bank.close()
    finally:
        plain.close()


@settings(max_examples=100)
@given(
    spokes=st.integers(1, 24),
    moves=st.lists(st.tuples(st.integers(0, 9), st.integers(-20, 20), st.booleans()), max_size=12),
)
def test_random_walk_final_offset_is_net_detents_mod_spokes(
    spokes: int, moves: list[tuple[int, int, bool]]
) -> None:
    factory = make_factory("mock")
    try:
        rig = Rig(factory, load_pin_map(), spokes=spokes)
        for ring, detents, bounce in moves:
            rig.turn(ring, detents, bounce=bounce)
        net = [sum(d for r, d, _ in moves if r == ring) for ring in range(10)]
        assert rig.bank.offsets() == [n % spokes for n in net]
        assert [s.detents for s in rig.bank.status()] == net
        rig.bank.close()
    finally:
        factory.close()
    assert factory.failures == []


# -- zero, set, restore ----------------------------------------------------------------------


def test_zero_sets_every_ring_to_zero_and_reports_the_changed_ones(rig: Rig) -> None:
    rig.turn(0, 3)
    rig.turn(7, -1)
    rig.settled(0)
    rig.settled(7)
    before = len(rig.reports.items)
    rig.bank.zero()
    assert rig.bank.offsets() == [0] * 10
    assert rig.reports.items[before:] == [
        RingReport(0, 0, True, True, "set", 3),
        RingReport(7, 0, True, True, "set", -1),
    ]
    rig.turn(0, 2)
    assert rig.bank.offsets()[0] == 2


def test_set_offset_resyncs_one_ring(rig: Rig) -> None:
    rig.bank.set_offset(3, 7)
    assert rig.bank.offsets()[3] == 7
    rig.turn(3, 10)
    assert rig.bank.offsets()[3] == 1


def test_set_offset_mid_detent_counts_on_from_the_last_rest(rig: Rig) -> None:
    # Two edges into a detent (half way), set to 5, then the last two edges arrive.
    a, b = rig.factory.pin(12), rig.factory.pin(16)
    a.drive_low()
    b.drive_low()
    rig.factory.flush()
    rig.bank.set_offset(9, 5)
    assert rig.of(9)[-1] == RingReport(9, 5, False, False, "set", 0)
    a.drive_high()
    b.drive_high()
    rig.factory.flush()
    assert rig.of(9)[-1] == RingReport(9, 6, True, False, "moved", 1)


def test_set_offset_refuses_a_ring_or_offset_out_of_range(rig: Rig) -> None:
    with pytest.raises(RequestError) as caught:
        rig.bank.set_offset(10, 0)
    assert str(caught.value) == "ring 10 is out of 0..9"
    with pytest.raises(RequestError) as caught:
        rig.bank.set_offset(3, 16)
    assert str(caught.value) == "set offset: ring 3: offset 16 is out of 0..15"
    assert rig.bank.offsets() == [0] * 10


def test_restored_offsets_resume_settled_and_aligned(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    saved = [3, 0, 15, 1, 2, 4, 8, 9, 10, 11]
    resumed = Rig(factory, pin_map, offsets=saved)
    assert resumed.bank.offsets() == saved
    assert all(s.settled and s.aligned for s in resumed.bank.status())
    resumed.turn(2, 2)
    assert resumed.bank.offsets()[2] == 1
    resumed.bank.close()


@pytest.mark.parametrize(
    ("offsets", "message"),
    [
        ([0] * 9, "offsets: 9 given for 10 rings"),
        ([0] * 9 + [16], "offsets: ring 9: offset 16 is out of 0..15"),
        ([-1] + [0] * 9, "offsets: ring 0: offset -1 is out of 0..15"),
    ],
)
def test_restore_refuses_offsets_that_do_not_fit(
    factory: EmulatedFactory, pin_map: PinMap, offsets: list[int], message: str
) -> None:
    with pytest.raises(RequestError) as caught:
        RingBank(pin_map, 16, factory, Recorder(), SETTLE_MS, offsets)
    assert str(caught.value) == message


# -- health and lifecycle --------------------------------------------------------------------


def test_status_reports_health_per_ring(rig: Rig) -> None:
    assert rig.bank.status()[5] == RingStatus(0, True, True, 0, 0, None, 0)
    before = time.time()
    rig.turn(5, 2, drop=2)
    after = time.time()
    status = rig.bank.status()[5]
    assert (status.edges, status.errors) == (6, 2)
    assert status.last_movement is not None
    assert before - 0.01 <= status.last_movement <= after + 0.01


def test_closed_bank_refuses_commands_and_frees_its_pins(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    bank = RingBank(pin_map, 16, factory, Recorder(), SETTLE_MS)
    bank.close()
    bank.close()
    with pytest.raises(HardwareError, match=r"^the ring bank is closed$"):
        bank.zero()
    again = RingBank(pin_map, 16, factory, Recorder(), SETTLE_MS)
    again.close()


def test_pin_already_claimed_is_a_hardware_error(rig: Rig, pin_map: PinMap) -> None:
    with pytest.raises(HardwareError) as caught:
        RingBank(pin_map, 16, rig.factory, Recorder(), SETTLE_MS)
    assert str(caught.value).startswith("rings[0].a: cannot use GPIO4: ")


@pytest.mark.parametrize(
    ("spokes", "settle_ms", "message"),
    [(0, 300, "spokes must be 1 or more, got 0"), (16, -1, "settle_ms must be 0 or more, got -1")],
)
def test_bank_refuses_bad_spokes_or_settle_time(
    factory: EmulatedFactory, pin_map: PinMap, spokes: int, settle_ms: int, message: str
) -> None:
    with pytest.raises(RequestError) as caught:
        RingBank(pin_map, spokes, factory, Recorder(), settle_ms)
    assert str(caught.value) == message

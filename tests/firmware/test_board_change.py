"""The ring bank follows the board on the table: ``set_spokes`` changes what offsets count."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware.emulator import RingTurner
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory
from firmware.rings import RingBank, RingReport
from tests.firmware.conftest import Recorder
from tests.firmware.helpers import wait_for


@pytest.fixture
def rig(
    factory: EmulatedFactory, pin_map: PinMap
) -> Iterator[tuple[RingBank, RingTurner, Recorder]]:
    turner = RingTurner(factory, pin_map)
    reports = Recorder()
    bank = RingBank(pin_map, 16, factory, reports, 20)
    yield bank, turner, reports
    bank.close()


def turn(factory: EmulatedFactory, turner: RingTurner, ring: int, detents: int) -> None:
    turner.turn(ring, detents)
    factory.flush()


def test_after_set_spokes_offsets_count_modulo_the_new_board(
    factory: EmulatedFactory, rig: tuple[RingBank, RingTurner, Recorder]
) -> None:
    bank, turner, _ = rig
    bank.set_spokes(8)
    turn(factory, turner, 0, 9)  # 9 slots clockwise on 8 spokes: offset 1
    turn(factory, turner, 1, -3)  # 3 back from 0: 5
    assert bank.spokes == 8
    assert bank.offsets()[:2] == [1, 5]
    bank.set_spokes(16)
    turn(factory, turner, 0, 15)  # 1 + 15 = 16 -> 0 on 16 spokes
    assert bank.offsets()[:2] == [0, 5]


def test_set_spokes_without_offsets_keeps_each_offset_modulo_the_new_spokes(
    factory: EmulatedFactory, rig: tuple[RingBank, RingTurner, Recorder]
) -> None:
    bank, turner, _ = rig
    turn(factory, turner, 2, 11)
    turn(factory, turner, 3, 5)
    bank.set_spokes(8)
    assert bank.offsets()[2:4] == [3, 5]


def test_set_spokes_with_offsets_sets_every_ring_and_reports_each_one(
    factory: EmulatedFactory, rig: tuple[RingBank, RingTurner, Recorder]
) -> None:
    bank, turner, reports = rig
    turn(factory, turner, 4, 3)
    wait_for(lambda: bank.status()[4].settled)
    reports.items.clear()
    bank.set_spokes(8, [7, 6, 5, 4, 3, 2, 1, 0, 7, 6])
    assert bank.offsets() == [7, 6, 5, 4, 3, 2, 1, 0, 7, 6]
    # Every ring is reported as "set" (unchanged ones too), settled where it stood still.
    assert reports.items == [
        RingReport(ring, offset, True, True, "set", 3 if ring == 4 else 0)
        for ring, offset in enumerate([7, 6, 5, 4, 3, 2, 1, 0, 7, 6])
    ]
    turn(factory, turner, 7, -1)  # 0 - 1 on 8 spokes: 7
    assert bank.offsets()[7] == 7


@pytest.mark.parametrize(
    ("spokes", "offsets", "message"),
    [
        (0, None, "spokes must be 1 or more, got 0"),
        (8, [0] * 9, "offsets: 9 given for 10 rings"),
        (8, [0, 0, 8, 0, 0, 0, 0, 0, 0, 0], "offsets: ring 2: offset 8 is out of 0..7"),
    ],
)
def test_set_spokes_refuses_bad_spokes_or_offsets_and_changes_nothing(
    factory: EmulatedFactory,
    rig: tuple[RingBank, RingTurner, Recorder],
    spokes: int,
    offsets: list[int] | None,
    message: str,
) -> None:
    bank, turner, _ = rig
    turn(factory, turner, 0, 12)
    with pytest.raises(RequestError) as caught:
        bank.set_spokes(spokes, offsets)
    assert str(caught.value) == message
    assert bank.spokes == 16
    assert bank.offsets()[0] == 12


def test_set_spokes_on_a_closed_bank_is_refused(rig: tuple[RingBank, RingTurner, Recorder]) -> None:
    bank, _, _ = rig
    bank.close()
    with pytest.raises(HardwareError) as caught:
        bank.set_spokes(8)
    assert str(caught.value) == "the ring bank is closed"

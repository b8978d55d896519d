"""The ring bank counts edges and errors per line, so a line that never moves can be named."""

from __future__ import annotations

from firmware.emulator import RingTurner
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory
from firmware.rings import RingBank
from tests.firmware.conftest import Recorder


def test_a_full_turn_toggles_both_lines_and_counts_them_apart(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    with RingBank(pin_map, 16, factory, Recorder()) as bank:
        turner.turn(3, 1)
        turner.turn(3, -1)
        factory.flush()
        status = bank.status()[3]
        assert status.line_edges == (4, 4)
        assert status.line_errors == (0, 0)
        assert status.edges == 8
        assert bank.status()[2].line_edges == (0, 0)


def test_a_ring_whose_line_b_is_dead_shows_edges_on_line_a_only(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    a = factory.pin(pin_map.rings[3].a)
    with RingBank(pin_map, 16, factory, Recorder()) as bank:
        for _ in range(3):  # the hand turns, but only line A's contact reaches the Pi
            a.drive_low()
            a.drive_high()
        factory.flush()
        status = bank.status()[3]
        assert status.line_edges == (6, 0)
        assert status.detents == 0
        assert status.errors == 0


def test_an_error_is_counted_on_the_line_whose_edge_showed_it(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    with RingBank(pin_map, 16, factory, Recorder()) as bank:
        # From rest (both high) clockwise: A falls, B falls, A rises, B rises. A's fall is
        # missed; B's fall reads as a step back, and A's rise then repeats the level the
        # decoder has for A: the error shows on line A.
        turner.turn(3, 1, drop=1)
        factory.flush()
        status = bank.status()[3]
        assert status.line_edges == (1, 2)
        assert status.line_errors == (1, 0)
        assert status.errors == 1


def test_the_line_levels_read_what_the_pins_show(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, pin_map)
    with RingBank(pin_map, 16, factory, Recorder()) as bank:
        assert bank.line_levels() == [(True, True)] * 10
        factory.pin(pin_map.rings[7].b).drive_low()
        assert bank.line_levels()[7] == (True, False)
        turner.turn(0, 1)
        assert bank.line_levels()[0] == (True, True)

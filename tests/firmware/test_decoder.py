"""The transition-table decoder against hand-written edge sequences of real encoders.

Lines are written AB: 0b11 is both high (contacts open, the pull-ups win). Clockwise, A
leads B: from 11 a full-cycle encoder goes A falls, B falls, A rises, B rises.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.decoder import (
    LINE_A as A,
)
from firmware.decoder import (
    LINE_B as B,
)
from firmware.decoder import (
    Count,
    Decoder,
    apply_edges,
    decode_edges,
    decode_samples,
    quadrature_edges,
)

OPEN = 0b11
CLOSED = 0b00

# One detent clockwise, written out by hand.
FULL_CYCLE_OPEN_CW = [(A, 0), (B, 0), (A, 1), (B, 1)]  # 11 01 00 10 11
FULL_CYCLE_OPEN_CCW = [(B, 0), (A, 0), (B, 1), (A, 1)]  # 11 10 00 01 11
FULL_CYCLE_CLOSED_CW = [(A, 1), (B, 1), (A, 0), (B, 0)]  # 00 10 11 01 00
FULL_CYCLE_CLOSED_CCW = [(B, 1), (A, 1), (B, 0), (A, 0)]  # 00 01 11 10 00
HALF_CYCLE_CW_TWO = [(A, 0), (B, 0), (A, 1), (B, 1)]  # 11 01 00 | 10 11: two detents
HALF_CYCLE_CCW_TWO = [(B, 0), (A, 0), (B, 1), (A, 1)]


def per_edge_detents(decoder: Decoder, start: int, edges: list[tuple[int, int]]) -> list[int]:
    phase = decoder.start(start)
    counted = []
    for line, level in edges:
        phase, detents, _ = decoder.edge(phase, line, level)
        counted.append(detents)
    return counted


# -- the sequences a turn makes --------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "detents", "edges_per_detent", "invert", "expected"),
    [
        (OPEN, 1, 4, False, FULL_CYCLE_OPEN_CW),
        (OPEN, -1, 4, False, FULL_CYCLE_OPEN_CCW),
        (CLOSED, 1, 4, False, FULL_CYCLE_CLOSED_CW),
        (CLOSED, -1, 4, False, FULL_CYCLE_CLOSED_CCW),
        (OPEN, 2, 2, False, HALF_CYCLE_CW_TWO),
        (OPEN, -2, 2, False, HALF_CYCLE_CCW_TWO),
        (OPEN, 1, 4, True, FULL_CYCLE_OPEN_CCW),
        (OPEN, 2, 4, False, FULL_CYCLE_OPEN_CW * 2),
    ],
)
def test_turn_makes_the_encoders_exact_edge_sequence(
    start: int,
    detents: int,
    edges_per_detent: int,
    invert: bool,
    expected: list[tuple[int, int]],
) -> None:
    assert quadrature_edges(start, detents, edges_per_detent, invert) == expected
    assert apply_edges(start, expected) == start


# -- counting --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decoder", "start", "edges", "per_edge"),
    [
        (Decoder(4, "open"), OPEN, FULL_CYCLE_OPEN_CW, [0, 0, 0, 1]),
        (Decoder(4, "open"), OPEN, FULL_CYCLE_OPEN_CCW, [0, 0, 0, -1]),
        (Decoder(4, "closed"), CLOSED, FULL_CYCLE_CLOSED_CW, [0, 0, 0, 1]),
        (Decoder(4, "closed"), CLOSED, FULL_CYCLE_CLOSED_CCW, [0, 0, 0, -1]),
        (Decoder(2, "open"), OPEN, HALF_CYCLE_CW_TWO, [0, 1, 0, 1]),
        (Decoder(2, "open"), OPEN, HALF_CYCLE_CCW_TWO, [0, -1, 0, -1]),
        (Decoder(2, "closed"), OPEN, HALF_CYCLE_CW_TWO, [0, 1, 0, 1]),
        (Decoder(4, "open", invert=True), OPEN, FULL_CYCLE_OPEN_CW, [0, 0, 0, -1]),
        (Decoder(4, "open", invert=True), OPEN, FULL_CYCLE_OPEN_CCW, [0, 0, 0, 1]),
    ],
)
def test_detent_counts_on_arriving_at_rest(
    decoder: Decoder, start: int, edges: list[tuple[int, int]], per_edge: list[int]
) -> None:
    assert per_edge_detents(decoder, start, edges) == per_edge
    assert decode_edges(decoder, start, edges).errors == 0


def test_full_cycle_decoder_resting_open_does_not_count_at_the_closed_position() -> None:
    # Half a cycle of a full-cycle encoder ends between detents: nothing counted yet.
    count = decode_edges(Decoder(4, "open"), OPEN, FULL_CYCLE_OPEN_CW[:2])
    assert (count.detents, count.errors) == (0, 0)
    assert not Decoder(4, "open").at_rest(count.phase)


def test_samples_of_both_lines_decode_like_edges() -> None:
    decoder = Decoder(4, "open")
    assert decode_samples(decoder, OPEN, [0b01, 0b00, 0b10, 0b11]).detents == 1
    assert decode_samples(decoder, OPEN, [0b10, 0b00, 0b01, 0b11]).detents == -1
    # A repeated sample is no movement at all.
    assert decode_samples(decoder, OPEN, [0b01, 0b01, 0b00, 0b00, 0b10, 0b11]) == Count(
        1, 0, decoder.start(OPEN)
    )


# -- reversals, bounce, errors ---------------------------------------------------------------


def test_reversal_mid_detent_counts_nothing() -> None:
    # 11 01 00, then back 01 11.
    edges = [(A, 0), (B, 0), (B, 1), (A, 1)]
    assert per_edge_detents(Decoder(4, "open"), OPEN, edges) == [0, 0, 0, 0]


def test_reversal_after_two_detents_counts_back_down() -> None:
    edges = FULL_CYCLE_OPEN_CW * 2 + FULL_CYCLE_OPEN_CCW * 3
    count = decode_edges(Decoder(4, "open"), OPEN, edges)
    assert (count.detents, count.errors) == (-1, 0)


def test_reversal_just_after_arriving_takes_the_detent_back_only_at_the_previous_rest() -> None:
    # One detent clockwise, then one edge back and forth across the rest (B 0 then 1).
    edges = [*FULL_CYCLE_OPEN_CW, (B, 0), (B, 1)]
    assert per_edge_detents(Decoder(4, "open"), OPEN, edges) == [0, 0, 0, 1, 0, 0]


def test_bounce_burst_cancels_out() -> None:
    # A flickers 0 1 0 1 0 before holding low; then the detent completes.
    edges = [(A, 0), (A, 1), (A, 0), (A, 1), (A, 0), (B, 0), (A, 1), (B, 1)]
    count = decode_edges(Decoder(4, "open"), OPEN, edges)
    assert (count.detents, count.errors) == (1, 0)


def test_bounce_on_the_last_edge_counts_the_detent_once() -> None:
    edges = [(A, 0), (B, 0), (A, 1), (B, 1), (B, 0), (B, 1), (B, 0), (B, 1)]
    assert per_edge_detents(Decoder(4, "open"), OPEN, edges) == [0, 0, 0, 1, 0, 0, 0, 0]


def test_both_lines_changing_is_an_error_never_a_step() -> None:
    decoder = Decoder(4, "open")
    count = decode_samples(decoder, OPEN, [0b00])
    assert (count.detents, count.errors) == (0, 1)
    # Half a cycle from rest either way: re-seated as 2 quarters on (it was not going back).
    assert (decoder.sub(count.phase), decoder.lines(count.phase)) == (2, 0b00)
    # 11 01 then 10 (both changed): one error, still no detent.
    count = decode_samples(decoder, OPEN, [0b01, 0b10])
    assert (count.detents, count.errors) == (0, 1)


def test_half_cycle_both_lines_changing_lands_on_a_rest_without_counting() -> None:
    decoder = Decoder(2, "open")
    count = decode_samples(decoder, OPEN, [0b00])
    assert (count.detents, count.errors) == (0, 1)
    assert decoder.at_rest(count.phase)
    # The next detents count normally from there (00 -> 10 -> 11 is one detent clockwise).
    count = decode_samples(decoder, OPEN, [0b00, 0b10, 0b11])
    assert (count.detents, count.errors) == (1, 1)


def test_error_reseats_within_the_detent_nearest_the_last_rest() -> None:
    decoder = Decoder(4, "open")
    # 11 -> 01 (sub 1) -> 10: both changed; 10 is 3 quarters on or 1 back: re-seat at -1.
    count = decode_samples(decoder, OPEN, [0b01, 0b10])
    assert decoder.sub(count.phase) == -1
    # Going on to 11 from there is back at the start: no detent.
    assert decode_samples(decoder, OPEN, [0b01, 0b10, 0b11]) == Count(0, 1, decoder.start(OPEN))


def test_repeated_level_on_a_line_is_a_missed_edge_error_never_a_step() -> None:
    decoder = Decoder(4, "open")
    count = decode_edges(decoder, OPEN, [(A, 1)])
    assert count == Count(0, 1, decoder.start(OPEN))


def test_dropped_edge_loses_the_detent_and_counts_an_error() -> None:
    # Clockwise from 11 with A's fall missed: the decoder sees B fall (as if anticlockwise),
    # then A rise again (already high: error), then B rise (back to rest): no detent.
    edges = [(B, 0), (A, 1), (B, 1)]
    count = decode_edges(Decoder(4, "open"), OPEN, edges)
    assert (count.detents, count.errors) == (0, 1)
    # The next detent after the drop is counted in full.
    count = decode_edges(Decoder(4, "open"), OPEN, edges + FULL_CYCLE_OPEN_CW)
    assert (count.detents, count.errors) == (1, 1)


def test_start_between_detents_counts_from_the_rest_below() -> None:
    decoder = Decoder(4, "open")
    # Started at 00 (half way): two more clockwise edges (A rises, B rises) reach a rest.
    assert decode_edges(decoder, 0b00, [(A, 1), (B, 1)]).detents == 1
    assert decode_edges(decoder, 0b00, [(B, 1), (A, 1)]).detents == 0


def test_decoder_refuses_other_edge_counts() -> None:
    with pytest.raises(ValueError, match="edges_per_detent must be 4 or 2, got 3"):
        Decoder(3)


# -- random walks ----------------------------------------------------------------------------

ENCODERS = st.sampled_from(
    [
        (4, "open", OPEN),
        (4, "closed", CLOSED),
        (2, "open", OPEN),
        (2, "closed", CLOSED),
    ]
)


@settings(max_examples=500)
@given(
    encoder=ENCODERS,
    invert=st.booleans(),
    moves=st.lists(st.tuples(st.integers(-5, 5), st.booleans()), max_size=30),
)
def test_random_walk_with_bounce_counts_the_net_detents(
    encoder: tuple[int, str, int], invert: bool, moves: list[tuple[int, bool]]
) -> None:
    edges_per_detent, rest, start = encoder
    decoder = Decoder(edges_per_detent, rest, invert)  # type: ignore[arg-type]
    lines, edges = start, []
    for detents, bounce in moves:
        for line, level in quadrature_edges(lines, detents, edges_per_detent, invert):
            if bounce:
                edges += [(line, level), (line, 1 - level)]
            edges.append((line, level))
        lines = apply_edges(start, edges)
    count = decode_edges(decoder, start, edges)
    assert count.detents == sum(detents for detents, _ in moves)
    assert count.errors == 0
    assert decoder.at_rest(count.phase)

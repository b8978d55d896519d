"""A pure transition-table quadrature decoder, and the edge sequences a real encoder makes.

Lines are a 2-bit number, A the high bit: ``0b10`` is A high, B low. Turning clockwise
(counting up) walks the Gray cycle 00 -> 10 -> 11 -> 01 -> 00 (A leads B); ``invert``
swaps the directions. Each change of one line is a quarter step; a change of both lines at
once is impossible for a real encoder (an edge was missed), so it is counted as an error
and never as a step. A line event that repeats the level the decoder already has for that
line means that line changed twice unseen: also an error, never a step.

Detents are counted only on arriving at a rest position after a full detent of quarter
steps in one direction, so contact bounce (a line flickering back and forth) cancels out:
the count within the detent goes up and down again and nothing is counted. The decoder's
whole state is one small integer, its *phase* (the lines and the quarter steps taken since
the last rest), so every transition is one look-up in a precomputed table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from firmware.maps import Rest, RingPins

POSITION: Final = (0, 3, 1, 2)
"""Lines -> position in the clockwise cycle (00=0, 10=1, 11=2, 01=3)."""
LINES_AT: Final = (0b00, 0b10, 0b11, 0b01)
"""Position in the clockwise cycle -> lines."""
REST_LINES: Final[dict[Rest, int]] = {"open": 0b11, "closed": 0b00}
LINE_A: Final = 0
LINE_B: Final = 1
_LINE_BIT: Final = (0b10, 0b01)


class Step(NamedTuple):
    """One decoded transition: the new phase, detents counted (-1, 0, +1), an error (0/1)."""

    phase: int
    detents: int
    error: int


@dataclass(frozen=True)
class Decoder:
    """The transition tables for one encoder type.

    ``edges_per_detent`` is 4 (a full quadrature cycle per click) or 2 (half a cycle);
    ``rest`` the lines' level in a detent (``"open"`` = both high, ``"closed"`` = both low;
    with 2 edges per detent both levels are rests); ``invert`` swaps the directions.
    """

    edges_per_detent: int = 4
    rest: Rest = "open"
    invert: bool = False
    _edge_table: tuple[Step, ...] = field(init=False, repr=False, compare=False)
    _sample_table: tuple[Step, ...] = field(init=False, repr=False, compare=False)
    _at_rest: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.edges_per_detent not in (2, 4):
            raise ValueError(f"edges_per_detent must be 4 or 2, got {self.edges_per_detent}")
        phases = range((2 * self.edges_per_detent - 1) * 4)
        samples = tuple(self._transition(p, lines) for p in phases for lines in range(4))
        edges = []
        for phase in phases:
            lines = phase & 0b11
            for line in (LINE_A, LINE_B):
                bit = _LINE_BIT[line]
                for level in (0, 1):
                    new = (lines | bit) if level else (lines & ~bit)
                    # A repeated level: the line changed twice unseen -- an error, no step.
                    edges.append(Step(phase, 0, 1) if new == lines else samples[phase * 4 + new])
        object.__setattr__(self, "_sample_table", samples)
        object.__setattr__(self, "_edge_table", tuple(edges))
        object.__setattr__(self, "_at_rest", tuple(self.sub(p) == 0 for p in phases))

    @classmethod
    def for_ring(cls, ring: RingPins) -> Decoder:
        """Build the decoder a ring's pin map entry describes."""
        return cls(ring.edges_per_detent, ring.rest, ring.invert)

    # -- phase encoding: (sub + epd - 1) * 4 + lines, sub in -(epd-1)..(epd-1) ---------------

    def _phase(self, sub: int, lines: int) -> int:
        return (sub + self.edges_per_detent - 1) * 4 + lines

    def sub(self, phase: int) -> int:
        """Quarter steps taken (in the counting direction) since the last rest."""
        return (phase >> 2) - self.edges_per_detent + 1

    @staticmethod
    def lines(phase: int) -> int:
        """The lines the decoder last saw."""
        return phase & 0b11

    def _residue(self, lines: int) -> int:
        """Quarter steps from a rest to ``lines`` in the counting direction, mod a detent."""
        direction = -1 if self.invert else 1
        rest = POSITION[REST_LINES[self.rest]]
        return (direction * (POSITION[lines] - rest)) % self.edges_per_detent

    def start(self, lines: int) -> int:
        """Return the phase for an encoder first seen at ``lines`` (counting from the rest
        below when it is not in a detent)."""
        return self._phase(self._residue(lines), lines)

    def _transition(self, phase: int, new: int) -> Step:
        old, sub, epd = phase & 0b11, self.sub(phase), self.edges_per_detent
        quarter = (POSITION[new] - POSITION[old]) % 4
        if quarter == 0:
            return Step(phase, 0, 0)
        if quarter == 2:
            # Both lines changed: direction unknown. Re-seat the count on the lines'
            # position nearest the last rest (ties: the way it was going); never a step.
            residue = self._residue(new)
            if residue == 0:
                return Step(self._phase(0, new), 0, 1)
            up, down = residue, residue - epd
            nearer = up if (abs(up), sub < 0) < (abs(down), sub >= 0) else down
            return Step(self._phase(nearer, new), 0, 1)
        step = 1 if quarter == 1 else -1
        if self.invert:
            step = -step
        sub += step
        if sub == epd:
            return Step(self._phase(0, new), 1, 0)
        if sub == -epd:
            return Step(self._phase(0, new), -1, 0)
        return Step(self._phase(sub, new), 0, 0)

    # -- decoding ------------------------------------------------------------------------

    def sample(self, phase: int, lines: int) -> Step:
        """Decode a new sample of both lines."""
        return self._sample_table[phase * 4 + lines]

    def edge(self, phase: int, line: int, level: int) -> Step:
        """Decode one line's event: ``line`` is :data:`LINE_A` or :data:`LINE_B`."""
        return self._edge_table[phase * 4 + line * 2 + level]

    @property
    def edge_table(self) -> tuple[Step, ...]:
        """The edge table, indexed ``phase * 4 + line * 2 + level`` (for hot loops)."""
        return self._edge_table

    def at_rest(self, phase: int) -> bool:
        """Whether the encoder sits in a detent (no quarter steps since the last rest)."""
        return self._at_rest[phase]


@dataclass(frozen=True)
class Count:
    """What a run of samples or edges added up to."""

    detents: int
    errors: int
    phase: int


def decode_samples(decoder: Decoder, start: int, samples: Iterable[int]) -> Count:
    """Decode a sequence of 2-bit samples from the lines ``start``."""
    phase, detents, errors = decoder.start(start), 0, 0
    for lines in samples:
        phase, counted, error = decoder.sample(phase, lines)
        detents += counted
        errors += error
    return Count(detents, errors, phase)


def decode_edges(decoder: Decoder, start: int, edges: Iterable[tuple[int, int]]) -> Count:
    """Decode a sequence of ``(line, level)`` events from the lines ``start``."""
    phase, detents, errors = decoder.start(start), 0, 0
    for line, level in edges:
        phase, counted, error = decoder.edge(phase, line, level)
        detents += counted
        errors += error
    return Count(detents, errors, phase)


def quadrature_edges(
    lines: int, detents: int, edges_per_detent: int = 4, invert: bool = False
) -> list[tuple[int, int]]:
    """Return the ``(line, level)`` edges a real encoder makes turning ``detents`` clicks
    (negative: the other way) from ``lines``, in order."""
    direction = 1 if detents >= 0 else -1
    if invert:
        direction = -direction
    position = POSITION[lines]
    edges = []
    for _ in range(abs(detents) * edges_per_detent):
        position = (position + direction) % 4
        new = LINES_AT[position]
        changed = new ^ lines
        line = LINE_A if changed == _LINE_BIT[LINE_A] else LINE_B
        edges.append((line, 1 if new & changed else 0))
        lines = new
    return edges


def apply_edges(lines: int, edges: Iterable[tuple[int, int]]) -> int:
    """Return the lines after ``edges`` (for checking a sequence by hand)."""
    for line, level in edges:
        bit = _LINE_BIT[line]
        lines = (lines | bit) if level else (lines & ~bit)
    return lines

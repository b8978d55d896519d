"""The Health page's guided tests: turn each ring one slot each way; light the LEDs by role.

:class:`RingTest` follows the ring bank's reports (each slot a ring arrives on, with its raw
detent count) and its per-line diagnostics (edges and errors on lines A and B), and says
per ring, in plain words, what it has seen: ``ring 3: +1 ✓, −1 ✓, lines A and B both
toggled, 0 errors``, or the line that never moved. Each ring's result has those words as its
``phrase``, the message and its values for the page to say in the phone's language
(:mod:`companion.phrases`; ``Phrase.english()`` where English is wanted). The LED frames are
pure: each role lit in turn, and one pixel at a time for the counted chase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from companion.games.base import JSON
from companion.phrases import Phrase, say, say_n
from companion.table.board_parts import PinMapLike, RingReportLike, RingStatusLike
from companion.table.led_scenes import RGB, LedMapLike

LED_ROLES: Final = ("spokes", "entrances", "bases", "scores")
"""The roles of an LED map (:class:`~companion.table.led_scenes.LedMapLike`)."""
LIT: Final[RGB] = (255, 255, 255)
OFF: Final[RGB] = (0, 0, 0)
CHASE: Final[RGB] = (255, 255, 255)
MINUS: Final = "\u2212"
"""The minus sign the page writes (−1), not a hyphen."""
RingVerdict = Literal["waiting", "turning", "passed", "failed"]


@dataclass
class _Progress:
    """What the test has seen of one ring since it started (table thread only)."""

    per_slot: int
    last_detents: int
    base_edges: tuple[int, int]
    base_errors: int
    plus: bool = False
    minus: bool = False


class RingTest:
    """One run of the guided ring test, from the bank's statuses when it started.

    ``take`` is called with every ring report (on the table thread); ``result`` with the
    bank's current statuses. Each ring passes once it has moved a slot each way with both
    lines toggled and no errors.
    """

    def __init__(self, pin_map: PinMapLike, statuses: Sequence[RingStatusLike]) -> None:
        self.pin_map = pin_map
        self._rings = [
            _Progress(
                per_slot=ring.detents_per_slot,
                last_detents=int(status.detents),
                base_edges=_line_edges(status),
                base_errors=int(status.errors),
            )
            for ring, status in zip(pin_map.rings, statuses, strict=True)
        ]

    def take(self, report: RingReportLike) -> None:
        """Note a ring arriving on a slot: one slot up or down since the last arrival."""
        if report.kind != "moved" or not report.aligned:
            return
        if not 0 <= report.ring < len(self._rings):
            return
        ring = self._rings[report.ring]
        steps = int(report.detents) - ring.last_detents
        ring.last_detents = int(report.detents)
        if steps >= ring.per_slot:
            ring.plus = True
        elif steps <= -ring.per_slot:
            ring.minus = True

    def result(self, statuses: Sequence[RingStatusLike]) -> list[dict[str, JSON]]:
        """Each ring's verdict, what it has seen, and one line in plain words."""
        return [
            self._ring_result(index, ring, status)
            for index, (ring, status) in enumerate(zip(self._rings, statuses, strict=True))
        ]

    def _ring_result(self, index: int, ring: _Progress, status: RingStatusLike) -> dict[str, JSON]:
        pins = self.pin_map.rings[index]
        now = _line_edges(status)
        moved = (now[0] - ring.base_edges[0], now[1] - ring.base_edges[1])
        errors = int(status.errors) - ring.base_errors
        verdict: RingVerdict
        phrase: Phrase
        if moved == (0, 0):
            verdict, phrase = "waiting", say("ring {ring}: not turned yet", ring=index)
        elif 0 in moved and max(moved) >= 2:
            dead, alive = ("A", "B") if moved[0] == 0 else ("B", "A")
            pin = pins.a if dead == "A" else pins.b
            verdict = "failed"
            phrase = say_n(
                "ring {ring}: line {dead} (GPIO{pin}) never moved while line {alive} toggled "
                "{count} time: check line {dead}'s wire, its pull-up and its filter",
                "ring {ring}: line {dead} (GPIO{pin}) never moved while line {alive} toggled "
                "{count} times: check line {dead}'s wire, its pull-up and its filter",
                max(moved),
                ring=index,
                dead=dead,
                pin=pin,
                alive=alive,
            )
        else:
            seen = {
                "ring": index,
                "plus": "+1 ✓" if ring.plus else say("{step} not yet", step="+1"),
                "minus": f"{MINUS}1 ✓" if ring.minus else say("{step} not yet", step=f"{MINUS}1"),
                "lines": (
                    say("lines A and B both toggled") if 0 not in moved else say("one line toggled")
                ),
                "errors": say_n("{count} error", "{count} errors", errors),
            }
            if errors:
                phrase = say(
                    "ring {ring}: {plus}, {minus}, {lines}, {errors} (bounce: check the filter, "
                    "or a loose wheel)",
                    **seen,
                )
            else:
                phrase = say("ring {ring}: {plus}, {minus}, {lines}, {errors}", **seen)
            done = ring.plus and ring.minus and 0 not in moved
            verdict = "turning" if not done else ("passed" if not errors else "failed")
        return {
            "ring": index,
            "verdict": verdict,
            "plus": ring.plus,
            "minus": ring.minus,
            "line_edges": list(moved),
            "errors": errors,
            "phrase": phrase.to_json(),
        }


def _line_edges(status: RingStatusLike) -> tuple[int, int]:
    edges = status.line_edges
    return int(edges[0]), int(edges[1])


# -- the LED test ----------------------------------------------------------------------------


def role_pixels(led_map: LedMapLike, role: str) -> list[int]:
    """The pixels of one role of the LED map, in map order (``scores``: corner by corner).

    :raises ValueError: for a role the LED map does not know.
    """
    roles = {
        "spokes": led_map.spokes,
        "entrances": led_map.entrances,
        "bases": led_map.bases,
        "scores": tuple(pixel for corner in led_map.scores for pixel in corner),
    }
    if role not in roles:
        raise ValueError(f"role {role!r} is not one of {', '.join(LED_ROLES)}")
    return list(roles[role])


def role_frame(led_map: LedMapLike, count: int, role: str) -> list[RGB]:
    """A frame with one role's pixels lit white and every other pixel off."""
    frame = [OFF] * count
    for pixel in role_pixels(led_map, role):
        if 0 <= pixel < count:
            frame[pixel] = LIT
    return frame


def chase_frame(count: int, pixel: int) -> list[RGB]:
    """A frame with only ``pixel`` lit (the counted chase's step).

    :raises ValueError: when the pixel is not on the strip.
    """
    if not 0 <= pixel < count:
        raise ValueError(f"pixel {pixel} is not on the strip (0..{count - 1})")
    frame = [OFF] * count
    frame[pixel] = CHASE
    return frame

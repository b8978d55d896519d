"""The ring-board turn at a real table, as pure functions of the game and the sensed rings.

The table thread keeps the facts (the game's state at the turn's start, the dice, the last
report of every ring, the re-sync in progress); these functions turn them into what the panel
and the LEDs show: a status per die and per ring, the live preview of the advance as plain
instructions, whether the turn may be confirmed (and if not, why), and the re-sync guide.
Every sentence in it goes out as a phrase, in one form only (each ring move sends what
changed to every phone): the phone renders it in its language, and Python asks a phrase for
its English (``Phrase.english()``) where it needs one, as the refusals and the logs do.
Rules questions all go to the rings engine (``explain``, ``preview``, ``describe``,
``open_paths``); nothing here knows a rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.games import rings
from companion.games.base import JSON
from companion.phrases import Phrase, say

ResyncReason = Literal["restart", "undo", "resume", "import", "new"]

#: What each re-sync reason asks the table, as the panel says it.
RESYNC_PHRASES: dict[str, Phrase] = {
    "restart": say("the companion restarted: check that no ring was moved while it was off"),
    "undo": say("the last turn was undone: turn the rings back to where the game has them"),
    "resume": say("this game was resumed: set the rings to where the game has them"),
    "import": say("this game was imported: set the rings to where the game has them"),
    "new": say("a new game: set every ring's mark at the star"),
}


@dataclass(frozen=True)
class RingSense:
    """The last report of one ring."""

    offset: int
    aligned: bool = True
    settled: bool = True
    edges: int = 0
    errors: int = 0
    last_movement: float | None = None


@dataclass(frozen=True)
class Resync:
    """A re-sync in progress: the rings must reach ``targets`` (or the seat accepts them)."""

    reason: ResyncReason
    targets: tuple[int, ...]


def signed_steps(delta: int, spokes: int) -> int:
    """The shortest signed turn for a difference of ``delta`` slots (ties go clockwise)."""
    steps = delta % spokes
    return steps - spokes if steps > spokes // 2 else steps


def slots(count: int) -> str:
    """``1 slot`` / ``3 slots``."""
    return f"{count} slot" if count == 1 else f"{count} slots"


def ring_difference(ring: int, sensed: int, target: int, spokes: int) -> Phrase | None:
    """Say how far ring ``ring`` stands from where the game has it, or None when it is there."""
    steps = signed_steps(sensed - target, spokes)
    if steps == 0:
        return None
    return rings.offset_phrase(ring, steps)


def turn_back(ring: int, sensed: int, target: int, spokes: int) -> str | None:
    """The instruction that brings ring ``ring`` to ``target``, or None when it is there."""
    steps = signed_steps(target - sensed, spokes)
    if steps == 0:
        return None
    way = "clockwise" if steps > 0 else "counter-clockwise"
    return f"turn ring {ring} {slots(abs(steps))} {way} (its mark to spoke {target})"


def resync_view(resync: Resync, sense: Sequence[RingSense], spokes: int) -> dict[str, JSON]:
    """The re-sync guide: where each ring must stand, ticked off as it gets there."""
    rings = []
    for ring, (target, now) in enumerate(zip(resync.targets, sense, strict=True)):
        there = now.offset == target and now.aligned
        rings.append(
            {
                "ring": ring,
                "target": target,
                "sensed": now.offset,
                "ok": there,
                "instruction": None if there else turn_back(ring, now.offset, target, spokes),
            }
        )
    return {
        "reason": resync.reason,
        "prompt": RESYNC_PHRASES[resync.reason].to_json(),
        "rings": rings,
        "done": all(ring["ok"] for ring in rings),
        "accept": 'accept the sensed offsets with {"accept_offsets": true}',
    }


def resync_complete(resync: Resync, sense: Sequence[RingSense]) -> bool:
    """Say whether every ring stands, settled, where the re-sync wants it.

    After a restart the seat must say so (the sensors cannot see a ring moved while off).
    """
    if resync.reason == "restart":
        return False
    return all(
        now.offset == target and now.aligned and now.settled
        for target, now in zip(resync.targets, sense, strict=True)
    )


def at_offsets(state: rings.State, offsets: Sequence[int]) -> rings.State:
    """The game's state with the rings turned to ``offsets`` (pegs ride their rings)."""
    return dataclasses.replace(state, offsets=tuple(offsets))


@dataclass(frozen=True)
class LiveTurn:
    """Everything the panel and the LEDs show about the turn in progress."""

    dice: dict[str, int] | None
    #: Each die's state (``used``, ``unused``, ``wrong``, ``void``) and why, as the engine
    #: explains it.
    dice_status: dict[str, rings.DieStatus]
    rings: list[dict[str, JSON]]
    rotations: list[dict[str, int]] | None
    #: The first die the rings do not match, and why (the engine's explanation).
    reason: Phrase | None
    preview: list[Phrase]
    advance_spokes: frozenset[int]
    snipe_spokes: frozenset[int]
    open_paths: frozenset[int]
    can_confirm: bool
    #: Why the turn cannot be confirmed now (None: it can).
    blocked: Phrase | None

    def to_json(self) -> dict[str, JSON]:
        """The panel's view of the turn."""
        return {
            "dice": self.dice,
            "dice_status": {
                colour: {"status": die.status, "reason": _phrase_json(die.phrase)}
                for colour, die in self.dice_status.items()
            },
            "rings": self.rings,
            "rotations": self.rotations,
            "preview": [line.to_json() for line in self.preview],
            "open_paths": sorted(self.open_paths),
            "can_confirm": self.can_confirm,
            "blocked": _phrase_json(self.blocked),
        }


def _phrase_json(phrase: Phrase | None) -> JSON:
    return None if phrase is None else phrase.to_json()


def event_spoke(event: rings.Event) -> int | None:
    """The spoke an event happens on: where a peg ends (advance, snipe, entry) or where it
    entered Central Control (centre); None for events off the board (win)."""
    cell = event.start if event.kind == "centre" else event.end
    if cell is None:
        return None
    return int(cell[1])


def live_turn(
    state: rings.State,
    dice: Mapping[str, int] | None,
    sense: Sequence[RingSense],
    resync: Resync | None,
) -> LiveTurn:
    """Match the sensed rings against the game at the turn's start and the dice.

    ``state`` is the game's state at the turn's start.
    """
    spokes = int(state.board.spokes)
    offsets = [ring.offset for ring in sense]
    colours = [ring.colour for ring in state.board.rings]
    over = bool(rings.is_over(state))
    explanation = None
    if dice is not None and not over:
        explanation = rings.explain(state, dict(dice), offsets)
    ring_views: list[dict[str, JSON]] = []
    for number, (now, start) in enumerate(zip(sense, state.offsets, strict=True)):
        # The engine notes the rings the dice do not explain; with no dice, every ring
        # away from the turn's start is a difference.
        if explanation is None or number in explanation.rings:
            difference = ring_difference(number, now.offset, int(start), spokes)
        else:
            difference = None
        ring_views.append(
            {
                "ring": number,
                "colour": colours[number],
                "start": int(start),
                "sensed": now.offset,
                "steps": signed_steps(now.offset - int(start), spokes),
                "aligned": now.aligned,
                "settled": now.settled,
                "difference": _phrase_json(difference),
            }
        )
    dice_status: dict[str, rings.DieStatus] = {}
    rotations: list[dict[str, int]] | None = None
    reason: Phrase | None = None
    if explanation is not None:
        dice_status = dict(explanation.dice)
        if explanation.rotations is not None:
            rotations = [
                {"ring": rotation.ring, "steps": rotation.steps}
                for rotation in explanation.rotations
            ]
        reason = explanation.reason_phrase
    preview: list[Phrase] = []
    advance: set[int] = set()
    snipes: set[int] = set()
    paths: frozenset[int] = frozenset()
    if not over:
        outcome = rings.preview(state, offsets)
        preview = [rings.describe(event, state) for event in outcome.events]
        for event in outcome.events:
            spoke = event_spoke(event)
            if spoke is None:
                continue
            if event.kind == "snipe":
                snipes.add(spoke)
            elif event.kind in ("advance", "centre", "entry"):
                advance.add(spoke)
        paths = frozenset(int(s) for s in rings.open_paths(at_offsets(state, offsets)))
    blocked = confirm_blocker(dice, sense, resync, explanation, over)
    return LiveTurn(
        dice=dict(dice) if dice is not None else None,
        dice_status=dice_status,
        rings=ring_views,
        rotations=rotations,
        reason=reason,
        preview=preview,
        advance_spokes=frozenset(advance),
        snipe_spokes=frozenset(snipes),
        open_paths=paths,
        can_confirm=blocked is None,
        blocked=blocked,
    )


def confirm_blocker(
    dice: Mapping[str, int] | None,
    sense: Sequence[RingSense],
    resync: Resync | None,
    explanation: rings.Explanation | None,
    over: bool,
) -> Phrase | None:
    """Say why the turn cannot be confirmed now, or None when it can."""
    if over:
        return say("the game is over")
    if resync is not None:
        return say("re-sync first: {prompt}", prompt=RESYNC_PHRASES[resync.reason])
    if dice is None:
        return say("enter or roll the dice first")
    for number, ring in enumerate(sense):
        if not ring.aligned:
            return say("ring {ring} stands between two slots", ring=number)
    for number, ring in enumerate(sense):
        if not ring.settled:
            return say("ring {ring} is still moving", ring=number)
    if explanation is None or explanation.rotations is None:
        if explanation is not None and explanation.reason_phrase is not None:
            return explanation.reason_phrase
        return say("the rings do not match the dice")
    return None

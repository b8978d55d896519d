"""Computer seats and the move advisor at the ring board (issue 10), driven by the table.

A ring-board game's seats may be played by the companion: a seat object of the game's setup
carries ``"computer": "easy" | "medium" | "hard"`` (absent or ``null``: a person), and
``"hints": true`` when its person wants the advisor's best three options shown unasked.
Both keys stay in the stored setup (so they survive restarts) and in exports (the rings
engine ignores other keys of a seat, so a record with them replays the same).

When the game on the board has a computer seat to move, :class:`ComputerSeats` (owned by the
:class:`~companion.table.table.Table`, run on its thread after every command):

1. rolls the seat's dice with the game's seeded generator (unless dice are already entered);
2. lets a worker thread choose the rotations (``companion.players.rings.choose``: hard takes
   up to a few hundred milliseconds, so never on the table thread); the worker posts the
   choice back through the table's queue;
3. announces them on the panel ("turn ring 5 two slots clockwise") and on the LEDs (the spoke
   pixels chase round the rim in the direction to turn, in the ring's die colour:
   :class:`companion.table.led_scenes.Chase`);
4. in emulation turns the emulated rings itself through the firmware's ring turner (the
   same path as the panel's emulator buttons); at a real board it waits for the table;
5. once the sensed rings stand, settled, where it announced, confirms the turn like the
   ``done`` button; the outcome's peg moves show as the last turn's instructions.

After an undo the computer seat waits (``{"play": true}`` lets it go on), so that a person
can undo back past the computer's turn to their own.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.games.base import JSON, MandalaError
from companion.games.rings import COLOURS, Rotation, State
from companion.phrases import Phrase, error_words, say, say_n
from companion.table import led_scenes, live
from companion.table.adapters import adapter
from companion.table.adapters.rings import COMPUTER, HINTS
from companion.table.board_parts import TurnerLike
from companion.table.errors import Conflict, TableError
from companion.table.game import Game, SeatHost
from companion.table.ringboard import RingBoard

log = logging.getLogger(__name__)

TURN_PAUSE_S = 0.8
"""In emulation: how long the announcement shows before the computer turns the rings."""
RING_PAUSE_S = 0.2
"""In emulation: the pause between two rings the computer turns."""
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


@dataclass(frozen=True)
class SeatSetting:
    """A seat as the table plays it: its name, its computer level (None: a person), hints."""

    name: str
    computer: str | None
    hints: bool


def seat_settings(setup: Mapping[str, JSON]) -> list[SeatSetting]:
    """Read every seat's settings from a (checked) setup."""
    seats = setup.get("seats")
    found: list[SeatSetting] = []
    for seat in seats if isinstance(seats, list) else []:
        if isinstance(seat, dict):
            level = seat.get(COMPUTER)
            found.append(
                SeatSetting(
                    str(seat.get("name", "")),
                    level if isinstance(level, str) else None,
                    seat.get(HINTS) is True,
                )
            )
        else:
            found.append(SeatSetting(str(seat), None, False))
    return found


def rotation_words(rotation: Rotation) -> str:
    """Say one rotation as the table hears it: ``turn ring 5 two slots clockwise``."""
    return rotation_phrase(rotation).english()


def rotation_phrase(rotation: Rotation) -> Phrase:
    """:func:`rotation_words` as a phrase, for the reader's language."""
    from companion.players.rings import NUMBER_PHRASES  # on first use: not at start-up

    count = abs(rotation.steps)
    word: Phrase | str = NUMBER_PHRASES[count] if count < len(NUMBER_PHRASES) else str(count)
    way = say("clockwise") if rotation.steps > 0 else say("counter-clockwise")
    return say_n(
        "turn ring {ring} {number} slot {way}",
        "turn ring {ring} {number} slots {way}",
        count,
        ring=rotation.ring,
        number=word,
        way=way,
    )


def in_dice_order(state: State, rotations: Sequence[Rotation]) -> list[Rotation]:
    """The rotations in the order of the dice colours (then ring), as the panel lists them."""
    colours = [ring.colour for ring in state.board.rings]
    return sorted(rotations, key=lambda r: (COLOURS.index(colours[r.ring]), r.ring))


def dice_words(dice: Mapping[str, int]) -> str:
    """``red 1, blue 2, green 0, yellow 3, brown 1``."""
    return ", ".join(f"{colour} {dice[colour]}" for colour in COLOURS)


def dice_phrase(dice: Mapping[str, int]) -> Phrase:
    """:func:`dice_words` as a phrase, for the reader's language."""
    return say(
        "red {red}, blue {blue}, green {green}, yellow {yellow}, brown {brown}",
        **{colour: dice[colour] for colour in COLOURS},
    )


def then_phrase(steps: Sequence[Phrase]) -> Phrase:
    """``turn ring 1 …, then turn ring 3 …``: the steps in order, as one phrase."""
    found = steps[0]
    for step in steps[1:]:
        found = say("{first}, then {next}", first=found, next=step)
    return found


class RingSeatHost(SeatHost, Protocol):
    """What the computer seats use of the table besides :class:`SeatHost`: the ring board
    and the game on it."""

    @property
    def ring_board(self) -> RingBoard:
        """The ring board's live part (table thread)."""
        ...

    def board_game(self) -> Game | None:
        """The ring-board game on the board, if any (table thread)."""
        ...


@dataclass
class RingPlan:
    """A computer seat's turn in progress (owned by the table thread)."""

    game_id: str
    turn: int
    seat: int
    name: str
    level: str
    dice: dict[str, int]
    start: tuple[int, ...]
    spokes: int
    rotations: tuple[Rotation, ...] | None = None
    error: Phrase | None = None
    """Why the seat cannot go on (the state's ``error``, as phrase JSON for the reader's
    language)."""
    cancelled: threading.Event = field(default_factory=threading.Event)

    def target(self, ring: int) -> int:
        """Where ``ring`` must stand once the announced rotations are made."""
        assert self.rotations is not None
        steps = sum(r.steps for r in self.rotations if r.ring == ring)
        return (self.start[ring] + steps) % self.spokes

    def targets(self) -> list[int]:
        """Where every ring must stand."""
        return [self.target(ring) for ring in range(len(self.start))]


class ComputerSeats:
    """The computer seats of the game on the board; every method runs on the table thread
    except the worker's :meth:`_think` (which only reads a frozen state and posts back)."""

    def __init__(self, table: RingSeatHost) -> None:
        self.table = table
        self.plan: RingPlan | None = None
        self.paused: set[str] = set()
        self.last: dict[str, dict[str, JSON]] = {}
        self.turn_pause_s = TURN_PAUSE_S
        self._seen: dict[str, int] = {}

    # Driving a turn ------------------------------------------------------------------------

    def tick(self) -> None:
        """Start, follow or finish the turn of a computer seat on the board (after every
        command the table thread applies)."""
        table = self.table
        game = table.board_game()
        if game is None or game.error is not None or not adapter(game.kind).ring_board:
            self._cancel()
            return
        turns = len(game.actions)
        seen = self._seen.get(game.id)
        self._seen[game.id] = turns
        if seen is not None and turns < seen:
            self.paused.add(game.id)  # undone: wait until told to play again
        elif seen is not None and turns > seen:
            self.paused.discard(game.id)
        seat = game.state.to_move
        settings = seat_settings(game.setup)
        level = settings[seat].computer if seat is not None and seat < len(settings) else None
        if level is None or game.over:
            self._cancel()
            return
        plan = self.plan
        if plan is not None and (plan.game_id != game.id or plan.turn != turns):
            self._cancel()
            plan = None
        if plan is None:
            if game.id not in self.paused and table.ring_board.resync is None:
                assert seat is not None
                self._start(game, seat, settings[seat].name, level)
        elif plan.rotations is not None and plan.error is None:
            self._confirm_when_turned(game, plan)

    def _cancel(self) -> None:
        if self.plan is not None:
            self.plan.cancelled.set()
            self.plan = None

    def _start(self, game: Game, seat: int, name: str, level: str) -> None:
        table = self.table
        if game.dice is None:
            table.act(game.id, game.version, {"roll": True})  # the seat rolls its own dice
        assert game.dice is not None
        state = game.state
        plan = RingPlan(
            game_id=game.id,
            turn=len(game.actions),
            seat=seat,
            name=name,
            level=level,
            dice=dict(game.dice),
            start=tuple(int(o) for o in state.offsets),
            spokes=int(state.board.spokes),
        )
        self.plan = plan
        hardware = table.ring_board.hardware
        turner = hardware.turner if hardware is not None and hardware.emulated else None
        rng = random.Random(f"{game.seed}:computer:{plan.turn}")
        worker = threading.Thread(
            target=self._think,
            args=(plan, state, rng, turner),
            name="computer-seat",
            daemon=True,
        )
        worker.start()
        table.changed(game)

    def _think(
        self, plan: RingPlan, state: State, rng: random.Random, turner: TurnerLike | None
    ) -> None:
        """The worker: choose (off the table thread), post the choice, turn emulated rings."""
        from companion.players import rings as players  # on first use: not at start-up

        try:
            level: Any = plan.level
            rotations = players.choose(state, plan.dice, level, rng)
        except ValueError as error:
            reason = error_words(error)
            self._post(lambda: self._failed(plan, reason))
            return
        if not self._post(lambda: self._chosen(plan, rotations)):
            return
        if turner is None or plan.cancelled.wait(self.turn_pause_s):
            return
        board = self.table.ring_board
        for number, rotation in enumerate(in_dice_order(state, rotations)):
            if plan.cancelled.is_set() or (number and plan.cancelled.wait(RING_PAUSE_S)):
                return
            per_slot = board.detents_per_slot(rotation.ring)
            turner.turn(rotation.ring, rotation.steps * per_slot)

    def _post(self, function: Callable[[], None]) -> bool:
        """Run ``function`` on the table thread; False when the table is stopping."""
        try:
            self.table.call(function)
        except TableError:
            return False
        return True

    def _failed(self, plan: RingPlan, reason: str | Phrase) -> None:
        if self.plan is plan:
            plan.error = say("the computer seat could not choose: {reason}", reason=reason)
            log.error("game %s: %s", plan.game_id, plan.error.english())
            self._publish(plan.game_id)

    def _chosen(self, plan: RingPlan, rotations: tuple[Rotation, ...]) -> None:
        if self.plan is not plan:
            return
        plan.rotations = tuple(rotations)
        game = self.table.game(plan.game_id)
        if game is None:
            return
        if self.table.ring_board.hardware is None:
            # No ring board: the seat's turn goes straight into the journal.
            turn = {"dice": plan.dice, "rotations": [_rotation_json(r) for r in rotations]}
            self._act(game, turn)
            return
        self._publish(plan.game_id)

    def _confirm_when_turned(self, game: Game, plan: RingPlan) -> None:
        turn = self.table.ring_board.live
        sensed = [ring.offset for ring in self.table.ring_board.sense]
        if turn is None or not turn.can_confirm or sensed != plan.targets():
            return
        self._act(game, {"confirm": True})

    def _act(self, game: Game, action: dict[str, JSON]) -> None:
        plan = self.plan
        assert plan is not None and plan.rotations is not None
        announced = self._announcement(game, plan)
        try:
            self.table.act(game.id, game.version, action)
        except MandalaError as error:
            plan.error = say(
                "the computer seat could not play its turn: {reason}", reason=error_words(error)
            )
            log.error("game %s: %s", game.id, plan.error.english())
            self._publish(game.id)
            return
        self.last[game.id] = {**announced, "stage": "played", "turn": plan.turn + 1}
        plan.cancelled.set()  # the worker turns no ring for a turn that is over
        self.plan = None
        self.table.changed(game)

    def _publish(self, game_id: str) -> None:
        game = self.table.game(game_id)
        if game is not None:
            self.table.changed(game)

    # What the panel and the LEDs show ------------------------------------------------------

    def play(self, game: Game) -> None:
        """Let a computer seat that waits after an undo play its turn.

        :raises Conflict: when no computer seat of this game is waiting.
        """
        if game.id not in self.paused or self._waiting_seat(game) is None:
            raise Conflict.said(say("no computer seat is waiting to play in this game"))
        self.paused.discard(game.id)

    def _waiting_seat(self, game: Game) -> str | None:
        seat = game.state.to_move
        settings = seat_settings(game.setup)
        if seat is None or seat >= len(settings) or settings[seat].computer is None:
            return None
        return str(settings[seat].name)

    def _announcement(self, game: Game, plan: RingPlan) -> dict[str, JSON]:
        rings: list[dict[str, JSON]] = []
        steps: list[Phrase] = []
        sense = self.table.ring_board.sense
        for rotation in in_dice_order(game.state, plan.rotations or ()):
            target = plan.target(rotation.ring)
            there = rotation.ring < len(sense) and sense[rotation.ring].offset == target
            step = rotation_phrase(rotation)
            steps.append(step)
            rings.append(
                {
                    "ring": rotation.ring,
                    "steps": rotation.steps,
                    "phrase": step.to_json(),
                    "done": there,
                }
            )
        rolled = dice_phrase(plan.dice)
        if plan.rotations is None:
            told = say(
                "{name} (computer, {level}) rolled {dice}: thinking",
                name=plan.name,
                level=say(plan.level),
                dice=rolled,
            )
        elif not rings:
            told = say(
                "{name} (computer) rolled {dice}: no ring turns", name=plan.name, dice=rolled
            )
        else:
            told = say(
                "{name} (computer) rolled {dice}: {turns}",
                name=plan.name,
                dice=rolled,
                turns=then_phrase(steps),
            )
        return {
            "seat": plan.name,
            "level": plan.level,
            "dice": dict(plan.dice),
            "stage": "thinking" if plan.rotations is None else "turning",
            "rings": rings,
            "phrase": told.to_json(),
            "error": None if plan.error is None else plan.error.to_json(),
        }

    def view(self, game: Game) -> dict[str, JSON]:
        """The keys a ring-board game's panel state gets: seats' settings, the computer's
        turn in progress (``computer``), the last one it played (``computer_last``) and the
        seat waiting after an undo (``computer_waiting``)."""
        plan = self.plan if self.plan is not None and self.plan.game_id == game.id else None
        waiting = None
        if plan is None and game.id in self.paused and not game.over:
            waiting = self._waiting_seat(game)
        return {
            "players": [
                {"name": s.name, "computer": s.computer, "hints": s.hints}
                for s in seat_settings(game.setup)
            ],
            "computer": self._announcement(game, plan) if plan is not None else None,
            "computer_last": self.last.get(game.id),
            "computer_waiting": waiting,
        }

    def chase(self, game: Game) -> led_scenes.Chase | None:
        """The LED chase for the first announced ring not yet where it must go, if any."""
        plan = self.plan
        if plan is None or plan.game_id != game.id or plan.rotations is None:
            return None
        sense = self.table.ring_board.sense
        colours = [ring.colour for ring in game.state.board.rings]
        for rotation in in_dice_order(game.state, plan.rotations):
            ring = rotation.ring
            if ring >= len(sense):
                return None
            now = sense[ring].offset
            if now == plan.target(ring) and sense[ring].aligned:
                continue
            if now == plan.start[ring]:
                direction = 1 if rotation.steps > 0 else -1
            else:
                remaining = live.signed_steps(plan.target(ring) - now, plan.spokes)
                direction = 1 if remaining >= 0 else -1
            return led_scenes.Chase(ring, direction, colours[ring])
        return None


def _rotation_json(rotation: Rotation) -> dict[str, JSON]:
    return {"ring": rotation.ring, "steps": rotation.steps}


def hints(table: SeatHost, game_id: str, top: int = 3) -> dict[str, JSON]:
    """The advisor's best ``top`` options for the roll on the table (computed on the
    caller's thread from a frozen snapshot, so the table thread never waits for it).

    :raises NotFound: no such game. :raises Conflict: not a ring-board game, no dice yet,
        or the game is over.
    """

    def snapshot() -> tuple[State, dict[str, int] | None, str]:
        game = table.find(game_id)
        if game.error is not None or not adapter(game.kind).ring_board:
            raise Conflict(f"game {game.id} is not a ring-board game: no hints")
        if game.over:
            raise Conflict.said(say("the game is over"))
        return game.state, game.dice, str(game.state.seats[game.state.to_move].name)

    state, dice, seat = table.call(snapshot)
    if dice is None:
        raise Conflict.said(
            say("enter or roll the dice first: the hints are for the roll on the table")
        )
    from companion.players import rings as players  # on first use: not at start-up

    options = players.advise(state, dice, top)
    return {
        "seat": seat,
        "dice": dict(dice),
        "options": [
            {
                "rotations": [_rotation_json(r) for r in in_dice_order(state, o.rotations)],
                "announce": [rotation_words(r) for r in in_dice_order(state, o.rotations)],
                "text": o.text,
                "does": None if o.does is None else o.does.to_json(),
                "points": o.points,
                "score": round(o.score, 3),
            }
            for o in options
        ],
    }

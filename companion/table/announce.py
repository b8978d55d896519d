"""What happens in a game, as short sentences for people to hear (issue 25's announcements).

A family at the board looks at the board, not at a phone: the companion says whose turn it
is, the dice it rolls, a computer seat's instructions ("Bo: turn the blue ring, second from
the outside, 2 slots clockwise"), snipes, entries, scores, the re-sync steps and the winner;
for the other games the picks, what falls into the Eye, the cards played, the mandalas
completed and destroyed, and the scores. Every sentence is a
:class:`~companion.phrases.Phrase` (the catalogue's English message and its values), never
a string put together from pieces.

:class:`Announcer` keeps, per game, the few facts last said (:class:`Said`) and turns the
game as it is now into :class:`Announcement` s: each a ``topic`` and its phrases. The topic
says what a newer announcement replaces in a speech queue (``static/speech.js``): a newer
``turn``, ``dice``, ``computer`` or ``resync`` announcement of the same game supersedes a
waiting one of the same topic; ``events`` (what a step did) are never superseded, only
dropped when they waited too long. Nothing here does I/O: the publisher (table thread) sends
the announcements as ``say`` stream items after the change is on disk.

Hidden cards are never said: of the card game only what everybody sees (the cards played,
the colours claimed, the mandalas completed and destroyed; :mod:`~companion.table.
announce_games`, which says the Stones steps too), its scores and its winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.games import cards, icehouse, rings, stones
from companion.phrases import Phrase, say, say_n
from companion.table.announce_games import card_events, colour_words, stones_events
from companion.table.game import Game
from companion.table.live import signed_steps

Topic = Literal["events", "turn", "dice", "computer", "resync"]

TOPICS: tuple[Topic, ...] = ("events", "turn", "dice", "computer", "resync")
"""Every topic, in the order one change's announcements are made."""

FROM_OUTSIDE = (
    say("the outermost"),
    say("second from the outside"),
    say("third from the outside"),
    say("fourth from the outside"),
    say("fifth from the outside"),
)
FROM_INSIDE = (
    say("the innermost"),
    say("second from the inside"),
    say("third from the inside"),
    say("fourth from the inside"),
    say("fifth from the inside"),
)

#: What each re-sync reason asks the table (``live.RESYNC_PHRASES``, as sentences to hear).
RESYNC_SAID: dict[str, Phrase] = {
    "restart": say("The companion restarted. Check that no ring was moved while it was off."),
    "undo": say("The last turn was undone. Turn the rings back to where the game has them."),
    "resume": say("This game was resumed. Set the rings to where the game has them."),
    "import": say("This game was imported. Set the rings to where the game has them."),
    "new": say("A new game. Set every ring's mark at the star."),
}


@dataclass(frozen=True)
class Announcement:
    """One announcement: what it is about (:data:`Topic`) and its sentences, in order."""

    topic: Topic
    phrases: tuple[Phrase, ...]

    def to_json(self) -> dict[str, object]:
        """``{"topic", "phrases"}``, each phrase as :meth:`Phrase.to_json`."""
        return {"topic": self.topic, "phrases": [p.to_json() for p in self.phrases]}


@dataclass(frozen=True)
class Said:
    """What was last said of one game: enough to tell what is new."""

    steps: int
    turn: str | None
    over: bool
    dice: tuple[int, ...] | None = None
    computer: tuple[object, ...] | None = None
    resync: str | None = None
    scores: tuple[int, ...] = field(default=())


def whose_turn(name: str) -> Phrase:
    """``Ann's turn``."""
    return say("{name}'s turn", name=name)


def points(name: str, count: int) -> Phrase:
    """``Ann has 3 points``."""
    return say_n("{name} has {count} point", "{name} has {count} points", count, name=name)


def dice_rolled(name: str, dice: Mapping[str, int]) -> Phrase:
    """``Ann rolled red 1, blue 2, green 0, yellow 3, brown 1`` (the dice colours' order)."""
    return say(
        "{name} rolled red {red}, blue {blue}, green {green}, yellow {yellow}, brown {brown}",
        name=name,
        **{colour: int(dice.get(colour, 0)) for colour in rings.COLOURS},
    )


def ring_position(ring: int, count: int) -> Phrase:
    """Where ring ``ring`` (0: the outermost) of ``count`` lies: ``second from the outside``."""
    inside = count - 1 - ring
    if ring <= inside and ring < len(FROM_OUTSIDE):
        return FROM_OUTSIDE[ring]
    if inside < ring and inside < len(FROM_INSIDE):
        return FROM_INSIDE[inside]
    return say("ring {ring}", ring=ring)


def turn_ring(
    lead: Literal["name", "then", "none"], name: str, colour: str, position: Phrase, steps: int
) -> Phrase:
    """``Bo: turn the blue ring, second from the outside, 2 slots clockwise``; ``then``:
    ``Then turn the ...`` (the seat's next ring); ``none``: ``Turn the ...`` (a re-sync)."""
    values: dict[str, Any] = {
        "colour": colour_words(colour),
        "position": position,
        "slots": say_n("{count} slot", "{count} slots", abs(steps)),
        "way": say("clockwise") if steps > 0 else say("counter-clockwise"),
    }
    if lead == "then":
        return say("Then turn the {colour} ring, {position}, {slots} {way}", **values)
    if lead == "none":
        return say("Turn the {colour} ring, {position}, {slots} {way}", **values)
    return say("{name}: turn the {colour} ring, {position}, {slots} {way}", name=name, **values)


def computer_turn(
    name: str, rotations: Sequence[tuple[int, int]], board: rings.Board
) -> list[Phrase]:
    """A computer seat's instructions, one sentence per ring (``(ring, steps)`` in the
    order the panel lists them)."""
    if not rotations:
        return [say("{name} turns no ring", name=name)]
    count = len(board.rings)
    return [
        turn_ring(
            "then" if number else "name",
            name,
            board.rings[ring].colour,
            ring_position(ring, count),
            steps,
        )
        for number, (ring, steps) in enumerate(rotations)
    ]


def ring_events(before: rings.State, events: Sequence[rings.Event]) -> list[Phrase]:
    """What a confirmed turn did: snipes, entries, pegs into Central Control, the win."""
    name = [seat.name for seat in before.seats]
    said: list[Phrase] = []
    snipes: dict[tuple[int, int, int], tuple[int, int]] = {}  # -> (where said, how many)
    for event in events:
        if event.kind == "snipe" and event.end is not None and event.by is not None:
            # One run down a spoke may snipe several pegs: said once, with their count.
            key = (event.by, event.seat, event.end[1])
            where, count = snipes.get(key, (len(said), 0))
            phrase = say_n(
                "{name} snipes {victim} on spoke {spoke}",
                "{name} snipes {count} of {victim}'s pegs on spoke {spoke}",
                count + 1,
                name=name[event.by],
                victim=name[event.seat],
                spoke=event.end[1],
            )
            if count:
                said[where] = phrase
            else:
                said.append(phrase)
            snipes[key] = (where, count + 1)
        elif event.kind == "entry" and event.end is not None:
            said.append(
                say(
                    "{name} enters a peg on spoke {spoke}",
                    name=name[event.seat],
                    spoke=event.end[1],
                )
            )
        elif event.kind == "centre":
            said.append(say("{name}'s peg enters Central Control", name=name[event.seat]))
        elif event.kind == "win":
            if before.variant == "solo":
                said.append(
                    say(
                        "{name} has brought all six pegs into Central Control",
                        name=name[event.seat],
                    )
                )
            else:
                said.append(say("{name} wins", name=name[event.seat]))
    return said


SIZE_WORDS = {"1": say("small"), "2": say("medium"), "3": say("large")}
"""Icehouse sizes as words (icehouse.md: ``1`` small, ``2`` medium, ``3`` large)."""


def piece_kind(kind: str) -> Phrase:
    """An Icehouse kind as words: ``red-3`` is ``large red``."""
    colour, _, size = kind.partition("-")
    if size not in SIZE_WORDS:
        return say("{kind}", kind=kind)
    return say("{size} {colour}", size=SIZE_WORDS[size], colour=colour_words(colour))


def icehouse_events(before: icehouse.State, events: Sequence[icehouse.Event]) -> list[Phrase]:
    """What a pick did: the piece taken, the pieces that fall into the Eye, the sets scored,
    the winner."""
    name = before.seats
    said: list[Phrase] = []
    falls = [event.kind for event in events if isinstance(event, icehouse.Fall)]
    falls_said = False
    for event in events:
        match event:
            case icehouse.Take(seat=seat, kind=kind):
                said.append(say("{name} takes a {kind}", name=name[seat], kind=piece_kind(kind)))
            case icehouse.Fall(kind=kind) if not falls_said:
                # Said once, with how many fell (a pick may drop several into the Eye).
                said.append(
                    say("A {kind} falls into the Eye", kind=piece_kind(kind))
                    if len(falls) == 1
                    else say_n(
                        "{count} piece falls into the Eye",
                        "{count} pieces fall into the Eye",
                        len(falls),
                    )
                )
                falls_said = True
            case icehouse.Score(kind=kind, awards=()):
                said.append(say("The {kind} set is lost to the Eye", kind=piece_kind(kind)))
            case icehouse.Score(kind=kind):
                said.append(say("The {kind} set is scored", kind=piece_kind(kind)))
            case icehouse.Collect(seat=seat, indices=indices):
                said.append(
                    say_n(
                        "{name} takes the last piece",
                        "{name} takes the {count} pieces left",
                        len(indices),
                        name=name[seat],
                    )
                )
            case icehouse.GameOver(winner=winner):
                said.append(say("{name} wins", name=name[winner]))
    return said


class Announcer:
    """The announcements of the games as they change (table thread; no I/O)."""

    def __init__(self) -> None:
        self._said: dict[str, Said] = {}

    def forget(self, game_id: str) -> None:
        """Forget a deleted game."""
        self._said.pop(game_id, None)

    def after(self, game: Game, live: Mapping[str, Any] | None = None) -> list[Announcement]:
        """What is new to say of ``game`` since it was last seen here (``live``: a ring-board
        game's live keys, ``Publisher.live_keys``), in the order of :data:`TOPICS`.

        A game seen for the first time is announced by whose turn it is (and its rolled
        dice, computer seat and re-sync in progress); only a step seen being made is
        announced by what it did.
        """
        if game.error is not None:
            return []
        now = self._facts(game, live)
        before = self._said.get(game.id)
        self._said[game.id] = now
        found: dict[Topic, list[Phrase]] = {topic: [] for topic in TOPICS}
        if before is not None and now.steps == before.steps + 1:
            found["events"] = self._step(game, before, now)
        elif before is not None and now.steps < before.steps:
            found["events"] = [say("The last move was taken back")]
        if now.turn is not None and (before is None or now.steps != before.steps):
            found["turn"] = [whose_turn(now.turn)]
        if now.dice is not None and (before is None or now.dice != before.dice):
            assert game.dice is not None and now.turn is not None
            found["dice"] = [dice_rolled(now.turn, game.dice)]
        if now.computer is not None and (before is None or now.computer != before.computer):
            name, rotations = now.computer
            assert isinstance(name, str) and isinstance(rotations, tuple)
            found["computer"] = computer_turn(name, rotations, game.state.board)
        found["resync"] = self._resync(game, before, now, live)
        return [Announcement(t, tuple(found[t])) for t in TOPICS if found[t]]

    def _facts(self, game: Game, live: Mapping[str, Any] | None) -> Said:
        if live is None:
            summary = game.engine.summary(game.state)
            scores = summary.get("scores")
            names = game.seat_names()
            to_move = summary.get("to_move")
            return Said(
                steps=len(game.actions),
                turn=to_move if isinstance(to_move, str) else None,
                over=bool(summary.get("over")),
                scores=tuple(
                    int(scores.get(n, 0)) if isinstance(scores, dict) else 0 for n in names
                ),
            )
        state: rings.State = game.state
        turn = None if state.to_move is None else state.seats[state.to_move].name
        dice = None
        if game.dice is not None and game.dice_source == "rolled":
            dice = tuple(game.dice[c] for c in rings.COLOURS)
        computer = live.get("computer")
        plan = None
        if isinstance(computer, dict) and computer.get("stage") == "turning":
            moves = tuple((int(r["ring"]), int(r["steps"])) for r in computer.get("rings", ()))
            plan = (str(computer.get("seat")), moves)
        resync = live.get("resync")
        return Said(
            steps=len(game.actions),
            turn=turn,
            over=state.over,
            dice=dice,
            computer=plan,
            resync=str(resync["reason"]) if isinstance(resync, dict) else None,
            scores=tuple(int(s) for s in state.scores),
        )

    def _step(self, game: Game, before: Said, now: Said) -> list[Phrase]:
        """The sentences of the step just made (its events, then the scores it changed)."""
        said: list[Phrase] = []
        if game.kind == rings.KIND:
            start = game.states[-2]
            events = rings.resolve(start, game.engine.parse_action(start, game.actions[-1])).events
            said += ring_events(start, events)
        elif game.kind == icehouse.KIND:
            start = game.states[-2]
            outcome = icehouse.resolve(start, game.engine.parse_action(start, game.actions[-1]))
            said += icehouse_events(start, outcome.events)
        elif game.kind in (cards.KIND, stones.KIND):
            start = game.states[-2]
            action = game.engine.parse_action(start, game.actions[-1])
            if game.kind == cards.KIND:
                said += card_events(start, action, game.state)
            else:
                said += stones_events(start, action, game.state)
        names = game.seat_names()
        if len(before.scores) == len(now.scores) == len(names):
            for name, old, new in zip(names, before.scores, now.scores, strict=True):
                if new != old:
                    said.append(points(name, new))
        if now.over and not before.over and game.kind not in (rings.KIND, icehouse.KIND):
            summary = game.engine.summary(game.state)
            winner = summary.get("winner")
            if isinstance(winner, str):
                said.append(say("{name} wins", name=winner))
            else:
                said.append(say("The game is over"))
        return said

    def _resync(
        self, game: Game, before: Said | None, now: Said, live: Mapping[str, Any] | None
    ) -> list[Phrase]:
        """The re-sync as it starts (its prompt and each ring's step), and once it is done."""
        if now.resync is None:
            if before is not None and before.resync is not None:
                return [say("The rings match the game")]
            return []
        if before is not None and before.resync == now.resync:
            return []
        assert live is not None
        board: rings.Board = game.state.board
        said = [RESYNC_SAID.get(now.resync, say("Set the rings to where the game has them"))]
        for ring in live["resync"]["rings"]:
            steps = signed_steps(int(ring["target"]) - int(ring["sensed"]), int(board.spokes))
            if not ring["ok"] and steps:
                number = int(ring["ring"])
                colour = board.rings[number].colour
                position = ring_position(number, len(board.rings))
                said.append(turn_ring("none", "", colour, position, steps))
        return said

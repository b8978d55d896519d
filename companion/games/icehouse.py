"""Icehouse Mandala (Kory Heath, after Knizia's Tutankhamen): picks, the Eye, set scoring.

The path is 75 pyramid pieces, index 0 (outermost, where pawns start, at -1) to 74 (the last
before the Eye). On a turn the seat to move picks a piece ahead of its pawn and its pawn moves
there; every piece behind the rearmost pawn then falls into the Eye; every kind with no piece
left on the path scores once (sole owner 5; otherwise most pieces 3 and next 2, ties to the
pawn further forward). Seats with no piece ahead pass; when only one seat has pieces ahead
it takes the rest and the game ends. See ``spec/icehouse.md``.

A record is ``{"game": "icehouse", "seats": [...], "path": [75 kinds], "picks": [...]}``;
instead of a ``path`` a setup may give a ``seed`` and the layout is :func:`random_path` of it
(:func:`export_setup` writes the generated path into the record so it replays anywhere).

:func:`resolve` returns the new state with the events of the pick (what was taken, what fell,
which kinds scored and who got what, who reached the end, the last seat's collection, the
winner) for the panel; :func:`apply` is ``resolve(...).state``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.games.base import (
    GAME_ERRORS,
    JSON,
    IllegalAction,
    RecordError,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
    get,
    join,
    seat_refused,
)
from companion.phrases import Phrase, say, say_n

KIND = "icehouse"
ACTIONS_KEY = "picks"
STEP_WORD = "pick"

COLOURS = ("red", "yellow", "green", "blue", "black")
SIZES = (1, 2, 3)
#: The 15 kinds in scoring order: colour by colour, within a colour by size.
KINDS = tuple(f"{colour}-{size}" for colour in COLOURS for size in SIZES)
PIECES_PER_KIND = 5
PATH_LENGTH = len(KINDS) * PIECES_PER_KIND  # 75
MIN_SEATS, MAX_SEATS = 2, 5
START = -1
"""Where pawns start: before index 0."""

ON_PATH = -1
IN_EYE = -2
"""Values of :attr:`State.places` other than a seat index (the seat holding the piece)."""

SOLE_OWNER_POINTS = 5
MAJORITY_POINTS = (3, 2)


@dataclass(frozen=True)
class Pick:
    """One turn's choice: the path index of the piece taken."""

    index: int


@dataclass(frozen=True)
class Award:
    """Points one seat got for one kind."""

    seat: int
    points: int


@dataclass(frozen=True)
class Scoring:
    """A kind that scored: who got what (empty when all five fell into the Eye)."""

    kind: str
    awards: tuple[Award, ...]


@dataclass(frozen=True)
class State:
    """A game between picks. ``places[i]`` is ON_PATH, IN_EYE or the seat holding piece i."""

    seats: tuple[str, ...]
    path: tuple[str, ...]
    seed: int | None
    places: tuple[int, ...]
    pawns: tuple[int, ...]
    scorings: tuple[Scoring, ...]
    picks: tuple[int, ...]
    to_move: int | None
    """The seat to move, None once the game is over."""
    winner: int | None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points so far."""
        totals = [0] * len(self.seats)
        for scoring in self.scorings:
            for award in scoring.awards:
                totals[award.seat] += award.points
        return tuple(totals)

    @property
    def scored(self) -> tuple[str, ...]:
        """The kinds already scored, in the order they scored."""
        return tuple(scoring.kind for scoring in self.scorings)


# Events of one pick, in the order they happen. ``TYPE`` names the event in JSON.


@dataclass(frozen=True)
class Take:
    """The seat to move took the piece at ``index`` and its pawn moved there."""

    TYPE: ClassVar[str] = "take"
    seat: int
    index: int
    kind: str


@dataclass(frozen=True)
class Fall:
    """The piece at ``index`` was behind the rearmost pawn and fell into the Eye."""

    TYPE: ClassVar[str] = "fall"
    index: int
    kind: str


@dataclass(frozen=True)
class Score:
    """A kind completed and scored (``awards`` empty: lost wholly to the Eye)."""

    TYPE: ClassVar[str] = "score"
    kind: str
    awards: tuple[Award, ...]


@dataclass(frozen=True)
class ReachEnd:
    """A seat has no piece ahead of its pawn any more: it passes from now on."""

    TYPE: ClassVar[str] = "end"
    seat: int


@dataclass(frozen=True)
class Collect:
    """The last seat with pieces ahead took every piece still on the path."""

    TYPE: ClassVar[str] = "collect"
    seat: int
    indices: tuple[int, ...]


@dataclass(frozen=True)
class GameOver:
    """The game ended; ``winner`` has the most points (tie: pawn furthest forward)."""

    TYPE: ClassVar[str] = "over"
    winner: int


Event = Take | Fall | Score | ReachEnd | Collect | GameOver


@dataclass(frozen=True)
class Outcome:
    """The state after a pick and what happened on the way."""

    state: State
    events: tuple[Event, ...]


# Layout


def random_path(seed: int) -> list[str]:
    """Return a shuffled path of 75 pieces, five of each kind; the same seed, the same path."""
    pieces = [kind for kind in KINDS for _ in range(PIECES_PER_KIND)]
    random.Random(seed).shuffle(pieces)
    return pieces


def parse_path(value: JSON, where: str = "path") -> tuple[str, ...]:
    """Check a path: 75 kinds, exactly five of each.

    :raises RecordError: naming the entry or the kinds whose count is not five.
    """
    items = as_list(value, where)
    pieces = tuple(as_str(item, join(where, i), KINDS) for i, item in enumerate(items))
    counts = Counter(pieces)
    wrong = [f"{kind} {counts[kind]} times" for kind in KINDS if counts[kind] != PIECES_PER_KIND]
    if wrong:
        raise RecordError(
            f"{where}: needs exactly {PIECES_PER_KIND} pieces of each of the {len(KINDS)} kinds "
            f"({PATH_LENGTH} in all), got {len(pieces)} pieces with {', '.join(wrong)}"
        )
    return pieces


def parse_seats(value: JSON, where: str = "seats") -> tuple[str, ...]:
    """Check the seats: 2 to 5 distinct, non-empty names in turn order."""
    items = as_list(value, where)
    if not MIN_SEATS <= len(items) <= MAX_SEATS:
        raise RecordError(f"{where}: {MIN_SEATS} to {MAX_SEATS} seats, got {len(items)}")
    names: list[str] = []
    for i, item in enumerate(items):
        name = as_str(item, join(where, i))
        if not name.strip():
            raise RecordError.said(seat_refused(join(where, i), say("a seat needs a name")))
        if name in names:
            raise RecordError.said(
                seat_refused(join(where, i), say("{name} is already a seat", name=repr(name)))
            )
        names.append(name)
    return tuple(names)


def parse_seed(value: JSON, where: str = "seed") -> int:
    """Check a layout seed: a whole number, 0 or more."""
    return as_int(value, where, low=0, high=2**63 - 1)


SETUP_KEYS = ("game", "seats", "path", "seed", ACTIONS_KEY)


def new_game(setup: Mapping[str, JSON]) -> State:
    """Start a game from a record's setup: ``seats`` and a ``path`` or a ``seed``.

    With both, the path is the layout and the seed is kept as a note.

    :raises RecordError: naming the key, e.g. ``path: needs exactly 5 pieces of each ...``.
    """
    setup = as_dict(setup, "record")
    check_keys(setup, "record", ["seats"], [key for key in SETUP_KEYS if key != "seats"])
    if "game" in setup:
        as_str(setup["game"], "game", (KIND,))
    seats = parse_seats(setup["seats"])
    seed = parse_seed(setup["seed"]) if "seed" in setup else None
    if "path" in setup:
        path = parse_path(setup["path"])
    elif seed is not None:
        path = tuple(random_path(seed))
    else:
        raise RecordError("path: missing key (give a path or a seed)")
    return State(
        seats=seats,
        path=path,
        seed=seed,
        places=(ON_PATH,) * PATH_LENGTH,
        pawns=(START,) * len(seats),
        scorings=(),
        picks=(),
        to_move=0,
        winner=None,
    )


def export_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """Return the setup with the layout written out as a ``path`` (a seed's path generated)."""
    state = new_game(setup)
    exported: dict[str, JSON] = {"game": KIND, "seats": list(state.seats)}
    if state.seed is not None:
        exported["seed"] = state.seed
    exported["path"] = list(state.path)
    return exported


# Picks


def parse_action(state: State, obj: JSON) -> Pick:
    """Read one pick: a path index as a whole number (range is checked by :func:`apply`)."""
    return Pick(as_int(obj, "index"))


def action_to_json(action: Pick) -> JSON:
    """Write a pick as the record does: its index."""
    return action.index


def is_over(state: State) -> bool:
    """Say whether the game has ended."""
    return state.to_move is None


def seat_to_move(state: State) -> int | None:
    """Return the index of the seat to move, None once the game is over."""
    return state.to_move


def has_piece_ahead(state: State, seat: int) -> bool:
    """Say whether a piece is still on the path ahead of the seat's pawn."""
    pawn = state.pawns[seat]
    return any(place == ON_PATH for place in state.places[pawn + 1 :])


def reached_end(state: State, seat: int) -> bool:
    """Say whether the seat has reached the end (no piece ahead of its pawn)."""
    return not has_piece_ahead(state, seat)


def legal_actions(state: State) -> list[Pick]:
    """Return every pick the seat to move may make, in path order (none once over)."""
    if state.to_move is None:
        return []
    pawn = state.pawns[state.to_move]
    return [Pick(i) for i in range(pawn + 1, PATH_LENGTH) if state.places[i] == ON_PATH]


def check_pick(state: State, pick: Pick) -> int:
    """Return the seat making ``pick``.

    :raises IllegalAction: after the end, out of range, behind the pawn, or an empty place.
    """
    seat = state.to_move
    if seat is None:
        raise IllegalAction.said(say("the game is over"))
    index = pick.index
    if not 0 <= index < PATH_LENGTH:
        raise IllegalAction(f"index {index} is out of range 0..{PATH_LENGTH - 1}")
    name, pawn = state.seats[seat], state.pawns[seat]
    if index < pawn:
        raise IllegalAction.said(
            say(
                "{name} cannot pick {index}: it is behind the pawn at {pawn}",
                name=name,
                index=index,
                pawn=pawn,
            )
        )
    if state.places[index] != ON_PATH:
        raise IllegalAction.said(
            say("{name} cannot pick {index}: the place is empty", name=name, index=index)
        )
    return seat


def score_kind(
    kind: str, places: Sequence[int], path: Sequence[str], pawns: Sequence[int]
) -> Scoring:
    """Score a completed kind: sole owner 5; else most pieces 3, next 2 (ties: pawn forward)."""
    held = Counter(
        place for place, piece in zip(places, path, strict=True) if piece == kind and place >= 0
    )
    if len(held) == 1:
        (owner,) = held
        return Scoring(kind, (Award(owner, SOLE_OWNER_POINTS),))
    # Owners' pawns are distinct (each stands where it took a piece, the collector's at most
    # at -1), so the order is total; seat order is only a last resort for determinism.
    ranked = sorted(held, key=lambda seat: (-held[seat], -pawns[seat], seat))
    return Scoring(
        kind,
        tuple(Award(seat, points) for seat, points in zip(ranked, MAJORITY_POINTS, strict=False)),
    )


def score_completed(
    places: Sequence[int], path: Sequence[str], pawns: Sequence[int], scored: Sequence[str]
) -> list[Scoring]:
    """Score, in kind order, every kind with no piece on the path that has not scored yet."""
    on_path = {piece for place, piece in zip(places, path, strict=True) if place == ON_PATH}
    return [
        score_kind(kind, places, path, pawns)
        for kind in KINDS
        if kind not in on_path and kind not in scored
    ]


def find_winner(seats: int, scores: Sequence[int], pawns: Sequence[int]) -> int:
    """Return the seat with most points; a tie goes to the pawn furthest forward."""
    return min(range(seats), key=lambda seat: (-scores[seat], -pawns[seat], seat))


def resolve(state: State, pick: Pick) -> Outcome:
    """Play a pick: take, the Eye, set scoring, seats at the end, the last seat, the winner.

    :raises IllegalAction: as :func:`check_pick`; the state is unchanged.
    """
    seat = check_pick(state, pick)
    events: list[Event] = []
    places = list(state.places)
    pawns = list(state.pawns)
    scorings = list(state.scorings)
    path = state.path
    at_end_before = {s for s in range(len(state.seats)) if reached_end(state, s)}

    places[pick.index] = seat
    pawns[seat] = pick.index
    events.append(Take(seat, pick.index, path[pick.index]))

    rearmost = min(pawns)
    for i in range(max(rearmost, 0)):
        if places[i] == ON_PATH:
            places[i] = IN_EYE
            events.append(Fall(i, path[i]))

    def score_step() -> None:
        for scoring in score_completed(places, path, pawns, [s.kind for s in scorings]):
            scorings.append(scoring)
            events.append(Score(scoring.kind, scoring.awards))

    score_step()

    def ahead(s: int) -> bool:
        return any(place == ON_PATH for place in places[pawns[s] + 1 :])

    playing = [s for s in range(len(state.seats)) if ahead(s)]
    events.extend(
        ReachEnd(s) for s in range(len(state.seats)) if not ahead(s) and s not in at_end_before
    )

    to_move: int | None
    winner: int | None = None
    if len(playing) >= 2:
        count = len(state.seats)
        to_move = next(
            (seat + step) % count
            for step in range(1, count + 1)
            if (seat + step) % count in playing
        )
    else:
        if playing:
            (last,) = playing
            rest = tuple(i for i, place in enumerate(places) if place == ON_PATH)
            for i in rest:
                places[i] = last
            events.append(Collect(last, rest))
            score_step()
        to_move = None
        totals = [0] * len(state.seats)
        for scoring in scorings:
            for award in scoring.awards:
                totals[award.seat] += award.points
        winner = find_winner(len(state.seats), totals, pawns)
        events.append(GameOver(winner))

    new_state = State(
        seats=state.seats,
        path=path,
        seed=state.seed,
        places=tuple(places),
        pawns=tuple(pawns),
        scorings=tuple(scorings),
        picks=(*state.picks, pick.index),
        to_move=to_move,
        winner=winner,
    )
    return Outcome(new_state, tuple(events))


def apply(state: State, action: Pick) -> State:
    """Return the state after ``action``.

    :raises IllegalAction: when the pick is not allowed now (the game is over included).
    """
    return resolve(state, action).state


# Views


def seat_pieces(state: State, seat: int) -> dict[str, int]:
    """Return the pieces a seat holds, as counts per kind (sorted by kind name, zeros left out)."""
    return count_kinds(state, seat)


def eye_pieces(state: State) -> dict[str, int]:
    """Return the pieces in the Eye, as counts per kind (sorted by kind name)."""
    return count_kinds(state, IN_EYE)


def count_kinds(state: State, place: int) -> dict[str, int]:
    """Count the pieces at ``place`` (a seat, ON_PATH or IN_EYE) per kind, by kind name."""
    counts = Counter(
        piece for where, piece in zip(state.places, state.path, strict=True) if where == place
    )
    return dict(sorted(counts.items()))


def left_on_path(state: State) -> list[int]:
    """Return the indices still on the path, ascending."""
    return [i for i, place in enumerate(state.places) if place == ON_PATH]


def name_of(state: State, seat: int | None) -> str | None:
    """Return a seat's name, None for None."""
    return None if seat is None else state.seats[seat]


def summary(state: State) -> dict[str, JSON]:
    """Return the replay summary of icehouse.md section 5 (keys in that order)."""
    seats = state.seats
    return {
        "game": KIND,
        "picks": len(state.picks),
        "to_move": name_of(state, state.to_move),
        "over": is_over(state),
        "winner": name_of(state, state.winner),
        "scores": dict(zip(seats, state.scores, strict=True)),
        "pawns": dict(zip(seats, state.pawns, strict=True)),
        "held": {name: seat_pieces(state, seat) for seat, name in enumerate(seats)},
        "eye": eye_pieces(state),
        "scored": list(state.scored),
        "left": left_on_path(state),
    }


def event_to_json(event: Event, state: State) -> dict[str, JSON]:
    """Write an event for the panel, seats by name (``state`` names them)."""
    name = state.seats.__getitem__
    match event:
        case Take(seat=seat, index=index, kind=kind):
            return {"type": Take.TYPE, "seat": name(seat), "index": index, "kind": kind}
        case Fall(index=index, kind=kind):
            return {"type": Fall.TYPE, "index": index, "kind": kind}
        case Score(kind=kind, awards=awards):
            points = {name(a.seat): a.points for a in awards}
            return {"type": Score.TYPE, "kind": kind, "awards": points}
        case ReachEnd(seat=seat):
            return {"type": ReachEnd.TYPE, "seat": name(seat)}
        case Collect(seat=seat, indices=indices):
            return {"type": Collect.TYPE, "seat": name(seat), "indices": list(indices)}
        case GameOver(winner=winner):
            return {"type": GameOver.TYPE, "winner": name(winner)}


def piece_words(kind: str) -> Phrase:
    """A kind as the table writes it (``red-2``), its colour in the reader's language."""
    colour, _, size = kind.partition("-")
    colours = {
        "red": say("red"),
        "yellow": say("yellow"),
        "green": say("green"),
        "blue": say("blue"),
        "black": say("black"),
    }
    if colour not in colours or not size:
        return say("{kind}", kind=kind)
    return say("{colour}-{size}", colour=colours[colour], size=size)


def describe(event: Event, state: State) -> Phrase:
    """Say in plain words what happened, for the table (``.english()`` for English)."""
    name = state.seats.__getitem__
    match event:
        case Take(seat=seat, index=index, kind=kind):
            return say(
                "{name} takes the {kind} at {place}",
                name=name(seat),
                kind=piece_words(kind),
                place=index,
            )
        case Fall(index=index, kind=kind):
            return say(
                "the {kind} at {place} falls into the Eye", kind=piece_words(kind), place=index
            )
        case Score(kind=kind, awards=()):
            return say("{kind} is lost to the Eye: nobody scores", kind=piece_words(kind))
        case Score(kind=kind, awards=awards):
            points = [say("{name} {points}", name=name(a.seat), points=a.points) for a in awards]
            return say("{kind} scores: {points}", kind=piece_words(kind), points=_listed(points))
        case ReachEnd(seat=seat):
            return say("{name} has reached the end and passes from now on", name=name(seat))
        case Collect(seat=seat, indices=indices):
            # English says "pieces" for one too, as it always has; the plural is German's.
            return say_n(
                "{name} takes the {count} pieces left on the path",
                "{name} takes the {count} pieces left on the path",
                len(indices),
                name=name(seat),
            )
        case GameOver(winner=winner):
            return say("the game is over: {name} wins", name=name(winner))


def _listed(items: list[Phrase]) -> Phrase:
    """Phrases one after the other, a comma between (``Ann 3, Bo 1``)."""
    found = items[0]
    for item in items[1:]:
        found = say("{list}, {item}", list=found, item=item)
    return found


# JSON of whole states


def state_to_json(state: State) -> dict[str, JSON]:
    """Write the whole state: the record that rebuilds it plus every view the panel shows."""
    seats = state.seats
    return {
        "game": KIND,
        "seats": list(seats),
        "seed": state.seed,
        "path": list(state.path),
        "picks": list(state.picks),
        "to_move": name_of(state, state.to_move),
        "over": is_over(state),
        "winner": name_of(state, state.winner),
        "scores": dict(zip(seats, state.scores, strict=True)),
        "pawns": dict(zip(seats, state.pawns, strict=True)),
        "places": [
            "path" if place == ON_PATH else "eye" if place == IN_EYE else seats[place]
            for place in state.places
        ],
        "held": {name: seat_pieces(state, seat) for seat, name in enumerate(seats)},
        "eye": eye_pieces(state),
        "scorings": [
            {"kind": s.kind, "awards": {seats[a.seat]: a.points for a in s.awards}}
            for s in state.scorings
        ],
        "at_end": [name for seat, name in enumerate(seats) if reached_end(state, seat)],
        "left": left_on_path(state),
    }


def state_from_json(obj: JSON) -> State:
    """Read back :func:`state_to_json`: replays its picks and checks every other key agrees.

    :raises RecordError: when the object is malformed or its keys disagree with its picks.
    """
    obj = as_dict(obj, "state")
    setup: dict[str, JSON] = {
        "game": get(obj, "game", "state"),
        "seats": get(obj, "seats", "state"),
        "path": get(obj, "path", "state"),
        ACTIONS_KEY: get(obj, ACTIONS_KEY, "state"),
    }
    seed = get(obj, "seed", "state")
    if seed is not None:
        setup["seed"] = seed
    state = new_game(setup)
    picks = as_list(setup[ACTIONS_KEY], "state.picks")
    for number, obj_pick in enumerate(picks, start=1):
        try:
            state = apply(state, parse_action(state, obj_pick))
        except GAME_ERRORS as error:
            raise RecordError(f"state: {STEP_WORD} {number}: {error}") from error
    if state_to_json(state) != obj:
        raise RecordError("state: its keys do not agree with its seats, path and picks")
    return state

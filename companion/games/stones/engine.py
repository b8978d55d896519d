"""The rules of Mandala Stones (stones.md sections 2-6): setup, PICK, SCORE, end, summary."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, get_args

from companion.games.base import (
    JSON,
    IllegalAction,
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
    join,
)
from companion.games.stones.datafile import (
    DataFile,
    Space,
    data_file_from_setup,
    data_file_to_json,
    parse_data_file,
)
from companion.games.stones.pieces import (
    ARTIST_COUNT,
    ARTIST_SPACES,
    COLOURS,
    DIRECTIONS,
    KINDS,
    PATTERNS,
    SPACE_COUNT,
    STACK_HEIGHT,
    STACK_INDEX,
    STACK_SPACES,
    STACK_TOUCHES,
    STONE_COUNT,
    STONES_PER_KIND,
    Cell,
    Colour,
    Direction,
    Pattern,
    Stone,
    as_whole_at_least,
    cell_text,
    clockwise_from,
    neighbour,
    parse_artist_space,
    parse_seats,
    parse_stone,
    stack_key,
)
from companion.phrases import Phrase, say

KIND = "stones"
ACTIONS_KEY = "actions"
STEP_WORD = "action"

Phase = Literal["play", "objectives", "over"]
PHASES: tuple[Phase, ...] = get_args(Phase)
Tower = tuple[Stone, ...]
"""A tower or a stack, bottom stone first."""
PlayerBoard = tuple[Tower, ...]
"""Five towers (empty ones included), space 1 first."""


@dataclass(frozen=True)
class Artist:
    """An artist: where it stands and the pattern it takes."""

    at: Cell
    pattern: Pattern


@dataclass(frozen=True)
class Pick:
    """PICK: move the artist on ``artist`` to ``to``, take the eligible stones from ``first``
    clockwise, and put the tower on ``space`` (1-5)."""

    artist: Cell
    to: Cell
    first: Direction
    space: int


@dataclass(frozen=True)
class ScoreColour:
    """SCORE by colour: every tower topped by ``colour``; ``order`` is the mandala order."""

    colour: Colour
    order: tuple[int, ...]


@dataclass(frozen=True)
class ScoreTops:
    """SCORE by tops: the top stones of ``spaces``, 1 VP each; ``order`` is the mandala order."""

    spaces: tuple[int, ...]
    order: tuple[int, ...]


@dataclass(frozen=True)
class Objective:
    """The VP of the objective ``seat`` chose to score (0 if none)."""

    seat: str
    vp: int


Score = ScoreColour | ScoreTops
Action = Pick | ScoreColour | ScoreTops | Objective


@dataclass(frozen=True)
class State:
    """A whole game at one moment. Seats are indices into ``seats``."""

    data: DataFile
    seats: tuple[str, ...]
    stacks: tuple[Tower, ...]
    """The 24 stacks in reading order of their spaces (``STACK_SPACES``), bottom first."""
    artists: tuple[Artist, ...]
    """In the record's order."""
    boards: tuple[PlayerBoard, ...]
    mandala: tuple[Stone, ...]
    """The stones on the mandala board, place 1 first (beyond the last place included)."""
    scores: tuple[int, ...]
    """VP so far, objectives included."""
    objectives: tuple[int, ...]
    """The objective VP entered so far, in seat order."""
    actions: int
    phase: Phase
    to_move: int | None
    """The seat to play (or whose objective is due); None once over."""
    end_triggered: bool

    @property
    def winner(self) -> int | None:
        """The seat with most VP once over, the earliest in seat order on a tie."""
        if self.phase != "over":
            return None
        return max(range(len(self.seats)), key=lambda i: (self.scores[i], -i))

    @property
    def end_place(self) -> int:
        """The mandala place that finishes the round for this many seats."""
        return self.data.end_place(len(self.seats))

    def stack_at(self, cell: Cell) -> Tower:
        """Return the stack on a stack space, bottom first."""
        return self.stacks[STACK_INDEX[cell]]

    def artist_on(self, cell: Cell) -> int | None:
        """Return the index of the artist standing on ``cell``, if any."""
        for i, artist in enumerate(self.artists):
            if artist.at == cell:
                return i
        return None


# ---------------------------------------------------------------------------- setup


def _parse_stones(value: JSON, where: str = "stones") -> tuple[Stone, ...]:
    items = as_list(value, where)
    if len(items) != STONE_COUNT:
        raise RecordError(f"{where}: expected {STONE_COUNT} stones, got {len(items)}")
    stones = tuple(parse_stone(item, join(where, i)) for i, item in enumerate(items))
    counts = Counter(stones)
    for kind in KINDS:
        if counts[kind] != STONES_PER_KIND:
            raise RecordError(
                f"{where}: {counts[kind]} {kind}; the set has {STONES_PER_KIND} of each "
                "colour and pattern"
            )
    return stones


def _parse_artists(value: JSON, data: DataFile, where: str = "artists") -> tuple[Artist, ...]:
    items = as_list(value, where)
    if len(items) != ARTIST_COUNT:
        raise RecordError(f"{where}: expected {ARTIST_COUNT} artists, got {len(items)}")
    artists: list[Artist] = []
    for i, item in enumerate(items):
        item_where = join(where, i)
        obj = as_dict(item, item_where)
        check_keys(obj, item_where, ["at", "pattern"])
        at = parse_artist_space(obj["at"], join(item_where, "at"))
        if at not in data.artist_starts:
            starts = ", ".join(cell_text(c) for c in data.artist_starts)
            raise RecordError(
                f"{join(item_where, 'at')}: {cell_text(at)} is not a start space ({starts})"
            )
        for j, other in enumerate(artists):
            if other.at == at:
                raise RecordError(
                    f"{join(item_where, 'at')}: {cell_text(at)} is already taken by "
                    f"{join(where, j)}"
                )
        pattern: Pattern = as_str(  # type: ignore[assignment]
            obj["pattern"], join(item_where, "pattern"), PATTERNS
        )
        artists.append(Artist(at, pattern))
    for pattern in PATTERNS:
        count = sum(1 for a in artists if a.pattern == pattern)
        if count != ARTIST_COUNT // len(PATTERNS):
            raise RecordError(f"{where}: {count} {pattern} artists; there are two per pattern")
    return tuple(artists)


def _setup_pieces(
    setup: Mapping[str, JSON], data: DataFile, seats: tuple[str, ...]
) -> tuple[JSON, JSON]:
    """Return the setup's ``stones`` and ``artists``, generated from ``seed`` if absent."""
    has_stones, has_artists = "stones" in setup, "artists" in setup
    if has_stones and has_artists:
        return setup["stones"], setup["artists"]
    if has_stones != has_artists or "seed" not in setup:
        missing = "artists" if has_stones else "stones"
        raise RecordError(f"{missing}: missing key")
    from companion.games.stones.generate import random_setup

    generated = random_setup(as_int(setup["seed"], "seed"), seats, data)
    return generated["stones"], generated["artists"]


def new_game(setup: Mapping[str, JSON]) -> State:
    """Build the starting state from a record's setup (stones.md section 2).

    The setup has ``seats`` and either ``stones`` and ``artists`` or a ``seed`` to generate
    them from (:func:`random_setup`); ``board`` is an optional inline data file.

    :raises RecordError: naming the key, e.g. ``artists[2].at: [2, 4] is already taken by
        artists[0]``.
    """
    check_keys(
        setup, "record", ["seats"], ["game", "board", "stones", "artists", "seed", ACTIONS_KEY]
    )
    if "game" in setup:
        as_str(setup["game"], "game", [KIND])
    if "seed" in setup:
        as_int(setup["seed"], "seed")
    seats = parse_seats(setup["seats"])
    data = data_file_from_setup(setup)
    stones_value, artists_value = _setup_pieces(setup, data, seats)
    stones = _parse_stones(stones_value)
    artists = _parse_artists(artists_value, data)
    stacks = tuple(
        stones[i * STACK_HEIGHT : (i + 1) * STACK_HEIGHT] for i in range(len(STACK_SPACES))
    )
    empty_board: PlayerBoard = ((),) * SPACE_COUNT
    state = State(
        data=data,
        seats=seats,
        stacks=stacks,
        artists=artists,
        boards=(empty_board,) * len(seats),
        mandala=(),
        scores=(0,) * len(seats),
        objectives=(),
        actions=0,
        phase="play",
        to_move=0,
        end_triggered=False,
    )
    if not can_move(state, 0):
        state = replace(state, phase="objectives")
    return state


# ---------------------------------------------------------------------------- PICK


def _ineligible_reason(state: State, mover: int, to: Cell, direction: Direction) -> Phrase | None:
    """Say why the stack in ``direction`` of ``to`` is not eligible for artist ``mover``
    standing on ``to`` (None when it is eligible)."""
    cell = neighbour(to, direction)
    stack = state.stack_at(cell)
    if not stack:
        return say("the stack at {cell} is empty", cell=cell_text(cell))
    pattern = state.artists[mover].pattern
    if stack[-1].pattern != pattern:
        return say(
            "the top stone of the stack at {cell} is {stone}, not {pattern} like the artist",
            cell=cell_text(cell),
            stone=stone_words(stack[-1]),
            pattern=PATTERN_WORDS[pattern],
        )
    for other, artist in enumerate(state.artists):
        if other != mover and artist.at in STACK_TOUCHES[cell]:
            return say(
                "the stack at {cell} touches the artist on {artist}",
                cell=cell_text(cell),
                artist=cell_text(artist.at),
            )
    return None


#: The words of a stone's colour and pattern and of a direction's letter (``E`` is ``O`` in
#: German), for the refusals' phrases.
COLOUR_WORDS: dict[Colour, Phrase] = {
    "red": say("red"),
    "purple": say("purple"),
    "blue": say("blue"),
    "yellow": say("yellow"),
}
PATTERN_WORDS: dict[Pattern, Phrase] = {"dots": say("dots"), "lines": say("lines")}
DIRECTION_WORDS: dict[Direction, Phrase] = {
    "N": say("N"),
    "E": say("E"),
    "S": say("S"),
    "W": say("W"),
}


def stone_words(stone: Stone) -> Phrase:
    """A stone as people say it, ``red-dots`` in English (its name, as records write it)."""
    return say(
        "{colour}-{pattern}",
        colour=COLOUR_WORDS[stone.colour],
        pattern=PATTERN_WORDS[stone.pattern],
    )


def _is_eligible(state: State, mover: int, to: Cell, direction: Direction) -> bool:
    """The fast form of ``_ineligible_reason(...) is None`` (legal-move search)."""
    cell = neighbour(to, direction)
    stack = state.stacks[STACK_INDEX[cell]]
    if not stack or stack[-1].pattern != state.artists[mover].pattern:
        return False
    touches = STACK_TOUCHES[cell]
    return not any(
        other != mover and artist.at in touches for other, artist in enumerate(state.artists)
    )


def eligible_directions(state: State, mover: int, to: Cell) -> tuple[Direction, ...]:
    """Return the directions (N, E, S, W order) of the stacks whose top stone artist
    ``mover`` would take on moving to ``to`` (its old space no longer blocks)."""
    return tuple(d for d in DIRECTIONS if _is_eligible(state, mover, to, d))


def _free_artist_spaces(state: State) -> tuple[Cell, ...]:
    taken = {artist.at for artist in state.artists}
    return tuple(cell for cell in ARTIST_SPACES if cell not in taken)


def can_pick(state: State, seat: int) -> bool:
    """Say whether ``seat`` has an empty space and some artist move takes a stone."""
    if all(state.boards[seat]):
        return False
    free = _free_artist_spaces(state)
    return any(
        eligible_directions(state, mover, to) for mover in range(len(state.artists)) for to in free
    )


def can_score(state: State, seat: int) -> bool:
    """Say whether ``seat`` has a tower (so a SCORE by tops is possible)."""
    return any(state.boards[seat])


def can_move(state: State, seat: int) -> bool:
    """Say whether ``seat`` can PICK or SCORE."""
    return can_score(state, seat) or can_pick(state, seat)


def _check_play(state: State) -> int:
    if state.phase == "over":
        raise IllegalAction.said(say("the game is over"))
    if state.phase == "objectives":
        raise IllegalAction.said(say("play has stopped: each seat enters its objective"))
    assert state.to_move is not None
    return state.to_move


def _apply_pick(state: State, pick: Pick) -> State:
    seat = _check_play(state)
    name = state.seats[seat]
    board = state.boards[seat]
    as_int(pick.space, "pick.space", 1, SPACE_COUNT)
    if board[pick.space - 1]:
        raise IllegalAction.said(
            say("space {space}: {name}'s space {space} holds a tower", space=pick.space, name=name)
        )
    mover = state.artist_on(pick.artist)
    if mover is None:
        raise IllegalAction.said(
            say("artist: no artist stands on {cell}", cell=cell_text(pick.artist))
        )
    if pick.to == pick.artist:
        raise IllegalAction.said(
            say("to: the artist already stands on {cell}", cell=cell_text(pick.to))
        )
    if state.artist_on(pick.to) is not None:
        raise IllegalAction.said(
            say("to: another artist stands on {cell}", cell=cell_text(pick.to))
        )
    # Only the other artists block, so the eligible stones can be found before the move.
    eligible = eligible_directions(state, mover, pick.to)
    if not eligible:
        reasons: Phrase | None = None
        for d in DIRECTIONS:
            why = _ineligible_reason(state, mover, pick.to, d)
            assert why is not None  # no direction is eligible
            reason = say("{where}: {reason}", where=DIRECTION_WORDS[d], reason=why)
            reasons = (
                reason
                if reasons is None
                else say("{earlier}; {later}", earlier=reasons, later=reason)
            )
        raise IllegalAction.said(
            say(
                "to: no stone is eligible for the {pattern} artist on {cell} ({reasons})",
                pattern=PATTERN_WORDS[state.artists[mover].pattern],
                cell=cell_text(pick.to),
                reasons=reasons or "",
            )
        )
    refused = _ineligible_reason(state, mover, pick.to, pick.first)
    if refused is not None:
        raise IllegalAction.said(
            say(
                "first {first}: {reason}; it is not eligible",
                first=DIRECTION_WORDS[pick.first],
                reason=refused,
            )
        )
    stacks = list(state.stacks)
    tower: list[Stone] = []
    for direction in clockwise_from(pick.first):
        if direction in eligible:
            index = STACK_INDEX[neighbour(pick.to, direction)]
            tower.append(stacks[index][-1])
            stacks[index] = stacks[index][:-1]
    new_board = _with_tower(board, pick.space, tuple(tower))
    return _after_play(
        replace(
            state,
            artists=_moved_artists(state, mover, pick.to),
            stacks=tuple(stacks),
            boards=_with_board(state, seat, new_board),
        ),
        seat,
    )


def _moved_artists(state: State, mover: int, to: Cell) -> tuple[Artist, ...]:
    return tuple(
        replace(artist, at=to) if i == mover else artist for i, artist in enumerate(state.artists)
    )


def _with_tower(board: PlayerBoard, space: int, tower: Tower) -> PlayerBoard:
    return tuple(tower if i == space - 1 else t for i, t in enumerate(board))


def _with_board(state: State, seat: int, board: PlayerBoard) -> tuple[PlayerBoard, ...]:
    return tuple(board if i == seat else b for i, b in enumerate(state.boards))


# ---------------------------------------------------------------------------- SCORE


def rule_value(space: Space, board: PlayerBoard, number: int) -> int:
    """Return what the top stone of the tower on space ``number`` scores by ``space``'s rule,
    seeing ``board`` as it stands."""
    tower = board[number - 1]
    if space.rule == "heights":
        return len({len(t) for t in board if t or space.count_empty})
    if space.rule == "level":
        return space.table[len(tower) - 1]
    return len({stone.colour for stone in tower})


def colour_spaces(board: PlayerBoard, colour: Colour) -> tuple[int, ...]:
    """Return the spaces (ascending) whose tower is topped by ``colour``."""
    return tuple(i + 1 for i, t in enumerate(board) if t and t[-1].colour == colour)


@dataclass(frozen=True)
class _Scored:
    board: PlayerBoard
    removed: dict[int, Stone]
    vp: int


def _score_colour(state: State, board: PlayerBoard, colour: Colour) -> _Scored:
    """Score every tower topped by ``colour``, space 1 first, lowering each as it scores."""
    towers = list(board)
    removed: dict[int, Stone] = {}
    vp = 0
    for number in colour_spaces(board, colour):
        vp += rule_value(state.data.spaces[number - 1], tuple(towers), number)
        removed[number] = towers[number - 1][-1]
        towers[number - 1] = towers[number - 1][:-1]
    return _Scored(tuple(towers), removed, vp)


def _score_tops(board: PlayerBoard, spaces: Sequence[int]) -> _Scored:
    towers = list(board)
    removed: dict[int, Stone] = {}
    for number in spaces:
        removed[number] = towers[number - 1][-1]
        towers[number - 1] = towers[number - 1][:-1]
    return _Scored(tuple(towers), removed, len(spaces))


def _check_score(state: State, seat: int, score: Score) -> tuple[_Scored, tuple[int, ...]]:
    """Check a SCORE for ``seat`` and return what it removes and scores, and the spaces."""
    board = state.boards[seat]
    name = state.seats[seat]
    if not any(board):
        raise IllegalAction.said(say("score: {name} has no tower to score", name=name))
    if isinstance(score, ScoreColour):
        spaces = colour_spaces(board, score.colour)
        if len(spaces) < 2:
            raise IllegalAction(
                f"colour: {score.colour} tops {len(spaces)} of {name}'s towers; "
                "a colour score needs at least two"
            )
        if sorted(score.order) != list(spaces):
            raise IllegalAction(
                f"order: {list(score.order)} must list exactly the scored spaces {list(spaces)}"
            )
        return _score_colour(state, board, score.colour), spaces
    if sorted(score.order) != sorted(score.spaces):
        raise RecordError(
            f"order: {list(score.order)} must list exactly the scored spaces {sorted(score.spaces)}"
        )
    for number in score.spaces:
        if not board[number - 1]:
            raise IllegalAction.said(
                say("spaces: {name}'s space {number} holds no tower", name=name, number=number)
            )
    return _score_tops(board, score.spaces), tuple(sorted(score.spaces))


def _place_on_mandala(state: State, stones: Sequence[Stone]) -> tuple[tuple[Stone, ...], int, bool]:
    """Put ``stones`` on the next empty places; return the mandala, the bonus VP and
    whether the end place got covered."""
    mandala = state.mandala
    bonus = 0
    covered = False
    end = state.end_place
    for stone in stones:
        mandala = (*mandala, stone)
        place = len(mandala)
        if place <= state.data.places:
            bonus += state.data.bonus_at(place)
        covered = covered or place == end
    return mandala, bonus, covered


def _apply_score(state: State, score: Score) -> State:
    seat = _check_play(state)
    scored, _ = _check_score(state, seat, score)
    mandala, bonus, covered = _place_on_mandala(
        state, [scored.removed[number] for number in score.order]
    )
    scores = tuple(vp + scored.vp + bonus if i == seat else vp for i, vp in enumerate(state.scores))
    after = replace(
        state,
        boards=_with_board(state, seat, scored.board),
        mandala=mandala,
        scores=scores,
        end_triggered=state.end_triggered or covered,
    )
    return _after_play(after, seat)


def _after_play(state: State, seat: int) -> State:
    """Count the action and pass the turn, or stop play (stones.md section 4)."""
    state = replace(state, actions=state.actions + 1)
    if state.end_triggered and seat == len(state.seats) - 1:
        return replace(state, phase="objectives", to_move=0)
    following = (seat + 1) % len(state.seats)
    if not can_move(state, following):
        return replace(state, phase="objectives", to_move=0)
    return replace(state, to_move=following)


@dataclass(frozen=True)
class ScoreOption:
    """One legal SCORE and what it is worth right now."""

    action: Score
    """With ``order`` the scored spaces ascending (the order changes no VP)."""
    vp: int
    """Everything the seat gains: ``stones_vp + bonus_vp``."""
    stones_vp: int
    """By the spaces' rules (colour) or 1 per stone (tops)."""
    bonus_vp: int
    """From the mandala places the removed stones cover."""
    covers_end: bool
    """Whether a removed stone covers the end place."""


def score_options(state: State) -> list[ScoreOption]:
    """Return every legal SCORE of the seat to move with its value now, best first.

    Best first: most VP, then fewest stones removed, then colour before tops, then by
    colour (red, purple, blue, yellow) or by spaces. Empty unless a SCORE is legal now.
    """
    if state.phase != "play" or state.to_move is None:
        return []
    board = state.boards[state.to_move]
    ranked: list[tuple[tuple[int, int, int, tuple[int, ...]], ScoreOption]] = []
    for rank, colour in enumerate(COLOURS):
        spaces = colour_spaces(board, colour)
        if len(spaces) >= 2:
            option = _option(state, ScoreColour(colour, spaces))
            ranked.append(((-option.vp, len(spaces), 0, (rank,)), option))
    towers = [i + 1 for i, t in enumerate(board) if t]
    for size in range(1, len(towers) + 1):
        for spaces in itertools.combinations(towers, size):
            option = _option(state, ScoreTops(spaces, spaces))
            ranked.append(((-option.vp, size, 1, spaces), option))
    ranked.sort(key=lambda pair: pair[0])
    return [option for _, option in ranked]


def _option(state: State, score: Score) -> ScoreOption:
    assert state.to_move is not None
    scored, _ = _check_score(state, state.to_move, score)
    _, bonus, covered = _place_on_mandala(state, list(scored.removed.values()))
    return ScoreOption(score, scored.vp + bonus, scored.vp, bonus, covered)


def score_option_to_json(option: ScoreOption) -> dict[str, JSON]:
    """Format a score option for the panel."""
    return {
        "action": action_to_json(option.action),
        "vp": option.vp,
        "stones_vp": option.stones_vp,
        "bonus_vp": option.bonus_vp,
        "covers_end": option.covers_end,
    }


# ---------------------------------------------------------------------------- objectives


def _apply_objective(state: State, entry: Objective) -> State:
    if state.phase == "over":
        raise IllegalAction.said(say("the game is over"))
    assert state.to_move is not None
    due = state.seats[state.to_move]
    if state.phase == "play":
        raise IllegalAction.said(
            say("objective: play has not stopped; it is {name}'s turn to PICK or SCORE", name=due)
        )
    if entry.seat != due:
        raise IllegalAction.said(
            say(
                "objective: it is {name}'s objective entry, not {seat}'s",
                name=due,
                seat=entry.seat,
            )
        )
    as_whole_at_least(entry.vp, "vp", 0)
    seat = state.to_move
    scores = tuple(vp + entry.vp if i == seat else vp for i, vp in enumerate(state.scores))
    objectives = (*state.objectives, entry.vp)
    done = len(objectives) == len(state.seats)
    return replace(
        state,
        scores=scores,
        objectives=objectives,
        actions=state.actions + 1,
        phase="over" if done else "objectives",
        to_move=None if done else seat + 1,
    )


# ---------------------------------------------------------------------------- engine API


def apply(state: State, action: Action) -> State:
    """Return the state after ``action``.

    :raises IllegalAction: naming the part refused, e.g. ``first S: the stack at [3, 6]
        touches the artist on [4, 6]; it is not eligible``.
    """
    if isinstance(action, Pick):
        return _apply_pick(state, action)
    if isinstance(action, ScoreColour | ScoreTops):
        return _apply_score(state, action)
    return _apply_objective(state, action)


def is_over(state: State) -> bool:
    """Say whether every objective is in."""
    return state.phase == "over"


def legal_actions(state: State) -> list[Action]:
    """Return every legal action now.

    PICKs for every artist, free space, eligible first stone and empty player-board space;
    SCOREs by colour and by tops in every mandala order (tops with ``spaces`` ascending).
    While objectives are due the list holds the one entry due with 0 VP (any whole number
    >= 0 is legal there). Empty once the game is over.
    """
    if state.phase == "over" or state.to_move is None:
        return []
    seat = state.to_move
    if state.phase == "objectives":
        return [Objective(state.seats[seat], 0)]
    actions: list[Action] = []
    board = state.boards[seat]
    empty = [i + 1 for i, t in enumerate(board) if not t]
    if empty:
        for mover, artist in enumerate(state.artists):
            for to in _free_artist_spaces(state):
                for first in eligible_directions(state, mover, to):
                    actions.extend(Pick(artist.at, to, first, space) for space in empty)
    for colour in COLOURS:
        spaces = colour_spaces(board, colour)
        if len(spaces) >= 2:
            actions.extend(ScoreColour(colour, o) for o in itertools.permutations(spaces))
    towers = [i + 1 for i, t in enumerate(board) if t]
    for size in range(1, len(towers) + 1):
        for spaces in itertools.combinations(towers, size):
            actions.extend(ScoreTops(spaces, o) for o in itertools.permutations(spaces))
    return actions


def _parse_spaces(value: JSON, where: str) -> tuple[int, ...]:
    items = as_list(value, where)
    if not items:
        raise RecordError(f"{where}: expected at least one space")
    spaces: list[int] = []
    for i, item in enumerate(items):
        number = as_int(item, join(where, i), 1, SPACE_COUNT)
        if number in spaces:
            raise RecordError(f"{join(where, i)}: space {number} is listed twice")
        spaces.append(number)
    return tuple(spaces)


def parse_action(state: State, obj: JSON) -> Action:
    """Parse one action in the record format (stones.md section 5).

    :raises RecordError: for a missing or unknown key, a wrong type or an out-of-range value.
    """
    action = as_dict(obj, "action")
    if "pick" in action:
        check_keys(action, "", ["pick"])
        pick = as_dict(action["pick"], "pick")
        check_keys(pick, "pick", ["artist", "to", "first", "space"])
        return Pick(
            artist=parse_artist_space(pick["artist"], "pick.artist"),
            to=parse_artist_space(pick["to"], "pick.to"),
            first=as_str(pick["first"], "pick.first", DIRECTIONS),  # type: ignore[arg-type]
            space=as_int(pick["space"], "pick.space", 1, SPACE_COUNT),
        )
    if "score" in action:
        how = as_str(action["score"], "score", ["colour", "tops"])
        if how == "colour":
            check_keys(action, "", ["score", "colour", "order"])
            colour: Colour = as_str(action["colour"], "colour", COLOURS)  # type: ignore[assignment]
            return ScoreColour(colour, _parse_spaces(action["order"], "order"))
        check_keys(action, "", ["score", "spaces", "order"])
        spaces = _parse_spaces(action["spaces"], "spaces")
        order = _parse_spaces(action["order"], "order")
        if sorted(order) != sorted(spaces):
            raise RecordError(
                f"order: {list(order)} must list exactly the scored spaces {sorted(spaces)}"
            )
        return ScoreTops(spaces, order)
    if "objective" in action:
        check_keys(action, "", ["objective", "vp"])
        seat = as_str(action["objective"], "objective")
        if seat not in state.seats:
            raise RecordError(f"objective: {seat!r} is not a seat ({', '.join(state.seats)})")
        return Objective(seat, as_whole_at_least(action["vp"], "vp", 0))
    keys = ", ".join(repr(k) for k in action) or "none"
    raise RecordError(f"action: expected a pick, score or objective action, got keys {keys}")


def action_to_json(action: Action) -> JSON:
    """Format an action as the record does."""
    if isinstance(action, Pick):
        return {
            "pick": {
                "artist": list(action.artist),
                "to": list(action.to),
                "first": action.first,
                "space": action.space,
            }
        }
    if isinstance(action, ScoreColour):
        return {"score": "colour", "colour": action.colour, "order": list(action.order)}
    if isinstance(action, ScoreTops):
        return {"score": "tops", "spaces": list(action.spaces), "order": list(action.order)}
    return {"objective": action.seat, "vp": action.vp}


def _artists_json(artists: Sequence[Artist]) -> list[JSON]:
    return [{"at": list(a.at), "pattern": a.pattern} for a in artists]


def summary(state: State) -> dict[str, JSON]:
    """Return the replay summary (stones.md section 6), keys in the spec's order."""
    winner = state.winner
    return {
        "game": KIND,
        "actions": state.actions,
        "to_move": None if state.to_move is None else state.seats[state.to_move],
        "phase": state.phase,
        "over": is_over(state),
        "winner": None if winner is None else state.seats[winner],
        "scores": dict(zip(state.seats, state.scores, strict=True)),
        "boards": {
            name: [[str(s) for s in tower] for tower in board]
            for name, board in zip(state.seats, state.boards, strict=True)
        },
        "stacks": {
            stack_key(cell): [str(s) for s in stack]
            for cell, stack in zip(STACK_SPACES, state.stacks, strict=True)
        },
        "artists": _artists_json(state.artists),
        "mandala": [str(s) for s in state.mandala],
        "end_triggered": state.end_triggered,
    }


def export_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """Return the setup with the data file inlined under ``board`` and, for a setup given
    by ``seed``, the generated ``stones`` and ``artists`` written out.

    :raises RecordError: when the setup is not valid (as :func:`new_game`).
    """
    state = new_game(setup)
    stones_value, artists_value = _setup_pieces(setup, state.data, state.seats)
    exported: dict[str, JSON] = {
        "game": KIND,
        "seats": list(state.seats),
        "board": data_file_to_json(state.data),
        "stones": [str(s) for s in _parse_stones(stones_value)],
        "artists": _artists_json(_parse_artists(artists_value, state.data)),
    }
    if "seed" in setup:
        exported["seed"] = setup["seed"]
    return exported


# ---------------------------------------------------------------------------- state JSON


def state_to_json(state: State) -> dict[str, JSON]:
    """Write the whole state as JSON; :func:`state_from_json` reads it back equal."""
    return {
        "game": KIND,
        "board": data_file_to_json(state.data),
        "seats": list(state.seats),
        "stacks": [[str(s) for s in stack] for stack in state.stacks],
        "artists": _artists_json(state.artists),
        "boards": [[[str(s) for s in tower] for tower in board] for board in state.boards],
        "mandala": [str(s) for s in state.mandala],
        "scores": list(state.scores),
        "objectives": list(state.objectives),
        "actions": state.actions,
        "phase": state.phase,
        "to_move": state.to_move,
        "end_triggered": state.end_triggered,
    }


def _parse_tower(value: JSON, where: str) -> Tower:
    items = as_list(value, where)
    if len(items) > STACK_HEIGHT:
        raise RecordError(f"{where}: {len(items)} stones; at most {STACK_HEIGHT}")
    return tuple(parse_stone(item, join(where, i)) for i, item in enumerate(items))


def _parse_fixed_list(value: JSON, where: str, length: int) -> list[JSON]:
    items = as_list(value, where)
    if len(items) != length:
        raise RecordError(f"{where}: expected {length} entries, got {len(items)}")
    return items


def state_from_json(obj: JSON) -> State:
    """Read a state written by :func:`state_to_json`.

    :raises RecordError: naming the key that is missing or wrong.
    """
    obj = as_dict(obj, "state")
    keys = [
        "game", "board", "seats", "stacks", "artists", "boards", "mandala", "scores",
        "objectives", "actions", "phase", "to_move", "end_triggered",
    ]  # fmt: skip
    check_keys(obj, "state", keys)
    as_str(obj["game"], "game", [KIND])
    data = parse_data_file(obj["board"], "board")
    seats = parse_seats(obj["seats"])
    n = len(seats)
    stacks_list = _parse_fixed_list(obj["stacks"], "stacks", len(STACK_SPACES))
    stacks = tuple(_parse_tower(s, join("stacks", i)) for i, s in enumerate(stacks_list))
    artists = _parse_artists(obj["artists"], replace(data, artist_starts=ARTIST_SPACES))
    boards_list = _parse_fixed_list(obj["boards"], "boards", n)
    boards = tuple(
        tuple(
            _parse_tower(t, join(join("boards", i), j))
            for j, t in enumerate(_parse_fixed_list(b, join("boards", i), SPACE_COUNT))
        )
        for i, b in enumerate(boards_list)
    )
    mandala = tuple(
        parse_stone(s, join("mandala", i)) for i, s in enumerate(as_list(obj["mandala"], "mandala"))
    )
    scores = tuple(
        as_whole_at_least(v, join("scores", i), 0)
        for i, v in enumerate(_parse_fixed_list(obj["scores"], "scores", n))
    )
    objectives = tuple(
        as_whole_at_least(v, join("objectives", i), 0)
        for i, v in enumerate(as_list(obj["objectives"], "objectives"))
    )
    phase: Phase = as_str(obj["phase"], "phase", PHASES)  # type: ignore[assignment]
    to_move = obj["to_move"]
    if phase == "over":
        if to_move is not None:
            raise RecordError("to_move: expected null once the game is over")
    else:
        to_move = as_int(to_move, "to_move", 0, n - 1)
    return State(
        data=data,
        seats=seats,
        stacks=stacks,
        artists=artists,
        boards=boards,
        mandala=mandala,
        scores=scores,
        objectives=objectives,
        actions=as_whole_at_least(obj["actions"], "actions", 0),
        phase=phase,
        to_move=to_move,
        end_triggered=as_bool(obj["end_triggered"], "end_triggered"),
    )


__all__ = [
    "ACTIONS_KEY",
    "KIND",
    "STEP_WORD",
    "Action",
    "Artist",
    "Objective",
    "Phase",
    "Pick",
    "PlayerBoard",
    "Score",
    "ScoreColour",
    "ScoreOption",
    "ScoreTops",
    "State",
    "Tower",
    "action_to_json",
    "apply",
    "can_move",
    "can_pick",
    "can_score",
    "colour_spaces",
    "eligible_directions",
    "export_setup",
    "is_over",
    "legal_actions",
    "new_game",
    "parse_action",
    "rule_value",
    "score_option_to_json",
    "score_options",
    "state_from_json",
    "state_to_json",
    "summary",
]

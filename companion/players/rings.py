"""A move advisor and computer seats for the 1983 ring board (issue 10).

Everything a seat may know on the ring board is public (pegs, offsets, scores, the roll), so
the players here read the engine's :class:`~companion.games.rings.State` directly.

- :func:`evaluate` / :func:`breakdown`: a position's worth to one seat, in points. Its terms
  are the points on the scoreboard, each peg's progress toward Central Control, the chance
  that the seats moving next snipe one of the seat's pegs (weighed by the dice that allow it,
  computed over the board's die faces), the chance to enter waiting pegs, and -- when the
  seat itself moves next -- the snipes its own next roll may allow.
- :func:`rank` / :func:`advise`: every legal rotation set of a roll, resolved by the engine and
  ranked by the evaluation of the position after it, with a line of text saying what it does.
- :func:`choose`: a computer seat. ``easy`` picks a legal set uniformly at random; ``medium``
  the best-ranked one; ``hard`` weighs entries less (``HARD_ENTRY``) and looks a round
  further: for its best candidates it plays the seats moving next, and then itself, through
  sampled rolls, each taking its best immediate gain (found by a search of every set at once
  on bit masks, :class:`_Mover`), and keeps the candidate whose positions after that round
  are worth most on average. All randomness comes from the ``random.Random`` passed in, so a
  seed gives the same choices.
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from companion.games import rings
from companion.games.base import IllegalAction, RecordError
from companion.games.rings import COLOURS, INNER, Outcome, Rotation, State
from companion.phrases import Phrase, say, say_n

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")

POINT = 1.0
"""Worth of one point on the scoreboard (every other weight is in these units)."""
PROGRESS = 0.05
"""Worth of each ring a peg has come inward (see ``PEG_WORTH``)."""
PEG_WORTH: tuple[float, ...] = tuple(PROGRESS * (ring + 1) for ring in range(rings.RINGS))
"""Worth of a peg on each ring (ring 0 first): ``PROGRESS * (ring + 1)``; waiting is 0."""
ENTRY = 0.2
"""Worth of a sure entry for a base with waiting pegs (scaled by the chance of entering)."""
THREAT = 0.5
"""Share of the expected gains of the seat's own next roll that counts (it cannot take all)."""
WIN = 100.0
"""Worth of a won (or lost) game."""

HARD_CANDIDATES = 16
"""Hard: how many of the best-ranked rotation sets get the lookahead."""
HARD_ROLLS = 10
"""Hard: how many sampled rounds (the next seats' rolls, then its own) are played per
candidate, divided by the number of seats that reply; the same rounds for every candidate."""
HARD_EVALUATIONS = 32
"""Hard: at most this many sets get the full evaluation when picking the candidates."""
DEADLINE_S = 1.0
"""Wall time a hint or a medium or hard decision may search (a Pi Zero 2 needs about ten
times this machine's time): past it, the best option found so far is given."""
HARD_ENTRY = 0.1
"""Hard: the worth of a sure entry in its own evaluation (candidates and lookahead), in place
of ``ENTRY``. Tuned by self-play: at half the weight a seat plays better (see the README)."""


@dataclass(frozen=True)
class Breakdown:
    """The terms of an evaluation, in points; ``total`` is their sum.

    - ``points``: the seat's score minus the best other score (``solo``: the score).
    - ``progress``: its pegs' progress minus the most advanced other seat's.
    - ``exposure``: minus the expected loss from snipes on the next seats' turns (each sniped
      peg costs a point to the sniper and the peg's progress).
    - ``entries``: its chances to enter waiting pegs minus the best other seat's.
    - ``threats``: when the seat moves next, ``THREAT`` times the expected worth of what its
      roll may allow: snipes (a point plus the victim's progress) and entries into Central
      Control (a point less the peg's progress); 0 otherwise.
    - ``win``: ``+WIN`` once it has won, ``-WIN`` once another seat has.
    """

    points: float
    progress: float
    exposure: float
    entries: float
    threats: float
    win: float

    @property
    def total(self) -> float:
        """Return the sum of the terms."""
        # The turn-ahead terms are added last, so that a total without them (exposure and
        # threats 0) bounds the total with them exactly, in floating point too.
        settled = self.points + self.progress + self.entries + self.win
        return settled + (self.exposure + self.threats)


@contextlib.contextmanager
def _without_pauses() -> Iterator[None]:
    """Hold the cyclic garbage collector off while a search runs, then let it run again.

    A search makes and drops some hundred thousand small objects (states, tuples, the
    candidates) without a reference cycle, so their counts free them all; the collector would
    only pause the search to scan them (a fifth of a hint's time, and its slowest moments).
    Only the caller that found the collector on turns it back on, so searches on two threads
    leave it as they found it.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class _Deadline:
    """When a search must stop: ``seconds`` after it starts on ``clock`` (None: never)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.at = None if seconds is None else clock() + seconds

    def passed(self) -> bool:
        """True once the clock has reached the deadline."""
        return self.at is not None and self.clock() >= self.at


@dataclass(frozen=True)
class Option:
    """One legal rotation set of a roll: what it does and what the evaluation makes of it."""

    rotations: tuple[Rotation, ...]
    outcome: Outcome
    score: float
    breakdown: Breakdown
    text: str
    points: int
    """The points the mover scores with this set, this turn."""
    does: Phrase | None = field(default=None, compare=False)
    """What the set does (:func:`outcome_phrase`), for the reader's language."""


# --------------------------------------------------------------------------------------------
# Dice


class _Dice:
    """The board's die faces as chances, and the turns each die value allows one ring."""

    def __init__(self, board: rings.Board) -> None:
        faces = board.dice
        self.chance: dict[int, float] = {}
        for face in faces:
            self.chance[face] = self.chance.get(face, 0.0) + 1.0 / len(faces)
        self.values: tuple[int, ...] = tuple(sorted(self.chance))
        # A ring can always stay put: its die shows 0, or the other ring of its colour turns.
        self.turns: dict[int, tuple[int, ...]] = {
            v: (0,) if v == 0 else (0, v, -v) for v in self.values
        }
        self.spokes = spokes = board.spokes
        # Every turn one ring can make (0 first), and per die value its two turns as bits.
        deltas = [0]
        for v in self.values:
            for d in (v, -v):
                if v and d % spokes not in [x % spokes for x in deltas]:
                    deltas.append(d)
        self.deltas: tuple[int, ...] = tuple(deltas)
        index = {d % spokes: i for i, d in enumerate(deltas)}
        self.both: dict[int, int] = {
            v: (1 << index[v % spokes]) | (1 << index[-v % spokes]) for v in self.values
        }
        # Per difference of spokes (mod N): the turns (bits) that make it up.
        self.reaching: tuple[int, ...] = tuple(
            (1 << index[r]) if r in index else 0 for r in range(spokes)
        )
        self.every = (1 << len(deltas)) - 1
        self.all_values = (1 << len(self.values)) - 1
        # The die values the other four colours allow, packed: colour j's bits over ``values``
        # from bit ``j * len(values)``, so that one ``&`` intersects all four at once.
        self.colours = len(COLOURS) - 1
        width = len(self.values)
        self.all_packed = sum(self.all_values << (j * width) for j in range(self.colours))
        self._allowed: dict[int, int] = {}
        self._weight: dict[int, float] = {}
        self._joint: dict[int, float] = {}
        self._turns: dict[int, tuple[int, ...]] = {}

    def allowed(self, first: int, second: int) -> int:
        """Return the die values (bits over ``values``) that let a colour's two rings pass.

        ``first`` and ``second`` are the turns (bits over ``deltas``) that keep each ring
        passable; one ring turns by the die (or neither, for 0) and the other stays put.
        """
        key = first << len(self.deltas) | second
        found = self._allowed.get(key)
        if found is None:
            found = 0
            for index, value in enumerate(self.values):
                if value == 0:
                    ok = first & second & 1
                else:
                    both = self.both[value]
                    ok = (first & both and second & 1) or (first & 1 and second & both)
                if ok:
                    found |= 1 << index
            self._allowed[key] = found
        return found

    def weight(self, values: int) -> float:
        """Return the chance that a die shows one of ``values`` (bits over ``values``)."""
        found = self._weight.get(values)
        if found is None:
            found = sum(self.chance[v] for i, v in enumerate(self.values) if values >> i & 1)
            self._weight[values] = found
        return found

    def joint(self, packed: int) -> float:
        """Return the chance that each of the four other colours shows a value it allows
        (``packed`` as in ``all_packed``); the dice are independent."""
        found = self._joint.get(packed)
        if found is None:
            width = len(self.values)
            found = 1.0
            for colour in range(self.colours):
                found *= self.weight(packed >> (colour * width) & self.all_values)
                if found == 0.0:
                    break
            self._joint[packed] = found
        return found

    def ring_turns(self, free: int) -> tuple[int, ...]:
        """Per residue: the turns (bits over ``deltas``) that put a free slot of a ring on a
        spoke.

        ``free`` is the ring's mask of black slots without the mover's pegs; the residue is
        the spoke minus the ring's offset (the slot there now).
        """
        found = self._turns.get(free)
        if found is None:
            spokes = self.spokes
            found = tuple(
                sum(
                    1 << index
                    for index, delta in enumerate(self.deltas)
                    if free >> ((residue - delta) % spokes) & 1
                )
                for residue in range(spokes)
            )
            self._turns[free] = found
        return found


def _chance_any(dice: _Dice, ok: Iterable[int]) -> float:
    """Return the chance that a die shows a value for which ``ok`` holds (values listed)."""
    wanted = set(ok)
    return sum(dice.chance[v] for v in dice.values if v in wanted)


# --------------------------------------------------------------------------------------------
# Snipe chances


class _Context:
    """Per-board tables and a cache of snipe chances (one per decision; reused in a search)."""

    def __init__(self, board: rings.Board) -> None:
        self.board = board
        self.tables = board.tables
        self.spokes = board.spokes
        self.dice = _Dice(board)
        self.cache: dict[tuple[object, ...], float] = {}
        self.unions: dict[tuple[int, ...], float] = {}
        self._seats: tuple[rings.Seat, ...] = ()
        self._variant = ""
        self._bases: list[tuple[int, ...]] = []
        # Per ring: the turns that keep the sniper's way open on a ring it need not pass
        # (outward of the sniper, inward of the target); copied and filled in per spoke.
        self.every_ring = [self.dice.every] * rings.RINGS

    def base_spokes(self, state: State, seat: int) -> tuple[int, ...]:
        """Return the spokes in front of the seat's bases, in base order."""
        return self.every_base_spokes(state)[seat]

    def every_base_spokes(self, state: State) -> list[tuple[int, ...]]:
        """Return, per seat, the spokes in front of its bases, in base order.

        Kept for the last game asked about: every state of a search shares its seats.
        """
        if state.seats is not self._seats or state.variant != self._variant:
            corners = self.board.corners
            self._seats, self._variant = state.seats, state.variant
            self._bases = [
                tuple(corners[corner] for corner in state.bases(seat))
                for seat in range(len(state.seats))
            ]
        return self._bases


def _snipe_chance(
    ctx: _Context,
    offsets: tuple[int, ...],
    blockers: tuple[int, ...],
    sniper: tuple[int, int],
    target: tuple[int, int],
) -> float:
    """Return the chance that the mover's peg on cell ``sniper`` passes over cell ``target``.

    Cells are ``(ring, spoke)`` now, the sniper's ring lower (outer) than the target's; the
    target ``(RINGS, -1)`` is Central Control (reached from ring 9 on an entrance). The
    chance is over the mover's five dice: some legal choice of rings and directions must
    bring the two pegs onto one spoke s with every cell between them black and free of the
    mover's own pegs (``blockers``: per ring, a bit mask of slots holding them). Two rings
    of one colour cannot both turn; a ring may always stay put. Exact for these conditions;
    it ignores that the mover's other pegs move first (they may clear or block the way).
    Only the rings between the two cells matter, so the answer is kept by their offsets and
    blockers: a search meets the same few again and again.
    """
    low, low_spoke = sniper
    high, high_spoke = target
    key = (low, low_spoke, high, high_spoke, offsets[low + 1 : high], blockers[low + 1 : high])
    found = ctx.cache.get(key)
    if found is not None:
        return found
    spokes = ctx.spokes
    dice = ctx.dice
    ways = _ways(ctx, offsets, blockers, sniper, target)
    total = 0.0
    for value in dice.values:
        # The spokes the sniper can end up on, given its own ring's die: it turns by the die
        # (its partner ring stays put), or stays put (the die is 0, or the partner turns).
        here: set[int] = set()
        both = 1
        if value:
            both = dice.both[value]
            for delta in (value, -value):
                spoke = (low_spoke + delta) % spokes
                if spoke in ways and ways[spoke][1] & 1:
                    here.add(spoke)
        if low_spoke in ways and ways[low_spoke][1] & both:
            here.add(low_spoke)
        packed = tuple(ways[spoke][0] for spoke in sorted(here))
        total += dice.chance[value] * _union_chance(ctx, packed)
    ctx.cache[key] = total
    return total


def _ways(
    ctx: _Context,
    offsets: tuple[int, ...],
    blockers: tuple[int, ...],
    sniper: tuple[int, int],
    target: tuple[int, int],
) -> dict[int, tuple[int, int]]:
    """Per spoke the sniper's ring can bring it to and some turn of every ring between
    opens the way on (for Central Control: an entrance), the die values the four other
    colours allow (packed, see ``_Dice.all_packed``) and the turns of the sniper's partner
    ring that keep the way open."""
    low, low_spoke = sniper
    high, high_spoke = target
    tables = ctx.tables
    spokes = ctx.spokes
    dice = ctx.dice
    black = tables.black
    centre = high == rings.RINGS
    own_colour = tables.ring_colour[low]
    pair = tables.colour_rings[own_colour]
    partner = pair[1] if pair[0] == low else pair[0]
    others = [tables.colour_rings[c] for c in COLOURS if c != own_colour]
    width = len(dice.values)
    # Per ring between the two: its turns (bits) that open a free black cell, per residue.
    between = [
        (ring, dice.ring_turns(black[ring] & ~blockers[ring]), offsets[ring])
        for ring in range(low + 1, min(high, rings.RINGS))
    ]
    ways: dict[int, tuple[int, int]] = {}
    for spoke in {(low_spoke + delta) % spokes for delta in dice.deltas}:
        if centre and not tables.entrances >> spoke & 1:
            continue
        passable = ctx.every_ring[:]  # per ring: the turns that let the sniper's peg by
        for ring, turns, offset in between:
            passable[ring] = turns[(spoke - offset) % spokes]
            if not passable[ring]:
                break
        else:
            if not centre:
                passable[high] = dice.reaching[(spoke - high_spoke) % spokes]
            packed = 0
            for colour, (first, second) in enumerate(others):
                packed |= dice.allowed(passable[first], passable[second]) << (colour * width)
            ways[spoke] = (packed, passable[partner])
    return ways


def _union_chance(ctx: _Context, candidates: tuple[int, ...]) -> float:
    """The chance of the union over candidate spokes (each: the values every other colour
    allows there, packed), by inclusion and exclusion; each answer kept."""
    found = ctx.unions.get(candidates)
    if found is not None:
        return found
    dice = ctx.dice
    union = 0.0
    for subset in range(1, 1 << len(candidates)):
        values = dice.all_packed
        chosen = 0
        for j, packed in enumerate(candidates):
            if subset >> j & 1:
                values &= packed
                chosen += 1
        joint = dice.joint(values)
        union += joint if chosen % 2 else -joint
    ctx.unions[candidates] = union
    return union


def _entry_snipe_chance(ctx: _Context, spoke: int, base_spoke: int) -> float:
    """Return the chance that ring 0 turns so that the peg on ``spoke`` lies at ``base_spoke``."""
    key = (-3, spoke, base_spoke)
    found = ctx.cache.get(key)
    if found is None:
        dice = ctx.dice
        spokes = ctx.spokes
        found = _chance_any(
            dice,
            (
                v
                for v in dice.values
                if any((spoke + d) % spokes == base_spoke for d in dice.turns[v])
            ),
        )
        ctx.cache[key] = found
    return found


def _entry_chance(ctx: _Context, mine: int, offset: int, base_spoke: int) -> float:
    """Return the chance that ring 0 can turn so that a seat's base cell is black and free.

    ``mine`` is the seat's pegs on ring 0 (a mask of slots), ``offset`` ring 0's offset.
    """
    key = (-1, mine, offset, base_spoke)
    found = ctx.cache.get(key)
    if found is not None:
        return found
    dice = ctx.dice
    spokes = ctx.spokes
    free = ctx.tables.black[0] & ~mine

    def open_at(delta: int) -> bool:
        return bool(free >> ((base_spoke - offset - delta) % spokes) & 1)

    found = _chance_any(dice, (v for v in dice.values if any(open_at(d) for d in dice.turns[v])))
    ctx.cache[key] = found
    return found


def _seats_before(state: State, seat: int) -> list[int]:
    """Return the seats that move, in order, before ``seat`` moves again."""
    if state.to_move is None:
        return []
    count = len(state.seats)
    result = []
    who = state.to_move
    while who != seat:
        result.append(who)
        who = (who + 1) % count
    return result


def _snipe_worth(
    ctx: _Context, state: State, mover: int, victims: Iterable[int]
) -> tuple[float, float]:
    """Return the expected snipes ``mover``'s next roll allows on ``victims``' pegs.

    Returns ``(expected points, expected worth)``: each peg counts its chance to be sniped
    (by a peg passing over it, or by an entry at a base of the mover with a peg waiting), and
    its worth is a point plus the peg's progress.
    """
    spokes = ctx.spokes
    offsets = state.offsets
    victim_set = set(victims)
    masks = [0] * rings.RINGS
    movers: list[tuple[int, int]] = []
    targets: list[tuple[int, int]] = []
    for who, ring, slot in state.pegs:
        spoke = (slot + offsets[ring]) % spokes
        if who == mover:
            masks[ring] |= 1 << slot
            movers.append((ring, spoke))
        elif who in victim_set:
            targets.append((ring, spoke))
    blockers = tuple(masks)
    bases = _waiting_bases(ctx, state, mover)
    points = worth = 0.0
    for ring, spoke in targets:
        safe = 1.0
        for low, low_spoke in movers:
            if low < ring:
                safe *= 1.0 - _snipe_chance(ctx, offsets, blockers, (low, low_spoke), (ring, spoke))
        if ring == 0:
            for base_spoke in bases:
                safe *= 1.0 - _entry_snipe_chance(ctx, spoke, base_spoke)
        chance = 1.0 - safe
        points += chance
        worth += chance * (POINT + PEG_WORTH[ring])
    return points, worth


def _waiting_bases(ctx: _Context, state: State, seat: int) -> list[int]:
    """Return the base spokes of ``seat`` with a peg waiting."""
    waiting = state.waiting[seat]
    return [spoke for index, spoke in enumerate(ctx.base_spokes(state, seat)) if waiting[index]]


def _losses(ctx: _Context, state: State, seat: int) -> Iterator[float]:
    """Yield the seat's expected loss to snipes on the next seats' turns, in increments.

    The sum of all increments is the loss :func:`_breakdown` counts (its exposure, negated,
    up to rounding); each increment is one sniper's share of one peg's chance, so the sum so
    far is a lower bound of the loss. Entries come first, then the snipers nearest their
    target: their chances are usually the greatest, and the cheapest to compute.
    """
    spokes = ctx.spokes
    offsets = state.offsets
    movers = _seats_before(state, seat)
    mine = [(r, (slot + offsets[r]) % spokes) for who, r, slot in state.pegs if who == seat]
    if not movers or not mine:
        return
    safe = [[1.0] * len(mine) for _ in movers]
    worth = [POINT + PEG_WORTH[ring] for ring, _ in mine]
    outer = [(target, spoke) for target, (ring, spoke) in enumerate(mine) if ring == 0]
    for number, mover in enumerate(movers if outer else ()):
        row = safe[number]
        for base_spoke in _waiting_bases(ctx, state, mover):
            for target, spoke in outer:
                chance = _entry_snipe_chance(ctx, spoke, base_spoke)
                if chance:
                    before = row[target]
                    row[target] = after = before * (1.0 - chance)
                    yield (before - after) * worth[target]
    # The snipers nearest their targets first.
    blockers, snipers = _snipers(state, movers, spokes)
    cache = ctx.cache
    for distance in range(1, rings.RINGS):
        for target, peg in enumerate(mine):
            high, high_spoke = peg
            low = high - distance
            if low < 0 or not snipers[low]:
                continue
            way = offsets[low + 1 : high]
            for number, spoke in snipers[low]:
                # _snipe_chance's own key, looked up here to save a call per increment.
                kept = cache.get(
                    (low, spoke, high, high_spoke, way, blockers[number][low + 1 : high])
                )
                if kept is None:
                    kept = _snipe_chance(ctx, offsets, blockers[number], (low, spoke), peg)
                if kept:
                    row = safe[number]
                    before = row[target]
                    row[target] = after = before * (1.0 - kept)
                    yield (before - after) * worth[target]


def _snipers(
    state: State, movers: list[int], spokes: int
) -> tuple[list[tuple[int, ...]], list[list[tuple[int, int]]]]:
    """Return the blockers of each of ``movers`` (per ring, a mask of its pegs' slots) and,
    per ring, the movers' pegs there as (mover's place in ``movers``, spoke)."""
    offsets = state.offsets
    index = {mover: number for number, mover in enumerate(movers)}
    masks = [[0] * rings.RINGS for _ in movers]
    snipers: list[list[tuple[int, int]]] = [[] for _ in range(rings.RINGS)]
    for who, ring, slot in state.pegs:
        place = index.get(who)
        if place is not None:
            masks[place][ring] |= 1 << slot
            snipers[ring].append((place, (slot + offsets[ring]) % spokes))
    return [tuple(mask) for mask in masks], snipers


def _centre_worth(ctx: _Context, state: State, seat: int) -> float:
    """Return the expected worth of the entries into Central Control ``seat``'s next roll allows.

    A peg that enters scores a point and goes back to wait: its worth is the point less the
    peg's progress.
    """
    spokes = ctx.spokes
    offsets = state.offsets
    masks = [0] * rings.RINGS
    mine: list[tuple[int, int]] = []
    for who, ring, slot in state.pegs:
        if who == seat:
            masks[ring] |= 1 << slot
            mine.append((ring, (slot + offsets[ring]) % spokes))
    blockers = tuple(masks)
    return sum(
        _snipe_chance(ctx, offsets, blockers, peg, (rings.RINGS, -1)) * (POINT - PEG_WORTH[peg[0]])
        for peg in mine
    )


# --------------------------------------------------------------------------------------------
# Evaluation


def _seat_terms(ctx: _Context, state: State, entry: float) -> tuple[list[float], list[float]]:
    """Return every seat's progress and its chances to enter waiting pegs, weighed ``entry``."""
    count = len(state.seats)
    progress = [0.0] * count
    outer = [0] * count  # per seat: its pegs on ring 0, a mask of slots
    for who, ring, slot in state.pegs:
        progress[who] += PEG_WORTH[ring]
        if ring == 0:
            outer[who] |= 1 << slot
    offset = state.offsets[0]
    entries = []
    for seat, bases in enumerate(ctx.every_base_spokes(state)):
        total = 0.0
        waiting = state.waiting[seat]
        for index, spoke in enumerate(bases):
            if waiting[index]:
                total += entry * _entry_chance(ctx, outer[seat], offset, spoke)
        entries.append(total)
    return progress, entries


def _breakdown(
    ctx: _Context, state: State, seat: int, *, ahead: bool = True, entry: float = ENTRY
) -> Breakdown:
    """Return the evaluation's terms; ``ahead=False`` leaves out exposure and threats.

    ``entry`` is the worth of a sure entry (``ENTRY``; hard weighs it ``HARD_ENTRY``).
    """
    others = [who for who in range(len(state.seats)) if who != seat]
    score = state.scores[seat]
    win = 0.0
    if state.winner is not None:
        win = WIN if state.winner == seat else -WIN
    progresses, chances = _seat_terms(ctx, state, entry)
    if not others:
        return Breakdown(
            points=POINT * score,
            progress=progresses[seat],
            exposure=0.0,
            entries=chances[seat],
            threats=0.0,
            win=win,
        )
    scores = state.scores
    points = POINT * (score - max(scores[:seat] + scores[seat + 1 :]))
    progress = progresses[seat] - max(progresses[:seat] + progresses[seat + 1 :])
    entries = chances[seat] - max(chances[:seat] + chances[seat + 1 :])
    exposure = threats = 0.0
    if ahead and state.winner is None:
        for mover in _seats_before(state, seat):
            # Each next seat is judged on this position (the turns between are not played).
            _, loss = _snipe_worth(ctx, state, mover, (seat,))
            exposure -= loss
        if state.to_move == seat:
            _, gain = _snipe_worth(ctx, state, seat, others)
            threats = THREAT * (gain + _centre_worth(ctx, state, seat))
    return Breakdown(
        points=points,
        progress=progress,
        exposure=exposure,
        entries=entries,
        threats=threats,
        win=win,
    )


def _settled(ctx: _Context, state: State, seat: int, entry: float) -> float:
    """Return ``_breakdown(ctx, state, seat, ahead=False, entry=entry).total`` (the same
    float, summed in its order) for a game that goes on between several seats, without
    making the terms: a search bounds every set of a roll with it."""
    progresses, chances = _seat_terms(ctx, state, entry)
    scores = state.scores
    points = POINT * (scores[seat] - max(scores[:seat] + scores[seat + 1 :]))
    progress = progresses[seat] - max(progresses[:seat] + progresses[seat + 1 :])
    entries = chances[seat] - max(chances[:seat] + chances[seat + 1 :])
    return points + progress + entries + 0.0 + (0.0 + 0.0)


def breakdown(state: State, seat: int) -> Breakdown:
    """Return the terms of the evaluation of ``state`` for ``seat`` (see :class:`Breakdown`).

    :raises IndexError: when ``seat`` is not a seat of the game.
    """
    if not 0 <= seat < len(state.seats):
        raise IndexError(f"seat {seat} is not one of the game's {len(state.seats)} seats")
    return _breakdown(_Context(state.board), state, seat)


def evaluate(state: State, seat: int) -> float:
    """Return the worth of ``state`` to ``seat``, in points (higher is better).

    :raises IndexError: when ``seat`` is not a seat of the game.
    """
    return breakdown(state, seat).total


# --------------------------------------------------------------------------------------------
# Ranking the rotation sets of a roll


def rotations_text(state: State, rotations: Sequence[Rotation]) -> str:
    """Say a rotation set as the panel shows it, in dice order: ``ring 5 +2, ring 1 -1``."""
    if not rotations:
        return "no ring turns"
    colour_of = state.board.tables.ring_colour
    ordered = sorted(rotations, key=lambda r: (COLOURS.index(colour_of[r.ring]), r.ring))
    return ", ".join(f"ring {r.ring} {r.steps:+d}" for r in ordered)


NUMBER_PHRASES = (
    say("no"),
    say("one"),
    say("two"),
    say("three"),
    say("four"),
    say("five"),
    say("six"),
    say("seven"),
    say("eight"),
)
"""The number words as phrases, for the reader's language (the advisor's and the computer
seat's)."""


def outcome_text(state: State, outcome: Outcome) -> str:
    """Say what a turn does, from the mover's side: ``Ann enters one peg, snipes Bo on ...``.

    ``state`` is the state before the turn (it names the mover).
    """
    return outcome_phrase(state, outcome).english()


def _moves(spoke: int, start: int, end: int) -> Phrase:
    return say(
        "moves the peg on spoke {spoke} from ring {start} to ring {end}",
        spoke=spoke,
        start=start,
        end=end,
    )


def outcome_phrase(state: State, outcome: Outcome) -> Phrase:
    """:func:`outcome_text` as a phrase, for the reader's language."""
    mover = state.to_move
    if mover is None:
        return say("the game is over")
    names = [seat.name for seat in state.seats]
    clauses: list[Phrase] = []
    moves: dict[int, tuple[int, int, int]] = {}  # spoke -> (clause index, from ring, to ring)
    entries = 0
    entry_clause = -1
    for event in outcome.events:
        if event.kind == "advance" and event.start is not None and event.end is not None:
            spoke = event.start[1]
            earlier = moves.get(spoke)
            if earlier is not None and earlier[2] == event.start[0]:
                index, first, _ = earlier
                clauses[index] = _moves(spoke, first, event.end[0])
                moves[spoke] = (index, first, event.end[0])
            else:
                moves[spoke] = (len(clauses), event.start[0], event.end[0])
                clauses.append(_moves(spoke, event.start[0], event.end[0]))
        elif event.kind == "snipe" and event.end is not None:
            ring, spoke = event.end
            clauses.append(
                say(
                    "snipes {name} on ring {ring}, spoke {spoke}",
                    name=names[event.seat],
                    ring=ring,
                    spoke=spoke,
                )
            )
        elif event.kind == "centre" and event.start is not None:
            clauses.append(
                say("brings the peg on spoke {spoke} into Central Control", spoke=event.start[1])
            )
        elif event.kind == "entry":
            entries += 1
            entered = say_n(
                "enters {number} peg",
                "enters {number} pegs",
                entries,
                number=NUMBER_PHRASES[entries],
            )
            if entry_clause < 0:
                entry_clause = len(clauses)
                clauses.append(entered)
            clauses[entry_clause] = entered
        elif event.kind == "win":
            clauses.append(say("wins"))
    if not clauses:
        return say("{name}: no peg moves", name=names[mover])
    does = clauses[0]
    for clause in clauses[1:]:
        does = say("{first}, {next}", first=does, next=clause)
    return say("{name} {does}", name=names[mover], does=does)


def _rotation_key(rotations: tuple[Rotation, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r.ring, r.steps) for r in rotations)


def _scored(
    ctx: _Context, state: State, dice: Mapping[str, int]
) -> list[tuple[float, tuple[Rotation, ...], Outcome, Breakdown]]:
    """Resolve and evaluate every legal set of the roll, best first (ties: rotation order)."""
    mover = state.to_move
    results = []
    for rotations, outcome in rings.outcomes(state, dice):
        assert mover is not None  # outcomes() is empty once the game is over
        terms = _breakdown(ctx, outcome.state, mover)
        results.append((terms.total, rotations, outcome, terms))
    results.sort(key=lambda item: (-item[0], _rotation_key(item[1])))
    return results


Scored = tuple[float, tuple[Rotation, ...], Outcome, Breakdown]
"""An evaluated set: (total, rotations, the engine's outcome, the terms of its evaluation)."""

_SLACK = 1e-9
"""Added to a partly refined bound: the snipe losses are summed in another order than
:func:`_breakdown` sums them, so the bound must stay above the total despite rounding."""


class _Candidate:
    """A set in the search: an upper bound on its total, refined one victim peg at a time.

    The bound starts as the total without the turn-ahead terms (the threats are 0 after a
    set, the exposure at most 0), then each peg's expected loss to a seat moving next is
    taken off it. Once every loss is in, ``terms`` is the evaluation (:func:`_breakdown`'s
    own numbers) and the bound is its total.
    """

    __slots__ = (
        "bound",
        "exhausted",
        "exposed",
        "key",
        "loss",
        "outcome",
        "pending",
        "place",
        "rotations",
        "settled",
        "terms",
    )

    def __init__(
        self, ctx: _Context, seat: int, rotations: tuple[Rotation, ...], outcome: Outcome
    ) -> None:
        state = outcome.state
        self.rotations = rotations
        self.outcome = outcome
        self.key = _rotation_key(rotations)
        self.place = 0  # its key's place among the roll's sets (ties go in rotation order)
        self.settled = 0.0
        self.loss = 0.0
        self.terms: Breakdown | None = None
        self.bound = 0.0
        # Without exposure (a won game, solo) or with threats that could add, the evaluation
        # is made at once; else the exposure's terms wait here, seat by seat, peg by peg.
        self.exposed = state.winner is None and len(state.seats) > 1 and state.to_move != seat
        self.pending = _losses(ctx, state, seat)
        self.exhausted = False

    def order(self) -> tuple[float, int]:
        """The search's order: the greatest bound first, ties in rotation order."""
        return (-self.bound, self.place)


def _refine(candidate: _Candidate, rival: float, rival_place: int) -> None:
    """Take losses off a candidate's bound while it stays ahead of a rival's order
    ``(rival, rival_place)``; mark it exhausted when none is left."""
    settled = candidate.settled
    place = candidate.place
    loss = candidate.loss
    for more in candidate.pending:
        loss += more
        bound = settled - loss + _SLACK
        if -bound > rival or (-bound == rival and place > rival_place):
            break
    else:
        candidate.exhausted = True
    candidate.loss = loss
    candidate.bound = settled - loss + _SLACK


def _best(
    ctx: _Context,
    state: State,
    dice: Mapping[str, int],
    count: int,
    limit: int | None = None,
    *,
    entry: float = ENTRY,
    deadline: _Deadline | None = None,
) -> list[Scored]:
    """Return the first ``count`` entries of :func:`_scored`, evaluating as little as it can.

    Each set gets an upper bound on its total (:class:`_Candidate`); the set with the
    greatest bound is refined (one victim peg's expected loss more) until it is fully
    evaluated, and a fully evaluated set whose total is at least every other set's bound is
    the next of the ranking: the same sets, terms and order as the whole ranking. With
    ``limit``, only the ``limit`` sets of the greatest bounds without the turn-ahead terms
    take part. Past the ``deadline``, the sets found so far are kept and the rest of the
    ``count`` are the best-bounded sets, fully evaluated. ``entry`` is the worth of a sure
    entry (see :func:`_breakdown`).
    """
    mover = state.to_move
    if mover is None:
        return []
    pool = []
    for rotations, outcome in rings.outcomes(state, dice):
        candidate = _Candidate(ctx, mover, rotations, outcome)
        if candidate.exposed:
            candidate.settled = candidate.bound = _settled(ctx, outcome.state, mover, entry)
        else:
            candidate.terms = _breakdown(ctx, outcome.state, mover, entry=entry)
            candidate.bound = candidate.terms.total
        pool.append(candidate)
    # Ties go in rotation order: each set's place in it, so that the heap compares numbers.
    for place, candidate in enumerate(sorted(pool, key=lambda c: c.key)):
        candidate.place = place
    if limit is not None:
        pool.sort(key=_Candidate.order)
        del pool[limit:]
    heap = [(-candidate.bound, candidate.place, candidate) for candidate in pool]
    heapq.heapify(heap)
    found: list[Scored] = []
    while heap and len(found) < count:
        if deadline is not None and deadline.passed():
            break
        candidate = heap[0][2]
        if candidate.terms is not None:
            heapq.heappop(heap)
            found.append((candidate.bound, candidate.rotations, candidate.outcome, candidate.terms))
            continue
        # Refine it while it stays ahead of the next best bound (the better of the heap
        # top's two children), then put it back in one sift.
        rival, rival_place, _ = min(heap[1:3]) if len(heap) > 1 else (math.inf, 0, None)
        _refine(candidate, rival, rival_place)
        if candidate.exhausted:
            candidate.terms = _breakdown(ctx, candidate.outcome.state, mover, entry=entry)
            candidate.bound = candidate.terms.total
        heapq.heapreplace(heap, (-candidate.bound, candidate.place, candidate))
    while heap and len(found) < count:  # past the deadline: the best-bounded sets
        _, _, candidate = heapq.heappop(heap)
        terms = candidate.terms or _breakdown(ctx, candidate.outcome.state, mover, entry=entry)
        found.append((terms.total, candidate.rotations, candidate.outcome, terms))
    found.sort(key=lambda item: (-item[0], _rotation_key(item[1])))
    return found


def rank(state: State, dice: Mapping[str, int]) -> list[Option]:
    """Return every legal rotation set of the roll, ranked for the seat to move, best first.

    Each :class:`Option` carries the engine's outcome, the evaluation of the position after
    it (``score`` = ``breakdown.total``) and a line of text. Ties keep the order of the
    rotation tuples, so the ranking is the same on every call. Empty once the game is over.

    :raises RecordError: for dice without exactly the five colours.
    :raises IllegalAction: for a die value that is not one of the board's faces.
    """
    with _without_pauses():
        return _options(state, _scored(_Context(state.board), state, dice))


def _options(
    state: State, scored: list[tuple[float, tuple[Rotation, ...], Outcome, Breakdown]]
) -> list[Option]:
    """Return the :class:`Option` of each evaluated set, in the given order."""
    mover = state.to_move
    options = []
    for score, rotations, outcome, terms in scored:
        assert mover is not None
        does = outcome_phrase(state, outcome)
        options.append(
            Option(
                rotations=rotations,
                outcome=outcome,
                score=score,
                breakdown=terms,
                text=f"{rotations_text(state, rotations)}: {does.english()}",
                points=outcome.state.scores[mover] - state.scores[mover],
                does=does,
            )
        )
    return options


def advise(
    state: State,
    dice: Mapping[str, int],
    top: int = 3,
    *,
    deadline_s: float | None = DEADLINE_S,
    clock: Callable[[], float] = time.monotonic,
) -> list[Option]:
    """Return the ``top`` best options of :func:`rank` (the panel shows three).

    The same options as ``rank(state, dice)[:top]``, found with fewer evaluations: sets are
    refined in the order of a bound on their worth, until no other set can enter the first
    ``top`` (see :func:`_best`). Should that take longer than ``deadline_s`` seconds on
    ``clock``, the options found by then are given, the rest of the ``top`` the sets of the
    best bounds, in the order of their evaluations (``None``: no deadline).

    :raises RecordError: when ``top`` is not positive.
    :raises RecordError: for dice without exactly the five colours.
    :raises IllegalAction: for a die value that is not one of the board's faces.
    """
    if top < 1:
        raise RecordError(f"top: expected at least 1 option, got {top}")
    deadline = _Deadline(deadline_s, clock)
    with _without_pauses():
        found = _best(_Context(state.board), state, dice, top, deadline=deadline)
    return _options(state, found)


# --------------------------------------------------------------------------------------------
# Computer seats


class _Mover:
    """The seat to move in a state, playing rolls for its best immediate gain.

    A small copy of the advance and entry rules (section 3.3-3.4) that only counts what a
    set gains the mover -- points, rings advanced, pegs entered, the progress of sniped
    pegs -- without building states or events. :meth:`gain` plays one set; :meth:`best`
    plays every set of a roll at once. Tests keep ``gain``'s points equal to the engine's,
    and ``best``'s answer equal to the greatest ``gain``. It ignores that a win stops the
    turn (it counts the win instead).
    """

    def __init__(self, ctx: _Context, state: State) -> None:
        mover = state.to_move
        assert mover is not None
        self.state = state
        self.mover = mover
        self.spokes = ctx.spokes
        self.tables = ctx.tables
        spokes = ctx.spokes
        # (ring, slot, cell key), innermost first (the order in which pegs advance).
        self.mine = sorted(
            ((ring, slot, ring * spokes + slot) for who, ring, slot in state.pegs if who == mover),
            reverse=True,
        )
        self.bases = _waiting_bases(ctx, state, mover)
        self.to_win = rings.WINNING_SCORE - state.scores[mover]
        self.locked = rings.locked_rings(state)

    def gain(self, offsets: Sequence[int]) -> tuple[int, float]:
        """Return ``(points, worth)`` the mover gains if the rings end the turn at ``offsets``.

        ``points`` counts every snipe and entry into Central Control, also past a win. The
        players search with :meth:`best`; this plain count of one set is the reference that
        the tests hold both the engine and ``best`` to.
        """
        spokes = self.spokes
        black = self.tables.black
        entrances = self.tables.entrances
        mover = self.mover
        worth = PEG_WORTH
        occupied = {ring * spokes + slot: who for who, ring, slot in self.state.pegs}
        points = steps = 0
        taken = 0.0  # the progress of sniped pegs, less that of the mover's pegs entering
        for start, slot, start_key in self.mine:
            ring, key = start, start_key
            spoke = (slot + offsets[ring]) % spokes
            while ring < INNER:
                step = ring + 1
                cell = (spoke - offsets[step]) % spokes
                if not black[step] >> cell & 1:
                    break
                target = step * spokes + cell
                other = occupied.get(target)
                if other == mover:
                    break
                del occupied[key]
                occupied[target] = mover
                key = target
                ring = step
                steps += 1
                if other is not None:
                    points += 1
                    taken += worth[step]
            else:
                if entrances >> spoke & 1:
                    del occupied[key]
                    points += 1
                    taken -= worth[INNER]
        for spoke in self.bases:
            slot = (spoke - offsets[0]) % spokes
            if not black[0] >> slot & 1:
                continue
            other = occupied.get(slot)
            if other == mover:
                continue
            occupied[slot] = mover
            taken += worth[0]
            if other is not None:
                points += 1
                taken += worth[0]
        # PEG_WORTH grows by PROGRESS a ring, so each ring stepped inward is worth PROGRESS.
        gain = PROGRESS * steps + taken + POINT * points
        if points >= self.to_win:
            gain += WIN
        return points, gain

    def best(self, dice: Mapping[str, int]) -> tuple[tuple[Rotation, ...], float]:
        """Return the legal set of the roll with the greatest gain (first of equals), and it.

        Turns of rings that cannot matter to the mover (outward of all its pegs, and ring 0
        when it has nobody waiting) all gain the same, so one of them stands for the rest.

        Every set is played at once: bit ``i`` of a Python integer stands for the ``i``-th
        set (in ``itertools.product`` order over the colours' choices), so one ``&`` or
        ``|`` asks a question of all of them. Each cell's occupants are such masks, in the
        spokes' frame (a peg keeps its spoke while it advances), and each set's gain is
        counted in ``PROGRESS`` units on bit planes (:func:`_add_units`), so the greatest is
        found exactly, plane by plane. It plays :meth:`gain`'s rules, in its order.
        """
        choices = self._choices(dice)
        total = 1
        for options in choices:
            total *= len(options)
        every = (1 << total) - 1
        at = _offsets_by_set(self.state.offsets, choices, total, every)
        own, other = self._occupants(at)
        black_at = _black_cells(self.tables.black, at, self.spokes)
        units: list[int] = []  # each set's gain in PROGRESS units, bit planes (lowest first)
        points: list[int] = []  # each set's points, likewise
        self._advance(at, own, other, black_at, units, points)
        self._enter(own, other, black_at, units, points)
        winning = _at_least(points, self.to_win, every)
        chosen = winning or every
        for plane in reversed(units):
            if chosen & plane:
                chosen &= plane
        index = (chosen & -chosen).bit_length() - 1
        gain = PROGRESS * sum(1 << bit for bit, plane in enumerate(units) if plane >> index & 1)
        if winning:
            gain += WIN
        combo = []
        stride = total
        for options in choices:
            stride //= len(options)
            combo.append(options[index // stride % len(options)])
        rotations = tuple(sorted((Rotation(r, s) for r, s, _ in combo), key=lambda r: r.ring))
        return rotations, gain

    def _choices(self, dice: Mapping[str, int]) -> list[list[tuple[int, int, int]]]:
        """Per colour that turns a ring: its choices as (ring, steps, the ring's new offset)."""
        tables = self.tables
        spokes = self.spokes
        start = self.state.offsets
        lowest = min((ring for ring, _, _ in self.mine), default=rings.RINGS)
        waiting = bool(self.bases)

        def matters(ring: int) -> bool:
            return ring >= lowest or (ring == 0 and waiting)

        choices: list[list[tuple[int, int, int]]] = []
        for colour in COLOURS:
            value = dice[colour]
            free = [r for r in tables.colour_rings[colour] if r not in self.locked]
            if value and free:
                turns = [(r, s) for r in free if matters(r) for s in (value, -value)]
                idle = [r for r in free if not matters(r)]
                if idle:
                    turns.append((idle[0], value))
                choices.append([(r, s, (start[r] + s) % spokes) for r, s in turns])
        return choices

    def _occupants(self, at: list[dict[int, int]]) -> tuple[dict[int, int], dict[int, int]]:
        """Per cell (ring * spokes + spoke): the sets in which the mover's pegs, or others',
        sit there."""
        spokes = self.spokes
        own: dict[int, int] = {}
        other: dict[int, int] = {}
        for who, ring, slot in self.state.pegs:
            cells = own if who == self.mover else other
            for offset, sets in at[ring].items():
                cell = ring * spokes + (slot + offset) % spokes
                cells[cell] = cells.get(cell, 0) | sets
        return own, other

    def _advance(  # noqa: PLR0917
        self,
        at: list[dict[int, int]],
        own: dict[int, int],
        other: dict[int, int],
        black_at: Callable[[int, int], int],
        units: list[int],
        points: list[int],
    ) -> None:
        """Advance the mover's pegs on the board in every set, counting gains and points."""
        spokes = self.spokes
        entrances = self.tables.entrances
        for begin, slot, _ in self.mine:
            for offset, there in at[begin].items():
                moving = there  # the sets in which this peg is still advancing
                spoke = (slot + offset) % spokes
                ring = begin
                while ring < INNER:
                    step = ring + 1
                    cell = step * spokes + spoke
                    moving &= black_at(step, spoke) & ~own.get(cell, 0)
                    if not moving:
                        break
                    own[ring * spokes + spoke] &= ~moving
                    own[cell] = own.get(cell, 0) | moving
                    _add_units(units, moving, 1)
                    sniped = moving & other.get(cell, 0)
                    if sniped:
                        other[cell] &= ~sniped
                        _add_units(units, sniped, _POINT_UNITS + step + 1)
                        _add_units(points, sniped, 1)
                    ring = step
                else:
                    if entrances >> spoke & 1:
                        own[INNER * spokes + spoke] &= ~moving
                        _add_units(units, moving, _POINT_UNITS - (INNER + 1))
                        _add_units(points, moving, 1)

    def _enter(
        self,
        own: dict[int, int],
        other: dict[int, int],
        black_at: Callable[[int, int], int],
        units: list[int],
        points: list[int],
    ) -> None:
        """Enter the mover's waiting pegs from its bases in every set (after the advances)."""
        for spoke in self.bases:
            entering = black_at(0, spoke) & ~own.get(spoke, 0)
            if not entering:
                continue
            own[spoke] = own.get(spoke, 0) | entering
            _add_units(units, entering, 1)
            sniped = entering & other.get(spoke, 0)
            if sniped:
                other[spoke] &= ~sniped
                _add_units(units, sniped, _POINT_UNITS + 1)
                _add_units(points, sniped, 1)


def _offsets_by_set(
    start: Sequence[int], choices: list[list[tuple[int, int, int]]], total: int, every: int
) -> list[dict[int, int]]:
    """Per ring, its offset after each set: {offset: the sets that leave it there}."""
    at = [{start[ring]: every} for ring in range(rings.RINGS)]
    stride = total
    for options in choices:
        stride //= len(options)
        period = stride * len(options)
        repeat = every // ((1 << period) - 1)  # a bit at the start of every period
        for index, (ring, _, offset) in enumerate(options):
            sets = (((1 << stride) - 1) << (index * stride)) * repeat
            here = at[ring]
            here[start[ring]] &= ~sets
            here[offset] = here.get(offset, 0) | sets
    for here in at:
        for offset in [offset for offset, sets in here.items() if not sets]:
            del here[offset]
    return at


def _black_cells(
    black: Sequence[int], at: list[dict[int, int]], spokes: int
) -> Callable[[int, int], int]:
    """Return ``black_at(ring, spoke)``: the sets that leave a black cell of ``ring`` on
    ``spoke`` (each answer kept)."""
    opens: dict[int, int] = {}

    def black_at(ring: int, spoke: int) -> int:
        key = ring * spokes + spoke
        found = opens.get(key)
        if found is None:
            found = 0
            for offset, sets in at[ring].items():
                if black[ring] >> ((spoke - offset) % spokes) & 1:
                    found |= sets
            opens[key] = found
        return found

    return black_at


_POINT_UNITS = round(POINT / PROGRESS)
"""A point in ``PROGRESS`` units (the reply search counts in them, exactly)."""


def _add_units(planes: list[int], sets: int, units: int) -> None:
    """Add ``units`` to the count of every set in ``sets``; counts are bit planes, lowest first.

    Plane ``k`` holds bit ``k`` of every set's count: adding is a ripple of carries.
    """
    bit = 0
    while units:
        if units & 1:
            planes.extend([0] * (bit - len(planes)))
            carry = sets
            at = bit
            while carry:
                if at == len(planes):
                    planes.append(carry)
                    break
                plane = planes[at]
                planes[at] = plane ^ carry
                carry &= plane
                at += 1
        units >>= 1
        bit += 1


def _at_least(planes: list[int], least: int, every: int) -> int:
    """Return the sets (within ``every``) whose count on ``planes`` is at least ``least``."""
    greater = 0
    equal = every
    for bit in range(max(len(planes), least.bit_length()) - 1, -1, -1):
        plane = planes[bit] if bit < len(planes) else 0
        if least >> bit & 1:
            equal &= plane
        else:
            greater |= equal & plane
            equal &= ~plane
    return greater | equal


def _replies(
    ctx: _Context,
    state: State,
    ranked: list[Scored],
    rng: random.Random,
    deadline: _Deadline,
) -> tuple[Rotation, ...]:
    """Pick among the best-ranked candidates by playing the next round on sampled rolls.

    For each sample the seats that move before this seat's next turn each play a sampled roll,
    then this seat plays one of its own; every seat takes its best immediate gain
    (:class:`_Mover`: points, rings advanced, entries, snipes). ``HARD_ROLLS`` samples, divided
    by the number of seats that reply (at least 2), the same for every candidate. A candidate's
    value is the mean evaluation, for this seat, of the positions the samples end in (without
    the turn-ahead terms: the turns are played, not estimated; entries weighed
    ``HARD_ENTRY``). A winning set, ranked first, is taken at once. Past the ``deadline``,
    the best candidate played out so far is taken (the first, when none is). Someone else
    must move next: :func:`choose` plays ``solo`` as medium and never comes here.
    """
    me = state.to_move
    assert me is not None
    first = ranked[0]
    if first[2].state.winner == me or len(ranked) == 1:
        return first[1]
    between = _seats_before(first[2].state, me)
    assert between, "solo is played as medium"
    samples = max(2, HARD_ROLLS // len(between))
    board = state.board
    rounds = [[rings.roll(rng, board) for _ in range(len(between) + 1)] for _ in range(samples)]
    best_value = float("-inf")
    best = first[1]
    # A winning set would rank first (the win outweighs every other term), so no candidate
    # here ends the game.
    for _, rotations, outcome, _ in ranked:
        if deadline.passed():
            break
        value = 0.0
        for sequence in rounds:
            position = outcome.state
            for dice in sequence:
                if position.over:
                    break
                reply, _ = _Mover(ctx, position).best(dice)
                position = rings.apply(position, rings.Turn(dice, reply))
            value += _breakdown(ctx, position, me, ahead=False, entry=HARD_ENTRY).total
        if value > best_value:
            best_value = value
            best = rotations
    return best


def choose(
    state: State,
    dice: Mapping[str, int],
    level: Level,
    rng: random.Random,
    *,
    deadline_s: float | None = DEADLINE_S,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Rotation, ...]:
    """Return the rotation set a computer seat at ``level`` plays for this roll.

    ``easy``: a legal set chosen uniformly at random. ``medium``: the best set of
    :func:`rank`. ``hard``: of the ``HARD_CANDIDATES`` best sets by its own evaluation (the
    ranking's, with a sure entry worth ``HARD_ENTRY``; at most ``HARD_EVALUATIONS`` sets get
    the full evaluation), the one whose positions after ``HARD_ROLLS`` sampled rounds (the
    next seats' replies, then its own next turn) are worth most on average (see
    :func:`_replies`). Every variant works (``solo`` too, where nobody replies and hard plays
    as medium: the points and progress each roll allows). Medium and hard search for at
    most ``deadline_s`` seconds on ``clock`` (``None``: no deadline); past it, the best
    option found so far is played (see :func:`_best` and :func:`_replies`).

    :raises RecordError: for an unknown level.
    :raises IllegalAction: when the game is over, or for a die value the board lacks.
    :raises RecordError: for dice without exactly the five colours.
    """
    if level not in LEVELS:
        raise RecordError(f"level: expected one of {', '.join(LEVELS)}, got {level!r}")
    if state.to_move is None:
        raise IllegalAction("the game is over")
    if level == "easy":
        return rng.choice(rings.legal_rotation_sets(state, dice))
    ctx = _Context(state.board)
    deadline = _Deadline(deadline_s, clock)
    with _without_pauses():
        if level == "medium" or len(state.seats) == 1:
            return _best(ctx, state, dice, 1, deadline=deadline)[0][1]
        ranked = _best(
            ctx, state, dice, HARD_CANDIDATES, HARD_EVALUATIONS, entry=HARD_ENTRY, deadline=deadline
        )
        return _replies(ctx, state, ranked, rng, deadline)

"""The snipe chance, worked out faster (issue 23): exactly the numbers it gave before.

The snipe chance before issue 23 is kept here as the reference: per spoke the sniper can
reach, the turns of each ring that open the way (a dict and a closure per call), then per die
value the union of the spokes by inclusion and exclusion over tuples of per-colour masks. The
new one packs the four other colours' values into one int; every answer must be the same
float, bit for bit, since the search's evaluations are compared with ``==``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

import pytest

from companion.games import rings
from companion.games.rings import COLOURS, INNER
from companion.players import rings as players
from tests.games.rings_helpers import board_json
from tests.players.test_rings_search import _case


class _OldCache:
    """The old search's caches (they lived on the context and the dice)."""

    def __init__(self, ctx: players._Context) -> None:
        self.ctx = ctx
        self.paths: dict[tuple[object, ...], dict[int, tuple[int, ...]]] = {}
        self.unions: dict[tuple[object, ...], float] = {}

    def ring_turns(self, ring: int, free: int, residue: int) -> int:
        found = 0
        for index, delta in enumerate(self.ctx.dice.deltas):
            if free >> ((residue - delta) % self.ctx.spokes) & 1:
                found |= 1 << index
        return found


def _old_sniper_paths(
    old: _OldCache, offsets: Sequence[int], blockers: Sequence[int], sniper: tuple[int, int]
) -> dict[int, tuple[int, ...]]:
    ctx = old.ctx
    low, low_spoke = sniper
    key = (-2, low, low_spoke, tuple(offsets[low + 1 :]), tuple(blockers[low + 1 :]))
    found = old.paths.get(key)
    if found is not None:
        return found
    spokes = ctx.spokes
    black = ctx.tables.black
    found = {}
    for delta in ctx.dice.deltas:
        spoke = (low_spoke + delta) % spokes
        if spoke in found:
            continue
        masks = []
        for ring in range(low + 1, INNER + 1):
            free = black[ring] & ~blockers[ring]
            mask = old.ring_turns(ring, free, (spoke - offsets[ring]) % spokes)
            if not mask:
                break
            masks.append(mask)
        found[spoke] = tuple(masks)
    old.paths[key] = found
    return found


def _old_passable(
    dice: players._Dice,
    spokes: int,
    paths: Mapping[int, Sequence[int]],
    low: int,
    target: tuple[int, int],
) -> Callable[[int, int], int]:
    high, high_spoke = target

    def passable(ring: int, spoke: int) -> int:
        if ring <= low or ring > high:
            return dice.every
        if ring == high:
            return dice.reaching[(spoke - high_spoke) % spokes]
        return paths[spoke][ring - low - 1]

    return passable


def _old_union_chance(old: _OldCache, candidates: Sequence[Sequence[int]], colours: int) -> float:
    dice = old.ctx.dice
    key = (tuple(tuple(c) for c in candidates), colours)
    found = old.unions.get(key)
    if found is not None:
        return found
    union = 0.0
    for subset in range(1, 1 << len(candidates)):
        chosen = [c for j, c in enumerate(candidates) if subset >> j & 1]
        joint = 1.0
        for colour in range(colours):
            values = dice.all_values
            for masks in chosen:
                values &= masks[colour]
            joint *= dice.weight(values)
            if joint == 0.0:
                break
        union += joint if len(chosen) % 2 else -joint
    old.unions[key] = union
    return union


def _old_snipe_chance(
    old: _OldCache,
    offsets: Sequence[int],
    blockers: Sequence[int],
    sniper: tuple[int, int],
    target: tuple[int, int],
) -> float:
    """The snipe chance of issue 10, as it was (without its own cache)."""
    ctx = old.ctx
    low, low_spoke = sniper
    high, _ = target
    tables = ctx.tables
    spokes = ctx.spokes
    dice = ctx.dice
    between = high - low - 1
    paths = _old_sniper_paths(old, offsets, blockers, sniper)
    passable = _old_passable(dice, spokes, paths, low, target)
    centre = high == rings.RINGS
    entrances = tables.entrances
    own_colour = tables.ring_colour[low]
    pair = tables.colour_rings[own_colour]
    partner = pair[1] if pair[0] == low else pair[0]
    others = [tables.colour_rings[c] for c in COLOURS if c != own_colour]
    allowed: dict[int, tuple[int, ...]] = {}
    for spoke, masks in paths.items():
        if len(masks) < between or (centre and not entrances >> spoke & 1):
            allowed[spoke] = ()
            continue
        allowed[spoke] = tuple(
            dice.allowed(passable(first, spoke), passable(second, spoke))
            for first, second in others
        )
    total = 0.0
    for value in dice.values:
        here: set[int] = set()
        if value == 0:
            if allowed[low_spoke] and passable(partner, low_spoke) & 1:
                here.add(low_spoke)
        else:
            for delta in (value, -value):
                spoke = (low_spoke + delta) % spokes
                if allowed[spoke] and passable(partner, spoke) & 1:
                    here.add(spoke)
            if allowed[low_spoke] and passable(partner, low_spoke) & dice.both[value]:
                here.add(low_spoke)
        candidates = [allowed[spoke] for spoke in sorted(here)]
        total += dice.chance[value] * _old_union_chance(old, candidates, len(others))
    return total


def _pairs(
    state: rings.State,
) -> list[tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]]:
    """Every (blockers, sniper, target) the evaluation asks about in ``state``: each seat's
    pegs against every other seat's pegs inward of them, and against Central Control."""
    spokes = state.board.spokes
    found = []
    for mover in range(len(state.seats)):
        masks = [0] * rings.RINGS
        for who, ring, slot in state.pegs:
            if who == mover:
                masks[ring] |= 1 << slot
        blockers = tuple(masks)
        for who, low, slot in state.pegs:
            if who != mover:
                continue
            sniper = (low, state.spoke(low, slot))
            found.append((blockers, sniper, (rings.RINGS, -1)))
            for other, high, victim in state.pegs:
                if other != mover and high > low:
                    target = (high, (victim + state.offsets[high]) % spokes)
                    found.append((blockers, sniper, target))
    return found


@pytest.mark.parametrize("seed", range(40))
def test_every_snipe_chance_is_the_old_number_bit_for_bit(seed: int) -> None:
    state, rolled = _case(seed)
    ctx = players._Context(state.board)
    old = _OldCache(ctx)
    asked = 0
    # The position itself and, for a 4-seat game's crowd, the positions after a few sets.
    outcomes = rings.outcomes(state, rolled)
    sample = random.Random(seed).sample(outcomes, min(8, len(outcomes)))
    for after in [state, *(outcome.state for _, outcome in sample)]:
        for blockers, sniper, target in _pairs(after):
            new = players._snipe_chance(ctx, after.offsets, blockers, sniper, target)
            assert new == _old_snipe_chance(old, after.offsets, blockers, sniper, target)
            asked += 1
    assert asked > 20


def test_a_die_of_half_a_turn_reaches_one_spoke_both_ways() -> None:
    # 8 spokes, faces 0 and 4 (chance 1/2 each), every cell black. The sniper sits on ring 0
    # (red) at spoke 0, the target on ring 1 (blue) at spoke 4: +4 and -4 end on one spoke.
    # They meet when red shows 4 and ring 0 turns, or blue shows 4 and ring 1 turns (not
    # both): the chance is 1 - 1/2 * 1/2 = 3/4.
    board = rings.parse_board(board_json(dice=[0, 4]))
    ctx = players._Context(board)
    offsets = (0,) * rings.RINGS
    blockers = (0,) * rings.RINGS
    chance = players._snipe_chance(ctx, offsets, blockers, (0, 0), (1, 4))
    assert chance == pytest.approx(0.75)
    assert chance == _old_snipe_chance(_OldCache(ctx), offsets, blockers, (0, 0), (1, 4))

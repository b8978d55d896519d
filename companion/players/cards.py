"""A computer seat for Lookout's card game (issue 11): easy and hard, from the seat's view only.

The one entry point is :func:`decide`. It receives a :class:`SeatView` -- built by
:func:`view_of` (or :func:`view_of_game`, which also remembers what the other seat claimed
into its cup) from the state and the seat -- and never the :class:`State` itself, so it
cannot look at the other hand, the other cup's starting cards or the deck order.

- ``easy``: one ply of lookahead on a hand-written evaluation (cup scores, who would choose
  first in each mandala and what its mountain is worth to each seat, cards kept in hand);
  claims are greedy.
- ``hard``: single-observer information-set Monte Carlo tree search. Each iteration deals
  the unseen cards at random (the other hand, the other cup's unseen part and the deck
  order, from the multiset the view leaves unaccounted for), walks the shared tree with UCB
  over the actions legal in that deal, and plays the game out with a cheap rollout policy.
  The most visited action at the root is chosen. It stops at ``budget_ms`` of wall time or,
  when ``iterations`` is given, after exactly that many iterations (deterministic for a given
  ``random.Random`` seed: the tests and the strength benchmark use that).

Search runs on a small mutable copy of the rules (``_Sim``), kept equal to the engine's by a
test that plays the same random games through both.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.games.base import IllegalAction, RecordError
from companion.games.cards.model import (
    COLOURS,
    PER_COLOUR,
    Action,
    Cards,
    Claim,
    Claiming,
    Discard,
    FieldPlay,
    MountainPlay,
    State,
)
from companion.games.cards.rules import acting_seat, apply

Level = Literal["easy", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "hard")

DEFAULT_BUDGET_MS = 200
"""Wall-time budget of one hard decision (the config may set another). The search stops at
the first iteration past it, so a decision takes the budget plus a few milliseconds
(``bench/cards_ai.py`` measures it): under the 300 ms the issue allows."""

_N = len(COLOURS)
_HAND_LIMIT = 8
_MOUNTAIN_DRAW = 3
_RIVER_SPACES = 6
_UCB_C = 0.7
_ZERO: Cards = (0,) * _N
_HAND_WEIGHT = 0.3
_ROLLOUT_PLIES = 8
"""Rollout length before the evaluation stands in for the rest of the game."""
_EDGE_SCALE = 4.0
"""Points of evaluated edge that turn a coin flip into a 73% chance (logistic scale)."""


# ---------------------------------------------------------------------------------------
# The seat's view


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know: what a computer player decides from.

    Public to both seats: the mountains, the fields (``fields[m][s]``), the rivers, the
    discard pile's colours (face up at a real table, cards.md section 10), the counts, whose
    action it is and any destruction under way. Private to ``seat``: its ``hand`` and
    ``cup``. ``other_cup_seen`` is the part of the other cup this seat watched arrive (its
    claims); the rest of the other cup (its two starting cards at least) is unseen.
    """

    seats: tuple[str, str]
    seat: int
    hand: Cards
    cup: Cards
    other_cup_seen: Cards
    other_hand_size: int
    other_cup_size: int
    deck_size: int
    mountains: tuple[Cards, Cards]
    fields: tuple[tuple[Cards, Cards], tuple[Cards, Cards]]
    rivers: tuple[tuple[str, ...], tuple[str, ...]]
    discard: Cards
    to_act: int | None
    """The seat whose action is next (a claim included); None once the game is over."""
    claiming: Claiming | None
    end_triggered: bool
    over: bool

    @property
    def other(self) -> int:
        """The other seat."""
        return 1 - self.seat

    def unseen(self) -> Cards:
        """The cards this seat cannot place: other hand, other cup's unseen part and deck."""
        known = [0] * _N
        for group in (
            self.hand,
            self.cup,
            self.other_cup_seen,
            self.discard,
            *self.mountains,
            *self.fields[0],
            *self.fields[1],
        ):
            for i, n in enumerate(group):
                known[i] += n
        for river in self.rivers:
            for colour in river:
                known[COLOURS.index(colour)] += 1
        return tuple(PER_COLOUR - k for k in known)

    def legal(self) -> list[Action]:
        """The actions this seat may take now (empty when it is not its action).

        The same list as the engine's ``legal_actions`` on the real state: it depends only
        on the seat's own hand and the public areas.
        """
        if self.over or self.to_act != self.seat:
            return []
        return [_to_action(a) for a in _legal(_Sim.of_view(self))]


def view_of(state: State, seat: int, other_cup_seen: Cards | None = None) -> SeatView:
    """Build ``seat``'s view of a game played on the panel (mode ``play``).

    ``other_cup_seen``: the cards the seat watched the other claim into its cup (see
    :func:`observe`); None counts none seen, so the whole other cup is unseen.

    :raises IllegalAction: for a table-mode state (the engine there knows no hand to decide
        from).
    :raises RecordError: for a seat other than 0 and 1.
    """
    if state.mode != "play":
        raise IllegalAction("a computer seat plays only games played on the panel (mode 'play')")
    if seat not in (0, 1):
        raise RecordError(f"seat {seat!r}: expected 0 or 1")
    other = 1 - seat
    seen = _ZERO if other_cup_seen is None else other_cup_seen
    return SeatView(
        seats=state.seats,
        seat=seat,
        hand=state.hands[seat],
        cup=state.cups[seat],
        other_cup_seen=seen,
        other_hand_size=state.hand_size(other),
        other_cup_size=sum(state.cups[other]),
        deck_size=state.deck_size(),
        mountains=state.mountains,
        fields=state.fields,
        rivers=state.rivers,
        discard=state.discard,
        to_act=acting_seat(state),
        claiming=state.claiming,
        end_triggered=state.end_triggered,
        over=state.over,
    )


def observe(seen: Cards, before: State, action: Action, after: State, seat: int) -> Cards:
    """Add what ``seat`` watched the other seat claim into its cup during ``action``.

    Claims are public: the claimed colour and its count are on the table, and whether a
    card went to the river, the cup or the discard pile follows from the public rules.
    """
    other = 1 - seat
    if not isinstance(action, Claim) or before.seat != other:
        return seen
    gained = [a - b for a, b in zip(after.cups[other], before.cups[other], strict=True)]
    return tuple(s + g for s, g in zip(seen, gained, strict=True))


def view_of_game(start: State, actions: Sequence[Action], seat: int) -> SeatView:
    """Replay ``actions`` from ``start`` and return ``seat``'s view with its memory of claims.

    :raises IllegalAction: when an action does not apply (as :func:`apply` does).
    """
    state = start
    seen = _ZERO
    for action in actions:
        after = apply(state, action)
        seen = observe(seen, state, action, after, seat)
        state = after
    return view_of(state, seat, seen)


# ---------------------------------------------------------------------------------------
# Explanations


def explain(action: Action, view: SeatView | State | None = None) -> str:
    """Say in one line what ``action`` does, e.g. ``plays purple into mountain 1``.

    With a view (or state) before the action, a claim also says where its cards go.
    """
    if isinstance(action, MountainPlay):
        return f"plays {action.colour} into mountain {action.mandala}"
    if isinstance(action, FieldPlay):
        cards = action.colour if action.count == 1 else f"{action.count} {action.colour}"
        return f"plays {cards} into field {action.mandala}"
    if isinstance(action, Discard):
        cards = action.colour if action.count == 1 else f"{action.count} {action.colour}"
        return f"discards {cards}"
    if isinstance(action, Claim):
        where = _claim_destination(action, view)
        return f"claims {action.colour}" + (f" ({where})" if where else "")
    raise RecordError(f"{action!r}: not an action of a game played on the panel")


def _claim_destination(action: Claim, view: SeatView | State | None) -> str:
    if view is None or view.claiming is None:
        return ""
    m = view.claiming.mandala
    seat = view.to_act if isinstance(view, SeatView) else view.seat
    if seat is None:
        return ""
    index = COLOURS.index(action.colour)
    count = view.mountains[m][index]
    if count == 0:
        return ""
    river = view.rivers[seat]
    if sum(view.fields[m][seat]) == 0:
        return "to the discard pile"
    if action.colour not in river and len(river) < _RIVER_SPACES:
        space = f"river space {len(river) + 1}"
        return space if count == 1 else f"{space}, {count - 1} to the cup"
    return f"{count} to the cup"


# ---------------------------------------------------------------------------------------
# Deciding


def decide(
    view: SeatView,
    level: Level,
    rng: random.Random,
    budget_ms: int = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
) -> Action:
    """Choose the action of ``view.seat``: always one of ``view.legal()``.

    ``budget_ms`` bounds a hard decision's wall time; ``iterations`` (hard only) replaces it
    with a fixed number of search iterations, which makes the choice depend only on
    ``view`` and ``rng``. Easy ignores both.

    :raises IllegalAction: when it is not this seat's action.
    :raises RecordError: when ``level`` is unknown.
    """
    if level not in LEVELS:
        raise RecordError(f"level {level!r}: expected 'easy' or 'hard'")
    if view.over or view.to_act != view.seat:
        raise IllegalAction(f"it is not {view.seats[view.seat]}'s action")
    root = _Sim.of_view(view)
    legal = _legal(root)
    if len(legal) == 1:
        return _to_action(legal[0])
    if level == "easy":
        return _to_action(_easy_choice(root, legal, view, rng))
    return _to_action(_search(view, legal, rng, budget_ms, iterations))


# ---------------------------------------------------------------------------------------
# A small mutable copy of the rules for search.
# Actions are tuples (kind, mandala, colour index, count): kinds below; unused parts 0.

_MOUNTAIN, _FIELD, _DISCARD, _CLAIM = 0, 1, 2, 3
_Move = tuple[int, int, int, int]


def _to_action(move: _Move) -> Action:
    kind, m, c, n = move
    colour = COLOURS[c]
    if kind == _MOUNTAIN:
        return MountainPlay(m, colour)
    if kind == _FIELD:
        return FieldPlay(m, colour, n)
    if kind == _DISCARD:
        return Discard(colour, n)
    return Claim(colour)


class _Sim:
    """The rules of cards.md sections 3-5 on plain lists; the deck's top is its last card."""

    __slots__ = (
        "claim_m",
        "completer",
        "cups",
        "deck",
        "discard",
        "end_triggered",
        "fields",
        "hands",
        "mountains",
        "over",
        "rivers",
        "rng",
        "seat",
    )

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[0] * _N, [0] * _N]
        self.cups: list[list[int]] = [[0] * _N, [0] * _N]
        self.rivers: list[list[int]] = [[], []]
        self.mountains: list[list[int]] = [[0] * _N, [0] * _N]
        self.fields: list[list[list[int]]] = [[[0] * _N, [0] * _N], [[0] * _N, [0] * _N]]
        self.discard: list[int] = [0] * _N
        self.deck: list[int] = []
        self.seat = 0
        self.claim_m = -1
        self.completer = 0
        self.end_triggered = False
        self.over = False
        self.rng = random.Random(0)

    @classmethod
    def of_view(cls, view: SeatView) -> _Sim:
        """The view's public and own cards; the other hand, its cup's unseen part and the
        deck stay empty until :meth:`deal_unseen`."""
        sim = cls()
        sim.hands[view.seat] = list(view.hand)
        sim.cups[view.seat] = list(view.cup)
        sim.cups[view.other] = list(view.other_cup_seen)
        sim.rivers = [[COLOURS.index(c) for c in river] for river in view.rivers]
        sim.mountains = [list(m) for m in view.mountains]
        sim.fields = [[list(f) for f in pair] for pair in view.fields]
        sim.discard = list(view.discard)
        sim.seat = view.seat if view.to_act is None else view.to_act
        if view.claiming is not None:
            sim.claim_m = view.claiming.mandala
            sim.completer = view.claiming.completer
        sim.end_triggered = view.end_triggered
        sim.over = view.over
        return sim

    @classmethod
    def of_state(cls, state: State, rng: random.Random) -> _Sim:
        """Every card of a play state (for tests: the engine and the copy must agree)."""
        sim = cls()
        sim.hands = [list(h) for h in state.hands]
        sim.cups = [list(c) for c in state.cups]
        sim.rivers = [[COLOURS.index(c) for c in river] for river in state.rivers]
        sim.mountains = [list(m) for m in state.mountains]
        sim.fields = [[list(f) for f in pair] for pair in state.fields]
        sim.discard = list(state.discard)
        sim.deck = [COLOURS.index(c) for c in reversed(state.deck)]
        sim.seat = state.seat
        if state.claiming is not None:
            sim.claim_m = state.claiming.mandala
            sim.completer = state.claiming.completer
        sim.end_triggered = state.end_triggered
        sim.over = state.over
        sim.rng = rng
        return sim

    def deal_unseen(self, view: SeatView, rng: random.Random) -> None:
        """Deal the unseen cards at random: the other hand, its cup's rest, the deck order."""
        pool = [c for c, n in enumerate(view.unseen()) for _ in range(n)]
        rng.shuffle(pool)
        other = view.other
        hand_n = view.other_hand_size
        cup_n = view.other_cup_size - sum(view.other_cup_seen)
        hand = self.hands[other]
        for c in pool[:hand_n]:
            hand[c] += 1
        cup = self.cups[other]
        for c in pool[hand_n : hand_n + cup_n]:
            cup[c] += 1
        self.deck = pool[hand_n + cup_n :]
        self.rng = rng

    def copy(self) -> _Sim:
        sim = _Sim.__new__(_Sim)
        sim.hands = [self.hands[0][:], self.hands[1][:]]
        sim.cups = [self.cups[0][:], self.cups[1][:]]
        sim.rivers = [self.rivers[0][:], self.rivers[1][:]]
        sim.mountains = [self.mountains[0][:], self.mountains[1][:]]
        sim.fields = [
            [self.fields[0][0][:], self.fields[0][1][:]],
            [self.fields[1][0][:], self.fields[1][1][:]],
        ]
        sim.discard = self.discard[:]
        sim.deck = self.deck[:]
        sim.seat = self.seat
        sim.claim_m = self.claim_m
        sim.completer = self.completer
        sim.end_triggered = self.end_triggered
        sim.over = self.over
        sim.rng = self.rng
        return sim

    # -- the rules ---------------------------------------------------------------------

    def complete(self, m: int) -> bool:
        mountain, (f0, f1) = self.mountains[m], self.fields[m]
        return all(mountain[c] or f0[c] or f1[c] for c in range(_N))

    def draw(self, count: int) -> list[int]:
        drawn: list[int] = []
        deck = self.deck
        for _ in range(count):
            if not deck:
                pile = [c for c, n in enumerate(self.discard) for _ in range(n)]
                if not pile:
                    break
                self.rng.shuffle(pile)
                self.deck = deck = pile
                self.discard = [0] * _N
                self.end_triggered = True
            drawn.append(deck.pop())
        return drawn

    def draw_to_hand(self, seat: int, count: int) -> None:
        hand = self.hands[seat]
        for c in self.draw(count):
            hand[c] += 1

    def start_turn(self, seat: int) -> None:
        self.seat = seat
        if not any(self.hands[seat]):
            self.over = True

    def after_turn(self, m: int) -> None:
        mover = self.seat
        if m < 0 or not self.complete(m):
            self.start_turn(1 - mover)
            return
        s0, s1 = sum(self.fields[m][0]), sum(self.fields[m][1])
        if s0 == 0 and s1 == 0:
            mountain = self.mountains[m]
            for c in range(_N):
                self.discard[c] += mountain[c]
                mountain[c] = 0
            self.finish(m, mover)
            return
        self.claim_m = m
        self.completer = mover
        self.seat = 1 - mover if s0 == s1 else int(s1 > s0)

    def finish(self, m: int, completer: int) -> None:
        for field in self.fields[m]:
            for c in range(_N):
                self.discard[c] += field[c]
                field[c] = 0
        self.claim_m = -1
        if self.end_triggered or len(self.rivers[0]) == 6 or len(self.rivers[1]) == 6:
            self.over = True
            return
        mountain = self.mountains[m]
        for c in self.draw(2):
            mountain[c] += 1
        self.start_turn(1 - completer)

    def play(self, move: _Move) -> None:
        kind, m, c, n = move
        seat = self.seat
        hand = self.hands[seat]
        if kind == _CLAIM:
            m = self.claim_m
            mountain = self.mountains[m]
            count = mountain[c]
            mountain[c] = 0
            river = self.rivers[seat]
            if not any(self.fields[m][seat]):
                self.discard[c] += count
            elif c not in river and len(river) < _RIVER_SPACES:
                river.append(c)
                self.cups[seat][c] += count - 1
            else:
                self.cups[seat][c] += count
            if any(mountain):
                self.seat = 1 - seat
            else:
                self.finish(m, self.completer)
        elif kind == _MOUNTAIN:
            hand[c] -= 1
            self.mountains[m][c] += 1
            self.draw_to_hand(seat, min(_MOUNTAIN_DRAW, _HAND_LIMIT - sum(hand)))
            self.after_turn(m)
        elif kind == _FIELD:
            hand[c] -= n
            self.fields[m][seat][c] += n
            self.after_turn(m)
        else:
            hand[c] -= n
            self.discard[c] += n
            self.draw_to_hand(seat, n)
            self.after_turn(-1)

    def winner(self) -> int | None:
        """The winner of a finished game (section 6), None on a full tie."""
        a, b = _cup_value(self.rivers[0], self.cups[0]), _cup_value(self.rivers[1], self.cups[1])
        if a != b:
            return 0 if a > b else 1
        ca, cb = sum(self.cups[0]), sum(self.cups[1])
        if ca != cb:
            return 0 if ca < cb else 1
        return None


def _cup_value(river: list[int], cup: list[int]) -> int:
    return sum((i + 1) * cup[c] for i, c in enumerate(river))


def _legal(sim: _Sim) -> list[_Move]:
    """Every legal move, in the engine's order (so the two lists convert one to one)."""
    if sim.over:
        return []
    if sim.claim_m >= 0:
        mountain = sim.mountains[sim.claim_m]
        return [(_CLAIM, 0, c, 0) for c in range(_N) if mountain[c]]
    seat = sim.seat
    hand = sim.hands[seat]
    size = sum(hand)
    moves: list[_Move] = []
    for c in range(_N):
        held = hand[c]
        if not held:
            continue
        for m in (0, 1):
            f0, f1 = sim.fields[m]
            if not (f0[c] or f1[c]):
                moves.append((_MOUNTAIN, m, c, 0))
            if not (sim.mountains[m][c] or sim.fields[m][1 - seat][c]):
                moves.extend((_FIELD, m, c, n) for n in range(1, min(held, size - 1) + 1))
        moves.extend((_DISCARD, 0, c, n) for n in range(1, held + 1))
    return moves


# ---------------------------------------------------------------------------------------
# Evaluation and the easy player


def _claim_worth(river: list[int], c: int, count: int) -> float:
    """What claiming ``count`` cards of colour ``c`` is worth to a seat with a field there."""
    if c in river:
        return float(count * (river.index(c) + 1))
    if len(river) < _RIVER_SPACES:
        space = len(river) + 1
        # The river card scores nothing, but the space makes later cards of c score.
        return (count - 1) * space + 0.6 * space
    return 0.0


def _best_claim(sim: _Sim, moves: list[_Move]) -> _Move:
    """Greedy claim: the most valuable colour for the claimer, or if its field is empty
    (its cards go to the discard pile), the colour most valuable to the other seat."""
    seat = sim.seat
    m = sim.claim_m
    mountain = sim.mountains[m]
    taker = seat if any(sim.fields[m][seat]) else 1 - seat
    river = sim.rivers[taker]
    return max(moves, key=lambda mv: (_claim_worth(river, mv[2], mountain[mv[2]]), mountain[mv[2]]))


def _evaluate(sim: _Sim, seat: int) -> float:
    """How good the position looks for ``seat``: cup scores, each mandala's prize, hand."""
    if sim.claim_m >= 0:
        sim = sim.copy()
        while sim.claim_m >= 0 and not sim.over:
            sim.play(_best_claim(sim, _legal(sim)))
    other = 1 - seat
    value = float(_cup_value(sim.rivers[seat], sim.cups[seat]))
    value -= _cup_value(sim.rivers[other], sim.cups[other])
    for m in (0, 1):
        mine, theirs = sum(sim.fields[m][seat]), sum(sim.fields[m][other])
        if mine == 0 and theirs == 0:
            continue
        mountain = sim.mountains[m]
        worth_me = sum(_claim_worth(sim.rivers[seat], c, n) for c, n in enumerate(mountain) if n)
        worth_them = sum(_claim_worth(sim.rivers[other], c, n) for c, n in enumerate(mountain) if n)
        share = 1.0 if theirs == 0 else 0.0 if mine == 0 else 0.62 if mine > theirs else 0.38
        value += 0.5 * (share * worth_me - (1.0 - share) * worth_them)
    value += _HAND_WEIGHT * sum(sim.hands[seat])
    return value


def _easy_choice(root: _Sim, legal: list[_Move], view: SeatView, rng: random.Random) -> _Move:
    """One ply: each move on one random deal of the unseen cards, then :func:`_evaluate`."""
    if root.claim_m >= 0:
        return _best_claim(root, legal)
    dealt = root.copy()
    dealt.deal_unseen(view, rng)
    seat = view.seat
    best: list[_Move] = []
    best_value = -math.inf
    for move in legal:
        sim = dealt.copy()
        sim.rng = random.Random(0)
        sim.play(move)
        value = _evaluate(sim, seat)
        if move[0] == _DISCARD:
            value -= 0.5  # a discard only cycles cards: worth it only when nothing helps
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif value > best_value - 1e-9:
            best.append(move)
    return rng.choice(best)


# ---------------------------------------------------------------------------------------
# The hard player: single-observer ISMCTS


class _Node:
    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[_Move, _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 1


def _tree_moves(moves: list[_Move], sim: _Sim) -> list[_Move]:
    """The moves the tree distinguishes: counts of 1 and all-you-can for fields and discards
    (the counts in between rarely matter and would multiply the branching)."""
    if sim.claim_m >= 0:
        return moves
    hand = sim.hands[sim.seat]
    size = sum(hand)
    out: list[_Move] = []
    for move in moves:
        kind, _, c, n = move
        if kind == _FIELD and n not in (1, min(hand[c], size - 1)):
            continue
        if kind == _DISCARD and n not in (1, hand[c]):
            continue
        out.append(move)
    return out


def _rollout_move(sim: _Sim, rng: random.Random) -> _Move:
    """A cheap sensible move: greedy claims; on a turn, a colour from hand, then a play."""
    if sim.claim_m >= 0:
        return _best_claim(sim, _legal(sim))
    seat = sim.seat
    hand = sim.hands[seat]
    size = sum(hand)
    colours = [c for c in range(_N) if hand[c]]
    c = rng.choice(colours)
    held = hand[c]
    options: list[_Move] = []
    weights: list[float] = []
    for m in (0, 1):
        f0, f1 = sim.fields[m]
        if not (f0[c] or f1[c]):
            options.append((_MOUNTAIN, m, c, 0))
            weights.append(2.0 if any(sim.fields[m][seat]) else 1.0)
        if size > 1 and not (sim.mountains[m][c] or sim.fields[m][1 - seat][c]):
            options.append((_FIELD, m, c, min(held, size - 1)))
            weights.append(3.0)
    options.append((_DISCARD, 0, c, held))
    weights.append(0.3)
    return rng.choices(options, weights)[0]


def _rollout(sim: _Sim, rng: random.Random) -> float:
    """Play on for at most ``_ROLLOUT_PLIES`` moves; seat 0's chance of winning from there.

    A finished game gives 1, 0.5 or 0; an unfinished one squashes the evaluation."""
    for _ in range(_ROLLOUT_PLIES):
        if sim.over:
            won = sim.winner()
            return 0.5 if won is None else 1.0 - won
        sim.play(_rollout_move(sim, rng))
    if sim.over:
        won = sim.winner()
        return 0.5 if won is None else 1.0 - won
    edge = _evaluate(sim, 0) - _HAND_WEIGHT * sum(sim.hands[1])
    return 1.0 / (1.0 + math.exp(-edge / _EDGE_SCALE))


def _search(
    view: SeatView,
    legal: list[_Move],
    rng: random.Random,
    budget_ms: int,
    iterations: int | None,
) -> _Move:
    root_sim = _Sim.of_view(view)
    root = _Node()
    root_moves = _tree_moves(legal, root_sim)
    deadline = time.perf_counter() + budget_ms / 1000.0
    done = 0
    while True:
        if iterations is not None:
            if done >= iterations:
                break
        elif done and time.perf_counter() >= deadline:
            break
        done += 1
        sim = root_sim.copy()
        sim.deal_unseen(view, rng)
        node = root
        path: list[tuple[_Node, int]] = []
        while not sim.over:
            actor = sim.seat
            moves = root_moves if node is root else _tree_moves(_legal(sim), sim)
            children = node.children
            untried = [mv for mv in moves if mv not in children]
            if untried:
                move = rng.choice(untried)
                child = _Node()
                children[move] = child
                for mv in moves:
                    if mv != move and mv in children:
                        children[mv].avail += 1
                sim.play(move)
                path.append((child, actor))
                break
            best_score = -math.inf
            move = moves[0]
            for mv in moves:
                ch = children[mv]
                ch.avail += 1
                score = ch.wins / ch.visits + _UCB_C * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score, move = score, mv
            node = children[move]
            sim.play(move)
            path.append((node, actor))
        first = _rollout(sim, rng)
        for child, actor in path:
            child.visits += 1
            child.wins += first if actor == 0 else 1.0 - first
    best = max(
        root_moves,
        key=lambda mv: (
            root.children[mv].visits if mv in root.children else -1,
            root.children[mv].wins if mv in root.children else 0.0,
        ),
    )
    return best

"""Helpers for the card-game tests: hand-made decks and playing actions in record format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games import cards

COLOURS = ("red", "orange", "yellow", "green", "purple", "black")


def make_deck(
    m0: Sequence[str],
    m1: Sequence[str],
    ann: Sequence[str],
    bo: Sequence[str],
    ann_cup: Sequence[str] = ("purple", "purple"),
    bo_cup: Sequence[str] = ("black", "black"),
    draws: Sequence[str] = (),
) -> list[str]:
    """A 108-card deck: the deal of section 1, then ``draws``, then the rest colour by colour.

    The rest cycles red, orange, yellow, green, purple, black over the cards left.
    """
    top = [*m0, *m1, *ann, *bo, *ann_cup, *bo_cup, *draws]
    assert (len(m0), len(m1), len(ann), len(bo), len(ann_cup), len(bo_cup)) == (2, 2, 6, 6, 2, 2)
    left = {c: 18 - top.count(c) for c in COLOURS}
    assert all(n >= 0 for n in left.values()), left
    rest: list[str] = []
    while any(left.values()):
        for c in COLOURS:
            if left[c]:
                rest.append(c)
                left[c] -= 1
    return top + rest


def record(
    deck: Sequence[str], actions: Sequence[dict[str, Any]] = (), **extra: Any
) -> dict[str, Any]:
    """A play record for Ann and Bo."""
    return {
        "game": "cards",
        "seats": ["Ann", "Bo"],
        "deck": list(deck),
        **extra,
        "actions": list(actions),
    }


def play(state: cards.State, *actions: dict[str, Any]) -> cards.State:
    """Apply actions given in record format."""
    for obj in actions:
        state = cards.apply(state, cards.parse_action(state, obj))
    return state


def start(deck: Sequence[str], *actions: dict[str, Any], **extra: Any) -> cards.State:
    """A new play game from ``deck`` with ``actions`` applied."""
    return play(cards.new_game(record(deck, **extra)), *actions)


def table(*actions: dict[str, Any]) -> cards.State:
    """A new table-tracking game with ``actions`` (entries) applied."""
    state = cards.new_game({"game": "cards", "mode": "table", "seats": ["Ann", "Bo"]})
    return play(state, *actions)


def summary(state: cards.State) -> dict[str, Any]:
    return cards.summary(state)


def all_cards(state: cards.State) -> list[int]:
    """Per colour, every card the state knows of, wherever it is."""
    totals = [0] * 6
    places = [
        *state.hands,
        *state.cups,
        *state.mountains,
        *state.fields[0],
        *state.fields[1],
        state.discard,
        cards.cards_of(state.deck),
        cards.cards_of(state.rivers[0]),
        cards.cards_of(state.rivers[1]),
    ]
    for place in places:
        for i, n in enumerate(place):
            totals[i] += n
    return totals

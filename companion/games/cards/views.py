"""What each seat may see of a game played on the panel (interfaces.md, hidden information).

A seat sees its own hand, cup and cup score; the other seat's hand and cup only as counts
and its score as ``null`` until the game is over; the deck as a count. The shared view
(``seat`` None) shows counts only. Rivers, mountains, fields and the discard pile's size are
public. Once the game is over every card is shown. Tracking a real table hides nothing:
the engine knows only public cards there, so every view is the summary.
"""

from __future__ import annotations

from companion.games.base import JSON
from companion.games.cards.model import State, cards_to_json
from companion.games.cards.record import (
    KIND,
    action_to_json,
    claiming_to_json,
    due_to_json,
    mandalas_to_json,
    summary,
    to_move,
)
from companion.games.cards.rules import acting_seat, legal_actions, scores, winner


def seat_view(state: State, seat: int | None) -> dict[str, JSON]:
    """Return what ``seat`` (0 or 1; None for the shared view) may see, JSON-ready.

    Keys as the summary (section 8) plus ``seat`` (the viewer's name or None) and
    ``legal`` (the viewer's legal actions when it is to act, else an empty list). In
    ``hands`` and ``cups`` a seat's own entry is a colour count, another's a number of cards.
    """
    if state.mode == "table" or state.over:
        out = summary(state)
        out["seat"] = None if seat is None else state.seats[seat]
        out["legal"] = _legal(state, seat)
        return out
    values = scores(state)
    best = winner(state)
    hands: dict[str, JSON] = {}
    cups: dict[str, JSON] = {}
    score_view: dict[str, JSON] = {}
    for s, name in enumerate(state.seats):
        if s == seat:
            hands[name] = cards_to_json(state.hands[s])
            cups[name] = cards_to_json(state.cups[s])
            score_view[name] = values[s]
        else:
            hands[name] = state.hand_size(s)
            cups[name] = sum(state.cups[s])
            score_view[name] = None
    return {
        "game": KIND,
        "actions": state.actions,
        "to_move": to_move(state),
        "over": state.over,
        "winner": None if best is None else state.seats[best],
        "scores": score_view,
        "rivers": {name: list(state.rivers[s]) for s, name in enumerate(state.seats)},
        "cups": cups,
        "hands": hands,
        "mandalas": mandalas_to_json(state),
        "deck": state.deck_size(),
        "discard": sum(state.discard),
        "claiming": claiming_to_json(state),
        "mode": state.mode,
        "end_triggered": state.end_triggered,
        "due": due_to_json(state),
        "seat": None if seat is None else state.seats[seat],
        "legal": _legal(state, seat),
    }


def _legal(state: State, seat: int | None) -> list[JSON]:
    if seat is None or acting_seat(state) != seat:
        return []
    return [action_to_json(action) for action in legal_actions(state)]


def seat_view_for_decision(state: State, seat: int) -> dict[str, JSON]:
    """Return everything a computer player for ``seat`` may base its choice on.

    The same as :func:`seat_view` for that seat: no card of the other hand, the other cup
    or the deck order is inside; ``legal`` lists the actions to choose from.
    """
    return seat_view(state, seat)

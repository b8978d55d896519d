"""Lookout's 2019 two-player card game Mandala (cards.md): rules, records, views, sheets.

What lives here: ``model`` (colours, actions, the frozen :class:`State`), ``rules`` (setup,
``apply``, destruction, the end, scoring, legal actions, the undo rules), ``record`` (record,
summary and state JSON), ``views`` (what each seat may see) and ``sheet`` (``mandala
score``). Everything a caller needs is re-exported here; this module satisfies
:class:`companion.games.base.Engine`.

What must not: randomness other than the ``seed`` kept in the state, clocks, files, or any
knowledge of seat tokens (the table service decides who is asking; ``seat_view`` only
filters).
"""

from __future__ import annotations

from companion.games.cards.model import (
    COLOURS,
    DECK_SIZE,
    TABLE_START_DECK,
    Action,
    Cards,
    Claim,
    Claiming,
    CupEntry,
    Deal,
    Discard,
    Due,
    FieldPlay,
    MountainPlay,
    State,
    cards_of,
    cards_to_json,
)
from companion.games.cards.record import (
    KIND,
    action_to_json,
    export_record,
    export_setup,
    new_game,
    parse_action,
    state_from_json,
    state_to_json,
    summary,
)
from companion.games.cards.rules import (
    acting_seat,
    apply,
    can_undo,
    cup_score,
    is_over,
    legal_actions,
    scores,
    seeded_deck,
    undo_refusal,
    winner,
    winner_index,
)
from companion.games.cards.sheet import score_sheet
from companion.games.cards.views import seat_view, seat_view_for_decision

ACTIONS_KEY = "actions"
STEP_WORD = "action"

__all__ = [
    "ACTIONS_KEY",
    "COLOURS",
    "DECK_SIZE",
    "KIND",
    "STEP_WORD",
    "TABLE_START_DECK",
    "Action",
    "Cards",
    "Claim",
    "Claiming",
    "CupEntry",
    "Deal",
    "Discard",
    "Due",
    "FieldPlay",
    "MountainPlay",
    "State",
    "acting_seat",
    "action_to_json",
    "apply",
    "can_undo",
    "cards_of",
    "cards_to_json",
    "cup_score",
    "export_record",
    "export_setup",
    "is_over",
    "legal_actions",
    "new_game",
    "parse_action",
    "score_sheet",
    "scores",
    "seat_view",
    "seat_view_for_decision",
    "seeded_deck",
    "state_from_json",
    "state_to_json",
    "summary",
    "undo_refusal",
    "winner",
    "winner_index",
]

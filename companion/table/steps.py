"""A game's steps in memory: play one record step through its kind's adapter, or take it back.

The table journals a step only after :func:`play` accepted it, and calls :func:`unplay`
when the journal refuses it (nothing changes on a full disk) or for an undo.
"""

from __future__ import annotations

from companion.games.base import GAME_ERRORS, JSON, step_at
from companion.table.adapters import adapter
from companion.table.game import Game


def play(game: Game, obj: JSON) -> None:
    """Parse and apply one record step to ``game`` (in memory only), with its notes.

    :raises RecordError or IllegalAction: named ``<step> i: ...``.
    """
    number = len(game.actions) + 1
    engine = game.engine
    try:
        action = engine.parse_action(game.state, obj)
        new_state, notes = adapter(game.kind).play(engine, game.state, action)
    except GAME_ERRORS as error:
        raise error.at(step_at(engine.STEP_WORD, number)) from error
    game.actions.append(engine.action_to_json(action))
    game.states.append(new_state)
    game.notes.append(notes)


def unplay(game: Game) -> JSON:
    """Take back the last step (its state and notes); return it as the record has it."""
    game.states.pop()
    game.notes.pop()
    return game.actions.pop()

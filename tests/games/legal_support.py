"""The completeness check of an engine's legal actions, shared by the four engines' tests."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from companion.games.base import GAME_ERRORS


def accepts(apply: Callable[[Any, Any], object], state: object, action: object) -> bool:
    """Say whether ``apply`` takes ``action`` in ``state`` (a refusal is one of ``GAME_ERRORS``)."""
    try:
        apply(state, action)
    except GAME_ERRORS:
        return False
    return True


def check_legal_list_is_complete(
    apply: Callable[[Any, Any], object],
    state: object,
    legal: Sequence[Any],
    candidates: Iterable[Any],
    same: Callable[[Any], Hashable] = lambda action: action,
) -> None:
    """Check that ``legal`` is exactly what ``apply`` accepts among ``candidates``.

    Every listed action is accepted, none is listed twice, the candidates include every
    listed one (so they are not too few to mean anything), and every candidate accepted is
    listed. ``same`` maps an action to the form the list names it by (e.g. colours sorted).
    """
    names = [same(action) for action in legal]
    listed = set(names)
    assert len(listed) == len(names), "an action is listed twice"
    for action in legal:
        assert accepts(apply, state, action), f"listed but refused: {action}"
    pool = list(candidates)
    assert listed <= {same(c) for c in pool}, "the candidates miss a listed action"
    for action in pool:
        if accepts(apply, state, action):
            assert same(action) in listed, f"accepted but not listed: {action}"

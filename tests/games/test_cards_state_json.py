"""A stored card-game state is read back only within its bounds: every count, seat, mandala
and length one past its limit is refused with the key named, and the limits themselves are
accepted (cards.md section 10's state, as ``state_to_json`` writes it)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from companion.games import cards
from companion.games.base import RecordError
from tests.games.cards_support import table


def stored(**changes: Any) -> dict[str, Any]:
    """A table-mode state as JSON, with a destruction under way and an entry due set."""
    obj: dict[str, Any] = json.loads(json.dumps(cards.state_to_json(table())))
    obj["claiming"] = {"mandala": 0, "chooser": 0, "completer": 0}
    obj["due"] = {"kind": "deal", "index": 0, "setup": False}
    obj.update(changes)
    return obj


def with_value(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    obj = copy.deepcopy(stored())
    place: Any = obj
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return obj


def shown(path: tuple[str | int, ...]) -> str:
    text = str(path[0])
    for key in path[1:]:
        text += f"[{key}]" if isinstance(key, int) else f".{key}"
    return text


# (where, lowest, highest accepted); None: no upper bound
BOUNDS: list[tuple[tuple[str | int, ...], int, int | None]] = [
    (("deck_unseen",), 0, 108),
    (("reshuffled",), 0, None),
    (("actions",), 0, None),
    (("seat",), 0, 1),
    (("claiming", "mandala"), 0, 1),
    (("claiming", "chooser"), 0, 1),
    (("claiming", "completer"), 0, 1),
    (("due", "index"), 0, 1),
    *[
        ((key, i), 0, high)
        for key, high in (("hands_unseen", 108), ("cups_unseen", 2))
        for i in (0, 1)
    ],
    *[
        ((key, i, c), 0, 108)
        for key in ("hands", "cups", "mountains")
        for i in (0, 1)
        for c in (0, 5)
    ],
    *[(("fields", m, s, c), 0, 108) for m in (0, 1) for s in (0, 1) for c in (0, 5)],
    *[(("discard", c), 0, 108) for c in (0, 5)],
]


@pytest.mark.parametrize(("path", "low", "high"), BOUNDS, ids=[shown(p) for p, _, _ in BOUNDS])
def test_a_stored_count_is_read_within_its_bounds_and_refused_one_past_them(
    path: tuple[str | int, ...], low: int, high: int | None
) -> None:
    for accepted in (low, high if high is not None else 10**6):
        state = cards.state_from_json(with_value(path, accepted))
        again = cards.state_to_json(state)
        place: Any = again
        for key in path:
            place = place[key]
        assert place == accepted
    for refused in (low - 1, None if high is None else high + 1):
        if refused is None:
            continue
        with pytest.raises(RecordError, match="^" + re.escape(shown(path) + ":")):
            cards.state_from_json(with_value(path, refused))


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("hands", [[0] * 6], "hands: expected 2 items, got 1"),
        ("hands", [[0] * 6] * 3, "hands: expected 2 items, got 3"),
        ("mountains", [[0] * 5, [0] * 6], "mountains[0]: expected 6 counts, got 5"),
        ("discard", [0] * 7, "discard: expected 6 counts, got 7"),
        ("fields", [[[0] * 6] * 2, [[0] * 6]], "fields[1]: expected 2 items, got 1"),
        (
            "due",
            {"kind": "claim", "index": 0, "setup": False},
            "due.kind: 'claim' is not one of deal, cup",
        ),
        ("seats", ["Ann", "Ann"], "seats[1]: 'Ann' is already the first seat's name"),
        ("mode", "solo", "mode: 'solo' is not one of play, table"),
    ],
)
def test_a_stored_state_of_the_wrong_shape_is_refused_naming_the_key(
    key: str, value: Any, message: str
) -> None:
    with pytest.raises(RecordError, match="^" + re.escape(message) + "$"):
        cards.state_from_json(stored(**{key: value}))


def test_a_stored_state_keeps_its_claim_and_its_due_entry() -> None:
    state = cards.state_from_json(
        stored(
            claiming={"mandala": 1, "chooser": 1, "completer": 0},
            due={"kind": "cup", "index": 1, "setup": True},
        )
    )
    assert state.claiming == cards.Claiming(1, 1, 0)
    assert state.due == cards.Due("cup", 1, True)


def test_a_stored_state_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^state: expected an object, got a list$"):
        cards.state_from_json([])


@pytest.mark.parametrize(
    ("where", "message"),
    [((), "state"), (("claiming",), "claiming"), (("due",), "due")],
)
def test_a_stored_state_with_a_key_missing_or_unknown_is_refused_naming_it(
    where: tuple[str, ...], message: str
) -> None:
    extra = stored()
    place: Any = extra
    for key in where:
        place = place[key]
    place["colour"] = "red"
    with pytest.raises(RecordError, match="^" + re.escape(f"{message}.colour: unknown key")):
        cards.state_from_json(extra)
    missing = stored()
    place = missing
    for key in where:
        place = place[key]
    first = next(iter(place))
    del place[first]
    with pytest.raises(RecordError, match="^" + re.escape(f"{message}.{first}: missing key")):
        cards.state_from_json(missing)

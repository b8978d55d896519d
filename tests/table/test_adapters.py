"""The adapter registry: every engine's kind has an adapter, unknown kinds are refused.

The four kinds register their own adapters; a kind with an engine and no adapter of its own
gets the defaults (public information, the summary as its view).
"""

from __future__ import annotations

import pytest

from companion.games import ENGINES
from companion.games.base import RecordError
from companion.table.adapters import ADAPTERS, Adapter, adapter, kinds


def test_every_engine_kind_has_its_own_adapter_of_that_kind() -> None:
    assert kinds() == list(ENGINES) == ["rings", "icehouse", "cards", "stones"]
    for kind in kinds():
        assert ADAPTERS[kind].kind == kind
        assert adapter(kind) is ADAPTERS[kind]


def test_only_the_ring_board_uses_the_board_and_only_cards_use_seat_tokens() -> None:
    assert [kind for kind in kinds() if adapter(kind).ring_board] == ["rings"]
    assert [kind for kind in kinds() if adapter(kind).seat_tokens] == ["cards"]


def test_the_forms_say_each_kinds_seats_as_the_home_page_always_offered_them() -> None:
    forms = {kind: adapter(kind).form.to_json() for kind in kinds()}
    assert forms["rings"] == {
        "seats": {"standard": [2, 4], "two-bases": [2, 2], "solo": [1, 1]},
        "seat_fields": "seat",
        "options": "rings-options",
        "seed": False,
    }
    assert forms["cards"] == {
        "seats": [2, 2],
        "seat_fields": "name",
        "options": "cards-options",
        "seed": True,
    }
    assert forms["icehouse"]["seats"] == [2, 5] and forms["icehouse"]["options"] is None
    assert forms["stones"]["seats"] == [2, 4] and forms["stones"]["seed"] is True


def test_an_unknown_kind_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(RecordError) as refused:
        adapter("chess")
    assert str(refused.value) == "game: unknown game 'chess'; one of rings, icehouse, cards, stones"


def test_a_kind_with_an_engine_and_no_adapter_gets_the_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(ENGINES, "nim", "tests.toygame.nim")
    found = adapter("nim")
    assert type(found) is Adapter
    assert (found.kind, found.title, found.ring_board, found.seat_tokens) == (
        "nim",
        "nim",
        False,
        False,
    )

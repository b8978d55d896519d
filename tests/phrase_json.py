"""Phrases the API sends as JSON (``Phrase.to_json()``), read back for the tests.

The panel renders them with ``Panel.phraseText``; the tests compare their English, the
catalogue's own language, word for word as before they were phrases.
"""

from __future__ import annotations

from typing import Any

from companion.phrases import Phrase, Value


def from_json(found: Any) -> Phrase:
    """The :class:`Phrase` of ``found`` (``{"text", "values"?, "plural"?, "count"?}``)."""
    assert isinstance(found, dict), f"not a phrase: {found!r}"
    assert set(found) <= {"text", "values", "plural", "count"}, f"not a phrase: {found!r}"
    values: dict[str, Value] = {
        key: from_json(value) if isinstance(value, dict) else value
        for key, value in found.get("values", {}).items()
    }
    return Phrase(found["text"], values, found.get("plural"), found.get("count"))


def english(found: Any) -> str:
    """A phrase's JSON in English."""
    return from_json(found).english()


def english_all(found: Any) -> list[str]:
    """A list of phrases' JSON (a log entry's ``instructions``, ``last_turn``) in English."""
    assert isinstance(found, list), f"not a list of phrases: {found!r}"
    return [english(item) for item in found]

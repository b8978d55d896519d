"""Words people read or hear, kept as a message and its values until a language is chosen.

A :class:`Phrase` is the English message (the catalogue's key, with ``{name}`` placeholders)
and the values that fill it. The words are chosen first, in the language of whoever reads
or hears them, and the values are put in after, so a translation may order them as its
language needs. A value may itself be a phrase (a colour's name, a ring's description), and
a count picks the singular or plural form through the catalogue, never by adding an "s".

Standard library only: the table makes phrases, the web layer sends them to the browser as
JSON (``panel.js``'s ``phraseText`` renders them there), and the process renders them for
the Pi's speaker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

Value: TypeAlias = "str | int | Phrase"
Gettext: TypeAlias = Callable[[str], str]
Ngettext: TypeAlias = Callable[[str, str, int], str]


@dataclass(frozen=True, slots=True)
class Phrase:
    """One message and its values; ``plural`` and ``count`` when its form depends on a number
    (``count`` is also the value ``{count}``)."""

    text: str
    values: Mapping[str, Value] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The phrase in the language of ``gettext``/``ngettext`` (nested phrases too).

        :raises KeyError: when the message (or its translation) names a value it lacks.
        """
        if self.plural is not None and self.count is not None:
            message = ngettext(self.text, self.plural, self.count)
        else:
            message = gettext(self.text)
        values = {
            k: v.render(gettext, ngettext) if isinstance(v, Phrase) else v
            for k, v in self.values.items()
        }
        if self.count is not None:
            values.setdefault("count", self.count)
        return message.format_map(values)

    def english(self) -> str:
        """The phrase in English, the catalogue's own language."""
        return self.render(_same, _english_plural)

    def to_json(self) -> dict[str, object]:
        """The phrase as JSON for the browser: ``{"text", "values"?, "plural"?, "count"?}``
        (no ``values`` when it has none: a ring move sends its phrases to every phone)."""
        found: dict[str, object] = {"text": self.text}
        if self.values:
            found["values"] = {
                k: v.to_json() if isinstance(v, Phrase) else v for k, v in self.values.items()
            }
        if self.plural is not None:
            found["plural"] = self.plural
        if self.count is not None:
            found["count"] = self.count
        return found


def phrase_from_json(found: Mapping[str, Any]) -> Phrase:
    """A phrase back from its JSON (``Phrase.to_json``), nested phrases too."""
    values = {
        k: phrase_from_json(v) if isinstance(v, Mapping) else v
        for k, v in dict(found.get("values") or {}).items()
    }
    count = found.get("count")
    return Phrase(str(found["text"]), values, found.get("plural"), count)


def error_words(error: BaseException) -> str | Phrase:
    """An error's words as a value to put in a phrase: its own phrase when it has one
    (``MandalaError.said``), else its text as it is (a rules engine's, Python's, English)."""
    phrase = getattr(error, "phrase", None)
    return phrase if isinstance(phrase, Phrase) else str(error)


def say(text: str, **values: Value) -> Phrase:
    """A phrase without a count: ``say("{name} snipes {victim}", name="Ann", victim="Bo")``."""
    return Phrase(text, values)


def say_n(singular: str, plural: str, count: int, **values: Value) -> Phrase:
    """A phrase whose form follows ``count``: ``say_n("{count} slot", "{count} slots", 3)``."""
    return Phrase(singular, values, plural, count)


def _same(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural

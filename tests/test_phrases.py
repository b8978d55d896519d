"""Phrases: the message is chosen in a language first, its values put in after."""

from __future__ import annotations

import json

import pytest

from companion.phrases import Phrase, phrase_from_json, say, say_n

GERMAN = {
    "{name} snipes {victim} on spoke {spoke}": "{name} schnappt {victim} an Speiche {spoke}",
    "the {colour} ring": "der {colour} Ring",
    "blue": "blaue",
}
GERMAN_FORMS = {"{count} slot": ("{count} Feld", "{count} Felder")}


def german(text: str) -> str:
    return GERMAN.get(text, text)


def german_n(singular: str, plural: str, count: int) -> str:
    forms = GERMAN_FORMS.get(singular, (singular, plural))
    return forms[0] if count == 1 else forms[1]


def test_english_fills_the_values_into_the_message() -> None:
    phrase = say("{name} snipes {victim} on spoke {spoke}", name="Ann", victim="Bo", spoke=6)
    assert phrase.english() == "Ann snipes Bo on spoke 6"


def test_the_translation_is_chosen_before_the_values_go_in() -> None:
    phrase = say("{name} snipes {victim} on spoke {spoke}", name="Ann", victim="Bo", spoke=6)
    assert phrase.render(german, german_n) == "Ann schnappt Bo an Speiche 6"


def test_a_nested_phrase_is_translated_too() -> None:
    phrase = say("the {colour} ring", colour=say("blue"))
    assert phrase.english() == "the blue ring"
    assert phrase.render(german, german_n) == "der blaue Ring"


@pytest.mark.parametrize(
    ("count", "english", "in_german"),
    [(1, "1 slot", "1 Feld"), (2, "2 slots", "2 Felder"), (0, "0 slots", "0 Felder")],
)
def test_the_count_picks_the_form_through_the_catalogue(
    count: int, english: str, in_german: str
) -> None:
    phrase = say_n("{count} slot", "{count} slots", count)
    assert phrase.english() == english
    assert phrase.render(german, german_n) == in_german


def test_a_value_with_braces_is_put_in_as_it_is() -> None:
    assert say("{name} wins", name="{x}").english() == "{x} wins"


def test_a_message_naming_a_missing_value_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="victim"):
        Phrase("{name} snipes {victim}", {"name": "Ann"}).english()


def test_json_keeps_the_message_values_and_count_for_the_browser() -> None:
    phrase = say_n("{name} turns {count} slot", "{name} turns {count} slots", 2, name=say("blue"))
    assert json.loads(json.dumps(phrase.to_json())) == {
        "text": "{name} turns {count} slot",
        "values": {"name": {"text": "blue"}},
        "plural": "{name} turns {count} slots",
        "count": 2,
    }


def test_json_leaves_out_the_values_of_a_phrase_without_any_and_reads_back_the_same() -> None:
    plain = say("the game is over")
    assert plain.to_json() == {"text": "the game is over"}
    nested = say("{colour} wins", colour=say("red"))
    for phrase in (plain, nested):
        assert phrase_from_json(phrase.to_json()) == phrase

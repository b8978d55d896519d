"""A computer seat's words are phrases: the panel says its roll and its ring turns in the
phone's language (German here), while their English stays word for word what it was
(tests/table/test_computer.py)."""

from __future__ import annotations

from companion import catalogue
from companion.games import rings
from companion.table import computer

ROLL = {"red": 1, "blue": 2, "green": 0, "yellow": 3, "brown": 1}


def test_a_rotation_reads_in_german_and_its_english_is_unchanged() -> None:
    two = computer.rotation_phrase(rings.Rotation(5, 2))
    assert two.english() == computer.rotation_words(rings.Rotation(5, 2))
    assert two.english() == "turn ring 5 two slots clockwise"
    assert catalogue.render(two, "de") == "dreh Ring 5 zwei Felder im Uhrzeigersinn"
    one = computer.rotation_phrase(rings.Rotation(1, -1))
    assert catalogue.render(one, "de") == "dreh Ring 1 ein Feld gegen den Uhrzeigersinn"
    far = computer.rotation_phrase(rings.Rotation(0, -12))
    assert far.english() == "turn ring 0 12 slots counter-clockwise"
    assert catalogue.render(far, "de") == "dreh Ring 0 12 Felder gegen den Uhrzeigersinn"


def test_the_roll_and_the_turns_one_after_the_other_read_in_german() -> None:
    rolled = computer.dice_phrase(ROLL)
    assert rolled.english() == computer.dice_words(ROLL)
    assert catalogue.render(rolled, "de") == "Rot 1, Blau 2, Grün 0, Gelb 3, Braun 1"
    steps = [
        computer.rotation_phrase(rings.Rotation(1, -2)),
        computer.rotation_phrase(rings.Rotation(3, 3)),
    ]
    turns = computer.then_phrase(steps)
    assert turns.english() == (
        "turn ring 1 two slots counter-clockwise, then turn ring 3 three slots clockwise"
    )
    assert catalogue.render(turns, "de") == (
        "dreh Ring 1 zwei Felder gegen den Uhrzeigersinn, dann dreh Ring 3 drei Felder "
        "im Uhrzeigersinn"
    )

"""What a step of the card game or of Mandala Stones did, as sentences to hear (issue 25).

The companion to :mod:`companion.table.announce` for the two games whose steps are not ring
turns or Icehouse picks: the card game's plays, discards, claims and destructions, and a
Stones PICK or SCORE. Only what everybody at the table sees is said: the card played or
discarded, the colour claimed from a mountain (its cards were on the table), a mandala
completed and destroyed; never a hand, a cup's contents or a card drawn. Mandalas are
numbered from 1, as the pages draw them (records count them from 0).
"""

from __future__ import annotations

from companion.games import cards, stones
from companion.phrases import Phrase, say, say_n

COLOUR_WORDS: dict[str, Phrase] = {
    "red": say("red"),
    "orange": say("orange"),
    "yellow": say("yellow"),
    "green": say("green"),
    "blue": say("blue"),
    "purple": say("purple"),
    "brown": say("brown"),
    "black": say("black"),
}
"""Every game's colours as words, each its own message (written out, so the catalogue's
extraction finds them): the ring board's dice colours, the cards', the Stones'."""


def colour_words(colour: str) -> Phrase:
    """A colour as words (one no game has, from a board file: as it is, untranslated)."""
    return COLOUR_WORDS.get(colour) or Phrase("{colour}", {"colour": colour})


def card_events(before: cards.State, action: cards.Action, after: cards.State) -> list[Phrase]:
    """What a card-game step did that everybody sees (a table-mode deal or cup entry: nothing
    but what follows from it)."""
    name = before.seats[before.seat]
    said: list[Phrase] = []
    match action:
        case cards.MountainPlay(mandala=mandala, colour=colour):
            said.append(
                say(
                    "{name} plays {colour} into mountain {mandala}",
                    name=name,
                    colour=colour_words(colour),
                    mandala=mandala + 1,
                )
            )
        case cards.FieldPlay(mandala=mandala, colour=colour, count=count):
            said.append(
                say_n(
                    "{name} plays {count} {colour} card into their field of mandala {mandala}",
                    "{name} plays {count} {colour} cards into their field of mandala {mandala}",
                    count,
                    name=name,
                    colour=colour_words(colour),
                    mandala=mandala + 1,
                )
            )
        case cards.Discard(colour=colour, count=count):
            said.append(
                say_n(
                    "{name} discards {count} {colour} card",
                    "{name} discards {count} {colour} cards",
                    count,
                    name=name,
                    colour=colour_words(colour),
                )
            )
        case cards.Claim(colour=colour):
            said.append(say("{name} claims {colour}", name=name, colour=colour_words(colour)))
    return said + _destructions(before, after)


def _destructions(before: cards.State, after: cards.State) -> list[Phrase]:
    """A mandala completed (who chooses first), destroyed, the deck run out."""
    said: list[Phrase] = []
    if after.reshuffled > before.reshuffled:
        said.append(say("The deck ran out: the game ends after the next destruction"))
    if before.claiming is None and after.claiming is not None:
        said.append(
            say(
                "Mandala {mandala} is complete: {name} chooses first",
                mandala=after.claiming.mandala + 1,
                name=after.seats[after.claiming.chooser],
            )
        )
    if before.claiming is not None and after.claiming is None:
        said.append(say("Mandala {mandala} is destroyed", mandala=before.claiming.mandala + 1))
    return said


def stones_events(before: stones.State, action: stones.Action, after: stones.State) -> list[Phrase]:
    """What a Stones step did: the stones a PICK took, the towers a SCORE scored (its points
    are said with the scores)."""
    if before.to_move is None:
        return []
    name = before.seats[before.to_move]
    match action:
        case stones.Pick(space=space):
            tower = after.boards[before.to_move][space - 1]
            return [
                say_n(
                    "{name} picks {count} stone for space {space}",
                    "{name} picks {count} stones for space {space}",
                    len(tower),
                    name=name,
                    space=space,
                )
            ]
        case stones.ScoreColour(colour=colour):
            return [
                say("{name} scores the {colour} towers", name=name, colour=colour_words(colour))
            ]
        case stones.ScoreTops(spaces=spaces):
            return [
                say_n(
                    "{name} scores {count} tower top",
                    "{name} scores {count} tower tops",
                    len(spaces),
                    name=name,
                )
            ]
    return []

"""The rules (cards.md sections 1-6, 10 and 11): setup, actions, destruction, end, scores.

``apply`` copies the state into a mutable scratch, plays the action there and freezes the
result; a refusal raises before anything is frozen, so the caller's state never changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.games.base import IllegalAction, RecordError
from companion.games.cards.model import (
    COLOURS,
    DECK_SIZE,
    HAND_LIMIT,
    MOUNTAIN_DEAL,
    MOUNTAIN_DRAW,
    PER_COLOUR,
    RIVER_SPACES,
    START_CUP,
    START_HAND,
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
    Mode,
    MountainPlay,
    State,
    cards_of,
    other,
    sorted_cards,
)
from companion.phrases import Phrase, say, say_n

# ---------------------------------------------------------------------------------------
# Setup


def seeded_deck(seed: int) -> tuple[str, ...]:
    """Shuffle the 108 cards with ``seed``: the deck order of a seeded game (top first)."""
    cards = [colour for colour in COLOURS for _ in range(PER_COLOUR)]
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def seeded_reshuffle(seed: int, number: int, discard: Cards) -> tuple[str, ...]:
    """Shuffle the discard pile for reshuffle ``number`` (0 first) of a seeded game."""
    cards = sorted_cards(discard)
    random.Random(f"cards:{seed}:reshuffle:{number}").shuffle(cards)
    return tuple(cards)


def start(
    seats: tuple[str, str],
    mode: Mode = "play",
    deck: Sequence[str] | None = None,
    reshuffles: Sequence[Sequence[str]] = (),
    seed: int | None = None,
) -> State:
    """Deal a new game (section 1), or in table mode wait for the two setup deals.

    ``deck`` (108 cards, top first) wins over ``seed``; a play game needs one of them.
    The caller has checked the deck's cards (see ``record.parse_setup``).
    """
    empty: Cards = cards_of(())
    if mode == "table":
        return State(
            mode="table",
            seats=seats,
            deck=(),
            deck_unseen=TABLE_START_DECK,
            reshuffles=(),
            reshuffled=0,
            seed=None,
            hands=(empty, empty),
            hands_unseen=(START_HAND, START_HAND),
            cups=(empty, empty),
            cups_unseen=(START_CUP, START_CUP),
            rivers=((), ()),
            mountains=(empty, empty),
            fields=((empty, empty), (empty, empty)),
            discard=empty,
            seat=0,
            claiming=None,
            due=Due("deal", 0, setup=True),
            end_triggered=False,
            over=False,
            actions=0,
        )
    if deck is None:
        if seed is None:
            raise RecordError("deck: missing key (or a seed to shuffle one)")
        deck = seeded_deck(seed)
    cards = list(deck)

    def take(n: int) -> Cards:
        taken = cards_of(cards[:n])
        del cards[:n]
        return taken

    mountain0, mountain1 = take(MOUNTAIN_DEAL), take(MOUNTAIN_DEAL)
    hand0, hand1 = take(START_HAND), take(START_HAND)
    cup0, cup1 = take(START_CUP), take(START_CUP)
    return State(
        mode="play",
        seats=seats,
        deck=tuple(cards),
        deck_unseen=0,
        reshuffles=tuple(tuple(r) for r in reshuffles),
        reshuffled=0,
        seed=seed,
        hands=(hand0, hand1),
        hands_unseen=(0, 0),
        cups=(cup0, cup1),
        cups_unseen=(0, 0),
        rivers=((), ()),
        mountains=(mountain0, mountain1),
        fields=((empty, empty), (empty, empty)),
        discard=empty,
        seat=0,
        claiming=None,
        due=None,
        end_triggered=False,
        over=False,
        actions=0,
    )


# ---------------------------------------------------------------------------------------
# Scoring (section 6)


def cup_score(river: Sequence[str], cup: Mapping[str, int] | Cards) -> int:
    """Score a cup: each card scores its colour's river space (1-6), 0 if not in the river."""
    counts = cup if isinstance(cup, tuple) else tuple(cup.get(c, 0) for c in COLOURS)
    return sum(
        (river.index(colour) + 1) * n
        for colour, n in zip(COLOURS, counts, strict=True)
        if colour in river
    )


def winner_index(scores: Sequence[int], cup_sizes: Sequence[int]) -> int | None:
    """Most points wins; a tie goes to fewer cup cards; still tied, nobody (None)."""
    ranked = sorted(range(len(scores)), key=lambda s: (-scores[s], cup_sizes[s]))
    best = ranked[0]
    if len(ranked) > 1 and (scores[ranked[1]], cup_sizes[ranked[1]]) == (
        scores[best],
        cup_sizes[best],
    ):
        return None
    return best


def scores(state: State) -> tuple[int, int]:
    """Each seat's cup value now (table mode: the cup cards entered so far)."""
    return (
        cup_score(state.rivers[0], state.cups[0]),
        cup_score(state.rivers[1], state.cups[1]),
    )


def winner(state: State) -> int | None:
    """The winning seat once the game is over; None before, or on a full tie."""
    if not state.over:
        return None
    return winner_index(scores(state), [sum(cup) for cup in state.cups])


# ---------------------------------------------------------------------------------------
# Who acts


def acting_seat(state: State) -> int | None:
    """The seat whose action is next (a claim included); None when over or an entry is due."""
    if state.over or state.due is not None:
        return None
    return state.seat


def is_over(state: State) -> bool:
    """Say whether the game has ended (table mode: once both cup entries are in)."""
    return state.over


# ---------------------------------------------------------------------------------------
# The scratch: a mutable copy that one action works on


@dataclass
class _Scratch:
    state: State
    deck: list[str]
    deck_unseen: int
    reshuffles: list[tuple[str, ...]]
    reshuffled: int
    hands: list[list[int]]
    hands_unseen: list[int]
    cups: list[list[int]]
    cups_unseen: list[int]
    rivers: list[list[str]]
    mountains: list[list[int]]
    fields: list[list[list[int]]]
    discard: list[int]
    seat: int
    claiming: Claiming | None
    due: Due | None
    end_triggered: bool
    over: bool

    @classmethod
    def of(cls, state: State) -> _Scratch:
        return cls(
            state=state,
            deck=list(state.deck),
            deck_unseen=state.deck_unseen,
            reshuffles=list(state.reshuffles),
            reshuffled=state.reshuffled,
            hands=[list(h) for h in state.hands],
            hands_unseen=list(state.hands_unseen),
            cups=[list(c) for c in state.cups],
            cups_unseen=list(state.cups_unseen),
            rivers=[list(r) for r in state.rivers],
            mountains=[list(m) for m in state.mountains],
            fields=[[list(f) for f in pair] for pair in state.fields],
            discard=list(state.discard),
            seat=state.seat,
            claiming=state.claiming,
            due=state.due,
            end_triggered=state.end_triggered,
            over=state.over,
        )

    def freeze(self) -> State:
        def pair(values: Sequence[list[int]]) -> tuple[Cards, Cards]:
            return (tuple(values[0]), tuple(values[1]))

        return replace(
            self.state,
            deck=tuple(self.deck),
            deck_unseen=self.deck_unseen,
            reshuffles=tuple(self.reshuffles),
            reshuffled=self.reshuffled,
            hands=pair(self.hands),
            hands_unseen=(self.hands_unseen[0], self.hands_unseen[1]),
            cups=pair(self.cups),
            cups_unseen=(self.cups_unseen[0], self.cups_unseen[1]),
            rivers=(tuple(self.rivers[0]), tuple(self.rivers[1])),
            mountains=pair(self.mountains),
            fields=(pair(self.fields[0]), pair(self.fields[1])),
            discard=tuple(self.discard),
            seat=self.seat,
            claiming=self.claiming,
            due=self.due,
            end_triggered=self.end_triggered,
            over=self.over,
            actions=self.state.actions + 1,
        )

    # -- small facts ------------------------------------------------------------------

    @property
    def table(self) -> bool:
        return self.state.mode == "table"

    def name(self, seat: int) -> str:
        return self.state.seats[seat]

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat]) + self.hands_unseen[seat]

    def field_size(self, mandala: int, seat: int) -> int:
        return sum(self.fields[mandala][seat])

    def complete(self, mandala: int) -> bool:
        field0, field1 = self.fields[mandala]
        return all(
            m + a + b > 0 for m, a, b in zip(self.mountains[mandala], field0, field1, strict=True)
        )

    # -- moving cards -----------------------------------------------------------------

    def take_from_hand(self, seat: int, colour: str, count: int, what: Phrase) -> None:
        """Remove cards from a hand; table mode trusts the colour and checks the count."""
        if count < 1:
            raise _refused(what, say("a play or discard takes at least one card"))
        name = self.name(seat)
        if self.table:
            if count > self.hands_unseen[seat]:
                unseen = self.hands_unseen[seat]
                holds = say_n(
                    "{name} holds only {count} cards",
                    "{name} holds only {count} cards",
                    unseen,
                    name=name,
                )
                raise _refused(what, holds)
            self.hands_unseen[seat] -= count
            return
        index = COLOURS.index(colour)
        held = self.hands[seat][index]
        if held < count:
            named = colour_words(colour)
            if held:
                holds = say(
                    "{name} holds only {count} {colour}", name=name, count=held, colour=named
                )
            else:
                holds = say("{name} holds no {colour}", name=name, colour=named)
            raise _refused(what, holds)
        self.hands[seat][index] -= count

    def reshuffle(self) -> bool:
        """Shuffle the discard pile into a new deck; False when the pile is empty too."""
        pile = tuple(self.discard)
        if sum(pile) == 0:
            return False
        number = self.reshuffled
        if self.table:
            self.deck_unseen = sum(pile)
        else:
            if number >= len(self.reshuffles):
                seed = self.state.seed
                if seed is None:
                    raise RecordError(
                        f"reshuffles[{number}]: missing: the deck is empty and the "
                        f"discard pile ({sum(pile)} cards) must be shuffled into a new deck"
                    )
                self.reshuffles.append(seeded_reshuffle(seed, number, pile))
            new_deck = self.reshuffles[number]
            if any(c not in COLOURS for c in new_deck) or cards_of(new_deck) != pile:
                raise RecordError(
                    f"reshuffles[{number}]: not a shuffle of the discard pile "
                    f"({len(new_deck)} cards given; the pile holds {sum(pile)}: "
                    + ", ".join(f"{n} {c}" for c, n in zip(COLOURS, pile, strict=True) if n)
                    + ")"
                )
            self.deck = list(new_deck)
        self.discard = [0] * len(COLOURS)
        self.reshuffled += 1
        self.end_triggered = True
        return True

    def draw(self, count: int) -> list[str | None]:
        """Draw up to ``count`` cards (None for an unseen one), reshuffling when needed."""
        drawn: list[str | None] = []
        for _ in range(count):
            if self.deck_unseen + len(self.deck) == 0 and not self.reshuffle():
                break
            if self.table:
                self.deck_unseen -= 1
                drawn.append(None)
            else:
                drawn.append(self.deck.pop(0))
        return drawn

    def draw_to_hand(self, seat: int, count: int) -> None:
        for card in self.draw(count):
            if card is None:
                self.hands_unseen[seat] += 1
            else:
                self.hands[seat][COLOURS.index(card)] += 1

    def deal_mountain(self, mandala: int) -> None:
        for card in self.draw(MOUNTAIN_DEAL):
            if card is not None:
                self.mountains[mandala][COLOURS.index(card)] += 1

    # -- the flow ---------------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        """Give the turn to ``seat``; a seat that begins its turn with no card ends play."""
        self.seat = seat
        if self.hand_size(seat) == 0:
            self.end_play()

    def end_play(self) -> None:
        """Play is over: in play mode the game; in table mode the cup entries are due."""
        self.claiming = None
        if self.table:
            self.due = Due("cup", 0)
        else:
            self.over = True

    def after_turn(self, mandala: int | None) -> None:
        """Start a destruction if the turn completed ``mandala``, else pass the turn."""
        mover = self.seat
        if mandala is None or not self.complete(mandala):
            self.start_turn(other(mover))
            return
        sizes = (self.field_size(mandala, 0), self.field_size(mandala, 1))
        if sizes == (0, 0):
            self.discard_all(self.mountains[mandala])
            self.finish_destruction(mandala, mover)
            return
        # More field cards there chooses first; on a tie, the seat that did not complete.
        chooser = other(mover) if sizes[0] == sizes[1] else int(sizes[1] > sizes[0])
        self.claiming = Claiming(mandala, chooser, mover)
        self.seat = chooser

    def discard_all(self, cards: list[int]) -> None:
        for index, n in enumerate(cards):
            self.discard[index] += n
            cards[index] = 0

    def finish_destruction(self, mandala: int, completer: int) -> None:
        """Steps 3-5 of section 4: fields to the discard pile, the end, the new deal."""
        for seat in (0, 1):
            self.discard_all(self.fields[mandala][seat])
        self.claiming = None
        if self.end_triggered or any(len(river) == RIVER_SPACES for river in self.rivers):
            self.end_play()
            return
        if self.table:
            self.due = Due("deal", mandala)
            self.seat = other(completer)
            return
        self.deal_mountain(mandala)
        self.start_turn(other(completer))


# ---------------------------------------------------------------------------------------
# Actions


COLOUR_WORDS: dict[str, Phrase] = {
    "red": say("red"),
    "orange": say("orange"),
    "yellow": say("yellow"),
    "green": say("green"),
    "purple": say("purple"),
    "black": say("black"),
}
"""Each card colour's name as people read it (the refusals' words)."""


def colour_words(colour: str) -> Phrase | str:
    """A card colour's name as people read it."""
    return COLOUR_WORDS.get(colour, colour)


def _refused(what: Phrase, reason: Phrase) -> IllegalAction:
    """The refusal of ``what`` (``Bo cannot play orange into field 0``) for ``reason``."""
    return IllegalAction.said(say("{where}: {reason}", where=what, reason=reason))


def _mountain(work: _Scratch, action: MountainPlay) -> None:
    seat, m, colour = work.seat, action.mandala, action.colour
    named = colour_words(colour)
    what = say(
        "{name} cannot play {colour} into mountain {number}",
        name=work.name(seat),
        colour=named,
        number=m,
    )
    index = COLOURS.index(colour)
    if any(work.fields[m][s][index] for s in (0, 1)):
        raise _refused(
            what, say("{colour} is in a field of mandala {number}", colour=named, number=m)
        )
    work.take_from_hand(seat, colour, 1, what)
    work.mountains[m][index] += 1
    work.draw_to_hand(seat, min(MOUNTAIN_DRAW, HAND_LIMIT - work.hand_size(seat)))
    work.after_turn(m)


def _field(work: _Scratch, action: FieldPlay) -> None:
    seat, m, colour, count = work.seat, action.mandala, action.colour, action.count
    named = colour_words(colour)
    what = say_n(
        "{name} cannot play {colour} into field {number}",
        "{name} cannot play {count} {colour} into field {number}",
        count,
        name=work.name(seat),
        colour=named,
        number=m,
    )
    index = COLOURS.index(colour)
    if work.mountains[m][index]:
        raise _refused(what, say("{colour} is in mountain {number}", colour=named, number=m))
    if work.fields[m][other(seat)][index]:
        theirs = say(
            "{colour} is in {name}'s field {number}",
            colour=named,
            name=work.name(other(seat)),
            number=m,
        )
        raise _refused(what, theirs)
    if count >= work.hand_size(seat):
        raise _refused(what, say("a card must stay in hand"))
    work.take_from_hand(seat, colour, count, what)
    work.fields[m][seat][index] += count
    work.after_turn(m)


def _discard(work: _Scratch, action: Discard) -> None:
    seat, colour, count = work.seat, action.colour, action.count
    what = say_n(
        "{name} cannot discard {colour}",
        "{name} cannot discard {count} {colour}",
        count,
        name=work.name(seat),
        colour=colour_words(colour),
    )
    work.take_from_hand(seat, colour, count, what)
    work.discard[COLOURS.index(colour)] += count
    work.draw_to_hand(seat, count)
    work.after_turn(None)


def _claim(work: _Scratch, claiming: Claiming, action: Claim) -> None:
    seat, m, colour = work.seat, claiming.mandala, action.colour
    index = COLOURS.index(colour)
    count = work.mountains[m][index]
    if count == 0:
        refused = say(
            "{name} cannot claim '{colour}': it is not in mountain {number}",
            name=work.name(seat),
            colour=colour_words(colour),
            number=m,
        )
        raise IllegalAction.said(refused)
    work.mountains[m][index] = 0
    river = work.rivers[seat]
    if work.field_size(m, seat) == 0:
        work.discard[index] += count
    elif colour not in river and len(river) < RIVER_SPACES:
        river.append(colour)
        work.cups[seat][index] += count - 1
    else:
        work.cups[seat][index] += count
    if sum(work.mountains[m]) == 0:
        work.finish_destruction(m, claiming.completer)
    else:
        work.seat = other(seat)


def _deal(work: _Scratch, due: Due, action: Deal) -> None:
    if action.mandala != due.index:
        raise IllegalAction.said(
            say(
                "a deal for mountain {number} while the deal for mountain {due} is due",
                number=action.mandala,
                due=due.index,
            )
        )
    available = MOUNTAIN_DEAL if due.setup else work.deck_unseen + sum(work.discard)
    expected = min(MOUNTAIN_DEAL, available)
    if len(action.colours) != expected:
        raise IllegalAction.said(
            say_n(
                "the deal for mountain {number} turns up {count} card, not {given}",
                "the deal for mountain {number} turns up {count} cards, not {given}",
                expected,
                number=due.index,
                given=len(action.colours),
            )
        )
    work.due = None
    if not due.setup:
        work.draw(expected)
    for colour in action.colours:
        work.mountains[due.index][COLOURS.index(colour)] += 1
    if due.setup and due.index == 0:
        work.due = Due("deal", 1, setup=True)
    elif due.setup:
        work.start_turn(0)
    else:
        work.start_turn(work.seat)


def _cup(work: _Scratch, due: Due, action: CupEntry) -> None:
    seat = work.state.seats.index(action.seat)
    if seat != due.index:
        raise IllegalAction.said(
            say(
                "a cup entry for {seat} while the cup entry for {name} is due",
                seat=action.seat,
                name=work.name(due.index),
            )
        )
    if len(action.colours) != START_CUP:
        raise IllegalAction.said(
            say(
                "{seat}'s cup entry gives {count} colours, not {wanted}",
                seat=action.seat,
                count=len(action.colours),
                wanted=START_CUP,
            )
        )
    for colour in action.colours:
        work.cups[seat][COLOURS.index(colour)] += 1
    work.cups_unseen[seat] = 0
    if seat == 0:
        work.due = Due("cup", 1)
    else:
        work.due = None
        work.over = True


_ACTION_WORDS: dict[type, Phrase] = {
    MountainPlay: say("a mountain play"),
    FieldPlay: say("a field play"),
    Discard: say("a discard"),
    Claim: say("a claim"),
    Deal: say("a deal"),
    CupEntry: say("a cup entry"),
}


def _due_words(state: State, due: Due) -> Phrase:
    if due.kind == "deal":
        return say("the deal for mountain {number}", number=due.index)
    return say("the cup entry for {name}", name=state.seats[due.index])


def _entry(work: _Scratch, due: Due, action: Action, words: Phrase) -> None:
    """Apply the table entry that is due (a deal or a cup entry); refuse any other action."""
    if isinstance(action, Deal) and due.kind == "deal":
        _deal(work, due, action)
    elif isinstance(action, CupEntry) and due.kind == "cup":
        _cup(work, due, action)
    else:
        raise IllegalAction.said(
            say("{action} while {due} is due", action=words, due=_due_words(work.state, due))
        )


def apply(state: State, action: Action) -> State:
    """Return the state after ``action`` by the seat whose action it is.

    :raises IllegalAction: when the rules do not allow it now (the game being over included),
        e.g. ``Bo cannot play orange into field 0: orange is in mountain 0``.
    :raises RecordError: when a draw needs a reshuffle the record does not give.
    """
    if state.over:
        raise IllegalAction.said(say("the game is over"))
    words = _ACTION_WORDS[type(action)]
    if isinstance(action, Deal | CupEntry) and state.mode != "table":
        raise IllegalAction.said(say("{action} is only for tracking a real table", action=words))
    work = _Scratch.of(state)
    due = state.due
    if due is not None:
        _entry(work, due, action, words)
        return work.freeze()
    if isinstance(action, Deal | CupEntry):
        if isinstance(action, CupEntry):
            raise IllegalAction.said(say("a cup entry before play has ended"))
        raise IllegalAction.said(
            say("a deal for mountain {number} when no deal is due", number=action.mandala)
        )
    claiming = state.claiming
    if claiming is not None:
        if not isinstance(action, Claim):
            name = state.seats[state.seat]
            raise IllegalAction.said(
                say(
                    "{name} must claim a colour from mountain {number}",
                    name=name,
                    number=claiming.mandala,
                )
            )
        _claim(work, claiming, action)
    elif isinstance(action, Claim):
        raise IllegalAction.said(say("a claim when no destruction is under way"))
    elif isinstance(action, MountainPlay):
        _mountain(work, action)
    elif isinstance(action, FieldPlay):
        _field(work, action)
    else:
        _discard(work, action)
    return work.freeze()


# ---------------------------------------------------------------------------------------
# Legal actions


def _deal_choices(count: int) -> list[tuple[str, ...]]:
    if count == 0:
        return [()]
    if count == 1:
        return [(c,) for c in COLOURS]
    return [(a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i:]]


def legal_actions(state: State) -> list[Action]:
    """Every action the rules allow now (empty exactly when the game is over).

    In table mode the engine cannot see the hands, so a turn lists every colour the rule
    of colour allows, with every count the hand size allows; deals and cup entries list
    every unordered choice of colours.
    """
    if state.over:
        return []
    due = state.due
    if due is not None:
        if due.kind == "cup":
            return [CupEntry(state.seats[due.index], c) for c in _deal_choices(START_CUP)]
        available = MOUNTAIN_DEAL if due.setup else state.deck_unseen + sum(state.discard)
        return [Deal(due.index, c) for c in _deal_choices(min(MOUNTAIN_DEAL, available))]
    if state.claiming is not None:
        mountain = state.mountains[state.claiming.mandala]
        return [Claim(c) for c, n in zip(COLOURS, mountain, strict=True) if n]
    seat = state.seat
    size = state.hand_size(seat)
    table = state.mode == "table"
    actions: list[Action] = []
    for index, colour in enumerate(COLOURS):
        held = size if table else state.hands[seat][index]
        if held == 0:
            continue
        for m in (0, 1):
            fields = state.fields[m]
            if not (fields[0][index] or fields[1][index]):
                actions.append(MountainPlay(m, colour))
            if not (state.mountains[m][index] or fields[other(seat)][index]):
                actions.extend(FieldPlay(m, colour, n) for n in range(1, min(held, size - 1) + 1))
        actions.extend(Discard(colour, n) for n in range(1, held + 1))
    return actions


# ---------------------------------------------------------------------------------------
# Undo (section 11)


def undo_refusal(before: State, action: Action, seat: int | None) -> Phrase | None:
    """Say why ``action``, the last one applied to ``before``, may not be undone, or None
    (``.english()`` for English).

    Tracking a real table, the last entry can always be undone (``seat`` is ignored). In
    play mode only the seat that made it (``seat``; None is nobody) may undo it, and only
    if it drew no card and did not end the game: a field play, a claim that does not end
    its destruction with a new deal, a draw that found the deck and the discard pile empty.
    The caller passes the last action only, so the other seat has not acted since.

    :raises IllegalAction: when ``action`` does not apply to ``before`` at all.
    """
    if before.mode == "table":
        return None
    actor = acting_seat(before)
    if actor is None or seat != actor:
        if actor is None:
            return say("only nobody may undo the last action")
        return say("only {name} may undo the last action", name=before.seats[actor])
    after = apply(before, action)
    if after.over:
        return say("the last action ended the game")
    if after.deck_size() != before.deck_size() or after.reshuffled != before.reshuffled:
        return say("the last action drew cards: it is final")
    return None


def can_undo(before: State, action: Action, seat: int | None) -> bool:
    """Say whether ``seat`` may undo ``action``, the last one applied to ``before``."""
    return undo_refusal(before, action, seat) is None


def check_deck(deck: Sequence[str], where: str = "deck") -> None:
    """Check a play deck: 108 known colours, 18 of each.

    :raises RecordError: naming the key, e.g. ``deck: 19 red, expected 18 of each colour``.
    """
    if len(deck) != DECK_SIZE:
        raise RecordError(f"{where}: {len(deck)} cards, expected {DECK_SIZE}")
    counts = cards_of(deck)
    for colour, n in zip(COLOURS, counts, strict=True):
        if n != PER_COLOUR:
            raise RecordError(f"{where}: {n} {colour}, expected {PER_COLOUR} of each colour")

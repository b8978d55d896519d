"""What the table shows of a card game (cards.md): each viewer's view, plain notes, undo.

The engine's :func:`~companion.games.cards.seat_view` decides what a seat may see; this
module adds what the panel needs around it, all worked out from public facts only: the
seats taken, whether the viewer is the host, why undo is refused (section 11), where each
colour of a mountain under destruction would go if claimed now, and per action the plain
instructions of what happened (draws as counts, never their colours, in play mode).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from companion.games import cards
from companion.games.base import GAME_ERRORS, JSON, RecordError
from companion.games.cards.model import RIVER_SPACES
from companion.phrases import Phrase, say, say_n
from companion.table.announce_games import colour_words
from companion.table.errors import Conflict, Forbidden, NotFound
from companion.table.seats import HOST, GameTokens, Viewer, digest, new_token

NOTHING_TO_UNDO = say("nothing to undo: no action yet")


def hidden(state: cards.State) -> bool:
    """Say whether the game hides cards (played on the panel, not over)."""
    return state.mode == "play" and not state.over


def viewer_seat(state: cards.State, tokens: GameTokens, viewer: Viewer) -> int | None:
    """The seat whose view ``viewer`` gets (play mode only; tracking a table has no seats)."""
    if state.mode != "play":
        return None
    return tokens.seat_of(viewer)


def state_view(
    states: Sequence[cards.State],
    actions: Sequence[JSON],
    tokens: GameTokens,
    viewer: Viewer,
) -> dict[str, JSON]:
    """The ``state`` of a game's answer for ``viewer``: its seat view plus the panel's extras.

    ``states`` holds the start and the state after each of ``actions``.
    """
    state = states[-1]
    seat = viewer_seat(state, tokens, viewer)
    view = cards.seat_view(state, seat)
    if state.mode == "table":  # nothing is hidden: every entry the rules allow now
        view["legal"] = [cards.action_to_json(action) for action in cards.legal_actions(state)]
    view["taken"] = list(tokens.taken(len(state.seats))) if state.mode == "play" else []
    view["host"] = tokens.is_host(viewer)
    reason = undo_reason(states, actions, tokens, viewer)
    view["undo"] = None if reason is None else reason.to_json()
    view["claims"] = claim_preview(state)
    return view


# ---------------------------------------------------------------------------------------
# Who may do what (interfaces.md, hidden information)


def new_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """A new game's setup: a game played on the panel with no deck and no seed gets a seed.

    The seed is random and kept with the game (its record replays), so nobody knows the deck.
    """
    out = dict(setup)
    if out.get("mode", "play") == "play" and "deck" not in out and "seed" not in out:
        out["seed"] = secrets.randbelow(2**63)
    return out


CHOSEN_DECK = ("seed", "deck", "reshuffles")
"""The setup keys that would let whoever creates a game know its deck."""


def refuse_chosen_deck(setup: Mapping[str, JSON]) -> None:
    """Refuse a new game played on the panel whose creator chose its deck.

    :raises RecordError: ``seed: ...`` (or ``deck``, ``reshuffles``) naming the first such key.
    """
    if setup.get("mode", "play") != "play":
        return  # tracking a real table: its deck is on the table, not hidden by the panel
    for key in CHOSEN_DECK:
        if key in setup:
            raise RecordError(
                f"{key}: a card game played on the panel shuffles its own deck, so that "
                f"nobody knows the hands; leave {key} out (or track a real table's game)"
            )


def host_tokens(state: cards.State) -> tuple[str | None, dict[int, str]]:
    """A new game's host token (None when tracking a table) and the digests to store."""
    if state.mode != "play":
        return None, {}
    token = new_token()
    return token, {HOST: digest(token)}


def check_turn(state: cards.State, tokens: GameTokens, viewer: Viewer) -> None:
    """Refuse an action unless the viewer holds the token of the seat whose action it is.

    :raises Forbidden: in a game played on the panel, without that seat's token.
    """
    if not hidden(state):
        return
    actor = cards.acting_seat(state)
    if actor is None or tokens.holds(viewer, actor):
        return
    name = state.seats[actor]
    raise Forbidden.said(
        say("it is {name}'s turn: only the phone that took {name}'s seat may act", name=name)
    )


def check_undo(
    states: Sequence[cards.State], actions: Sequence[JSON], tokens: GameTokens, viewer: Viewer
) -> None:
    """Refuse an undo that section 11 does not allow (tracking a table always may).

    :raises Forbidden: a game played on the panel, and the viewer holds no seat of it.
    :raises Conflict: the rules refuse it, with the reason (``the last action drew cards``).
    """
    state = states[-1]
    if state.mode != "play" or not actions:
        return
    if tokens.seat_of(viewer) is None:
        raise Forbidden.said(say("undo in a game with hidden hands needs the seat token of a seat"))
    reason = undo_reason(states, actions, tokens, viewer)
    if reason is not None:
        raise Conflict.said(say("cannot undo: {reason}", reason=reason))


def check_delete(state: cards.State, tokens: GameTokens, viewer: Viewer) -> None:
    """Refuse to delete a game played on the panel unless asked with its host token.

    :raises Forbidden: without the host token, while the game hides cards.
    """
    if hidden(state) and not tokens.is_host(viewer):
        raise Forbidden.said(say("only the host (the phone that created this game) may delete it"))


def seat_number(state: cards.State, seat: int) -> int:
    """Check a seat number of the URL.

    :raises NotFound: no such seat. :raises Conflict: a tracked table has no seats to take.
    """
    if state.mode != "play":
        raise Conflict.said(
            say("this game tracks a real table: nothing is hidden, no seat to take")
        )
    if not 0 <= seat < len(state.seats):
        raise NotFound(f"no seat {seat}: the seats are 0 and 1")
    return seat


def token_to_give(state: cards.State, tokens: GameTokens, seat: int, viewer: Viewer) -> str:
    """The token a phone gets when it takes ``seat``: a new one, or its own again.

    :raises Forbidden: the seat is taken and the viewer does not hold its token.
    """
    seat_number(state, seat)
    if seat not in tokens.digests:
        return new_token()
    stored = tokens.digests[seat]
    for token in viewer.tokens:
        if GameTokens({seat: stored}).holds(Viewer((token,)), seat):
            return token
    name = state.seats[seat]
    raise Forbidden.said(
        say(
            "seat {seat} ({name}) is taken by another phone; the host may free it",
            seat=seat,
            name=name,
        )
    )


def check_free(state: cards.State, tokens: GameTokens, seat: int, viewer: Viewer) -> None:
    """Refuse to free a seat unless asked with the host token.

    :raises Forbidden: without the host token. :raises NotFound: no such seat.
    """
    seat_number(state, seat)
    if not tokens.is_host(viewer):
        raise Forbidden.said(
            say("only the host (the phone that created this game) may free a seat")
        )


def undo_seat(before: cards.State, tokens: GameTokens, viewer: Viewer) -> int | None:
    """The seat an undo asks for: the seat that acted if the viewer holds it, else its own."""
    actor = cards.acting_seat(before)
    if actor is not None and tokens.holds(viewer, actor):
        return actor
    return tokens.seat_of(viewer)


def undo_reason(
    states: Sequence[cards.State],
    actions: Sequence[JSON],
    tokens: GameTokens,
    viewer: Viewer,
) -> Phrase | None:
    """Why ``viewer`` may not undo the last action now (None: it may)."""
    if not actions:
        return NOTHING_TO_UNDO
    before = states[-2]
    try:
        action = cards.parse_action(before, actions[-1])
        return cards.undo_refusal(before, action, undo_seat(before, tokens, viewer))
    except GAME_ERRORS as error:  # a journal entry that no longer applies: nothing to undo
        # (its words when it has them; else its English as it is, untranslated)
        return error.phrase or say("{reason}", reason=str(error))


def claim_preview(state: cards.State) -> list[JSON]:
    """For a destruction under way, where each colour of its mountain would go if claimed now.

    One entry per colour in the mountain: ``{"colour", "count", "to", "river_space"}`` with
    ``to`` one of ``"discard"`` (the claimer's field there is empty), ``"river"`` (one card
    to ``river_space``, the rest to the cup) or ``"cup"``.
    """
    claiming = state.claiming
    if claiming is None or state.over:
        return []
    seat = state.seat
    mountain = state.mountains[claiming.mandala]
    field_size = sum(state.fields[claiming.mandala][seat])
    river = state.rivers[seat]
    out: list[JSON] = []
    for colour, count in zip(cards.COLOURS, mountain, strict=True):
        if not count:
            continue
        space: int | None = None
        if field_size == 0:
            to = "discard"
        elif colour not in river and len(river) < RIVER_SPACES:
            to, space = "river", len(river) + 1
        else:
            to = "cup"
        out.append({"colour": colour, "count": count, "to": to, "river_space": space})
    return out


def _cards(colour: str, count: int) -> Phrase:
    return say_n("{colour}", "{count} {colour}", count, colour=colour_words(colour))


def _listed(items: Sequence[Phrase]) -> Phrase:
    """Phrases one after the other, a comma between (``red, blue``)."""
    found = items[0]
    for item in items[1:]:
        found = say("{list}, {item}", list=found, item=item)
    return found


def _colours(colours: Sequence[str]) -> Phrase:
    return _listed([colour_words(colour) for colour in colours])


def _claim_words(before: cards.State, colour: str) -> Phrase:
    name = before.seats[before.seat]
    for entry in claim_preview(before):
        assert isinstance(entry, dict)
        if entry["colour"] != colour:
            continue
        count = int(str(entry["count"]))
        taken = _cards(colour, count)
        if entry["to"] == "discard":
            return say(
                "{name} claims {cards}: to the discard pile ({name}'s field there is empty)",
                name=name,
                cards=taken,
            )
        if entry["to"] == "river":
            space = int(str(entry["river_space"]))
            if count > 1:
                return say(
                    "{name} claims {cards}: 1 to {name}'s river (space {space}), "
                    "{rest} to {name}'s cup",
                    name=name,
                    cards=taken,
                    space=space,
                    rest=count - 1,
                )
            return say(
                "{name} claims {cards}: 1 to {name}'s river (space {space})",
                name=name,
                cards=taken,
                space=space,
            )
        return say("{name} claims {cards}: all to {name}'s cup", name=name, cards=taken)
    return say("{name} claims {colour}", name=name, colour=colour_words(colour))


# ---------------------------------------------------------------------------------------
# Instructions (as phrases: ``.english()`` for English; ``mandala`` values count from 0)


def describe(before: cards.State, action: JSON, after: cards.State) -> list[Phrase]:
    """Plain instructions for ``action`` taking ``before`` to ``after`` (public facts only)."""
    try:
        step = cards.parse_action(before, action)
    except GAME_ERRORS:
        return []
    name = before.seats[before.seat]
    notes: list[Phrase] = []
    mandala: int | None = None
    if isinstance(step, cards.Deal):
        notes.append(
            say(
                "Mountain {mandala} turned up: {colours}",
                mandala=step.mandala,
                colours=_colours(step.colours),
            )
            if step.colours
            else say("Mountain {mandala} turned up: nothing", mandala=step.mandala)
        )
    elif isinstance(step, cards.CupEntry):
        notes.append(
            say(
                "{name}'s starting cup cards: {colours}",
                name=step.seat,
                colours=_colours(step.colours),
            )
        )
    elif isinstance(step, cards.Claim):
        notes.append(_claim_words(before, step.colour))
    else:
        drawn = after.hand_size(before.seat) - before.hand_size(before.seat)
        if isinstance(step, cards.MountainPlay):
            mandala = step.mandala
            notes.append(
                say(
                    "{name} plays {colour} into mountain {mandala}",
                    name=name,
                    colour=colour_words(step.colour),
                    mandala=mandala,
                )
            )
            drawn += 1
        elif isinstance(step, cards.FieldPlay):
            mandala = step.mandala
            notes.append(
                say(
                    "{name} plays {cards} into their field of mandala {mandala}",
                    name=name,
                    cards=_cards(step.colour, step.count),
                    mandala=mandala,
                )
            )
            drawn += step.count
        else:
            notes.append(
                say("{name} discards {cards}", name=name, cards=_cards(step.colour, step.count))
            )
            drawn += step.count
        if drawn:
            notes.append(
                say(
                    "{name} draws {count} (deck {deck})",
                    name=name,
                    count=drawn,
                    deck=after.deck_size(),
                )
            )
    notes.extend(_consequences(before, after, mandala))
    return notes


def _consequences(before: cards.State, after: cards.State, mandala: int | None) -> list[Phrase]:
    notes: list[Phrase] = []
    seats = after.seats
    if after.reshuffled > before.reshuffled:
        notes.append(
            say(
                "The deck ran out: the discard pile became the new deck; "
                "the game ends after the next destruction"
            )
        )
    destroyed: int | None = None
    if before.claiming is None and after.claiming is not None:
        c = after.claiming
        sizes = [sum(after.fields[c.mandala][s]) for s in (0, 1)]
        notes.append(
            say(
                "Mandala {mandala} is complete: {name} chooses first "
                "(a tie: the seat that did not complete it chooses first)",
                mandala=c.mandala,
                name=seats[c.chooser],
            )
            if sizes[0] == sizes[1]
            else say(
                "Mandala {mandala} is complete: {name} chooses first "
                "(more cards in their field there)",
                mandala=c.mandala,
                name=seats[c.chooser],
            )
        )
    elif mandala is not None and _destroyed_with_empty_fields(before, after, mandala):
        destroyed = mandala
        notes.append(
            say(
                "Mandala {mandala} is complete with both fields empty: "
                "its mountain goes to the discard pile",
                mandala=mandala,
            )
        )
    if before.claiming is not None and after.claiming is None:
        destroyed = before.claiming.mandala
        notes.append(
            say(
                "Mandala {mandala} is destroyed: both its fields go to the discard pile",
                mandala=destroyed,
            )
        )
    for s in (0, 1):
        if len(after.rivers[s]) == RIVER_SPACES > len(before.rivers[s]):
            notes.append(say("{name}'s river holds six colours: the game ends", name=seats[s]))
    due = after.due
    if due is not None and due != before.due:
        if due.kind == "deal":
            notes.append(
                say("Deal the new cards of mountain {mandala} and enter them", mandala=due.index)
            )
        else:
            notes.append(
                say(
                    "Play has ended: turn over {name}'s two starting cup cards",
                    name=seats[due.index],
                )
            )
    elif after.mode == "play" and not after.over and destroyed is not None:
        notes.append(_dealt(after, destroyed))
    if after.claiming is not None and after.due is None and not after.over:
        notes.append(say("{name} claims next", name=seats[after.seat]))
    if after.over and not before.over:
        notes.append(_game_over(after))
    return notes


def _dealt(after: cards.State, destroyed: int) -> Phrase:
    shown = cards.cards_to_json(after.mountains[destroyed])
    if not shown:
        return say(
            "Mountain {mandala} gets no new cards: the deck and discard pile are empty",
            mandala=destroyed,
        )
    dealt = _listed([_cards(colour, count) for colour, count in shown.items()])
    return say("Mountain {mandala} is dealt {cards}", mandala=destroyed, cards=dealt)


def _game_over(after: cards.State) -> Phrase:
    best = cards.winner(after)
    left, right = cards.scores(after)
    if best is None:
        return say("The game is over: a shared win ({left} to {right})", left=left, right=right)
    return say(
        "The game is over: {name} wins ({left} to {right})",
        name=after.seats[best],
        left=left,
        right=right,
    )


def _destroyed_with_empty_fields(before: cards.State, after: cards.State, m: int) -> bool:
    """A turn into mandala ``m`` completed it while both its fields were empty (section 4.1)."""
    if before.claiming is not None or after.claiming is not None:
        return False
    if any(sum(before.fields[m][s]) for s in (0, 1)):
        return False
    return sum(after.discard) > sum(before.discard) or after.reshuffled > before.reshuffled

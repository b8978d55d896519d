"""The card game's record, summary and state formats (cards.md sections 7, 8 and 10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.games.base import (
    JSON,
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
    get,
    join,
    seat_refused,
)
from companion.games.cards.model import (
    COLOURS,
    MODES,
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
    cards_to_json,
)
from companion.games.cards.rules import (
    check_deck,
    scores,
    seeded_deck,
    start,
    winner,
)
from companion.phrases import say

KIND = "cards"
SETUP_KEYS = ("game", "mode", "seats", "deck", "reshuffles", "seed")

# ---------------------------------------------------------------------------------------
# Setup


def parse_colour(value: JSON, where: str) -> str:
    """Check one colour name."""
    return as_str(value, where, COLOURS)


def parse_colours(value: JSON, where: str) -> tuple[str, ...]:
    """Check a list of colour names."""
    return tuple(parse_colour(v, join(where, i)) for i, v in enumerate(as_list(value, where)))


def parse_seats(value: JSON, where: str = "seats") -> tuple[str, str]:
    """Check the two seat names: different, not empty."""
    names = as_list(value, where)
    if len(names) != 2:
        raise RecordError.said(
            seat_refused(where, say("the card game has 2 seats, got {count}", count=len(names)))
        )
    first, second = (as_str(v, join(where, i)) for i, v in enumerate(names))
    for i, name in enumerate((first, second)):
        if not name.strip():
            raise RecordError.said(seat_refused(join(where, i), say("a seat needs a name")))
    if first == second:
        raise RecordError.said(
            seat_refused(
                join(where, 1),
                say("{name} is already the first seat's name", name=repr(second)),
            )
        )
    return first, second


def new_game(setup: Mapping[str, JSON]) -> State:
    """Build the starting state from a record's setup keys (``actions`` is ignored).

    Play mode needs ``deck`` (108 cards, 18 per colour, top first) or ``seed`` (an integer:
    the deck is shuffled from it, and so is every reshuffle the record does not give).

    :raises RecordError: naming the key, e.g. ``deck: 19 red, expected 18 of each colour``.
    """
    setup = as_dict(setup, "record")
    check_keys(setup, "record", ["seats"], [*SETUP_KEYS, "actions"])
    if "game" in setup and setup["game"] != KIND:
        raise RecordError(f"game: {setup['game']!r} is not {KIND!r}")
    mode = cast(Mode, as_str(setup.get("mode", "play"), "mode", MODES))
    seats = parse_seats(get(setup, "seats"))
    seed = as_int(setup["seed"], "seed") if "seed" in setup else None
    if mode == "table":
        for key in ("deck", "reshuffles"):
            if key in setup:
                raise RecordError(f"{key}: a table record (mode 'table') has no {key}")
        return start(seats, "table")
    deck: tuple[str, ...] | None = None
    if "deck" in setup:
        deck = parse_colours(setup["deck"], "deck")
        check_deck(deck)
    elif seed is None:
        raise RecordError("deck: missing key")
    reshuffles = [
        parse_colours(r, join("reshuffles", i))
        for i, r in enumerate(as_list(setup.get("reshuffles", []), "reshuffles"))
    ]
    return start(seats, "play", deck, reshuffles, seed)


def export_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """Return the setup with a seeded deck written out (the seed stays, for reshuffles).

    Every other key is kept as it is, so ``new_game`` still refuses what it would refuse.
    """
    out = {key: value for key, value in setup.items() if key != "actions"}
    out["game"] = out.get("game", KIND)
    if out.get("mode", "play") == "play" and "deck" not in out and "seed" in out:
        out["deck"] = list(seeded_deck(as_int(out["seed"], "seed")))
    return out


def export_record(setup: Mapping[str, JSON], actions: Sequence[JSON], state: State) -> JSON:
    """Write the whole record of a game: its setup, the reshuffles it used, its actions.

    ``state`` is the state after ``actions``; a seeded game's deck and reshuffles are
    written out, so the record replays even without its ``seed``.
    """
    out = export_setup(setup)
    if state.mode == "play" and state.reshuffled:
        out["reshuffles"] = [list(r) for r in state.reshuffles[: state.reshuffled]]
    out["actions"] = list(actions)
    return out


# ---------------------------------------------------------------------------------------
# Actions

_ACTION_SHAPES: dict[str, tuple[str, ...]] = {
    "mountain": ("mountain", "colour"),
    "field": ("field", "colour", "count"),
    "discard": ("discard", "count"),
    "claim": ("claim",),
    "deal": ("deal", "colours"),
    "cup": ("cup", "colours"),
}


def parse_action(state: State, obj: JSON) -> Action:
    """Parse one action (or, tracking a real table, one entry) in the record format.

    :raises RecordError: when ``obj`` is not an action of this game or this mode.
    """
    obj = as_dict(obj, "action")
    kinds = [kind for kind in _ACTION_SHAPES if kind in obj]
    if len(kinds) != 1:
        raise RecordError("action: expected exactly one of the keys " + ", ".join(_ACTION_SHAPES))
    kind = kinds[0]
    check_keys(obj, "action", _ACTION_SHAPES[kind])
    if kind in ("deal", "cup") and state.mode != "table":
        raise RecordError(f"{kind}: a {kind} entry is only for tracking a real table")
    if kind == "mountain":
        return MountainPlay(as_int(obj["mountain"], "mountain", 0, 1), colour_of(obj))
    if kind == "field":
        return FieldPlay(as_int(obj["field"], "field", 0, 1), colour_of(obj), count_of(obj))
    if kind == "discard":
        return Discard(parse_colour(obj["discard"], "discard"), count_of(obj))
    if kind == "claim":
        return Claim(parse_colour(obj["claim"], "claim"))
    if kind == "deal":
        return Deal(as_int(obj["deal"], "deal", 0, 1), parse_colours(obj["colours"], "colours"))
    seat = as_str(obj["cup"], "cup", state.seats)
    return CupEntry(seat, parse_colours(obj["colours"], "colours"))


def colour_of(obj: Mapping[str, JSON]) -> str:
    """The ``colour`` of a mountain or field play."""
    return parse_colour(obj["colour"], "colour")


def count_of(obj: Mapping[str, JSON]) -> int:
    """The ``count`` of a field play or discard: 1 or more."""
    return as_int(obj["count"], "count", 1, 108)


def action_to_json(action: Action) -> JSON:
    """Format an action as the record does; ``parse_action`` reads it back."""
    if isinstance(action, MountainPlay):
        return {"mountain": action.mandala, "colour": action.colour}
    if isinstance(action, FieldPlay):
        return {"field": action.mandala, "colour": action.colour, "count": action.count}
    if isinstance(action, Discard):
        return {"discard": action.colour, "count": action.count}
    if isinstance(action, Claim):
        return {"claim": action.colour}
    if isinstance(action, Deal):
        return {"deal": action.mandala, "colours": list(action.colours)}
    return {"cup": action.seat, "colours": list(action.colours)}


# ---------------------------------------------------------------------------------------
# Summary


def to_move(state: State) -> str | None:
    """The name of the seat to act (its claim included); None when over or an entry is due."""
    if state.over or state.due is not None:
        return None
    return state.seats[state.seat]


def due_to_json(state: State) -> JSON:
    """The entry due in table mode: ``{"deal": m}``, ``{"cup": name}`` or None."""
    due = state.due
    if due is None:
        return None
    if due.kind == "deal":
        return {"deal": due.index}
    return {"cup": state.seats[due.index]}


def mandalas_to_json(state: State) -> list[JSON]:
    """Both mandalas: mountain and fields as colour counts (public in every view)."""
    return [
        {
            "mountain": cards_to_json(state.mountains[m]),
            "fields": {
                name: cards_to_json(state.fields[m][s]) for s, name in enumerate(state.seats)
            },
        }
        for m in (0, 1)
    ]


def claiming_to_json(state: State) -> JSON:
    """The destruction under way, ``{"mandala": m, "chooser": name}``, or None."""
    claiming = state.claiming
    if claiming is None:
        return None
    return {"mandala": claiming.mandala, "chooser": state.seats[claiming.chooser]}


def summary(state: State) -> dict[str, JSON]:
    """Return the replay summary of section 8 (section 10 when tracking a real table)."""
    best = winner(state)
    values = scores(state)
    out: dict[str, JSON] = {"game": KIND, "actions": state.actions, "to_move": to_move(state)}
    if state.mode == "table":
        out["due"] = due_to_json(state)
    hands: dict[str, JSON]
    if state.mode == "table":
        hands = {name: state.hand_size(s) for s, name in enumerate(state.seats)}
    else:
        hands = {name: cards_to_json(state.hands[s]) for s, name in enumerate(state.seats)}
    out.update(
        {
            "over": state.over,
            "winner": None if best is None else state.seats[best],
            "scores": {name: values[s] for s, name in enumerate(state.seats)},
            "rivers": {name: list(state.rivers[s]) for s, name in enumerate(state.seats)},
            "cups": {name: cards_to_json(state.cups[s]) for s, name in enumerate(state.seats)},
            "hands": hands,
            "mandalas": mandalas_to_json(state),
            "deck": state.deck_size(),
            "discard": sum(state.discard),
            "claiming": claiming_to_json(state),
            "mode": state.mode,
            "end_triggered": state.end_triggered,
        }
    )
    return out


# ---------------------------------------------------------------------------------------
# State as JSON (for storage; round-trips)


def _cards_list(cards: Cards) -> list[int]:
    return list(cards)


def state_to_json(state: State) -> dict[str, JSON]:
    """Write every field of the state (hidden cards included: this is not a view)."""
    claiming = state.claiming
    due = state.due
    return {
        "mode": state.mode,
        "seats": list(state.seats),
        "deck": list(state.deck),
        "deck_unseen": state.deck_unseen,
        "reshuffles": [list(r) for r in state.reshuffles],
        "reshuffled": state.reshuffled,
        "seed": state.seed,
        "hands": [_cards_list(h) for h in state.hands],
        "hands_unseen": list(state.hands_unseen),
        "cups": [_cards_list(c) for c in state.cups],
        "cups_unseen": list(state.cups_unseen),
        "rivers": [list(r) for r in state.rivers],
        "mountains": [_cards_list(m) for m in state.mountains],
        "fields": [[_cards_list(f) for f in pair] for pair in state.fields],
        "discard": _cards_list(state.discard),
        "seat": state.seat,
        "claiming": None
        if claiming is None
        else {
            "mandala": claiming.mandala,
            "chooser": claiming.chooser,
            "completer": claiming.completer,
        },
        "due": None if due is None else {"kind": due.kind, "index": due.index, "setup": due.setup},
        "end_triggered": state.end_triggered,
        "over": state.over,
        "actions": state.actions,
    }


def _cards(value: JSON, where: str) -> Cards:
    counts = as_list(value, where)
    if len(counts) != len(COLOURS):
        raise RecordError(f"{where}: expected {len(COLOURS)} counts, got {len(counts)}")
    return tuple(as_int(n, join(where, i), 0, 108) for i, n in enumerate(counts))


def _two(value: JSON, where: str) -> list[Any]:
    items = as_list(value, where)
    if len(items) != 2:
        raise RecordError(f"{where}: expected 2 items, got {len(items)}")
    return items


def state_from_json(obj: JSON) -> State:
    """Read a state written by :func:`state_to_json`.

    :raises RecordError: naming the key of a missing or mistyped field.
    """
    obj = as_dict(obj, "state")
    keys = list(state_to_json(start(("a", "b"), "table")))
    check_keys(obj, "state", keys)
    claiming_obj = obj["claiming"]
    claiming = None
    if claiming_obj is not None:
        c = as_dict(claiming_obj, "claiming")
        check_keys(c, "claiming", ["mandala", "chooser", "completer"])
        claiming = Claiming(
            as_int(c["mandala"], "claiming.mandala", 0, 1),
            as_int(c["chooser"], "claiming.chooser", 0, 1),
            as_int(c["completer"], "claiming.completer", 0, 1),
        )
    due_obj = obj["due"]
    due = None
    if due_obj is not None:
        d = as_dict(due_obj, "due")
        check_keys(d, "due", ["kind", "index", "setup"])
        kind = as_str(d["kind"], "due.kind", ("deal", "cup"))
        due = Due(
            "deal" if kind == "deal" else "cup",
            as_int(d["index"], "due.index", 0, 1),
            as_bool(d["setup"], "due.setup"),
        )
    hands = _two(obj["hands"], "hands")
    cups = _two(obj["cups"], "cups")
    mountains = _two(obj["mountains"], "mountains")
    fields = _two(obj["fields"], "fields")
    field_pairs = [_two(f, join("fields", m)) for m, f in enumerate(fields)]
    rivers = _two(obj["rivers"], "rivers")
    hands_unseen = _two(obj["hands_unseen"], "hands_unseen")
    cups_unseen = _two(obj["cups_unseen"], "cups_unseen")
    seed = obj["seed"]
    return State(
        mode=cast(Mode, as_str(obj["mode"], "mode", MODES)),
        seats=parse_seats(obj["seats"]),
        deck=parse_colours(obj["deck"], "deck"),
        deck_unseen=as_int(obj["deck_unseen"], "deck_unseen", 0, 108),
        reshuffles=tuple(
            parse_colours(r, join("reshuffles", i))
            for i, r in enumerate(as_list(obj["reshuffles"], "reshuffles"))
        ),
        reshuffled=as_int(obj["reshuffled"], "reshuffled", 0),
        seed=None if seed is None else as_int(seed, "seed"),
        hands=(_cards(hands[0], "hands[0]"), _cards(hands[1], "hands[1]")),
        hands_unseen=(
            as_int(hands_unseen[0], "hands_unseen[0]", 0, 108),
            as_int(hands_unseen[1], "hands_unseen[1]", 0, 108),
        ),
        cups=(_cards(cups[0], "cups[0]"), _cards(cups[1], "cups[1]")),
        cups_unseen=(
            as_int(cups_unseen[0], "cups_unseen[0]", 0, 2),
            as_int(cups_unseen[1], "cups_unseen[1]", 0, 2),
        ),
        rivers=(parse_colours(rivers[0], "rivers[0]"), parse_colours(rivers[1], "rivers[1]")),
        mountains=(_cards(mountains[0], "mountains[0]"), _cards(mountains[1], "mountains[1]")),
        fields=(
            (
                _cards(field_pairs[0][0], "fields[0][0]"),
                _cards(field_pairs[0][1], "fields[0][1]"),
            ),
            (
                _cards(field_pairs[1][0], "fields[1][0]"),
                _cards(field_pairs[1][1], "fields[1][1]"),
            ),
        ),
        discard=_cards(obj["discard"], "discard"),
        seat=as_int(obj["seat"], "seat", 0, 1),
        claiming=claiming,
        due=due,
        end_triggered=as_bool(obj["end_triggered"], "end_triggered"),
        over=as_bool(obj["over"], "over"),
        actions=as_int(obj["actions"], "actions", 0),
    )

"""The shared vocabulary of every engine: errors, the engine contract, replay, field checks.

An engine is a module that satisfies :class:`Engine`. A record is a JSON object made of a
*setup* (every key but the list of steps) and the list of steps under ``ACTIONS_KEY``;
replay is ``new_game(setup)`` followed by ``apply(state, parse_action(state, step))`` for
every step, and an error in step *i* is reported as ``"<STEP_WORD> i: <reason>"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar

from companion.phrases import Phrase, say

JSON = Any  # a value as json.loads returns it


class MandalaError(Exception):
    """The root of every refusal of the companion; the message says what and where.

    Its two ``ValueError`` branches are :class:`RecordError` ("cannot parse") and
    :class:`IllegalAction` ("not allowed now"); the table adds its own
    (``companion.table.errors``). It lives here because the engines import only the standard
    library; the firmware's errors (``firmware.errors``) are mapped where the process is
    wired (``companion.serve``).

    An error made with :meth:`said` keeps its message as a
    :class:`~companion.phrases.Phrase` too, so the panel shows it in the phone's language.
    """

    phrase: Phrase | None = None
    """The message as words to translate (``None``: the message is English only)."""

    @classmethod
    def said(cls, phrase: Phrase) -> Self:
        """The error whose message is ``phrase`` (its English in ``str(error)``)."""
        error = cls(phrase.english())
        error.phrase = phrase
        return error

    def at(self, where: str | Phrase) -> Self:
        """Return the same kind of error with ``where`` put in front of the message (its
        words too, when it has them: ``where`` may be words, e.g. :func:`step_at`)."""
        shown = where.english() if isinstance(where, Phrase) else where
        found = type(self)(f"{shown}: {self}")
        if self.phrase is not None:
            found.phrase = say("{where}: {reason}", where=where, reason=self.phrase)
        return found


class RecordError(MandalaError, ValueError):
    """The input cannot be parsed: not the right shape, a missing key, a wrong type or value."""


class IllegalAction(MandalaError, ValueError):
    """The input is well formed but not allowed now by the rules."""


#: What an engine raises for an input it refuses, parsed or applied.
GAME_ERRORS = (RecordError, IllegalAction)


class Engine(Protocol):
    """What every game module offers; the table service and the CLI use only this."""

    KIND: str
    """The record's ``game`` value, e.g. ``"rings"``."""
    ACTIONS_KEY: str
    """The record key that holds the list of steps, e.g. ``"turns"``."""
    STEP_WORD: str
    """How an error names a step, e.g. ``"turn"`` gives ``"turn 4: ..."``."""

    def new_game(self, setup: Mapping[str, JSON]) -> Any:
        """Build the starting state from a record's setup keys (the step list is ignored).

        :raises RecordError: naming the key, e.g. ``seats[1]: corner 2 is already taken``.
        """
        ...

    def parse_action(self, state: Any, obj: JSON) -> Any:
        """Parse one step in the record format.

        :raises RecordError: when ``obj`` is not a step of this game.
        """
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """Return the state after ``action``.

        :raises IllegalAction: when the rules do not allow it now (the game is over included).
        """
        ...

    def is_over(self, state: Any) -> bool:
        """Say whether the game has ended."""
        ...

    def summary(self, state: Any) -> dict[str, JSON]:
        """Return the replay summary of the game's spec page (JSON-ready, keys in spec order)."""
        ...

    def action_to_json(self, action: Any) -> JSON:
        """Format a step as the record does; ``parse_action`` reads it back."""
        ...

    def export_setup(self, setup: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return the setup with every named board or data file inlined, for export."""
        ...


def replay(engine: Engine, record: JSON) -> Any:
    """Replay a whole record with ``engine`` and return the final state.

    :raises RecordError: for a malformed record or step (a step's error names it).
    :raises IllegalAction: for the first step the rules refuse, named ``"<step> i: ..."``.
    """
    record = as_dict(record, "record")
    state = engine.new_game(record)
    steps = as_list(get(record, engine.ACTIONS_KEY, "record"), engine.ACTIONS_KEY)
    for number, obj in enumerate(steps, start=1):
        try:
            state = engine.apply(state, engine.parse_action(state, obj))
        except GAME_ERRORS as error:
            raise error.at(step_at(engine.STEP_WORD, number)) from error
    return state


def step_at(word: str, number: int) -> Phrase:
    """How an error names step ``number`` of a record whose steps are ``word``s (an engine's
    ``STEP_WORD``): ``turn 4``, in the reader's language."""
    if word == "turn":
        return say("turn {number}", number=number)
    if word == "pick":
        return say("pick {number}", number=number)
    if word == "action":
        return say("action {number}", number=number)
    return say("{word} {number}", word=word, number=number)  # a kind without its words yet


def seat_refused(where: str, reason: Phrase) -> Phrase:
    """A new game's seat refused: ``seats[1]: <reason>``, the key path kept as it is (the
    home page reads ``seats[i]`` to name the player) and the reason in the reader's words."""
    return say("{where}: {reason}", where=where, reason=reason)


# Field checks shared by the engines' parsers. ``where`` is the key path shown to people,
# e.g. "seats[1].corner"; the messages quote the offending value.
#
# A new game's other seat refusals (a name given twice or blank, the card game's two seats)
# are :func:`seat_refused` phrases: home.js keeps reading ``seats[i]`` to name the player and
# shows the reason in the phone's language.
#
# Which refusals stay English (issue 27: only the words people meet in normal use come from
# the catalogue; the command line and the logs are English anyway):
# - these field checks and every other RecordError of a record's shape (a missing key, a
#   wrong type, ring 11, a malformed board or data file, a step that is not JSON): the panel
#   never sends them; a person meets them only in a hand-made record or request;
# - the refusals a page's script reads by their English words and says in its own: a stale
#   version (panel.js, rings.js), a new game's seats (home.js: a corner, colour or name
#   taken, the seat counts), a ring's offset (calibrate.js), a board that
#   cannot be saved or its file name (editor.js);
# - the ring board's live reasons (``explain``, the confirm blocker: the live view's words,
#   not errors), the card game's undo reasons, Stones' colour scores (the panel offers only
#   the scores the engine lists).

T = TypeVar("T")


def type_name(value: object) -> str:
    """Name a JSON value's type the way people say it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def get(mapping: Mapping[str, JSON], key: str, where: str = "") -> JSON:
    """Return ``mapping[key]``.

    :raises RecordError: ``"<where>.<key>: missing key"`` when it is absent.
    """
    if key not in mapping:
        raise RecordError(f"{join(where, key)}: missing key")
    return mapping[key]


def join(where: str, key: str | int) -> str:
    """Extend a key path: ``join("seats", 1)`` is ``"seats[1]"``, ``join("a", "b")`` ``"a.b"``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    if not where or where == "record":
        return key
    return f"{where}.{key}"


def as_dict(value: JSON, where: str) -> dict[str, JSON]:
    """Check that ``value`` is a JSON object."""
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected an object, got {type_name(value)}")
    return value


def as_list(value: JSON, where: str) -> list[JSON]:
    """Check that ``value`` is a JSON list."""
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list, got {type_name(value)}")
    return value


def as_int(value: JSON, where: str, low: int | None = None, high: int | None = None) -> int:
    """Check that ``value`` is a whole number (not a boolean), within ``low..high`` if given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where}: expected a whole number, got {type_name(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(f"{where}: {value} is out of {low}..{high}")
    return value


def as_str(value: JSON, where: str, choices: Sequence[str] | None = None) -> str:
    """Check that ``value`` is a string, one of ``choices`` if given."""
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a string, got {type_name(value)}")
    if choices is not None and value not in choices:
        raise RecordError(f"{where}: {value!r} is not one of {', '.join(choices)}")
    return value


def as_bool(value: JSON, where: str) -> bool:
    """Check that ``value`` is true or false."""
    if not isinstance(value, bool):
        raise RecordError(f"{where}: expected true or false, got {type_name(value)}")
    return value


def check_keys(
    mapping: Mapping[str, JSON], where: str, required: Sequence[str], optional: Sequence[str] = ()
) -> None:
    """Refuse a missing required key or any key not listed (for objects with exact keys)."""
    for key in required:
        get(mapping, key, where)
    allowed = set(required) | set(optional)
    for key in mapping:
        if key not in allowed:
            raise RecordError(f"{join(where, key)}: unknown key")

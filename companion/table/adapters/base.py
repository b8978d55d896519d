"""The :class:`Adapter` every game kind's adapter extends: what the table asks of a kind.

The defaults fit a game whose information is all public, whose view is the engine's replay
summary and whose record is its setup plus its steps (a new game needs only registering an
engine and ``Adapter(kind=..., title=...)``). A kind overrides what it does differently.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.base import JSON, Engine
from companion.phrases import Phrase, say
from companion.table.adapters.result import Result, result_of
from companion.table.errors import Conflict
from companion.table.game import Game
from companion.table.seats import GameTokens, Viewer


@dataclass(frozen=True)
class Form:
    """What the home page's new-game form needs to know about a kind.

    ``seats`` is ``[low, high]`` players, or per variant ``{variant: [low, high]}``;
    ``seat_fields`` says a seat is a plain ``"name"`` or a ring-board ``"seat"`` object
    (name, corner, colour); ``options`` names the form's block of this kind's own options
    (``<fieldset id="<options>">`` on the page), if any; ``seed`` says whether the form
    offers a layout seed.
    """

    seats: JSON = field(default_factory=lambda: [2, 5])
    seat_fields: str = "name"
    options: str | None = None
    seed: bool = True

    def to_json(self) -> dict[str, JSON]:
        """The form's description as the page's script reads it."""
        return {
            "seats": self.seats,
            "seat_fields": self.seat_fields,
            "options": self.options,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class Setting:
    """Where a new game's setup is worked out: the caller's wishes and the owner's files."""

    imported: bool
    """The setup comes from an imported record (kept as it is, its steps replayed)."""
    hidden_deck: bool
    """The request comes from the panel: nobody may choose or know hidden information."""
    boards_dir: Path | None
    """The owner's board files, searched first for a board named by the setup."""


class Adapter:
    """What the table and the panel must know about one game kind (see the module text).

    :param kind: the record's ``game`` value (the engine registry's key).
    :param title: how the home page names the kind: words to translate (``title_words``);
        ``title`` is their English (exports and logs).
    :param form: the new-game form's fields (:class:`Form`).
    :param random_layout: the setup key of the kind's random layout, if it has one: a new
        game given neither that key nor ``seed`` gets a random seed (kept in its setup).
    """

    ring_board: bool = False
    """Played on the sensed ring board: dice, the live turn, re-sync, LEDs, computer seats."""
    seat_tokens: bool = False
    """Phones take its seats with tokens (hidden hands); the companion may hold a seat."""
    bgg_id: int | None = None
    """The game's BoardGameGeek id, where one is confirmed (exports to BG Stats carry it)."""
    export_name: str | None = None
    """The game's name in exports (BG Stats, BoardGameGeek's form); None: the title."""

    def __init__(
        self,
        kind: str,
        title: str | Phrase,
        form: Form | None = None,
        random_layout: str | None = None,
    ) -> None:
        self.kind = kind
        # a kind named only by its key (no adapter of its own) is named the same in any language
        named = title if isinstance(title, Phrase) else Phrase("{title}", {"title": title})
        self.title_words = named
        self.title = self.title_words.english()
        self.form = form or Form()
        self.random_layout = random_layout

    def engine(self, engine: Engine) -> Engine:
        """Return the engine the table runs the kind's games through (the registry's here)."""
        return engine

    # A new game -----------------------------------------------------------------------------

    def setup(self, setup: dict[str, JSON], setting: Setting) -> dict[str, JSON]:
        """Return a new (or imported) game's setup before the engine checks it.

        :raises RecordError: for wishes the panel may not grant (naming the key).
        """
        if setting.imported or self.random_layout is None:
            return setup
        if not {"seed", self.random_layout} & set(setup):
            # A new game with neither its layout nor a seed: pick a seed (kept in the setup).
            setup = {**setup, "seed": secrets.randbelow(2**31)}
        return setup

    def check_setup(self, setup: Mapping[str, JSON]) -> None:
        """Check what the table keeps in the setup beside the engine's keys.

        :raises RecordError: naming the key.
        """

    def check_import(self, game: Game) -> None:
        """Refuse to import, from the panel, a record that shows what the game hides (none).

        :raises RecordError: saying when it may be imported.
        """

    def seed(self, setup: Mapping[str, JSON]) -> int:
        """Return the seed of the game's dice rolls (random unless the kind keeps its own)."""
        return secrets.randbelow(2**31)

    # Playing --------------------------------------------------------------------------------

    def play(self, engine: Engine, state: Any, action: Any) -> tuple[Any, list[Phrase]]:
        """Apply a parsed step; return the new state and the plain instructions of what it did.

        :raises IllegalAction: the rules refuse it.
        """
        return engine.apply(state, action), []

    def undone_dice(self, undone: JSON) -> tuple[dict[str, int] | None, str | None]:
        """The dice (and their source) that an undone step leaves on the table (none)."""
        return None, None

    # Who may act, see and change what -------------------------------------------------------

    def is_hidden(self, game: Game) -> bool:
        """Say whether the game still hides information from some viewers (nothing here)."""
        return False

    def host_tokens(self, state: Any) -> tuple[str | None, dict[int, str]]:
        """A new game's host token (None: no host) and the token digests to store."""
        return None, {}

    def check_turn(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Refuse an action ``viewer`` may not make (anybody may act here).

        :raises Forbidden: when the acting seat's token is needed and not presented.
        """

    def check_undo(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Refuse an undo ``viewer`` may not make (anybody may undo here).

        :raises Forbidden: without a seat's token. :raises Conflict: the rules refuse it.
        """

    def check_delete(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Refuse to delete the game for ``viewer`` (anybody may here).

        :raises Forbidden: without the host token.
        """

    def token_to_give(self, game: Game, tokens: GameTokens, seat: int, viewer: Viewer) -> str:
        """The token a phone gets when it takes ``seat``.

        :raises Conflict: the kind has no seats to take (here).
        """
        raise Conflict.said(
            say("game {game} has no seats to take: only cards played on the panel", game=game.id)
        )

    def check_free(self, game: Game, tokens: GameTokens, seat: int, viewer: Viewer) -> None:
        """Refuse to free ``seat`` for ``viewer``.

        :raises Conflict: the kind has no seats to free (here).
        """
        raise Conflict.said(
            say("game {game} has no seats to free: only cards played on the panel", game=game.id)
        )

    def seat_name(self, game: Game, seat: int) -> str:
        """The name of ``seat`` (a number the kind's checks have accepted)."""
        return game.seat_names()[seat]

    # What the panel shows -------------------------------------------------------------------

    def view(self, game: Game, tokens: GameTokens, viewer: Viewer) -> dict[str, JSON]:
        """The ``state`` of the game's answer for ``viewer`` (the replay summary here)."""
        return dict(game.engine.summary(game.state))

    def seat_colours(self, game: Game) -> list[tuple[str, str | None]]:
        """Each seat's name and the colour its record gives it (none here)."""
        return [(name, None) for name in game.seat_names()]

    def export(self, game: Game) -> dict[str, JSON]:
        """The game's record: its setup (files inlined) and its steps."""
        setup = {key: value for key, value in game.setup.items() if key != "game"}
        record: dict[str, JSON] = {"game": game.kind}
        record.update(game.engine.export_setup(setup))
        record[game.engine.ACTIONS_KEY] = list(game.actions)
        return record

    # The finished play ----------------------------------------------------------------------

    def result(self, game: Game) -> Result | None:
        """The finished play's result (None while it is not over, or its journal is broken)."""
        if game.error is not None or not game.over:
            return None
        names = game.seat_names()
        return result_of(
            self.kind,
            names,
            self.final_scores(game),
            self.winner(game),
            variant=self.variant(game),
            board=self.board(game),
            started=game.created,
            ended=game.updated,
        )

    def figures(self, game: Game) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """A finished play's own figures for the logbook: the play's, then each seat's in
        seat order (none here); only what the finished record shows."""
        return {}, [{} for _ in game.seat_names()]

    def final_scores(self, game: Game) -> Sequence[int]:
        """Each seat's score in seat order (here: the summary's ``scores`` by name)."""
        scores = game.engine.summary(game.state).get("scores") or {}
        return [int(scores.get(name, 0)) for name in game.seat_names()]

    def winner(self, game: Game) -> int | None:
        """The seat the rules name winner, or None on a tie (here: the summary's ``winner``)."""
        name = game.engine.summary(game.state).get("winner")
        names = game.seat_names()
        return names.index(name) if isinstance(name, str) and name in names else None

    def variant(self, game: Game) -> str | None:
        """The variant played (the setup's ``variant`` here, if any)."""
        value = game.setup.get("variant")
        return value if isinstance(value, str) else None

    def board(self, game: Game) -> str | None:
        """The board played on, by name (none here)."""
        return None


class StateScores(Adapter):
    """A kind whose state keeps each seat's ``scores`` and the ``winner`` the rules name
    (a seat number, None before the end)."""

    def final_scores(self, game: Game) -> Sequence[int]:
        """Each seat's score as the state keeps it."""
        return [int(score) for score in game.state.scores]

    def winner(self, game: Game) -> int | None:
        """The seat the rules name winner (their tie-break applied)."""
        winner: int | None = game.state.winner
        return winner

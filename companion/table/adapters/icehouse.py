"""Icehouse Mandala's adapter (icehouse.md): a random path, each pick's notes, the layout.

A new game given neither its ``path`` nor a ``seed`` gets a random seed. The page builds
and taps the path, so its view adds the layout keys of the whole state to the summary.
"""

from __future__ import annotations

from typing import Any

from companion.games import icehouse
from companion.games.base import JSON, Engine
from companion.phrases import Phrase, say
from companion.table.adapters.base import Form, StateScores
from companion.table.game import Game
from companion.table.seats import GameTokens, Viewer

VIEW_KEYS = ("seed", "path", "places", "scorings", "at_end")
"""What an icehouse page needs besides the summary (the layout to build and to tap)."""


class IcehouseAdapter(StateScores):
    """Kory Heath's Icehouse Mandala."""

    export_name = "Mandala (Icehouse)"  # no BoardGameGeek id could be confirmed

    def __init__(self) -> None:
        super().__init__(icehouse.KIND, say("Icehouse Mandala"), Form(seats=[2, 5]), "path")

    def play(self, engine: Engine, state: Any, action: Any) -> tuple[Any, list[Phrase]]:
        """Resolve the pick; its notes say what happened, event by event."""
        outcome = icehouse.resolve(state, action)
        return outcome.state, [icehouse.describe(event, state) for event in outcome.events]

    def figures(self, game: Game) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """The sets (kinds) scored; each seat's sets won: the kinds it took the most points
        of (a tie: every seat tied on the most)."""
        won = [0] * len(game.state.seats)
        for scoring in game.state.scorings:
            best = max((award.points for award in scoring.awards), default=0)
            for award in scoring.awards:
                if best > 0 and award.points == best:
                    won[award.seat] += 1
        seats: list[dict[str, JSON]] = [{"sets_won": count} for count in won]
        return {"sets": len(game.state.scorings)}, seats

    def view(self, game: Game, tokens: GameTokens, viewer: Viewer) -> dict[str, JSON]:
        """The summary and the path's layout."""
        state = super().view(game, tokens, viewer)
        whole = icehouse.state_to_json(game.state)
        state.update((key, whole[key]) for key in VIEW_KEYS)
        return state

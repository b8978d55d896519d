"""Mandala Stones' adapter (stones.md): a random layout and the page's extras.

A new game given neither its ``stones`` nor a ``seed`` gets a random seed. Its view adds
``companion.table.stones_view``'s keys, the placeholder flag among them: the page shows a
banner while the data file's values are not yet the printed game's.
"""

from __future__ import annotations

from companion.games import stones
from companion.games.base import JSON
from companion.phrases import say
from companion.table import stones_view
from companion.table.adapters.base import Form, StateScores
from companion.table.game import Game
from companion.table.seats import GameTokens, Viewer


class StonesAdapter(StateScores):
    """Mandala Stones."""

    bgg_id = 317504  # BoardGameGeek's ranks list: "317504,Mandala Stones,2021"

    def __init__(self) -> None:
        super().__init__(stones.KIND, say("Mandala Stones"), Form(seats=[2, 4]), "stones")

    def figures(self, game: Game) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """The VP spread: the best final score less the lowest."""
        scores = self.final_scores(game)
        spread = max(scores, default=0) - min(scores, default=0)
        return {"spread": spread}, [{} for _ in scores]

    def view(self, game: Game, tokens: GameTokens, viewer: Viewer) -> dict[str, JSON]:
        """The summary and the score options, picks and printed values (the panel's notes)."""
        state = super().view(game, tokens, viewer)
        state.update(stones_view.panel_state(game.state))
        return state

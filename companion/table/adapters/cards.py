"""The card game's adapter (cards.md): hidden hands, seat tokens, the companion's seat.

A card game played on the panel (mode ``play``) hides each seat's hand: nobody may choose
its deck (a random seed is kept in the setup), its creator is the host, phones take seats
with tokens, and each viewer sees only what its seat may (``companion.table.cards_view``).
Its record is exported once it is over. A game tracking a real table hides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games import cards
from companion.games.base import JSON, Engine, RecordError
from companion.phrases import Phrase, say
from companion.table import cards_view
from companion.table.adapters.base import Adapter, Form, Setting
from companion.table.cards_setup import COMPANION, CardsEngine, check_seat, engine_setup
from companion.table.game import Game
from companion.table.seats import GameTokens, Viewer


class CardsAdapter(Adapter):
    """Lookout's 2019 Mandala card game."""

    seat_tokens = True
    export_name = "Mandala"
    bgg_id = 264241  # BoardGameGeek's ranks list: "264241,Mandala,2019"

    def __init__(self) -> None:
        super().__init__(
            cards.KIND, say("Mandala card game"), Form(seats=[2, 2], options="cards-options")
        )

    def engine(self, engine: Engine) -> Engine:
        """The card engine behind the companion's seat objects (it knows seat names only)."""
        return CardsEngine(engine)

    def setup(self, setup: dict[str, JSON], setting: Setting) -> dict[str, JSON]:
        """A new game played on the panel shuffles its own deck (a random seed, kept)."""
        if setting.imported:
            return setup
        if setting.hidden_deck:
            cards_view.refuse_chosen_deck(setup)
        return cards_view.new_setup(setup)

    def check_import(self, game: Game) -> None:
        """A game played on the panel imports once it is over (its record shows every hand)."""
        if self.is_hidden(game):
            hidden = say(
                "this card game played on the panel is not over, and its record shows "
                "the deck and every hand; import it once the game is over"
            )
            raise RecordError.said(say("{where}: {reason}", where="record", reason=hidden))

    def play(self, engine: Engine, state: Any, action: Any) -> tuple[Any, list[Phrase]]:
        """Apply the action; its notes say what happened (draws as counts, in play mode)."""
        after = engine.apply(state, action)
        return after, cards_view.describe(state, engine.action_to_json(action), after)

    def is_hidden(self, game: Game) -> bool:
        """Played on the panel and not over: the hands are hidden."""
        return game.error is None and cards_view.hidden(game.state)

    def host_tokens(self, state: Any) -> tuple[str | None, dict[int, str]]:
        """Played on the panel: a host token for the creating phone."""
        return cards_view.host_tokens(state)

    def check_turn(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Only the acting seat's phone (or the companion in its seat) may act."""
        if viewer is not COMPANION:
            cards_view.check_turn(game.state, tokens, viewer)

    def check_undo(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Section 11: a seat undoes only its own last action, before the other acts."""
        cards_view.check_undo(game.states, game.actions, tokens, viewer)

    def check_delete(self, game: Game, tokens: GameTokens, viewer: Viewer) -> None:
        """Only the host deletes a game that hides hands."""
        cards_view.check_delete(game.state, tokens, viewer)

    def token_to_give(self, game: Game, tokens: GameTokens, seat: int, viewer: Viewer) -> str:
        """A free seat's new token, or a taken seat's own token again (never the companion's)."""
        if game.error is not None:
            return super().token_to_give(game, tokens, seat, viewer)
        check_seat(game, seat, "take")
        return cards_view.token_to_give(game.state, tokens, seat, viewer)

    def check_free(self, game: Game, tokens: GameTokens, seat: int, viewer: Viewer) -> None:
        """Only the host frees a seat (never the companion's)."""
        if game.error is not None:
            super().check_free(game, tokens, seat, viewer)
        check_seat(game, seat, "free")
        cards_view.check_free(game.state, tokens, seat, viewer)

    def view(self, game: Game, tokens: GameTokens, viewer: Viewer) -> dict[str, JSON]:
        """What this viewer may see (the shared view without a token); never the summary."""
        return cards_view.state_view(game.states, game.actions, tokens, viewer)

    def export(self, game: Game) -> dict[str, JSON]:
        """The engine's own record: seat names only, the reshuffles a seeded deck used."""
        if game.error is not None:
            return super().export(game)
        setup = {key: value for key, value in game.setup.items() if key != "game"}
        record: dict[str, JSON] = {"game": game.kind}
        record.update(
            cards.export_record(
                engine_setup({**setup, "game": game.kind}), game.actions, game.state
            )
        )
        return record

    def figures(self, game: Game) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """Each seat's river at the end, as colour counts (the finished record shows the
        rivers; the hands and the deck stay out)."""
        seats: list[dict[str, JSON]] = []
        for river in game.state.rivers:
            counts: dict[str, JSON] = {}
            for colour in river:
                counts[str(colour)] = int(counts.get(str(colour), 0) or 0) + 1
            seats.append({"river": counts})
        return {}, seats

    def final_scores(self, game: Game) -> Sequence[int]:
        """Each seat's cup value."""
        return list(cards.scores(game.state))

    def winner(self, game: Game) -> int | None:
        """Most points; a tie goes to fewer cup cards; still tied, nobody."""
        return cards.winner(game.state)

    def variant(self, game: Game) -> str | None:
        """``play`` (on the panel) or ``table`` (tracking a real table)."""
        return str(game.state.mode)

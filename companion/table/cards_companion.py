"""The companion's seat in a card game played on the panel (issue 11), driven by the table.

**Setup.** The companion's seat is a seat object ``{"name": "Bo", "computer": "hard"}`` of a
card game played on the panel; the seat objects are checked and read in
``companion.table.cards_setup`` (which the card game's adapter uses too).

**Driving it** (:class:`CompanionSeats`, owned by the :class:`~companion.table.Table` and run
on its thread after every command, like the ring board's ``ComputerSeats``). Whenever the
companion's seat must act -- its turn, or its claim during a destruction (claims alternate,
so it claims in turn) -- the table builds the seat's view (``view_of_game`` from the game's
start state and journal) and hands a worker thread that view only, never the state: the
worker decides (``companion.players.cards.decide``, within the configured time budget),
waits out the rest of the pause so that its plays appear one at a time, and posts the
action back through the table's queue. The table applies it through the same ``act`` path
as a phone's action (journal first). A decision whose game changed meanwhile (an undo) is
dropped; the companion decides again when its action comes round.

**Undo.** A person may undo only their own last action before the other seat acts (cards.md
section 11): in a game against the companion that is a field play or a claim undone during
the companion's pause. The next action is then the person's again, so the companion never
has to wait after an undo (unlike the ring board's computer seats); it cannot undo, and
nobody can undo its actions.

**What the panel shows**, to every viewer (public facts only): ``players`` (each seat's name
and ``computer`` level or None), ``companion`` (while it decides: who, the level, and
``error`` if it could not play) and ``companion_said``: one line per action it played, its
``phrase`` (``Bo (companion) plays purple into mountain 1``, in the reader's language),
worked out from the journal, so it survives restarts and undo.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.games import cards
from companion.games.base import JSON, MandalaError
from companion.games.cards.model import COLOURS, RIVER_SPACES
from companion.phrases import Phrase, say, say_n
from companion.players import cards as players
from companion.table.adapters import adapter
from companion.table.announce_games import colour_words
from companion.table.cards_setup import COMPANION, Companion, companion_of
from companion.table.errors import TableError
from companion.table.game import Game, SeatHost

log = logging.getLogger(__name__)

DEFAULT_PAUSE_MS = 700
"""How long each of the companion's actions takes at least, so a phone sees them one by one."""
Decide = Callable[..., cards.Action]


# ---------------------------------------------------------------------------------------
# Driving the seat


@dataclass
class CardPlan:
    """One decision of the companion in progress (owned by the table thread)."""

    game_id: str
    version: int
    companion: Companion
    cancelled: threading.Event = field(default_factory=threading.Event)
    error: str | None = None


class CompanionSeats:
    """The companion's seats of every card game here; every method runs on the table thread
    except the worker's :meth:`_think`, which gets a seat view and posts back."""

    def __init__(self, table: SeatHost) -> None:
        self.table = table
        self.plans: dict[str, CardPlan] = {}
        self.budget_ms = players.DEFAULT_BUDGET_MS
        self.pause_ms = DEFAULT_PAUSE_MS
        self.decide: Decide = players.decide
        """What the worker calls with the seat's view (tests wrap it to see what it gets)."""
        self._said: dict[str, tuple[int, list[JSON]]] = {}

    def configure(self, budget_ms: int | None = None, pause_ms: int | None = None) -> None:
        """Set the search's time budget and the pause per action (None keeps the default)."""
        if budget_ms is not None:
            self.budget_ms = budget_ms
        if pause_ms is not None:
            self.pause_ms = pause_ms

    def tick(self) -> None:
        """Start a decision for every companion seat that must act and has none under way;
        drop decisions whose game changed or went away."""
        games = self.table.games()
        here = {game.id for game in games}
        for game_id in [g for g in self.plans if g not in here]:
            self._drop(game_id)
        for game_id in [g for g in self._said if g not in here]:
            del self._said[game_id]
        for game in games:
            if game.error is not None or not adapter(game.kind).seat_tokens:
                continue
            companion = companion_of(game.setup)
            if companion is None:
                continue
            plan = self.plans.get(game.id)
            if plan is not None and plan.version != game.version:
                self._drop(game.id)
                plan = None
            if plan is None and not game.over and cards.acting_seat(game.state) == companion.seat:
                self._start(game, companion)

    def _drop(self, game_id: str) -> None:
        plan = self.plans.pop(game_id, None)
        if plan is not None:
            plan.cancelled.set()

    def _start(self, game: Game, companion: Companion) -> None:
        steps = [
            cards.parse_action(before, obj)
            for before, obj in zip(game.states, game.actions, strict=False)
        ]
        view = players.view_of_game(game.states[0], steps, companion.seat)
        plan = CardPlan(game.id, game.version, companion)
        self.plans[game.id] = plan
        # Its own generator, from the system's entropy: nothing of the game's seed (the deck).
        rng = random.Random(secrets.randbits(64))
        worker = threading.Thread(
            target=self._think, args=(plan, view, rng), name="cards-companion", daemon=True
        )
        worker.start()
        self.table.changed(game)

    def _think(self, plan: CardPlan, view: players.SeatView, rng: random.Random) -> None:
        """The worker: decide from the view, let the pause run out, post the action."""
        started = time.monotonic()
        level: Any = plan.companion.level
        try:
            action = self.decide(view, level, rng, self.budget_ms)
        except ValueError as error:
            reason = str(error)
            self._post(lambda: self._failed(plan, reason))
            return
        rest = self.pause_ms / 1000 - (time.monotonic() - started)
        if plan.cancelled.wait(max(0.0, rest)):
            return
        self._post(lambda: self._chosen(plan, action))

    def _post(self, function: Callable[[], None]) -> None:
        with contextlib.suppress(TableError):  # the table is stopping: the decision goes too
            self.table.call(function)

    def _failed(self, plan: CardPlan, reason: str) -> None:
        if self.plans.get(plan.game_id) is not plan:
            return
        log.error("game %s: the companion could not decide: %s", plan.game_id, reason)
        plan.error = "the companion could not decide its action"
        self._publish(plan.game_id)

    def _chosen(self, plan: CardPlan, action: cards.Action) -> None:
        if self.plans.get(plan.game_id) is not plan:
            return
        game = self.table.game(plan.game_id)
        if game is None or game.version != plan.version:
            self._drop(plan.game_id)
            return
        del self.plans[plan.game_id]  # the state published after the action shows no decision
        try:
            self.table.act(game.id, plan.version, cards.action_to_json(action), COMPANION)
        except MandalaError as error:
            # The reason may name the companion's cards: it goes to the log, not the panel.
            log.error("game %s: the companion's action %s failed: %s", game.id, action, error)
            plan.error = "the companion could not play its action"
            self.plans[plan.game_id] = plan
            self._publish(game.id)

    def _publish(self, game_id: str) -> None:
        game = self.table.game(game_id)
        if game is not None:
            self.table.changed(game)

    # What the table and the panel ask ------------------------------------------------------

    def view(self, game: Game) -> dict[str, JSON]:
        """The keys every viewer's state of a card game gets (public facts only)."""
        companion = companion_of(game.setup)
        names = game.seat_names()
        plan = self.plans.get(game.id)
        thinking: JSON = None
        # A decision for an older version (an undo came in) is dropped at the next tick.
        if plan is not None and companion is not None and plan.version == game.version:
            values: dict[str, str | Phrase] = {
                "name": companion.name,
                "level": say(companion.level),  # easy, medium, hard: the catalogue's words
            }
            doing = (
                say("{name} (companion, {level}) could not play", **values)
                if plan.error
                else say("{name} (companion, {level}) is thinking", **values)
            )
            thinking = {
                "seat": companion.name,
                "level": companion.level,
                "phrase": doing.to_json(),
                "error": plan.error,
            }
        return {
            "players": [
                {
                    "name": name,
                    "computer": companion.level
                    if companion is not None and companion.seat == number
                    else None,
                }
                for number, name in enumerate(names)
            ],
            "companion": thinking,
            "companion_said": self._said_lines(game, companion),
        }

    def _said_lines(self, game: Game, companion: Companion | None) -> list[JSON]:
        if companion is None:
            return []
        cached = self._said.get(game.id)
        if cached is not None and cached[0] == game.version:
            return list(cached[1])
        lines: list[JSON] = []
        for number, (before, obj) in enumerate(zip(game.states, game.actions, strict=False)):
            if cards.acting_seat(before) != companion.seat:
                continue
            try:
                action = cards.parse_action(before, obj)
            except ValueError:
                continue
            lines.append(
                {
                    "action": number + 1,
                    "seat": companion.name,
                    "phrase": explain_words(companion.name, action, before).to_json(),
                }
            )
        self._said[game.id] = (game.version, lines)
        return list(lines)


def explain_words(name: str, action: cards.Action, view: cards.State) -> Phrase:
    """The companion's line for ``action`` as words (``players.explain``'s English, with
    ``{mandala}`` counted from 0 as there: the page counts it from 1)."""
    if isinstance(action, cards.MountainPlay):
        return say(
            "{name} (companion) plays {colour} into mountain {mandala}",
            name=name,
            colour=colour_words(action.colour),
            mandala=action.mandala,
        )
    if isinstance(action, cards.FieldPlay | cards.Discard):
        taken = say_n(
            "{colour}", "{count} {colour}", action.count, colour=colour_words(action.colour)
        )
        if isinstance(action, cards.FieldPlay):
            return say(
                "{name} (companion) plays {cards} into field {mandala}",
                name=name,
                cards=taken,
                mandala=action.mandala,
            )
        return say("{name} (companion) discards {cards}", name=name, cards=taken)
    if not isinstance(action, cards.Claim):
        raise ValueError(f"{action!r}: not an action the companion plays")
    where = _claim_destination(action, view)
    colour = colour_words(action.colour)
    if where is None:
        return say("{name} (companion) claims {colour}", name=name, colour=colour)
    return say(
        "{name} (companion) claims {colour} ({where})", name=name, colour=colour, where=where
    )


def _claim_destination(action: cards.Claim, view: cards.State) -> Phrase | None:
    """Where a claim's cards go, as ``players.explain`` says it (None: it says nothing)."""
    if view.claiming is None or view.seat is None:
        return None
    m = view.claiming.mandala
    count = view.mountains[m][COLOURS.index(action.colour)]
    if count == 0:
        return None
    river = view.rivers[view.seat]
    if sum(view.fields[m][view.seat]) == 0:
        return say("to the discard pile")
    if action.colour not in river and len(river) < RIVER_SPACES:
        space = len(river) + 1
        if count == 1:
            return say("river space {space}", space=space)
        return say("river space {space}, {rest} to the cup", space=space, rest=count - 1)
    return say("{count} to the cup", count=count)

"""The companion's seat in a card game played on the panel (issue 11), driven by the table.

**Setup.** A card game played on the panel (mode ``play``) may have one seat played by the
companion: that seat is an object ``{"name": "Bo", "computer": "hard"}`` (``"easy"`` or
``"hard"``) in the game's ``seats``; the other seat is a plain name (or an object without
``computer``): a person's. The seat object stays in the stored setup, so the companion
keeps its seat across restarts. The card engine knows seat names only, so the table runs
it through :class:`CardsEngine`, which checks the seat objects and hands the engine the
names; the exported record carries the names only (cards.md section 7), so
``mandala replay`` reads it as it is.

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
``error`` if it could not play) and ``companion_said``: one line per action it played
(``Bo (companion) plays purple into mountain 1``), worked out from the journal, so it
survives restarts and undo.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games import cards
from companion.games.base import JSON, MandalaError, RecordError, as_str, check_keys, join
from companion.players import cards as players
from companion.table.errors import Forbidden, TableError
from companion.table.game import Game, SeatHost
from companion.table.seats import Viewer

log = logging.getLogger(__name__)

COMPUTER = "computer"
DEFAULT_PAUSE_MS = 700
"""How long each of the companion's actions takes at least, so a phone sees them one by one."""
COMPANION = Viewer(("the companion's own seat",))
"""The viewer the companion acts as; the table recognises this very object (not its token:
no digest of it is ever stored, so a request presenting the same text is nobody)."""

Decide = Callable[..., cards.Action]


# ---------------------------------------------------------------------------------------
# The setup


@dataclass(frozen=True)
class Companion:
    """The companion's seat of a game: its number, name and level."""

    seat: int
    name: str
    level: str


def companion_of(setup: Mapping[str, JSON]) -> Companion | None:
    """The companion's seat in a (checked) setup, or None when both seats are people's."""
    seats = setup.get("seats")
    for number, seat in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(seat, dict) and isinstance(seat.get(COMPUTER), str):
            return Companion(number, str(seat.get("name", "")), str(seat[COMPUTER]))
    return None


def check_setup(setup: Mapping[str, JSON]) -> None:
    """Check the seat objects of a card game's setup.

    :raises RecordError: naming the key, e.g. ``seats[1].computer: 'medium' is not one of
        easy, hard`` or ``seats[1].computer: the companion plays only games played
        on the panel (mode 'play'), not a tracked table``.
    """
    seats = setup.get("seats")
    if not isinstance(seats, list):
        return  # the engine names what is wrong with the seats
    computers = []
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        where = join("seats", number)
        check_keys(seat, where, ["name"], ["name", COMPUTER])
        if seat.get(COMPUTER) is not None:
            as_str(seat[COMPUTER], join(where, COMPUTER), players.LEVELS)
            computers.append(join(where, COMPUTER))
    if not computers:
        return
    if setup.get("mode", "play") != "play":
        raise RecordError(
            f"{computers[0]}: the companion plays only games played on the panel "
            "(mode 'play'), not a tracked table"
        )
    if len(computers) > 1:
        raise RecordError(f"{computers[1]}: the companion plays one seat; the other is a person's")


def engine_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """The setup as the card engine reads it: each seat object becomes its name."""
    out = dict(setup)
    seats = out.get("seats")
    if isinstance(seats, list):
        out["seats"] = [
            seat["name"] if isinstance(seat, dict) and "name" in seat else seat for seat in seats
        ]
    return out


class CardsEngine:
    """The card engine as the table runs it: seat objects (a companion's seat) allowed.

    Everything but the setup goes straight to the engine module ``inner``.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.KIND: str = inner.KIND
        self.ACTIONS_KEY: str = inner.ACTIONS_KEY
        self.STEP_WORD: str = inner.STEP_WORD

    def new_game(self, setup: Mapping[str, JSON]) -> Any:
        """Check the seat objects, then build the start from the names.

        :raises RecordError: naming the key.
        """
        check_setup(setup)
        return self.inner.new_game(engine_setup(setup))

    def parse_action(self, state: Any, obj: JSON) -> Any:
        """As the engine."""
        return self.inner.parse_action(state, obj)

    def apply(self, state: Any, action: Any) -> Any:
        """As the engine."""
        return self.inner.apply(state, action)

    def is_over(self, state: Any) -> bool:
        """As the engine."""
        return bool(self.inner.is_over(state))

    def summary(self, state: Any) -> dict[str, JSON]:
        """As the engine."""
        out: dict[str, JSON] = self.inner.summary(state)
        return out

    def action_to_json(self, action: Any) -> JSON:
        """As the engine."""
        out: JSON = self.inner.action_to_json(action)
        return out

    def export_setup(self, setup: Mapping[str, JSON]) -> dict[str, JSON]:
        """As the engine (seat objects kept: this is what the table stores)."""
        out: dict[str, JSON] = self.inner.export_setup(setup)
        return out


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
            if game.kind != cards.KIND or game.error is not None:
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

    @staticmethod
    def check_seat(game: Game, seat: int, doing: str) -> None:
        """Refuse to take or free (``doing``) the companion's seat.

        :raises Forbidden: ``seat 1 (Bo) is the companion's: no phone may take it``.
        """
        companion = companion_of(game.setup)
        if companion is not None and companion.seat == seat:
            raise Forbidden(
                f"seat {seat} ({companion.name}) is the companion's: no phone may {doing} it"
            )

    def view(self, game: Game) -> dict[str, JSON]:
        """The keys every viewer's state of a card game gets (public facts only)."""
        companion = companion_of(game.setup)
        names = game.seat_names()
        plan = self.plans.get(game.id)
        thinking: JSON = None
        # A decision for an older version (an undo came in) is dropped at the next tick.
        if plan is not None and companion is not None and plan.version == game.version:
            doing = "could not play" if plan.error else "is thinking"
            thinking = {
                "seat": companion.name,
                "level": companion.level,
                "text": f"{companion.name} (companion, {companion.level}) {doing}",
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
                text = players.explain(action, before)
            except ValueError:
                continue
            lines.append(
                {
                    "action": number + 1,
                    "seat": companion.name,
                    "text": f"{companion.name} (companion) {text}",
                }
            )
        self._said[game.id] = (game.version, lines)
        return list(lines)

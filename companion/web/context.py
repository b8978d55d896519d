"""What the panel needs from the table service, and the two things every view does first.

:class:`TableService` is the contract of ``companion.table.Table`` as the panel uses it; the
views reach the running one with :func:`table` and read a request body with :func:`json_body`.
:class:`Diagnostics` is what the Health page asks the doctor, reached with :func:`diagnostics`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from flask import current_app, request

from companion.games.base import JSON, RecordError, as_dict
from companion.table.errors import NotFound
from companion.table.seats import Viewer

TABLE_KEY = "mandala.table"
DIAGNOSTICS_KEY = "mandala.diagnostics"
T = TypeVar("T")


class Sent(Protocol):
    """One item of a live stream and its JSON text (made once for every stream)."""

    item: dict[str, Any]
    text: str


class Subscription(Protocol):
    """One live stream of changes: the current state first, then one item per change."""

    closed: bool
    """Whether the stream has ended (closed by the table, e.g. as the server stops)."""

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Return the next item, or None when ``timeout`` passes with none."""
        ...

    def next(self, timeout: float | None = None) -> Sent | None:
        """Return the next item with its JSON text, or None as :meth:`get` does."""
        ...

    def close(self) -> None:
        """Stop the stream and free its place."""
        ...


class TableService(Protocol):
    """The table service's public methods (contract C); each answers JSON-ready values."""

    @property
    def hardware(self) -> Any:
        """The ring board's opened parts (``firmware.hardware.Hardware``), or ``None``."""
        ...

    data_dir: Path

    def list_games(self) -> list[dict[str, Any]]: ...
    def games_page(self, page: int = 1) -> dict[str, Any]: ...
    def player_colours(self) -> dict[str, str]: ...
    def seat_colours(self, game_id: str) -> dict[str, str]: ...
    def create_game(
        self, body: dict[str, Any], client: str | None = None, *, hidden_deck: bool = False
    ) -> dict[str, Any]: ...
    def get_game(self, game_id: str, viewer: Viewer | None = None) -> dict[str, Any]: ...
    def act(
        self, game_id: str, version: int, action: dict[str, Any], viewer: Viewer | None = None
    ) -> dict[str, Any]: ...
    def undo(self, game_id: str, version: int, viewer: Viewer | None = None) -> dict[str, Any]: ...
    def delete(self, game_id: str, viewer: Viewer | None = None) -> None: ...
    def take_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, Any]: ...
    def free_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, Any]: ...
    def export(self, game_id: str) -> dict[str, Any]: ...
    def result(self, game_id: str) -> Any: ...
    def board(self) -> dict[str, Any]: ...
    def zero_rings(self) -> Any: ...
    def set_ring_offset(self, ring: int, offset: int) -> Any: ...
    def emulator_turn(self, ring: int, detents: int) -> Any: ...
    def emulator_press(self, name: str) -> Any: ...
    def subscribe(
        self, viewer: Viewer | None = None, client: str | None = None
    ) -> Subscription: ...
    def status(self) -> dict[str, Any]: ...
    def health_view(self) -> dict[str, Any]: ...
    def start_ring_test(self) -> dict[str, Any]: ...
    def led_test(self, show: str, pixel: JSON = None) -> dict[str, Any]: ...
    def swap_data(self, change: Callable[[], T]) -> T: ...


def table() -> TableService:
    """Return the table service the running app was built with."""
    service: TableService = current_app.extensions[TABLE_KEY]
    return service


class Diagnostics(Protocol):
    """What the Health page asks the doctor (``companion.doctor.panel.PanelDoctor``)."""

    def checks(self, service: Any) -> list[dict[str, JSON]]:
        """Every check against the running companion, as JSON."""
        ...

    def led_roles(self, hardware: Any) -> list[tuple[str, int]]:
        """Each role of the LED map with how many pixels it lights."""
        ...

    def bundle(self, service: Any) -> tuple[str, bytes]:
        """The diagnostics .zip: its file name and its bytes."""
        ...


def diagnostics() -> Diagnostics:
    """Return the doctor the running app was built with.

    :raises NotFound: when it was built without one (no Health page then).
    """
    found: Diagnostics | None = current_app.extensions.get(DIAGNOSTICS_KEY)
    if found is None:
        raise NotFound("this panel was started without its diagnostics")
    return found


MAX_DIGITS = 4300
"""The longest whole number a body may hold (Python's own limit for turning text to int)."""
MAX_DEPTH = 64
"""How deeply a body's lists and objects may nest."""


def parse_int(text: str) -> int:
    """Read a JSON whole number, refusing one too long to be a number anyone means."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(
            f"request body: a number of {len(text.lstrip('-'))} digits is too long "
            f"(at most {MAX_DIGITS})"
        )
    return int(text)


def parse_float(text: str) -> float:
    """Read a JSON number with a fraction or exponent; it must be finite."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise RecordError(f"request body: the number {text[:40]} is too large")
    return value


def parse_constant(text: str) -> float:
    """Refuse ``NaN`` and ``Infinity``, which Python reads but JSON does not have."""
    raise RecordError(f"request body: not JSON: {text} is not a JSON value")


def check_text(value: JSON, depth: int = 0) -> None:
    """Refuse lone surrogates in any text of a body (they cannot be stored or shown), and
    nesting deeper than :data:`MAX_DEPTH`.

    :raises RecordError: ``request body: ...``.
    """
    if depth > MAX_DEPTH:
        raise RecordError(f"request body: nested more than {MAX_DEPTH} deep")
    if isinstance(value, str):
        texts: list[JSON] = [value]
    elif isinstance(value, dict):
        texts = list(value)
        for item in value.values():
            check_text(item, depth + 1)
    elif isinstance(value, list):
        texts = []
        for item in value:
            check_text(item, depth + 1)
    else:
        return
    for text in texts:
        if isinstance(text, str) and not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as error:
                code = ord(text[error.start])
                raise RecordError(
                    f"request body: text holds a lone surrogate (\\u{code:04x}); send real "
                    "characters"
                ) from None


def json_body(empty: JSON = None) -> dict[str, JSON]:
    """Parse the request body as a JSON object (``empty`` stands in for an empty body).

    :raises RecordError: ``request body: ...`` when it is not UTF-8 JSON or not an object,
        holds a number too long or not finite, a lone surrogate, or nests too deeply.
    """
    raw = request.get_data(cache=True)
    if not raw.strip() and empty is not None:
        return as_dict(empty, "request body")
    try:
        value = json.loads(
            raw.decode("utf-8"),
            parse_int=parse_int,
            parse_float=parse_float,
            parse_constant=parse_constant,
        )
    except UnicodeDecodeError as error:
        raise RecordError(f"request body: not UTF-8 text at byte {error.start}") from error
    except json.JSONDecodeError as error:
        raise RecordError(
            f"request body: not JSON: line {error.lineno} column {error.colno}: {error.msg}"
        ) from error
    except RecursionError as error:
        raise RecordError("request body: not JSON: nested too deeply") from error
    check_text(value)
    return as_dict(value, "request body")

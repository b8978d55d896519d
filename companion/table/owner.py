"""The owner role: the phones allowed to destroy or change the box (SECURITY.md).

Play needs no owner; deleting a game, importing, saving a board, zeroing or setting rings,
the Health page's actions and the config do. A phone becomes the owner in one of two ways:

- it asks (:meth:`OwnerRole.ask_button`) and, within :data:`BUTTON_SECONDS`, someone presses
  the box's ``done`` button (the emulated one in emulation), the way a Hue bridge's link
  button authorises a new app. The press approves the one phone asking; when more than one
  asks at once none is approved (a stranger asking at the same moment gets nothing);
- it presents a one-time code ``mandala pair`` printed on the box's own shell
  (:func:`new_pair_code`): valid :data:`CODE_SECONDS`, one use, kept in the shared database
  as a digest so it works while the server runs. After :data:`MAX_WRONG_CODES` wrong codes
  every outstanding code is forgotten.

Either way the phone gets an owner token (256 random bits); only its SHA-256 digest is
stored, and neither tokens nor codes are ever logged. The owner lists and revokes the phones
holding the role. Every method runs on the table thread (the public ones go through its
queue).
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from companion.phrases import say
from companion.table.errors import Conflict, Forbidden, NotFound, StorageError
from companion.table.phones import MAX_LABEL
from companion.table.schema import SCHEMA_VERSION, OwnerRow, describe_sqlite_error, schema_version
from companion.table.seats import digest, new_token
from companion.table.store import DB_NAME, Store

T = TypeVar("T")


class Caller(Protocol):
    """What the owner role uses of the table: running a function on its thread."""

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the table thread (from any thread)."""
        ...


CODE_SECONDS = 600
"""How long a code from ``mandala pair`` stays valid."""
BUTTON_SECONDS = 60
"""How long a phone's request waits for the ``done`` button."""
MAX_WRONG_CODES = 10
"""Wrong codes tolerated before every outstanding code is forgotten."""
MAX_WAITING = 16
"""Requests waiting for the button at once; the oldest are dropped beyond this."""
CODE_DIGITS = 8

HOW_TO_WORDS = say(
    "to become the owner, open Owner on the home page and press the box's done button when "
    "it asks, or enter the code that `mandala pair` prints on the box"
)
HOW_TO = HOW_TO_WORDS.english()


class OwnerRequired(Forbidden):
    """The request needs the owner role and does not present an owner token: HTTP 403."""


def new_pair_code() -> str:
    """A fresh one-time code: 8 random digits, shown as two groups of four."""
    number = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
    return f"{number[:4]}-{number[4:]}"


def code_digest(code: str) -> str:
    """The digest a code is stored as (spaces and dashes do not count)."""
    return digest("".join(c for c in code if c not in " -"))


@dataclass
class _Request:
    """One phone waiting for the button."""

    label: str
    expires: float
    approved: bool = False
    refused: str | None = None


class OwnerRole:
    """Who holds the owner role; kept in the table's store, checked on the table thread."""

    def __init__(self, table: Caller, db: Callable[[], Store]) -> None:
        self.table = table
        self._db = db
        self._owners: dict[str, OwnerRow] = {}
        """Digest of each owner token -> its row."""
        self._waiting: dict[str, _Request] = {}
        """Digest of each button request -> the request."""
        self._wrong = 0

    def load(self) -> None:
        """Read the owners from the store (the table calls this as it starts)."""
        self._owners = {row.digest: row for row in self._db().owners()}

    # Public (any thread) ------------------------------------------------------------------

    def is_owner(self, token: str | None) -> bool:
        """Say whether ``token`` is a current owner token."""
        return self.owner_id(token) is not None

    def owner_id(self, token: str | None) -> str | None:
        """The public id of the phone ``token`` belongs to, or None if it is no owner's."""
        if not token:
            return None
        wanted = digest(token)
        row = self.table.call(lambda: self._owners.get(wanted))
        return None if row is None else row.id

    def pair_with_code(self, code: str, label: str) -> dict[str, Any]:
        """Trade a code from ``mandala pair`` for an owner token.

        :raises Forbidden: for a wrong, used or expired code.
        """
        return self.table.call(lambda: self._pair_with_code(code, label))

    def ask_button(self, label: str) -> dict[str, Any]:
        """Start waiting for the ``done`` button: ``{"request", "expires_in"}``."""
        return self.table.call(lambda: self._ask(label))

    def poll_button(self, request: str) -> dict[str, Any]:
        """``{"waiting": true, ...}`` until the button is pressed, then the owner token.

        :raises Forbidden: for an unknown or expired request.
        :raises Conflict: when more than one phone asked when the button was pressed.
        """
        return self.table.call(lambda: self._poll(request))

    def phones(self) -> list[dict[str, Any]]:
        """The phones holding the role: ``{"id", "label", "how", "paired"}`` each."""

        def listing() -> list[dict[str, Any]]:
            from companion.table.game import iso

            rows = sorted(self._owners.values(), key=lambda row: (row.created, row.id))
            return [
                {"id": r.id, "label": r.label, "how": r.how, "paired": iso(r.created)} for r in rows
            ]

        return self.table.call(listing)

    def revoke(self, owner_id: str) -> None:
        """Take the role from the phone ``owner_id``.

        :raises NotFound: when no phone with that id holds it.
        """
        self.table.call(lambda: self._revoke(owner_id))

    # Table thread -------------------------------------------------------------------------

    def is_asking(self) -> bool:
        """Say whether some phone is waiting for the ``done`` button now."""
        self._expire()
        return any(not r.approved and r.refused is None for r in self._waiting.values())

    def when_done(self) -> bool:
        """The ``done`` button was pressed: approve the one phone asking, if any.

        :returns: whether the press was for pairing (then it confirms nothing else).
        """
        self._expire()
        asking = [r for r in self._waiting.values() if not r.approved and r.refused is None]
        if not asking:
            return False
        if len(asking) == 1:
            asking[0].approved = True
        else:
            for request in asking:
                request.refused = (
                    f"{len(asking)} phones asked to become the owner when the done button was "
                    "pressed, so none was trusted; ask again on one phone only"
                )
        return True

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [key for key, r in self._waiting.items() if r.expires <= now]:
            del self._waiting[key]

    def _ask(self, label: str) -> dict[str, Any]:
        self._expire()
        while len(self._waiting) >= MAX_WAITING:
            del self._waiting[next(iter(self._waiting))]
        request = new_token()
        self._waiting[digest(request)] = _Request(label, time.monotonic() + BUTTON_SECONDS)
        return {
            "request": request,
            "waiting": True,
            "expires_in": BUTTON_SECONDS,
            "message": f"press the done button on the box within {BUTTON_SECONDS} seconds",
        }

    def _poll(self, request: str) -> dict[str, Any]:
        self._expire()
        key = digest(request)
        found = self._waiting.get(key)
        if found is None:
            raise Forbidden.said(
                say(
                    "this request to become the owner is unknown or has expired; ask again and "
                    "press the box's done button within {seconds} seconds",
                    seconds=BUTTON_SECONDS,
                )
            )
        if found.refused is not None:
            del self._waiting[key]
            raise Conflict(found.refused)
        if not found.approved:
            left = max(0, round(found.expires - time.monotonic()))
            return {"waiting": True, "expires_in": left, "message": "press the done button"}
        del self._waiting[key]
        return self._grant(found.label, "the done button")

    def _pair_with_code(self, code: str, label: str) -> dict[str, Any]:
        store = self._db()
        if store.take_pair_code(code_digest(code), time.time()):
            self._wrong = 0
            return self._grant(label, "a code")
        self._wrong += 1
        if self._wrong >= MAX_WRONG_CODES:
            self._wrong = 0
            store.clear_pair_codes()
            raise Forbidden.said(
                say(
                    "that code is wrong; after {count} wrong codes every code was "
                    "cancelled: run `mandala pair` on the box again",
                    count=MAX_WRONG_CODES,
                )
            )
        raise Forbidden.said(
            say(
                "that code is wrong, used or expired (a code works once, for 10 minutes): "
                "run `mandala pair` on the box for a new one"
            )
        )

    def _grant(self, label: str, how: str) -> dict[str, Any]:
        token = new_token()
        owner_id = secrets.token_hex(4)
        while any(row.id == owner_id for row in self._owners.values()):
            owner_id = secrets.token_hex(4)
        row = OwnerRow(owner_id, digest(token), label[:MAX_LABEL], how, time.time())
        self._db().add_owner(row)
        self._owners[row.digest] = row
        return {"owner_token": token, "id": owner_id}

    def _revoke(self, owner_id: str) -> None:
        found = [key for key, row in self._owners.items() if row.id == owner_id]
        if not found:
            raise NotFound(f"no phone {owner_id!r} holds the owner role")
        self._db().remove_owner(owner_id)
        del self._owners[found[0]]


def add_pair_code(data_dir: Path, code_digest: str, expires: float) -> None:
    """Store a pairing code's digest from another process (``mandala pair``).

    Works while the server runs: a connection of its own, waiting for the server's writes.
    A database not yet at this release's schema is first brought there by opening the store.

    :raises StorageError: when the database cannot take it (the message says why).
    """
    path = data_dir / DB_NAME
    try:
        if not path.exists() or schema_version(path) < SCHEMA_VERSION:
            Store(data_dir).close()
        db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        try:
            db.execute("PRAGMA synchronous = FULL")
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM pair_codes WHERE expires <= ?", (time.time(),))
            db.execute(
                "INSERT INTO pair_codes (digest, expires) VALUES (?, ?)", (code_digest, expires)
            )
            db.execute("COMMIT")
        finally:
            db.close()
    except sqlite3.Error as error:
        raise StorageError(
            f"{path}: the code was not saved: {describe_sqlite_error(error)}"
        ) from error

"""The table service's refusals; the panel maps each one to an HTTP status.

``RecordError`` (400) and ``IllegalAction`` (409) come from the engines and pass through as
they are; these add what only the table knows: no such game (404), a stale version or a
step that is not possible now (409), not allowed for this caller (403), and storage that
cannot take the change (503). All of them are ``MandalaError``s, the companion's one root.
"""

from __future__ import annotations

from companion.games.base import IllegalAction, MandalaError


class TableError(MandalaError):
    """Base of every refusal by the table service; the message says what and where."""


class NotFound(TableError, LookupError):
    """No such game (or ring, or button): HTTP 404."""


class Conflict(TableError, IllegalAction):
    """A stale ``version`` or a step that is not possible now: HTTP 409 ``conflict``."""


class Forbidden(TableError):
    """Not allowed for this caller (e.g. an emulator control on real hardware): HTTP 403."""


class StorageError(TableError):
    """The database cannot take the change (disk full, unreadable): nothing was changed.

    The panel answers it with 503; the message says what happened and that nothing was lost.
    """

"""The one JSON error format, ``{"error": {"code", "message"}}``, and what maps onto it.

Every refusal the panel gives, whatever raised it, goes through :func:`error_response`:
malformed input 400, not allowed for this seat 403 (``owner_required`` when only the
box's owner may), no such thing 404, illegal now or a stale version 409, too large 413,
too many new games from one client 429 (with ``Retry-After``), storage unable to take a
change 503; the message is in the phone's language when the error carries words
(``MandalaError.said``: the refusals people meet in play, from the engines, the table and
the web layer; ``companion/games/base.py`` lists those that stay English); the process
adds the firmware's errors where it is wired (``companion.serve``: no such part 404, hardware
failing 503). Anything unexpected is logged and answered 500 in the same format (the tests
make sure no client input gets there).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from companion.games.base import IllegalAction, MandalaError, RecordError
from companion.phrases import say
from companion.table import Conflict, Forbidden, NotFound, StorageError, TableError
from companion.table.limits import TooManyRequests
from companion.table.owner import OwnerRequired
from companion.web.i18n import words
from companion.web.security import CrossSite, UnknownHost

log = logging.getLogger(__name__)

#: An error type with its HTTP status and its ``code``.
Mapping = tuple[type[Exception], int, str]

#: Error types of the engines and the table service, with their status and code.
MAPPED: tuple[Mapping, ...] = (
    (RecordError, 400, "malformed"),
    (OwnerRequired, 403, "owner_required"),  # the way to become the owner is in its message
    (CrossSite, 403, "cross_site"),
    (UnknownHost, 403, "unknown_host"),
    (Forbidden, 403, "forbidden"),
    (NotFound, 404, "not_found"),
    (IllegalAction, 409, "illegal"),
    (Conflict, 409, "conflict"),
    (StorageError, 503, "storage"),
    (TooManyRequests, 429, "too_many"),
    (TableError, 409, "conflict"),  # any refusal of the table's not named above
)


def error_response(status: int, code: str, message: str) -> Response:
    """Answer ``status`` with ``{"error": {"code": code, "message": message}}``."""
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response


def from_http(error: HTTPException) -> Response:
    """Answer a routing or protocol error (404, 405, 413, ...) in the JSON format."""
    status = error.code or 500
    code = "too_large" if status == 413 else (error.name or "error").lower().replace(" ", "_")
    if status == 413:
        message = words(say("request body is larger than the panel accepts"))
    else:
        message = error.description or error.name
    return error_response(status, code, message)


def from_unexpected(error: Exception) -> Response:
    """Answer an error nobody expected with a 500 in the format, logging it in full."""
    if isinstance(error, HTTPException):
        return from_http(error)
    log.exception("unexpected error", exc_info=error)
    failed = say("the companion failed: {error}", error=type(error).__name__)
    return error_response(500, "internal", words(failed))


def message_of(error: Exception) -> str:
    """What an error says, in the request's language when it was made with words
    (:meth:`~companion.games.base.MandalaError.said`), else as it is."""
    if isinstance(error, MandalaError) and error.phrase is not None:
        return words(error.phrase)
    return str(error)


def register(app: Flask, more: Sequence[Mapping] = ()) -> None:
    """Route every error type of :data:`MAPPED` and ``more``, HTTP errors and the rest."""
    for kind, status, code in (*MAPPED, *more):

        def handler(error: Exception, status: int = status, code: str = code) -> Response:
            response = error_response(status, code, message_of(error))
            if isinstance(error, TooManyRequests):
                response.headers["Retry-After"] = str(error.retry_after)
            return response

        app.register_error_handler(kind, handler)
    app.register_error_handler(HTTPException, from_http)
    app.register_error_handler(Exception, from_unexpected)

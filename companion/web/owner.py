"""``/api/owner``: becoming the box's owner, the phones holding the role, and the guard.

Routes that can destroy or change the box use :func:`owner_only` (a decorator) or call
:func:`require_owner` (inside a view, when only some bodies need the owner). An owner
request carries its token as ``X-Owner-Token`` or in the panel's HttpOnly cookie; without
one it gets 403 ``owner_required`` with the way to become the owner.

- ``GET /api/owner``: ``{"owner": bool, "id"}``, whether this phone holds the role;
- ``POST /api/owner/pair``: ``{"code": "1234-5678"}`` (from ``mandala pair``) answers
  ``{"owner_token", "id"}``; ``{"button": true}`` answers ``{"request", "waiting": true}``
  (202) and the box waits for its ``done`` button; ``{"request": ...}`` then answers 202
  ``{"waiting": true}`` until the press and ``{"owner_token", "id"}`` after it;
- ``GET /api/owner/phones`` (owner): ``{"phones": [{"id", "label", "how", "paired",
  "this"}]}``; ``DELETE /api/owner/phones/<id>`` (owner) revokes one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, Protocol, TypeVar, cast

from flask import Blueprint, Response, jsonify, request

from companion.games.base import RecordError, as_str, check_keys
from companion.phrases import Phrase, say
from companion.table.owner import HOW_TO_WORDS, OwnerRequired
from companion.table.phones import phone_label
from companion.web.context import json_body, table
from companion.web.viewer import keep_token

blueprint = Blueprint("owner", __name__, url_prefix="/api/owner")

OWNER_HEADER = "X-Owner-Token"
OWNER_COOKIE = "mandala_owner"
MAX_CODE = 32

P = ParamSpec("P")
R = TypeVar("R")


class Owners(Protocol):
    """The table's owner role (``companion.table.owner.OwnerRole``)."""

    def owner_id(self, token: str | None) -> str | None: ...
    def pair_with_code(self, code: str, label: str) -> dict[str, Any]: ...
    def ask_button(self, label: str) -> dict[str, Any]: ...
    def poll_button(self, request: str) -> dict[str, Any]: ...
    def phones(self) -> list[dict[str, Any]]: ...
    def revoke(self, owner_id: str) -> None: ...


def owners() -> Owners:
    """The running table's owner role."""
    return cast(Owners, cast(Any, table()).owner)


def owner_token() -> str | None:
    """The owner token the request presents (the header first, then the cookie)."""
    return request.headers.get(OWNER_HEADER) or request.cookies.get(OWNER_COOKIE) or None


def require_owner(what: Phrase) -> str:
    """Refuse the request unless it comes from the owner; return the owner's phone id.

    :raises OwnerRequired: ``only the box's owner can <what>; to become the owner, ...``.
    """
    found = owners().owner_id(owner_token())
    if found is None:
        raise OwnerRequired.said(
            say("only the box's owner can {what}; {how}", what=what, how=HOW_TO_WORDS)
        )
    return found


def owner_only(what: Phrase) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Make a view answer 403 ``owner_required`` unless the owner asks (``what`` it does)."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @wraps(view)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            require_owner(what)
            return view(*args, **kwargs)

        return guarded

    return decorate


def granted(answer: dict[str, Any]) -> Response:
    """Answer an owner token, keeping it in the panel's HttpOnly cookie too."""
    response = jsonify(answer)
    keep_token(response, OWNER_COOKIE, str(answer["owner_token"]))
    return response


@blueprint.get("")
def status() -> Response:
    found = owners().owner_id(owner_token())
    return jsonify({"owner": found is not None, "id": found})


@blueprint.post("/pair")
def pair() -> Response | tuple[Response, int]:
    body = json_body()
    check_keys(body, "request body", (), ("code", "button", "request"))
    label = phone_label(request.headers.get("User-Agent", ""))
    if "code" in body:
        code = as_str(body["code"], "code")
        if not 0 < len(code) <= MAX_CODE:
            expected = say(
                "code: expected the code `mandala pair` printed, got {code}", code=repr(code)
            )
            raise RecordError.said(expected)
        return granted(owners().pair_with_code(code, label))
    if "request" in body:
        answer = owners().poll_button(as_str(body["request"], "request")[: MAX_CODE * 4])
        return granted(answer) if "owner_token" in answer else (jsonify(answer), 202)
    if body.get("button") is True:
        return jsonify(owners().ask_button(label)), 202
    raise RecordError(
        'request body: send {"code": ...} with the code `mandala pair` printed, or '
        '{"button": true} and press the box\'s done button'
    )


@blueprint.get("/phones")
@owner_only(say("see the phones that hold the owner role"))
def phones() -> Response:
    mine = owners().owner_id(owner_token())
    listed = [{**phone, "this": phone["id"] == mine} for phone in owners().phones()]
    return jsonify({"phones": listed})


@blueprint.delete("/phones/<owner_id>")
@owner_only(say("take the owner role from a phone"))
def revoke(owner_id: str) -> Response:
    mine = owners().owner_id(owner_token())
    owners().revoke(owner_id)
    response = jsonify({"id": owner_id, "revoked": True})
    if owner_id == mine:
        response.delete_cookie(OWNER_COOKIE, path="/", httponly=True, samesite="Strict")
    return response

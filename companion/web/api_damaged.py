"""``/api/damaged``: the damaged databases kept aside, which the home page's banner names.

``GET /api/damaged`` answers ``{"damaged": [{"backup", "reason", "at"}]}``; ``DELETE
/api/damaged`` (the owner) dismisses the banner. The kept copies themselves are never deleted.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Response, jsonify

from companion.phrases import say
from companion.web.context import table
from companion.web.owner import owner_only

blueprint = Blueprint("api_damaged", __name__, url_prefix="/api/damaged")


def damaged_copies() -> list[dict[str, str]]:
    """The damaged databases the banner names (none once the owner dismissed it)."""
    copies: list[dict[str, str]] = cast(Any, table()).damaged_copies()
    return copies


@blueprint.get("")
def listing() -> Response:
    return jsonify({"damaged": damaged_copies()})


@blueprint.delete("")
@owner_only(say("dismiss the damaged-database warning"))
def dismiss() -> Response:
    cast(Any, table()).dismiss_damaged()
    return jsonify({"damaged": []})

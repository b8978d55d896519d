"""Joining from a phone: the panel's address and its QR code (issue 25).

``GET /api/join`` answers how a phone reaches the panel (``companion.box.address.Join``:
the addresses, the one the code carries, the words beside it, or why phones cannot join)
and ``qr``, the route of its code; ``?game=<id>`` adds, for a card game played on the
panel, one code per free seat (``seats``). ``GET /join.svg`` is the code as SVG, made here
with segno (``?game=<id>&seat=<n>``: a free seat's). A seat's code carries the game and the
seat only, never a token: the phone that scans it takes the seat the normal way.

Without a :class:`~companion.box.address.Reach` (``create_app(reach=...)``) both answer 404.
"""

from __future__ import annotations

import functools
import hashlib
import io
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from companion.box.address import Join, Reach
from companion.phrases import say
from companion.table.adapters import adapter
from companion.table.errors import Conflict, NotFound
from companion.web.context import table

blueprint = Blueprint("api_join", __name__)
REACH_KEY = "mandala.reach"
QR_SCALE = 8  # px per module in the SVG's own size; the page sizes the image itself


def has_reach() -> bool:
    """Whether the process told the panel what it listens on (the join block is shown)."""
    return current_app.extensions.get(REACH_KEY) is not None


def reach() -> Reach:
    """The running panel's reach, or a 404 when the process gave none."""
    found: Reach | None = current_app.extensions.get(REACH_KEY)
    if found is None:
        raise NotFound.said(say("this panel does not know its address on the network"))
    return found


def free_seats(game_id: str) -> list[tuple[int, str]]:
    """The seats of ``game_id`` a phone may take now: ``(seat, name)``; none for other games.

    :raises NotFound: no such game.
    """
    answer = table().get_game(game_id)  # the shared view: no seat's cards, no token
    if not adapter(str(answer.get("kind"))).seat_tokens:
        return []
    state = answer["state"]
    if state.get("mode") != "play" or state.get("over"):
        return []
    taken = state.get("taken") or []
    return [
        (seat, str(player["name"]))
        for seat, player in enumerate(state.get("players") or [])
        if not player.get("computer") and not (seat < len(taken) and taken[seat])
    ]


def seat_url(join: Join, game_id: str, seat: int) -> str:
    """The address a seat's code carries: the game's page and the seat, nothing secret."""
    assert join.url is not None
    return f"{join.url}games/{quote(game_id, safe='')}?seat={seat}"


def seat_answers(join: Join, game_id: str) -> list[dict[str, Any]]:
    """``GET /api/join?game=``'s ``seats``: one code per free seat (none when unreachable)."""
    if not join.reachable:
        return []
    return [
        {
            "seat": seat,
            "name": name,
            "url": seat_url(join, game_id, seat),
            "qr": url_for("api_join.qr", game=game_id, seat=seat),
            "words": say("Scan to take {name}'s seat", name=name).to_json(),
            "alt": say("QR code to take {name}'s seat", name=name).to_json(),
        }
        for seat, name in free_seats(game_id)
    ]


@blueprint.get("/api/join")
def join() -> Response:
    found = reach().join()
    body: dict[str, Any] = {**found.to_json(), "qr": url_for("api_join.qr")}
    if found.url is not None:
        body["alt"] = say("QR code of the panel's address, {url}", url=found.url).to_json()
    game_id = request.args.get("game")
    if game_id is not None:
        body["game"] = game_id
        body["seats"] = seat_answers(found, game_id)
    return jsonify(body)


def payload() -> str:
    """What the requested code carries: the panel's address, or a free seat's.

    :raises NotFound: phones cannot join, no such game or seat. :raises Conflict: the seat
        is not free (taken, the companion's, or the game hides no cards).
    """
    found = reach().join()
    if found.url is None:
        raise NotFound.said(found.words)
    game_id = request.args.get("game")
    seat = request.args.get("seat")
    if game_id is None and seat is None:
        return found.url
    if game_id is None or seat is None or not seat.isdigit() or len(seat) > 3:
        raise NotFound.said(say("a seat's code needs ?game=<id>&seat=<number>"))
    free = dict(free_seats(game_id))
    if int(seat) not in free:
        raise Conflict.said(
            say("seat {seat} of game {game} is not free to take", seat=seat, game=game_id)
        )
    return seat_url(found, game_id, int(seat))


@functools.lru_cache(maxsize=16)
def svg_of(text: str) -> bytes:
    """``text`` as a QR code in SVG (segno; dark on white with its quiet zone, any theme).

    Kept for the last 16 texts: drawing one takes segno 8-20 ms here (12-80 ms on the Pi Zero
    2 stand-in, ``bench/join_qr.py``), and the same few are asked again and again.
    """
    import segno  # only when a code is drawn: the panel starts without it

    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=QR_SCALE,
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue()


@blueprint.get("/join.svg")
def qr() -> Response:
    text = payload()
    response = Response(svg_of(text), mimetype="image/svg+xml")
    # Cached, and asked again each time it is shown: the box's address may change.
    response.set_etag(hashlib.sha256(text.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = "no-cache"
    response.make_conditional(request)  # 304 to a browser that holds this very code
    return response

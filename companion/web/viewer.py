"""Who a request comes from: its seat and host tokens (headers and the page's cookies).

Cards played on the panel hide each seat's hand (interfaces.md); the table decides what a
:class:`~companion.table.seats.Viewer` may see or do, this module only reads the request
and writes the cookies that keep a phone's tokens across reloads and sleep.
"""

from __future__ import annotations

from flask import Response, request

from companion.table.seats import HOST_COOKIE, HOST_HEADER, SEAT_COOKIE, SEAT_HEADER, Viewer

COOKIE_SECONDS = 60 * 60 * 24 * 90
"""How long a phone keeps a seat or host cookie (the page keeps a copy in localStorage)."""


def viewer(game_id: str | None = None) -> Viewer:
    """The viewer of the current request (``game_id``: that game's cookies come first)."""
    headers = {
        name: value
        for name in (SEAT_HEADER, HOST_HEADER)
        if (value := request.headers.get(name)) is not None
    }
    return Viewer.from_request(headers, request.cookies, game_id)


def keep_token(response: Response, name: str, token: str) -> None:
    """Set the cookie ``name`` to ``token`` (HttpOnly, same-site only, for the whole panel)."""
    response.set_cookie(
        name, token, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="Strict"
    )


def seat_cookie(game_id: str) -> str:
    """The cookie that keeps a phone's seat token of ``game_id``."""
    return SEAT_COOKIE + game_id


def host_cookie(game_id: str) -> str:
    """The cookie that keeps the host token of ``game_id``."""
    return HOST_COOKIE + game_id

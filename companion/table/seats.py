"""Who is asking: host and seat tokens of games with hidden hands (interfaces.md).

A card game played on the panel hides each seat's hand and cup. Creating one gives the
creating phone a **host token**; taking a seat gives a phone that seat's **seat token**. A
request presents its tokens (the ``X-Seat-Token`` / ``X-Host-Token`` headers and the page's
cookies) as a :class:`Viewer`; the table matches them against the digests it keeps.

Only SHA-256 digests of tokens are stored (a stolen database file gives no token), and every
comparison is constant-time (:func:`hmac.compare_digest`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

HOST = -1
"""The key of the host token among a game's token digests (seats are 0, 1, ...)."""

SEAT_HEADER = "X-Seat-Token"
HOST_HEADER = "X-Host-Token"
SEAT_COOKIE = "mandala_seat_"
"""Prefix of the page's seat cookie; the game id follows (one seat per game per phone)."""
HOST_COOKIE = "mandala_host_"
"""Prefix of the page's host cookie; the game id follows."""
MAX_TOKENS = 16
"""A request's tokens beyond this many are ignored (each is hashed once per game asked)."""
MAX_TOKEN_LENGTH = 128


def new_token() -> str:
    """A fresh random token (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """The SHA-256 digest (hex) of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Viewer:
    """The tokens one request presents, in order of preference (headers before cookies).

    ``Viewer()`` is nobody in particular: the shared view.
    """

    tokens: tuple[str, ...] = ()
    digests: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digests", tuple(digest(token) for token in self.tokens))

    @classmethod
    def of(cls, tokens: Iterable[str | None]) -> Viewer:
        """Keep the plausible tokens (non-empty, not too long, at most :data:`MAX_TOKENS`)."""
        kept: list[str] = []
        for token in tokens:
            if token and len(token) <= MAX_TOKEN_LENGTH and token not in kept:
                kept.append(token)
            if len(kept) == MAX_TOKENS:
                break
        return cls(tuple(kept))

    @classmethod
    def from_request(
        cls, headers: Mapping[str, str], cookies: Mapping[str, str], game_id: str | None = None
    ) -> Viewer:
        """The viewer of an HTTP request: its token headers, then its token cookies.

        With ``game_id`` the cookies of that game come first among the cookies.
        """
        tokens: list[str | None] = [headers.get(SEAT_HEADER), headers.get(HOST_HEADER)]
        names = sorted(name for name in cookies if name.startswith((SEAT_COOKIE, HOST_COOKIE)))
        if game_id is not None:
            mine = {SEAT_COOKIE + game_id, HOST_COOKIE + game_id}
            names.sort(key=lambda name: name not in mine)
        tokens.extend(cookies.get(name) for name in names)
        return cls.of(tokens)


def _matches(viewer: Viewer, stored: str) -> bool:
    # Compare against every presented digest (no early exit), in constant time each.
    found = False
    for presented in viewer.digests:
        found |= hmac.compare_digest(presented, stored)
    return found


@dataclass
class GameTokens:
    """One game's token digests: the host's and each taken seat's (mutable, table thread)."""

    digests: dict[int, str] = field(default_factory=dict)

    def is_host(self, viewer: Viewer) -> bool:
        """Say whether the viewer presents this game's host token."""
        stored = self.digests.get(HOST)
        return stored is not None and _matches(viewer, stored)

    def holds(self, viewer: Viewer, seat: int) -> bool:
        """Say whether the viewer presents ``seat``'s token."""
        stored = self.digests.get(seat)
        return stored is not None and _matches(viewer, stored)

    def seat_of(self, viewer: Viewer) -> int | None:
        """The seat the viewer sees as: the seat of its first matching token, or None."""
        for presented in viewer.digests:
            for seat, stored in sorted(self.digests.items()):
                if seat != HOST and hmac.compare_digest(presented, stored):
                    return seat
        return None

    def taken(self, seats: int) -> list[bool]:
        """Which of the game's ``seats`` have been taken by a phone."""
        return [seat in self.digests for seat in range(seats)]

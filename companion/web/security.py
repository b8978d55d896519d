"""Same origin only, and the security headers of every response (SECURITY.md).

Checked before every view:

- the ``Host`` a request names must be one the box answers to, with the port it serves on
  (a DNS-rebinding page reaches the box under its own name and is refused): ``localhost``,
  ``127.0.0.1``, ``::1``, the machine's hostname and ``<hostname>.local``, any address of
  this machine, and the names of the ``ALLOWED_HOSTS`` config;
- a request that changes something (``POST``, ``PUT``, ``PATCH``, ``DELETE``) sent by a
  browser must come from the panel's own origin: its ``Origin`` names an answered host and
  the port, or (no ``Origin``) its ``Sec-Fetch-Site`` is ``same-origin`` or ``none``. A client
  without a browser (curl, a script) sends neither and is let through;
- a body sent with a ``Content-Type`` must be ``application/json`` (a form or ``text/plain``,
  which any web page can send without asking, is refused), or ``application/octet-stream``
  for a view marked :func:`takes_file` (a backup restored from the panel).

Refusals are the one JSON error: 403 ``cross_site`` or ``unknown_host``, 400 ``malformed``.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from companion.games.base import RecordError
from companion.table.errors import Forbidden

V = TypeVar("V", bound=Callable[..., Any])
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SAME_SITE_FETCH = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


class CrossSite(Forbidden):
    """A browser request from another web page's origin: HTTP 403 ``cross_site``."""


class UnknownHost(Forbidden):
    """A request for a ``Host`` this box does not answer to: HTTP 403 ``unknown_host``."""


def split_host(value: str) -> tuple[str, int | None] | None:
    """Split ``name[:port]`` or ``[v6][:port]`` into a lower-case name and port, or None."""
    try:
        parts = urlsplit("//" + value)
        port = parts.port
    except ValueError:
        return None
    name = (parts.hostname or "").rstrip(".").lower()
    if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return name, port


def is_own_address(name: str) -> bool:
    """Say whether ``name`` is an IP address of this machine (it can be bound to)."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def answered_names(extra: Iterable[str]) -> set[str]:
    """The names this box answers to besides its addresses: local, hostname, ``.local``."""
    hostname = socket.gethostname().rstrip(".").lower()
    names = set(LOCAL_NAMES) | {name.rstrip(".").lower() for name in extra}
    if hostname:
        short = hostname.split(".")[0]
        names |= {hostname, short, f"{short}.local"}
    return names


def is_answered(name: str) -> bool:
    """Say whether the box answers to ``name`` (a name of :func:`answered_names` or an own IP)."""
    extra: list[str] = list(current_app.config.get("ALLOWED_HOSTS") or [])
    return name in answered_names(extra) or is_own_address(name)


def server_port() -> int:
    """The port this request reached the server on."""
    try:
        return int(request.environ.get("SERVER_PORT") or 80)
    except ValueError:
        return 80


def check_host() -> None:
    """Refuse a request for a ``Host`` (name and port) this box does not answer to.

    :raises UnknownHost: naming the host.
    """
    value = request.headers.get("Host", "")
    found = split_host(value)
    if found is not None:
        name, port = found
        default = DEFAULT_PORTS.get(request.scheme, 80)
        if is_answered(name) and (port or default) == server_port():
            return
    raise UnknownHost(
        f"Host {value[:100]!r} is not a name this companion answers to; open the panel by "
        "its own address (a name of yours can be added to the config's allowed_hosts)"
    )


def check_origin() -> None:
    """Refuse a browser's state-changing request that another web page sent.

    :raises CrossSite: naming the origin.
    """
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin) if origin != "null" else None
        found = split_host(parts.netloc) if parts is not None and parts.netloc else None
        if parts is not None and found is not None and parts.scheme in DEFAULT_PORTS:
            name, port = found
            if is_answered(name) and (port or DEFAULT_PORTS[parts.scheme]) == server_port():
                return
        raise CrossSite(
            f"this request came from another web page ({origin[:100]!r}); the companion "
            "takes changes only from its own panel"
        )
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site.lower() not in SAME_SITE_FETCH:
        raise CrossSite(
            f"this request came from another web page (Sec-Fetch-Site: {site[:40]}); the "
            "companion takes changes only from its own panel"
        )


FILE_TYPE = "application/octet-stream"
FILE_VIEW = "takes_a_file"


def takes_file(view: V) -> V:
    """Let a view's body be a file (``application/octet-stream``; it reads and limits it)."""
    setattr(view, FILE_VIEW, True)
    return view


def takes_a_file() -> bool:
    """Whether the request's view takes a file as its body (see :func:`takes_file`)."""
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, FILE_VIEW, False))


def check_content_type() -> None:
    """Refuse a body whose declared type is not JSON.

    :raises RecordError: ``request body: send it as application/json ...``.
    """
    declared = request.headers.get("Content-Type")
    if declared is None or (request.mimetype == FILE_TYPE and takes_a_file()):
        return  # no page can send this type to another origin without the browser asking
    if not request.get_data(cache=True):
        return
    if request.mimetype != "application/json":
        raise RecordError(
            f"request body: send it as JSON with Content-Type: application/json (it was "
            f"{declared[:60]!r})"
        )


def before() -> None:
    """Check the host of every request; the origin and body type of every change."""
    check_host()
    if request.method in UNSAFE_METHODS:
        check_origin()
        check_content_type()


def add_headers(response: Response) -> Response:
    """Put the security headers on a response (every page, script, JSON answer and error)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def register(app: Flask) -> None:
    """Run the checks before every request and add the headers to every response."""
    app.before_request(before)
    app.after_request(add_headers)

"""The panel's language: which one a request gets, the switch, and the catalogue for scripts.

A page's language is, in this order: the box's configured language (``LANGUAGE``) for a view
that speaks for the box (:func:`speaks_for_box`, e.g. the table view); the phone's choice,
kept in the ``mandala_lang`` cookie that the switch at the foot of every page sets
(``GET /language/<code>``, which goes back to the page it came from); the browser's
``Accept-Language``; and last the box's language. The server reads the cookie, so the first
HTML is already in the right language.

Templates use Flask-Babel's ``_()``/``ngettext()`` (Jinja's new-style gettext: values as
``%(name)s``). The scripts get the same catalogue as JSON: ``base.html`` loads
``/catalogue/<code>.js?v=<version>`` between ``panel.js`` and the page's script; it hands the
JSON to ``Panel.catalogue.use`` (messages, plural forms and the plural rule's expression,
which ``panel.js`` maps to a function from a table, never ``eval``). The version is the
compiled catalogue's hash, so a phone caches it until the words change. The files are
``companion.catalogue``'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache, wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from babel import Locale
from babel.messages.mofile import read_mo
from flask import Blueprint, Flask, Response, current_app, g, redirect, request, url_for
from flask_babel import Babel, get_locale, get_translations
from werkzeug.wrappers import Response as WerkzeugResponse

from companion import catalogue
from companion.phrases import Phrase, say
from companion.table import NotFound

COOKIE = "mandala_lang"
COOKIE_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie
V = TypeVar("V", bound=Callable[..., Any])

blueprint = Blueprint("i18n", __name__)


def box_language() -> str:
    """The box's configured language (``LANGUAGE``; English when it names none there is)."""
    configured = current_app.config.get("LANGUAGE")
    return str(configured) if catalogue.is_language(configured) else catalogue.SOURCE


def speaks_for_box(view: V) -> V:
    """Mark a view as speaking for the box: its page is in the box's language, whatever the
    phone chose (the table view, read by everyone at the table)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        g.mandala_box_language = True
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def choose_language() -> str:
    """The language of the current request (see the module's docstring for the order)."""
    if g.get("mandala_box_language"):
        return box_language()
    chosen = request.cookies.get(COOKIE)
    if catalogue.is_language(chosen):
        return str(chosen)
    matched = request.accept_languages.best_match(catalogue.languages())
    return matched or box_language()


def language() -> str:
    """The current request's language code (``"de"``)."""
    return str(get_locale() or catalogue.SOURCE)


def words(phrase: Phrase) -> str:
    """The phrase in the current request's language (English outside a request)."""
    found = get_translations()
    return phrase.render(found.gettext, found.ngettext)


def no_language(code: str) -> NotFound:
    """The refusal of a language there is not."""
    there = ", ".join(catalogue.languages())
    return NotFound.said(say("no language {code}: there are {there}", code=repr(code), there=there))


@cache
def scripts_catalogue(code: str) -> tuple[str, str]:
    """``code``'s catalogue as the scripts read it, and its version: ``{"language",
    "plural", "words"}``, where ``words`` maps each translated message to its text, or a
    counted one (by its singular) to its forms."""
    words: dict[str, str | list[str]] = {}
    plural = "(n != 1)"
    if code != catalogue.SOURCE:
        path = catalogue.TRANSLATIONS / code / "LC_MESSAGES" / f"{catalogue.DOMAIN}.mo"
        with path.open("rb") as file:
            compiled = read_mo(file)
        plural = compiled.plural_expr
        for message in compiled:
            if not message.id or not message.string or message.context:
                continue  # a message with a context is the server's (a colour's letter)
            if isinstance(message.id, tuple | list):
                words[message.id[0]] = list(message.string)
            else:
                words[message.id] = str(message.string)
    body = json.dumps(
        {"language": code, "plural": plural, "words": words},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return body, hashlib.sha256(body.encode()).hexdigest()[:12]


def catalogue_url() -> str:
    """Where the current page's script catalogue is (its version in the address)."""
    code = language()
    return url_for("i18n.script", code=code, v=scripts_catalogue(code)[1])


def switch_links() -> list[dict[str, str]]:
    """The switch's links: each language's own name, its code, and whether it is chosen."""
    here = request.full_path.rstrip("?") if request.query_string else request.path
    return [
        {
            "code": code,
            "name": (Locale.parse(code).get_display_name(code) or code).capitalize(),
            "href": url_for("i18n.choose", code=code, next=here),
            "current": "true" if code == language() else "",
        }
        for code in catalogue.languages()
    ]


@blueprint.get("/language/<code>")
def choose(code: str) -> WerkzeugResponse:
    """Remember ``code`` on this phone and go back to the page (``next``, this panel's only)."""
    if not catalogue.is_language(code):
        raise no_language(code)
    back = request.args.get("next", "/")
    parts = urlsplit(back)
    # only a path of this panel: "//host", "/\\host" (a browser reads it as "//") and
    # "scheme:" lead away
    if parts.scheme or parts.netloc or not back.startswith("/") or back[1:2] in ("/", "\\"):
        back = url_for("pages.home")
    response = redirect(back, code=303)
    response.set_cookie(COOKIE, code, max_age=COOKIE_SECONDS, samesite="Lax", path="/")
    return response


@blueprint.get("/catalogue/<code>.js")
def script(code: str) -> Response:
    """The catalogue of ``code`` for the scripts; cached for a year when asked by version."""
    if not catalogue.is_language(code):
        raise no_language(code)
    body, version = scripts_catalogue(code)
    response = Response(f"Panel.catalogue.use({body});\n", mimetype="text/javascript")
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


def register(app: Flask) -> None:
    """Set Flask-Babel up on ``app`` (the catalogue's folder, the language chooser) and give
    every template ``language``, ``catalogue_url`` and ``languages`` (the switch)."""
    Babel(
        app,
        locale_selector=choose_language,
        default_translation_directories=str(catalogue.TRANSLATIONS),
    )
    app.register_blueprint(blueprint)

    @app.context_processor
    def languages() -> dict[str, Any]:
        return {
            "language": language,
            "catalogue_url": catalogue_url,
            "languages": switch_links,
        }

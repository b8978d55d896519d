"""The panel's language: the browser's, the phone's own choice (a cookie the server reads),
the box's; and the catalogue the scripts get."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from companion.config import CONFIG_KEYS, read_config
from companion.doctor.panel import PanelDoctor
from companion.games.base import RecordError
from companion.table.table import Table
from companion.web import create_app
from companion.web.i18n import COOKIE, speaks_for_box
from companion.web.pages import LETTERS

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def html(client: FlaskClient, path: str = "/", **headers: str) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return answer.get_data(as_text=True)


def test_a_browser_that_asks_for_german_gets_the_page_in_german(client: FlaskClient) -> None:
    page = html(client, "/history", **GERMAN)
    assert '<html lang="de">' in page
    assert ">Spiele</a>" in page and ">Verlauf</a>" in page
    assert 'aria-label="Sprache"' in page


def test_a_browser_that_asks_for_english_or_a_language_there_is_not_gets_english(
    client: FlaskClient,
) -> None:
    for asked in ("en-GB,en;q=0.9", "fr-FR,fr;q=0.9"):
        page = html(client, "/history", **{"Accept-Language": asked})
        assert '<html lang="en">' in page and ">Games</a>" in page


def test_the_phones_choice_wins_over_its_browser(client: FlaskClient) -> None:
    client.set_cookie(COOKIE, "en")
    page = html(client, "/history", **GERMAN)
    assert '<html lang="en">' in page and ">Games</a>" in page


def test_an_unknown_language_in_the_cookie_is_ignored(client: FlaskClient) -> None:
    client.set_cookie(COOKIE, "../../etc")
    assert '<html lang="de">' in html(client, "/history", **GERMAN)


def test_the_switch_remembers_the_choice_and_goes_back_to_the_page(client: FlaskClient) -> None:
    answer = client.get("/language/de?next=/history%3Fpage%3D2")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/history?page=2"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=de;") and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    assert '<html lang="de">' in html(client, "/history", **{"Accept-Language": "en"})


def test_every_page_has_the_switch_with_each_language_in_its_own_name(
    client: FlaskClient,
) -> None:
    page = html(client, "/history?page=1", **GERMAN)
    assert (
        '<a href="/language/en?next=/history?page%3D1" lang="en" hreflang="en">English</a>' in page
    )
    assert 'lang="de" hreflang="de" aria-current="true">Deutsch</a>' in page


@pytest.mark.parametrize(
    "away", ["//evil.example/x", "https://evil.example/", "evil.example", "/\\evil.example"]
)
def test_the_switch_never_sends_a_phone_to_another_site(client: FlaskClient, away: str) -> None:
    answer = client.get("/language/de", query_string={"next": away})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"


def test_a_language_there_is_not_is_a_404_in_the_error_format(client: FlaskClient) -> None:
    for path in ("/language/fr", "/catalogue/fr.js"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.get_json() == {
            "error": {"code": "not_found", "message": "no language 'fr': there are en, de"}
        }


def test_the_scripts_catalogue_is_the_german_words_with_their_plural_rule(
    client: FlaskClient,
) -> None:
    page = html(client, "/health", **GERMAN)
    start = page.index('<script src="/catalogue/de.js?v=') + len('<script src="')
    url = page[start : page.index('"', start)]
    # after panel.js (which defines Panel) and before the page's own script
    assert page.index("panel.js") < start < page.index("health.js")
    answer = client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    body = answer.get_data(as_text=True)
    assert body.startswith("Panel.catalogue.use(") and body.endswith(");\n")
    found = json.loads(body[len("Panel.catalogue.use(") : -3])
    assert found["language"] == "de" and found["plural"] == "(n != 1)"
    assert found["words"]["Games"] == "Spiele"
    # asked without (or with an old) version, it is not kept
    assert client.get("/catalogue/de.js?v=old").headers["Cache-Control"] == "no-cache"


def test_an_english_page_loads_no_catalogue(client: FlaskClient) -> None:
    assert "/catalogue/" not in html(client, "/history", **{"Accept-Language": "en"})


def box_app(table: Table, data_dir: Path, language: str) -> Flask:
    config = {"BOARDS_DIR": data_dir / "boards", "LANGUAGE": language}
    app = create_app(config, table=table, diagnostics=PanelDoctor())

    @app.get("/test-box-words")
    @speaks_for_box
    def box_words() -> str:
        return render_template_string("{{ language() }} {{ _('Games') }}")

    return app


def test_a_view_that_speaks_for_the_box_uses_the_boxs_language(
    table: Table, data_dir: Path
) -> None:
    client = box_app(table, data_dir, "de").test_client()
    client.set_cookie(COOKIE, "en")
    answer = client.get("/test-box-words", headers={"Accept-Language": "en"})
    assert answer.get_data(as_text=True) == "de Spiele"
    # the phone's own pages stay in the phone's language
    assert '<html lang="en">' in html(client, "/history", **{"Accept-Language": "en"})


def test_the_table_view_is_in_the_boxs_language_whatever_the_phone_chose(
    table: Table, data_dir: Path
) -> None:
    client = box_app(table, data_dir, "de").test_client()
    client.set_cookie(COOKIE, "en")
    page = html(client, "/table", **{"Accept-Language": "en"})
    assert '<html lang="de">' in page
    assert page.index("panel.js") < page.index("/catalogue/de.js?v=") < page.index("table.js")
    english = box_app(table, data_dir, "en").test_client()
    assert '<html lang="en">' in html(english, "/table", **GERMAN)


def test_a_phone_that_names_no_language_gets_the_boxs(table: Table, data_dir: Path) -> None:
    client = box_app(table, data_dir, "de").test_client()
    assert '<html lang="de">' in html(client, "/history")
    english = box_app(table, data_dir, "en").test_client()
    assert '<html lang="en">' in html(english, "/history")


def test_the_boxs_language_is_configured_and_checked(tmp_path: Path) -> None:
    assert "language" in CONFIG_KEYS
    config = tmp_path / "mandala.toml"
    config.write_text('language = "de"\n')
    assert read_config(config).language == "de"
    config.write_text('language = "xx"\n')
    with pytest.raises(RecordError, match=r"language: 'xx' is not one of en, de"):
        read_config(config)


def test_the_web_layers_own_refusals_are_in_the_phones_language(client: FlaskClient) -> None:
    """Errors made with words (``MandalaError.said``) are translated; the code stays."""
    german = client.get("/api/boards/no-such", headers=GERMAN)
    assert german.status_code == 404
    assert german.get_json() == {"error": {"code": "not_found", "message": "kein Brett 'no-such'"}}
    english = client.get("/api/boards/no-such", headers={"Accept-Language": "en"})
    assert english.get_json()["error"]["message"] == "no board 'no-such'"
    too_large = client.post(
        "/api/games", data=b"x" * (300 * 1024), headers={**GERMAN, "Content-Type": "text/plain"}
    )
    assert too_large.status_code == 413
    assert too_large.get_json()["error"] == {
        "code": "too_large",
        "message": "die Anfrage ist größer, als das Panel annimmt",
    }


def test_an_error_made_with_words_says_its_english_outside_a_request() -> None:
    from companion.phrases import say
    from companion.table import NotFound

    error = NotFound.said(say("no board {name}", name="'x'"))
    assert str(error) == "no board 'x'" and error.phrase is not None
    assert str(error.at("board")) == "board: no board 'x'"  # .at() keeps the English


def test_the_history_says_places_dates_and_figures_in_german(
    client: FlaskClient, owner: str
) -> None:
    from tests.web.test_logbook_api import six_plays  # the logbook's hand-worked plays

    six_plays(client)
    page = html(client, "/history", **GERMAN)
    assert '<span class="play-place">1.</span>' in page
    assert '<span class="play-place">1st</span>' not in page
    assert re.search(r"(Mo|Di|Mi|Do|Fr|Sa|So)\. \d+ \w+\.? \d{4}, \d\d:\d\d", page)
    english = html(client, "/history", **{"Accept-Language": "en"})
    assert '<span class="play-place">1st</span>' in english
    assert re.search(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d+ \w{3} \d{4}, \d\d:\d\d", english)
    player = html(client, "/players/1", **GERMAN)
    assert "Rauswürfe" in player and "Snipes made" not in player
    # the games' names too, in the list and over the plots
    assert "Ring board (1983)" in english and "Mandala card game" in english
    assert "Ringbrett (1983)" in page and "Mandala-Kartenspiel" in page
    assert "Ring board (1983)" not in page and "Mandala card game" not in page


def test_the_logbooks_plots_speak_german(client: FlaskClient, owner: str) -> None:
    from tests.web.test_logbook_api import six_plays

    six_plays(client)
    page = html(client, "/players/1", **GERMAN)
    assert "Siegquote im Lauf der Zeit" in page and "Win rate over time" not in page
    assert "Punkte; die Balken zählen Partien (" in page
    assert re.search(r"nach jeder von 6 Partien", page)
    history = html(client, "/history", **GERMAN)
    assert "Punkte von allen bei " in history and "Punkte: " in history


def page_letters(page: str) -> dict[str, str]:
    """The colour letters a page hands its scripts (``page.letters``)."""
    found = re.search(r'<script type="application/json" id="page">(.*?)</script>', page, re.S)
    assert found, "the page has no page config"
    letters: dict[str, str] = json.loads(found.group(1))["letters"]
    return letters


#: Each colour's German name (docs/glossary-de.md; the catalogue's "red" -> "Rot" and so on).
GERMAN_COLOURS = {
    "red": "Rot", "blue": "Blau", "green": "Grün", "yellow": "Gelb", "brown": "Braun",
    "orange": "Orange", "purple": "Lila", "cyan": "Türkis", "pink": "Pink", "lime": "Hellgrün",
    "teal": "Petrol", "white": "Weiß", "black": "Schwarz",
}  # fmt: skip


def test_a_colours_letter_is_one_of_its_name_in_the_pages_language(client: FlaskClient) -> None:
    english = page_letters(html(client, "/", **{"Accept-Language": "en-GB"}))
    assert english == LETTERS  # English unchanged: Y for yellow, N for brown, K for black
    german = page_letters(html(client, "/", **GERMAN))
    assert german.keys() == LETTERS.keys() == GERMAN_COLOURS.keys()
    assert len(set(german.values())) == len(german), f"two colours share a letter: {german}"
    for colour, letter in german.items():
        assert len(letter) == 1 and letter.lower() in GERMAN_COLOURS[colour].lower(), colour
    assert (german["yellow"], german["black"], german["purple"]) == ("E", "S", "I")


def test_the_scripts_catalogue_leaves_out_the_servers_letters(client: FlaskClient) -> None:
    body = client.get("/catalogue/de.js").get_data(as_text=True)
    words = json.loads(body[len("Panel.catalogue.use(") : -3])["words"]
    assert words["yellow"] == "Gelb"
    assert "Y" not in words and "K" not in words  # a letter's message has a context

"""The language in a real Chromium: a German phone gets German pages and the scripts' words
from the catalogue; the switch at the foot changes it and the phone keeps its choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel import Locale

from tests.web.browser import chromium, phone, serve_emulated, shot

pytestmark = pytest.mark.browser


def test_a_german_phone_reads_german_and_the_switch_keeps_english(tmp_path: Path) -> None:
    with serve_emulated(tmp_path / "data") as base, chromium() as browser:
        context = browser.new_context(locale="de-DE")  # Accept-Language: de-DE
        page: Any = phone(browser, base, context)
        page.goto(base + "/health")
        page.wait_for_selector("main section")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("header nav a").first.inner_text() == "Spiele"
        # the scripts' catalogue came before the page's script, with its plural rule
        assert page.evaluate("Panel.catalogue.language") == "de"
        assert page.evaluate("Panel.t('Games')") == "Spiele"
        assert page.evaluate("Panel.t('{count} of {all}', { count: 2, all: 3 })") == "2 of 3"
        rule = Locale.parse("de").plural_form
        forms = page.evaluate("[...Array(30).keys()].map((n) => Panel.catalogue.pluralForm(n))")
        assert forms == [0 if rule(n) == "one" else 1 for n in range(30)]
        shot(page, "i18n-health-de-360")

        page.get_by_role("link", name="English").click()
        page.wait_for_url(base + "/health")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.locator("header nav a").first.inner_text() == "Games"
        assert page.evaluate("Panel.t('Games')") == "Games"
        page.reload()  # the cookie, not the browser's German, decides from now on
        assert page.evaluate("document.documentElement.lang") == "en"
        page.get_by_role("link", name="Deutsch").click()
        page.wait_for_url(base + "/health")
        assert page.locator("header nav a").first.inner_text() == "Spiele"
        assert page.errors == []
        context.close()

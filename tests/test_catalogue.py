"""The message catalogue's files: every message translated, the compiled files current, the
values kept, and a plural rule the scripts know."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion import catalogue
from companion.phrases import say

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import catalogue as tool  # noqa: E402  (tools/catalogue.py)

PO_FILES = tool.po_files()
#: Files whose messages may wait for their translation: issue 25's words, written this session
#: and translated the next. This list may only shrink (a file leaves it once its words are in
#: every catalogue); a file not on it must be translated in full.
UNTRANSLATED_FILES: frozenset[str] = frozenset()
PANEL_JS = ROOT / "companion" / "web" / "static" / "panel.js"
VALUE = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def as_key(value: object) -> object:
    """A message's id or text, a plural's forms as a tuple."""
    return tuple(value) if isinstance(value, tuple | list) else value


def messages(path: Path) -> dict[object, object]:
    """The messages of a .po file (header, untranslated and fuzzy ones out), by id."""
    with path.open("rb") as file:
        found = read_po(file)
    return {
        as_key(m.id): as_key(m.string)
        for m in found
        if m.id and not m.fuzzy and (any(m.string) if isinstance(m.string, tuple) else m.string)
    }


def test_german_is_a_catalogue() -> None:
    assert catalogue.languages() == ("en", "de")
    assert [path.parts[-3] for path in PO_FILES] == ["de"]


@pytest.mark.parametrize("po", PO_FILES, ids=lambda path: path.parts[-3])
def test_every_extracted_message_is_translated_and_no_other(po: Path) -> None:
    """`pybabel extract`'s functions over the Python code, templates and scripts; each message
    found has a translation, with every plural form (those of :data:`UNTRANSLATED_FILES` only
    may wait), and the file has none besides."""
    extracted = [message for message in tool.extract() if message.id]
    found = {as_key(message.id) for message in extracted}
    waiting = {
        as_key(message.id)
        for message in extracted
        if all(path in UNTRANSLATED_FILES for path, _ in message.locations)
    }
    translated = messages(po)
    missing = sorted(str(m) for m in found - set(translated) - waiting)
    assert not missing, (
        f"{po}: not translated (tools/catalogue.py update, then translate): {missing}"
    )
    stale = sorted(str(m) for m in set(translated) - found)
    assert not stale, f"{po}: no longer in the code (tools/catalogue.py update): {stale}"
    for key, text in translated.items():
        forms = text if isinstance(text, tuple | list) else (text,)
        assert all(forms), f"{po}: {key!r} lacks a plural form"


@pytest.mark.parametrize("po", PO_FILES, ids=lambda path: path.parts[-3])
def test_the_committed_mo_file_is_its_po_file_compiled(po: Path) -> None:
    """The .mo files are committed (nothing to build on the Pi); one that lags its .po would
    show the old words."""
    with po.with_suffix(".mo").open("rb") as file:
        compiled = read_mo(file)
    assert {as_key(m.id): as_key(m.string) for m in compiled if m.id} == messages(po), (
        f"{po.with_suffix('.mo')} is not {po.name} compiled: .venv/bin/python tools/catalogue.py"
        " compile"
    )


@pytest.mark.parametrize("po", PO_FILES, ids=lambda path: path.parts[-3])
def test_a_translation_names_the_same_values_as_its_message(po: Path) -> None:
    """A translation without ``{name}`` loses it; one with a value its message lacks cannot be
    rendered at all."""
    for key, text in messages(po).items():
        keys = key if isinstance(key, tuple | list) else (key,)
        forms = text if isinstance(text, tuple | list) else (text,)
        wanted = {name for k in keys for name in VALUE.findall(str(k))}
        for form in forms:
            got = set(VALUE.findall(str(form)))
            # a singular may say "one" instead of {count}: the values are its plural's or fewer
            assert got <= wanted, f"{po}: {form!r} names values that {key!r} does not"
            if not isinstance(key, tuple | list):
                assert got == wanted, f"{po}: {form!r} does not name the values of {key!r}"


@pytest.mark.parametrize("po", PO_FILES, ids=lambda path: path.parts[-3])
def test_each_catalogues_plural_rule_is_in_panel_js_table(po: Path) -> None:
    with po.open("rb") as file:
        rule = read_po(file).plural_expr
    table = PANEL_JS.read_text()[PANEL_JS.read_text().index("const PLURAL_RULES") :]
    assert f'"{rule}":' in table.split("};")[0], f"panel.js's PLURAL_RULES lacks {rule!r}"


def test_a_phrase_renders_in_german_from_the_compiled_catalogue() -> None:
    assert catalogue.render(say("Games"), "de") == "Spiele"
    assert catalogue.render(say("Games"), "en") == "Games"
    assert catalogue.render(say("Games"), "xx") == "Games"  # no such catalogue: English


def test_the_files_whose_words_may_wait_are_still_there() -> None:
    """A file that left the code leaves the list too (the list only shrinks)."""
    assert all((ROOT / path).is_file() for path in UNTRANSLATED_FILES)


def test_an_update_keeps_the_files_date_line() -> None:
    """Two changes to one catalogue must not both rewrite its date line (they would conflict
    there whatever else they touch)."""
    before = (
        b'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-01-01 00:00+0000\\n"\n"Language: de\\n"\n'
    )
    made = before.replace(b"2026-01-01 00:00", b"2026-12-02 10:00").replace(b"de", b"de\\n")
    assert tool.with_date_of(before, made) == made.replace(b"2026-12-02 10:00", b"2026-01-01 00:00")
    assert tool.with_date_of(b"no date", made) == made

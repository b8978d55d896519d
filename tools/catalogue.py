"""Keep the message catalogue: extract the messages, update each language's file, compile.

    .venv/bin/python tools/catalogue.py extract        # every message, as a .pot on stdout
    .venv/bin/python tools/catalogue.py update         # extract, then merge into every .po
    .venv/bin/python tools/catalogue.py init fr        # a new language's .po, untranslated
    .venv/bin/python tools/catalogue.py compile        # every .po to its .mo (committed)

The extraction is Babel's (``pybabel extract``'s own functions), with keywords per kind of
source: in Python ``_``/``gettext``/``ngettext`` and ``companion.phrases``' ``say`` and
``say_n``; in templates Flask-Babel's ``_``/``gettext``/``ngettext``; in the scripts
``Panel.t``/``t`` and ``Panel.tn``/``tn``. One ``pybabel extract -k ...`` cannot do this: its
keywords hold for every kind, and the scripts' ``Panel.say(text)`` shows a message, it does
not name one. ``tests/test_catalogue.py`` runs :func:`extract` and compares.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "companion" / "translations"

GETTEXT = {"_": None, "gettext": None, "ngettext": (1, 2)}
#: Kind of source -> (folder, file pattern, Babel's method, keywords).
SOURCES = {
    "python": (
        "companion",
        "**.py",
        "python",
        {**GETTEXT, "pgettext": ((1, "c"), 2), "say": None, "say_n": (1, 2)},
    ),
    "templates": ("companion/web/templates", "**.html", "jinja2", GETTEXT),
    "scripts": ("companion/web/static", "**.js", "javascript", {"t": None, "tn": (1, 2)}),
}


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the Python code, the templates and the scripts under ``root``."""
    catalog = Catalog(project="Mandala Companion", fuzzy=False)
    for folder, pattern, method, keywords in SOURCES.values():
        found = extract_from_dir(
            root / folder,
            method_map=[(pattern, method)],
            options_map={pattern: {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}},
            keywords=keywords,
            comment_tags=("TRANSLATORS:",),
        )
        for filename, line, message, comments, context in found:
            where = (f"{folder}/{filename}", line)
            catalog.add(message, None, [where], auto_comments=comments, context=context)
    return catalog


def po_files() -> list[Path]:
    """Every language's catalogue file."""
    return sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))


def read(path: Path) -> Catalog:
    """One catalogue file, parsed."""
    with path.open("rb") as file:
        return read_po(file)


def write(catalog: Catalog, file: BinaryIO) -> None:
    """Write ``catalog`` as a .po file, sorted by message, without line numbers (a moved
    line is no change)."""
    write_po(file, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)


def save(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` to ``path`` (its folders made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write(catalog, file)


def compile_all() -> list[Path]:
    """Compile every .po to the .mo beside it; return the .mo files."""
    made = []
    for po in po_files():
        catalog = read(po)
        for message in list(catalog):  # Babel would write an untranslated plural's English
            if message.id and not (
                any(message.string) if isinstance(message.string, tuple) else message.string
            ):
                catalog.delete(message.id, message.context)
        target = po.with_suffix(".mo")
        with target.open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)
        made.append(target)
    return made


def update() -> None:
    """Extract, merge into every language (new messages untranslated, gone ones dropped),
    compile."""
    template = extract()
    for po in po_files():
        catalog = read(po)
        catalog.update(template, no_fuzzy_matching=True)
        made = io.BytesIO()
        write(catalog, made)
        before = po.read_bytes()
        if undated(made.getvalue()) != undated(before):  # only the date: no change
            # The file keeps its date line: a new date on every change would make any two
            # changes to the catalogue conflict on that one line.
            po.write_bytes(with_date_of(before, made.getvalue()))
    compile_all()


def undated(text: bytes) -> bytes:
    """A .po file's text without its POT-Creation-Date line."""
    return re.sub(rb'\n"POT-Creation-Date: [^"]*"', b"", text)


def with_date_of(before: bytes, text: bytes) -> bytes:
    """``text`` with the POT-Creation-Date line of ``before`` (when it has one)."""
    dated = re.search(rb'\n"POT-Creation-Date: [^"]*"', before)
    if dated is None:
        return text
    return re.sub(rb'\n"POT-Creation-Date: [^"]*"', lambda _: dated.group(0), text, count=1)


def init(language: str) -> Path:
    """Start ``language``'s catalogue, every message untranslated (its plural rule from
    Babel)."""
    template = extract()
    catalog = Catalog(locale=language, project="Mandala Companion", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    if path.exists():
        raise SystemExit(f"{path} is there already: translate it, then compile")
    save(catalog, path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract")
    sub.add_parser("update")
    sub.add_parser("compile")
    sub.add_parser("init").add_argument("language")
    args = parser.parse_args(argv)
    if args.command == "extract":
        write(extract(), sys.stdout.buffer)
    elif args.command == "update":
        update()
    elif args.command == "compile":
        for path in compile_all():
            print(path)
    else:
        print(init(args.language))
    return 0


if __name__ == "__main__":
    sys.exit(main())

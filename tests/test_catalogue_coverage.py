"""No word a person reads in the templates or the scripts bypasses the message catalogue.

A *bare string* is one shown as it is written: a text node or a ``title``, ``aria-label``,
``placeholder`` or ``alt`` attribute of a template (read with ``html.parser`` once the Jinja
tags are taken out), a string literal of a Jinja expression of two words or more that is not
the message of ``_()``/``gettext()``/``ngettext()``, and in a script a literal given as
``text:``, ``title:``, ``placeholder:``, ``"aria-label":``, ``alt:``, ``label:`` or to
``textContent``/``innerText``/``title``/``placeholder`` or to ``say()``/``sayError()``, and
a literal of words joined to others on a line that shows text (``n + " wins"``), and any
literal that reads as a sentence (a capital, a word, a space: what a helper such as
``tell(box, "Nothing was changed.")`` shows), that is not inside ``t()``/``tn()``. A single
word in a table of words (``{ updated: "Updated" }``) is not found: convert such tables with
the file.

:data:`TO_CONVERT` names the files whose words are not in the catalogue yet; since issue 27
converted the last of them it is empty. **The list may only shrink**: a file on it that has
no bare string left fails the test until it is taken off, and a file not on it fails at its
first bare string.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "companion" / "web" / "templates"
SCRIPTS = ROOT / "companion" / "web" / "static"

TO_CONVERT: frozenset[str] = frozenset()  # every page and script is converted (issue 27)
NAMES = re.compile(r"Mandala Companion|Mandala")
"""Names said the same in every language (the product's), taken out before looking for words."""
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
WORDS = re.compile(r"[A-Za-z]{2,}")
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
QUOTED = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
JINJA_MESSAGE = re.compile(
    rf"\b(?:ngettext\(\s*{QUOTED}\s*,\s*{QUOTED}|_\(\s*{QUOTED}|gettext\(\s*{QUOTED})"
)
JINJA_LITERAL = re.compile(QUOTED)
SCRIPT_MESSAGE = re.compile(
    rf"\b(?:tn\(\s*{QUOTED}\s*,\s*{QUOTED}|t\(\s*{QUOTED})|`[^`]*`(?=\s*\)\s*/\*\s*i18n)"
)
SCRIPT_SHOWN = re.compile(
    r"""(?:\b(?:text|title|placeholder|alt|label)\s*:|["']aria-label["']\s*:"""
    r"""|\.(?:textContent|innerText|title|placeholder)\s*=|\b(?:say|sayError)\()\s*"""
    r"""(?P<literal>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)"""
)


SHOWN_LINE = re.compile(r"\btext\s*:|\.(?:textContent|innerText|title)\s*=|\bsay(?:Error)?\(")
NOT_WORDS = re.compile(
    rf"(?:\bclass\s*:|[\"']class[\"']\s*:|\.className\s*=|\btype\s*:|\bstyle\s*:)\s*{QUOTED}"
    rf"|{SCRIPT_SHOWN.pattern}"
)
"""Literals that are never words (class names, types, styles), and the ones the first check
has already judged."""


class TextFinder(HTMLParser):
    """Text nodes and shown attributes of a template whose Jinja tags are out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value and WORDS.search(NAMES.sub(" ", value)):
                self.found.append(f"{tag} {name}={value.strip()!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and WORDS.search(NAMES.sub(" ", data)):
            self.found.append(" ".join(data.split()))


def template_bare_strings(text: str) -> list[str]:
    """The bare strings of a template's text (see the module's docstring)."""
    found: list[str] = []
    for tag in JINJA.findall(text):
        if tag.startswith("{#"):
            continue
        rest = JINJA_MESSAGE.sub("", tag)
        for literal in JINJA_LITERAL.findall(rest):
            if re.search(r"[A-Za-z]+\s+[A-Za-z]+", literal):
                found.append(f"jinja {literal}")
    finder = TextFinder()
    finder.feed(JINJA.sub(" ", text))
    finder.close()
    return found + finder.found


def script_bare_strings(text: str) -> list[str]:
    """The bare strings of a script's text (see the module's docstring)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"(?m)^\s*//.*$", " ", text)
    found = []
    for match in SCRIPT_SHOWN.finditer(text):
        literal = match.group("literal")
        inside = re.sub(r"\$\{[^}]*\}", " ", literal)
        if WORDS.search(inside):
            found.append(" ".join(match.group(0).split()))
    # a sentence anywhere (a capital, a word, a space, more): what a helper shows
    for literal in re.findall(rf"{QUOTED}|`[^`]*`", NOT_WORDS.sub(" ", NAMES.sub(" ", text))):
        if re.match(r".[A-Z][a-z]+ \S", literal) and not literal.startswith("`<"):
            found.append(f"sentence {literal}")
    # a sentence built from pieces on a line that shows text: "… " + n + " wins"
    for line in text.splitlines():
        if not SHOWN_LINE.search(line):
            continue
        for literal in JINJA_LITERAL.findall(NOT_WORDS.sub(" ", line)):
            if re.search(r"[A-Za-z]{2,}", literal) and " " in literal:
                found.append(f"pieces {literal}")
    return found


def bare_strings(path: Path) -> list[str]:
    """The bare strings of one template or script."""
    text = path.read_text()
    if path.suffix == ".html":
        return template_bare_strings(text)
    return script_bare_strings(SCRIPT_MESSAGE.sub("t()", text))


def shown_files() -> list[Path]:
    return sorted([*TEMPLATES.glob("*.html"), *SCRIPTS.glob("*.js")])


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", shown_files(), ids=name)
def test_no_word_in_a_converted_file_bypasses_the_catalogue(path: Path) -> None:
    if name(path) in TO_CONVERT:
        assert bare_strings(path), (
            f"{name(path)} has no bare string left: take it off TO_CONVERT (the list shrinks)"
        )
    else:
        assert bare_strings(path) == [], f"{name(path)}: words outside the catalogue"


def test_the_files_still_to_convert_are_files() -> None:
    there = {name(path) for path in shown_files()}
    assert not TO_CONVERT - there, f"not a file any more: {sorted(TO_CONVERT - there)}"


BAD_TEMPLATE = """{% extends "base.html" %}
{% block main %}<section><h1>History</h1>
<button title="Delete the game" aria-label="{{ _('Delete') }}">{{ _('Delete') }}</button>
<img alt="the board" src="{{ url_for('static', filename='x.png') }}">
<input placeholder="Your name">
<p>{{ 'No plays yet.' if n == 0 else ngettext('%(num)d play', '%(num)d plays', n) }}</p>
<script>const x = "not shown";</script><style>p { color: red }</style>
{# a comment for translators only #}
</section>{% endblock %}
"""
GOOD_TEMPLATE = """{% extends "base.html" %}
{% block main %}<section><h1>{{ _('History') }}</h1>
<button title="{{ _('Delete the game') }}">{{ _('Delete') }}</button>
<img alt="{{ _('the board') }}" src="{{ url_for('static', filename='x.png') }}">
<p>{{ _('No plays yet.') if n == 0 else ngettext('%(num)d play', '%(num)d plays', n) }}</p>
<p>{{ data.name }} · {{ data.score }} <a href="/">×</a></p>
</section>{% endblock %}
"""
BAD_SCRIPT = """
const row = el("p", { text: "Nothing failed", class: "muted" });
row.textContent = `${count} checks passed`;
say("Saved on the box");
el("button", { "aria-label": 'Zoom in', title: t("Zoom") });
status.title = "Not yet";
result.textContent = scores + " — " + (winner ? winner + " wins" : "a shared win");
ask("Ask the box", () => go());
"""
GOOD_SCRIPT = """
/* a comment: { text: "not shown" } */
const row = el("p", { text: t("Nothing failed"), class: "muted" });
row.textContent = tn("{count} check passed", "{count} checks passed", count);
say(t("Saved on the box"));
el("button", { "aria-label": t("Zoom in"), title: name, text: `${a} · ${b}` });
el("span", { class: "dot player-dot", text: "×" });
box.className = "message " + kind; box.textContent = name + " · " + place;
tell(said, t("Nothing was changed."), "ok");
"""


def test_the_checker_finds_each_kind_of_bare_string_in_a_template() -> None:
    assert template_bare_strings(BAD_TEMPLATE) == [
        "jinja 'No plays yet.'",
        "History",
        "button title='Delete the game'",
        "img alt='the board'",
        "input placeholder='Your name'",
    ]
    assert template_bare_strings(GOOD_TEMPLATE) == []


def test_the_checker_finds_each_kind_of_bare_string_in_a_script() -> None:
    assert script_bare_strings(SCRIPT_MESSAGE.sub("t()", BAD_SCRIPT)) == [
        'text: "Nothing failed"',
        ".textContent = `${count} checks passed`",
        'say("Saved on the box"',
        "\"aria-label\": 'Zoom in'",
        '.title = "Not yet"',
        'sentence "Ask the box"',
        'pieces " wins"',
        'pieces "a shared win"',
    ]
    assert script_bare_strings(SCRIPT_MESSAGE.sub("t()", GOOD_SCRIPT)) == []

"""The message catalogue on disk: which languages the panel speaks, and each one's gettext.

Every word a person reads or hears has its English text as the key of one gettext catalogue,
``companion/translations/<language>/LC_MESSAGES/messages.po``, compiled beside it to
``messages.mo`` (committed; ``tests/test_catalogue.py`` fails when the two differ, and
``tools/catalogue.py compile`` makes it again). English is the catalogue's own language and
has no file. The web layer (``companion.web.i18n``) reads the same files through Flask-Babel;
whatever speaks outside a request (the Pi's speaker) renders a
:class:`~companion.phrases.Phrase` with :func:`translation`.

Standard library only, so any layer may import it, as ``companion.phrases``.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from companion.phrases import Phrase

TRANSLATIONS = Path(__file__).with_name("translations")
"""The catalogue files, one folder per language (``de/LC_MESSAGES/messages.po``)."""
SOURCE = "en"
"""The catalogue's own language: its messages are the keys, so it needs no file."""
DOMAIN = "messages"


@cache
def languages() -> tuple[str, ...]:
    """The languages there are: English first, then each catalogue's folder, sorted (read
    once: the catalogues are the installed package's, and every page asks several times)."""
    found = sorted(
        folder.name
        for folder in TRANSLATIONS.iterdir()
        if (folder / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
    )
    return (SOURCE, *found)


def is_language(code: object) -> bool:
    """Whether ``code`` names a language of :func:`languages` (``"de"``)."""
    return isinstance(code, str) and code in languages()


@cache
def translation(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English, or one not there: the messages as
    they are)."""
    if language == SOURCE or not is_language(language):
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, TRANSLATIONS, [language])


def render(phrase: Phrase, language: str) -> str:
    """The phrase in ``language`` (its English where the catalogue lacks it)."""
    words = translation(language)
    return phrase.render(words.gettext, words.ngettext)

"""A phone's name as the box stores it (from its browser's User-Agent) and as a page reads it.

Here, not in ``owner``, so that the clock (which names the phone it took its time from) needs
nothing of the owner's store.
"""

from __future__ import annotations

from companion.phrases import Phrase, say

MAX_LABEL = 60
"""A stored label keeps at most this many characters."""

#: A User-Agent's mark to the system's name in a phone's label.
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS", "Mac"),
    ("CrOS", "Chromebook"),
    ("Linux", "Linux"),
)
#: A User-Agent's mark to the browser's name in a phone's label.
BROWSERS = (
    ("Firefox/", "Firefox"),
    ("Edg/", "Edge"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
)
NO_NAME = "a device without a name"
"""The label of a phone whose browser gives no name."""


def phone_label(user_agent: str) -> str:
    """Name a phone in plain words from its browser's User-Agent (``Chrome on Android``)."""
    system = next((name for key, name in SYSTEMS if key in user_agent), None)
    browser = next((name for key, name in BROWSERS if key in user_agent), None)
    if system and browser:
        return f"{browser} on {system}"
    if system or browser:
        return str(system or browser)
    kept = "".join(c for c in user_agent if c.isprintable())[:MAX_LABEL].strip()
    return kept or NO_NAME


def phone_label_words(label: str) -> Phrase | str:
    """A stored :func:`phone_label` as words in the reader's language (``Chrome on Android``
    is a phrase; a browser's own name stays as it is)."""
    if label == NO_NAME:
        return say("a device without a name")
    browser, on, system = label.partition(" on ")
    if on and browser in dict(BROWSERS).values() and system in dict(SYSTEMS).values():
        return say("{browser} on {system}", browser=browser, system=system)
    return label

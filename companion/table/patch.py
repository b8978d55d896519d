"""The changes between two JSON values, as a list of ``[path, value]`` steps to apply.

A path is the keys and list indexes from the top (``["live", "rings", 3, "sensed"]``); the
value replaces what is there. Objects with the same keys and lists of the same length are
compared inside; anything else is replaced whole. The panel applies the steps in order
(``Panel.patched`` in ``companion/web/static/panel.js``); :func:`apply` is the same here.
"""

from __future__ import annotations

from typing import Any


def changes(old: Any, new: Any, path: tuple[str | int, ...] = ()) -> list[list[Any]]:
    """The steps that turn ``old`` into ``new`` (none when they are equal)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        return [step for key in new for step in changes(old[key], new[key], (*path, key))]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        pairs = enumerate(zip(old, new, strict=True))
        return [step for i, (was, now) in pairs for step in changes(was, now, (*path, i))]
    return [[list(path), new]]


def apply(value: Any, steps: list[list[Any]]) -> Any:
    """``value`` with ``steps`` applied (copied where they change it; ``value`` is kept)."""
    for path, new in steps:
        value = _set(value, list(path), new)
    return value


def _set(value: Any, path: list[str | int], new: Any) -> Any:
    if not path:
        return new
    key, rest = path[0], path[1:]
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[key] = _set(value[key], rest, new)  # type: ignore[index]
    return copy

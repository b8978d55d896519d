"""What ``mandala serve`` leaves unloaded until something needs it (issue 23: idle memory).

A box that waits for its family holds what start-up imported. Two chains in the libraries
bring in OpenSSL (libssl and libcrypto, about 5 MB resident) that the served companion never
uses: importing ``werkzeug`` imports ``werkzeug.serving`` (its development server, with
``ssl``, ``http.server`` and ``http.client``) for one name, and ``hashlib`` loads OpenSSL's
``_hashlib`` for the few SHA-256 sums the companion takes (etags, backups, seat tokens).

:func:`lighter_imports` is called first in ``companion.serve.run``, before Flask is imported:

- ``werkzeug.serving`` becomes a small module that answers the two names Flask and Werkzeug
  take from it at import (``run_simple``, ``is_running_from_reloader``) and loads the real
  module the first time anything else (or either function) is used;
- ``hashlib`` uses Python's own SHA-2 and the other built-in hashes (the same digests; the
  companion hashes a few kilobytes at a time, a backup a few megabytes). Nothing the
  companion calls needs OpenSSL's hashes (no ``pbkdf2_hmac`` or ``scrypt``).

Only the server's process is changed: the tests and the other commands import as usual.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import types
from typing import Any

SERVING = "werkzeug.serving"


class _Serving(types.ModuleType):
    """``werkzeug.serving`` until it is first needed, then a view of the real module."""

    def __init__(self, finder: _ServingFinder) -> None:
        super().__init__(SERVING, "Werkzeug's development server, loaded when first used.")
        self._finder = finder
        self._real: types.ModuleType | None = None

    def _load(self) -> types.ModuleType:
        if self._real is None:
            if self._finder in sys.meta_path:
                sys.meta_path.remove(self._finder)
            if sys.modules.get(SERVING) is self:
                del sys.modules[SERVING]
            self._real = importlib.import_module(SERVING)  # now werkzeug.serving is it
        return self._real

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._load(), name)

    def run_simple(self, *args: Any, **kwargs: Any) -> Any:
        return self._load().run_simple(*args, **kwargs)

    def is_running_from_reloader(self) -> bool:
        """As Werkzeug's: whether this is the reloader's child process."""
        return os.environ.get("WERKZEUG_RUN_MAIN") == "true"


class _ServingFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``werkzeug.serving`` as the small module, so the import system binds it to the
    package as it would the real one; ``from werkzeug.serving import run_simple`` then takes a
    bound method of it, which loads the real module when called."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != SERVING:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _Serving(self)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the small module is whole as made."""


def defer_werkzeug_serving() -> bool:
    """Put the small ``werkzeug.serving`` in place; False when Werkzeug is loaded already
    (then nothing is changed)."""
    if "werkzeug" in sys.modules or any(isinstance(f, _ServingFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _ServingFinder())
    return True


def builtin_hashes() -> bool:
    """Have ``hashlib`` use Python's own hashes, not OpenSSL's; False when ``hashlib`` or
    ``_hashlib`` is loaded already (then nothing is changed)."""
    if "hashlib" in sys.modules or "_hashlib" in sys.modules:
        return False
    sys.modules["_hashlib"] = None  # type: ignore[assignment]  # import _hashlib: ImportError
    return True


def lighter_imports() -> tuple[bool, bool]:
    """Both of the above, before anything imports Flask or ``hashlib``; answers which took."""
    return defer_werkzeug_serving(), builtin_hashes()

"""The last log lines, kept in memory for the diagnostics bundle (a ring buffer handler)."""

from __future__ import annotations

import collections
import logging
import sys
import threading
from typing import Final

LOG_LINES: Final = 500
"""How many of the most recent log lines the bundle carries."""
LINE_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class LogBuffer(logging.Handler):
    """Keep the last ``capacity`` formatted records (tracebacks included, line by line)."""

    def __init__(self, capacity: int = LOG_LINES) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logging.Formatter(LINE_FORMAT))
        self._lines: collections.deque[str] = collections.deque(maxlen=capacity)
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
        except Exception:  # a record that cannot be formatted must not break the logger
            self.handleError(record)
            return
        with self._guard:
            self._lines.extend(text.splitlines())

    def lines(self) -> list[str]:
        """The kept lines, oldest first."""
        with self._guard:
            return list(self._lines)


def install(capacity: int = LOG_LINES) -> LogBuffer:
    """Attach a :class:`LogBuffer` to the root logger and let INFO records reach it.

    What reached standard error before (Python's last-resort handler: WARNING and above, the
    bare message) still does, through an equal handler added when the root logger had none.
    """
    root = logging.getLogger()
    if not root.handlers:
        stderr = logging.StreamHandler(sys.stderr)
        stderr.setLevel(logging.WARNING)
        root.addHandler(stderr)
    buffer = LogBuffer(capacity)
    root.addHandler(buffer)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    return buffer


def uninstall(buffer: LogBuffer) -> None:
    """Detach ``buffer`` from the root logger (tests; a stopping server)."""
    logging.getLogger().removeHandler(buffer)

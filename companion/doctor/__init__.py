"""``mandala doctor`` and the panel's Health page: is this box ready to sense and light the board?

What lives here: the checks (``checks``: pure functions, each over a small ``Protocol``-typed
probe, each answering one :class:`~companion.doctor.checks.Check` with ``ok``/``warn``/``fail``
and what to do), the probes that answer them on a Pi, in emulation and inside the running
server (``probes``), the diagnostics bundle (``bundle``) and the ring buffer of recent log
lines (``logbuffer``).

What must not: game rules, or anything that changes the hardware's state for good: a check
only reads (a pin is claimed, read and released; the database is opened read-only). The
guided ring test and the LED test run on the table (``companion.table.guided``).
"""

from companion.doctor.checks import Check, Status, has_failure

__all__ = ["Check", "Status", "has_failure"]

"""The table thread: one queue of commands and pin reports, one thread that applies them.

Callers put a call on the queue and wait for its answer (:meth:`Worker.call`); pin callbacks
(ring reports, button presses) only put an item on it. The :class:`Table`
(``companion.table.table``) says what each item does through :class:`Handlers`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.phrases import say
from companion.table.board_parts import RingReportLike
from companion.table.errors import Conflict

log = logging.getLogger(__name__)

T = TypeVar("T")

CALL_TIMEOUT = 30.0
"""How long a caller waits for the table thread before it is told to try again."""


@dataclass(frozen=True)
class Handlers:
    """What the table thread does with each item, and between items."""

    take_report: Callable[[RingReportLike], None]
    """One ring report from the sensors."""
    after_reports: Callable[[], None]
    """A burst of ring reports is taken: work out the live turn once."""
    press: Callable[[str], None]
    """A button press."""
    after_call: Callable[[], None]
    """A call was answered."""
    after_item: Callable[[], None]
    """Any item was handled (a computer seat to move starts, follows or confirms)."""
    tick: Callable[[], None]
    """Nothing came in time: the LEDs' next step."""
    wake_in: Callable[[], float | None]
    """Seconds until the next tick is due (None: none is)."""


@dataclass(frozen=True)
class _Call:
    function: Callable[[], Any]
    future: Future[Any]


@dataclass(frozen=True)
class _RingReport:
    report: RingReportLike


@dataclass(frozen=True)
class _Button:
    name: str


class _Stop:
    pass


_Item = _Call | _RingReport | _Button | _Stop
"""What the table thread takes from its queue."""


class Worker:
    """The table's queue and its one thread."""

    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        self._queue: queue.Queue[_Item] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.running = False
        """Whether calls are taken (from :meth:`open` until :meth:`stop`)."""

    def open(self) -> None:
        """Take calls from now on (the thread starts with :meth:`start`)."""
        self.running = True

    def start(self) -> None:
        """Start the table thread."""
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (every call still queued is refused); take no more calls."""
        if self._thread is not None and self.running:
            self._queue.put(_Stop())
            self._thread.join(timeout=10)
        self.running = False
        self._thread = None

    def is_alive(self) -> bool:
        """Say whether the table thread is running."""
        return self._thread is not None and self._thread.is_alive()

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the table thread and answer what it returns (any thread).

        :raises Conflict: the table is not running, or did not answer in time.
        """
        if threading.current_thread() is self._thread:
            return function()
        if not self.running:
            raise Conflict.said(say("the table service is not running"))
        future: Future[T] = Future()
        self._queue.put(_Call(function, future))
        try:
            return future.result(timeout=CALL_TIMEOUT)
        except TimeoutError as error:
            raise Conflict.said(
                say(
                    "the table service did not answer within {seconds} s; try again",
                    seconds=f"{CALL_TIMEOUT:.0f}",
                )
            ) from error

    def when_ring(self, report: RingReportLike) -> None:
        """Take a ring report from the sensors (any thread; only enqueues)."""
        self._queue.put(_RingReport(report))

    def when_button(self, name: str) -> None:
        """Take a button press (any thread; only enqueues)."""
        self._queue.put(_Button(name))

    def _run(self) -> None:
        pending: _Item | None = None
        while True:
            item = pending
            pending = None
            if item is None:
                try:
                    item = self._queue.get(timeout=self.handlers.wake_in())
                except queue.Empty:
                    try:
                        self.handlers.tick()
                    except Exception:  # a strip that fails must not stop the table thread
                        log.exception("table thread: LED tick failed")
                    continue
            if isinstance(item, _Stop):
                self._refuse_waiting()
                return
            try:
                pending = self._handle(item)
            except Exception:  # the one thread must outlive any bug in a report's handling
                log.exception("table thread: %r failed", item)
            try:
                self.handlers.after_item()
            except Exception:  # the table thread must outlive a failing computer seat
                log.exception("table thread: computer seat failed")

    def _refuse_waiting(self) -> None:
        """Answer every call still queued at shutdown, so no caller waits for ever."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Call) and item.future.set_running_or_notify_cancel():
                item.future.set_exception(Conflict("the table service is stopping"))

    def _handle(self, item: _Call | _RingReport | _Button) -> _Item | None:
        """Apply one queued item; return an item taken from the queue but not yet handled."""
        pending: _Item | None = None
        if isinstance(item, _Call):
            if item.future.set_running_or_notify_cancel():
                try:
                    item.future.set_result(item.function())
                except Exception as error:  # the caller gets every refusal as raised
                    item.future.set_exception(error)
            self.handlers.after_call()
        elif isinstance(item, _RingReport):
            self.handlers.take_report(item.report)
            # Many reports arrive in a burst while a ring turns: take them all, then
            # work out the live turn once.
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if isinstance(more, _RingReport):
                    self.handlers.take_report(more.report)
                else:
                    pending = more
                    break
            self.handlers.after_reports()
        else:
            self.handlers.press(item.name)
        return pending

"""A stop closes the journal only once the day's backup in progress is done with the files
(``companion.serve.close_table`` takes the rolling backups' lock), so the journal is the file's
last user and checkpoints it; a backup that never ends delays the stop by at most its bound."""

from __future__ import annotations

import threading

from companion.serve import close_table
from companion.table.rolling import FILES_LOCK


class Speaker:
    """The speaker the stop closes first (it tells the backup below that the stop began)."""

    def __init__(self) -> None:
        self.closed = threading.Event()

    def close(self) -> None:
        self.closed.set()


class Journal:
    """A table that notes what it saw of the backup as it closed."""

    def __init__(self, backup_done: threading.Event) -> None:
        self.backup_done = backup_done
        self.saw: list[bool] = []

    def close(self) -> None:
        self.saw.append(self.backup_done.is_set())
        assert not FILES_LOCK.acquire(blocking=False), "no backup may start while it closes"


def test_the_journal_closes_after_the_backup_in_progress_is_done() -> None:
    speaker = Speaker()
    done = threading.Event()
    holding = threading.Event()

    def backup() -> None:  # the rolling backup, under its lock until the stop has begun
        with FILES_LOCK:
            holding.set()
            assert speaker.closed.wait(10)
            done.set()

    thread = threading.Thread(target=backup)
    thread.start()
    assert holding.wait(10)
    journal = Journal(done)
    close_table(journal, speaker, FILES_LOCK)
    thread.join(10)
    assert journal.saw == [True]
    assert FILES_LOCK.acquire(blocking=False), "the stop lets go of the lock"
    FILES_LOCK.release()


def test_a_backup_that_does_not_end_delays_the_stop_only_by_the_bound() -> None:
    release = threading.Event()
    holding = threading.Event()

    def stuck() -> None:
        with FILES_LOCK:
            holding.set()
            assert release.wait(10)

    thread = threading.Thread(target=stuck)
    thread.start()
    assert holding.wait(10)
    closed: list[str] = []

    class Table:
        def close(self) -> None:
            closed.append("closed")

    try:
        close_table(Table(), None, FILES_LOCK, wait_s=0.05)
        assert closed == ["closed"]
    finally:
        release.set()
        thread.join(10)

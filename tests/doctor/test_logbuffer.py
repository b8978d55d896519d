"""The ring buffer of log lines the diagnostics bundle carries."""

from __future__ import annotations

import logging

from companion.doctor.logbuffer import LOG_LINES, LogBuffer, install, uninstall


def test_the_buffer_keeps_only_the_last_lines_in_order() -> None:
    buffer = LogBuffer(capacity=3)
    log = logging.getLogger("tests.buffer.order")
    log.addHandler(buffer)
    log.setLevel(logging.INFO)
    try:
        for number in range(5):
            log.info("line %d", number)
    finally:
        log.removeHandler(buffer)
    kept = buffer.lines()
    assert [line.rsplit(": ", 1)[1] for line in kept] == ["line 2", "line 3", "line 4"]
    assert " INFO tests.buffer.order: " in kept[0]


def test_a_traceback_is_kept_line_by_line() -> None:
    buffer = LogBuffer()
    log = logging.getLogger("tests.buffer.traceback")
    log.addHandler(buffer)
    try:
        try:
            raise ValueError("the strip is closed")
        except ValueError:
            log.exception("show failed")
    finally:
        log.removeHandler(buffer)
    kept = buffer.lines()
    assert kept[0].endswith("ERROR tests.buffer.traceback: show failed")
    assert kept[-1] == "ValueError: the strip is closed"
    assert "Traceback (most recent call last):" in kept


def test_installed_on_the_root_logger_it_hears_info_and_keeps_500() -> None:
    root = logging.getLogger()
    level = root.level
    buffer = install()
    try:
        logging.getLogger("tests.buffer.root").info("the panel is up")
        assert buffer.lines()[-1].endswith("INFO tests.buffer.root: the panel is up")
        assert LOG_LINES == 500
    finally:
        uninstall(buffer)
        root.setLevel(level)

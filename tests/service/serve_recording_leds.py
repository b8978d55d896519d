"""Run ``mandala serve`` with the emulated LED strip's frames copied to a file as they change.

Usage: ``python serve_recording_leds.py FRAMES.jsonl serve --emulate ...``. The strip,
the table and the command are the real ones; each frame the emulated strip holds after a
``show()`` or its ``close()`` is appended to the file as a JSON line, like a logic analyser on
the strip's data line. The frames outlive the process, so a test can read the last one the
service showed before it exited.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.cli import main
from firmware.leds import EmulatedStrip


def install_recorder(path: Path) -> None:
    """Append the strip's frame to ``path`` after every ``show()`` and on ``close()``."""
    show, close = EmulatedStrip.show, EmulatedStrip.close

    def record(strip: EmulatedStrip, event: str) -> None:
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"event": event, "frame": strip.last_frame}) + "\n")

    def recording_show(self: EmulatedStrip, frame: Sequence[tuple[int, int, int]]) -> None:
        show(self, frame)
        record(self, "show")

    def recording_close(self: EmulatedStrip) -> None:
        close(self)
        record(self, "close")

    EmulatedStrip.show = recording_show  # type: ignore[method-assign]
    EmulatedStrip.close = recording_close  # type: ignore[method-assign]


if __name__ == "__main__":
    install_recorder(Path(sys.argv[1]))
    raise SystemExit(main(sys.argv[2:]))

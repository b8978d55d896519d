"""The Pi's own speaker (issue 25): the table's announcements spoken by ``espeak-ng``.

With ``[speech] speaker = true`` in the config, ``companion.serve`` starts a
:class:`Speaker` on one stream of the table's hub. It keeps the ``say`` items
(``companion.table.announce``) in a :class:`SayQueue` with the browser's rules
(``static/speech.js``): one announcement at a time; a waiting one is dropped when a newer
one of the same game and topic arrives (every topic but ``events``) or when it waited more
than :data:`STALE_S`. Its own threads read the stream and run ``espeak-ng`` (a Debian
package, offline voices, no download), one sentence after another, so the table thread
never waits for it. A missing or failing program is a line on the Health page
(:meth:`Speaker.check`), never a crash. The sentences are said in the box's language
(the config's ``language``, through ``companion.catalogue``), by its voice unless the
config names another.

Process wiring: it imports the table's hub and the phrases; nothing imports it but
``companion.serve`` and its tests.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.catalogue import SOURCE, render
from companion.config import SpeechOptions
from companion.phrases import Phrase, phrase_from_json, say, say_n
from companion.table.hub import Subscription

log = logging.getLogger(__name__)

STALE_S = 30.0
"""How long an announcement may wait before it is dropped unspoken (as ``speech.js``)."""
PROGRAM = "espeak-ng"
SAY_TIMEOUT_S = 30.0
"""The longest one sentence may take to speak (a hang guard on the program)."""


class SayQueue:
    """The announcements waiting to be spoken, by the rules of ``static/speech.js``
    (thread-safe; times are ``time.monotonic()`` seconds)."""

    def __init__(self, stale_s: float = STALE_S) -> None:
        self.stale_s = stale_s
        self._waiting: deque[tuple[float, Mapping[str, Any]]] = deque()
        self._ready = threading.Condition()
        self.closed = False
        self.busy = False
        """Set by the speaker while it speaks what it took."""

    def put(self, item: Mapping[str, Any], now: float) -> None:
        """Queue a ``say`` item; a waiting one it supersedes goes."""
        with self._ready:
            if item.get("topic") != "events":
                kept = [
                    (at, held)
                    for at, held in self._waiting
                    if (held.get("game"), held.get("topic"))
                    != (item.get("game"), item.get("topic"))
                ]
                self._waiting = deque(kept)
            self._waiting.append((now, item))
            self._ready.notify_all()

    def take(
        self, clock: Callable[[], float], timeout: float | None = None
    ) -> Mapping[str, Any] | None:
        """The next announcement that is not stale, waiting up to ``timeout`` seconds for one
        (None: nothing came, or the queue was closed)."""
        with self._ready:
            deadline = None if timeout is None else clock() + timeout
            while not self.closed:
                now = clock()
                while self._waiting and now - self._waiting[0][0] > self.stale_s:
                    self._waiting.popleft()
                if self._waiting:
                    self.busy = True  # until the speaker has said it
                    return self._waiting.popleft()[1]
                left = None if deadline is None else deadline - now
                if left is not None and left <= 0:
                    return None
                self._ready.wait(left)
            return None

    def idle(self) -> bool:
        """Say whether nothing waits and nothing is being spoken."""
        with self._ready:
            return not self._waiting and not self.busy

    def close(self) -> None:
        """Wake and stop the taker."""
        with self._ready:
            self.closed = True
            self._waiting.clear()
            self._ready.notify_all()


class Speaker:
    """``espeak-ng`` speaking the announcements of one hub stream, off the table thread.

    ``write_to``: a folder where each sentence goes as ``said-N.wav`` instead of the sound
    card (``espeak-ng -w``); ``clock``: ``time.monotonic`` unless a test gives another.
    """

    def __init__(
        self,
        subscription: Subscription,
        options: SpeechOptions,
        language: str = SOURCE,
        *,
        program: str = PROGRAM,
        write_to: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.subscription = subscription
        self.options = options
        self.language = language
        self.voice = options.voice or language
        self.program = program
        self.write_to = write_to
        self.clock = clock
        self.queue = SayQueue()
        self.spoken: list[str] = []
        """Every sentence given to the program, in order."""
        self.problem: str | None = None
        """Why the last sentence could not be spoken (None: it was)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._threads = [
            threading.Thread(target=self._read, name="speaker-stream", daemon=True),
            threading.Thread(target=self._speak, name="speaker", daemon=True),
        ]

    def start(self) -> None:
        """Start reading the stream and speaking."""
        for thread in self._threads:
            thread.start()

    def close(self) -> None:
        """Stop: the stream closed, the sentence being spoken cut off."""
        self.subscription.close()
        self.queue.close()
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
        for thread in self._threads:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(timeout=5)

    def found(self) -> str | None:
        """The program's path, or None when it is not installed."""
        return shutil.which(self.program)

    def check(self) -> tuple[str, str]:
        """The Health page's line in English: ``("ok" | "warn", what and why)``."""
        status, phrase = self.check_words()
        return status, phrase.english()

    def check_words(self) -> tuple[str, Phrase]:
        """The Health page's line as words to translate: ``("ok" | "warn", phrase)``."""
        if self.found() is None:
            return "warn", say(
                "[speech] speaker is on but {program} is not installed: "
                "sudo apt-get install espeak-ng",
                program=self.program,
            )
        if self.problem is not None:
            return "warn", say(
                "{program} could not speak the last announcement: {problem}",
                program=self.program,
                problem=self.problem,
            )
        return "ok", say_n(
            "{program} speaks the announcements (voice {voice}, {count} word a minute)",
            "{program} speaks the announcements (voice {voice}, {count} words a minute)",
            self.options.rate,
            program=self.program,
            voice=self.voice,
        )

    def _read(self) -> None:
        while not self.queue.closed:
            item = self.subscription.get(timeout=1.0)
            if item is None:
                if self.subscription.closed:
                    self.queue.close()
                    return
                continue
            if item.get("type") == "say" and isinstance(item.get("phrases"), list):
                self.queue.put(item, self.clock())

    def _speak(self) -> None:
        while True:
            item = self.queue.take(self.clock)
            if item is None:
                return
            try:
                for found in item["phrases"]:
                    if self.queue.closed:
                        return
                    try:
                        text = render(phrase_from_json(found), self.language)
                    except (KeyError, TypeError, ValueError) as error:
                        log.warning("speaker: an announcement that cannot be said: %s", error)
                        continue
                    self.say(text)
            finally:
                self.queue.busy = False

    def say(self, text: str) -> None:
        """Run the program for one sentence and wait for it (on the speaker's thread)."""
        program = self.found()
        if program is None:
            self.problem = f"{self.program} is not installed"
            return
        command = [program, "-v", self.voice, "-s", str(self.options.rate)]
        if self.write_to is not None:
            command += ["-w", str(self.write_to / f"said-{len(self.spoken) + 1}.wav")]
        self.spoken.append(text)
        try:
            process = self._process = subprocess.Popen(
                [*command, "--", text], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as error:
            self.problem = error.strerror or str(error)
        else:
            self.problem = self._wait(process)
        if self.problem is not None:
            log.warning("speaker: %s", self.problem)

    def _wait(self, process: subprocess.Popen[bytes]) -> str | None:
        """Wait for one sentence; what went wrong (None: it was said, or cut off by close)."""
        try:
            _, errors = process.communicate(timeout=SAY_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return f"it took over {SAY_TIMEOUT_S:.0f} s"
        if process.returncode == 0 or self.queue.closed:
            return None
        said = " ".join(errors.decode("utf-8", "replace").split())[:200]
        return f"exit status {process.returncode}" + (f": {said}" if said else "")

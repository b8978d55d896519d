"""What the panel and the ``done`` button ask of the Wi-Fi, one change at a time, off their threads.

Joining a network or opening the access point takes NetworkManager seconds, and the phone
that asked is often connected through the very access point being closed, so :class:`WifiBox`
answers at once and does the change on its own thread; the panel then polls
:meth:`WifiBox.status` (``doing`` while it runs, ``last`` for how it ended). A join that fails
while the box was its own access point (a wrong password, a network gone) opens the access
point again, so the phone can come back and read why.

At start-up (:meth:`WifiBox.start_when_no_network`, ``mandala serve`` on a Pi) the box waits
a short while for NetworkManager to join a known network and opens its access point when
none is active by then.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from companion.box.wifi import AccessPoint, Network, Wifi, WifiError, WifiState
from companion.phrases import Phrase, say

log = logging.getLogger(__name__)

BOOT_WAIT_S: Final = 30.0
"""How long the box waits at start-up for NetworkManager to join a known network."""
BOOT_POLL_S: Final = 2.0
STATE_CACHE_S: Final = 2.0
"""How long a state read answers :meth:`WifiBox.is_access_point` (the captive probes)."""
WHY: Final = {
    "asked on the panel": say("asked on the panel"),
    "the done button was held": say("the done button was held"),
    "no known network at start-up": say("no known network at start-up"),
}
"""The reasons the access point is opened for, as the Wi-Fi page says them (the log keeps
the English; a reason not here is shown as it is)."""


class WifiBox:
    """The box's Wi-Fi as the panel drives it (thread-safe; one change runs at a time)."""

    def __init__(self, wifi: Wifi) -> None:
        self.wifi = wifi
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._doing: dict[str, Any] | None = None
        self._last: dict[str, Any] | None = None
        self._state: tuple[float, WifiState] | None = None

    # Reading ------------------------------------------------------------------------------

    def state(self) -> WifiState:
        """What NetworkManager says now (and kept for :meth:`is_access_point`)."""
        found = self.wifi.state()
        with self._lock:
            self._state = (time.monotonic(), found)
        return found

    def is_access_point(self) -> bool:
        """Whether the box is its own access point now (read at most every couple of seconds)."""
        with self._lock:
            kept = self._state
        if kept is not None and time.monotonic() - kept[0] < STATE_CACHE_S:
            return kept[1].is_access_point
        try:
            return self.state().is_access_point
        except WifiError:
            return False

    def status(self) -> dict[str, Any]:
        """The state, the access point's name and password, what runs and how the last ended."""
        with self._lock:
            doing, last = self._doing, self._last
        # Read after: a change said to be over is over in the state too (read before, a
        # change ending meanwhile would show its old state as the final one).
        state = self.state()
        return {
            **state.to_json(),
            "own_network": self.wifi.access_point().to_json(),
            "doing": doing,
            "last": last,
        }

    def scan(self) -> list[Network]:
        """The networks in reach (NetworkManager's last list while the box is its own AP)."""
        return self.wifi.scan(rescan=not self.state().is_access_point)

    def forget(self, name: str) -> None:
        """Forget a known network."""
        self.wifi.forget(name)
        self._forget_state()

    # Changing, on the box's own thread ----------------------------------------------------

    def join_soon(self, ssid: str, password: str | None) -> dict[str, Any]:
        """Start joining ``ssid``; answer what is being done."""
        before = self.state()

        def join() -> Phrase:
            try:
                self.wifi.join(ssid, password)
            except WifiError:
                self._return_to(before)
                raise
            return say("joined {ssid}", ssid=repr(ssid))

        return self._start({"action": "join", "ssid": ssid}, join)

    def open_access_point_soon(self, why: str) -> dict[str, Any]:
        """Start opening the box's own network; answer what is being done."""

        def open_point() -> Phrase:
            try:
                self.wifi.scan(rescan=True)  # the list the panel shows while the AP is up
            except WifiError as error:
                log.info("wifi: no scan before opening the access point: %s", error)
            point: AccessPoint = self.wifi.open_access_point()
            log.warning("wifi: opened the access point %s (%s)", point.ssid, why)
            return say("opened {ssid} ({why})", ssid=point.ssid, why=WHY.get(why, why))

        return self._start({"action": "access_point", "why": why}, open_point)

    def stop_access_point_soon(self) -> dict[str, Any]:
        """Start closing the box's own network (a known network is joined by itself)."""

        def stop() -> Phrase:
            self.wifi.stop_access_point()
            return say("closed {ssid}", ssid=self.wifi.ssid)

        return self._start({"action": "stop_access_point"}, stop)

    def _return_to(self, before: WifiState) -> None:
        """After a failed join, go back where the box was, so the phone can come back and
        read why: its own access point, or the network it was on (else its access point)."""
        if self.wifi.state().connection == before.connection:
            return  # refused before anything changed (a network not in reach)
        if before.connection is not None and not before.is_access_point:
            try:
                self.wifi.join(before.connection, None)
                return
            except WifiError as error:
                log.warning("wifi: cannot go back to %r: %s", before.connection, error)
        if before.connection is not None:
            self.wifi.open_access_point()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no change runs; answer whether none does."""
        return self._idle.wait(timeout)

    def start_when_no_network(
        self, wait_s: float = BOOT_WAIT_S, poll_s: float = BOOT_POLL_S
    ) -> threading.Thread:
        """Watch, on a thread, for a known network joined within ``wait_s``; else open the AP."""

        def watch() -> None:
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    state = self.state()
                except WifiError as error:
                    log.warning("wifi: cannot read NetworkManager's state: %s", error)
                    return
                if not state.running or state.device is None:
                    log.info("wifi: NetworkManager or a Wi-Fi device missing; no access point")
                    return
                if state.connection is not None:
                    return  # a known network (or the access point) is up
                if time.monotonic() >= deadline:
                    break
                time.sleep(poll_s)
            self.open_access_point_soon("no known network at start-up")

        thread = threading.Thread(target=watch, name="wifi-start", daemon=True)
        thread.start()
        return thread

    def _start(self, doing: dict[str, Any], work: Callable[[], Phrase]) -> dict[str, Any]:
        """Run ``work`` on the box's thread; its outcome is ``last``, with its words as
        ``phrase`` (``Phrase.to_json``) for the page to say in its language (an error without
        words of its own, nmcli's, is said as it is)."""
        with self._lock:
            if self._doing is not None:
                return {"started": False, "doing": self._doing}
            self._doing = {**doing, "since": time.time()}
            self._idle.clear()

        def run() -> None:
            outcome: dict[str, Any]
            try:
                done = work()
                outcome = {**doing, "ok": True, "phrase": done.to_json()}
            except WifiError as error:
                log.warning("wifi: %s failed: %s", doing["action"], error)
                said = error.phrase or say("{reason}", reason=str(error))
                outcome = {**doing, "ok": False, "error": error.code, "phrase": said.to_json()}
            except Exception as error:  # the box's thread must say it failed, never hang
                log.exception("wifi: %s failed", doing["action"])
                said = say("{reason}", reason=str(error))
                outcome = {**doing, "ok": False, "error": WifiError.code, "phrase": said.to_json()}
            outcome["ended"] = time.time()
            with self._lock:
                self._last = outcome
                self._doing = None
                self._state = None
            self._idle.set()

        threading.Thread(target=run, name=f"wifi-{doing['action']}", daemon=True).start()
        return {"started": True, "doing": doing}

    def _forget_state(self) -> None:
        with self._lock:
            self._state = None

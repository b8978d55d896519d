"""``/wifi`` and ``/api/wifi``: the box's Wi-Fi from the panel (owner only), and the captive portal.

- ``GET /api/wifi`` (owner): ``{"running", "device", "connection", "access_point", "known",
  "own_network": {"ssid", "password", "address"}, "doing", "last"}`` (``companion.box``);
- ``GET /api/wifi/networks`` (owner): ``{"networks": [{"ssid", "signal", "security",
  "in_use"}]}``, the networks in reach, strongest first;
- ``POST /api/wifi/join`` (owner) ``{"ssid", "password"}`` (``password`` null or absent for
  a known or open network) and ``POST /api/wifi/access-point`` (owner) ``{"open": bool}``
  answer 202 ``{"started", "doing"}`` at once: the change runs on the box's thread (the
  phone may be on the access point being closed) and ``GET /api/wifi``'s ``last`` says how
  it ended (``{"ok", "error", "phrase"}``, its words as ``Phrase.to_json``; a failed join
  reopens the access point);
- ``POST /api/wifi/forget`` (owner) ``{"name"}``: ``{"forgotten": name}``.

Without a Wi-Fi to manage (``create_app(wifi=None)``: emulation, or ``wifi = "off"``) these
answer 404 ``not_found`` saying so.

The captive portal: while the box is its own access point, a phone's connectivity probes
(:data:`PROBES`, for any ``Host``: the access point's DNS sends every name to the box) are
answered with a redirect to the Wi-Fi page at the box's own address; it runs before the Host
check (``security``), carries nothing but that address, and at any other time these paths are
left to the Host check and 404 as any unknown path.
"""

from __future__ import annotations

import socket
from typing import Any, Final, Protocol, cast

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
)

from companion.box.wifi import (
    AP_ADDRESS,
    Network,
    NetworkGone,
    NetworkManagerDown,
    NoWifiDevice,
    WifiError,
    WifiState,
)
from companion.games.base import RecordError, as_bool, as_str, check_keys
from companion.phrases import say
from companion.table import Conflict, NotFound
from companion.web.context import json_body
from companion.web.owner import owner_only
from companion.web.security import server_port

blueprint = Blueprint("api_wifi", __name__)

WIFI_KEY: Final = "mandala.wifi"
MAX_SSID: Final = 32  # bytes in an 802.11 SSID
MAX_PASSWORD: Final = 63  # a WPA passphrase's most characters
PROBES: Final = frozenset(
    {
        "/generate_204",  # Android
        "/gen_204",
        "/hotspot-detect.html",  # Apple
        "/library/test/success.html",
        "/connecttest.txt",  # Windows
        "/ncsi.txt",
        "/redirect",
        "/canonical.html",  # Firefox
    }
)

#: The Wi-Fi's errors as the panel answers them (``create_app`` adds them).
ERRORS: Final = (
    (NetworkGone, 404, "network_gone"),
    (NetworkManagerDown, 503, "networkmanager_down"),
    (NoWifiDevice, 503, "no_wifi_device"),
    (WifiError, 503, "wifi"),
)


class WifiService(Protocol):
    """The box's Wi-Fi as the panel drives it (``companion.box.wifi_box.WifiBox``)."""

    def state(self) -> WifiState: ...
    def is_access_point(self) -> bool: ...
    def status(self) -> dict[str, Any]: ...
    def scan(self) -> list[Network]: ...
    def forget(self, name: str) -> None: ...
    def join_soon(self, ssid: str, password: str | None) -> dict[str, Any]: ...
    def open_access_point_soon(self, why: str) -> dict[str, Any]: ...
    def stop_access_point_soon(self) -> dict[str, Any]: ...


def wifi_or_none() -> WifiService | None:
    return cast("WifiService | None", current_app.extensions.get(WIFI_KEY))


def wifi() -> WifiService:
    """The box's Wi-Fi, or 404 when this companion does not manage one.

    :raises NotFound: ``this companion does not manage its Wi-Fi ...``.
    """
    found = wifi_or_none()
    if found is None:
        raise NotFound.said(
            say(
                "this companion does not manage its Wi-Fi (it is emulated, or the config says "
                'wifi = "off"); the computer it runs on keeps its own network settings'
            )
        )
    return found


def started(answer: dict[str, Any]) -> Response:
    if not answer["started"]:
        doing = answer["doing"]
        busy = say(
            "the box is busy with its Wi-Fi ({doing}); try again shortly", doing=doing["action"]
        )
        raise Conflict.said(busy)
    response = jsonify(answer)
    response.status_code = 202
    return response


@blueprint.get("/wifi")
def page() -> str:
    from companion.web.pages import page_config

    data = {"managed": wifi_or_none() is not None, "hostname": socket.gethostname()}
    return render_template("wifi.html", data=data, page=page_config())


@blueprint.get("/api/wifi")
@owner_only(say("see the box's Wi-Fi"))
def status() -> Response:
    return jsonify(wifi().status())


@blueprint.get("/api/wifi/networks")
@owner_only(say("scan for Wi-Fi networks"))
def networks() -> Response:
    return jsonify({"networks": [n.to_json() for n in wifi().scan()]})


@blueprint.post("/api/wifi/join")
@owner_only(say("change the box's Wi-Fi"))
def join() -> Response:
    body = json_body()
    check_keys(body, "", ("ssid",), ("ssid", "password"))
    ssid = as_str(body["ssid"], "ssid")
    if not ssid.strip() or len(ssid.encode()) > MAX_SSID:
        raise RecordError.said(
            say("ssid: {ssid} cannot be a Wi-Fi network's name (1-32 bytes)", ssid=repr(ssid[:40]))
        )
    password = body.get("password")
    if password is not None:
        password = as_str(password, "password")
        if not 8 <= len(password) <= MAX_PASSWORD:
            raise RecordError.said(say("password: a Wi-Fi password has 8 to 63 characters"))
    return started(wifi().join_soon(ssid, password))


@blueprint.post("/api/wifi/access-point")
@owner_only(say("change the box's Wi-Fi"))
def access_point() -> Response:
    body = json_body()
    check_keys(body, "", ("open",), ("open",))
    if as_bool(body["open"], "open"):
        return started(wifi().open_access_point_soon("asked on the panel"))
    return started(wifi().stop_access_point_soon())


@blueprint.post("/api/wifi/forget")
@owner_only(say("change the box's Wi-Fi"))
def forget() -> Response:
    body = json_body()
    check_keys(body, "", ("name",), ("name",))
    name = as_str(body["name"], "name")
    wifi().forget(name)
    return jsonify({"forgotten": name})


def answer_probe() -> Response | None:
    """A phone's captive-portal probe while the box is its own access point: to the panel."""
    if request.path not in PROBES:
        return None
    found = wifi_or_none()
    if found is None or not found.is_access_point():
        return None  # the Host check, then 404, as for any path the panel does not have
    port = server_port()
    address = AP_ADDRESS + ("" if port == 80 else f":{port}")
    response = cast(Response, redirect(f"http://{address}/wifi", code=302))
    response.headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask, service: WifiService | None) -> None:
    """Keep the box's Wi-Fi for the views and answer the probes (call before ``security``)."""
    app.extensions[WIFI_KEY] = service
    app.before_request(answer_probe)

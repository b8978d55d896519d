"""companion.box.wifi over the stand-in nmcli: the exact commands, terse output, each failure."""

from __future__ import annotations

import hashlib
import stat
import subprocess
from pathlib import Path

import pytest

from companion.box.wifi import (
    AP_CONNECTION,
    NetworkGone,
    NetworkManagerDown,
    NoWifiDevice,
    Wifi,
    WifiError,
    WrongPassword,
    access_point_password,
    box_id,
    classify,
    split_terse,
)
from tests.box.conftest import MACHINE_ID, StandinNM


def test_terse_fields_undo_nmcli_escapes_of_colons_and_backslashes() -> None:
    assert split_terse(r"*:Cabin\: upstairs:82:WPA1 WPA2") == [
        "*",
        "Cabin: upstairs",
        "82",
        "WPA1 WPA2",
    ]
    assert split_terse(r"a\\b:\\:") == ["a\\b", "\\", ""]


def test_state_names_the_wifi_device_its_connection_and_the_known_wifi_networks(
    wifi: Wifi, nm: StandinNM
) -> None:
    state = wifi.state()
    assert state.to_json() == {
        "running": True,
        "device": "wlan0",
        "connection": "Home",
        "access_point": False,
        "known": ["Home"],
    }
    assert nm.calls() == [
        ["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"],
        ["-t", "-f", "NAME,TYPE,DEVICE", "connection", "show"],
    ]


def test_scan_lists_each_network_once_strongest_first_without_hidden_ones(
    wifi: Wifi, nm: StandinNM
) -> None:
    networks = [n.to_json() for n in wifi.scan()]
    assert networks == [
        {"ssid": "Cabin: upstairs", "signal": 82, "security": "WPA1 WPA2", "in_use": False},
        {"ssid": "Home", "signal": 70, "security": "WPA2", "in_use": True},
        {"ssid": "Cafe", "signal": 30, "security": "open", "in_use": False},
    ]
    assert nm.calls()[-1] == [
        "-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY", "device", "wifi", "list", "ifname", "wlan0",
        "--rescan", "yes",
    ]  # fmt: skip


def test_join_with_a_password_connects_and_the_box_keeps_both_networks(
    wifi: Wifi, nm: StandinNM
) -> None:
    wifi.join("Cabin: upstairs", "cabin-secret")
    assert nm.calls()[-1] == [
        "-t", "-w", "45", "device", "wifi", "connect", "Cabin: upstairs",
        "password", "cabin-secret", "ifname", "wlan0",
    ]  # fmt: skip
    state = wifi.state()
    assert state.connection == "Cabin: upstairs"
    assert state.known == ("Home", "Cabin: upstairs")


def test_join_a_known_network_without_a_password_brings_its_profile_up(
    wifi: Wifi, nm: StandinNM
) -> None:
    nm.set(active=None)
    wifi.join("Home", None)
    assert nm.calls()[-1] == ["-t", "-w", "45", "connection", "up", "id", "Home"]
    assert wifi.state().connection == "Home"


WRONG = (
    "'Cabin: upstairs' did not take that password; check it (capital letters count) and try again"
)


def test_wrong_password_exit_4_with_nmcli_s_secrets_message_is_refused_plainly(
    wifi: Wifi, nm: StandinNM, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(WrongPassword) as caught:
        wifi.join("Cabin: upstairs", "not-it-at-all")
    assert str(caught.value) == WRONG
    assert wifi.state().known == ("Home",)  # nothing kept
    assert (
        "the password was not accepted (Connection activation failed: (7) Secrets were "
        "required, but not provided.)"
    ) in caplog.text  # nmcli's own words go to the log


def test_another_activation_failure_is_a_plain_wifi_error_with_nmcli_s_words() -> None:
    result = subprocess.CompletedProcess(
        ["nmcli"],
        4,
        "",
        "Error: Connection activation failed: (5) IP configuration could not be reserved.\n",
    )
    error = classify(result)
    assert type(error) is WifiError
    assert str(error) == (
        "Connection activation failed: (5) IP configuration could not be reserved."
    )


GONE = "no Wi-Fi network '{}' is in reach; check its name, or bring the box closer to its router"


def test_a_network_gone_is_refused_by_name(wifi: Wifi, nm: StandinNM) -> None:
    with pytest.raises(NetworkGone) as caught:
        wifi.join("Neighbours", "whatever1")
    assert str(caught.value) == GONE.format("Neighbours")


def test_a_known_network_out_of_reach_is_gone_too(wifi: Wifi, nm: StandinNM) -> None:
    nm.set(
        active=None,
        profiles=[{"name": "Office", "ssid": "Office", "type": "802-11-wireless", "psk": "x"}],
    )
    with pytest.raises(NetworkGone) as caught:
        wifi.join("Office", None)
    assert str(caught.value) == GONE.format("Office")


def test_networkmanager_not_running_is_said_plainly(wifi: Wifi, nm: StandinNM) -> None:
    nm.set(running=False)
    assert wifi.state().to_json()["running"] is False
    for action in (wifi.scan, lambda: wifi.join("Home", "home-secret"), wifi.open_access_point):
        with pytest.raises(NetworkManagerDown) as caught:
            action()
        assert str(caught.value) == (
            "NetworkManager is not running, so the box cannot change its Wi-Fi "
            "(sudo systemctl start NetworkManager)"
        )


def test_forget_a_network_the_box_does_not_know_is_refused(wifi: Wifi, nm: StandinNM) -> None:
    with pytest.raises(NetworkGone) as caught:
        wifi.forget("Nowhere")
    assert str(caught.value) == "the box knows no Wi-Fi network 'Nowhere'"
    assert nm.calls()[-1] == ["-t", "connection", "delete", "id", "Nowhere"]


def test_forget_deletes_the_profile(wifi: Wifi, nm: StandinNM) -> None:
    wifi.forget("Home")
    assert wifi.state().known == ()
    with pytest.raises(NetworkGone):
        wifi.forget(AP_CONNECTION)


def test_no_wifi_device_is_said_plainly(wifi: Wifi, nm: StandinNM) -> None:
    nm.set(devices=[{"device": "eth0", "type": "ethernet"}], active=None)
    with pytest.raises(NoWifiDevice) as caught:
        wifi.scan()
    assert str(caught.value) == (
        "this box has no Wi-Fi device NetworkManager manages (nmcli device status)"
    )


def test_access_point_is_wpa2_named_from_the_machine_id_and_up_then_down(
    wifi: Wifi, nm: StandinNM, tmp_path: Path
) -> None:
    point = wifi.open_access_point()
    digest = hashlib.sha256(MACHINE_ID.strip().encode()).hexdigest()
    assert point.ssid == "Mandala-" + digest[:4].upper()
    assert point.password == access_point_password(tmp_path / "data")
    calls = nm.calls()
    assert calls[-3] == ["-t", "connection", "delete", "id", "Mandala-AP"]
    assert calls[-2] == [
        "-t", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "Mandala-AP",
        "autoconnect", "no", "ssid", point.ssid, "mode", "ap", "802-11-wireless.band", "bg",
        "ipv4.method", "shared", "ipv4.addresses", "10.42.0.1/24", "ipv6.method", "disabled",
        "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
        "wifi-sec.group", "ccmp", "wifi-sec.psk", point.password,
    ]  # fmt: skip
    assert calls[-1] == ["-t", "-w", "30", "connection", "up", "id", "Mandala-AP"]
    state = wifi.state()
    assert state.is_access_point and state.known == ("Home",)
    wifi.stop_access_point()
    assert nm.calls()[-1] == ["-t", "connection", "down", "id", "Mandala-AP"]
    assert wifi.state().connection is None
    wifi.stop_access_point()  # already down: nothing to do, no error


def test_opening_the_access_point_again_replaces_its_profile(wifi: Wifi, nm: StandinNM) -> None:
    wifi.open_access_point()
    wifi.open_access_point()
    assert [p["name"] for p in nm.state["profiles"]].count("Mandala-AP") == 1


def test_the_password_is_made_once_kept_private_and_the_same_after(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = access_point_password(data)
    assert len(first) == 12 and first.isalnum()
    assert access_point_password(data) == first
    mode = (data / "access-point.key").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600


def test_box_id_is_four_hex_digits_of_the_machine_id_and_0000_without_one(
    tmp_path: Path, machine_id: Path
) -> None:
    found = box_id(machine_id)
    assert len(found) == 4 and all(c in "0123456789ABCDEF" for c in found)
    assert box_id(machine_id) == found
    assert box_id(tmp_path / "none") == "0000"


def test_nmcli_missing_is_networkmanager_down(
    tmp_path: Path, machine_id: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    wifi = Wifi(tmp_path / "data", machine_id=machine_id)
    assert wifi.state().running is False
    with pytest.raises(NetworkManagerDown) as caught:
        wifi.scan()
    assert "NetworkManager is not running" in str(caught.value)


def test_any_other_nmcli_failure_carries_its_message(wifi: Wifi, nm: StandinNM) -> None:
    with pytest.raises(WifiError) as caught:
        wifi.nmcli.run(["radio", "nonsense"])
    assert type(caught.value) is WifiError
    assert str(caught.value) == (
        "argument 'radio nonsense' not understood. Try passing --help instead."
    )


def test_mandala_pair_prints_the_boxs_own_wifi_and_its_password(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    data = tmp_path / "data"
    printed = run_cli(["pair", "--data", str(data)])
    assert printed.status == 0
    point = Wifi(data).access_point()
    assert printed.stdout.splitlines()[0] == (
        "mandala: the box's own Wi-Fi (opened when it finds no known network, or when the done "
        f"button is held for 3 s): {point.ssid}, password {point.password}; then open "
        "http://10.42.0.1/"
    )
    assert (
        run_cli(["pair", "--data", str(data)])
        .stdout.splitlines()[0]
        .endswith(f"password {point.password}; then open http://10.42.0.1/")
    )  # the same password every time

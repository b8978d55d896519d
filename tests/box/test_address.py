"""The addresses a phone is sent to: the box's own on the network, never a loopback one."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import pytest

from companion.box.address import (
    OPEN_TO_PHONES,
    OPEN_TO_PHONES_CONFIG,
    Reach,
    interface_addresses,
    local_name,
    network_addresses,
    url_of,
)

README = Path(__file__).resolve().parents[2] / "README.md"


def is_own(address: str) -> bool:
    """Whether a socket can be bound to ``address`` here (the kernel says it is this machine's)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def test_port_80_is_left_out_of_an_address_and_every_other_port_is_in_it() -> None:
    assert url_of("192.168.1.20", 80) == "http://192.168.1.20/"
    assert url_of("192.168.1.20", 8000) == "http://192.168.1.20:8000/"
    assert url_of("mandala.local", 443) == "http://mandala.local:443/"
    assert url_of("fe80::1", 8080) == "http://[fe80::1]:8080/"


def test_the_network_addresses_are_this_machines_own_and_never_loopback() -> None:
    found = network_addresses()
    assert found, "this machine has an address on a network"
    for address in found:
        assert not ipaddress.ip_address(address).is_loopback, found
        assert is_own(address), address
    # The interfaces do include the loopback one: it is left out, not missed.
    assert "127.0.0.1" in interface_addresses()


def test_listening_on_every_interface_sends_phones_to_the_network_address() -> None:
    join = Reach("0.0.0.0", 8000).join()
    assert join.reachable
    assert join.url is not None
    assert join.url == f"http://{network_addresses()[0]}:8000/"
    assert all("127.0.0.1" not in url and "localhost" not in url for url in join.addresses)
    host = socket.gethostname().split(".")[0].lower()
    assert join.name == f"http://{host}.local:8000/"
    assert join.words.english() == (
        f"Scan the code, or open {join.url} (or {join.name}) on a phone on the same network."
    )
    body = join.to_json()
    assert body["start"] is None and body["config"] is None
    assert body["listening"] == {"host": "0.0.0.0", "port": 8000, "local_only": False}


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.1.1"])
def test_listening_on_loopback_only_says_phones_cannot_join_and_how_to_start_it(
    host: str,
) -> None:
    join = Reach(host, 8000, addresses=lambda: ["192.168.1.20"]).join()
    assert not join.reachable
    assert join.url is None and join.addresses == () and join.name is None
    assert join.words.english() == (
        f"Phones cannot join: the panel listens on this computer only ({host}). Start it with "
        './run.sh --host 0.0.0.0 (or put host = "0.0.0.0" in its config file) so phones '
        "on the same network can open it."
    )
    body = join.to_json()
    assert body["start"] == OPEN_TO_PHONES and body["config"] == OPEN_TO_PHONES_CONFIG
    assert body["listening"] == {"host": host, "port": 8000, "local_only": True}


def test_the_command_and_config_line_that_let_phones_in_are_the_readmes_own() -> None:
    readme = README.read_text()
    assert f"`{OPEN_TO_PHONES}`" in readme
    assert f"`{OPEN_TO_PHONES_CONFIG}`" in readme


def test_a_box_on_no_network_says_so_and_offers_no_address() -> None:
    join = Reach("0.0.0.0", 80, addresses=lambda: [], hostname=lambda: "mandala").join()
    assert not join.reachable
    assert join.name == "http://mandala.local/"
    assert join.words.english() == (
        "Phones cannot join yet: the box is on no network. Join it to your Wi-Fi (the Box "
        "page) or let it open its own."
    )
    assert join.to_json()["start"] is None  # not a matter of how it was started


def test_a_server_on_one_address_sends_phones_there() -> None:
    join = Reach("192.168.1.20", 80, hostname=lambda: "mandala.lan").join()
    assert join.url == "http://192.168.1.20/"
    assert join.name == "http://mandala.local/"


def test_the_local_name_is_the_short_hostname_with_local() -> None:
    assert local_name("Mandala-Box.home.arpa") == "mandala-box.local"
    assert local_name("localhost") is None
    assert local_name("") is None


def test_the_port_the_server_was_bound_to_is_the_one_given() -> None:
    reach = Reach("0.0.0.0", 0, addresses=lambda: ["10.42.0.1"])
    reach.bound(43210)
    assert reach.join().url == "http://10.42.0.1:43210/"

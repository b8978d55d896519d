"""The addresses a phone on the box's network can open the panel at (issue 25's join codes).

:class:`Reach` knows what the server listens on (``mandala serve --host``/``--port``, the
config's ``host``/``port``) and answers :meth:`Reach.join`: the box's ``.local`` name (the
hostname with ``.local``, as avahi-daemon announces it on Raspberry Pi OS), its addresses on
the network, and the one a QR code carries. Never a loopback address: when the server listens
on 127.0.0.1 only, no phone can reach it, and the answer says so and how to start it so they
can (:data:`OPEN_TO_PHONES`).

The address a phone is sent to is the box's IPv4 address, not its ``.local`` name: many
Android phones do not resolve ``.local`` names, every phone opens an address. The name is
shown beside it, for the phones and laptops that do.

Standard library only: the process wiring makes one :class:`Reach` and tells it the port the
server was bound to (:meth:`Reach.bound`); the panel asks it per request (the box's address
may change with DHCP or when it opens its own Wi-Fi).
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.phrases import Phrase, say

WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
OPEN_TO_PHONES = "./run.sh --host 0.0.0.0"
"""How to start the companion so phones can join (README "What ./run.sh does")."""
OPEN_TO_PHONES_CONFIG = 'host = "0.0.0.0"'
"""The config file's line that does the same (``mandala serve --config FILE``)."""
ROUTE_PROBES = ("203.0.113.1", "10.254.254.254", "192.168.254.254", "172.31.254.254")
"""Addresses a UDP socket is "connected" to, to learn the source address the kernel would pick
towards them (no packet is sent): the first (a documentation address, never on a LAN) takes
the default route, the private ones the routes of the box's own networks."""
SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address


def url_of(host: str, port: int) -> str:
    """The panel's address at ``host``: ``http://host/`` on port 80, else with the port."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}/" if port == 80 else f"http://{shown}:{port}/"


def is_usable(address: str) -> bool:
    """Say whether a phone could be sent to ``address``: not loopback, link-local, unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def routed_addresses() -> list[str]:
    """The source addresses the kernel picks towards the network (UDP connect; nothing sent)."""
    found = []
    for target in ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                found.append(str(probe.getsockname()[0]))
        except OSError:  # no route to that network
            continue
    return found


def interface_addresses() -> list[str]:
    """Every network interface's IPv4 address (the box's own Wi-Fi has no default route)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on it
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def network_addresses() -> list[str]:
    """The box's usable IPv4 addresses, the default route's first, without duplicates."""
    found = [*routed_addresses(), *interface_addresses()]
    return [address for address in dict.fromkeys(found) if is_usable(address)]


def local_name(hostname: str | None = None) -> str | None:
    """The name avahi announces for this box (``<hostname>.local``), or None without one."""
    name = (socket.gethostname() if hostname is None else hostname).rstrip(".").lower()
    short = name.split(".")[0]
    if not short or name in LOOPBACK_NAMES:
        return None
    return f"{short}.local"


def is_local_only(host: str) -> bool:
    """Say whether listening on ``host`` keeps every other machine out (loopback only)."""
    name = host.strip("[]").rstrip(".").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Join:
    """How a phone joins: the QR's address, the others, the words; ``url`` None when none can.

    ``addresses`` are the panel's addresses on the network (``url`` first), ``name`` its
    ``.local`` address, ``words`` the line shown beside the code (or why phones cannot join),
    ``local_only`` whether that is because the server listens on a loopback address only.
    """

    url: str | None
    addresses: tuple[str, ...]
    name: str | None
    words: Phrase
    host: str
    port: int
    local_only: bool = False

    @property
    def reachable(self) -> bool:
        """Whether a phone on the network can open the panel."""
        return self.url is not None

    def to_json(self) -> dict[str, object]:
        """The answer of ``GET /api/join`` (without the QR's route, which the panel adds)."""
        return {
            "reachable": self.reachable,
            "url": self.url,
            "addresses": list(self.addresses),
            "name": self.name,
            "words": self.words.to_json(),
            "text": self.words.english(),
            "listening": {"host": self.host, "port": self.port, "local_only": self.local_only},
            "start": OPEN_TO_PHONES if self.local_only else None,
            "config": OPEN_TO_PHONES_CONFIG if self.local_only else None,
        }


class Reach:
    """What the server listens on, and the addresses a phone can open it at."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        addresses: Callable[[], Sequence[str]] = network_addresses,
        hostname: Callable[[], str] = socket.gethostname,
    ) -> None:
        self.host = host
        self.port = port
        self._addresses = addresses
        self._hostname = hostname

    def bound(self, port: int) -> None:
        """Take the port the server was bound to (``--port 0`` picks one at start)."""
        self.port = port

    def join(self) -> Join:
        """The panel's addresses for phones now (the box's addresses are read each time)."""
        if is_local_only(self.host):
            words = say(
                "Phones cannot join: the panel listens on this computer only ({host}). "
                "Start it with {command} (or put {line} in its config file) so phones on "
                "the same network can open it.",
                host=self.host,
                command=OPEN_TO_PHONES,
                line=OPEN_TO_PHONES_CONFIG,
            )
            return Join(None, (), None, words, self.host, self.port, local_only=True)
        if self.host.strip("[]") in WILDCARD_HOSTS:
            hosts = list(self._addresses())
        else:
            hosts = [self.host] if is_usable(self.host.strip("[]")) else []
        addresses = tuple(url_of(host.strip("[]"), self.port) for host in hosts)
        name_host = local_name(self._hostname())
        name = url_of(name_host, self.port) if name_host else None
        if not addresses:
            words = say(
                "Phones cannot join yet: the box is on no network. Join it to your Wi-Fi "
                "(the Box page) or let it open its own."
            )
            return Join(None, (), name, words, self.host, self.port)
        if name is None:
            words = say(
                "Scan the code, or open {url} on a phone on the same network.", url=addresses[0]
            )
        else:
            words = say(
                "Scan the code, or open {url} (or {name}) on a phone on the same network.",
                url=addresses[0],
                name=name,
            )
        return Join(addresses[0], addresses, name, words, self.host, self.port)

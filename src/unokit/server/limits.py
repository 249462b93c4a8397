"""The per-address limits on the web server's requests and on guesses of room codes and tokens
(:class:`Limits`), and what a request says of its sender (:func:`address`, :func:`address_key`,
:func:`bearer`)."""

from __future__ import annotations

import ipaddress
import time
from typing import Any

from starlette.requests import HTTPConnection

from .protocol import ProtocolError
from .rooms import Rooms
from .security import AddressLimits, client_address, normalize_code


def address(request: HTTPConnection) -> str:
    """The address a request (or a WebSocket) comes from (:func:`~.security.client_address`)."""
    return client_address(request.scope)


def address_key(request: HTTPConnection) -> str:
    """The key under which a client's rooms, connections and chat are counted: its address
    (:func:`address`), an IPv6 one by its /64 network (:func:`key_of`)."""
    return key_of(address(request))


def key_of(host: str) -> str:
    """The key of the address ``host``: an IPv4 address itself, an IPv6 address its /64 network
    (one home or one machine holds a whole /64), an IPv4-mapped IPv6 address its IPv4 one.

    >>> key_of("203.0.113.7"), key_of("2001:db8:1:2:aaaa::1"), key_of("::ffff:10.0.0.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def bearer(request: HTTPConnection) -> str | None:
    """The token of the request's ``Authorization: Bearer TOKEN`` header, or ``None``."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Limits:
    """The per-address limits of ``--rate-limit`` (``ServerOptions.rate_limit`` in ten
    seconds; 0: none): on joins (``POST .../join``) and on guesses (a room code that is no
    room's, a token that is no seat's: past the limit, every lookup and ``hello`` from the
    address is refused for a while), so that codes and tokens cannot be enumerated. A request
    that carries a seat's token of the room (a ``hello`` that finds its seat, the host's
    ``POST .../start``) is never refused for the address's guesses, nor counted."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.joins = AddressLimits(rooms.options.rate_limit, 10.0)
        self.unknowns = AddressLimits(rooms.options.rate_limit, 10.0)

    def check(self, address: str, code: str | None = None, token: str | None = None) -> None:
        """Refuse every lookup of an address past its limit of guesses, but one with the token
        of a seat of the room ``code``."""
        if not self.unknowns.blocked(address, time.monotonic()):
            return
        if code is not None and token is not None:
            room = self.rooms.find(normalize_code(code)[:32])
            if room is not None and room.seat_of(token) is not None:
                return
        raise ProtocolError("rate_limited", "too many unknown room codes or tokens: wait a moment")

    def unknown(self, address: str) -> None:
        """Count a guess of ``address``: an unknown code, a wrong token."""
        self.unknowns.allow(address, time.monotonic())

    def join(self, address: str) -> None:
        """Count a join (or a hello) of ``address``; refuse it past the limit."""
        if not self.joins.allow(address, time.monotonic()):
            raise ProtocolError("rate_limited", "too many joins from this address: wait a moment")

    def room(self, address: str, code: str, token: str | None = None) -> Any:
        """The room ``code`` (see :meth:`Rooms.get`), counting an unknown code (``token``: the
        seat's token the request carries, see :meth:`check`)."""
        self.check(address, code, token)
        try:
            return self.rooms.get(code)
        except ProtocolError as exc:
            if exc.status == 404:
                self.unknown(address)
            raise


__all__ = ["Limits", "address", "address_key", "bearer", "key_of"]

"""Limits per client address, not only per message: connections held at once, tables created per time window and
live at once, tables without a human seat (bot-only) live at once. Each refusal is a :class:`WireError` with
its code (``connections``, ``too_many_tables``), which the app answers as an HTTP status or a WebSocket error.

The counts live in memory: a restarted server starts them afresh (the tables it restores are nobody's). An
address is what the server sees: behind a reverse proxy every client shares the proxy's, so raise the limits
there (``hupai serve --max-connections ...``) or let the proxy limit per client.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection

from .wire import WireError

__all__ = ["AddressLimits", "Bucket", "SocketGuard", "address", "error_reply", "guarded_protocol"]

MAX_ADDRESSES = 10_000  # addresses remembered at once; past it the idle ones are forgotten


class Bucket:
    """A token bucket: ``take()`` is False once the rate is exceeded beyond the burst."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, time.monotonic()

    def refund(self) -> None:
        """Give back the token of an accepted action: the game itself bounds how fast those can come (each
        answers a new decision), so only refused messages, polls and pings use up the budget."""
        self.tokens = min(self.burst, self.tokens + 1)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error_reply(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def address(connection: HTTPConnection) -> str:
    """The client address of a request or a WebSocket."""
    return connection.client.host if connection.client else "?"


class AddressLimits:
    """The counters of one server process. ``live(table_id)`` says whether a table still counts (neither over
    nor expired)."""

    def __init__(self, settings: Any, live: Callable[[str], bool]) -> None:
        self.settings = settings
        self._live = live
        self.connections: dict[str, int] = {}
        self.created: dict[str, deque[float]] = {}
        self.tables: dict[str, set[str]] = {}
        self.bot_tables: dict[str, set[str]] = {}

    # -- connections ---------------------------------------------------------------------------------------
    def connect(self, address: str) -> None:
        """One more WebSocket (or waiting poll) from ``address``; refused past ``max_connections``."""
        held = self.connections.get(address, 0)
        if held >= self.settings.max_connections:
            raise WireError("connections", f"at most {self.settings.max_connections} connections per client "
                                           "address at once: close one first")
        self.connections[address] = held + 1

    def disconnect(self, address: str) -> None:
        held = self.connections.get(address, 0) - 1
        if held > 0:
            self.connections[address] = held
        else:
            self.connections.pop(address, None)

    # -- tables ----------------------------------------------------------------------------------------------
    def _count(self, book: dict[str, set[str]], address: str) -> int:
        ids = book.get(address)
        if ids is None:
            return 0
        ids.intersection_update({table_id for table_id in ids if self._live(table_id)})
        if not ids:
            del book[address]
        return len(ids)

    def check_create(self, address: str, bot_only: bool, now: float | None = None) -> None:
        """Whether ``address`` may create one more table (raises the refusal)."""
        settings = self.settings
        now = time.monotonic() if now is None else now
        window = self.created.get(address)
        while window and window[0] <= now - settings.table_window:
            window.popleft()
        if window is not None and not window:
            del self.created[address]
        elif window is not None and len(window) >= settings.tables_per_window:
            raise WireError("too_many_tables", f"at most {settings.tables_per_window} tables per "
                                               f"{settings.table_window:g} s from one address: wait a little")
        if self._count(self.tables, address) >= settings.max_live_tables:
            raise WireError("too_many_tables", f"at most {settings.max_live_tables} live tables per address: "
                                               "finish or leave one first")
        if bot_only and self._count(self.bot_tables, address) >= settings.max_bot_tables:
            raise WireError("too_many_tables", f"at most {settings.max_bot_tables} live tables without a human "
                                               "seat per address")

    def created_table(self, address: str, table_id: str, bot_only: bool, now: float | None = None) -> None:
        if len(self.created) > MAX_ADDRESSES:
            self._forget()
        self.created.setdefault(address, deque()).append(time.monotonic() if now is None else now)
        self.tables.setdefault(address, set()).add(table_id)
        if bot_only:
            self.bot_tables.setdefault(address, set()).add(table_id)

    def _forget(self) -> None:
        """Past MAX_ADDRESSES: drop the windows of addresses without a live table (their windows only let them
        create more, so forgetting errs towards the client, never towards a refusal)."""
        for address in [a for a in self.created if not self._count(self.tables, a)]:
            del self.created[address]


class SocketGuard:
    """Raw TCP connections per client address, below HTTP: what uvicorn does not bound.

    - At most ``max_sockets`` connections of one address are open at once; one more is closed as it arrives
      (before it costs more than its accept), so one address cannot use up the process's file descriptors.
    - A connection must have a request's headers complete (the app called) within ``header_seconds`` of
      connecting, and again of each response it was sent: a client that opens sockets and never finishes its
      headers (slowloris) is cut, whatever it trickles. A request under way (a long poll, a WebSocket) is the
      app's to time.

    The HTTP protocol tells :meth:`opened` of each new transport (:func:`guarded_protocol`); the ASGI wrapper
    (:meth:`app`) tells when a connection's request starts and its response ends. Connections are keyed by the
    client's ``(host, port)``, which uvicorn gives the app as ``scope["client"]``.
    """

    def __init__(self, max_sockets: int, header_seconds: float) -> None:
        self.max_sockets = max_sockets
        self.header_seconds = header_seconds
        self.sockets: dict[str, set[Any]] = {}             # address -> its open transports
        self.transports: dict[tuple[str, int], Any] = {}   # (address, port) -> transport
        self.waiting: dict[tuple[str, int], float] = {}    # connections with no request under way -> deadline
        self.trusted: set[str] = set()                     # other processes of the cluster: never capped
        self.refused = 0                                   # connections closed at once (over the cap)
        self.cut = 0                                       # connections closed for slow headers
        self._sweeper: Any = None

    def opened(self, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        if not isinstance(peer, tuple) or len(peer) < 2:  # a Unix socket: no address to count
            return
        host, port = str(peer[0]), int(peer[1])
        held = self.sockets.setdefault(host, set())
        if len(held) >= self.max_sockets:
            held.difference_update([t for t in held if t.is_closing()])
        if len(held) >= self.max_sockets and host not in self.trusted:
            self.refused += 1
            transport.abort()
            return
        held.add(transport)
        self.transports[(host, port)] = transport
        self.waiting[(host, port)] = time.monotonic() + self.header_seconds
        if self._sweeper is None:
            import asyncio

            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(), name="hupai-sockets")

    def trust(self, address: str) -> None:
        """``address`` is another process of the cluster (it sent the cluster's secret): it relays many clients'
        connections, so its own are not capped."""
        if len(self.trusted) < 1_000:
            self.trusted.add(address)

    def sweep(self, now: float | None = None) -> None:
        """Cut the connections past their header deadline; forget the closed ones."""
        now = time.monotonic() if now is None else now
        for key, transport in list(self.transports.items()):
            if transport.is_closing():
                self._forget(key, transport)
            elif self.waiting.get(key, now + 1) <= now:
                self.cut += 1
                transport.abort()
                self._forget(key, transport)

    def _forget(self, key: tuple[str, int], transport: Any) -> None:
        self.transports.pop(key, None)
        self.waiting.pop(key, None)
        held = self.sockets.get(key[0])
        if held is not None:
            held.discard(transport)
            if not held:
                del self.sockets[key[0]]

    async def _sweep_forever(self) -> None:
        import asyncio

        while True:
            await asyncio.sleep(min(1.0, self.header_seconds / 4))
            self.sweep()

    def app(self, inner: Any) -> Any:
        """``inner`` (an ASGI app) with the guard told of each request's start and each response's end."""
        async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
            client = scope.get("client")
            key = (str(client[0]), int(client[1])) if scope["type"] != "lifespan" and client else None
            if key is None or key not in self.transports:
                await inner(scope, receive, send)
                return
            self.waiting.pop(key, None)

            async def send_and_rearm(message: dict[str, Any]) -> None:
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body", False) \
                        and key in self.transports:
                    self.waiting[key] = time.monotonic() + self.header_seconds

            await inner(scope, receive, send_and_rearm if scope["type"] == "http" else send)
        return guarded


def guarded_protocol(base: type[Any], guard: SocketGuard) -> type[Any]:
    """uvicorn's HTTP protocol class ``base`` telling ``guard`` of every connection it is given."""
    class Guarded(base):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            guard.opened(transport)

    Guarded.__name__ = f"Guarded{base.__name__}"
    return Guarded

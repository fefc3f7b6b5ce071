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

__all__ = ["AddressLimits", "Bucket", "address", "error_reply"]

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

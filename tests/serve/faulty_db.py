"""A storage wrapper that injects faults: a :class:`hupai.serve.storage.Database` around a real one whose writes
fail on demand, the ways a real database fails:

- ``fail_writes``: the numbers of the writes that fail (counted from 1 since the wrapper was made, each
  ``run`` call one write), with an error like a dropped connection: nothing of it is stored;
- ``read_only = True``: every write is refused like a read-only database's, until set back;
- ``hang_writes``: writes that hang ``hang_seconds``, then time out: nothing stored;
- ``lost_acks``: writes that are stored but whose answer is lost (the caller gets a time-out): the worst
  case, where the server must not assume the write did not happen.

Reads always pass through. ``stored`` and ``refused`` count the writes that went through or did not.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from typing import Any

from hupai.serve.storage import Database, Statement


class ReadOnlyError(sqlite3.OperationalError):
    """What a read-only database answers a write (sqlite3 says "attempt to write a readonly database")."""


class FaultyDatabase:
    def __init__(self, inner: Database) -> None:
        self.inner = inner
        self.writes = 0
        self.fail_writes: set[int] = set()
        self.hang_writes: set[int] = set()
        self.lost_acks: set[int] = set()
        #: The next write touching this table (SQL text) is stored but its answer lost (None: none).
        self.lose_ack_of: str | None = None
        self.hang_seconds = 0.2
        self.read_only = False
        self.stored = 0
        self.refused = 0

    def fail_every(self, period: int, start: int, count: int) -> None:
        """Fail every ``period``-th write of the next ``count`` writes after write ``start``."""
        self.fail_writes |= {start + k for k in range(period, count + 1, period)}

    async def create_schema(self, statements: Sequence[str]) -> None:
        await self.inner.create_schema(statements)

    async def run(self, statements: Sequence[Statement]) -> None:
        self.writes += 1
        number = self.writes
        if self.read_only:
            self.refused += 1
            raise ReadOnlyError("attempt to write a readonly database (injected)")
        if number in self.fail_writes:
            self.refused += 1
            raise ConnectionError(f"write {number}: the connection was lost (injected)")
        if number in self.hang_writes:
            self.refused += 1
            await asyncio.sleep(self.hang_seconds)
            raise TimeoutError(f"write {number}: timed out (injected)")
        await self.inner.run(statements)
        self.stored += 1
        if self.lose_ack_of is not None and any(self.lose_ack_of in sql for sql, _, _ in statements):
            self.lose_ack_of = None
            raise TimeoutError(f"write {number}: stored, but its answer was lost (injected)")
        if number in self.lost_acks:
            raise TimeoutError(f"write {number}: stored, but its answer was lost (injected)")

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await self.inner.fetch(sql, params)

    async def close(self) -> None:
        await self.inner.close()

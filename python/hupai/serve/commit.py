"""Changing a table: every change stored before it is acknowledged or shown, and put back when the write fails.

Each function here runs with the table's lock held. An action is applied by the engine (which refuses anything
illegal and changes nothing), then written (the action row, the table's runtime facts, and every
``snapshot_every`` actions and at the end of a hand the snapshot with the match) in one transaction; only then
is the table's version bumped and the new state published.

Faults:

- **A failed write** (an error, a time-out, a read-only database): the table is put back to exactly what the
  storage holds (:func:`revert`: its last snapshot and the actions after it), and a new state is published all
  the same, so that every seat and the driver look again. Each seat's pending decision keeps its number.
- **A lost answer** (the write committed but its answer never came, so the next write meets a version the
  table did not expect, :class:`~.storage.StorageConflict`): the table re-reads itself from the storage
  (:func:`resync`).
- **Retrying.** The driver retries a failed job after a back-off (:class:`Backoff`) and logs one line per
  outage, not a line per try.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
from typing import Any, Protocol

from ..actions import Action
from ..errors import IllegalAction
from ..game import Game, Match
from ..observation import Observation
from ..rules.base import Rules
from . import wire
from .config import TableConfig
from .seats import SeatClock
from .storage import Storage, StorageConflict, StoredTable, is_storage_fault
from .wire import WireError

__all__ = ["Table", "Backoff", "commit", "deal", "revert", "resync", "store_runtime", "store_state"]

log = logging.getLogger("hupai.serve")

RETRY_FIRST = 0.25  # seconds: the driver's first retry after a failed job, doubling ...
RETRY_MAX = 8.0     # ... up to this

State = tuple[dict[str, Any], dict[str, Any]]  # (the match, the game's snapshot) as stored


class Table(Protocol):
    """What changing a table (here) and driving it (:mod:`.driver`) use of it: the served table,
    :class:`hupai.serve.tables.Table`, which calls both."""

    id: str
    config: TableConfig
    rules: Rules
    storage: Storage
    match: Match
    game: Game
    version: int  # of the stored row
    hand: int
    seq: int
    status: str
    decisions: dict[int, int]  # seat -> the number of its pending decision
    ready: set[int]
    opened_at: dict[int, float]
    ended_at: float
    clock: SeatClock
    token_hashes: dict[int, str]
    absent_seconds: float
    bots: dict[int, Any]
    stand_ins: dict[int, Any]
    lock: asyncio.Lock
    _stored: State  # what the storage holds: the last snapshot (with the match) ...
    _tail: list[Action]  # ... and the actions appended after it

    @classmethod
    async def restore(cls, stored: StoredTable, storage: Storage) -> Any: ...
    def human_seats(self) -> list[int]: ...
    def observation(self, seat: int) -> Observation: ...
    def search_budget_ms(self, seat: int, now: float | None = None) -> float: ...
    def _runtime(self) -> dict[str, Any]: ...
    def _open_decisions(self, before: set[int], actor: int | None) -> None: ...
    def _publish(self, coalesce: bool = False) -> None: ...
    def _due(self, seat: int) -> float | None: ...
    def _all_ready(self) -> bool: ...


async def commit(table: Table, seat: int, action: Any) -> int:
    """Apply ``action`` (the seat's, checked by the caller) and store it; returns its seq (the ack). An illegal
    action raises WireError and changes nothing; a failed write puts the table back and raises."""
    before = set(table.game.seats_to_act)
    try:
        table.game.apply(action)  # an illegal action raises here and changes nothing
    except IllegalAction as error:
        raise WireError("illegal", str(error)) from None
    saved = _saved(table)
    seq = table.seq
    finished_log = result = None
    state: State | None = None
    try:
        table.seq += 1
        if table.game.over:
            saved = (*saved, copy.deepcopy(table.match))  # once a hand: what record() changes, to put back
            table.match.record(table.game)
            over = table.match.over or table.match.hand_index >= table.config.hands
            table.status = "match_over" if over else "hand_over"
            table.ready = set()
            table.ended_at = time.monotonic()
            finished_log = table.game.to_json()
            assert table.game.result is not None
            result = table.game.result.to_dict()
        table._open_decisions(before, seat)
        if table.game.over or len(table._tail) + 1 >= table.storage.snapshot_every:
            state = (table.match.to_dict(), table.game.snapshot())
        await table.storage.record_action(table.id, table.version, table.hand, seq, seat,
                                          wire.action_to_wire(action, table.rules), table._runtime(), state,
                                          finished_log, result)
    except BaseException as error:
        revert(table, saved)
        if isinstance(error, StorageConflict):
            await resync(table)
        raise
    if state is None:
        table._tail.append(action)
    else:
        table._stored, table._tail = state, []
    table.version += 1
    table._publish(coalesce=True)
    return seq


async def store_state(table: Table, state: State | None = None) -> None:
    """Store the table's runtime facts (and ``state``, a new snapshot with the match, if given). The caller puts
    back what it changed if this raises."""
    await table.storage.update_state(table.id, table.version, table._runtime(), state)
    if state is not None:
        table._stored, table._tail = state, []
    table.version += 1
    table._publish()


async def store_runtime(table: Table) -> None:
    """Store a change of the runtime facts alone (a seat back from auto, or put on it)."""
    await store_state(table)


async def deal(table: Table) -> None:
    """Deal the match's next hand and store it; as it was if the write fails."""
    game = table.match.new_game()
    old = (table.game, table.hand, table.seq, table.status, table.ready, table.decisions, table.clock.bank,
           table._stored, table._tail)
    table.game, table.hand, table.seq, table.status, table.ready = game, table.match.hand_index, 0, "playing", set()
    table.clock.refill()
    table._open_decisions(set(), None)
    try:
        await store_state(table, (table._stored[0], game.snapshot()))
    except BaseException as error:
        (table.game, table.hand, table.seq, table.status, table.ready, table.decisions, table.clock.bank,
         table._stored, table._tail) = old
        if isinstance(error, StorageConflict):
            await resync(table)
        raise


def _saved(table: Table) -> tuple[Any, ...]:
    """The table's own facts (not the game's), to put back if a write fails."""
    return (table.hand, table.seq, table.status, set(table.ready), dict(table.decisions), dict(table.opened_at),
            table.ended_at)


def revert(table: Table, saved: tuple[Any, ...]) -> None:
    """Put the table back as the storage holds it (a write failed: nothing after it happened). Each seat's
    pending decision keeps its number, so a seat that saw it can answer it again; a new state is
    published all the same (the listeners and the driver look again)."""
    (table.hand, table.seq, table.status, table.ready, table.decisions, table.opened_at, table.ended_at) = saved[:7]
    if len(saved) > 7:  # the hand had ended: the match recorded it
        table.match = saved[7]
    # As stored: JSON's lists (the snapshot in memory may hold tuples, which the check refuses).
    game = Game.from_snapshot(json.loads(json.dumps(table._stored[1])))
    for action in table._tail:
        game.apply(action)
    table.game = game
    table._publish()


async def resync(table: Table) -> None:
    """The stored table is not what this process last wrote (a write whose answer was lost did commit, say):
    take the stored one. If it cannot be read now, the next write finds the conflict again."""
    try:
        (stored,) = await table.storage.load_tables(table.id)
        fresh = await type(table).restore(stored, table.storage)
    except Exception as error:  # the storage is still away: stay as reverted
        log.warning("table %s: could not reread the stored table: %s: %s", table.id, type(error).__name__,
                    str(error)[:200])
        return
    for name in ("match", "game", "version", "hand", "seq", "status", "decisions", "ready", "opened_at",
                 "_stored", "_tail"):
        setattr(table, name, getattr(fresh, name))
    log.warning("table %s: the stored table had moved on (version %d): taken as stored", table.id, table.version)
    table._publish()


class Backoff:
    """The driver's consecutive failed jobs (a storage outage): the delay before its next try doubles from
    ``RETRY_FIRST`` up to ``RETRY_MAX`` seconds; one line in the log per outage (a traceback only for what is
    not a storage error, once), a reminder now and then, and one when it is over."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.failures = 0

    def failed(self, job: str, error: Exception) -> float:
        """A job failed (the table was put back as stored); returns the delay before the next try."""
        self.failures += 1
        delay: float = min(RETRY_MAX, RETRY_FIRST * 2 ** (self.failures - 1))
        if self.failures == 1:
            log.warning("table %s: %s failed, retrying with back-off: %s: %s", self.table_id, job,
                        type(error).__name__, str(error)[:200], exc_info=not is_storage_fault(error))
        elif self.failures in (5, 20) or self.failures % 100 == 0:
            log.warning("table %s: %s still failing (%d tries): %s: %s", self.table_id, job, self.failures,
                        type(error).__name__, str(error)[:200])
        return delay

    def succeeded(self) -> None:
        if self.failures:
            log.warning("table %s: recovered after %d failed tries", self.table_id, self.failures)
            self.failures = 0

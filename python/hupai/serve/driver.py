"""A table's driver: the task that does, unasked, what the table's seats do not: a bot's (or an auto seat's) move
after its think time, a human seat's timer that runs out, a seat found away, the next hand once every seat is
ready (see :mod:`.seats` for the timers and absence).

One driver per :class:`~.tables.Table`, on the event loop. It sleeps until its next job is due or the table
changes (every stored change wakes it, see ``Table._publish``), then runs the job under the table's lock. A job
that fails (a storage outage: the table was put back as stored, see :mod:`.commit`) is retried after a back-off
(:class:`~.commit.Backoff`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ..search import SearchBot
from .commit import Backoff, Table, commit, deal, store_runtime

__all__ = ["Driver"]

log = logging.getLogger("hupai.serve")

Job = tuple[Any, ...]


class Driver:
    """The driver of one table: ``start()`` it once the table is the host's, ``await stop()`` to end it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.wake = asyncio.Event()  # set on every change: the driver looks again
        self.backoff = Backoff(table.id)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.table.id}")

    async def stop(self) -> None:
        if self._task is not None:
            # Told twice: before 3.12, wait_for swallows a cancellation that meets its wake-up (bpo-42130).
            self._stopping = True
            self.wake.set()
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    # -- what to do next ---------------------------------------------------------------------------------------
    def moves_at_once(self) -> bool:
        """Whether the driver is running and its next job is a bot seat's move due now (no think time): the
        table changes again at once (or, if that move fails, publishes as it was put back). Never while a human
        seat is on auto (every change is shown then, so that its player sees the table go on and comes back),
        nor while the driver's jobs fail (a storage outage: the next move is not coming at once)."""
        if self._task is None or self._stopping or self.table.clock.auto or self.backoff.failures:
            return False
        job, due = self.next_job()
        return job is not None and job[0] == "bot" and job[1] in self.table.bots and due <= time.monotonic()

    def next_job(self) -> tuple[Job | None, float]:
        """The next thing the driver must do unasked, and when: a bot's (or an auto seat's) move, a timer that
        runs out, a seat found away, the next hand."""
        table = self.table
        think = table.config.think_ms / 1000
        jobs: list[tuple[float, Job]] = []
        if table.status == "hand_over":
            if table._all_ready():
                return ("deal",), table.ended_at + (think if not table.human_seats() else 0.0)
            for seat in table.human_seats():
                if seat not in table.ready and seat not in table.clock.auto:
                    self._human_jobs(jobs, seat, "hand_over")
        elif table.status == "playing":
            for seat, decision in table.decisions.items():
                if seat in table.bots or seat in table.clock.auto:
                    jobs.append((table.opened_at[seat] + think, ("bot", seat, decision)))
                else:
                    self._human_jobs(jobs, seat, decision)
        if not jobs:
            return None, 0.0
        due, job = min(jobs, key=lambda item: item[0])
        return job, due

    def _human_jobs(self, jobs: list[tuple[float, Job]], seat: int, decision: Any) -> None:
        table = self.table
        due = table._due(seat)
        if due is not None:
            jobs.append((due, ("timeout", seat, decision)))
        away = table.clock.away_at(seat, table.absent_seconds) if seat in table.token_hashes else None
        if away is not None:
            jobs.append((away, ("away", seat, decision)))

    def _still(self, kind: str, seat: int) -> bool:
        """Whether a timeout or an absence found earlier still holds (the seat may have acted, polled or come
        back since: nothing of that wakes the driver)."""
        table = self.table
        now = time.monotonic()
        if kind == "timeout":
            due = table._due(seat)
            return due is not None and due <= now
        if kind == "away":
            away = table.clock.away_at(seat, table.absent_seconds)
            return away is not None and away <= now
        return seat in table.bots or seat in table.clock.auto  # a bot's move: the seat may be back meanwhile

    # -- doing it ------------------------------------------------------------------------------------------------
    async def run_job(self, job: Job) -> None:
        """Run ``job`` (call with the table's lock held); a job the table moved past meanwhile does nothing."""
        table = self.table
        if job[0] == "deal":
            if table.status == "hand_over" and table._all_ready():
                await deal(table)
            return
        kind, seat, decision = job
        if decision == "hand_over":
            await self._between_hands(kind, seat)
            return
        if table.status != "playing" or table.decisions.get(seat) != decision or not self._still(kind, seat):
            return  # the table moved on meanwhile
        if kind == "bot":
            bot = table.bots.get(seat) or table.stand_ins[seat]
        else:  # a timeout, or the seat is away: the server's bot plays it from now on
            if kind == "timeout":
                table.clock.bank[seat] = 0.0
            table.clock.auto.add(seat)
            log.info("table %s: seat %d is on auto (%s)", table.id, seat, kind)
            bot = table.stand_ins[seat]
        observation = table.observation(seat)
        if isinstance(bot, SearchBot):  # it thinks in a worker thread, within what the turn timer leaves
            action = await asyncio.to_thread(bot.act, observation, table.search_budget_ms(seat))
        else:
            action = bot.act(observation)
        await commit(table, seat, action)

    async def _between_hands(self, kind: str, seat: int) -> None:
        """A seat that does not say ``next`` in time is counted ready; one that is away goes on auto."""
        table = self.table
        if (table.status != "hand_over" or seat in table.ready or seat in table.clock.auto
                or not self._still(kind, seat)):
            return
        group = table.clock.auto if kind == "away" else table.ready
        group.add(seat)
        try:
            if table._all_ready():
                await deal(table)
            else:
                await store_runtime(table)
        except BaseException:
            group.discard(seat)
            raise

    async def _drive(self) -> None:
        table = self.table
        while not self._stopping:
            async with table.lock:
                self.wake.clear()
                job, due = self.next_job()
            if job is None:
                await self.wake.wait()
                continue
            delay = due - time.monotonic()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.wake.wait(), delay)
                    continue  # something changed: look again
                except asyncio.TimeoutError:
                    pass
            try:
                async with table.lock:
                    await self.run_job(job)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a storage outage, say: the table was put back; try again shortly
                table._publish()  # the listeners a coalesced change left waiting for this move see the table
                await asyncio.sleep(self.backoff.failed(job[0], error))
            else:
                self.backoff.succeeded()

"""Tables: a match played at one table, its seats and tokens, its server-side bots, each change stored first.

A :class:`Table` keeps the live :class:`hupai.Game` and :class:`hupai.Match` in memory and serialises every
change behind its lock: an action is checked (the seat's token opened it, the decision it answers is the
seat's current one), applied by the engine (which refuses anything illegal and changes nothing), written to
the storage with the new snapshot in one transaction, and only then acknowledged and shown. If the write
fails, the table is put back as it was stored.

Decisions the specs leave open, taken here:

- **Replays and stale messages.** Each seat's pending decision is numbered by the action count (``seq``) at
  which it opened; an action must quote that number (``decision``). A resent or replayed message quotes an
  old one and is refused, so an action is never applied twice, even one the engine would still accept.
- **Timers and absence** (:mod:`.seats`). Every decision of a human seat has a timer and a time bank; a seat
  whose time runs out, or that is away, is played by the server's bot (its moves are actions like any other:
  stored, logged) until it comes back.
- **Between hands.** The result stays on the table until every human seat says ``next`` (or is counted ready:
  on auto, or silent past ``turn_seconds``; a table of bots alone deals on after its think time). The match
  ends after ``hands`` hands or when the rules end it.
- **A chosen seed.** A ``seed`` in the create request fixes every wall of the table, so whoever sent it knows
  every seat's tiles. It is accepted only for a table with at most one human seat (a practice table against
  bots, which see observations only), and such a table says ``"seeded": true`` in its public facts; a table
  that humans share is always dealt from a seed the server draws and never shows.
- **Tokens.** ``secrets.token_urlsafe(32)`` per seat, independent of each other and of the table id; only
  their SHA-256 is stored, compared with ``hmac.compare_digest`` against every seat (no early exit).
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_module
from ..actions import Action
from ..bots import GreedyBot, RandomBot
from ..errors import IllegalAction, InvalidState
from ..game import Game, Match
from ..game.match import MATCH_FORMAT
from ..rules.base import Rules
from . import wire
from .config import TableConfig, parse_config, playable
from .restore import restored_hand
from .seats import SeatClock
from .storage import Storage, StorageConflict, StoredTable, dumps, is_storage_fault
from .wire import WireError

__all__ = ["Table", "TableConfig", "parse_config", "new_token_hash", "hash_token", "playable"]

log = logging.getLogger("hupai.serve")

SPECTATOR = -1  # the "seat" of spectators' listeners, events and published message (hupai.serve.watch)
ABSENT_SECONDS = 20.0  # a seat no connection follows for this long is away (Settings.absent_seconds)
MAX_EVENTS = 100_000  # no hand has this many events: a larger ``since`` is malformed
RETRY_FIRST = 0.25  # seconds: the driver's first retry after a failed job, doubling ...
RETRY_MAX = 8.0     # ... up to this


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token_hash() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def _match_json(match: Match) -> dict[str, Any]:
    """The match as stored: everything it carries between hands (:meth:`Match.to_dict`)."""
    return match.to_dict()


def _restore_match(rules: Rules, data: Mapping[str, Any], snapshot: Mapping[str, Any] | None = None) -> Match:
    """The stored match (:meth:`Match.from_dict`: checked, the rules rebuilt from the stored options, those
    ``Match.record`` fixed included), which must be the table's rule system. A row written before the format
    tag (``Match.to_dict``'s form without it) is read as that format; if it is a session past its first hand
    that lost the options its first hand fixed (a server before this one rebuilt the match from the creation
    options after a restart), they are taken from the current hand's ``snapshot``, which was dealt with them."""
    if "format" not in data:
        data = {"format": MATCH_FORMAT, **data}
        options = data.get("options")
        dealt = snapshot.get("options") if isinstance(snapshot, Mapping) else None
        if isinstance(options, dict) and isinstance(dealt, dict) and data.get("hands"):
            data["options"] = {**options, **{k: v for k, v in dealt.items() if options.get(k, v) is None}}
    match = Match.from_dict(data)
    chosen, stored = rules.options_dict(), match.rules.options_dict()
    # Equal to the creation options, but for the ones the session fixed (None when chosen: Wai Huzi's 神, WH-5).
    if (match.rules.name != rules.name or chosen.keys() != stored.keys()
            or any(value is not None and stored[key] != value for key, value in chosen.items())):
        raise InvalidState(f"match: {match.rules.name} {match.rules.options_dict()} is not the table's "
                           f"{rules.name} {rules.options_dict()}")
    return match


@dataclass(eq=False)  # compared and hashed by identity: one per connection
class Listener:
    """One connection following one seat: told (``event``) when the seat's published state changes."""

    seat: int
    event: asyncio.Event = field(default_factory=asyncio.Event)
    replaced: bool = False  # another connection took the seat over
    moved: bool = False  # the table left this process (see .cluster): the client connects again


class Table:
    """One table: a match of hands, its seats, bots and listeners. Every method runs on the event loop."""

    def __init__(self, table_id: str, config: TableConfig, rules: Rules, match: Match, game: Game,
                 runtime: Mapping[str, Any], version: int, token_hashes: Mapping[int, str],
                 storage: Storage) -> None:
        self.id = table_id
        self.config = config
        self.rules = rules
        self.match = match
        self.game = game
        self.storage = storage
        self.version = version
        self.token_hashes: dict[int, str] = dict(token_hashes)
        self.hand: int = runtime["hand"]
        self.seq: int = runtime["seq"]
        self.status: str = runtime["status"]
        self.decisions: dict[int, int] = {int(k): v for k, v in runtime["decisions"].items()}
        self.ready: set[int] = set(runtime["ready"])
        now = time.monotonic()
        self.opened_at: dict[int, float] = {seat: now for seat in self.decisions}
        self.ended_at = now
        self.clock = SeatClock(self.human_seats(), turn=config.turn_seconds, claim=config.claim_seconds,
                               bank=config.bank_seconds, runtime=runtime, now=now)
        self.absent_seconds = ABSENT_SECONDS  # the host sets its own (Settings.absent_seconds)
        self.born = self.active_at = now  # for the host's expiry: created (or restored), a human seat's last act
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.published: dict[int, str] = {}
        self.changed = asyncio.Event()  # replaced on every change: pollers wait on the one they saw
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._stopping = False
        # What the storage holds: the last snapshot (with the match) and the actions appended after it. A failed
        # write puts the table back to exactly that (see _revert).
        self._stored = (_match_json(match), game.snapshot())
        self._tail: list[Action] = []
        self._failures = 0  # the driver's consecutive failed jobs (a storage outage): it backs off
        bot_class = GreedyBot if config.bot == "greedy" else RandomBot
        self.bots = {seat: bot_class(secrets.randbits(32)) for seat in config.bots}
        self.stand_ins = {seat: bot_class(secrets.randbits(32)) for seat in self.human_seats()}  # auto seats

    # -- creating and restoring ---------------------------------------------------------------------------
    @classmethod
    async def create(cls, table_id: str, config: TableConfig, rules: Rules, seed: int | None,
                     storage: Storage) -> Table:
        match = Match(rules, seed=seed, claim_window="all")
        game = match.new_game()
        runtime = {"hand": 0, "seq": 0, "status": "playing", "decisions": {}, "ready": []}
        table = cls(table_id, config, rules, match, game, runtime, 0, {}, storage)
        table._open_decisions(set(), None)
        await storage.create_table(table_id, int(time.time() * 1000), config.to_dict(), _match_json(match),
                                   table._runtime(), table._stored[1])
        table._publish()
        return table

    @classmethod
    async def restore(cls, stored: StoredTable, storage: Storage) -> Table:
        """The table as stored: its last snapshot, then the hand's action rows after it replayed through the
        engine. Anything that does not fit (a damaged row, a tampered snapshot, a missing or edited action
        row, rules this build does not know) raises, naming what."""
        rows = await storage.actions(stored.id, stored.runtime.get("hand", 0) if isinstance(stored.runtime, dict)
                                     else 0)
        return cls.rebuild(stored, rows, storage)

    @classmethod
    def rebuild(cls, stored: StoredTable, rows: list[tuple[int, int, dict[str, Any]]], storage: Storage) -> Table:
        """:meth:`restore` with the current hand's action rows already read."""
        config = TableConfig.from_dict(stored.config)
        rules = rules_module.get(config.rules, config.options)
        match = _restore_match(rules, stored.match, stored.snapshot)
        runtime = stored.runtime
        game, snapshot, tail = restored_hand(stored.snapshot, runtime, rows, rules)
        table = cls(stored.id, config, rules, match, game, runtime, stored.version, stored.token_hashes,
                    storage)
        table._stored = (stored.match, snapshot)
        table._tail = tail
        table._publish()
        return table

    def start(self) -> None:
        if self._driver is None:
            self._stopping = False
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self._driver is not None:
            # Told twice: before 3.12, wait_for swallows a cancellation that meets its wake-up (bpo-42130).
            self._stopping = True
            self._wake.set()
            self._driver.cancel()
            try:
                await self._driver
            except asyncio.CancelledError:
                pass
            self._driver = None

    # -- seats ----------------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.rules.num_players

    def human_seats(self) -> list[int]:
        return [seat for seat in range(self.num_players) if seat not in self.config.bots]

    def seat_for(self, token: Any) -> int | None:
        """The seat ``token`` opens, or None. Every seat's hash is compared (constant time, no early exit)."""
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    async def join(self, seat: int | None) -> tuple[int, str]:
        """Give a free human seat (``seat``, or the first free one) a new token; returns (seat, token)."""
        async with self.lock:
            free = [s for s in self.human_seats() if s not in self.token_hashes]
            if seat is None:
                if not free:
                    raise WireError("full", "no free seat at this table")
                seat = free[0]
            elif seat not in free:
                raise WireError("taken", f"seat {seat} is not a free human seat")
            token, digest = new_token_hash()
            await self.storage.add_seat(self.id, seat, digest)
            self.token_hashes[seat] = digest
            return seat, token

    # -- what each seat is shown ---------------------------------------------------------------------------
    def public_info(self) -> dict[str, Any]:
        """What anyone may know about the table (the lobby's listing)."""
        return {"id": self.id, "config": self.config.to_dict(), "num_players": self.num_players,
                "family": self.rules.family, "status": self.status, "hand": self.hand,
                "scores": list(self.match.scores),
                "seats": [{"seat": s, "bot": s in self.config.bots, "taken": s in self.token_hashes,
                           "auto": s in self.clock.auto} for s in range(self.num_players)]}

    def _message(self, seat: int) -> dict[str, Any]:
        decision = self.decisions.get(seat)
        due = self._due(seat)
        observation = self.game.observation(seat)
        return {"type": "state", "table": self.id, "version": self.version, "hand": self.hand, "seq": self.seq,
                "status": self.status, "decision": decision, "seat": seat,
                "deadline": None if due is None else round(max(0.0, due - time.monotonic()), 3),
                "bank": round(self.clock.bank[seat], 3) if seat in self.clock.bank else None,
                "auto": sorted(self.clock.auto), "scores": list(self.match.scores), "hands": self.config.hands,
                "ready": sorted(self.ready), "bots": list(self.config.bots),
                "event_count": len(self.game.events), "facts": wire.facts_to_wire(self.rules, observation.extras),
                "observation": wire.observation_to_wire(observation)}

    def spectator_message(self) -> dict[str, Any]:
        """A spectator's state (:mod:`.watch`) but its ``facts`` and ``observation`` (the spectator's view and its
        described facts, which :func:`.watch.spectator_text` adds, built once per change): a seat's message with
        no seat and no decision, and ``timers``: each human seat whose timer runs, its seconds left and its
        bank."""
        now = time.monotonic()
        timers = [{"seat": seat, "deadline": round(max(0.0, due - now), 3), "bank": round(self.clock.bank[seat], 3)}
                  for seat in self.human_seats() if (due := self._due(seat)) is not None]
        return {"type": "state", "table": self.id, "version": self.version, "hand": self.hand, "seq": self.seq,
                "status": self.status, "decision": None, "seat": None, "deadline": None, "bank": None,
                "timers": timers, "auto": sorted(self.clock.auto), "scores": list(self.match.scores),
                "hands": self.config.hands, "ready": sorted(self.ready), "bots": list(self.config.bots),
                "event_count": len(self.game.events)}

    async def events(self, seat: int, since: Any) -> dict[str, Any]:
        """The seat's public event stream of the current hand from index ``since`` on (:meth:`hupai.Game.events_for`:
        tiles in the table's notation, other seats' draws masked). Read under the lock, so that a change still
        being written is never shown; ``next`` is where the following read starts."""
        if type(since) is not int or not 0 <= since <= MAX_EVENTS:
            raise WireError("malformed", f"since must be an int in 0..{MAX_EVENTS}, got {str(since)[:20]!r}")
        async with self.lock:
            total = len(self.game.events)
            return {"type": "events", "table": self.id, "hand": self.hand, "since": since,
                    "next": max(since, total), "events": self.game.events_for(seat, since) if seat != SPECTATOR
                    else self.game.spectator_events(since)}

    def _due(self, seat: int) -> float | None:
        """When the human seat's timer runs out: its decision's, or between hands its ``next`` (None: no timer
        runs for it, or the server's bot plays it)."""
        if seat in self.clock.auto or seat not in self.clock.bank:
            return None
        if self.status == "hand_over":
            return self.ended_at + self.config.turn_seconds if seat not in self.ready and \
                self.config.turn_seconds > 0 else None
        if self.status != "playing" or seat not in self.decisions:
            return None
        return self.clock.deadline(seat, self.opened_at[seat], self._timed(seat))

    def message(self, seat: int) -> dict[str, Any]:
        """The seat's state as it stands (call with the lock held, or with no change in flight)."""
        return self._message(seat)

    async def message_text(self, seat: int) -> str:
        """The seat's latest stored state as JSON text. Built under the lock, so a change being written (the
        game already moved, the storage not yet answered) is never shown before it is stored."""
        text = self.published.get(seat)
        if text is None:
            async with self.lock:
                text = self.published.get(seat)
                if text is None:
                    message = self._message(seat)
                    text = dumps(message)
                    if message["deadline"] is None:  # a running timer's seconds left are counted per message
                        self.published[seat] = text
        return text

    def _publish(self) -> None:
        """After a stored change: drop the old messages, wake the listeners, the pollers and the driver."""
        self.published.clear()
        for listener in self.listeners:
            listener.event.set()
        self.changed.set()
        self.changed = asyncio.Event()
        self._wake.set()

    def _timed(self, seat: int) -> bool:
        """Whether the seat's decision has the claim timer's base: it is asked in a claim or rob window (where
        a seat may pass; should one be bound to claim, the server's bot makes that claim once the time is out)."""
        return seat in self.decisions and self.game.current.phase in ("claim", "rob")

    # -- changes --------------------------------------------------------------------------------------------
    def _runtime(self) -> dict[str, Any]:
        return {"hand": self.hand, "seq": self.seq, "status": self.status,
                "decisions": {str(k): v for k, v in self.decisions.items()}, "ready": sorted(self.ready),
                **self.clock.to_dict()}

    def _open_decisions(self, before: set[int], actor: int | None) -> None:
        """Number each seat's pending decision: a seat newly asked, or the actor asked again, gets a new one."""
        if self.game.over:
            self.decisions = {}
            return
        now = time.monotonic()
        asked = self.game.seats_to_act
        decisions = {}
        for seat in asked:
            if seat in before and seat != actor and seat in self.decisions:
                decisions[seat] = self.decisions[seat]
            else:
                decisions[seat] = self.seq
                self.opened_at[seat] = now
        self.decisions = decisions

    async def act(self, seat: int, decision: Any, data: Any) -> int:
        """A human seat's action: checked, applied, stored; returns its seq (the ack). Raises WireError."""
        if type(decision) is not int:
            raise WireError("malformed", "an action quotes the decision it answers: an int")
        async with self.lock:
            back = self._back(seat)  # any action takes the seat back from the bot, even a refused one
            bank = dict(self.clock.bank)
            try:
                if self.status != "playing":
                    raise WireError("out_of_turn", "the hand is over: no action is expected")
                current = self.decisions.get(seat)
                if current is None:
                    raise WireError("out_of_turn", f"seat {seat} has nothing to decide now")
                if decision != current:
                    raise WireError("stale", f"decision {decision!r} is not the current one ({current}): "
                                             "a replayed or outdated message")
                action = wire.action_from_wire(data, seat, self.rules)
                self.clock.spend(seat, self.opened_at[seat], self._timed(seat), time.monotonic())
                return await self._commit(seat, action)
            except BaseException as error:
                self.clock.bank = bank  # refused or not stored: nothing changed, the bank neither
                if back and isinstance(error, WireError):
                    await self._store_runtime()
                raise

    # -- time and absence (see .seats) -----------------------------------------------------------------------
    def _back(self, seat: int) -> bool:
        """The seat acted (or said hello): it is here, and takes itself back from the bot. Whether it was on
        auto (the change is stored by the caller's write)."""
        now = time.monotonic()
        self.clock.seen(seat, now)
        self.active_at = now
        if seat not in self.clock.auto:
            return False
        self.clock.auto.discard(seat)
        if seat in self.decisions:
            self.opened_at[seat] = now  # its own time runs from now on
        return True

    async def _store_runtime(self) -> None:
        """Store a change of the runtime facts alone (a seat back from auto, or put on it)."""
        await self._store_state()

    async def back(self, seat: int) -> None:
        """The seat is back (a WebSocket hello, or its ``back`` message): the server's bot stops playing it."""
        async with self.lock:
            if self._back(seat):
                try:
                    await self._store_runtime()
                except BaseException:
                    self.clock.auto.add(seat)
                    raise

    def seen(self, seat: int) -> None:
        """A request of the seat's (a poll, a ping): it is here (it does not take the seat back)."""
        self.clock.seen(seat, time.monotonic())

    async def expire(self) -> None:
        """Stored as expired (nothing more happens at it; a restart leaves it out) and stopped; the host then
        drops it. Its connections are shown the ``expired`` status."""
        async with self.lock:
            old = (self.status, self.decisions)
            self.status, self.decisions = "expired", {}
            try:
                await self._store_runtime()
            except BaseException:
                self.status, self.decisions = old
                raise
        await self.stop()

    def attach(self, seat: int) -> None:
        """A WebSocket (or a waiting poll) follows the seat: it is here."""
        self.clock.attach(seat, time.monotonic())
        self._wake.set()

    def detach(self, seat: int) -> None:
        """It stopped following: the seat is away once ``absent_seconds`` pass without another."""
        self.clock.detach(seat, time.monotonic())
        self._wake.set()

    def moved(self) -> None:
        """This process no longer serves the table (see .cluster): its connections are told to connect again,
        its waiting polls answered now."""
        for listener in self.listeners:
            listener.moved = True
            listener.event.set()
        self._publish()

    def listener(self, seat: int) -> Listener:
        """A new WebSocket's listener for the seat; the seat's older WebSockets are told they were replaced
        (the seat is one player's: the latest device to say hello takes it over)."""
        for old in self.listeners:
            if old.seat == seat:
                old.replaced = True
                old.event.set()
        listener = Listener(seat)
        listener.event.set()
        self.listeners.add(listener)
        return listener

    async def _commit(self, seat: int, action: Any) -> int:
        before = set(self.game.seats_to_act)
        try:
            self.game.apply(action)  # an illegal action raises here and changes nothing
        except IllegalAction as error:
            raise WireError("illegal", str(error)) from None
        saved = self._saved()
        seq = self.seq
        finished_log = result = None
        state: tuple[dict[str, Any], dict[str, Any]] | None = None
        try:
            self.seq += 1
            if self.game.over:
                saved = (*saved, copy.deepcopy(self.match))  # once a hand: what record() changes, to put back
                self.match.record(self.game)
                over = self.match.over or self.match.hand_index >= self.config.hands
                self.status = "match_over" if over else "hand_over"
                self.ready = set()
                self.ended_at = time.monotonic()
                finished_log = self.game.to_json()
                assert self.game.result is not None
                result = self.game.result.to_dict()
            self._open_decisions(before, seat)
            if self.game.over or len(self._tail) + 1 >= self.storage.snapshot_every:
                state = (_match_json(self.match), self.game.snapshot())
            await self.storage.record_action(self.id, self.version, self.hand, seq, seat,
                                             wire.action_to_wire(action, self.rules), self._runtime(), state,
                                             finished_log, result)
        except BaseException as error:
            self._revert(saved)
            if isinstance(error, StorageConflict):
                await self._resync()
            raise
        if state is None:
            self._tail.append(action)
        else:
            self._stored, self._tail = state, []
        self.version += 1
        self._publish()
        return seq

    def _saved(self) -> tuple[Any, ...]:
        """The table's own facts (not the game's), to put back if a write fails."""
        return (self.hand, self.seq, self.status, set(self.ready), dict(self.decisions), dict(self.opened_at),
                self.ended_at)

    def _revert(self, saved: tuple[Any, ...]) -> None:
        """Put the table back as the storage holds it (a write failed: nothing after it happened). Each seat's
        pending decision keeps its number, so a seat that saw it can answer it again; a new state is
        published all the same (the listeners and the driver look again)."""
        (self.hand, self.seq, self.status, self.ready, self.decisions, self.opened_at, self.ended_at) = saved[:7]
        if len(saved) > 7:  # the hand had ended: the match recorded it
            self.match = saved[7]
        # As stored: JSON's lists (the snapshot in memory may hold tuples, which the check refuses).
        game = Game.from_snapshot(json.loads(json.dumps(self._stored[1])))
        for action in self._tail:
            game.apply(action)
        self.game = game
        self._publish()

    async def _resync(self) -> None:
        """The stored table is not what this process last wrote (a write whose answer was lost did commit, say):
        take the stored one. If it cannot be read now, the next write finds the conflict again."""
        try:
            (stored,) = await self.storage.load_tables(self.id)
            fresh = await Table.restore(stored, self.storage)
        except Exception as error:  # the storage is still away: stay as reverted
            log.warning("table %s: could not reread the stored table: %s: %s", self.id, type(error).__name__,
                        str(error)[:200])
            return
        for name in ("match", "game", "version", "hand", "seq", "status", "decisions", "ready", "opened_at",
                     "_stored", "_tail"):
            setattr(self, name, getattr(fresh, name))
        log.warning("table %s: the stored table had moved on (version %d): taken as stored", self.id, self.version)
        self._publish()

    async def next_hand(self, seat: int) -> None:
        """A human seat is ready for the next hand (dealt once every human seat is)."""
        async with self.lock:
            back = self._back(seat)
            if self.status != "hand_over":
                if back:
                    await self._store_runtime()
                raise WireError("out_of_turn", "no hand to move on from")
            if seat in self.ready:
                if back:
                    await self._store_runtime()
                return
            self.ready.add(seat)
            if self._all_ready():
                try:
                    await self._deal()
                except BaseException:
                    self.ready.discard(seat)  # not stored: not ready (the seat's next `next` tries again)
                    raise
                return
            try:
                await self._store_state()
            except BaseException as error:
                self.ready.discard(seat)
                if isinstance(error, StorageConflict):
                    await self._resync()
                raise

    def _all_ready(self) -> bool:
        """Every human seat said ``next`` (a seat the server's bot plays is ready)."""
        return all(seat in self.ready or seat in self.clock.auto for seat in self.human_seats())

    async def _deal(self) -> None:
        game = self.match.new_game()
        old = (self.game, self.hand, self.seq, self.status, self.ready, self.decisions, self.clock.bank, self._stored,
               self._tail)
        self.game, self.hand, self.seq, self.status, self.ready = game, self.match.hand_index, 0, "playing", set()
        self.clock.refill()
        self._open_decisions(set(), None)
        try:
            await self._store_state((self._stored[0], game.snapshot()))
        except BaseException as error:
            (self.game, self.hand, self.seq, self.status, self.ready, self.decisions, self.clock.bank, self._stored,
             self._tail) = old
            if isinstance(error, StorageConflict):
                await self._resync()
            raise

    async def _store_state(self, state: tuple[dict[str, Any], dict[str, Any]] | None = None) -> None:
        """Store the table's runtime facts (and ``state``, a new snapshot with the match, if given)."""
        await self.storage.update_state(self.id, self.version, self._runtime(), state)
        if state is not None:
            self._stored, self._tail = state, []
        self.version += 1
        self._publish()

    def _failed(self, job: tuple[Any, ...], error: Exception) -> float:
        """The driver's job failed (a storage outage, say: the table was put back as stored): one line in the
        log (a traceback only for what is not a storage error, once), then a back-off that doubles up to
        ``RETRY_MAX`` seconds; returns the delay."""
        self._failures += 1
        delay: float = min(RETRY_MAX, RETRY_FIRST * 2 ** (self._failures - 1))
        if self._failures == 1:
            log.warning("table %s: %s failed, retrying with back-off: %s: %s", self.id, job[0],
                        type(error).__name__, str(error)[:200], exc_info=not is_storage_fault(error))
        elif self._failures in (5, 20) or self._failures % 100 == 0:
            log.warning("table %s: %s still failing (%d tries): %s: %s", self.id, job[0], self._failures,
                        type(error).__name__, str(error)[:200])
        return delay

    def _succeeded(self) -> None:
        if self._failures:
            log.warning("table %s: recovered after %d failed tries", self.id, self._failures)
            self._failures = 0

    # -- the driver: bots, timers, absence, the next hand -------------------------------------------------
    def _next_job(self) -> tuple[tuple[Any, ...] | None, float]:
        """The next thing the driver must do unasked, and when: a bot's (or an auto seat's) move, a timer that
        runs out, a seat found away, the next hand."""
        think = self.config.think_ms / 1000
        jobs: list[tuple[float, tuple[Any, ...]]] = []
        if self.status == "hand_over":
            if self._all_ready():
                return ("deal",), self.ended_at + (think if not self.human_seats() else 0.0)
            for seat in self.human_seats():
                if seat not in self.ready and seat not in self.clock.auto:
                    self._human_jobs(jobs, seat, "hand_over")
        elif self.status == "playing":
            for seat, decision in self.decisions.items():
                if seat in self.bots or seat in self.clock.auto:
                    jobs.append((self.opened_at[seat] + think, ("bot", seat, decision)))
                else:
                    self._human_jobs(jobs, seat, decision)
        if not jobs:
            return None, 0.0
        due, job = min(jobs, key=lambda item: item[0])
        return job, due

    def _human_jobs(self, jobs: list[tuple[float, tuple[Any, ...]]], seat: int, decision: Any) -> None:
        due = self._due(seat)
        if due is not None:
            jobs.append((due, ("timeout", seat, decision)))
        away = self.clock.away_at(seat, self.absent_seconds) if seat in self.token_hashes else None
        if away is not None:
            jobs.append((away, ("away", seat, decision)))

    async def _run_job(self, job: tuple[Any, ...]) -> None:
        if job[0] == "deal":
            if self.status == "hand_over" and self._all_ready():
                await self._deal()
            return
        kind, seat, decision = job
        if decision == "hand_over":
            await self._between_hands(kind, seat)
            return
        if self.status != "playing" or self.decisions.get(seat) != decision or not self._still(kind, seat):
            return  # the table moved on meanwhile
        if kind == "bot":
            bot = self.bots.get(seat) or self.stand_ins[seat]
        else:  # a timeout, or the seat is away: the server's bot plays it from now on
            if kind == "timeout":
                self.clock.bank[seat] = 0.0
            self.clock.auto.add(seat)
            log.info("table %s: seat %d is on auto (%s)", self.id, seat, kind)
            bot = self.stand_ins[seat]
        await self._commit(seat, bot.act(self.game.observation(seat)))

    def _still(self, kind: str, seat: int) -> bool:
        """Whether a timeout or an absence found earlier still holds (the seat may have acted, polled or come
        back since: nothing of that wakes the driver)."""
        now = time.monotonic()
        if kind == "timeout":
            due = self._due(seat)
            return due is not None and due <= now
        if kind == "away":
            away = self.clock.away_at(seat, self.absent_seconds)
            return away is not None and away <= now
        return seat in self.bots or seat in self.clock.auto  # a bot's move: the seat may be back meanwhile

    async def _between_hands(self, kind: str, seat: int) -> None:
        """A seat that does not say ``next`` in time is counted ready; one that is away goes on auto."""
        if self.status != "hand_over" or seat in self.ready or seat in self.clock.auto or not self._still(kind, seat):
            return
        group = self.clock.auto if kind == "away" else self.ready
        group.add(seat)
        try:
            if self._all_ready():
                await self._deal()
            else:
                await self._store_runtime()
        except BaseException:
            group.discard(seat)
            raise

    async def _drive(self) -> None:
        while not self._stopping:
            async with self.lock:
                self._wake.clear()
                job, due = self._next_job()
            if job is None:
                await self._wake.wait()
                continue
            delay = due - time.monotonic()
            if delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                    continue  # something changed: look again
                except asyncio.TimeoutError:
                    pass
            try:
                async with self.lock:
                    await self._run_job(job)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a storage outage, say: the table was put back; try again shortly
                await asyncio.sleep(self._failed(job, error))
            else:
                self._succeeded()

"""Tables: a match played at one table, its seats and tokens, its server-side bots, each change stored first.

A :class:`Table` keeps the live :class:`hupai.Game` and :class:`hupai.Match` in memory and serialises every
change behind its lock: an action is checked (the seat's token opened it, the decision it answers is the
seat's current one), applied by the engine (which refuses anything illegal and changes nothing), written to
the storage with the new snapshot in one transaction, and only then acknowledged and shown. If the write
fails, the table is put back as it was stored (:mod:`.commit`: every change and its fault handling). Its
bots, timers and the next hand are run by its driver (:mod:`.driver`).

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
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_module
from ..actions import Action
from ..bots import GreedyBot, RandomBot
from ..errors import InvalidState
from ..ev import EVBot
from ..game import Game, Match, Observer
from ..game.match import MATCH_FORMAT
from ..observation import Observation
from ..rules.base import Rules
from ..search import SearchBot
from . import wire
from .commit import commit, deal, resync, store_runtime, store_state
from .config import TableConfig, parse_config, playable
from .driver import Driver
from .restore import restored_hand
from .seats import SeatClock
from .storage import Storage, StorageConflict, StoredTable, dumps
from .wire import WireError

__all__ = ["Table", "TableConfig", "parse_config", "new_token_hash", "hash_token", "playable"]

log = logging.getLogger("hupai.serve")

SPECTATOR = -1  # the "seat" of spectators' listeners, events and published message (hupai.serve.watch)
ABSENT_SECONDS = 20.0  # a seat no connection follows for this long is away (Settings.absent_seconds)
MAX_EVENTS = 100_000  # no hand has this many events: a larger ``since`` is malformed


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token_hash() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


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


#: The bots a table may seat (``config.bot``): at its bot seats and for its human seats on auto. ``"search"``
#: plays by time, each decision's budget capped below the turn timer (:meth:`Table.search_budget_ms`).
SERVER_BOTS: dict[str, Any] = {"greedy": GreedyBot, "random": RandomBot, "ev": EVBot,
                               "search": lambda seed: SearchBot(seed, rollouts=None, budget_ms=SEARCH_MS)}
#: The most a server's SearchBot thinks about one decision, in milliseconds (less when the turn timer is nearer).
SEARCH_MS = 200.0
#: What a SearchBot's budget leaves of the turn timer, in seconds: the move is stored and sent within it.
SEARCH_SLACK = 0.25


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
        # What the storage holds: the last snapshot (with the match) and the actions appended after it. A failed
        # write puts the table back to exactly that (see _revert).
        self._stored = (match.to_dict(), game.snapshot())
        self._tail: list[Action] = []
        bot_class = SERVER_BOTS[config.bot]
        self.bots = {seat: bot_class(secrets.randbits(32)) for seat in config.bots}
        self.stand_ins = {seat: bot_class(secrets.randbits(32)) for seat in self.human_seats()}  # auto seats
        self.driver = Driver(self)
        self._observer, self._observed = Observer(game), game

    # -- creating and restoring ---------------------------------------------------------------------------
    @classmethod
    async def create(cls, table_id: str, config: TableConfig, rules: Rules, seed: int | None,
                     storage: Storage) -> Table:
        match = Match(rules, seed=seed, claim_window="all")
        game = match.new_game()
        runtime = {"hand": 0, "seq": 0, "status": "playing", "decisions": {}, "ready": []}
        table = cls(table_id, config, rules, match, game, runtime, 0, {}, storage)
        table._open_decisions(set(), None)
        await storage.create_table(table_id, int(time.time() * 1000), config.to_dict(), match.to_dict(),
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
        """Start the table's driver (its bots, timers and the next hand, :mod:`.driver`)."""
        self.driver.start()

    async def stop(self) -> None:
        await self.driver.stop()

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
    def observation(self, seat: int) -> Observation:
        """The seat's observation now (its bot's, its state message's), by one :class:`Observer` per hand, which
        keeps what does not change within the hand instead of rebuilding it for every seat at every action."""
        if self._observed is not self.game:
            self._observer, self._observed = Observer(self.game), self.game
        return self._observer.observe(seat)

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
        observation = self.observation(seat)
        return {"type": "state", "table": self.id, "version": self.version, "hand": self.hand, "seq": self.seq,
                "status": self.status, "decision": decision, "seat": seat,
                "deadline": None if due is None else round(max(0.0, due - time.monotonic()), 3),
                "bank": round(self.clock.bank[seat], 3) if seat in self.clock.bank else None,
                "auto": sorted(self.clock.auto), "scores": list(self.match.scores), "hands": self.config.hands,
                "ready": sorted(self.ready), "bots": list(self.config.bots),
                "event_count": self.game.event_count, "scoring": wire.scoring_to_wire(self.game.result),
                "facts": wire.facts_to_wire(self.rules, observation.extras),
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
                "event_count": self.game.event_count, "scoring": wire.scoring_to_wire(self.game.result)}

    async def events(self, seat: int, since: Any) -> dict[str, Any]:
        """The seat's public event stream of the current hand from index ``since`` on (:meth:`hupai.Game.events_for`:
        tiles in the table's notation, other seats' draws masked). Read under the lock, so that a change still
        being written is never shown; ``next`` is where the following read starts: the number of events the hand
        has, also when ``since`` is past it (a count kept from an earlier, longer hand: ``hand`` says which)."""
        if type(since) is not int or not 0 <= since <= MAX_EVENTS:
            raise WireError("malformed", f"since must be an int in 0..{MAX_EVENTS}, got {str(since)[:20]!r}")
        async with self.lock:
            total = len(self.game.events)
            return {"type": "events", "table": self.id, "hand": self.hand, "since": since,
                    "next": total, "events": self.game.events_for(seat, since) if seat != SPECTATOR
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
                text = self._text(seat)
        return text

    async def push(self, seat: int, sent: int) -> tuple[int, str | None]:
        """For a connection following the seat that was last pushed version ``sent``: ``(version, its state as
        JSON text)``, or ``(sent, None)`` when there is nothing to push: the same version, or one the driver's
        next move supersedes at once (see :meth:`_publish`). Under the lock: a change being written is waited
        for, and the state it leaves is the one pushed."""
        async with self.lock:
            if self.version == sent or self.driver.moves_at_once():
                return sent, None
            return self.version, self._text(seat)

    def _text(self, seat: int) -> str:
        text = self.published.get(seat)
        if text is None:
            message = self._message(seat)
            text = dumps(message)
            if message["deadline"] is None:  # a running timer's seconds left are counted per message
                self.published[seat] = text
        return text

    def _publish(self, coalesce: bool = False) -> None:
        """After a stored change: drop the old messages, wake the listeners, the pollers and the driver. With
        ``coalesce`` (an action stored), the listeners are not woken while the driver moves again at once (a
        bot with no think time): the state that move leaves is pushed then, so that no connection is sent a
        state already superseded. The pollers always are."""
        self.published.clear()
        if not (coalesce and self.driver.moves_at_once()):
            for listener in self.listeners:
                listener.event.set()
        self.changed.set()
        self.changed = asyncio.Event()
        self.driver.wake.set()

    def search_budget_ms(self, seat: int, now: float | None = None) -> float:
        """The time budget of a search bot's decision for ``seat`` now: :data:`SEARCH_MS`, capped so that the move
        comes :data:`SEARCH_SLACK` seconds before the decision's turn timer (its base, the claim timer's in a claim
        window) runs out; 0 once it has (the bot then plays its prior's choice at once)."""
        base = self.clock.base(self._timed(seat))
        if base <= 0:
            return SEARCH_MS
        now = time.monotonic() if now is None else now
        left = self.opened_at.get(seat, now) + base - SEARCH_SLACK - now
        return max(0.0, min(SEARCH_MS, 1000.0 * left))

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
                return await commit(self, seat, action)
            except BaseException as error:
                self.clock.bank = bank  # refused or not stored: nothing changed, the bank neither
                if back and isinstance(error, WireError):
                    await store_runtime(self)
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

    async def back(self, seat: int) -> None:
        """The seat is back (a WebSocket hello, or its ``back`` message): the server's bot stops playing it."""
        async with self.lock:
            if self._back(seat):
                try:
                    await store_runtime(self)
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
                await store_runtime(self)
            except BaseException:
                self.status, self.decisions = old
                raise
        await self.stop()

    def attach(self, seat: int) -> None:
        """A WebSocket (or a waiting poll) follows the seat: it is here."""
        self.clock.attach(seat, time.monotonic())
        self.driver.wake.set()

    def detach(self, seat: int) -> None:
        """It stopped following: the seat is away once ``absent_seconds`` pass without another."""
        self.clock.detach(seat, time.monotonic())
        self.driver.wake.set()

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

    async def next_hand(self, seat: int) -> None:
        """A human seat is ready for the next hand (dealt once every human seat is)."""
        async with self.lock:
            back = self._back(seat)
            if self.status != "hand_over":
                if back:
                    await store_runtime(self)
                raise WireError("out_of_turn", "no hand to move on from")
            if seat in self.ready:
                if back:
                    await store_runtime(self)
                return
            self.ready.add(seat)
            if self._all_ready():
                try:
                    await deal(self)
                except BaseException:
                    self.ready.discard(seat)  # not stored: not ready (the seat's next `next` tries again)
                    raise
                return
            try:
                await store_state(self)
            except BaseException as error:
                self.ready.discard(seat)
                if isinstance(error, StorageConflict):
                    await resync(self)
                raise

    def _all_ready(self) -> bool:
        """Every human seat said ``next`` (a seat the server's bot plays is ready)."""
        return all(seat in self.ready or seat in self.clock.auto for seat in self.human_seats())

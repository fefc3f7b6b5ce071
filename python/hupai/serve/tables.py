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
- **Claim-window timer.** A human seat that does not answer a claim (or rob) window within
  ``claim_seconds`` passes; the pass is an action like any other (stored, logged).
- **Between hands.** The result stays on the table until every human seat says ``next`` (a table of bots
  alone deals on after its think time). The match ends after ``hands`` hands or when the rules end it.
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
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import rules as rules_module
from ..actions import Action
from ..bots import GreedyBot, RandomBot
from ..errors import HupaiError, IllegalAction
from ..game import Game, Match
from ..game.game import FLOWS
from ..jsonform import json_text
from ..rules.base import Rules
from . import wire
from .restore import restored_hand
from .storage import Storage, StorageConflict, StoredTable, dumps, is_storage_fault
from .wire import WireError

__all__ = ["Table", "TableConfig", "parse_config", "new_token_hash", "hash_token", "playable"]

log = logging.getLogger("hupai.serve")

MAX_HANDS = 64
MAX_THINK_MS = 10_000
MAX_CLAIM_SECONDS = 600.0
MAX_OPTIONS = 32
RETRY_FIRST = 0.25  # seconds: the driver's first retry after a failed job, doubling ...
RETRY_MAX = 8.0     # ... up to this


@dataclass(frozen=True)
class TableConfig:
    """What a table's creator chose; public (no seed: that is kept with the match, server-side; ``seeded`` says
    whether the creator chose it, and so knows every wall)."""

    rules: str
    options: dict[str, Any]
    bots: tuple[int, ...]
    bot: str = "greedy"
    think_ms: int = 500
    hands: int = 4
    claim_seconds: float = 20.0
    seeded: bool = False

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        return data


def _int_in(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise WireError("malformed", f"{key} must be an int in {low}..{high}, got {value!r}")
    return value


def parse_config(data: Any) -> tuple[TableConfig, Rules, int | None]:
    """A create-table request checked: the config, the rules object, and the seed (None: drawn by the OS)."""
    if not isinstance(data, dict):
        raise WireError("malformed", "a table request is a JSON object")
    unknown = set(data) - {"rules", "options", "bots", "bot", "think_ms", "hands", "claim_seconds", "seed"}
    if unknown:
        raise WireError("malformed", f"unknown field(s) {sorted(unknown)}")
    name = data.get("rules", "guangdong")
    if name not in rules_module.names():
        raise WireError("malformed", f"unknown rule system {name!r} (known: {', '.join(rules_module.names())})")
    options = data.get("options") or {}
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise WireError("malformed", "options must be a JSON object of at most 32 entries")
    try:
        rules = rules_module.get(name, options)
    except HupaiError as error:
        raise WireError("malformed", str(error)) from None
    if not playable(rules):
        raise WireError("malformed", f"{name}: this engine has no flow for the {rules.family} family yet")
    n = rules.num_players
    bots = data.get("bots", list(range(1, n)))
    if (not isinstance(bots, list) or any(type(s) is not int or not 0 <= s < n for s in bots)
            or len(set(bots)) != len(bots)):
        raise WireError("malformed", f"bots must be a list of distinct seats in 0..{n - 1}")
    bot = data.get("bot", "greedy")
    if bot not in ("greedy", "random"):
        raise WireError("malformed", "bot must be 'greedy' or 'random'")
    claim_seconds = data.get("claim_seconds", 20.0)
    if (isinstance(claim_seconds, bool) or not isinstance(claim_seconds, (int, float))
            or not 0 <= claim_seconds <= MAX_CLAIM_SECONDS):
        raise WireError("malformed", f"claim_seconds must be a number in 0..{MAX_CLAIM_SECONDS:g} (0: no timer)")
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        raise WireError("malformed", "seed must be an int in 0..2**64-1 (or absent: drawn by the server)")
    if seed is not None and n - len(bots) > 1:
        # A seed fixes every wall: its sender would know the other humans' tiles.
        raise WireError("malformed", "a seed is accepted only for a table with at most one human seat (it fixes "
                                     "every wall, so whoever chose it knows every seat's tiles)")
    config = TableConfig(name, rules.options_dict(), tuple(sorted(bots)), bot,
                         _int_in(data, "think_ms", 500, 0, MAX_THINK_MS), _int_in(data, "hands", 4, 1, MAX_HANDS),
                         float(claim_seconds), seed is not None)
    return config, rules, seed


def playable(rules: Rules) -> bool:
    """Whether the engine hosts this rule system's family (a rule package may land before its flow)."""
    return rules.family in FLOWS


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token_hash() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def _match_json(match: Match) -> dict[str, Any]:
    return match.to_dict()


def _restore_match(rules: Rules, data: Mapping[str, Any]) -> Match:
    match = Match(rules, seed=data["seed"], first_dealer=data["first_dealer"], claim_window="all")
    match.dealer = data["dealer"]
    match.round_wind = data["round_wind"]
    match.hand_index = data["hands"]
    match.scores = list(data["scores"])
    match.over = data["over"]
    return match


@dataclass(eq=False)  # compared and hashed by identity: one per connection
class Listener:
    """One connection following one seat: told (``event``) when the seat's published state changes."""

    seat: int
    event: asyncio.Event = field(default_factory=asyncio.Event)


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
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.published: dict[int, str] = {}
        self.changed = asyncio.Event()  # replaced on every change: pollers wait on the one they saw
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        # What the storage holds: the last snapshot (with the match) and the actions appended after it. A failed
        # write puts the table back to exactly that (see _revert).
        self._stored = (_match_json(match), game.snapshot())
        self._tail: list[Action] = []
        self._failures = 0  # the driver's consecutive failed jobs (a storage outage): it backs off
        bot_class = GreedyBot if config.bot == "greedy" else RandomBot
        self.bots = {seat: bot_class(secrets.randbits(32)) for seat in config.bots}

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
        data = stored.config
        config = TableConfig(data["rules"], data["options"], tuple(data["bots"]), data["bot"], data["think_ms"],
                             data["hands"], data["claim_seconds"], data.get("seeded", False))
        rules = rules_module.get(config.rules, config.options)
        match = _restore_match(rules, stored.match)
        runtime = stored.runtime
        game, snapshot, tail = restored_hand(stored.snapshot, runtime, rows)
        table = cls(stored.id, config, rules, match, game, runtime, stored.version, stored.token_hashes,
                    storage)
        table._stored = (stored.match, snapshot)
        table._tail = tail
        table._publish()
        return table

    def start(self) -> None:
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self._driver is not None:
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
                "seats": [{"seat": s, "bot": s in self.config.bots, "taken": s in self.token_hashes}
                          for s in range(self.num_players)]}

    def _message(self, seat: int) -> dict[str, Any]:
        decision = self.decisions.get(seat)
        deadline = None
        if (decision is not None and seat not in self.config.bots and self.config.claim_seconds > 0
                and self._timed(seat)):
            deadline = max(0.0, self.opened_at[seat] + self.config.claim_seconds - time.monotonic())
        return {"type": "state", "table": self.id, "version": self.version, "hand": self.hand, "seq": self.seq,
                "status": self.status, "decision": decision, "deadline": deadline, "seat": seat,
                "scores": list(self.match.scores), "hands": self.config.hands, "ready": sorted(self.ready),
                "bots": list(self.config.bots), "observation": wire.observation_to_wire(self.game.observation(seat))}

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
                    text = self.published[seat] = dumps(self._message(seat))
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
        """Whether the seat's decision runs on the claim timer: a claim or rob window it may pass."""
        return self.game.current.phase in ("claim", "rob") and any(
            a.kind == "pass" for a in self.game.legal_actions(seat))

    # -- changes --------------------------------------------------------------------------------------------
    def _runtime(self) -> dict[str, Any]:
        return {"hand": self.hand, "seq": self.seq, "status": self.status,
                "decisions": {str(k): v for k, v in self.decisions.items()}, "ready": sorted(self.ready)}

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
            if self.status != "playing":
                raise WireError("out_of_turn", "the hand is over: no action is expected")
            current = self.decisions.get(seat)
            if current is None:
                raise WireError("out_of_turn", f"seat {seat} has nothing to decide now")
            if decision != current:
                raise WireError("stale", f"decision {decision!r} is not the current one ({current}): "
                                         "a replayed or outdated message")
            action = wire.action_from_wire(data, seat)
            return await self._commit(seat, action)

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
            await self.storage.record_action(self.id, self.version, self.hand, seq, seat, wire.action_to_wire(action),
                                             self._runtime(), state, finished_log, result)
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
            if self.status != "hand_over":
                raise WireError("out_of_turn", "no hand to move on from")
            if seat in self.ready:
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
        return all(seat in self.ready for seat in self.human_seats())

    async def _deal(self) -> None:
        game = self.match.new_game()
        old = (self.game, self.hand, self.seq, self.status, self.ready, self.decisions, self._stored, self._tail)
        self.game, self.hand, self.seq, self.status, self.ready = game, self.match.hand_index, 0, "playing", set()
        self._open_decisions(set(), None)
        try:
            await self._store_state((self._stored[0], game.snapshot()))
        except BaseException as error:
            self.game, self.hand, self.seq, self.status, self.ready, self.decisions, self._stored, self._tail = old
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

    # -- the driver: bots, claim timers, the next hand ------------------------------------------------------
    def _next_job(self) -> tuple[tuple[Any, ...] | None, float]:
        think = self.config.think_ms / 1000
        if self.status == "hand_over":
            if self._all_ready():
                return ("deal",), self.ended_at + (think if not self.human_seats() else 0.0)
            return None, 0.0
        if self.status != "playing":
            return None, 0.0
        best: tuple[Any, ...] | None = None
        due = 0.0
        for seat, decision in self.decisions.items():
            if seat in self.bots:
                when = self.opened_at[seat] + think
                job: tuple[Any, ...] = ("bot", seat, decision)
            elif self.config.claim_seconds > 0 and self._timed(seat):
                when = self.opened_at[seat] + self.config.claim_seconds
                job = ("timeout", seat, decision)
            else:
                continue
            if best is None or when < due:
                best, due = job, when
        return best, due

    async def _run_job(self, job: tuple[Any, ...]) -> None:
        if job[0] == "deal":
            if self.status == "hand_over" and self._all_ready():
                await self._deal()
            return
        _, seat, decision = job
        if self.status != "playing" or self.decisions.get(seat) != decision:
            return  # the table moved on meanwhile
        if job[0] == "bot":
            action = self.bots[seat].act(self.game.observation(seat))
        else:
            action = next(a for a in self.game.legal_actions(seat) if a.kind == "pass")
        await self._commit(seat, action)

    async def _drive(self) -> None:
        while True:
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

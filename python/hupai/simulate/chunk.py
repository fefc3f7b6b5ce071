"""One chunk of a simulation: what a worker process or a Ray task runs.

A simulation is ``hands`` independent hands, not a match: hand ``i`` is dealt from the wall seed
``hand_seed(seed, i)`` (the one :class:`hupai.Match` uses) by the dealer ``i % num_players`` in the first
round wind, so every seat deals equally often and no hand depends on the one before. The hands are cut into
chunks of ``chunk_size`` consecutive indices; the cut depends only on ``hands`` and ``chunk_size``, never on the
number of workers or the backend. Each chunk builds its bots once (a bot may be costly to build: a user's bot
may load a model) from a seed derived from (seed, chunk index, seat), and plays its hands in order. So the
same seed and chunk size give the same hands, bots and totals on 1 or 100 workers, locally or on Ray.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_module
from ..bots import GreedyBot, RandomBot
from ..errors import HupaiError
from ..ev import EVBot
from ..game import Game, play
from ..game.match import Player
from ..game.wall import hand_seed, splitmix64
from .stats import Stats

__all__ = ["BOTS", "BotSpec", "ChunkResult", "SimulationSpec", "bot_name", "run_chunk"]

#: A bot factory: called with a seed, returns a player (anything with ``act(observation)``).
BotFactory = Callable[[int], Player]
BotSpec = str | BotFactory

#: The named bots.
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "ev": EVBot}


def bot_name(bot: BotSpec) -> str:
    """A bot's name as results show it: its registry name, else the factory's qualified name."""
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "__qualname__", None) or getattr(bot, "__name__", None) or type(bot).__name__)


def resolve_bots(bots: BotSpec | Sequence[BotSpec], num_players: int) -> tuple[BotSpec, ...]:
    """One bot per seat from a single bot or one per seat; names are checked here, before any hand is played."""
    if isinstance(bots, str) or callable(bots):
        seats: tuple[BotSpec, ...] = (bots,) * num_players
    elif isinstance(bots, Sequence):
        seats = tuple(bots)
        if len(seats) == 1:
            seats = seats * num_players
        if len(seats) != num_players:
            raise HupaiError(f"bots: {len(seats)} given for a table of {num_players} seats (give one, or one "
                             f"per seat)")
    else:
        raise HupaiError(f"bots must be a name, a factory or a sequence of them, got {type(bots).__name__}")
    for bot in seats:
        if isinstance(bot, str):
            if bot not in BOTS:
                raise HupaiError(f"unknown bot {bot!r} (known: {', '.join(BOTS)})")
        elif not callable(bot):
            raise HupaiError(f"a bot must be a name or a factory taking a seed, got {bot!r}")
    return seats


def chunk_seed(seed: int, chunk: int, seat: int) -> int:
    """The seed of ``seat``'s bot in chunk ``chunk``: apart from every wall seed (another splitmix64 stream)."""
    return splitmix64(splitmix64((seed ^ 0xB07) & 0xFFFFFFFFFFFFFFFF) ^ (chunk << 8 | seat))


@dataclass(frozen=True)
class SimulationSpec:
    """Everything a worker needs to play any chunk: plain data plus the bot factories (names, or callables
    that must pickle to reach another process)."""

    rules: str
    options: Mapping[str, Any]
    bots: tuple[BotSpec, ...]
    seed: int
    hands: int
    chunk_size: int
    claim_window: str
    log_dir: str | None = None
    #: the rules object when the caller gave one that is not in the registry (else rebuilt from the name)
    rules_object: Any = field(default=None, compare=False)

    def chunks(self) -> list[tuple[int, int]]:
        """``(start, stop)`` hand indices of every chunk, in order."""
        return [(start, min(start + self.chunk_size, self.hands)) for start in range(0, self.hands, self.chunk_size)]

    def check_picklable(self, where: str) -> None:
        """Refuse up front a spec that cannot reach ``where`` (a lambda bot for worker processes), with advice,
        rather than fail inside the pool."""
        try:
            pickle.dumps(self)
        except Exception as error:  # pickle raises several types (PicklingError, AttributeError, TypeError)
            raise HupaiError(f"the simulation cannot be sent to {where}: {error} (bot factories must be "
                             f"module-level functions or classes; or use workers=1)") from None


@dataclass
class ChunkResult:
    """A chunk's totals, which chunk it was, and how long its hands took in the worker (wall clock, and CPU
    time: on a machine shared with other work, the CPU time alone says what the hands cost)."""

    start: int
    stop: int
    stats: Stats
    seconds: float
    cpu_seconds: float


def run_chunk(spec: SimulationSpec, start: int, stop: int) -> ChunkResult:
    """Play hands ``start`` (inclusive) to ``stop`` of the simulation ``spec``."""
    began, began_cpu = time.perf_counter(), time.process_time()
    rules = spec.rules_object if spec.rules_object is not None else rules_module.get(spec.rules, spec.options)
    n = rules.num_players
    chunk = start // spec.chunk_size
    players = [(BOTS[bot] if isinstance(bot, str) else bot)(chunk_seed(spec.seed, chunk, seat))
               for seat, bot in enumerate(spec.bots)]
    stats = Stats(n)
    log = None
    if spec.log_dir is not None:
        # One file per chunk, named by its first hand: workers never share a file, and the names sort in order.
        log = open(os.path.join(spec.log_dir, f"hands-{start:09d}.jsonl"), "w", encoding="utf-8")
    try:
        for index in range(start, stop):
            wall = hand_seed(spec.seed, index)
            game = Game(rules, seed=wall, dealer=index % n, claim_window=spec.claim_window)
            try:
                result = play(game, players)
            except HupaiError as error:
                # Which hand, so that it can be played again alone (its wall seed, dealer and bots' chunk).
                raise HupaiError(f"{rules.name} hand {index} (wall seed {wall}, dealer {index % n}, simulation "
                                 f"seed {spec.seed}, chunk size {spec.chunk_size}) failed: {error}") from error
            stats.add(result, sum(1 for action in game.actions if action.kind != "pass"))
            if log is not None:
                log.write(game.to_json() + "\n")
    finally:
        if log is not None:
            log.close()
    return ChunkResult(start, stop, stats, time.perf_counter() - began, time.process_time() - began_cpu)

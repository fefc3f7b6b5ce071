"""One chunk of a simulation: what a worker process or a Ray task runs.

A simulation is ``hands`` independent hands, not a match: hand ``i`` is dealt from the wall seed
``hand_seed(seed, i)`` (the one :class:`hupai.Match` uses) by the dealer ``i % num_players`` in the first
round wind, so every seat deals equally often and no hand depends on the one before. The hands are cut into
chunks of ``chunk_size`` consecutive indices; the cut depends only on ``hands`` and ``chunk_size``, never on the
number of workers or the backend. Each chunk builds its bots once (a bot may be costly to build: a user's bot
may load a model) from a seed derived from (seed, chunk index, seat), and plays its hands in order. So the
same seed and chunk size give the same hands, bots and totals on 1 or 100 workers, locally or on Ray.

A tournament (``rotate``) plays each hand's wall under every distinct seating of the bots (:func:`seatings`):
the bots are built once per chunk, one per entry of the bot list, and change seats between the games of a deal.
The chunks are generated as they are handed out (:meth:`SimulationSpec.chunks` is lazy), so a run's memory
does not depend on its number of hands.
"""

from __future__ import annotations

import functools
import itertools
import os
import pickle
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_module
from ..bots import GreedyBot, RandomBot
from ..errors import HupaiError
from ..ev import EVBot
from ..game import Game, play
from ..game.match import Player
from ..game.state.wall import hand_seed, splitmix64
from ..search import DANGERS, DECISIONS, ROLLOUT_POLICIES, WORLDS, SearchBot
from .stats import BotStats, Stats

__all__ = ["BOTS", "BotSpec", "bot_factory", "ChunkResult", "SimulationSpec", "bot_name", "run_chunk", "seatings"]

#: A bot factory: called with a seed, returns a player (anything with ``act(observation)``).
BotFactory = Callable[[int], Player]
BotSpec = str | BotFactory

#: The named bots. ``"search"`` is :class:`hupai.search.SearchBot` at its default budget in rollouts (a time
#: budget would make a simulation depend on the machine); ``"search:N"`` names it with N rollouts a decision and
#: ``"search:N:margin=M"`` with a margin of M standard errors too, ``"search:N:worlds=weighted"`` (or ``:margin=M``
#: and ``:worlds=W`` both) with worlds weighted by how well they explain the other seats' play (``:worlds=matched``:
#: the other seats' hands dealt as near a win as real hands are; ``:worlds=waiting``: matched, and their ready hands
#: waiting where real ones do); ``:top_k=K`` and
#: ``:rollout=greedy|ev`` set its candidates a decision and its rollout players, ``:decisions=claims`` searches
#: only claim windows, ``:danger=guard`` plays a turn's discard other than the prior's only if its tile is no more
#: dangerous.
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "ev": EVBot, "search": SearchBot}


def bot_factory(name: str) -> BotFactory:
    """The factory of a named bot: a name of :data:`BOTS`, ``"search:N"`` (SearchBot with N rollouts a
    decision) or ``"search:N:margin=M"`` (and a margin of M standard errors, 0 to 100), each optionally followed by
    ``":worlds=weighted"``, ``":worlds=matched"``, ``":worlds=waiting"`` or ``":worlds=uniform"``
    (:data:`hupai.search.WORLDS`),
    ``":top_k=K"`` (1 to 16 candidates a decision), ``":rollout=greedy"`` or ``":rollout=ev"``,
    ``":decisions=claims"`` or ``":decisions=all"`` and ``":danger=guard"`` or ``":danger=any"``, each option at
    most once and in any order. HupaiError for any other name."""
    factory = BOTS.get(name)
    if factory is not None:
        return factory
    prefix, _, rest = name.partition(":")
    count, *options = rest.split(":")
    if prefix == "search" and count.isdigit() and 0 < int(count) <= 100_000:
        settings: dict[str, Any] = {"rollouts": int(count)}
        for option in options:
            key, _, value = option.partition("=")
            if key in settings:
                break
            if key == "margin" and _margin(value) is not None:
                settings[key] = _margin(value)
            elif key == "worlds" and value in WORLDS:
                settings[key] = value
            elif key == "top_k" and value.isdigit() and 1 <= int(value) <= 16:
                settings[key] = int(value)
            elif key == "rollout" and value in ROLLOUT_POLICIES:
                settings[key] = value
            elif key == "decisions" and value in DECISIONS:
                settings[key] = value
            elif key == "danger" and value in DANGERS:
                settings[key] = value
            else:
                break
        else:
            return functools.partial(SearchBot, **settings)
    raise HupaiError(f"unknown bot {name!r} (known: {', '.join(BOTS)}, search:N for N rollouts a decision, "
                     f"search:N:margin=M for a margin of M standard errors, 0 to 100, :worlds=weighted, "
                     f":worlds=matched, :worlds=waiting or :worlds=uniform for how its worlds are dealt, "
                     f":top_k=K for K candidates "
                     f"a decision, 1 to 16, :rollout=greedy or :rollout=ev for its rollout players, "
                     f":decisions=claims or :decisions=all for which decisions it searches, and :danger=guard or "
                     f":danger=any for whether a discard more dangerous than EVBot's may be played)")


def _margin(text: str) -> float | None:
    """A margin written in a bot's name (a number from 0 to 100), or None."""
    try:
        margin = float(text)
    except ValueError:
        return None
    return margin if 0.0 <= margin <= 100.0 else None  # NaN and infinities fail the comparison


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
            bot_factory(bot)  # raises for an unknown name
        elif not callable(bot):
            raise HupaiError(f"a bot must be a name or a factory taking a seed, got {bot!r}")
    return seats


def seatings(bots: Sequence[BotSpec]) -> tuple[tuple[int, ...], ...]:
    """Every distinct seating of ``bots`` (one per seat), as the index in ``bots`` of the bot at each seat.

    Two seatings that put the same bots at the same seats are one: ``greedy,random,random,random`` has 4,
    four different bots 24. Equal bots (by name) take their seats in the order of their indices, so a seating
    names each bot instance once; the seatings come in lexicographic order: deterministic.
    """
    names = [bot_name(bot) for bot in bots]
    found: dict[tuple[str, ...], tuple[int, ...]] = {}
    for order in itertools.permutations(range(len(bots))):  # in lexicographic order: the first of a seating
        found.setdefault(tuple(names[i] for i in order), order)  # gives equal bots their indices in order
    return tuple(found.values())


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
    #: play every hand under every distinct seating of the bots (a tournament)
    rotate: bool = False

    def chunks(self) -> Iterator[tuple[int, int]]:
        """``(start, stop)`` hand indices of every chunk, in order, made as they are asked for: a run of 10**12
        hands holds one at a time, not a list of them."""
        for start in range(0, self.hands, self.chunk_size):
            yield start, min(start + self.chunk_size, self.hands)

    @property
    def chunk_count(self) -> int:
        return -(-self.hands // self.chunk_size)

    @property
    def seatings(self) -> tuple[tuple[int, ...], ...]:
        """The seatings each hand is played under: every distinct one in a tournament, else the bots as given."""
        return seatings(self.bots) if self.rotate else (tuple(range(len(self.bots))),)

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
    #: a tournament's totals per bot (by name), else empty
    bots: dict[str, BotStats] = field(default_factory=dict)


def run_chunk(spec: SimulationSpec, start: int, stop: int) -> ChunkResult:
    """Play hands ``start`` (inclusive) to ``stop`` of the simulation ``spec`` (each under every seating in a
    tournament)."""
    began, began_cpu = time.perf_counter(), time.process_time()
    rules = spec.rules_object if spec.rules_object is not None else rules_module.get(spec.rules, spec.options)
    n = rules.num_players
    chunk = start // spec.chunk_size
    players = [(bot_factory(bot) if isinstance(bot, str) else bot)(chunk_seed(spec.seed, chunk, seat))
               for seat, bot in enumerate(spec.bots)]
    for bot, player in zip(spec.bots, players, strict=True):
        if not callable(getattr(player, "act", None)):
            raise HupaiError(f"the bot factory {bot_name(bot)} returned a {type(player).__name__!r} object, not "
                             "a player (anything with act(observation))")
    names = [bot_name(bot) for bot in spec.bots]
    table_seatings = spec.seatings
    stats = Stats(n)
    bots = {name: BotStats() for name in names} if spec.rotate else {}
    log = None
    if spec.log_dir is not None:
        # One file per chunk, named by its first hand: workers never share a file, and the names sort in order.
        log = open(os.path.join(spec.log_dir, f"hands-{start:09d}.jsonl"), "w", encoding="utf-8")
    try:
        for index in range(start, stop):
            wall = hand_seed(spec.seed, index)
            for seating in table_seatings:
                game = Game(rules, seed=wall, dealer=index % n, claim_window=spec.claim_window)
                try:
                    result = play(game, [players[i] for i in seating])
                except HupaiError as error:
                    # Which hand, so that it can be played again alone (its wall seed, dealer and bots' chunk).
                    where = f", seating {list(seating)}" if spec.rotate else ""
                    raise HupaiError(f"{rules.name} hand {index} (wall seed {wall}, dealer {index % n}{where}, "
                                     f"simulation seed {spec.seed}, chunk size {spec.chunk_size}) failed: "
                                     f"{error}") from error
                stats.add(result, sum(1 for action in game.actions if action.kind != "pass"))
                if bots:
                    BotStats.add_game(bots, result, [names[i] for i in seating])
                if log is not None:
                    log.write(game.to_json() + "\n")
            if bots:
                BotStats.end_deal(bots)
    finally:
        if log is not None:
            log.close()
    return ChunkResult(start, stop, stats, time.perf_counter() - began, time.process_time() - began_cpu, bots)

"""Monte Carlo simulation: ``hupai.simulate(rules, hands=N, bots=..., seed=S, workers=W)``.

A simulation plays ``hands`` independent seeded hands (hand ``i``: wall seed ``hand_seed(seed, i)``, dealer
``i % num_players``; see :mod:`.chunk`) in chunks, in this process, in worker processes or as Ray tasks, and
merges exact totals (:mod:`.stats`) into a :class:`SimulationResult`. The same seed gives the same result for
any number of workers and either backend.

Resources are bounded whatever the arguments: at most :data:`MAX_HANDS` hands, at most :func:`max_workers`
local worker processes (and never more than there are chunks), chunks made as they are handed out with a few
per worker in flight, and worker processes that end with the process that started them (even killed with
``kill -9``; see :mod:`.backends`). With ``rotate=True`` (a tournament) every hand is played under every distinct
seating of the bots, and the result reports each bot's points per hand.

The module itself is callable (``hupai.simulate(...)`` is :func:`simulate`): the package and the function
share the name the API promises, and importing the package would otherwise hide the function.
"""

from __future__ import annotations

import numbers
import os
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import rules as rules_module
from ..errors import HupaiError
from ..game import Game
from ..game.game import FLOWS
from ..game.mahjong.claims import CLAIM_WINDOWS
from ..game.state.wall import hand_seed
from ..rules.base import Rules
from . import backends
from .chunk import BOTS, BotSpec, ChunkResult, SimulationSpec, bot_name, resolve_bots, run_chunk, seatings
from .progress import Progress, make_progress
from .result import SimulationResult
from .stats import BotStats, Interval, Stats

__all__ = ["BOTS", "MAX_HANDS", "WORKERS_PER_CPU", "Interval", "Progress", "SimulationResult", "SimulationSpec",
           "Stats", "default_workers", "make_progress", "max_workers", "playable", "run_chunk", "simulate"]

#: Hands per chunk: a few tenths of a second of work for the slowest bots, so progress and Ctrl-C stay
#: prompt, and enough that sending a chunk and its totals costs nothing next to playing it. A tournament's
#: chunk is this many games: DEFAULT_CHUNK // seatings hands (at least one).
DEFAULT_CHUNK = 50

#: The most hands (games, every seating counted) a simulation accepts: at a million hands a second, eleven
#: days. More could never finish; it is refused rather than started.
MAX_HANDS = 10**12

#: Local worker processes beyond this many per CPU only share the same cores (and each holds its own memory).
WORKERS_PER_CPU = 4

#: Ray tasks at once: a cluster's size is not known here, but more than this is a mistake.
MAX_RAY_WORKERS = 10_000


def default_workers() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most local worker processes :func:`simulate` starts: :data:`WORKERS_PER_CPU` per CPU here."""
    return WORKERS_PER_CPU * default_workers()


def playable() -> list[str]:
    """The registered rule systems the engine can play (a system whose family has no engine flow yet is
    registered for its analysis and scoring alone)."""
    return [name for name in rules_module.names() if rules_module.get(name).family in FLOWS]


def _integer(value: Any) -> int | None:
    """``value`` as a plain int if it is an integer (a numpy one too, not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _count(value: Any, name: str, minimum: int) -> int:
    count = _integer(value)
    if count is None or count < minimum:
        raise HupaiError(f"{name} must be an int >= {minimum}, got {value!r}")
    return count


def simulate(rules: str | Rules = "guangdong", hands: int = 1000, bots: BotSpec | Sequence[BotSpec] = "greedy",
             seed: int = 0, workers: int | None = 1, options: Mapping[str, Any] | None = None,
             backend: str = "local", claim_window: str = "eligible", *, address: str | None = None,
             chunk_size: int | None = None, log_dir: str | os.PathLike[str] | None = None,
             progress: Callable[[int, int], None] | None = None,
             on_interrupt: str = "raise", rotate: bool = False) -> SimulationResult:
    """Play ``hands`` seeded hands of ``rules`` (a name with ``options``, or a rules object) with ``bots``.

    - ``bots``: ``"random"``, ``"greedy"`` or ``"ev"`` (:class:`hupai.ev.EVBot`), a factory ``f(seed) ->
      player``, or one per seat (mixed tables: ``["greedy", "random", "random", "random"]``). Factories must
      pickle (module-level) for worker processes.
    - ``workers``: processes (local) or tasks at once (Ray); ``None`` = every CPU here (or the Ray cluster's).
      ``1`` plays in this process. Never more than there are chunks; above :func:`max_workers` (local) or
      :data:`MAX_RAY_WORKERS` it is refused.
    - ``hands``: at most :data:`MAX_HANDS` (every seating counted with ``rotate``).
    - ``rotate``: a tournament: every hand is played under every distinct seating of ``bots`` (so seat and
      dealer luck cancel); :meth:`SimulationResult.bot_points` and the other ``bot_*`` methods give each bot's
      figures. ``hands`` counts the deals: ``greedy,random,random,random`` plays 4 hands per deal.
    - ``chunk_size``: hands per chunk (default :data:`DEFAULT_CHUNK`; in a tournament, deals per chunk, default
      :data:`DEFAULT_CHUNK` // seatings).
    - ``backend``: ``"local"`` or ``"ray"`` (``address`` of a running cluster, else a local instance).
    - ``log_dir``: write every hand's replayable log, one JSON log per line, a file per chunk.
    - ``progress(done, total)`` is called in this process as chunks complete.
    - ``on_interrupt``: on Ctrl-C, ``"raise"`` KeyboardInterrupt (after stopping the workers) or ``"return"``
      the totals of the chunks that finished, flagged ``interrupted``.

    Raises :class:`hupai.HupaiError` for anything malformed, before any hand is played.
    """
    if isinstance(rules, str):
        rule_system = rules_module.get(rules, options)
        rules_object = None
    elif isinstance(rules, Rules):
        if options is not None:
            raise HupaiError("options are given with a rule-system name; a rules object carries its own")
        rule_system = rules
        # Rebuilt by name in each worker when the registry knows it: a rules object need not pickle.
        rules_object = None if rules.name in rules_module.names() else rules
    else:
        raise HupaiError(f"rules must be a rule-system name or a Rules object, got {type(rules).__name__}")
    hands = _count(hands, "hands", 0)
    if not isinstance(rotate, bool):
        raise HupaiError(f"rotate must be True or False, got {rotate!r}")
    given_seed, seed = seed, _integer(seed)  # type: ignore[assignment]
    if seed is None or not 0 <= seed < 1 << 64:
        raise HupaiError(f"seed must be an int in 0..2**64-1, got {given_seed!r}")
    if backend not in backends.BACKENDS:
        raise HupaiError(f"unknown backend {backend!r} (known: {', '.join(backends.BACKENDS)})")
    if workers is not None:
        workers = _count(workers, "workers", 1)
        most, why = ((max_workers(), f"{WORKERS_PER_CPU} per CPU here: more processes only share the same cores")
                     if backend == "local" else (MAX_RAY_WORKERS, "tasks at once"))
        if workers > most:
            raise HupaiError(f"workers must be at most {most:,} ({why}), got {workers:,}")
    elif backend == "local":
        workers = default_workers()
    if claim_window not in CLAIM_WINDOWS:
        raise HupaiError(f"claim_window must be one of {', '.join(CLAIM_WINDOWS)}, got {claim_window!r}")
    if on_interrupt not in ("raise", "return"):
        raise HupaiError(f"on_interrupt must be 'raise' or 'return', got {on_interrupt!r}")
    if progress is not None and not callable(progress):
        raise HupaiError(f"progress must be a function progress(done, total), got {progress!r}")
    seat_bots = resolve_bots(bots, rule_system.num_players)
    table_seatings = len(seatings(seat_bots)) if rotate else 1
    if rotate:
        named: dict[str, BotSpec] = {}
        for bot in seat_bots:
            if named.setdefault(bot_name(bot), bot) != bot:  # names equal by value, factories by identity
                raise HupaiError(f"rotate: two different bots are both named {bot_name(bot)!r}; a tournament "
                                 f"tells bots apart by name")
    if hands * table_seatings > MAX_HANDS:
        raise HupaiError(f"hands: at most {MAX_HANDS:,} hands can be simulated (every seating counted), got "
                         f"{hands:,}" + (f" x {table_seatings} seatings" if rotate else ""))
    if chunk_size is None:
        chunk_size = max(1, DEFAULT_CHUNK // table_seatings)
    chunk_size = _count(chunk_size, "chunk_size", 1)
    if hands:  # the first hand dealt here: whatever the engine refuses (no flow for the family) fails now
        Game(rule_system, seed=hand_seed(seed, 0), dealer=0, claim_window=claim_window)
    if log_dir is not None:
        log_dir = os.fspath(log_dir)
        try:
            os.makedirs(log_dir, exist_ok=True)
        except OSError as error:
            raise HupaiError(f"cannot create the log directory {log_dir}: {error.strerror}") from None
    spec = SimulationSpec(rule_system.name, rule_system.options_dict(), seat_bots, seed, hands, chunk_size,
                          claim_window, log_dir, rules_object, rotate)
    if backend == "local" and (workers or 1) > 1:
        # Checked for the workers asked for, before the cap: whether a run is refused must not depend on hands.
        spec.check_picklable("worker processes")
    if workers is not None:  # a worker beyond the number of chunks would have nothing to do
        workers = max(1, min(workers, spec.chunk_count))
    result = SimulationResult(rule_system.name, rule_system.options_dict(), seed, hands, chunk_size, claim_window,
                              tuple(bot_name(b) for b in seat_bots), Stats(rule_system.num_players), backend,
                              workers or 0, rotate=rotate, seatings=table_seatings,
                              bot_stats={name: BotStats() for name in dict.fromkeys(map(bot_name, seat_bots))}
                              if rotate else {})
    planned = result.hands_planned

    def on_result(chunk: ChunkResult) -> None:
        result.stats.merge(chunk.stats)
        for name, totals in chunk.bots.items():
            result.bot_stats[name].merge(totals)
        result.worker_seconds += chunk.seconds
        result.worker_cpu_seconds += chunk.cpu_seconds
        result.record_chunk(chunk.start, chunk.stop)
        if progress is not None:
            progress(result.stats.hands, planned)

    began = time.perf_counter()
    try:
        backends.run(spec, backend, workers, on_result, address)
    except KeyboardInterrupt:
        result.interrupted = True
        if on_interrupt == "raise":
            raise
    except BrokenProcessPool:
        # A worker was killed from outside (kill -9, the kernel's out-of-memory killer): the pool stopped the
        # others (backends), and what that worker was playing is lost. Not a failure of any hand: say so plainly.
        raise HupaiError(f"a worker process ended abruptly (killed by a signal, or out of memory?) after "
                         f"{result.stats.hands:,} of {planned:,} hands; the other workers were stopped") from None
    finally:
        result.seconds = time.perf_counter() - began
    return result


class _CallableModule(types.ModuleType):
    """``hupai.simulate`` is this package once imported; calling it runs :func:`simulate`."""

    def __call__(self, *args: Any, **kwargs: Any) -> SimulationResult:
        return simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

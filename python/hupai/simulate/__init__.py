"""Monte Carlo simulation: ``hupai.simulate(rules, hands=N, bots=..., seed=S, workers=W)``.

A simulation plays ``hands`` independent seeded hands (hand ``i``: wall seed ``hand_seed(seed, i)``, dealer
``i % num_players``; see :mod:`.chunk`) in chunks, in this process, in worker processes or as Ray tasks, and
merges exact totals (:mod:`.stats`) into a :class:`SimulationResult`. The same seed gives the same result for
any number of workers and either backend.

The module itself is callable (``hupai.simulate(...)`` is :func:`simulate`): the package and the function
share the name the API promises, and importing the package would otherwise hide the function.
"""

from __future__ import annotations

import os
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import rules as rules_module
from ..errors import HupaiError
from ..game import Game
from ..game.claims import CLAIM_WINDOWS
from ..game.game import FLOWS
from ..game.wall import hand_seed
from ..rules.base import Rules
from . import backends
from .chunk import BOTS, BotSpec, ChunkResult, SimulationSpec, bot_name, resolve_bots, run_chunk
from .progress import Progress, make_progress
from .result import SimulationResult
from .stats import Interval, Stats

__all__ = ["BOTS", "Interval", "Progress", "SimulationResult", "SimulationSpec", "Stats", "default_workers",
           "make_progress", "playable", "run_chunk", "simulate"]

#: Hands per chunk: a few tenths of a second of work for the slowest bots, so progress and Ctrl-C stay
#: prompt, and enough that sending a chunk and its totals costs nothing next to playing it.
DEFAULT_CHUNK = 50


def default_workers() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def playable() -> list[str]:
    """The registered rule systems the engine can play (a system whose family has no engine flow yet is
    registered for its analysis and scoring alone)."""
    return [name for name in rules_module.names() if rules_module.get(name).family in FLOWS]


def _count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise HupaiError(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def simulate(rules: str | Rules = "guangdong", hands: int = 1000, bots: BotSpec | Sequence[BotSpec] = "greedy",
             seed: int = 0, workers: int | None = 1, options: Mapping[str, Any] | None = None,
             backend: str = "local", claim_window: str = "eligible", *, address: str | None = None,
             chunk_size: int = DEFAULT_CHUNK, log_dir: str | os.PathLike[str] | None = None,
             progress: Callable[[int, int], None] | None = None,
             on_interrupt: str = "raise") -> SimulationResult:
    """Play ``hands`` seeded hands of ``rules`` (a name with ``options``, or a rules object) with ``bots``.

    - ``bots``: ``"random"``, ``"greedy"`` or ``"ev"`` (:class:`hupai.ev.EVBot`), a factory ``f(seed) ->
      player``, or one per seat (mixed tables: ``["greedy", "random", "random", "random"]``). Factories must
      pickle (module-level) for worker processes.
    - ``workers``: processes (local) or tasks at once (Ray); ``None`` = every CPU here (or the Ray cluster's).
      ``1`` plays in this process.
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
    chunk_size = _count(chunk_size, "chunk_size", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise HupaiError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    if backend not in backends.BACKENDS:
        raise HupaiError(f"unknown backend {backend!r} (known: {', '.join(backends.BACKENDS)})")
    if workers is not None:
        workers = _count(workers, "workers", 1)
    elif backend == "local":
        workers = default_workers()
    if claim_window not in CLAIM_WINDOWS:
        raise HupaiError(f"claim_window must be one of {', '.join(CLAIM_WINDOWS)}, got {claim_window!r}")
    if on_interrupt not in ("raise", "return"):
        raise HupaiError(f"on_interrupt must be 'raise' or 'return', got {on_interrupt!r}")
    seat_bots = resolve_bots(bots, rule_system.num_players)
    if hands:  # the first hand dealt here: whatever the engine refuses (no flow for the family) fails now
        Game(rule_system, seed=hand_seed(seed, 0), dealer=0, claim_window=claim_window)
    if log_dir is not None:
        log_dir = os.fspath(log_dir)
        try:
            os.makedirs(log_dir, exist_ok=True)
        except OSError as error:
            raise HupaiError(f"cannot create the log directory {log_dir}: {error.strerror}") from None
    spec = SimulationSpec(rule_system.name, rule_system.options_dict(), seat_bots, seed, hands, chunk_size,
                          claim_window, log_dir, rules_object)
    result = SimulationResult(rule_system.name, rule_system.options_dict(), seed, hands, chunk_size, claim_window,
                              tuple(bot_name(b) for b in seat_bots), Stats(rule_system.num_players), backend,
                              workers or 0)

    def on_result(chunk: ChunkResult) -> None:
        result.stats.merge(chunk.stats)
        result.worker_seconds += chunk.seconds
        result.worker_cpu_seconds += chunk.cpu_seconds
        result.chunks_done.append((chunk.start, chunk.stop))
        if progress is not None:
            progress(result.stats.hands, hands)

    began = time.perf_counter()
    try:
        backends.run(spec, backend, workers, on_result, address)
    except KeyboardInterrupt:
        result.interrupted = True
        if on_interrupt == "raise":
            raise
    finally:
        result.seconds = time.perf_counter() - began
        result.chunks_done.sort()
    return result


class _CallableModule(types.ModuleType):
    """``hupai.simulate`` is this package once imported; calling it runs :func:`simulate`."""

    def __call__(self, *args: Any, **kwargs: Any) -> SimulationResult:
        return simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

"""The workloads ``make bench-check`` tracks against ``bench/baseline.json`` (see ``bench/check.py``).

Each records ``workload`` (its key in the baseline), ``items`` (hands or calls per round) and ``unit`` in
``extra_info``; the checker divides items by the best round's time. ``reference`` is plain Python work that
uses no hupai code: every other rate is compared as a ratio to it, measured in the same run, so a machine that
is uniformly slower (or busier) than the one that wrote the baseline changes no ratio, while a change that slows
one workload does. ``HUPAI_BENCH_QUICK=1`` runs fewer rounds (the CI mode, under a minute).
"""

from __future__ import annotations

import importlib
import os
import random
import statistics
from collections.abc import Callable
from typing import Any

import hupai
import numpy as np
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.ev import EVBot
from hupai.game import Game, play

pytest.importorskip("pytest_benchmark")

QUICK = os.environ.get("HUPAI_BENCH_QUICK") == "1"
ROUNDS = 5 if QUICK else 15
HANDS = 12  # full hands per round: a round of RandomBot hands takes about 10 ms
SNAPSHOTS = 30  # snapshot + restore pairs per round: about 5 ms
REFERENCE_ITEMS = 10_000  # about 5-10 ms, as long as a round of most workloads
OBSERVED_STATES = 60  # seeded hands stopped at a decision (those still going are observed)


def _reference() -> int:
    """Dict, list and int work of the kind the engine's Python does (no hupai, no numpy): the yardstick."""
    rng = random.Random(5)
    tally: dict[int, int] = {}
    for _ in range(REFERENCE_ITEMS):
        kind = rng.randrange(34)
        tally[kind] = tally.get(kind, 0) + 1
    return sorted(tally.items(), key=lambda item: -item[1])[0][1]


def _hands(name: str, bot_class: type, hands: int = HANDS) -> Callable[[], None]:
    """The same ``hands`` walls and bot seeds every round: every round does the same work."""
    rules = hupai.rules.get(name)

    def run() -> None:
        n = rules.num_players
        bots = [bot_class(7 + seat) for seat in range(n)]
        for seed in range(hands):
            play(Game(rules, seed=seed, dealer=seed % n, claim_window="eligible"), bots)

    return run


def _batch(function: Any, rows: int, **kwargs: Any) -> Callable[[], None]:
    counts = np.zeros((rows, 34), dtype=np.uint8)
    rng = np.random.default_rng(1)
    for row in counts:  # random 14-tile hands drawn from the 136 tiles
        np.add.at(row, rng.choice(136, 14, replace=False) // 4, 1)
    return lambda: function(counts, **kwargs)


def _single_calls(calls: int) -> Callable[[], None]:
    rng = np.random.default_rng(2)
    hands = np.zeros((calls, 34), dtype=np.uint8)
    for row in hands:
        np.add.at(row, rng.choice(136, 14, replace=False) // 4, 1)

    def run() -> None:
        shanten = hupai.shanten
        for row in hands:
            shanten(row)

    return run


def _replays(count: int) -> Callable[[], None]:
    logs = []
    for seed in range(count):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        play(game, [RandomBot(seed * 4 + i) for i in range(4)])
        logs.append(game.log())
    return lambda: [Game.replay(log) for log in logs] and None


def _states(name: str, count: int) -> list[tuple[Game, int]]:
    """Up to ``count`` games of seeded hands stopped at a decision early, mid or late, with the seat to act
    (``bench/state_rates.py``'s states)."""
    rules = hupai.rules.get(name)
    held = []
    for seed in range(count):
        game = Game(rules, seed=seed, dealer=seed % rules.num_players, claim_window="eligible")
        bots = [RandomBot(seed * 10 + seat) for seat in range(rules.num_players)]
        for _ in range(1 + (seed * 37) % 60):
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
        if not game.over:
            held.append((game, game.seats_to_act[0]))
    return held


def _observations(name: str, count: int) -> Callable[[], None]:
    """``count`` calls of ``Game.observation`` for the seat to act, every field read, going round the states of
    ``OBSERVED_STATES`` seeded hands (``bench/state_rates.py``'s ``observation`` measure)."""
    from dataclasses import fields

    held = _states(name, OBSERVED_STATES)
    names = [f.name for f in fields(held[0][0].observation(held[0][1]))]
    plan = [held[index % len(held)] for index in range(count)]

    def run() -> None:
        for game, seat in plan:
            observation = game.observation(seat)
            for field in names:
                getattr(observation, field)

    return run


def _snapshots(name: str, count: int) -> Callable[[], None]:
    """``Game.from_snapshot(game.snapshot())`` at ``count`` states of seeded hands (what a server does to park and
    resume a table; the states of ``bench/state_rates.py``)."""
    rules = hupai.rules.get(name)
    held = [game for game, _ in _states(name, count * 2)][:count]
    return lambda: [Game.from_snapshot(game.snapshot(), rules=rules) for game in held] and None


def _simulate(hands: int) -> Callable[[], None]:
    return lambda: hupai.simulate("guangdong", hands=hands, bots="random", seed=3, workers=1) and None


def _env_steps(rules: str, hands: int) -> Callable[[], None]:
    """Random legal play through ``hupai.env.aec_env`` (the ``env`` extra), counted in hands; issue 22 item 6."""
    pytest.importorskip("pettingzoo")
    from env_rates import hupai_random  # bench/env_rates.py's loop (bench/ is on the path)

    return lambda: hupai_random(rules, hands, "eligible") and None


def _learner_steps(rules: str, tables: int, decisions: int) -> Callable[[], None]:
    """Random learner decisions through ``gym_env`` (tables 0) or ``vector_env(tables)`` against RandomBots,
    the environment built once (issue 31 item 3)."""
    pytest.importorskip("pettingzoo")
    import hupai.env
    import numpy as np
    from env_rates import uniform_choice

    rng = np.random.default_rng(0)
    if tables == 0:
        single = hupai.env.gym_env(rules, opponents="random")
        single.reset(seed=0)

        def run_single() -> None:
            for _ in range(decisions):
                _, _, terminated, _, _ = single.step(int(uniform_choice(single.action_masks()[None], rng)[0]))
                if terminated:
                    single.reset()
        return run_single
    vector = hupai.env.vector_env(rules, tables, opponents="random")
    vector.reset(seed=0)

    def run_vector() -> None:
        for _ in range(decisions // tables):
            vector.step(uniform_choice(vector.action_masks(), rng))
    return run_vector


# workload -> (build the round function, items per round, unit)
WORKLOADS: dict[str, tuple[Callable[[], Callable[[], Any]], int, str]] = {
    "reference": (lambda: _reference, REFERENCE_ITEMS, "ops/s"),
    "shanten_batch": (lambda: _batch(hupai.shanten_batch, 100_000), 100_000, "hands/s"),
    "is_win_batch": (lambda: _batch(hupai.is_win_batch, 200_000), 200_000, "hands/s"),
    "shanten_call": (lambda: _single_calls(20_000), 20_000, "calls/s"),
    "replay": (lambda: _replays(10), 10, "hands/s"),
    "simulate_guangdong_random": (lambda: _simulate(HANDS), HANDS, "hands/s"),
}
for _name in hupai.simulate.playable():  # a system the engine cannot play yet has analysis and scoring alone
    for _label, _bot, _count in (("random", RandomBot, HANDS), ("greedy", GreedyBot, HANDS // 3),
                                 ("ev", EVBot, HANDS // 4)):
        WORKLOADS[f"hands_{_name}_{_label}"] = (
            lambda name=_name, bot=_bot, count=_count: _hands(name, bot, count), _count, "hands/s")
for _name in hupai.simulate.playable():
    WORKLOADS[f"observation_{_name}"] = (lambda name=_name: _observations(name, 2000), 2000, "observations/s")
for _name in ("guangdong", "yunxiao", "kawuxing", "waihuzi"):
    WORKLOADS[f"snapshot_{_name}"] = (lambda name=_name: _snapshots(name, SNAPSHOTS), SNAPSHOTS, "restores/s")
for _name in ("guangdong", "yunxiao", "kawuxing", "waihuzi"):  # the three agent forms, every system
    WORKLOADS[f"env_{_name}_random"] = (lambda name=_name: _env_steps(name, HANDS // 2), HANDS // 2, "hands/s")
    WORKLOADS[f"env_gym_{_name}_random"] = (lambda name=_name: _learner_steps(name, 0, 640), 640, "decisions/s")
    WORKLOADS[f"env_vector64_{_name}_random"] = (lambda name=_name: _learner_steps(name, 64, 1280), 1280,
                                                 "decisions/s")


@pytest.mark.benchmark(group="bench-check")
@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_tracked(benchmark: Any, request: Any, workload: str) -> None:
    """One workload, each round paired with a run of the reference just before it (untimed by
    pytest-benchmark, timed here): ``extra_info["ratio"]`` is the median over rounds of the workload's rate
    over the reference's in the same moment, so a busy spell that slows both cancels out."""
    build, items, unit = WORKLOADS[workload]
    run = build()
    reference_seconds: list[float] = []
    # The reference is timed with pytest-benchmark's own timer (bench/check.py picks CPU time).
    module, _, name = str(request.config.getoption("benchmark_timer")).rpartition(".")
    timer = getattr(importlib.import_module(module), name)

    def time_reference() -> None:
        began = timer()
        _reference()
        reference_seconds.append(timer() - began)

    benchmark.extra_info.update({"workload": workload, "items": items, "unit": unit})
    benchmark.pedantic(run, setup=time_reference, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    if benchmark.stats is None:  # --benchmark-disable
        return
    seconds = list(benchmark.stats.stats.data)
    paired = reference_seconds[-len(seconds):]  # the warmup round has its reference run too
    ratios = [(items / t) / (REFERENCE_ITEMS / r) for t, r in zip(seconds, paired, strict=True)]
    benchmark.extra_info["ratio"] = 1.0 if workload == "reference" else statistics.median(ratios)
    benchmark.extra_info[unit] = round(items / benchmark.stats.stats.median)

"""Table-engine throughput (issue 3): full hands with bots, and the cost of one decision.

Run: ``.venv/bin/pytest bench/bench_game.py --benchmark-only``. Targets (not asserted), Guangdong: >= 1,000
hands/s with four RandomBots and >= 200 hands/s with four GreedyBots on one core. ``hands/s`` = HANDS / the
median round's time (``extra_info``). Yunxiao runs the same loop through its (Python) rule layer, Kawuxing with
three bots (its 亮倒 offer and custom claims make every turn and discard a Python rule question), Wai Huzi with
three bots through the zipai flow (every turned-up card and discard is offered to every seat; wins asked of the
core's split).
"""

from __future__ import annotations

import random

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play

pytest.importorskip("pytest_benchmark")

HANDS = 50
# Built once, as a simulation would (a name builds a new rules object).
RULES = {name: hupai.rules.get(name) for name in ("guangdong", "yunxiao", "kawuxing", "waihuzi")}


def _play_hands(rules, bot_class, first_seed: int) -> int:
    """HANDS hands in a row by the same four bots, as a simulation plays them (a bot is built once, not per
    hand: seeding a Mersenne Twister costs more than a dozen decisions)."""
    n = rules.num_players  # Kawuxing and Wai Huzi seat three
    bots = [bot_class(first_seed * 4 + i) for i in range(n)]
    actions = 0
    for seed in range(first_seed, first_seed + HANDS):
        game = Game(rules, seed=seed, dealer=seed % n, claim_window="eligible")
        play(game, bots)
        actions += len(game.actions)
    return actions


@pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot], ids=["random", "greedy"])
@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_bench_full_hands(benchmark, name, bot_class):
    """HANDS full hands per round: hands/s from the median round and from the fastest."""
    seeds = iter(range(0, 10**9, HANDS))
    benchmark.extra_info["hands_per_round"] = HANDS
    benchmark.pedantic(lambda: _play_hands(RULES[name], bot_class, next(seeds)), rounds=10, warmup_rounds=1)
    benchmark.extra_info["hands_per_second"] = round(HANDS / benchmark.stats.stats.median)
    benchmark.extra_info["best_hands_per_second"] = round(HANDS / benchmark.stats.stats.min)


def _decision_states(count: int = 300) -> list[Game]:
    """Games stopped at varied decision points (turns and claim windows) of random hands."""
    rng = random.Random(7)
    states = []
    for seed in range(count):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        stop = rng.randrange(1, 90)
        for _ in range(stop):
            if game.over:
                break
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
        if not game.over:
            states.append(game)
    return states


def test_bench_legal_actions_and_apply(benchmark):
    """One decision: ``legal_actions`` + ``apply`` of the first legal action (on a fresh state each time)."""
    snaps = [g.snapshot() for g in _decision_states()]
    pool = [Game.from_snapshot(s) for s in snaps]
    index = iter(range(10**9))

    def setup():
        i = next(index)
        if i % len(pool) == 0:
            pool[:] = [Game.from_snapshot(s) for s in snaps]
        return (pool[i % len(pool)],), {}

    def decide(game: Game) -> None:
        seat = game.current.seats[0]
        game.apply(game.legal_actions(seat)[0])

    benchmark.pedantic(decide, setup=setup, rounds=len(snaps) * 3)


def test_bench_snapshot_restore_decide(benchmark):
    """A server's request: ``snapshot`` + ``from_snapshot`` + ``legal_actions`` + ``apply`` (one decision)."""
    games = _decision_states()
    index = iter(range(10**9))

    def request() -> None:
        game = games[next(index) % len(games)]
        restored = Game.from_snapshot(game.snapshot())
        seat = restored.current.seats[0]
        restored.apply(restored.legal_actions(seat)[0])

    benchmark(request)


def test_bench_replay(benchmark):
    """Replaying a full logged hand from its JSON."""
    game = Game("guangdong", seed=3, claim_window="eligible")
    play(game, [GreedyBot(i) for i in range(4)])
    log = game.to_json()
    benchmark(Game.replay, log)

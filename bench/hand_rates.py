"""Full hands per second, per rule system and bot, in a few seconds: to compare two builds side by side.

Run it with each build's Python in turn, several times, on the same machine (its speed varies by up to 2x from
minute to minute, so alternate the builds and compare the best rounds)::

    python bench/hand_rates.py            # prints one line per (rules, bot): hands/s, best round of 5
    python bench/hand_rates.py --rounds 9 --hands 40

It plays the same seeds with every build (claim_window="eligible", what simulations use; a build without the
setting plays that way anyway), so the games are the same.
"""

from __future__ import annotations

import argparse
import inspect
import time

import hupai
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play


def _rate(name: str, bot_class: type, hands: int, rounds: int) -> float:
    rules = hupai.rules.get(name)
    extra = {"claim_window": "eligible"} if "claim_window" in inspect.signature(Game).parameters else {}
    best = float("inf")
    for round_index in range(rounds):
        n = rules.num_players
        bots = [bot_class(round_index * 4 + i) for i in range(n)]
        start = time.perf_counter()
        for seed in range(round_index * hands, (round_index + 1) * hands):
            play(Game(rules, seed=seed, dealer=seed % n, **extra), bots)
        best = min(best, time.perf_counter() - start)
    return hands / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for name in [name for name in ("guangdong", "yunxiao", "kawuxing") if name in hupai.rules.names()]:
        for bot_class in (RandomBot, GreedyBot):
            hands = args.hands if bot_class is RandomBot else max(1, args.hands // 2)
            rate = _rate(name, bot_class, hands, args.rounds)
            print(f"{name:10} {bot_class.__name__:10} {rate:8.0f} hands/s (best of {args.rounds})", flush=True)


if __name__ == "__main__":
    main()

"""Wai Huzi play, two builds side by side (issue 21): the greedy and random hands of bench/compare_builds.py's
alternating batches, in several rounds, and each build's hands per CPU second.

Each build is a Python that imports it (a virtualenv's ``bin/python``); both play the same seeds and bots::

    python bench/compare_waihuzi.py /work/wt/old/.venv/bin/python .venv/bin/python --rounds 3 --pairs 10

The wall-clock rates come from compare_builds' alternating batches over the rounds (old, new, new, old, ...: the
median of the per-pair ratios and their middle half). Then, per round and build, one process plays the
round's hands after a warm-up and reports the CPU seconds they took (``time.process_time``): on a shared
machine a process waiting for a core is not charged, so the CPU rate is closer to what a quiet machine gives.
``--ev`` adds 3 ``EVBot``s (``hupai.ev``) to the CPU-time part, for two builds that both have it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_builds  # noqa: E402 (bench/ is no package)

#: (rules, bot, hands per wall-clock batch, hands per CPU-time run).
WORKLOADS = [("waihuzi", "GreedyBot", 20, 200), ("waihuzi", "RandomBot", 100, 600)]

_CPU = """
import sys, time
import hupai
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play
name, bot, start, stop = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = hupai.rules.get(name)
if bot == "EVBot":
    from hupai.ev import EVBot as chosen
else:
    chosen = RandomBot if bot == "RandomBot" else GreedyBot
bots = [chosen(start + i) for i in range(rules.num_players)]
for seed in range(10_000, 10_020):  # warm-up: tables, caches
    play(Game(rules, seed=seed, dealer=seed % rules.num_players), bots)
began = time.process_time()
for seed in range(start, stop):
    play(Game(rules, seed=seed, dealer=seed % rules.num_players), bots)
print(time.process_time() - began)
"""


def _cpu_seconds(python: str, name: str, bot: str, start: int, stop: int) -> float:
    done = subprocess.run([python, "-c", _CPU, name, bot, str(start), str(stop)], capture_output=True, text=True,
                          check=True)
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the Python of the build to compare against")
    parser.add_argument("new", help="the Python of the build under test")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--pairs", type=int, default=10, help="alternating batch pairs per round (default 10)")
    parser.add_argument("--ev", action="store_true", help="also EVBot, in CPU seconds only (both builds need it: "
                        "not 606392f)")
    args = parser.parse_args()
    print("hands/s, wall clock (alternating batches)", flush=True)
    compare_builds._wall_clock(args.old, args.new, args.pairs, args.rounds,
                               [(name, bot, batch, 0) for name, bot, batch, _ in WORKLOADS])
    print("hands per CPU second (the same hands, builds alternating)")
    for name, bot, _, hands in WORKLOADS + ([("waihuzi", "EVBot", 0, 200)] if args.ev else []):
        rates: dict[str, list[float]] = {"old": [], "new": []}
        for round_ in range(args.rounds):
            start = 50_000 + round_ * hands
            order = (("old", args.old), ("new", args.new))
            for build, python in order if round_ % 2 == 0 else order[::-1]:
                rates[build].append(hands / _cpu_seconds(python, name, bot, start, start + hands))
        ratios = [new / old for old, new in zip(rates["old"], rates["new"], strict=True)]
        print(f"  {name} {bot:10} old {min(rates['old']):6.0f}-{max(rates['old']):6.0f}  new "
              f"{min(rates['new']):6.0f}-{max(rates['new']):6.0f} hands per CPU second; new/old per round "
              f"{min(ratios):.2f}-{max(ratios):.2f}x ({args.rounds} rounds of {hands} hands)", flush=True)


if __name__ == "__main__":
    main()

"""Two builds of hupai side by side, in one run: full hands per second and instructions per hand.

Each build is a Python that imports it (a virtualenv's ``bin/python``)::

    git worktree add /tmp/old dd06f93 && make -C /tmp/old install      # the old build, in its own .venv
    python bench/compare_builds.py /tmp/old/.venv/bin/python .venv/bin/python
    python bench/compare_builds.py OLD NEW --callgrind                  # also count instructions (valgrind)
    python bench/compare_builds.py OLD NEW --core-only --pairs 120      # only the core's batch calls

Wall clock: one worker process per build plays the same hands (the same seeds and bots, ``claim_window=
"eligible"``), in short batches that alternate old, new, new, old, ... A shared machine's speed changes from
minute to minute, by up to 2x here; two batches next to each other see nearly the same machine, so the report
gives the median of the per-pair ratios (new rate / old rate) with their middle half, and each build's overall
rate. ``--callgrind`` also counts the instructions a hand costs with valgrind's callgrind, which the machine's load
does not change: (count for N + 2 hands - count for 2 hands) / N, so that start-up cancels out;
``PYTHONHASHSEED=0`` keeps set orders equal.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import statistics
import subprocess

HERE = pathlib.Path(__file__).resolve().parent

# Plays hands start..stop-1 of one rule system with one bot class (an old build has no claim_window setting and
# plays "eligible" anyway). As a worker (no arguments) it reads "rules bot start stop" lines and answers each with
# the seconds the hands took.
_PLAY = """
import inspect, sys, time
import hupai
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play
extra = {"claim_window": "eligible"} if "claim_window" in inspect.signature(Game).parameters else {}
def run(name, bot, start, stop):
    rules = hupai.rules.get(name)
    bots = [(RandomBot if bot == "RandomBot" else GreedyBot)(start + i) for i in range(rules.num_players)]
    for seed in range(start, stop):
        play(Game(rules, seed=seed, dealer=seed % rules.num_players, **extra), bots)
def batch(call, forms, rows):  # the core's batch calls on bench/hands.py's 1M rows (made once)
    if (forms, rows) not in ROWS:
        sys.path.insert(0, BENCH)
        import hands
        counts = hands.random_hands(1_000_000) if rows == "random" else hands.near_complete_hands(1_000_000, 2)
        ROWS[forms, rows] = counts
        hupai.shanten_batch(counts[:10])
    function = hupai.is_win_batch if call == "is_win_batch" else hupai.shanten_batch
    began = time.perf_counter()
    function(ROWS[forms, rows], forms=int(forms))
    return time.perf_counter() - began
ROWS = {}
if len(sys.argv) > 1:
    run(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    for line in sys.stdin:
        words = line.split()
        if words[0] == "batch":
            print(batch(*words[1:]), flush=True)
            continue
        began = time.perf_counter()
        run(words[0], words[1], int(words[2]), int(words[3]))
        print(time.perf_counter() - began, flush=True)
"""

#: (rules, bot, hands per batch for the wall clock, hands counted by --callgrind).
WORKLOADS = [("guangdong", "RandomBot", 150, 100), ("guangdong", "GreedyBot", 50, 20),
             ("yunxiao", "RandomBot", 40, 50), ("yunxiao", "GreedyBot", 12, 10)]


class _Worker:
    """A build's Python playing batches on request (started once: imports and table builds are not timed)."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen([python, "-c", f"BENCH = {str(HERE)!r}\n{_PLAY}"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def seconds(self, *request: object) -> float:
        """The seconds one request took: ``rules bot start stop`` (hands) or ``batch call forms rows``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(" ".join(map(str, request)) + "\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _wall_clock(old: str, new: str, pairs: int) -> None:
    workers = {"old": _Worker(old), "new": _Worker(new)}
    try:
        for name, bot, batch, _ in WORKLOADS:
            for worker in workers.values():  # warm up: the rules' tables and caches, the first hands
                worker.seconds(name, bot, 10_000, 10_000 + batch)
            ratios, totals = [], {"old": 0.0, "new": 0.0}
            for pair in range(pairs):
                start = pair * batch
                order = ("old", "new") if pair % 2 == 0 else ("new", "old")  # ABBA: a drift cancels
                took = {build: workers[build].seconds(name, bot, start, start + batch) for build in order}
                ratios.append(took["old"] / took["new"])
                for build in took:
                    totals[build] += took[build]
            quartiles = statistics.quantiles(ratios, n=4)
            hands = pairs * batch
            print(f"  {name} {bot:10} old {hands / totals['old']:6.0f}  new {hands / totals['new']:6.0f} hands/s"
                  f"   new/old per pair: median {statistics.median(ratios):.3f}x, middle half "
                  f"{quartiles[0]:.3f}-{quartiles[2]:.3f}x ({pairs} pairs of {batch} hands)", flush=True)
    finally:
        for worker in workers.values():
            worker.close()


#: (call, forms, rows) for --core: the batch rates bench-check tracks, on 1M rows each.
CORE_WORKLOADS = [("shanten_batch", 1, "random"), ("shanten_batch", 11, "random"), ("is_win_batch", 1, "random"),
                  ("shanten_batch", 1, "near"), ("is_win_batch", 1, "near")]


def _core_rates(old: str, new: str, pairs: int) -> None:
    workers = {"old": _Worker(old), "new": _Worker(new)}
    try:
        for call, forms, rows in CORE_WORKLOADS:
            for worker in workers.values():
                worker.seconds("batch", call, forms, rows)  # makes the rows, builds the tables
            ratios, best = [], {"old": float("inf"), "new": float("inf")}
            for pair in range(pairs):
                order = ("old", "new") if pair % 2 == 0 else ("new", "old")
                took = {build: workers[build].seconds("batch", call, forms, rows) for build in order}
                ratios.append(took["old"] / took["new"])
                for build in took:
                    best[build] = min(best[build], took[build])
            print(f"  {call} forms={forms:<2} {rows:6}  old {1 / best['old']:5.1f}  new {1 / best['new']:5.1f} "
                  f"M rows/s (best)   new/old per pair: median {statistics.median(ratios):.3f}x ({pairs} pairs)",
                  flush=True)
    finally:
        for worker in workers.values():
            worker.close()


def _instructions(python: str, name: str, bot: str, start: int, stop: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", _PLAY,
                           name, bot, str(start), str(stop)], capture_output=True, text=True, env=env, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr)[1])  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the Python of the build to compare against")
    parser.add_argument("new", help="the Python of the build under test")
    parser.add_argument("--pairs", type=int, default=40, help="alternating batch pairs per workload (default 40)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions per hand (valgrind)")
    parser.add_argument("--core", action="store_true", help="also compare the core's batch rates (1M rows)")
    parser.add_argument("--core-only", action="store_true", help="compare only the core's batch rates")
    args = parser.parse_args()
    if not args.core_only:
        print("hands/s, wall clock (the same hands by both builds, in alternating batches)")
        _wall_clock(args.old, args.new, args.pairs)
    if args.core or args.core_only:
        print("core batch rates, wall clock (1M rows a call, alternating calls)")
        _core_rates(args.old, args.new, max(4, args.pairs // 4))
    if args.callgrind and not args.core_only:
        print("instructions per hand (callgrind, hands 98.. of each seed range)")
        for name, bot, _, hands in WORKLOADS:
            per_hand = {}
            for build, python in (("old", args.old), ("new", args.new)):
                base = _instructions(python, name, bot, 98, 100)
                full = _instructions(python, name, bot, 98, 100 + hands)
                per_hand[build] = (full - base) / hands
            change = per_hand["new"] / per_hand["old"] - 1
            print(f"  {name} {bot:10} old {per_hand['old'] / 1e6:6.3f} M  new {per_hand['new'] / 1e6:6.3f} M"
                  f"  ({change:+.1%})", flush=True)


if __name__ == "__main__":
    main()

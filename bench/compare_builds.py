"""Two builds of hupai side by side, in one run: full hands per second and instructions per hand.

Each build is a Python that imports it (a virtualenv's ``bin/python``)::

    git worktree add /tmp/old dd06f93 && make -C /tmp/old install      # the old build, in its own .venv
    python bench/compare_builds.py /tmp/old/.venv/bin/python .venv/bin/python
    python bench/compare_builds.py OLD NEW --callgrind                  # also count instructions (valgrind)

Hands per second (``bench/hand_rates.py``, the same seeds for both) are measured in rounds that alternate the
builds, since a shared machine's speed changes from minute to minute: the report gives each build's best rate
and the range of the per-round ratios. ``--callgrind`` also counts the instructions a hand costs with valgrind's
callgrind, which the machine's load does not change: (count for N hands - count for 2 hands) / (N - 2), so that
start-up cancels out; ``PYTHONHASHSEED=0`` keeps set orders equal.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent

# Plays hands start..stop-1 of one rule system with one bot class, the way hand_rates does (an old build has no
# claim_window setting and plays "eligible" anyway).
_PLAY = """
import inspect, sys
import hupai
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play
name, bot, start, stop = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = hupai.rules.get(name)
extra = {"claim_window": "eligible"} if "claim_window" in inspect.signature(Game).parameters else {}
bots = [(RandomBot if bot == "RandomBot" else GreedyBot)(i) for i in range(rules.num_players)]
for seed in range(start, stop):
    play(Game(rules, seed=seed, dealer=seed % rules.num_players, **extra), bots)
"""

#: (rules, bot, hands counted) for --callgrind: enough hands that start-up noise (about 1 M) stays small.
CALLGRIND_WORKLOADS = [("guangdong", "RandomBot", 100), ("guangdong", "GreedyBot", 20),
                       ("yunxiao", "RandomBot", 50), ("yunxiao", "GreedyBot", 10)]


def _rates(python: str, hands: int) -> dict[str, float]:
    out = subprocess.run([python, str(HERE / "hand_rates.py"), "--hands", str(hands)], capture_output=True,
                         text=True, check=True).stdout
    rates = {}
    for line in out.splitlines():
        match = re.match(r"(\w+)\s+(\w+)\s+(\d+) hands/s", line)
        if match:
            rates[f"{match[1]} {match[2]}"] = float(match[3])
    return rates


def _instructions(python: str, name: str, bot: str, start: int, stop: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", _PLAY,
                           name, bot, str(start), str(stop)], capture_output=True, text=True, env=env, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr)[1])  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the Python of the build to compare against")
    parser.add_argument("new", help="the Python of the build under test")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of hand_rates (default 3)")
    parser.add_argument("--hands", type=int, default=60, help="hands per hand_rates round (GreedyBot: half)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions per hand (valgrind)")
    args = parser.parse_args()
    builds = {"old": args.old, "new": args.new}
    rates: dict[str, dict[str, list[float]]] = {build: defaultdict(list) for build in builds}
    for round_index in range(args.rounds):
        order = list(builds) if round_index % 2 == 0 else list(reversed(builds))
        for build in order:
            for workload, rate in _rates(builds[build], args.hands).items():
                rates[build][workload].append(rate)
            print(f"round {round_index + 1}/{args.rounds}: {build} done", file=sys.stderr, flush=True)
    print("hands/s (bench/hand_rates.py, best of each build; new/old per round)")
    for workload, new in rates["new"].items():
        old = rates["old"].get(workload)
        if not old:
            print(f"  {workload:22} new {max(new):7.0f}   (the old build does not play it)")
            continue
        ratios = [n / o for n, o in zip(new, old, strict=True)]
        print(f"  {workload:22} old {max(old):7.0f}  new {max(new):7.0f}  best/best {max(new) / max(old):5.2f}x"
              f"  per round {min(ratios):.2f}-{max(ratios):.2f}x")
    if args.callgrind:
        print("instructions per hand (callgrind, hands 98.. of each seed range)")
        for name, bot, hands in CALLGRIND_WORKLOADS:
            per_hand = {}
            for build, python in builds.items():
                base = _instructions(python, name, bot, 98, 100)
                full = _instructions(python, name, bot, 98, 100 + hands)
                per_hand[build] = (full - base) / hands
            change = per_hand["new"] / per_hand["old"] - 1
            print(f"  {name} {bot:10} old {per_hand['old'] / 1e6:6.3f} M  new {per_hand['new'] / 1e6:6.3f} M"
                  f"  ({change:+.1%})", flush=True)


if __name__ == "__main__":
    main()

"""Two builds of hupai side by side, in one run: full hands per second and instructions per hand.

Each build is a Python that imports it (a virtualenv's ``bin/python``)::

    git worktree add /tmp/old dd06f93 && make -C /tmp/old install      # the old build, in its own .venv
    python bench/compare_builds.py /tmp/old/.venv/bin/python .venv/bin/python
    python bench/compare_builds.py OLD NEW --callgrind                  # also count instructions (valgrind)
    python bench/compare_builds.py OLD NEW --ev --callgrind --only EVBot  # EVBot hands in every rule system
    python bench/compare_builds.py OLD NEW --core-only --pairs 120      # only the core's batch calls
    python bench/compare_builds.py OLD NEW --only waihuzi               # the workloads naming waihuzi
    python bench/compare_builds.py OLD NEW --logs-only                  # only: are the logs the same bytes?
    python bench/compare_builds.py OLD --record tests/fixtures/log_digests_606392f.json  # digests of OLD's logs

Wall clock: one worker process per build plays the same hands (the same seeds and bots, ``claim_window=
"eligible"``) of every workload (each rule system with RandomBot and GreedyBot), in short batches that alternate
old, new, new, old, ... A shared machine's speed changes from minute to minute, by up to 2x here; two batches
next to each other see nearly the same machine. The run is ``--rounds`` rounds (default 3), each playing
every workload in turn, so a workload is measured at several moments: the report gives each round's ratio
(new rate / old rate over the round's pairs), their range, the median of all per-pair ratios with their middle
half, and each build's overall rate; a workload slower in every round is flagged ``SLOWER``.

Logs: before timing, both builds play the first hands of every workload and compare the digests of their JSON
logs (``Game.to_json``), hand by hand: the same seeds and bots must give the same bytes. ``--record`` writes
those digests as the old build makes them, for tests/simulate/test_recorded_logs.py.

``--callgrind`` also counts the instructions a hand costs with valgrind's callgrind, which the machine's load
does not change: (count for N + 2 hands - count for 2 hands) / N, so that start-up cancels out;
``PYTHONHASHSEED=0`` keeps set orders equal.
"""

from __future__ import annotations

import argparse
import json
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
import hashlib, inspect, sys, time
import hupai
from hupai.bots import GreedyBot, RandomBot
from hupai.ev import EVBot
from hupai.game import Game, play
BOTS = {"RandomBot": RandomBot, "GreedyBot": GreedyBot, "EVBot": EVBot}
extra = {"claim_window": "eligible"} if "claim_window" in inspect.signature(Game).parameters else {}
def run(name, bot, start, stop, digests=None):
    rules = hupai.rules.get(name)
    bots = [BOTS[bot](start + i) for i in range(rules.num_players)]
    for seed in range(start, stop):
        game = Game(rules, seed=seed, dealer=seed % rules.num_players, **extra)
        play(game, bots)
        if digests is not None:
            digests.append(hashlib.sha256(game.to_json().encode()).hexdigest()[:16])
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
        if words[0] == "digests":
            found = []
            run(words[1], words[2], int(words[3]), int(words[4]), found)
            print(" ".join(found), flush=True)
            continue
        began = time.perf_counter()
        run(words[0], words[1], int(words[2]), int(words[3]))
        print(time.perf_counter() - began, flush=True)
"""

#: (rules, bot, hands per batch for the wall clock, hands counted by --callgrind): every rule system the
#: engine plays, with each bot; a batch is a few tens of milliseconds of the 606392f build's time.
WORKLOADS = [("guangdong", "RandomBot", 150, 100), ("guangdong", "GreedyBot", 50, 20),
             ("yunxiao", "RandomBot", 50, 50), ("yunxiao", "GreedyBot", 20, 10),
             ("kawuxing", "RandomBot", 100, 60), ("kawuxing", "GreedyBot", 60, 20),
             ("waihuzi", "RandomBot", 100, 60), ("waihuzi", "GreedyBot", 15, 6)]
#: With --ev: EVBot in every rule system too (slower hands, so fewer; not among the recorded log digests).
EV_WORKLOADS = [("guangdong", "EVBot", 15, 10), ("yunxiao", "EVBot", 8, 6), ("kawuxing", "EVBot", 15, 10),
                ("waihuzi", "EVBot", 10, 6)]

#: Hands of each workload whose logs are compared (and recorded by --record), from seed 0.
LOG_HANDS = 50


class _Worker:
    """A build's Python playing batches on request (started once: imports and table builds are not timed)."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen([python, "-c", f"BENCH = {str(HERE)!r}\n{_PLAY}"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def ask(self, *request: object) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(" ".join(map(str, request)) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"compare_builds: the worker failed on {request}")
        return answer

    def seconds(self, *request: object) -> float:
        """The seconds one request took: ``rules bot start stop`` (hands) or ``batch call forms rows``."""
        return float(self.ask(*request))

    def digests(self, name: str, bot: str, start: int, stop: int) -> list[str]:
        """The digests of the JSON logs of hands ``start..stop-1`` (the same bots as the timed batches)."""
        return self.ask("digests", name, bot, start, stop).split()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _wall_clock(old: str, new: str, pairs: int, rounds: int, workloads: list[tuple[str, str, int, int]]) -> None:
    workers = {"old": _Worker(old), "new": _Worker(new)}
    per_round = max(2, -(-pairs // rounds))
    ratios: dict[str, list[float]] = {}
    round_ratios: dict[str, list[float]] = {}
    totals: dict[str, dict[str, float]] = {}
    try:
        for name, bot, batch, _ in workloads:
            for worker in workers.values():  # warm up: the rules' tables and caches, the first hands
                worker.seconds(name, bot, 10_000, 10_000 + batch)
        for round_ in range(rounds):
            for name, bot, batch, _ in workloads:
                key = f"{name} {bot}"
                took_round = {"old": 0.0, "new": 0.0}
                for pair in range(per_round):
                    start = (round_ * per_round + pair) * batch  # other hands every pair and round
                    order = ("old", "new") if pair % 2 == 0 else ("new", "old")  # ABBA: a drift cancels
                    took = {build: workers[build].seconds(name, bot, start, start + batch) for build in order}
                    ratios.setdefault(key, []).append(took["old"] / took["new"])
                    for build in took:
                        took_round[build] += took[build]
                        totals.setdefault(key, {"old": 0.0, "new": 0.0})[build] += took[build]
                round_ratios.setdefault(key, []).append(took_round["old"] / took_round["new"])
            print(f"  round {round_ + 1}/{rounds}: " + ", ".join(f"{key} {values[-1]:.2f}x"
                                                                 for key, values in round_ratios.items()), flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    print(f"new/old, wall clock ({rounds} rounds of {per_round} pairs; range over the rounds):")
    for name, bot, batch, _ in workloads:
        key = f"{name} {bot}"
        pair_ratios, by_round = ratios[key], round_ratios[key]
        quartiles = statistics.quantiles(pair_ratios, n=4)
        hands = len(pair_ratios) * batch
        verdict = "  SLOWER" if max(by_round) < 1.0 else ""
        print(f"  {name:9} {bot:10} old {hands / totals[key]['old']:6.0f}  new {hands / totals[key]['new']:6.0f} "
              f"hands/s   rounds {min(by_round):.2f}-{max(by_round):.2f}x, per pair: median "
              f"{statistics.median(pair_ratios):.3f}x, middle half {quartiles[0]:.3f}-{quartiles[2]:.3f}x"
              f"{verdict}", flush=True)


def _same_logs(old: str, new: str, workloads: list[tuple[str, str, int, int]]) -> bool:
    """Both builds play the first LOG_HANDS hands of every workload: are their logs the same bytes?"""
    workers = {"old": _Worker(old), "new": _Worker(new)}
    same = True
    try:
        for name, bot, _, _ in workloads:
            got = {build: worker.digests(name, bot, 0, LOG_HANDS) for build, worker in workers.items()}
            differ = [i for i, (a, b) in enumerate(zip(got["old"], got["new"], strict=True)) if a != b]
            same = same and not differ
            print(f"  {name:9} {bot:10} {LOG_HANDS} hands: "
                  + (f"DIFFERENT logs from hand {differ[0]} ({len(differ)} hands)" if differ else "identical logs"),
                  flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    return same


def _record(python: str, path: str) -> None:
    """Write the digests of the logs ``python``'s build makes, for the recorded-logs test."""
    worker = _Worker(python)
    try:
        version, package = subprocess.run([python, "-c", "import hupai; print(hupai.__version__, hupai.__file__)"],
                                          capture_output=True, text=True, check=True).stdout.split()
        commit = subprocess.run(["git", "-C", os.path.dirname(package), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or "unknown commit"
        data = {"about": "sha256 (first 16 hex digits) of each hand's Game.to_json(), hands 0..N-1 of every "
                         "workload of bench/compare_builds.py (wall seed = hand index, dealer = index mod seats, "
                         "bot i seeded i, claim_window eligible); recorded by bench/compare_builds.py --record",
                "recorded_with": f"hupai {version} at {commit}",
                "workloads": {f"{name} {bot}": worker.digests(name, bot, 0, LOG_HANDS)
                              for name, bot, _, _ in WORKLOADS}}
    finally:
        worker.close()
    pathlib.Path(path).write_text(json.dumps(data, indent=1) + "\n")
    print(f"compare_builds: wrote {path}")


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
    parser.add_argument("new", nargs="?", help="the Python of the build under test")
    parser.add_argument("--pairs", type=int, default=30,
                        help="alternating batch pairs per workload, over all rounds (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every workload (default 3, at least 3 "
                                                              "for the ranges the README quotes)")
    parser.add_argument("--only", action="append", default=[], metavar="WORD",
                        help="only the workloads whose 'rules Bot' name contains WORD (repeatable)")
    parser.add_argument("--logs-only", action="store_true", help="only compare the builds' logs")
    parser.add_argument("--record", metavar="FILE", help="write the old build's log digests to FILE, and stop")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions per hand (valgrind)")
    parser.add_argument("--core", action="store_true", help="also compare the core's batch rates (1M rows)")
    parser.add_argument("--core-only", action="store_true", help="compare only the core's batch rates")
    parser.add_argument("--ev", action="store_true", help="also play every rule system with EVBot")
    args = parser.parse_args()
    if args.record:
        _record(args.old, args.record)
        return
    if args.new is None:
        parser.error("give the new build's Python (or --record FILE)")
    workloads = [w for w in WORKLOADS + (EV_WORKLOADS if args.ev else [])
                 if not args.only or any(word in f"{w[0]} {w[1]}" for word in args.only)]
    if not args.core_only:
        print(f"logs of the first {LOG_HANDS} hands, old and new build")
        same = _same_logs(args.old, args.new, workloads)
        if args.logs_only:
            raise SystemExit(0 if same else 1)
        print("hands/s, wall clock (the same hands by both builds, in alternating batches)")
        _wall_clock(args.old, args.new, args.pairs, args.rounds, workloads)
    if args.core or args.core_only:
        print("core batch rates, wall clock (1M rows a call, alternating calls)")
        _core_rates(args.old, args.new, max(4, args.pairs // 4))
    if args.callgrind and not args.core_only:
        print("instructions per hand (callgrind, hands 98.. of each seed range)")
        for name, bot, _, hands in workloads:
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

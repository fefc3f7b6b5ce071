"""Two builds side by side, in one run: observations and snapshots per second, at the same recorded states.

Each build is a Python that imports it (a virtualenv's ``bin/python``)::

    python bench/state_rates.py /tmp/old/.venv/bin/python .venv/bin/python
    python bench/state_rates.py OLD NEW --rounds 5 --only guangdong
    python bench/state_rates.py .venv/bin/python                      # one build: its rates alone

Both builds play the same seeded hands (RandomBot, ``claim_window="eligible"``) and stop each at a decision
chosen by the seed, so they hold the same states. Three measures, each over every state:

- ``observation``: ``Game.observation(seat)`` for the seat to act, every field read (an observation may defer
  some fields until they are read, so reading them is part of the cost);
- ``observation json``: the same observation written with ``to_json()``, the form a server sends;
- ``snapshot+restore``: ``Game.from_snapshot(game.snapshot())``, what a server does to park and resume a table.

Batches alternate old, new, new, old, ... (a shared machine's speed drifts; neighbouring batches see nearly the
same machine), and the report gives each build's rate in its best round, the per-round ratio range and median,
and the ratio of the two builds' best rounds. Before timing, both builds must produce the same observation JSON
at every state (a speed change must not change what a seat sees).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

#: How many states each rule system contributes, and the decisions played before each stops (seeded).
STATES = 60
SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")
MEASURES = ("observation", "observation json", "snapshot+restore")

_WORKER = """
import hashlib, inspect, sys, time
from dataclasses import fields
import hupai
from hupai.bots import RandomBot
from hupai.game import Game
extra = {"claim_window": "eligible"} if "claim_window" in inspect.signature(Game).parameters else {}
STATES = {}
def states(name, count):
    if name not in STATES:
        rules = hupai.rules.get(name)
        held = []
        for seed in range(count):
            game = Game(rules, seed=seed, dealer=seed % rules.num_players, **extra)
            bots = [RandomBot(seed * 10 + i) for i in range(rules.num_players)]
            stop = 1 + (seed * 37) % 60  # a decision early, mid or late in the hand
            for _ in range(stop):
                if game.over:
                    break
                seat = game.seats_to_act[0]
                game.apply(bots[seat].choose(game.legal_actions(seat)))
            if not game.over:
                held.append((game, game.seats_to_act[0]))
        STATES[name] = (rules, held)
    return STATES[name]
def observe(held):
    for game, seat in held:
        observation = game.observation(seat)
        for field in fields(observation):
            getattr(observation, field.name)
def as_json(held):
    for game, seat in held:
        game.observation(seat).to_json()
def park(rules, held):
    for game, _ in held:
        Game.from_snapshot(game.snapshot(), rules=rules)
for line in sys.stdin:
    measure, name, count, repeats = line.rsplit(maxsplit=3)
    rules, held = states(name, int(count))
    if measure == "digest":
        digest = hashlib.sha256("".join(game.observation(seat).to_json() for game, seat in held).encode())
        print(len(held), digest.hexdigest()[:16], flush=True)
        continue
    began = time.perf_counter()
    for _ in range(int(repeats)):
        if measure == "observation":
            observe(held)
        elif measure == "observation_json":
            as_json(held)
        else:
            park(rules, held)
    print(time.perf_counter() - began, flush=True)
"""

#: Repeats of each measure's pass over the states, so that a batch of the faster build takes a few tens of
#: milliseconds (shorter batches leave the ratio to a shared machine's noise).
REPEATS = {"observation": 200, "observation json": 10, "snapshot+restore": 20}


class _Worker:
    """One build's Python, asked for batches on its standard input (started once: imports are not timed)."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen([python, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def ask(self, measure: str, name: str, repeats: int) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{measure.replace(' ', '_')} {name} {STATES} {repeats}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"state_rates: the worker failed on {measure} {name}")
        return answer.strip()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", metavar="PYTHON", help="one or two builds' Pythons (old, new)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of alternating batches (1..50)")
    parser.add_argument("--only", default="", help="only the rule systems whose name contains this")
    args = parser.parse_args(argv)
    if len(args.builds) > 2 or not 1 <= args.rounds <= 50:
        parser.error("give one or two builds, and --rounds in 1..50")
    systems = [name for name in SYSTEMS if args.only in name]
    workers = [_Worker(python) for python in args.builds]
    try:
        held = {}
        for name in systems:
            answers = [worker.ask("digest", name, 0).split() for worker in workers]
            held[name] = int(answers[0][0])
            if len({tuple(answer) for answer in answers}) > 1:
                print(f"{name}: the builds' observations DIFFER at the same states ({answers})", flush=True)
                return 1
        if len(workers) == 2:
            print("observation JSON identical in both builds at every state", flush=True)
        for measure in MEASURES:
            for name in systems:
                taken: list[list[float]] = [[] for _ in workers]
                ratios = []
                for round_ in range(args.rounds):
                    order = list(range(len(workers)))
                    if round_ % 2:
                        order.reverse()
                    took = [0.0] * len(workers)
                    for index in order + order[::-1]:
                        took[index] += float(workers[index].ask(measure, name, REPEATS[measure]))
                    for index, seconds in enumerate(took):
                        taken[index].append(seconds)
                    if len(workers) == 2:
                        ratios.append(took[0] / took[1])
                calls = 2 * REPEATS[measure] * held[name]
                rates = "  ".join(f"{calls / min(seconds):9.0f}/s" for seconds in taken)
                # The best rounds' ratio too: a shared machine only ever slows a batch down, so each build's
                # fastest round is its steadiest figure.
                spread = (f"  new/old {min(ratios):.2f}-{max(ratios):.2f}x (median {statistics.median(ratios):.2f}x,"
                          f" best rounds {min(taken[0]) / min(taken[1]):.2f}x)" if ratios else "")
                print(f"{measure:17} {name:9} {held[name]:3} states  {rates}{spread}", flush=True)
    finally:
        for worker in workers:
            worker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

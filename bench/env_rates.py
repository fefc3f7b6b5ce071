"""Agent-environment throughput: random play through ``hupai.env.aec_env`` beside RiichiEnv's Python
environment (``riichienv.RiichiEnv`` with its ``RandomAgent``), alternated in one run.

    python bench/env_rates.py [--hands 200] [--rounds 3]

Each round plays ``hands`` hands of every workload, one after the other, in CPU time; the table gives each
workload's range over the rounds. A *step* is one call of the environment's ``step``; a *decision* is one seat's
action (RiichiEnv's ``step`` takes every active seat's action at once, so its steps and decisions differ). The
random choice is uniform over the action mask (hupai) or the legal actions (RiichiEnv).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import hupai.env
import numpy as np


def hupai_random(rules: str, hands: int, claim_window: str) -> tuple[int, int]:
    env = hupai.env.aec_env(rules, claim_window=claim_window)
    rng = np.random.default_rng(0)
    steps = 0
    for hand in range(hands):
        env.reset(seed=hand)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, steps


def riichienv_random(hands: int) -> tuple[int, int]:
    import riichienv
    from riichienv.agents import RandomAgent

    agent = RandomAgent()
    env = riichienv.RiichiEnv(seed=0)
    steps = decisions = 0
    for _ in range(hands):
        observations = env.reset()
        while not env.done():
            actions = {seat: agent.act(observation) for seat, observation in observations.items()}
            decisions += len(actions)
            steps += 1
            observations = env.step(actions)
    return steps, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    workloads: dict[str, Callable[[], tuple[int, int]]] = {}
    for rules in ("guangdong", "yunxiao", "kawuxing", "waihuzi"):
        for window in ("all", "eligible"):
            workloads[f"hupai aec_env {rules} ({window})"] = (
                lambda rules=rules, window=window: hupai_random(rules, args.hands, window))
    try:
        import riichienv  # noqa: F401
        workloads["RiichiEnv (riichi, Python env)"] = lambda: riichienv_random(args.hands)
    except ImportError:
        print("riichienv is not installed (make bench installs it): hupai only")
    rates: dict[str, list[tuple[float, float, float]]] = {name: [] for name in workloads}
    for _ in range(args.rounds):
        for name, run in workloads.items():
            start = time.process_time()
            steps, decisions = run()
            seconds = time.process_time() - start
            rates[name].append((args.hands / seconds, steps / seconds, decisions / seconds))
    print(f"{'workload':44} {'hands/s':>15} {'steps/s':>17} {'decisions/s':>17}")
    for name, runs in rates.items():
        cols = []
        for i in range(3):
            low, high = min(r[i] for r in runs), max(r[i] for r in runs)
            cols.append(f"{low:,.0f}-{high:,.0f}")
        print(f"{name:44} {cols[0]:>15} {cols[1]:>17} {cols[2]:>17}")


if __name__ == "__main__":
    main()

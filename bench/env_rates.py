"""Agent-environment throughput: random play through ``hupai.env.aec_env``, ``gym_env`` and ``vector_env(64)``
beside RiichiEnv's Python environment (``riichienv.RiichiEnv`` with its ``RandomAgent``), alternated in one run.

    python bench/env_rates.py [--hands 200] [--rounds 3] [--systems guangdong,yunxiao,kawuxing,waihuzi]

Each round plays ``hands`` hands of every workload, one after the other, in CPU time; the table gives each
workload's range over the rounds. A *step* is one call of the environment's ``step``; a *decision* is one seat's
action (RiichiEnv's ``step`` takes every active seat's action at once, so its steps and decisions differ). For
``gym_env`` and ``vector_env`` a step is one learner decision per table (RandomBot opponents, claim window
"eligible", their defaults), and ``hands`` is the number of learner decisions. The random choice is uniform over
the action mask (hupai) or the legal actions (RiichiEnv). The last lines give the ratios the targets name.
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


def uniform_choice(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row, uniform over the row's legal indices."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def hupai_gym(rules: str, decisions: int) -> tuple[int, int]:
    env = hupai.env.gym_env(rules, opponents="random")
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=0)
    for _ in range(decisions):
        action = int(uniform_choice(observation["action_mask"][None], rng)[0])
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            observation, _ = env.reset()
    return decisions, decisions


def hupai_vector(rules: str, decisions: int, tables: int = 64) -> tuple[int, int]:
    env = hupai.env.vector_env(rules, tables, opponents="random")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = max(1, decisions // tables)
    for _ in range(steps):
        env.step(uniform_choice(env.action_masks(), rng))
    return steps, steps * tables


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
    parser.add_argument("--systems", default="guangdong,yunxiao,kawuxing,waihuzi")
    parser.add_argument("--decisions", type=int, default=6400, help="learner decisions of gym_env and vector_env")
    args = parser.parse_args()
    systems = args.systems.split(",")
    workloads: dict[str, Callable[[], tuple[int, int]]] = {}
    for rules in systems:
        for window in ("all", "eligible"):
            workloads[f"hupai aec_env {rules} ({window})"] = (
                lambda rules=rules, window=window: hupai_random(rules, args.hands, window))
        workloads[f"hupai gym_env {rules}"] = lambda rules=rules: hupai_gym(rules, args.decisions)
        workloads[f"hupai vector_env(64) {rules}"] = lambda rules=rules: hupai_vector(rules, args.decisions)
    riichi = "RiichiEnv (riichi, Python env)"
    try:
        import riichienv  # noqa: F401
        workloads[riichi] = lambda: riichienv_random(args.hands)
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
        if " gym_env " in name or " vector_env" in name:
            cols[0] = "-"
        print(f"{name:44} {cols[0]:>15} {cols[1]:>17} {cols[2]:>17}")

    def best(name: str) -> float:  # decisions/s of the best round
        return max(r[2] for r in rates[name])

    print("\nratios (best rounds; decisions/s, vector_env: learner steps/s over all tables):")
    for rules in systems:
        parts = []
        if riichi in rates:
            reference = best(riichi)
            parts += [f"aec_env (eligible) / RiichiEnv {best(f'hupai aec_env {rules} (eligible)') / reference:.2f}x",
                      f"gym_env / RiichiEnv {best(f'hupai gym_env {rules}') / reference:.2f}x",
                      f"vector_env(64) / RiichiEnv {best(f'hupai vector_env(64) {rules}') / reference:.2f}x"]
        vector, single = best(f"hupai vector_env(64) {rules}"), best(f"hupai gym_env {rules}")
        parts.append(f"vector_env(64) / gym_env {vector / single:.2f}x")
        print(f"  {rules:10} " + ", ".join(parts))


if __name__ == "__main__":
    main()

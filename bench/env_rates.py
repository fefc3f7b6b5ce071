"""Agent-environment throughput: random play through ``hupai.env.aec_env``, ``gym_env`` and ``vector_env(64)``
beside RiichiEnv's Python environment (``riichienv.RiichiEnv`` with its ``RandomAgent``), alternated in one run.

    python bench/env_rates.py [--hands 200] [--rounds 3] [--systems guangdong,yunxiao,kawuxing,waihuzi]

Each round plays ``hands`` hands of every workload, one after the other, in CPU time; the table gives each
workload's range over the rounds. A *step* is one call of the environment's ``step``; a *decision* is one seat's
action (RiichiEnv's ``step`` takes every active seat's action at once, so its steps and decisions differ). For
``gym_env`` and ``vector_env`` a step is one learner decision per table (RandomBot opponents, claim window
"eligible", their defaults), and ``hands`` is the number of learner decisions. The random choice is uniform over
the action mask (hupai) or the legal actions (RiichiEnv), by Python's ``random.choice`` as RiichiEnv's
``RandomAgent`` makes it (``--choice numpy``: numpy's ``Generator.choice`` over the mask's indices, as this
script chose before; it costs about as much as a whole RiichiEnv decision, so it measures numpy more than
the environment); ``vector_env`` chooses for every table at once (an argmax of random numbers over the masks).
The last lines give the ratios the targets name.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import hupai.env
import numpy as np

#: How the aec and gym workloads pick a legal index: "python" (random.choice, as RiichiEnv's RandomAgent) or
#: "numpy" (Generator.choice).
CHOICE = "python"


def chooser(seed: int) -> Callable[[np.ndarray], int]:
    """A uniform choice among a mask's legal indices."""
    if CHOICE == "numpy":
        rng = np.random.default_rng(seed)
        return lambda mask: int(rng.choice(np.flatnonzero(mask)))
    choose = random.Random(seed).choice
    return lambda mask: choose(np.flatnonzero(mask).tolist())  # type: ignore[no-any-return]


def hupai_random(rules: str, hands: int, claim_window: str) -> tuple[int, int]:
    env = hupai.env.aec_env(rules, claim_window=claim_window)
    choose = chooser(0)
    steps = 0
    for hand in range(hands):
        env.reset(seed=hand)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choose(observation["action_mask"]))
            steps += 1
    return steps, steps


def uniform_choice(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row, uniform over the row's legal indices."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def hupai_gym(rules: str, decisions: int) -> tuple[int, int]:
    env = hupai.env.gym_env(rules, opponents="random")
    choose = chooser(0)
    observation, _ = env.reset(seed=0)
    for _ in range(decisions):
        observation, _, terminated, truncated, _ = env.step(choose(observation["action_mask"]))
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
    parser.add_argument("--choice", choices=("python", "numpy"), default="python",
                        help="how aec_env and gym_env workloads pick a legal index (see the module docstring)")
    parser.add_argument("--workloads", default="aec,gym,vector,riichi",
                        help="which workloads to run (aec: the eligible window; aec-all: the all window too)")
    args = parser.parse_args()
    global CHOICE
    CHOICE = args.choice
    wanted = set(args.workloads.split(","))
    systems = args.systems.split(",")
    workloads: dict[str, Callable[[], tuple[int, int]]] = {}
    for rules in systems:
        for window in ("all", "eligible"):
            if "aec" in wanted and (window == "eligible" or "aec-all" in wanted):
                workloads[f"hupai aec_env {rules} ({window})"] = (
                    lambda rules=rules, window=window: hupai_random(rules, args.hands, window))
        if "gym" in wanted:
            workloads[f"hupai gym_env {rules}"] = lambda rules=rules: hupai_gym(rules, args.decisions)
        if "vector" in wanted:
            workloads[f"hupai vector_env(64) {rules}"] = lambda rules=rules: hupai_vector(rules, args.decisions)
    riichi = "RiichiEnv (riichi, Python env)"
    try:
        import riichienv  # noqa: F401
        if "riichi" in wanted:
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
        aec, gym, vector = (f"hupai aec_env {rules} (eligible)", f"hupai gym_env {rules}",
                            f"hupai vector_env(64) {rules}")
        if riichi in rates:
            reference = best(riichi)
            parts += [f"{label} / RiichiEnv {best(name) / reference:.2f}x"
                      for label, name in (("aec_env (eligible)", aec), ("gym_env", gym), ("vector_env(64)", vector))
                      if name in rates]
        if vector in rates and gym in rates:
            parts.append(f"vector_env(64) / gym_env {best(vector) / best(gym):.2f}x")
        print(f"  {rules:10} " + ", ".join(parts))


if __name__ == "__main__":
    main()

"""A digest of every array ``aec_env`` hands out, at every decision of seeded hands (random legal choices), to hold
two builds' features byte-equal: run it with each build's Python and compare the lines.

    python bench/env_digests.py [--hands 150] [--window eligible] [--systems guangdong,yunxiao,kawuxing,waihuzi]
    python bench/env_digests.py --run --hands 45     # play only (no digest): the workload callgrind counts
    python bench/env_digests.py --form gym           # gym_env's learner arrays (random opponents), or
    python bench/env_digests.py --form vector        # vector_env(8)'s stacked arrays (--hands: decisions / 20)

Each line gives the system, the decisions played and the SHA-256 of every decision's arrays (key, bytes, dtype)
and rewards, in order. Instructions per decision: ``valgrind --tool=callgrind`` of ``--run --hands 45`` less
``--run --hands 5``, divided by the difference in decisions (PYTHONHASHSEED=0, OPENBLAS_NUM_THREADS=1).
"""

from __future__ import annotations

import argparse
import hashlib
import random

import hupai.env
import numpy as np


def play(rules: str, hands: int, window: str, digest: bool) -> tuple[int, str]:
    env = hupai.env.aec_env(rules, claim_window=window)
    choose = random.Random(0).choice
    sha = hashlib.sha256()
    decisions = 0
    for hand in range(hands):
        env.reset(seed=hand)
        for _ in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if digest:
                for key in sorted(observation):
                    sha.update(key.encode())
                    sha.update(observation[key].tobytes())
                    sha.update(str(observation[key].dtype).encode())
                sha.update(repr(reward).encode())
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choose(np.flatnonzero(observation["action_mask"]).tolist()))
            decisions += 1
    return decisions, sha.hexdigest() if digest else ""


def play_gym(rules: str, hands: int, form: str) -> tuple[int, str]:
    """The digest of every array ``gym_env`` (or ``vector_env(8)``) hands out over ``20 * hands`` learner
    decisions (a step of every table for the vector form), random legal choices, random opponents."""
    sha = hashlib.sha256()
    rng = np.random.default_rng(0)
    steps = 20 * hands
    if form == "gym":
        env = hupai.env.gym_env(rules, opponents="random")
        observation, _ = env.reset(seed=0)
        for _ in range(steps):
            for key in sorted(observation):
                sha.update(key.encode() + observation[key].tobytes() + str(observation[key].dtype).encode())
            observation, reward, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            sha.update(repr(reward).encode())
            if terminated or truncated:
                observation, _ = env.reset()
        return steps, sha.hexdigest()
    vector = hupai.env.vector_env(rules, 8, opponents="random")
    observations, _ = vector.reset(seed=0)
    for _ in range(steps // 8):
        for key in sorted(observations):
            sha.update(key.encode() + observations[key].tobytes() + str(observations[key].dtype).encode())
        masks = vector.action_masks()
        observations, rewards, _, _, _ = vector.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        sha.update(rewards.tobytes())
    return steps // 8 * 8, sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--window", default="eligible", choices=("eligible", "all"))
    parser.add_argument("--systems", default="guangdong,yunxiao,kawuxing,waihuzi")
    parser.add_argument("--run", action="store_true", help="play only, no digest")
    parser.add_argument("--form", default="aec", choices=("aec", "gym", "vector"))
    args = parser.parse_args()
    for rules in args.systems.split(","):
        decisions, digest = (play(rules, args.hands, args.window, not args.run) if args.form == "aec"
                             else play_gym(rules, args.hands, args.form))
        print(rules, decisions, digest, flush=True)


if __name__ == "__main__":
    main()

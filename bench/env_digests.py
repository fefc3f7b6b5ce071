"""A digest of every array ``aec_env`` hands out, at every decision of seeded hands (random legal choices), to hold
two builds' features byte-equal: run it with each build's Python and compare the lines.

    python bench/env_digests.py [--hands 150] [--window eligible] [--systems guangdong,yunxiao,kawuxing,waihuzi]
    python bench/env_digests.py --run --hands 45     # play only (no digest): the workload callgrind counts

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--window", default="eligible", choices=("eligible", "all"))
    parser.add_argument("--systems", default="guangdong,yunxiao,kawuxing,waihuzi")
    parser.add_argument("--run", action="store_true", help="play only, no digest")
    args = parser.parse_args()
    for rules in args.systems.split(","):
        decisions, digest = play(rules, args.hands, args.window, not args.run)
        print(rules, decisions, digest, flush=True)


if __name__ == "__main__":
    main()

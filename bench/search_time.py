"""CPU time a SearchBot spends per searched decision (one with two or more candidates), against EVBots.

    python bench/search_time.py [--rules guangdong] [--hands 6] [--worlds uniform|weighted] [--candidates 64]
                                [--rollouts 16]

It plays ``hands`` hands (seed 300 + hand, the dealer rotating) with a SearchBot at seat 0 and EVBots at the
others, and times every decision the search played out (EVBot's prior included) with ``time.process_time``:
CPU time, so a busy machine slows it less than it would a wall clock.
"""

from __future__ import annotations

import argparse
import time

import hupai
from hupai.ev import EVBot
from hupai.game import Game
from hupai.search import WORLDS, SearchBot


def spent(rules: str, hands: int, worlds: str, candidates: int, rollouts: int) -> list[float]:
    """Seconds of CPU per searched decision, sorted."""
    n = hupai.rules.get(rules).num_players
    times = []
    for hand in range(hands):
        game = Game(rules, seed=300 + hand, dealer=hand % n, claim_window="eligible")
        searcher = SearchBot(hand, rollouts=rollouts, worlds=worlds, candidates=candidates)
        others = [EVBot(hand * 10 + seat) for seat in range(n)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            if seat or len(observation.legal_actions) < 2:
                game.apply(others[seat].act(observation))
                continue
            searcher.last = ((), 0, 0.0)
            began = time.process_time()
            action = searcher.act(observation)
            seconds = time.process_time() - began
            if len(searcher.last[0]) > 1:
                times.append(seconds)
            game.apply(action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="guangdong")
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--worlds", choices=WORLDS, default="uniform")
    parser.add_argument("--candidates", type=int, default=64)
    parser.add_argument("--rollouts", type=int, default=16)
    args = parser.parse_args()
    times = spent(args.rules, args.hands, args.worlds, args.candidates, args.rollouts)
    print(f"{args.rules} search:{args.rollouts} worlds {args.worlds}: {len(times)} searched decisions, "
          f"mean {1000 * sum(times) / len(times):.1f} ms, 90th percentile {1000 * times[int(0.9 * len(times))]:.1f} ms")


if __name__ == "__main__":
    main()

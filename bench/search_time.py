"""CPU time a SearchBot spends per searched decision (one with two or more candidates), against EVBots.

    python bench/search_time.py [--rules guangdong] [--hands 6] [--worlds uniform|weighted|matched|waiting]
                                [--candidates 64] [--rollouts 16] [--spec search:48:worlds=weighted:top_k=2]

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
from hupai.simulate.chunk import bot_factory


def spent(rules: str, hands: int, worlds: str, candidates: int, rollouts: int, spec: str | None = None) -> list[float]:
    """Seconds of CPU per searched decision, sorted. ``spec``: a registry name (``search:48:top_k=2``) instead
    of ``worlds``, ``candidates`` and ``rollouts``."""
    n = hupai.rules.get(rules).num_players
    times = []
    for hand in range(hands):
        game = Game(rules, seed=300 + hand, dealer=hand % n, claim_window="eligible")
        searcher = (SearchBot(hand, rollouts=rollouts, worlds=worlds, candidates=candidates) if spec is None
                    else bot_factory(spec)(hand))
        assert isinstance(searcher, SearchBot)
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
    parser.add_argument("--spec", default=None, help="a search by registry name, e.g. search:48:worlds=weighted")
    args = parser.parse_args()
    times = spent(args.rules, args.hands, args.worlds, args.candidates, args.rollouts, args.spec)
    name = args.spec or f"search:{args.rollouts} worlds {args.worlds}"
    print(f"{args.rules} {name}: {len(times)} searched decisions, "
          f"mean {1000 * sum(times) / len(times):.1f} ms, 90th percentile {1000 * times[int(0.9 * len(times))]:.1f} ms")


if __name__ == "__main__":
    main()

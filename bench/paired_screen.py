"""A paired screen of a change to a bot: the change and the bot it changes, on the same deals, against the same
opponents.

    python bench/paired_screen.py --rules waihuzi --base ev --variant mymodule:MyEVBot [--against greedy]
                                  [--deals 2000] [--seed 5]

A rotated tournament (``hupai simulate --bots ev,greedy,greedy --rotate``) measures a bot's whole result, and in
Wai Huzi a handful of 火火翻 hands in three thousand deals decide its interval. A change to a bot touches few
decisions. This screen plays every deal (``hand_seed(seed, i)``, dealer ``i % seats``, as ``simulate`` deals
them) once per seat with ``--base`` in that seat and ``--against`` elsewhere, then again with ``--variant`` in
that seat, and gives the mean difference in that seat's payment per seat-hand with its 95% interval over deals:
where the two bots make the same choices the hands are the same and the difference is zero, so the interval
reflects only the hands the change touched. A bot is a registry name (``ev``, ``greedy``, ``search:8``) or
``module:Class`` (a class taking a seed). Decide a change on seeds you then do not use to confirm it.

``--cap N`` also gives the difference with every win's score capped at N a loser (the winner then takes twice
that, WH-42): in Wai Huzi a few deals of thousands of points decide the plain difference, and the capped one
shows whether the change gains in the other deals too.
"""

from __future__ import annotations

import argparse
import importlib
import math
import time
from collections.abc import Callable
from typing import Any

import hupai
from hupai.game import Game, play
from hupai.game.state.wall import hand_seed
from hupai.simulate.chunk import BOTS, bot_factory


def factory(name: str) -> Callable[[int], Any]:
    """A registry bot, or ``module:Class`` (a module on the path, e.g. a file beside this one)."""
    module, _, attribute = name.partition(":")
    if attribute and module not in BOTS:  # search:8 and search:16:margin=1.5 are registry names
        found: Callable[[int], Any] = getattr(importlib.import_module(module), attribute)
        return found
    return bot_factory(name)


def capped(result: Any, seat: int, cap: int) -> float:
    """The seat's payment with each win's score capped at ``cap`` a loser (every loser pays the winner, WH-42)."""
    paid = 0.0
    for win in result.wins:
        value = min(win.score.value, cap)
        paid += value * (len(result.payments) - 1) if win.seat == seat else -value
    return paid


def _interval(differences: list[float]) -> tuple[float, float]:
    deals = len(differences)
    mean = sum(differences) / deals
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in differences) / (deals - 1) / deals) if deals > 1 else math.inf
    return mean, half


def screen(rules: str, base: str, variant: str, against: str, deals: int, seed: int, cap: int | None = None) -> None:
    seats = hupai.rules.get(rules).num_players
    makers = (factory(base), factory(variant))
    opponent = factory(against)
    differences: list[float] = []
    capped_differences: list[float] = []
    totals = [0.0, 0.0]
    changed = 0
    began = time.process_time()
    for deal in range(deals):
        difference = capped_difference = 0.0
        for seat in range(seats):
            paid = []
            results = []
            for which, make in enumerate(makers):
                game = Game(rules, seed=hand_seed(seed, deal), dealer=deal % seats, claim_window="eligible")
                bots = [make(deal * 10 + s) if s == seat else opponent(deal * 10 + s) for s in range(seats)]
                result = play(game, bots)
                results.append(result)
                paid.append(float(result.payments[seat]))
                totals[which] += result.payments[seat]
            difference += paid[1] - paid[0]
            changed += paid[1] != paid[0]
            if cap is not None:
                capped_difference += capped(results[1], seat, cap) - capped(results[0], seat, cap)
        differences.append(difference / seats)
        capped_differences.append(capped_difference / seats)
    mean, half = _interval(differences)
    seat_hands = deals * seats
    print(f"{rules}, seed {seed}, {deals} deals x {seats} seats against {against}: "
          f"{variant} - {base} = {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] a seat-hand "
          f"({base} {totals[0] / seat_hands:+.3f}, {variant} {totals[1] / seat_hands:+.3f}; "
          f"{changed} of {seat_hands} seat-hands paid differently; {time.process_time() - began:.0f} s CPU)")
    if cap is not None:
        mean, half = _interval(capped_differences)
        print(f"  with every win capped at {cap} a loser: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="waihuzi")
    parser.add_argument("--base", default="ev")
    parser.add_argument("--variant", required=True)
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--cap", type=int, default=None, metavar="N",
                        help="also the difference with every win's score capped at N a loser")
    args = parser.parse_args(argv)
    if not 2 <= args.deals <= 1_000_000:
        parser.error(f"--deals must be from 2 to 1000000 (an interval needs two deals), got {args.deals}")
    if not 0 <= args.seed < 2**63:
        parser.error(f"--seed must be from 0 to 2**63 - 1, got {args.seed}")
    if args.cap is not None and args.cap < 1:
        parser.error(f"--cap must be at least 1, got {args.cap}")
    screen(args.rules, args.base, args.variant, args.against, args.deals, args.seed, args.cap)


if __name__ == "__main__":
    main()

"""What SearchBot's departures from EVBot are worth, measured on the true deal.

    python bench/search_audit.py [--rules guangdong] [--games 40] [--rollouts 16] [--top-k 3]
                                 [--rollout greedy|ev] [--seed 1000] [--worlds uniform|weighted|matched|waiting]
                                 [--candidates 64] [--compare [--true-seeds 2]]
    python bench/search_audit.py --specs SPEC [SPEC ...] [--rules R] [--games 40] [--seed 1000]
                                 [--true-seeds 2] [--kind-margin 1.5] [--danger 16]

A tournament of ``search`` against ``ev`` measures the whole bot, and most of its decisions are EVBot's own (it
keeps its prior's choice unless a candidate beats it by ``margin`` standard errors): thousands of deals resolve
a difference of a few hundredths of a point. This audit looks only at the decisions where the two differ. It
plays hands with EVBot at every seat; at each decision with more than one legal action it runs the search
(candidates, sampled worlds, rollouts, as :class:`hupai.search.SearchBot` does) and notes the best candidate
other than EVBot's choice and how many standard errors of the paired differences it leads by (``z``). Then it
plays that candidate and EVBot's choice on two copies of the *true* game (the real hidden tiles and wall) to
the end, every seat by EVBot with the same seeds for both, and records the difference in the seat's payment.
The table gives, for a margin m, the departures with z > m, their mean worth on the true deal with its 95%
interval, and their total per seat-hand: what a SearchBot with that margin would gain or lose on EVBot (a
first-order estimate: after a departure the hand differs, and later decisions are not audited on it).

``--danger N`` asks why a turn's discard departures win or lose: for each one (lead above ``--kind-margin``) it
deals N worlds as the search does and counts the worlds in which another seat could win on the discarded tile at
once, for the departure's tile and for EVBot's, and whether the true deal lets someone win on each. Worlds that
name a tile safe which the true deal shows dangerous more often for the search's tiles than for EVBot's are worlds
that underrate the other seats' hands.
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import time

import hupai
from hupai.actions import Action
from hupai.ev import EVBot
from hupai.game import Game, play
from hupai.observation import Observation
from hupai.search import WORLDS, SearchBot
from hupai.worlds import fork, sample

MARGINS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
#: a turn's discard departure under ``--danger``: the share of worlds in which another seat could win on the
#: departure's tile and on EVBot's, whether it could on the true deal for each, its worth, its stage
Danger = tuple[float, float, bool, bool, float, str]


def worth_on_true_deal(game: Game, seat: int, action: Action, seeds: tuple[int, ...] = (1, 2)) -> float:
    """The seat's mean payment when ``action`` is played on a copy of the true game and EVBots play on."""
    paid = 0
    for seed in seeds:
        copy = fork(game)
        copy.apply(action)
        result = copy.result if copy.over else play(copy, [EVBot(seed * 7 + s) for s in range(copy.rules.num_players)])
        assert result is not None
        paid += result.payments[seat]
    return paid / len(seeds)


def wins_on(game: Game, action: Action) -> bool:
    """Whether another seat could win on ``action``'s discarded tile at once in ``game`` (a copy is played)."""
    copy = fork(game)
    copy.apply(action)
    if copy.over:
        return bool(copy.result is not None and copy.result.wins)
    return any(a.kind == "win" for other in copy.seats_to_act for a in copy.legal_actions(other))


def danger(searcher: SearchBot, game: Game, observation: Observation, actions: tuple[Action, Action], worlds: int,
           seed: int) -> tuple[float, float, bool, bool]:
    """For two discards: the share of ``worlds`` worlds dealt as ``searcher`` deals them (uniform or weighted) in
    which another seat could win on each tile at once, and whether it could on the true deal."""
    rng = random.Random(seed)
    found = [0, 0]
    for _ in range(worlds):
        world = sample(observation, rng, weights=searcher._weights)
        for i, action in enumerate(actions):
            found[i] += wins_on(world, action)
    return found[0] / worlds, found[1] / worlds, wins_on(game, actions[0]), wins_on(game, actions[1])


def audit(rules: str, games: int, rollouts: int, top_k: int, rollout: str | None, seed: int,
          worlds: str = "uniform", hands_dealt: int = 64) -> None:
    n = hupai.rules.get(rules).num_players
    departures: list[tuple[str, float, float]] = []  # (decision kind, z, worth on the true deal)
    searched = 0
    began = time.process_time()
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(index * 10 + s) for s in range(n)]
        searcher = SearchBot(index, rollouts=rollouts, top_k=top_k, rollout=rollout, worlds=worlds,
                             candidates=hands_dealt)
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            chosen = bots[seat].act(observation)
            candidates = searcher._candidates(observation, chosen) if len(observation.legal_actions) > 1 else []
            if len(candidates) > 1:
                searched += 1
                decision_seed = random.Random(index * 100_003 + len(game.actions)).getrandbits(64)
                totals, played = searcher._search(observation, candidates, decision_seed,
                                                  max(1, rollouts // len(candidates)), None)
                if played >= 2:
                    means = [sum(paid) / played for paid in totals]
                    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
                    if best:
                        differences = [b - a for a, b in zip(totals[0], totals[best], strict=True)]
                        mean = sum(differences) / played
                        error = math.sqrt(sum((d - mean) ** 2 for d in differences) / (played - 1) / played)
                        z = mean / error if error > 0 else (math.inf if mean > 0 else 0.0)
                        worth = (worth_on_true_deal(game, seat, candidates[best])
                                 - worth_on_true_deal(game, seat, chosen))
                        kind = f"{observation.phase}: {chosen.kind} -> {candidates[best].kind}"
                        departures.append((kind, z, worth))
            game.apply(chosen)
    seat_hands = games * n
    print(f"{rules}: {games} hands (seed {seed}), search:{rollouts} top_k {top_k} rollout {rollout or 'default'} "
          f"worlds {worlds}{f' ({hands_dealt} candidates)' if worlds == 'weighted' else ''}; "
          f"{searched} searched decisions, {time.process_time() - began:.0f} s CPU")
    print(f"  {'margin':>6} {'departures':>10} {'worth each (95% CI)':>24} {'per seat-hand':>14}")
    for margin in MARGINS:
        worths = [worth for _, z, worth in departures if z > margin]
        if len(worths) < 2:
            print(f"  {margin:>6.1f} {len(worths):>10}")
            continue
        mean = sum(worths) / len(worths)
        half = 1.96 * math.sqrt(sum((w - mean) ** 2 for w in worths) / (len(worths) - 1) / len(worths))
        print(f"  {margin:>6.1f} {len(worths):>10} {mean:>+9.3f} [{mean - half:+.3f}, {mean + half:+.3f}] "
              f"{sum(worths) / seat_hands:>+14.4f}")
    kinds: dict[str, list[float]] = collections.defaultdict(list)
    for kind, z, worth in departures:
        if z > 1.0:
            kinds[kind].append(worth)
    print("  departures with z > 1 by decision:")
    for kind, worths in sorted(kinds.items(), key=lambda item: -len(item[1])):
        print(f"    {kind:28} {len(worths):>5}  worth each {sum(worths) / len(worths):+.3f}")


def _lead(searcher: SearchBot, observation: Observation, candidates: list[Action], decision_seed: int,
          rollouts: int) -> tuple[int, float]:
    """The search's best candidate other than the prior's (index 0 when none is better) and its lead in standard
    errors of the paired differences."""
    totals, played = searcher._search(observation, candidates, decision_seed, max(1, rollouts // len(candidates)),
                                      None)
    if played < 2:
        return 0, 0.0
    means = [sum(paid) / played for paid in totals]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    if not best:
        return 0, 0.0
    differences = [b - a for a, b in zip(totals[0], totals[best], strict=True)]
    mean = sum(differences) / played
    error = math.sqrt(sum((d - mean) ** 2 for d in differences) / (played - 1) / played)
    return best, mean / error if error > 0 else (math.inf if mean > 0 else 0.0)


def compare(rules: str, games: int, rollouts: int, top_k: int, rollout: str | None, seed: int,
            hands_dealt: int, true_seeds: int) -> None:
    """Uniform and weighted worlds on the same decisions: for each margin, what each search's departures are worth
    on the true deal per seat-hand, and the paired difference (weighted - uniform) with its 95% interval over
    hands."""
    n = hupai.rules.get(rules).num_players
    seeds = tuple(range(1, true_seeds + 1))
    gains: dict[str, list[list[float]]] = {w: [[0.0] * len(MARGINS) for _ in range(games)] for w in WORLDS}
    counts: dict[str, list[int]] = {w: [0] * len(MARGINS) for w in WORLDS}
    searched = 0
    began = time.process_time()
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(index * 10 + s) for s in range(n)]
        searchers = {w: SearchBot(index, rollouts=rollouts, top_k=top_k, rollout=rollout, worlds=w,
                                  candidates=hands_dealt) for w in WORLDS}
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            chosen = bots[seat].act(observation)
            candidates = (searchers["uniform"]._candidates(observation, chosen)
                          if len(observation.legal_actions) > 1 else [])
            if len(candidates) > 1:
                searched += 1
                decision_seed = random.Random(index * 100_003 + len(game.actions)).getrandbits(64)
                worth: dict[int, float] = {}
                for w, searcher in searchers.items():
                    best, z = _lead(searcher, observation, candidates, decision_seed, rollouts)
                    if not best:
                        continue
                    for i, margin in enumerate(MARGINS):
                        if z > margin:
                            if best not in worth:
                                worth[best] = (worth_on_true_deal(game, seat, candidates[best], seeds)
                                               - worth_on_true_deal(game, seat, chosen, seeds))
                            gains[w][index][i] += worth[best]
                            counts[w][i] += 1
            game.apply(chosen)
    print(f"{rules}: {games} hands (seed {seed}), search:{rollouts} top_k {top_k} rollout {rollout or 'default'}, "
          f"uniform against weighted worlds ({hands_dealt} candidates); {searched} searched decisions, "
          f"{true_seeds} true-deal rollouts an action, {time.process_time() - began:.0f} s CPU")
    print("  per seat-hand, with 95% intervals over hands:")
    print(f"  {'margin':>6} {'departures u/w':>15} {'uniform':>26} {'weighted':>26} {'weighted - uniform':>26}")
    for i, margin in enumerate(MARGINS):
        per_hand = {w: [gains[w][h][i] / n for h in range(games)] for w in WORLDS}
        diff = [b - a for a, b in zip(per_hand["uniform"], per_hand["weighted"], strict=True)]
        print(f"  {margin:>6.1f} {counts['uniform'][i]:>7}/{counts['weighted'][i]:<7} "
              f"{_interval(per_hand['uniform']):>26} {_interval(per_hand['weighted']):>26} {_interval(diff):>26}")


def compare_specs(rules: str, games: int, specs: list[str], seed: int, true_seeds: int, kind_margin: float,
                  danger_worlds: int = 0) -> None:
    """Several searches (registry names, e.g. ``search:48:worlds=weighted:top_k=2``) on the same decisions of the
    same EVBot hands, each decision's worlds drawn from the same seed: for each margin, what each search's
    departures are worth on the true deal per seat-hand, and the paired difference from the first search with
    its 95% interval over hands; then, at ``kind_margin``, each search's departures by kind of decision."""
    from hupai.simulate.chunk import bot_factory

    n = hupai.rules.get(rules).num_players
    seeds = tuple(range(1, true_seeds + 1))
    gains = [[[0.0] * len(MARGINS) for _ in range(games)] for _ in specs]
    counts = [[0] * len(MARGINS) for _ in specs]
    kinds: list[dict[str, list[float]]] = [collections.defaultdict(list) for _ in specs]
    #: per search, for each turn's discard departure: (world danger of its tile, of EVBot's, true danger of each)
    dangers: list[list[Danger]] = [[] for _ in specs]
    searched = [0] * len(specs)
    factories = [bot_factory(spec) for spec in specs]
    began = time.process_time()
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(index * 10 + s) for s in range(n)]
        searchers: list[SearchBot] = [factory(index) for factory in factories]  # type: ignore[misc]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            chosen = bots[seat].act(observation)
            if len(observation.legal_actions) > 1:
                decision_seed = random.Random(index * 100_003 + len(game.actions)).getrandbits(64)
                worth: dict[Action, float] = {}
                for k, searcher in enumerate(searchers):
                    candidates = searcher._candidates(observation, chosen)
                    if len(candidates) < 2:
                        continue
                    searched[k] += 1
                    assert searcher.rollouts is not None
                    best, z = _lead(searcher, observation, candidates, decision_seed, searcher.rollouts)
                    if not best or z <= MARGINS[0]:
                        continue
                    action = candidates[best]
                    if action not in worth:
                        worth[action] = (worth_on_true_deal(game, seat, action, seeds)
                                         - worth_on_true_deal(game, seat, chosen, seeds))
                    for i, margin in enumerate(MARGINS):
                        if z > margin:
                            gains[k][index][i] += worth[action]
                            counts[k][i] += 1
                    if z > kind_margin:
                        kinds[k][f"{observation.phase}: {chosen.kind} -> {action.kind}"].append(worth[action])
                        if danger_worlds and observation.phase == "turn" and action.kind == chosen.kind == "discard":
                            dangers[k].append((*danger(searcher, game, observation, (action, chosen), danger_worlds,
                                                       decision_seed), worth[action], _stage(observation)))
            game.apply(chosen)
        if index + 1 == games or (index + 1) % 10 == 0:  # a long audit reports as it goes
            _report_specs(rules, index + 1, specs, seed, true_seeds, kind_margin, n, gains, counts, kinds, searched,
                          time.process_time() - began)
            if danger_worlds:
                _report_danger(specs, kind_margin, danger_worlds, dangers)


def _stage(observation: Observation) -> str:
    """A turn's stage, for the danger report: early (the seat has discarded fewer than six tiles) or late, and
    whether another seat shows a meld."""
    seat = observation.seat
    late = len(observation.discards[seat]) >= 6
    melds = any(observation.melds[other] for other in range(observation.num_players) if other != seat)
    return f"{'late' if late else 'early'}, {'melds shown' if melds else 'no meld shown'}"


def _report_danger(specs: list[str], kind_margin: float, worlds: int, dangers: list[list[Danger]]) -> None:
    """How dangerous the worlds and the true deal find the turn's discard departures' tiles and EVBot's."""
    print(f"  turn discard departures (z > {kind_margin}): share of {worlds} worlds / of true deals in which "
          "another seat could win on the tile at once")
    for spec, found in zip(specs, dangers, strict=True):
        if not found:
            continue
        count = len(found)
        world_search, world_ev, true_search, true_ev = (sum(row[i] for row in found) / count for i in range(4))
        print(f"    {spec:40} {count:>5} departures: worlds search {world_search:.3f} ev {world_ev:.3f}; "
              f"true search {true_search:.3f} ev {true_ev:.3f}", flush=True)
        stages: dict[str, list[float]] = collections.defaultdict(list)
        for row in found:
            stages[row[5]].append(row[4])
        for stage, worths in sorted(stages.items()):
            print(f"      {stage:28} {len(worths):>5}  worth each {_interval(worths)}", flush=True)


def _report_specs(rules: str, games: int, specs: list[str], seed: int, true_seeds: int, kind_margin: float, n: int,
                  gains: list[list[list[float]]], counts: list[list[int]], kinds: list[dict[str, list[float]]],
                  searched: list[int], seconds: float) -> None:
    """:func:`compare_specs`'s table over the first ``games`` hands."""
    print(f"{rules}: {games} hands (seed {seed}), {true_seeds} true-deal rollouts an action, "
          f"{seconds:.0f} s CPU; searched decisions: "
          + ", ".join(f"{spec} {count}" for spec, count in zip(specs, searched, strict=True)), flush=True)
    print("  departures' worth per seat-hand, with 95% intervals over hands; difference from the first search:")
    for i, margin in enumerate(MARGINS):
        per_hand = [[gains[k][h][i] / n for h in range(games)] for k in range(len(specs))]
        for k, spec in enumerate(specs):
            diff = [b - a for a, b in zip(per_hand[0], per_hand[k], strict=True)]
            print(f"  margin {margin:>3.1f} {spec:40} {counts[k][i]:>6} {_interval(per_hand[k]):>28}"
                  + (f"  diff {_interval(diff)}" if k else ""))
    print(f"  departures with z > {kind_margin} by decision (count, worth each on the true deal):")
    for k, spec in enumerate(specs):
        for kind, worths in sorted(kinds[k].items(), key=lambda item: -len(item[1])):
            print(f"    {spec:40} {kind:28} {len(worths):>5}  {_interval(worths)}", flush=True)


def _interval(values: list[float]) -> str:
    """The mean of ``values`` with its 95% interval."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return f"{mean:+.4f}"
    half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    return f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="guangdong")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--top-k", type=int, default=3)
    parser.add_argument("--rollout", choices=("greedy", "ev"), default=None)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--worlds", choices=WORLDS, default="uniform",
                        help="deal the other seats' hands uniformly or by how well they explain their play")
    parser.add_argument("--candidates", type=int, default=64, help="hands dealt a seat to keep one from (weighted)")
    parser.add_argument("--compare", action="store_true",
                        help="uniform against weighted worlds on the same decisions (paired, per seat-hand)")
    parser.add_argument("--true-seeds", type=int, default=2,
                        help="true-deal rollouts an action (--compare, --specs)")
    parser.add_argument("--specs", nargs="+", default=None, metavar="SPEC",
                        help="searches to compare on the same decisions, by registry name (e.g. search:16 "
                             "search:48:worlds=weighted:top_k=2); the others' differences are from the first")
    parser.add_argument("--kind-margin", type=float, default=1.5,
                        help="the margin at which --specs breaks departures down by kind of decision")
    parser.add_argument("--danger", type=int, default=0, metavar="N",
                        help="with --specs: how often N worlds and the true deal let another seat win on a turn's "
                             "discard departure's tile and on EVBot's")
    args = parser.parse_args()
    if args.specs:
        compare_specs(args.rules, args.games, args.specs, args.seed, args.true_seeds, args.kind_margin, args.danger)
        return
    if args.compare:
        compare(args.rules, args.games, args.rollouts, args.top_k, args.rollout, args.seed, args.candidates,
                args.true_seeds)
        return
    audit(args.rules, args.games, args.rollouts, args.top_k, args.rollout, args.seed, args.worlds, args.candidates)


if __name__ == "__main__":
    main()

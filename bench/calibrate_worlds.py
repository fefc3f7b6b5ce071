"""Calibrate the world weights (:mod:`hupai.belief`) from self-play, and write them into the package.

    python bench/calibrate_worlds.py [--rules guangdong,yunxiao,kawuxing,waihuzi] [--games 1500] [--seed 1]
                                     [--write python/hupai/_world_weights.py]
    python bench/calibrate_worlds.py --check 64 --games 100 --seed 50000
    python bench/calibrate_worlds.py --levels [--games 1500] [--seed 1] [--write python/hupai/_world_levels.py]
    python bench/calibrate_worlds.py --waits --rules guangdong [--games 300] [--seed 1]
                                     [--write python/hupai/_world_waits.py]

It plays hands with EVBot at every seat (seed ``seed + game``, the dealer rotating). At each decision with more
than one legal action, for every other seat whose hand a world deals freely (not a shown 亮倒 hand, not a 游
hand, not the seat whose kong is being robbed) it records, under that seat's public bucket (turns played,
melds shown), the level of its real hand and the level of its hand in one uniformly sampled world of the same
observation. A level's weight in a bucket is the ratio of the two frequencies, each smoothed with ``ALPHA``
pseudo-counts a level, clipped to [``LOW``, ``HIGH``]. Deterministic for its arguments; without ``--write`` it
prints the tables and the counts behind them. ``--check CANDIDATES`` measures instead how near weighted and
matched worlds come to real hands (:func:`check`). ``--levels`` measures the real hands' level shares alone, by
bucket (what :class:`hupai.belief.MatchedWorlds` deals to) and how often real hands hold kinds their seat
discarded (:func:`discarded`), and writes them with ``--write``. ``--waits`` measures how the other seats'
ready hands wait (:func:`hupai.belief.wait_classes`), real and in matched worlds, and writes the ratio of the two
(the weights of :class:`hupai.belief.WaitingWorlds`) with ``--write``.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import time
from collections.abc import Iterator
from typing import Any

import hupai
import numpy as np
from hupai.actions import Action
from hupai.belief import (
    LEVELS,
    MELD_BUCKETS,
    TURN_BUCKETS,
    TURN_STEP,
    WAIT_CLASSES,
    MatchedWorlds,
    WaitingWorlds,
    WorldWeights,
    bucket,
    levels,
    wait_classes,
)
from hupai.ev import EVBot
from hupai.game import Game
from hupai.worlds import fork, sample, unseen_counts

ALPHA = 2.0
LOW, HIGH = 0.02, 50.0
SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")

Counts = list[list[list[int]]]


def _empty() -> Counts:
    return [[[0] * LEVELS for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]


def _free_seats(observation: Any) -> list[int]:
    """The other seats whose hidden hand a world deals freely (the ones :func:`hupai.worlds.sample` weighs)."""
    extras = observation.extras
    revealed = extras.get("revealed") or ()
    you = extras.get("you") or ()
    out = []
    for other in range(observation.num_players):
        if other == observation.seat:
            continue
        if other < len(revealed) and revealed[other]:
            continue
        if other < len(you) and you[other]:
            continue
        if observation.phase == "rob" and other == observation.source:
            continue
        out.append(other)
    return out


def _decisions(rules: str, games: int, seed: int) -> Iterator[tuple[Game, Any, list[int]]]:
    """(game, observation, the other seats to count) at every decision with a choice where another seat's hand is
    free, over ``games`` hands of EVBots (the hands :func:`count` and :func:`real_levels` both read)."""
    n = hupai.rules.get(rules).num_players
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(seed * 1000 + index * 10 + s) for s in range(n)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            if len(observation.legal_actions) > 1:
                others = _free_seats(observation)
                if others:
                    yield game, observation, others
            game.apply(bots[seat].act(observation))


def count(rules: str, games: int, seed: int) -> tuple[Counts, Counts, int]:
    """(real counts, uniform counts, decisions) over ``games`` hands of EVBots."""
    real, uniform = _empty(), _empty()
    rng = random.Random(seed)
    decisions = 0
    for game, observation, others in _decisions(rules, games, seed):
        decisions += 1
        world = sample(observation, rng)
        for other in others:
            turns, melds = bucket(observation, other)
            truth = levels(observation, other, [game.table.hands[other]])[0]
            dealt = levels(observation, other, [world.table.hands[other]])[0]
            real[turns][melds][truth] += 1
            uniform[turns][melds][dealt] += 1
    return real, uniform, decisions


def real_levels(rules: str, games: int, seed: int) -> tuple[Counts, int]:
    """(real counts, decisions) over ``games`` hands of EVBots: :func:`count` without the worlds (the same hands,
    decisions and counts of real hands)."""
    real = _empty()
    decisions = 0
    for game, observation, others in _decisions(rules, games, seed):
        decisions += 1
        for other in others:
            turns, melds = bucket(observation, other)
            real[turns][melds][levels(observation, other, [game.table.hands[other]])[0]] += 1
    return real, decisions


def discarded(rules: str, games: int, seed: int) -> float:
    """How often a real hand holds copies of kinds its seat discarded, over how often a uniform deal of the unseen
    tiles would (its expected count), at the decisions of :func:`real_levels` (the same hands), for the other seats
    whose hands a world deals freely and that discarded a tile; 4 decimals."""
    n = hupai.rules.get(rules).num_players
    real = uniform = 0.0
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(seed * 1000 + index * 10 + s) for s in range(n)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            if len(observation.legal_actions) > 1:
                pool = unseen_counts(observation)
                total = sum(pool)
                for other in _free_seats(observation):
                    kinds = set(observation.discards[other])
                    hand = game.table.hands[other]
                    real += sum(hand[kind] for kind in kinds)
                    uniform += sum(hand) * sum(pool[kind] for kind in kinds) / total
            game.apply(bots[seat].act(observation))
    return round(real / uniform, 4) if uniform else 1.0


def shares(real: Counts) -> list[list[list[float]]]:
    """Per bucket, the real hands' share of each level, 4 decimals, smoothed with ``ALPHA`` pseudo-counts a level
    spread as the bucket of two fewer turns (same melds) has them (uniformly in the first): a bucket with few
    hands leans on the one before it, not on a uniform guess."""
    out: list[list[list[float]]] = []
    for turns, real_t in enumerate(real):
        row = []
        for melds, counts in enumerate(real_t):
            prior = out[turns - 1][melds] if turns else [1 / LEVELS] * LEVELS
            total = sum(counts) + ALPHA * LEVELS
            row.append([round((count + ALPHA * LEVELS * share) / total, 4) for count, share in zip(counts, prior,
                                                                                                   strict=True)])
        out.append(row)
    return out


def weights(real: Counts, uniform: Counts) -> list[list[list[float]]]:
    """Per bucket, the smoothed frequency ratio of each level (real over uniform), clipped, 4 decimals."""
    out = []
    for real_t, uniform_t in zip(real, uniform, strict=True):
        row = []
        for r, u in zip(real_t, uniform_t, strict=True):
            r_total, u_total = sum(r) + ALPHA * LEVELS, sum(u) + ALPHA * LEVELS
            row.append([round(min(HIGH, max(LOW, ((a + ALPHA) / r_total) / ((b + ALPHA) / u_total))), 4)
                        for a, b in zip(r, u, strict=True)])
        out.append(row)
    return out


def wins_on(game: Game, action: Action) -> bool:
    """Whether another seat could win on ``action``'s discarded tile at once in ``game`` (a copy is played)."""
    copy = fork(game)
    copy.apply(action)
    if copy.over:
        return bool(copy.result is not None and copy.result.wins)
    return any(a.kind == "win" for other in copy.seats_to_act for a in copy.legal_actions(other))


def check(rules: str, games: int, seed: int, candidates: int, from_turn: int = 6) -> None:
    """How near weighted, matched and waiting worlds come to real hands: the level distribution of the other
    seats' hands that have played ``from_turn`` turns or more, real, in a uniform, a weighted, a matched and a
    waiting world, over ``games`` hands of EVBots (seed ``seed + game``; use a seed the tables were not calibrated
    on). At every turn with a discard to choose: how often another seat could win at once on the tile EVBot
    discards, and on a tile the seat could discard (each kind it may discard counted once), in each world and on
    the true deal."""
    n = hupai.rules.get(rules).num_players
    dealers: dict[str, WorldWeights | None] = {"uniform": None, "weighted": WorldWeights(candidates),
                                               "matched": MatchedWorlds(candidates),
                                               "waiting": WaitingWorlds(candidates)}
    names = ("real", *dealers)
    found: dict[str, list[int]] = {name: [0] * LEVELS for name in names}
    held = dict.fromkeys(found, 0)  # copies held of kinds the seat discarded
    ready = {name: [0] * WAIT_CLASSES for name in names}  # ready hands by wait class (mahjong)
    chosen = dict.fromkeys(found, 0)  # turns whose chosen discard another seat could win on
    any_tile = dict.fromkeys(found, 0.0)  # the same, averaged over the discardable kinds
    turns = 0
    rng = random.Random(seed)
    for index in range(games):
        game = Game(rules, seed=seed + index, dealer=index % n, claim_window="eligible")
        bots = [EVBot(seed * 1000 + index * 10 + s) for s in range(n)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            action = bots[seat].act(observation)
            others = [o for o in _free_seats(observation) if bucket(observation, o)[0] * TURN_STEP >= from_turn]
            if len(observation.legal_actions) > 1 and others:
                worlds = {"real": game}
                for name, dealer in dealers.items():
                    worlds[name] = sample(observation, rng, weights=dealer)
                discards = {a.tile: a for a in observation.legal_actions if a.kind == "discard"}
                unseen = unseen_counts(observation)
                counted = observation.phase == "turn" and action.kind == "discard"
                turns += counted
                for name, world in worlds.items():
                    for other in others:
                        hand = world.table.hands[other]
                        level = levels(observation, other, [hand])[0]
                        found[name][level] += 1
                        held[name] += sum(hand[kind] for kind in set(observation.discards[other]))
                        if level == 0 and len(observation.counts) == 34:
                            row = np.frombuffer(bytes(hand), dtype=np.uint8)[None, :]
                            ready[name][int(wait_classes(observation, other, row, unseen)[0])] += 1
                    if counted:
                        chosen[name] += wins_on(world, action)
                        any_tile[name] += sum(wins_on(world, a) for a in discards.values()) / len(discards)
            game.apply(action)
    print(f"{rules}: {games} hands (seed {seed}), other seats after {from_turn}+ turns, {candidates} candidates, "
          f"{turns} turns with a discard")
    for name, counts in found.items():
        total = sum(counts) or 1
        shares = " ".join(f"{count / total:.3f}" for count in counts)
        mean = sum(level * count for level, count in enumerate(counts)) / total
        waits = ready[name]
        bands = " ".join(f"{(waits[2 * b] + waits[2 * b + 1]) / (sum(waits) or 1):.2f}"
                         for b in range(WAIT_CLASSES // 2))
        print(f"  {name:>8}: levels 0..{LEVELS - 1} {shares}  mean {mean:.2f}  "
              f"copies of its own discarded kinds {held[name] / total:.2f}; ready hands' unseen waits by band "
              f"{bands}, waiting on a kind it discarded {sum(waits[1::2]) / (sum(waits) or 1):.3f}; "
              f"win at once on EVBot's discard {chosen[name] / (turns or 1):.4f}, "
              f"on a discardable kind {any_tile[name] / (turns or 1):.4f}")


def wait_counts(rules: str, games: int, seed: int, candidates: int = 64) -> tuple[list[int], list[int], int]:
    """(real, matched, decisions): the other seats' ready hands by wait class (:func:`hupai.belief.wait_classes`),
    real and in one matched world of the same observation, at the decisions of :func:`real_levels`."""
    real, matched = [0] * WAIT_CLASSES, [0] * WAIT_CLASSES
    dealer = MatchedWorlds(candidates)
    rng = random.Random(seed)
    decisions = 0
    for game, observation, others in _decisions(rules, games, seed):
        decisions += 1
        world = sample(observation, rng, weights=dealer)
        unseen = unseen_counts(observation)
        for counts, hands in ((real, game.table.hands), (matched, world.table.hands)):
            rows = np.frombuffer(b"".join(bytes(hands[other]) for other in others), dtype=np.uint8).reshape(
                len(others), -1)
            for i, other in enumerate(others):
                if levels(observation, other, rows[i:i + 1])[0] == 0:
                    counts[int(wait_classes(observation, other, rows[i:i + 1], unseen)[0])] += 1
    return real, matched, decisions


WAITS_HEADER = '''"""Wait weights for :class:`hupai.belief.WaitingWorlds`, by rule system: ``weights[wait class]``.

Generated by ``python bench/calibrate_worlds.py {args}``
with ``--write {path}`` (do not edit by hand): per class of a ready hand's waits
(:func:`hupai.belief.wait_classes`: copies of its waited kinds its seat cannot see, 0-2, 3-4, 5-6, 7-8, 9+, each
without and with a waited kind its seat discarded), how often a real EVBot hand of another seat was of that class,
over how often a matched world's was, in self-play.
"""

from typing import Any

WAITS: dict[str, Any] = {{
'''


def write_waits(systems: list[str], games: int, seed: int, path: str | None) -> None:
    """Measure the wait weights of ``systems`` and print them; write the module at ``path`` if given."""
    text = WAITS_HEADER.format(args=f"--waits --rules {','.join(systems)} --games {games} --seed {seed}", path=path)
    for rules in systems:
        began = time.process_time()
        real, matched, decisions = wait_counts(rules, games, seed)
        r_total, m_total = sum(real) + ALPHA * WAIT_CLASSES, sum(matched) + ALPHA * WAIT_CLASSES
        ratio = [round(min(HIGH, max(LOW, ((r + ALPHA) / r_total) / ((m + ALPHA) / m_total))), 4)
                 for r, m in zip(real, matched, strict=True)]
        print(f"{rules}: {games} hands, {decisions} decisions, {time.process_time() - began:.0f} s CPU\n"
              f"  ready hands by wait class, real {real}\n  matched worlds {matched}\n  weights {ratio}")
        text += f"    {rules!r}: {{\n"
        text += f"        'games': {games}, 'seed': {seed}, 'decisions': {decisions},\n"
        text += f"        'real': {real},\n        'matched': {matched},\n"
        text += f"        'weights': {ratio!r},\n    }},\n"
    text += "}\n"
    if path:
        pathlib.Path(path).write_text(text, encoding="utf-8")


HEADER = '''"""World weights for :mod:`hupai.belief`, by rule system: ``weights[turns bucket][melds bucket][level]``.

Generated by ``python bench/calibrate_worlds.py {args}``
(do not edit by hand): the ratio of how often a real EVBot hand was at a level to how often a uniformly sampled
world dealt one at that level, in self-play.
"""

from typing import Any

TABLES: dict[str, Any] = {{
'''


LEVELS_HEADER = '''"""Real level shares for :class:`hupai.belief.MatchedWorlds`, by rule system:
``shares[turns bucket][melds bucket][level]``.

Generated by ``python bench/calibrate_worlds.py {args}``
(do not edit by hand): how often a real EVBot hand of another seat with those turns and melds was at each level,
in self-play; ``discarded``: how often it held copies of kinds its seat discarded, over a uniform deal's count.
"""

from typing import Any

SHARES: dict[str, Any] = {{
'''


def write_levels(systems: list[str], games: int, seed: int, path: str | None) -> None:
    """Measure the real level shares of ``systems`` and print them; write the module at ``path`` if given."""
    text = LEVELS_HEADER.format(args=f"--levels --games {games} --seed {seed} --write {path}")
    for rules in systems:
        began = time.process_time()
        real, decisions = real_levels(rules, games, seed)
        table = shares(real)
        ratio = discarded(rules, games, seed)
        print(f"{rules}: {games} hands, {decisions} decisions, held copies of discarded kinds {ratio} of a uniform "
              f"deal's, {time.process_time() - began:.0f} s CPU")
        text += f"    {rules!r}: {{\n"
        text += f"        'games': {games}, 'seed': {seed}, 'decisions': {decisions}, 'discarded': {ratio},\n"
        text += "        'shares': [\n"
        for turns, row in enumerate(table):
            text += f"            [  # turns played {turns * TURN_STEP}+, by melds 0, 1, 2, 3+\n"
            for melds, cell in enumerate(row):
                text += f"                {cell!r},\n"
                if sum(real[turns][melds]):
                    print(f"  turns {turns * TURN_STEP:>2}+ melds {melds}: real {real[turns][melds]} shares {cell}")
            text += "            ],\n"
        text += "        ],\n    },\n"
    text += "}\n"
    if path:
        pathlib.Path(path).write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=",".join(SYSTEMS))
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", default=None, help="the module to write (python/hupai/_world_weights.py)")
    parser.add_argument("--check", type=int, default=None, metavar="CANDIDATES",
                        help="instead: compare real, uniform, weighted and matched (CANDIDATES a seat) hands' levels")
    parser.add_argument("--levels", action="store_true",
                        help="instead: the real hands' level shares by bucket (hupai/_world_levels.py)")
    parser.add_argument("--waits", action="store_true",
                        help="instead: the ready hands' wait weights, real over matched (hupai/_world_waits.py)")
    args = parser.parse_args()
    if args.check is not None:
        for rules in args.rules.split(","):
            check(rules, args.games, args.seed, args.check)
        return
    if args.waits:
        write_waits(args.rules.split(","), args.games, args.seed, args.write)
        return
    if args.levels:
        write_levels(args.rules.split(","), args.games, args.seed, args.write)
        return
    tables = {}
    for rules in args.rules.split(","):
        began = time.process_time()
        real, uniform, decisions = count(rules, args.games, args.seed)
        tables[rules] = {"games": args.games, "seed": args.seed, "decisions": decisions,
                         "weights": weights(real, uniform)}
        print(f"{rules}: {args.games} hands, {decisions} decisions, {time.process_time() - began:.0f} s CPU")
        for turns in range(TURN_BUCKETS):
            for melds in range(MELD_BUCKETS):
                r, u = real[turns][melds], uniform[turns][melds]
                if sum(r):
                    print(f"  turns {turns * TURN_STEP:>2}+ melds {melds}: real {r} uniform {u} "
                          f"weights {tables[rules]['weights'][turns][melds]}")
    if args.write:
        text = HEADER.format(args=f"--games {args.games} --seed {args.seed} --write {args.write}")
        for rules, table in tables.items():
            text += f"    {rules!r}: {{\n"
            text += f"        'games': {table['games']}, 'seed': {table['seed']}, 'decisions': {table['decisions']},\n"
            text += "        'weights': [\n"
            for turns, row in enumerate(table["weights"]):
                text += f"            [  # turns played {turns * TURN_STEP}+, by melds 0, 1, 2, 3+\n"
                for cell in row:
                    text += f"                {cell!r},\n"
                text += "            ],\n"
            text += "        ],\n    },\n"
        text += "}\n"
        pathlib.Path(args.write).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

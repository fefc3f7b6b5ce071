"""Command line: ``hupai analyze`` explains hands (shanten, waits, discards, decompositions); ``hupai simulate``
plays seeded hands with bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from .analysis import Decomposition, Forms, decompositions, shanten, waits
from .errors import HupaiError
from .hand import parse_hand
from .tiles import format_tiles, kind_name, to_counts

_FORM_NAMES = {form.name.lower(): form for form in Forms if form.name is not None}


def _parse_forms(text: str) -> Forms:
    forms = Forms(0)
    for name in text.split(","):
        key = name.strip().lower().replace("-", "_")
        if key not in _FORM_NAMES:
            raise argparse.ArgumentTypeError(f"unknown form {name!r}; choose from {', '.join(_FORM_NAMES)}")
        forms |= _FORM_NAMES[key]
    return forms


def _describe_reading(reading: Decomposition) -> str:
    parts = []
    for group in reading.groups:
        text = format_tiles(list(group.tiles))
        if group.jokers:
            text += "(*" + format_tiles(list(group.jokers)) + ")"
        parts.append(f"[{text}]")
    return f"{(reading.form.name or str(reading.form)).lower():16s} " + " ".join(parts)


def _useful_tiles(counts: np.ndarray, jokers: int, melds: int, forms: Forms, current: int) -> list[int]:
    """Kinds whose draw lowers the shanten of a waiting (3n+1) hand (a complete-size hand's shanten already
    assumes its best discard)."""
    useful = []
    for kind in range(34):
        if counts[kind] >= 4:
            continue
        counts[kind] += 1
        if shanten(counts, jokers=jokers, melds=melds, forms=forms) < current:
            useful.append(kind)
        counts[kind] -= 1
    return useful


def analyze(hand: str, jokers: int, melds: int, forms: Forms, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    counts = to_counts(hand)
    size = int(counts.sum()) + jokers
    complete_size = 3 * (4 - melds) + 2
    print(f"{format_tiles(counts)}  ({size} tiles, {jokers} jokers, {melds} exposed melds)", file=out)
    value = shanten(counts, jokers=jokers, melds=melds, forms=forms)
    label = {-1: "complete", 0: "ready (听牌)"}.get(value, f"{value} away from ready")
    print(f"  shanten   {value}: {label}", file=out)
    if size == complete_size - 1:
        hand_waits = waits(counts, jokers=jokers, melds=melds, forms=forms)
        if hand_waits:
            print(f"  waits     {' '.join(kind_name(k) for k in hand_waits)}", file=out)
        else:
            useful = _useful_tiles(counts.copy(), jokers, melds, forms, value)
            print(f"  useful    {' '.join(kind_name(k) for k in useful)} ({len(useful)} kinds)", file=out)
    elif value == -1:
        readings = decompositions(counts, jokers=jokers, melds=melds, forms=forms)
        print(f"  readings  {len(readings)}", file=out)
        for reading in readings[:12]:
            print(f"    {_describe_reading(reading)}", file=out)
        if len(readings) > 12:
            print(f"    ... {len(readings) - 12} more", file=out)
    else:
        # A complete-size hand that is not complete: which discards keep the best shanten, and their waits.
        options = []
        for kind in np.flatnonzero(counts):
            counts[kind] -= 1
            after = shanten(counts, jokers=jokers, melds=melds, forms=forms)
            after_waits = waits(counts, jokers=jokers, melds=melds, forms=forms) if after == 0 else []
            counts[kind] += 1
            options.append((after, -len(after_waits), int(kind), after_waits))
        options.sort()
        for after, _, discard, after_waits in options[:5]:
            detail = f"waits {' '.join(kind_name(k) for k in after_waits)}" if after_waits else f"shanten {after}"
            print(f"  discard {kind_name(discard):3s} -> {detail}", file=out)


def simulate(rules_name: str, hands: int, seed: int, bot: str, out: TextIO | None = None) -> None:
    """Play ``hands`` consecutive hands of a match with four seeded bots and print a summary."""
    out = out or sys.stdout
    import time
    from collections import Counter

    from . import bots, rules
    from .game import HandResult, Match

    rule_system = rules.get(rules_name)
    bot_class = {"random": bots.RandomBot, "greedy": bots.GreedyBot}[bot]
    players = [bot_class(seed * 16 + seat) for seat in range(rule_system.num_players)]
    results: list[HandResult] = []
    scores = [0] * rule_system.num_players
    started = time.perf_counter()
    matches = 0
    while len(results) < hands:  # a match ends after its last round; then the next match starts
        match = Match(rule_system, seed=seed * 100_003 + matches, claim_window="eligible")
        results.extend(match.play(players, hands - len(results)))
        scores = [a + b for a, b in zip(scores, match.scores, strict=True)]
        matches += 1
    elapsed = time.perf_counter() - started
    patterns: Counter[str] = Counter()
    for result in results:
        for win in result.wins:
            patterns.update(win.score.pattern_names)
    won = sum(1 for r in results if r.winners)
    print(f"{rules_name}: {len(results)} hands with {bot} bots (seed {seed}) in {elapsed:.2f} s "
          f"({len(results) / elapsed:.0f} hands/s)", file=out)
    print(f"  {matches} match(es); won {won}, drawn {len(results) - won}; total scores {scores}", file=out)
    for name, count in patterns.most_common(8):
        print(f"  {name:20s} {count}", file=out)


_MELD_MARKS = str.maketrans("[]()", "    ")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hupai", description="Chinese mahjong hand analysis and simulation")
    commands = parser.add_subparsers(dest="command", required=True)
    analyze_cmd = commands.add_parser("analyze", help="shanten, waits and decompositions of hands")
    analyze_cmd.add_argument("hands", nargs="+", help="hands in tile notation, e.g. 123m456p789s1122z or "
                                                      "'123m [456p] (7777z) 5s' (exposed melds in [], a concealed "
                                                      "kong in ())")
    analyze_cmd.add_argument("--jokers", type=int, default=0, help="wild tiles on top of the hand")
    analyze_cmd.add_argument("--melds", type=int, default=None,
                             help="exposed melds set aside (default: the melds written, else inferred from the size)")
    analyze_cmd.add_argument("--forms", type=_parse_forms, default=None,
                             help="comma-separated forms (default: the rule system's, else standard, seven pairs "
                                  "and thirteen orphans): " + ", ".join(_FORM_NAMES))
    analyze_cmd.add_argument("--rules", default=None,
                             help="judge the hands in this rule system's winning forms and tile set "
                                  "(see hupai.rules.names())")
    analyze_cmd.add_argument("--win", default=None, help="waihuzi: the winning card, one of the hand's (x1, d10)")
    analyze_cmd.add_argument("--source", choices=["self", "other"], default="self",
                             help="waihuzi: the winning card was turned up by the winner or came from another")
    simulate_cmd = commands.add_parser("simulate", help="play seeded hands with bots and summarise them")
    simulate_cmd.add_argument("--rules", default="guangdong", help="rule system (see hupai.rules.names())")
    simulate_cmd.add_argument("--hands", type=int, default=200, help="hands to play")
    simulate_cmd.add_argument("--seed", type=int, default=1, help="match seed")
    simulate_cmd.add_argument("--bot", choices=["random", "greedy"], default="greedy", help="the four players")
    serve_cmd = commands.add_parser("serve", help="the reference game server (needs the `server` extra)")
    serve_cmd.add_argument("--db", default="sqlite:///hupai.db", help="sqlite:///file.db or postgresql://...")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    try:
        if args.command == "analyze":
            forms = args.forms
            tile_set: set[int] | None = None
            if args.rules is not None:
                from . import rules

                rule_system = rules.get(args.rules)
                if rule_system.family == "zipai":  # Wai Huzi cards, groups and 息 (rules/waihuzi/describe.py)
                    from .rules.waihuzi.describe import analyze as analyze_zipai
                    for hand in args.hands:
                        analyze_zipai(hand, rule_system, args.win, args.source)
                    return 0
                if rule_system.family != "mahjong":
                    raise HupaiError(f"hupai analyze reads mahjong hands; {args.rules} is a {rule_system.family} game")
                forms = rule_system.win_forms if forms is None else forms
                tile_set = set(rule_system.tiles())
            if forms is None:
                forms = Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS
            for written in args.hands:
                if tile_set is not None:
                    every = to_counts(written.translate(_MELD_MARKS))  # the melds' tiles too
                    outside = sorted({int(k) for k in np.flatnonzero(every)} - tile_set)
                    if outside:
                        raise HupaiError(f"{written}: {format_tiles(outside)} not in the {args.rules} tile set")
                # Melds written in brackets, or --melds in all, or inferred from the size (parse_hand).
                unwritten = None if args.melds is None else max(args.melds - sum(map(written.count, "[(")), 0)
                parsed = parse_hand(written, jokers=args.jokers, implied=unwritten)
                analyze(format_tiles(list(parsed.concealed)), args.jokers, parsed.meld_count, forms)
        elif args.command == "simulate":
            simulate(args.rules, args.hands, args.seed, args.bot)
        elif args.command == "serve":
            from .serve import run

            run(args.db, args.host, args.port)
    except HupaiError as error:
        print(f"hupai: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

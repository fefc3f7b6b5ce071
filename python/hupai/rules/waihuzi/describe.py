"""``hupai analyze --rules waihuzi``: a Wai Huzi hand explained (its splits, best layout with 息, waits with 息 and the
copies left, and for a complete hand its score).

A hand is cards with declared groups in brackets, in any order: ``"[歪 d8d8d8] x1 x1 x1 x3 x4 x5 ..."``
(:func:`hupai.zipai.parse_groups`). By size (WH-11, WH-28):

- at rest (19 cards plus one per 4-card group, hand and groups together): its waits, each with the 息 and score
  self-drawn and from another player, and the copies the hand and groups leave;
- complete (one card more): with ``win`` (a card among them) the win scored by the rule system, else the cards read
  as all held (天胡-style: a triplet is a 坎) with every split and the best layout's score;
- anything else is refused saying which sizes are expected.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

from ... import zipai
from ...errors import HupaiError, InvalidHand
from ...scoring import WinContext
from ..base import Rules
from .advice import WaihuziAdvice
from .rules import WaihuziRules
from .scoring import core_min_huxi, core_options

__all__ = ["analyze", "parse_hand"]

_GROUP = re.compile(r"\[[^\]]*\]")


def parse_hand(text: str) -> tuple[list[int], list[zipai.Declared]]:
    """Cards and bracketed declared groups: ``"[碰 x2x2x2] d1 d1"`` -> (the hand's kinds, the groups)."""
    groups = zipai.parse_groups(" ".join(_GROUP.findall(text)))
    return zipai.parse(_GROUP.sub(" ", text)), groups


def _left(counts: list[int], card: int) -> int:
    return max(0, zipai.COPIES - counts[card])


def _score(layout: zipai.Layout | None) -> str:
    return "-" if layout is None else f"{layout.xi:2d} 息 score {layout.score}"


def analyze(text: str, rules: Rules, win: str | None = None, source: str = "self",
            out: TextIO | None = None) -> None:
    """Print what :mod:`this module <.describe>` says for one hand under ``rules``' options (Wai Huzi rules)."""
    out = out or sys.stdout
    if not isinstance(rules, WaihuziRules):
        raise HupaiError(f"expected Wai Huzi rules, got {type(rules).__name__}")
    hand, groups = parse_hand(text)
    options = rules.options
    core = core_options(options)
    used = [0] * zipai.NUM_KINDS
    for kind in (*hand, *(c for g in groups for c in g.cards)):
        used[kind] += 1
    if max(used, default=0) > zipai.COPIES:
        raise InvalidHand(f"{text}: more than 4 of {zipai.card_name(used.index(max(used)))}")
    fours = sum(1 for g in groups if len(g.cards) == 4)
    total = sum(used)
    shown = " ".join([*map(str, groups), zipai.format_cards(hand)])
    print(f"{shown}  ({len(hand)} cards in hand, {len(groups)} group(s); min_huxi {options.min_huxi})", file=out)
    if total == 19 + fours:
        waits = zipai.waits(hand, groups, min_huxi=core_min_huxi(options), **core)
        if not waits:
            print("  waits     none with enough 息", file=out)
            judged = WaihuziAdvice.for_rules(rules).judge(zipai.to_counts(hand), groups)
            print(f"  shape     {-judged.closeness} card(s) from a win, about {judged.xi} 息", file=out)
        for wait in waits:
            print(f"  wait {zipai.card_name(wait.card):3s} ({_left(used, wait.card)} left)  self-drawn "
                  f"{_score(wait.self_drawn)}  from another {_score(wait.from_other)}", file=out)
    elif total == 20 + fours:
        if win is not None:
            _score_win(hand, groups, win, source, rules, out)
            return
        layouts = zipai.splits(hand, groups, **core)
        print(f"  splits    {len(layouts)} (the cards as all held: a triplet is a 坎)", file=out)
        for layout in layouts[:12]:
            print(f"    {layout}", file=out)
        if len(layouts) > 12:
            print(f"    ... {len(layouts) - 12} more", file=out)
        best = zipai.best_split(hand, groups, min_huxi=core_min_huxi(options), **core)
        if best is None:
            print("  not a win" + (f": at most {max(x.xi for x in layouts)} 息" if layouts else ""), file=out)
        else:
            print(f"  best      {best}", file=out)
            print(f"  score     {best.score} from each loser (before 天胡/报听/海底/神腰 and cap)", file=out)
    else:
        raise HupaiError(f"{text}: {total} cards; a Wai Huzi hand at rest has {19 + fours} and a complete one "
                         f"{20 + fours} (hand and groups together, WH-11)")


def _score_win(hand: list[int], groups: list[zipai.Declared], win: str, source: str, rules: WaihuziRules,
               out: TextIO) -> None:
    kinds = zipai.parse(win)
    if len(kinds) != 1 or kinds[0] not in hand:
        raise HupaiError(f"--win must be one card of the hand, got {win!r}")
    if source not in ("self", "other"):
        raise HupaiError(f"--source must be 'self' or 'other', got {source!r}")
    held = list(hand)
    held.remove(kinds[0])
    context = WinContext(winner=0, win_tile=kinds[0], concealed=tuple(held), melds=tuple(groups),
                         discarder=None if source == "self" else 1, num_players=3)
    result = rules.score(context)
    print(f"  layout    {result.details['layout']}  ({result.details['xi']} 息)", file=out)
    yuan = [*(f"内元 {c}" for c in result.details["inner_yuan"]), *(f"外元 {c}" for c in result.details["outer_yuan"])]
    named = [f"{p.chinese}×{p.value}" for p in result.patterns]
    print(f"  名堂      {' '.join(named) or '-'}   元 {' '.join(yuan) or '-'}", file=out)
    print(f"  score     {result.value} from each loser; payments {list(result.payments)} (winner seat 0)", file=out)

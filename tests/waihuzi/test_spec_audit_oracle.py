"""A third, independent reading of WH-28..43: a brute-force scorer written from the spec text alone (it shares no
code with the core nor with tests/waihuzi/reference.py), compared with ``hupai.score`` on random layouts under
random options and win facts. It is slow and plain on purpose: every rule is one visible line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import hupai
import numpy as np
import pytest
from hupai import zipai
from hupai.rules.waihuzi import NotAWin
from hupai.scoring import WinContext
from hupai.zipai import Declared, PartType

from .helpers import perturb, random_layout

RED = {2, 7, 10}  # WH-2, by number


def num(card: int) -> int:
    return card % 10 + 1


def big(card: int) -> bool:
    return card >= 10


def runs_with(card: int) -> list[tuple[int, int, int]]:
    """WH-7: the runs holding ``card``: three consecutive numbers or 二七十, one size."""
    base = 10 if big(card) else 0
    found = [tuple(base + n - 1 for n in (a, a + 1, a + 2)) for a in range(1, 9)] + [(base + 1, base + 6, base + 9)]
    return [r for r in found if card in r]  # type: ignore[misc]


def splits(counts: Counter[int], unit_used: bool) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
    """WH-28: every split of ``counts`` into triplets, runs and exactly one pair or 门子 (WH-8)."""
    left = [c for c in sorted(counts) if counts[c] > 0]
    if not left:
        if unit_used:
            yield []
        return
    low = left[0]
    shapes: list[tuple[str, tuple[int, ...]]] = [("triplet", (low,) * 3)]
    shapes += [("run", r) for r in runs_with(low) if r[0] == low]
    if not unit_used:
        shapes.append(("pair", (low, low)))
        for run in runs_with(low):
            shapes += [("menzi", (low, other)) for other in run if other > low]
    for kind, cards in set(shapes):
        need = Counter(cards)
        if all(counts[c] >= n for c, n in need.items()):
            rest = counts - need
            for tail in splits(rest, unit_used or kind in ("pair", "menzi")):
                yield [(kind, cards), *tail]


def declared_xi(group: Declared) -> int:
    """WH-9."""
    if group.type == PartType.CHI:
        return 1 if all(num(c) in RED for c in group.cards) else 0
    return {PartType.WAI: 4, PartType.PENG: 1, PartType.LIU: 4, PartType.PIAO: 1}[group.type]


def oracle(hand: list[int], groups: list[Declared], win: int | None, self_drawn: bool, opts: dict[str, Any],
           facts: dict[str, bool]) -> int | None:
    """The per-loser score (before the cap) of the best layout reaching min_huxi, or None (no win)."""
    counts = Counter(hand)
    if win is not None:
        counts[win] += 1
    every = list(hand) + ([] if win is None else [win]) + [c for g in groups for c in g.cards]
    reds = sum(num(c) in RED for c in every)
    external = {g.external_card for g in groups if g.external_card is not None}
    if win is not None and not self_drawn:
        external.add(win)
    yuan = 1
    for value, n in Counter(every).items():  # WH-34
        if n == 4:
            yuan *= 2 if value in external else 4
    best: int | None = None
    for split in splits(counts, False):
        # WH-31: the winning card may sit in any part holding its value
        places = [None] if win is None else [i for i, (_, cards) in enumerate(split) if win in cards]
        for place in places:
            units = []  # (kind, cards, 息, is run)
            for i, (kind, cards) in enumerate(split):
                if kind == "triplet":
                    xi = (4 if self_drawn else 1) if i == place else 3  # WH-29
                elif kind == "pair":
                    xi = (4 if self_drawn else 1) if i == place else 1  # WH-30
                else:  # runs and 门子: 1 息 when every card is one of 二七十 (WH-29, WH-30)
                    xi = 1 if all(num(c) in RED for c in cards) else 0
                units.append((kind, cards, xi, kind == "run"))
            for g in groups:
                units.append(("chi" if g.type == PartType.CHI else "same", g.cards, declared_xi(g),
                              g.type == PartType.CHI))
            total = sum(u[2] for u in units)
            if total < opts["min_huxi"]:  # WH-32
                continue
            group_units = [u for u in units if u[0] not in ("pair", "menzi")]
            unit = next(u for u in units if u[0] in ("pair", "menzi"))
            factor = 1
            duizi = all(u[0] in ("triplet", "same") for u in group_units) and unit[0] == "pair"
            strict = opts["xingxingxi"] == "strict"
            xingxing = all(u[2] > 0 for u in units) and not (strict and any(u[3] for u in units))
            if duizi and reds == 0:
                factor *= 32  # 黑对子胡 replaces 对子息 and 黑胡子 (WH-36)
            elif duizi:
                factor *= 8
            elif xingxing:
                factor *= 4  # 行行息, never with 对子息 (WH-36)
            if reds == 0 and not duizi:
                factor *= 8  # 黑胡子
            if reds == 1:
                factor *= 4  # 一点红
            if reds >= 10:
                factor *= 2 ** (reds - 9)  # 火火翻
            if opts["daxiaozihu"] and all(big(c) for c in every):
                factor *= 8
            if opts["daxiaozihu"] and not any(big(c) for c in every):
                factor *= 8
            if opts["extra_mingtang"]:  # WH-41 over the seven units
                all_red = [u for u in units if all(num(c) in RED for c in u[1])]
                elsewhere = reds - sum(len(u[1]) for u in all_red)
                if len(all_red) == 1 and elsewhere == 0:
                    factor *= 2
                if len(all_red) == 2 and elsewhere == 0:
                    factor *= 2
                if len(all_red) == 1 and elsewhere == 1:
                    factor *= 2
                if all(any(num(c) in RED for c in u[1]) for u in units):
                    factor *= 64
            if facts["heavenly"] or facts["earthly"]:
                factor *= 4  # 天胡 / 地胡, which replace 报听 (WH-36)
            elif facts["ready_from_deal"]:
                factor *= 4
            if facts["last_tile"] and opts["haidilao"]:
                factor *= 4
            if facts["shenyao"]:
                factor *= 2
            score = total * factor * yuan  # WH-33
            best = score if best is None else max(best, score)
    return best


@pytest.mark.rule("WH-28", "WH-29", "WH-30", "WH-31", "WH-32", "WH-33", "WH-34", "WH-35", "WH-36", "WH-37",
                  "WH-41", "WH-42", "WH-43")
@pytest.mark.parametrize("seed", range(3))
def test_random_wins_match_a_spec_only_oracle(seed: int) -> None:
    rng = np.random.default_rng(7700 + seed)
    wins = misses = 0
    for trial in range(300):
        hand, groups, win, source = random_layout(rng)
        if trial % 4 == 3:
            hand = perturb(rng, hand, groups, win)
        opts = {"min_huxi": int(rng.integers(0, 10)), "xingxingxi": ("loose", "strict")[int(rng.integers(0, 2))],
                "daxiaozihu": bool(rng.integers(0, 2)), "extra_mingtang": bool(rng.integers(0, 2)),
                "haidilao": bool(rng.integers(0, 2)), "cap": None if rng.integers(0, 2) else int(rng.integers(1, 500))}
        heavenly = win is None
        if heavenly:
            win_card, self_drawn, winner, discarder = hand[-1], True, 0, None
            concealed = hand[:-1]
        else:
            win_card, self_drawn = win, source == "self"
            winner = int(rng.integers(0, 3))
            discarder = None if self_drawn else (winner + 1 + int(rng.integers(0, 2))) % 3
            concealed = hand
        earthly = not heavenly and discarder == 0 and winner != 0 and bool(rng.integers(0, 3) == 0)
        facts = {"heavenly": heavenly, "earthly": earthly, "ready_from_deal": bool(rng.integers(0, 2)),
                 "last_tile": not heavenly and bool(rng.integers(0, 3) == 0)}
        shen_card = int(rng.integers(0, 20))
        ctx = WinContext(winner=winner, win_tile=win_card, concealed=tuple(concealed), melds=tuple(groups),
                         discarder=discarder, dealer=0, num_players=3, heavenly=heavenly, earthly=earthly,
                         last_tile=facts["last_tile"], ready_from_deal=facts["ready_from_deal"], shen="odd",
                         shen_card=shen_card)
        expected = oracle(hand if heavenly else concealed, groups, None if heavenly else win_card, self_drawn, opts,
                          {**facts, "shenyao": num(shen_card) % 2 == 1})
        rules = hupai.rules.get("waihuzi", **opts)
        if expected is None:
            with pytest.raises(NotAWin):
                hupai.score(rules, ctx)
            misses += 1
            continue
        result = hupai.score(rules, ctx)
        paid = expected if opts["cap"] is None else min(expected, opts["cap"])
        assert (result.details["score"], result.value) == (expected, paid), (trial, zipai.format_cards(hand),
                                                                              [str(g) for g in groups], win, opts)
        assert result.payments == tuple(2 * paid if s == winner else -paid for s in range(3))
        wins += 1
    assert wins > 50 and misses > 0

"""Spec audit, scoring oracle: a brute-force scorer written from kawuxing.md alone (KW-19..KW-25; no hupai
analysis, no code of the rule package), checked against ``hupai.score`` on random winning hands with random melds
and win facts, options included. It reads the hand every way (every pair, every pung/run split, seven pairs) and
takes the best factor product (KW-21)."""

from __future__ import annotations

import random
from collections import Counter

import hupai
import pytest
from hupai.hand import Meld
from hupai.scoring import WinContext

SUITS = (range(9, 18), range(18, 27))  # 筒, 条
DRAGONS = (31, 32, 33)
KINDS = (*SUITS[0], *SUITS[1], *DRAGONS)


def _standard(counts: Counter[int]) -> list[list[tuple[str, tuple[int, ...]]]]:
    """Every split of ``counts`` into pungs and runs (no pair), as lists of groups."""
    kinds = sorted(k for k, c in counts.items() if c)
    if not kinds:
        return [[]]
    first = kinds[0]
    out = []
    if counts[first] >= 3:
        counts[first] -= 3
        out += [[("pung", (first,) * 3), *rest] for rest in _standard(counts)]
        counts[first] += 3
    run = (first, first + 1, first + 2)
    if first < 27 and (first - 9) % 9 <= 6 and all(counts[k] for k in run[1:]):
        for k in run:
            counts[k] -= 1
        out += [[("chow", run), *rest] for rest in _standard(counts)]
        for k in run:
            counts[k] += 1
    return out


def readings(tiles: list[int], melds: int) -> list[tuple[bool, list[tuple[str, tuple[int, ...]]]]]:
    """(seven pairs?, groups) for every way to read the concealed tiles (winning tile included) as a win."""
    counts = Counter(tiles)
    out = []
    for pair in sorted(counts):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for groups in _standard(counts):
                if len(groups) == 4 - melds:
                    out.append((False, [("pair", (pair, pair)), *groups]))
            counts[pair] += 2
    if melds == 0 and len(tiles) == 14 and all(c in (2, 4) for c in counts.values()):
        out.append((True, [("pair", (k, k)) for k, c in counts.items() for _ in range(c // 2)]))
    return out


def oracle(concealed: list[int], win: int, melds: list[Meld], *, discarder: int | None, replacement: bool,
           last: bool, robbed: bool, pao: bool, declared: bool, base: int, cap: int | None
           ) -> tuple[int, set[str], tuple[int, ...]]:
    """KW-20..KW-25 from the spec text: (V, the factors of the best reading, payments for winner P1)."""
    tiles = [*concealed, win]
    every = tiles + [k for m in melds for k in m.tiles]
    self_drawn = discarder is None
    best: tuple[int, set[str]] = (0, set())
    for seven, groups in readings(tiles, len(melds)):
        triplets = [g[1][0] for g in groups if g[0] == "pung"] + [m.tiles[0] for m in melds]
        pair = next(g[1][0] for g in groups if g[0] == "pair")
        quads = sum(1 for c in Counter(tiles).values() if c == 4)
        common = {
            "peng_peng_hu": not seven and all(g[0] != "chow" for g in groups),
            "ming_si_gui_yi": any(m.type == "pung" and m.tiles[0] == win for m in melds),
            "an_si_gui_yi": not seven and concealed.count(win) == 3,
            "qi_dui": seven and quads == 0,
            "long_qi_dui": seven and quads == 1,
            "shuang_long_qi_dui": seven and quads >= 2,
            "da_san_yuan": not seven and all(d in triplets for d in DRAGONS),
            "xiao_san_yuan": not seven and sum(d in triplets for d in DRAGONS) == 2 and pair in DRAGONS,
            "qing_yi_se": any(all(k in suit for k in every) for suit in SUITS),
            "shou_zhua_yi": len(melds) == 4,
            "gang_shang_kai_hua": replacement and self_drawn,
            "gang_shang_pao": pao and not self_drawn,
            "qiang_gang_hu": robbed,
            "hai_di_lao_yue": last and self_drawn,
            "liang_dao": declared,
        }
        # KW-22: the winning 5 as the middle of a 4-5-6 run of this reading (any run holding it may be it).
        places = [g for g in groups if win in g[1]]
        for place in places:
            factors = dict(common, ka_wu_xing=(win in (13, 22) and place == ("chow", (win - 1, win, win + 1))))
            if seven:  # KW-21: the 七对 family never takes 暗四归一; 龙 replaces 七对
                factors["an_si_gui_yi"] = False
            names = {name for name, holds in factors.items() if holds}
            value = 1
            for name in names:
                value *= FACTOR[name]
            if value > best[0]:
                best = (value, names)
    value = base * (best[0] if cap is None else min(best[0], cap))
    payments = [0, 0, 0]
    if self_drawn:
        payments = [-value, 2 * value, -value]
    else:
        payments[discarder] = -value
        payments[1] = value
    return value, best[1], tuple(payments)


FACTOR = {"peng_peng_hu": 2, "ming_si_gui_yi": 2, "an_si_gui_yi": 4, "qi_dui": 4, "long_qi_dui": 8,
          "shuang_long_qi_dui": 16, "da_san_yuan": 8, "xiao_san_yuan": 4, "qing_yi_se": 4, "shou_zhua_yi": 4,
          "ka_wu_xing": 2, "gang_shang_kai_hua": 2, "gang_shang_pao": 2, "qiang_gang_hu": 2, "hai_di_lao_yue": 2,
          "liang_dao": 2}


def _random_win(rng: random.Random) -> tuple[list[int], int, list[Meld]] | None:
    """A random complete hand of the 84 tiles: melds, concealed tiles and the winning tile among them."""
    left = Counter({k: 4 for k in KINDS})
    narrow = rng.random() < 0.5  # often one suit and the dragons: 清一色, 三元 and the 七对 family come up
    pool = [k for k in KINDS if not narrow or k in SUITS[0] or k in DRAGONS]

    def take(kinds: list[int]) -> bool:
        if any(left[k] < kinds.count(k) for k in kinds):
            return False
        left.subtract(kinds)
        return True

    if rng.random() < 0.2:  # seven pairs, quads allowed
        tiles: list[int] = []
        while len(tiles) < 14:
            k = rng.choice(pool)
            if take([k, k]):
                tiles += [k, k]
        melds: list[Meld] = []
    else:
        melds, tiles = [], []
        for _ in range(rng.choice((0, 0, 1, 2, 3, 4))):
            k = rng.choice(pool)
            kong = rng.random() < 0.3
            if take([k] * (4 if kong else 3)):
                melds.append(Meld("kong", (k,) * 4, concealed=rng.random() < 0.5) if kong
                             else Meld("pung", (k,) * 3, claimed_from=rng.choice((0, 2)), claimed_tile=k))
        while len(tiles) < 3 * (4 - len(melds)):
            k = rng.choice(pool)
            group = [k] * 3 if k >= 27 or rng.random() < 0.35 else [k, k + 1, k + 2]
            in_suit = group[0] == group[2] or (k - 9) % 9 <= 6  # a run may not run past 9
            if in_suit and take(group):
                tiles += group
        pair = rng.choice(pool)
        if not take([pair, pair]):
            return None
        tiles += [pair, pair]
    win = tiles.pop(rng.randrange(len(tiles)))
    return tiles, win, melds


@pytest.mark.rule("KW-19", "KW-20", "KW-21", "KW-22", "KW-24", "KW-25")
def test_kw_20_the_code_scores_random_wins_as_a_spec_only_oracle_does():
    rng = random.Random(20261201)
    checked = 0
    seen: Counter[str] = Counter()
    while checked < 3000:
        made = _random_win(rng)
        if made is None:
            continue
        concealed, win, melds = made
        self_drawn = rng.random() < 0.5
        discarder = None if self_drawn else rng.choice((0, 2))
        replacement = self_drawn and rng.random() < 0.2
        robbed = not self_drawn and rng.random() < 0.15
        pao = not self_drawn and not robbed and rng.random() < 0.2
        facts = dict(discarder=discarder, replacement=replacement, last=rng.random() < 0.15, robbed=robbed,
                     pao=pao, declared=rng.random() < 0.3, base=rng.choice((1, 1, 2, 3)),
                     cap=rng.choice((None, None, 8, 32)))
        expected = oracle(concealed, win, melds, **facts)
        rules = hupai.rules.get("kawuxing", base=facts["base"], cap=facts["cap"])
        context = WinContext(winner=1, win_tile=win, concealed=tuple(concealed), melds=tuple(melds),
                             discarder=discarder, num_players=3, kong_replacement=replacement,
                             robbed_kong=robbed, last_tile=facts["last"], declared_ready=facts["declared"],
                             discard_after_kong=pao)
        result = hupai.score(rules, context)
        got = (result.value, set(result.pattern_names), result.payments)
        assert got == expected, (hupai.format_tiles(concealed), hupai.format_tiles([win]), melds, facts)
        seen.update(expected[1])
        checked += 1
    # The random hands reach every factor of the table, so each row was compared.
    assert set(seen) == set(FACTOR), set(FACTOR) - set(seen)

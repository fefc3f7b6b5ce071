"""Shared helpers for the Wai Huzi core tests: random layouts and the comparison with the reference."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from hupai import zipai
from hupai.scoring import WinContext
from hupai.zipai import Declared, Layout, PartType
from hupai.zipai.analysis import SourceLike

from . import reference

LABELS = {
    PartType.KAN: "kan", PartType.WIN_TRIPLET: "win_triplet", PartType.RUN: "run", PartType.PAIR: "pair",
    PartType.WIN_PAIR: "win_pair", PartType.MENZI: "menzi",
}
DECLARED_NAMES = {PartType.WAI: "wai", PartType.PENG: "peng", PartType.LIU: "liu", PartType.PIAO: "piao",
                  PartType.CHI: "chi"}


def to_reference(groups: list[Declared]) -> list[reference.RefDeclared]:
    return [reference.RefDeclared(DECLARED_NAMES[g.type], g.cards, g.external_card) for g in groups]


def core_view(layout: Layout) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], int, int, frozenset[str]]:
    parts = tuple(sorted((LABELS[p.type], p.cards) for p in layout.parts if not p.declared))
    return parts, layout.xi, layout.score, frozenset(m.chinese for m in layout.mingtang)


def ref_view(layout: reference.RefLayout) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], int, int, frozenset[str]]:
    return layout.parts, layout.xi, layout.score, layout.mingtang


def check_against_reference(hand: list[int], groups: list[Declared], win_card: int | None, source: SourceLike,
                            *, min_huxi: int = 5, xingxingxi: str = "loose", daxiaozihu: bool = True,
                            extra: bool = False) -> list[Layout]:
    """Asserts the core's layouts and best layout equal the reference's; returns the core's layouts."""
    core = zipai.splits(hand, groups, win_card, source, xingxingxi=xingxingxi, daxiaozihu=daxiaozihu,
                        extra_mingtang=extra)
    ref_source = {None: None, "self": "self", "other": "other", zipai.Source.SELF_DRAWN: "self",
                  zipai.Source.FROM_OTHER: "other"}[source]
    ref = reference.layouts(hand, to_reference(groups), win_card, ref_source, strict=xingxingxi == "strict",
                            daxiaozihu=daxiaozihu, extra=extra)
    core_views = sorted(map(core_view, core), key=repr)
    ref_views = sorted(map(ref_view, ref), key=repr)
    assert core_views == ref_views, (hand, groups, win_card, source)
    best = zipai.best_split(hand, groups, win_card, source, min_huxi=min_huxi, xingxingxi=xingxingxi,
                            daxiaozihu=daxiaozihu, extra_mingtang=extra)
    ref_best = reference.best(ref, min_huxi)
    if ref_best is None:
        assert best is None
    else:
        assert best is not None
        assert (best.score, best.xi) == (ref_best.score, ref_best.xi), (hand, groups, win_card, source)
    return core


def _take(deck: Counter[int], cards: tuple[int, ...]) -> bool:
    need = Counter(cards)
    if any(deck[card] < n for card, n in need.items()):
        return False
    deck.subtract(need)
    return True


def random_layout(rng: np.random.Generator) -> tuple[list[int], list[Declared], int | None, SourceLike]:
    """A random winning-shaped layout: declared groups, hand, winning card and source (often a real win)."""
    deck: Counter[int] = Counter({kind: 4 for kind in range(20)})
    groups: list[Declared] = []
    for _ in range(int(rng.integers(0, 4))):
        kind = int(rng.integers(0, 20))
        choice = int(rng.integers(0, 5))
        if choice == 4:
            label, run = reference.TRIPLES[20 + int(rng.integers(0, len(reference.RUNS)))]
            if _take(deck, run):
                taken = run[int(rng.integers(0, 3))]
                groups.append(Declared.chi(list(run), taken, own_draw=bool(rng.integers(0, 4) == 0)))
            continue
        size = 4 if choice in (2, 3) else 3
        if _take(deck, (kind,) * size):
            groups.append([Declared.wai, Declared.peng, Declared.liu, Declared.piao][choice](kind))
    hand: list[int] = []
    while len(hand) < 3 * (6 - len(groups)):
        _, triple = reference.TRIPLES[int(rng.integers(0, len(reference.TRIPLES)))]
        if _take(deck, triple):
            hand += triple
    while True:
        unit = (lambda k: (k, k))(int(rng.integers(0, 20))) if rng.integers(0, 2) else \
            reference.MENZI[int(rng.integers(0, len(reference.MENZI)))]
        if _take(deck, unit):
            hand += unit
            break
    if not groups and rng.integers(0, 6) == 0:
        return hand, groups, None, None
    win = hand.pop(int(rng.integers(0, len(hand))))
    return hand, groups, win, "self" if rng.integers(0, 2) else "other"


def perturb(rng: np.random.Generator, hand: list[int], groups: list[Declared], win: int | None) -> list[int]:
    """The hand with one card swapped for another card still in the set (a near-complete hand)."""
    used = Counter(hand) + Counter(card for g in groups for card in g.cards)
    if win is not None:
        used[win] += 1
    spare = [kind for kind in range(20) if used[kind] < 4]
    out = list(hand)
    out[int(rng.integers(0, len(out)))] = spare[int(rng.integers(0, len(spare)))]
    return out


def card(name: str) -> int:
    return zipai.parse(name)[0]


def context(hand: str, win: str, groups: str = "", *, winner: int = 1, discarder: int | None = None,
            **facts: Any) -> WinContext:
    """A Wai Huzi win: ``discarder=None`` means the winner turned the card up itself."""
    return WinContext(winner=winner, win_tile=card(win), concealed=tuple(zipai.parse(hand)),
                      melds=tuple(zipai.parse_groups(groups)), discarder=discarder, num_players=3, **facts)

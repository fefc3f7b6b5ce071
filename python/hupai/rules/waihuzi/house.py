"""Wai Huzi house rules that change a layout's score (issue 23; ``docs/rules/waihuzi.md`` "House rules").

The core chooses the best layout by the spec's 息 and 名堂 (WH-31). Two house rules change what a layout is worth,
so under them the layout is chosen here, over every layout the core lists (:func:`hupai.zipai.splits`), with the
名堂 table of :mod:`.patterns`:

- ``dandiao="plus5"`` (WH-30): a win on a single wait, the winning card pairing a lone held card (the unit is a
  pair completed by the winning card), adds 5 息 to the 底息, on top of the pair's own 4/1. It counts towards
  ``min_huxi`` too, so it can make a win of a hand the spec refuses.
- ``yidianhong="hand"`` (WH-35): 一点红 counts the red cards of the hand part of the layout (the held cards and
  the winning card), not of the declared groups.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import zipai
from ...zipai import Layout, PartType
from ..patterns import counted, product
from .options import WaihuziOptions
from .patterns import EXTRA_MINGTANG, LAYOUT_MINGTANG, Win

__all__ = ["DANDIAO_XI", "changes_layouts", "dandiao_xi", "layout_win", "layout_factor", "best_house_layout"]

#: WH-30's house rule: the 息 a single wait adds (seed 004: 吊到相同字加5息).
DANDIAO_XI = 5


def changes_layouts(options: WaihuziOptions) -> bool:
    """Do the options hold a house rule that changes which layout is best (so the core's choice is not used)?"""
    return options.dandiao != "table" or options.yidianhong != "layout"


def dandiao_xi(layout: Layout, options: WaihuziOptions) -> int:
    """The 息 WH-30's house rule adds to ``layout``: 5 for a single wait under ``dandiao="plus5"``, else 0."""
    return DANDIAO_XI if options.dandiao == "plus5" and layout.unit.type == PartType.WIN_PAIR else 0


def layout_win(layout: Layout, options: WaihuziOptions) -> Win:
    """The layout's own 名堂 subject under the options (no facts of how the hand was won)."""
    return Win(layout, strict=options.xingxingxi == "strict", daxiaozihu=options.daxiaozihu,
               extra=options.extra_mingtang, yidianhong_hand=options.yidianhong == "hand")


def layout_factor(layout: Layout, options: WaihuziOptions) -> int:
    """The layout's score before the context 名堂: (息 + the 单吊 bonus) × its 名堂 × its 元."""
    win = layout_win(layout, options)
    mingtang = int(product(counted((*LAYOUT_MINGTANG, *EXTRA_MINGTANG), win), win))
    yuan = 1 << (2 * len(layout.inner_yuan) + len(layout.outer_yuan))  # 4 per 内元, 2 per 外元 (WH-34)
    return (layout.xi + dandiao_xi(layout, options)) * mingtang * yuan


def best_house_layout(hand: Sequence[int], groups: Sequence[zipai.Declared], win_card: int | None,
                      source: zipai.analysis.SourceLike, options: WaihuziOptions) -> Layout | None:
    """The layout scoring highest under the house rules among those whose 息 (the 单吊 bonus included) reach
    ``min_huxi``; ties go to the most 息, as the core's choice does. None: no winning layout."""
    best: tuple[int, int] | None = None
    found = None
    for layout in zipai.splits(list(hand), list(groups), win_card, source, xingxingxi=options.xingxingxi,
                               daxiaozihu=options.daxiaozihu, extra_mingtang=options.extra_mingtang):
        xi = layout.xi + dandiao_xi(layout, options)
        if xi < options.min_huxi:
            continue
        key = (layout_factor(layout, options), xi)
        if best is None or key > best:
            best, found = key, layout
    return found

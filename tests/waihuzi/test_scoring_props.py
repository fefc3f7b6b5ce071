"""Wai Huzi scoring against a slow recomputation from the spec (WH-28..43): random winning layouts with random
facts of the win and random options, scored by ``hupai.score`` and by :mod:`.reference` (every split listed,
every 名堂 transcribed from the spec) plus the context 名堂, the cap and the payments written out here."""

from __future__ import annotations

from typing import Any

import hupai
import numpy as np
import pytest
from hupai import zipai
from hupai.rules.patterns import counted, product
from hupai.rules.waihuzi import NotAWin
from hupai.rules.waihuzi.patterns import EXTRA_MINGTANG, LAYOUT_MINGTANG, Win
from hupai.scoring import WinContext
from hypothesis import given, settings
from hypothesis import strategies as st

from . import reference
from .helpers import random_layout, to_reference

CONTEXT_NAMES = {"tian_hu": "天胡", "di_hu": "地胡", "bao_ting": "报听", "hai_di_lao": "海底捞", "shen_yao": "神腰"}


def expected(hand: list[int], groups: list[zipai.Declared], win: int | None, source: str | None,
             facts: dict[str, Any], options: dict[str, Any]) -> tuple[int, list[set[str]]] | None:
    """(each loser's payment, the 名堂 sets of the best layouts), or None when it is not a win: the spec as
    written, over the reference's layouts."""
    layouts = reference.layouts(hand, to_reference(groups), win, source, strict=options["xingxingxi"] == "strict",
                                daxiaozihu=options["daxiaozihu"], extra=options["extra_mingtang"])
    best = reference.best(layouts, options["min_huxi"])
    if best is None:
        return None
    tied = [layout for layout in layouts if layout.xi >= options["min_huxi"]
            and (layout.score, layout.xi) == (best.score, best.xi)]
    factor, extra = 1, set()
    if facts["heavenly"] or facts["earthly"]:  # WH-36: 天胡/地胡, never with 报听
        factor, extra = 4, {"天胡" if facts["heavenly"] else "地胡"}
    elif facts["ready_from_deal"]:
        factor, extra = 4, {"报听"}
    if facts["last_tile"] and options["haidilao"]:
        factor, extra = factor * 4, extra | {"海底捞"}
    shen = facts["shen"] or options["shen"]
    card = facts["shen_card"]
    if card is not None and (card % 10 + 1) % 2 == (1 if shen == "odd" else 0):  # WH-39: same parity as the 神
        factor, extra = factor * 2, extra | {"神腰"}
    score = best.score * factor
    value = score if options["cap"] is None else min(score, options["cap"])
    return value, [set(layout.mingtang) | extra for layout in tied]


@st.composite
def wins(draw: st.DrawFn) -> tuple[WinContext, dict[str, Any], tuple[Any, ...]]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    hand, groups, win, source = random_layout(rng)
    if draw(st.integers(0, 3)) == 0:  # a near miss now and then: one card changed
        spare = [k for k in range(20) if (hand + [c for g in groups for c in g.cards] + [win or 0]).count(k) < 4]
        hand[draw(st.integers(0, len(hand) - 1))] = draw(st.sampled_from(spare))
    dealer = draw(st.integers(0, 2))
    heavenly = win is None
    if heavenly:  # 天胡: the dealer's 20 cards, the last dealt one as win_tile
        winner, discarder, win_tile, concealed = dealer, None, hand[-1], hand[:-1]
    else:
        winner = draw(st.integers(0, 2))
        others = [seat for seat in range(3) if seat != winner]
        discarder = None if source == "self" else draw(st.sampled_from(others))
        win_tile, concealed = win, hand
    earthly = (not heavenly and discarder is not None and winner != dealer and discarder == dealer
               and draw(st.booleans()))
    shen = draw(st.sampled_from([None, "odd", "even"]))
    option_shen = shen if shen is not None and draw(st.booleans()) else None
    if option_shen is not None and draw(st.booleans()):
        shen = None  # the session 神 from the option only
    facts = {"heavenly": heavenly, "earthly": earthly, "ready_from_deal": draw(st.booleans()),
             "last_tile": not heavenly and draw(st.booleans()), "shen": shen,
             "shen_card": draw(st.none() | st.integers(0, 19)) if (shen or option_shen) else None}
    options = {"min_huxi": draw(st.integers(0, 12)), "cap": draw(st.none() | st.integers(1, 2000)),
               "xingxingxi": draw(st.sampled_from(["loose", "strict"])), "daxiaozihu": draw(st.booleans()),
               "haidilao": draw(st.booleans()), "extra_mingtang": draw(st.booleans()), "shen": option_shen}
    context = WinContext(winner=winner, win_tile=win_tile, concealed=tuple(concealed), melds=tuple(groups),
                         discarder=discarder, dealer=dealer, num_players=3, **facts)
    return context, options, (hand if heavenly else concealed, groups, None if heavenly else win,
                              None if heavenly else ("self" if discarder is None else "other"), facts)


@pytest.mark.rule("WH-28", "WH-31", "WH-32", "WH-33", "WH-34", "WH-35", "WH-36", "WH-37", "WH-41", "WH-42", "WH-43")
@settings(max_examples=400, deadline=None)
@given(wins())
def test_score_equals_the_spec_recomputed(case: tuple[WinContext, dict[str, Any], tuple[Any, ...]]) -> None:
    context, options, (hand, groups, win, source, facts) = case
    want = expected(list(hand), groups, win, source, facts, options)
    rules = hupai.rules.get("waihuzi", **options)
    if want is None:
        with pytest.raises(NotAWin):
            hupai.score(rules, context)
        return
    result = hupai.score(rules, context)
    value, name_sets = want
    assert result.value == value
    assert result.payments == tuple(2 * value if seat == context.winner else -value for seat in range(3))
    assert {p.chinese for p in result.patterns} in name_sets


@pytest.mark.rule("WH-33", "WH-35", "WH-41")
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["loose", "strict"]), st.booleans())
def test_the_table_scores_every_layout_as_the_core_does(seed: int, reading: str, daxiaozihu: bool) -> None:
    """Not only the best layout: for every layout the core lists, xi × the table's 名堂 × 元 is the core's score."""
    hand, groups, win, source = random_layout(np.random.default_rng(seed))
    strict = reading == "strict"
    for layout in zipai.splits(hand, groups, win, source, xingxingxi=reading, daxiaozihu=daxiaozihu,
                               extra_mingtang=True):
        subject = Win(layout, strict=strict, daxiaozihu=daxiaozihu, extra=True)
        entries = counted((*LAYOUT_MINGTANG, *EXTRA_MINGTANG), subject)
        yuan = 4 ** len(layout.inner_yuan) * 2 ** len(layout.outer_yuan)
        assert layout.xi * product(entries, subject) * yuan == layout.score
        assert {e.chinese for e in entries} == {m.chinese for m in layout.mingtang}

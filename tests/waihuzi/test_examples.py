"""The worked examples of waihuzi.md about a layout's split, 息, 元 and 名堂 (WH-E1..E12), with their exact numbers.

Scores are per loser (each of the two losers pays it, WH-42); the flow examples (WH-E13..E19) belong to the
engine. Every example is also checked against the reference reading.
"""

from __future__ import annotations

import pytest
from hupai import zipai
from hupai.zipai import Layout
from hupai.zipai.analysis import SourceLike

from .helpers import check_against_reference

E1_GROUPS = "[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6]"
E1_HAND = "x8 x8 x8 d2 d7 d10 x1"
E3_HAND = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"
E4_HAND = "d8 d8 d8 x1 x2 x3 x6 x7 x8 d1 d2 d3 d4 d5 d6 x2 x7 x10 x5"
E8_GROUPS = "[歪 d8d8d8]"
E8_HAND = "x1 x1 x1 x3 x4 x5 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9"


def best(hand: str, groups: str = "", win: str | None = None, source: str | None = None, **options: object) -> Layout:
    layout = zipai.best_split(hand, groups, win, source, **options)  # type: ignore[arg-type]
    assert layout is not None
    return layout


def names(layout: Layout) -> set[str]:
    return {m.chinese for m in layout.mingtang}


@pytest.mark.rule("WH-9", "WH-29", "WH-30")
def test_wh_e1_xi_tally() -> None:
    layout = best(E1_HAND, E1_GROUPS, "x1", "other")
    assert layout.xi == 15
    assert [p.xi for p in layout.parts] == [4, 4, 1, 1, 3, 1, 1]
    assert str(layout.unit) == "[胡对 x1x1 1]"  # 单碰: the pair completed by another player's card


@pytest.mark.rule("WH-33", "WH-34", "WH-37")
def test_wh_e2_score() -> None:
    layout = best(E1_HAND, E1_GROUPS, "x1", "other")
    assert zipai.card_name(layout.inner_yuan[0]) == "d9" and len(layout.inner_yuan) == 1
    assert zipai.card_name(layout.outer_yuan[0]) == "x6" and len(layout.outer_yuan) == 1
    assert names(layout) == {"行行息"}
    assert layout.score == 480
    assert zipai.context_score(layout, shenyao=True)[0] == 960
    assert best(E1_HAND, E1_GROUPS, "x1", "other", xingxingxi="strict").score == 120


@pytest.mark.rule("WH-29", "WH-30", "WH-32")
def test_wh_e3_two_waits() -> None:
    for source in ("self", "other"):
        layout = best(E3_HAND, "", "d3", source)
        assert (layout.xi, layout.score) == (5, 5)
    assert best(E3_HAND, "", "x1", "other").score == 5
    self_drawn = best(E3_HAND, "", "x1", "self")
    assert (self_drawn.xi, self_drawn.score) == (8, 8)
    waits = {zipai.card_name(w.card): w for w in zipai.waits(E3_HAND)}
    assert set(waits) == {"x1", "d3"}
    strict = {zipai.card_name(w.card): (w.self_drawn is not None, w.from_other is not None)
              for w in zipai.waits(E3_HAND, min_huxi=6)}
    assert strict == {"x1": (True, False)}


@pytest.mark.rule("WH-30")
def test_wh_e4_dan_wai_dan_peng() -> None:
    waits = {zipai.card_name(w.card): w for w in zipai.waits(E4_HAND)}
    assert set(waits) == {"x5", "x8"}
    for wait in waits.values():
        assert wait.self_drawn is not None and wait.from_other is not None
        assert wait.self_drawn.score == 8 and wait.from_other.score == 5
    loose = {zipai.card_name(w.card): w for w in zipai.waits(E4_HAND, min_huxi=3)}
    assert set(loose) == {"x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10"}
    for card in ("x3", "x4", "x6", "x7", "x9", "x10"):
        for layout in (loose[card].self_drawn, loose[card].from_other):
            assert layout is not None and layout.xi == 4 and layout.unit.type == zipai.PartType.MENZI


@pytest.mark.rule("WH-35", "WH-36")
def test_wh_e5_dui_zi_xi() -> None:
    groups, hand = "[碰 x2x2x2] [碰 d5d5d5] [歪 x8x8x8]", "d1 d1 d1 x9 x9 x9 d4 d4 x6 x6"
    layout = best(hand, groups, "d4", "other")
    assert (layout.xi, layout.score, names(layout)) == (14, 112, {"对子息"})
    assert best(hand, groups, "d4", "self").score == 136


@pytest.mark.rule("WH-35", "WH-36")
def test_wh_e6_hei_dui_zi_hu_is_flat_32() -> None:
    layout = best("d1 d1 d1 x9 x9 x9 d4 d4 x6 x6", "[碰 x3x3x3] [碰 d5d5d5] [歪 x8x8x8]", "d4", "other")
    assert (layout.score, names(layout)) == (448, {"黑对子胡"})


@pytest.mark.rule("WH-35", "WH-36", "WH-37")
def test_wh_e7_xing_xing_xi() -> None:
    groups, hand = "[碰 d5d5d5] [歪 x8x8x8] [碰 x3x3x3]", "d1 d1 d1 x9 x9 x9 d6 d6 x2 x7"
    for reading in ("loose", "strict"):
        layout = best(hand, groups, "d6", "other", xingxingxi=reading)
        assert (layout.xi, layout.score, names(layout)) == (14, 56, {"行行息"})
    assert best(hand, groups, "d6", "self").score == 68
    assert best(hand, groups, "x10", "other").score == 56
    strict = best(hand, groups, "x10", "other", xingxingxi="strict")
    assert (strict.score, names(strict)) == (14, set())


@pytest.mark.rule("WH-35")
def test_wh_e8_yi_dian_hong_and_hei_hu_zi() -> None:
    assert (best(E8_HAND, E8_GROUPS, "x7", "other").score, names(best(E8_HAND, E8_GROUPS, "x7", "other"))) == \
        (28, {"一点红"})
    assert best(E8_HAND, E8_GROUPS, "x10", "self").score == 28
    assert names(best(E8_HAND, E8_GROUPS, "x8", "other")) == {"黑胡子"}
    assert best(E8_HAND, E8_GROUPS, "x8", "other").score == 56
    assert best(E8_HAND, E8_GROUPS, "x9", "other").score == 64
    assert best(E8_HAND, E8_GROUPS, "x9", "self").score == 88


@pytest.mark.rule("WH-35")
def test_wh_e9_huo_huo_fan() -> None:
    hand = "x2 x2 x2 d7 d7 d7 d10 d10 d10 x3 x4 x5 x6 x7 x8 d3 d4 d5 x9"
    layout = best(hand, "", "x9", "other")
    assert (layout.xi, layout.score, names(layout)) == (10, 20, {"火火翻"})
    on_x7 = best(hand, "", "x7", "other")
    assert (on_x7.xi, on_x7.score) == (9, 36)
    assert [m.factor for m in on_x7.mingtang] == [4]


@pytest.mark.rule("WH-35")
def test_wh_e10_da_zi_hu() -> None:
    groups, hand = "[歪 d9d9d9]", "d1 d1 d1 d2 d7 d10 d3 d4 d5 d4 d5 d6 d6 d7 d8 d3"
    layout = best(hand, groups, "d3", "other")
    assert (layout.xi, layout.score, names(layout)) == (9, 72, {"大字胡"})
    assert best(hand, groups, "d3", "self").score == 96
    assert best(hand, groups, "d3", "other", daxiaozihu=False).score == 9


@pytest.mark.rule("WH-31", "WH-34")
def test_wh_e11_placement_of_the_winning_card_and_yuan() -> None:
    hand = "x5 x5 x5 x4 x6 d9 d9 d9 d2 d7 d10 x1 x2 x3 d4 d5 d6 x8 x8"
    layouts = zipai.splits(hand, "", "x5", "self")
    assert sorted((layout.xi, layout.score) for layout in layouts) == [(8, 32), (9, 36)]
    chosen = best(hand, "", "x5", "self")
    assert chosen.score == 36 and zipai.PartType.WIN_TRIPLET in {p.type for p in chosen.parts}
    assert [zipai.card_name(k) for k in chosen.inner_yuan] == ["x5"]
    discarded = best(hand, "", "x5", "other")
    assert (discarded.xi, discarded.score) == (8, 16)
    assert [zipai.card_name(k) for k in discarded.outer_yuan] == ["x5"]


@pytest.mark.rule("WH-36", "WH-38", "WH-39", "WH-40")
def test_wh_e12_tian_hu_di_hu_bao_ting() -> None:
    tianhu = best(E3_HAND + " d3")  # the 20 dealt cards, no winning card
    assert tianhu.xi == 5
    assert zipai.context_score(tianhu, tianhu=True)[0] == 20
    dihu = best(E3_HAND, "", "d3", "other")
    score, extra = zipai.context_score(dihu, dihu=True, baoting=True)
    assert score == 20 and [m.chinese for m in extra] == ["地胡"]
    assert zipai.context_score(dihu, baoting=True)[0] == 20
    assert zipai.context_score(dihu, baoting=True, shenyao=True)[0] == 40


@pytest.mark.rule("WH-43")
def test_wh_43_cap_limits_each_payment() -> None:
    layout = best(E1_HAND, E1_GROUPS, "x1", "other")
    assert zipai.context_score(layout, cap=100)[0] == 100


EXAMPLES = [
    (E1_HAND, E1_GROUPS, "x1", "other"),
    (E3_HAND, "", "d3", "self"), (E3_HAND, "", "x1", "self"), (E3_HAND, "", "x1", "other"),
    (E4_HAND, "", "x5", "self"), (E4_HAND, "", "x8", "other"),
    ("d1 d1 d1 x9 x9 x9 d4 d4 x6 x6", "[碰 x2x2x2] [碰 d5d5d5] [歪 x8x8x8]", "d4", "other"),
    ("d1 d1 d1 x9 x9 x9 d6 d6 x2 x7", "[碰 d5d5d5] [歪 x8x8x8] [碰 x3x3x3]", "x10", "other"),
    (E8_HAND, E8_GROUPS, "x7", "other"), (E8_HAND, E8_GROUPS, "x9", "self"),
    ("x2 x2 x2 d7 d7 d7 d10 d10 d10 x3 x4 x5 x6 x7 x8 d3 d4 d5 x9", "", "x7", "other"),
    ("x5 x5 x5 x4 x6 d9 d9 d9 d2 d7 d10 x1 x2 x3 d4 d5 d6 x8 x8", "", "x5", "self"),
    (E3_HAND + " d3", "", None, None),
]


@pytest.mark.parametrize(("hand", "groups", "win", "source"), EXAMPLES)
@pytest.mark.parametrize("xingxingxi", ["loose", "strict"])
def test_wh_examples_agree_with_the_reference(hand: str, groups: str, win: str | None, source: SourceLike,
                                              xingxingxi: str) -> None:
    check_against_reference(zipai.parse(hand), zipai.parse_groups(groups), None if win is None else
                            zipai.parse(win)[0], source, xingxingxi=xingxingxi, extra=True)

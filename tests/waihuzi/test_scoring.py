"""Wai Huzi scoring through ``hupai.score("waihuzi", WinContext(...))``: every worked example about a win's score
(WH-E1..E13 with their variants) with exact numbers and payments, and the scoring rules WH-28..44 by id.

Conventions of the spec's examples (waihuzi.md §12): P0 deals, P1 wins unless stated, each loser pays the score.
"""

from __future__ import annotations

from typing import Any

import hupai
import pytest
from hupai import zipai
from hupai.rules.waihuzi import NotAWin, shen_of
from hupai.rules.waihuzi.patterns import EXTRA_MINGTANG, LAYOUT_MINGTANG, MINGTANG
from hupai.scoring import ScoreResult, WinContext

from .helpers import card, context

E1_GROUPS = "[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6]"
E1_HAND = "x8 x8 x8 d2 d7 d10 x1"
E3_HAND = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"
E4_HAND = "d8 d8 d8 x1 x2 x3 x6 x7 x8 d1 d2 d3 d4 d5 d6 x2 x7 x10 x5"
E5_GROUPS, E5_HAND = "[碰 x2x2x2] [碰 d5d5d5] [歪 x8x8x8]", "d1 d1 d1 x9 x9 x9 d4 d4 x6 x6"
E7_GROUPS, E7_HAND = "[碰 d5d5d5] [歪 x8x8x8] [碰 x3x3x3]", "d1 d1 d1 x9 x9 x9 d6 d6 x2 x7"
E8_GROUPS, E8_HAND = "[歪 d8d8d8]", "x1 x1 x1 x3 x4 x5 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9"
E9_HAND = "x2 x2 x2 d7 d7 d7 d10 d10 d10 x3 x4 x5 x6 x7 x8 d3 d4 d5 x9"
E10_GROUPS, E10_HAND = "[歪 d9d9d9]", "d1 d1 d1 d2 d7 d10 d3 d4 d5 d4 d5 d6 d6 d7 d8 d3"
E11_HAND = "x5 x5 x5 x4 x6 d9 d9 d9 d2 d7 d10 x1 x2 x3 d4 d5 d6 x8 x8"


def score(ctx: WinContext, **options: Any) -> ScoreResult:
    rules = hupai.rules.get("waihuzi", **options) if options else "waihuzi"
    return hupai.score(rules, ctx)


def paid(result: ScoreResult, winner: int = 1) -> tuple[int, ...]:
    """The payments the spec's rule gives for ``result.value`` (WH-42): each loser −value, the winner +2 value."""
    return tuple(2 * result.value if seat == winner else -result.value for seat in range(3))


def names(result: ScoreResult) -> set[str]:
    return {p.chinese for p in result.patterns}


# ------------------------------------------------------------------ WH-E1..E13


@pytest.mark.rule("WH-9", "WH-29", "WH-30")
def test_wh_e1_xi_tally() -> None:
    result = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2))
    assert result.details["xi"] == 15
    assert [part["xi"] for part in result.details["parts"]] == [4, 4, 1, 1, 3, 1, 1]
    assert [part["chinese"] for part in result.details["parts"]] == ["溜", "歪", "碰", "飘", "坎", "句", "胡对"]
    assert result.details["parts"][-1] == {"type": "win_pair", "chinese": "胡对", "cards": "x1 x1", "xi": 1,
                                           "declared": False, "unit": True}
    assert result.details["layout"].endswith("[坎 x8x8x8 3] [句 d2d7d10 1] [胡对 x1x1 1]")


@pytest.mark.rule("WH-33", "WH-34", "WH-37", "WH-42")
def test_wh_e2_score_and_payments() -> None:
    result = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2))
    assert (result.value, result.payments) == (480, (-480, 960, -480))
    assert names(result) == {"行行息"}
    assert (result.details["inner_yuan"], result.details["outer_yuan"]) == (["d9"], ["x6"])
    assert (result.details["yuan_factor"], result.details["mingtang_factor"]) == (8, 4)


@pytest.mark.rule("WH-39")
def test_wh_e2_with_a_shen_yao_match() -> None:
    result = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2, shen="odd", shen_card=card("d3")))
    assert (result.value, result.payments) == (960, (-960, 1920, -960))
    assert names(result) == {"行行息", "神腰"}


@pytest.mark.rule("WH-37")
def test_wh_e2_strict_xing_xing_xi() -> None:
    result = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2), xingxingxi="strict")
    assert (result.value, result.payments, names(result)) == (120, (-120, 240, -120), set())


@pytest.mark.rule("WH-29", "WH-30", "WH-32")
@pytest.mark.parametrize("discarder", [None, 0, 2])
def test_wh_e3_d3_from_any_source(discarder: int | None) -> None:
    result = score(context(E3_HAND, "d3", discarder=discarder))
    assert (result.value, result.payments, result.details["xi"]) == (5, (-5, 10, -5), 5)


@pytest.mark.rule("WH-29", "WH-32")
def test_wh_e3_x1_other_and_self_drawn() -> None:
    other = score(context(E3_HAND, "x1", discarder=0))
    assert (other.value, other.payments) == (5, (-5, 10, -5))
    own = score(context(E3_HAND, "x1"))
    assert (own.value, own.payments, own.details["xi"]) == (8, (-8, 16, -8), 8)


@pytest.mark.rule("WH-32")
def test_wh_e3_min_huxi_6_only_the_self_drawn_x1_wins() -> None:
    assert score(context(E3_HAND, "x1"), min_huxi=6).value == 8
    for ctx in (context(E3_HAND, "x1", discarder=0), context(E3_HAND, "d3"), context(E3_HAND, "d3", discarder=2)):
        with pytest.raises(NotAWin, match="below min_huxi 6"):
            score(ctx, min_huxi=6)
        with pytest.raises(NotAWin):
            hupai.rules.get("waihuzi", min_huxi=6).check(ctx)  # type: ignore[attr-defined]


@pytest.mark.rule("WH-30")
@pytest.mark.parametrize("win", ["x5", "x8"])
def test_wh_e4_dan_wai_dan_peng(win: str) -> None:
    own = score(context(E4_HAND, win, winner=2))
    assert (own.value, own.payments) == (8, (-8, -8, 16))
    other = score(context(E4_HAND, win, winner=2, discarder=1))
    assert (other.value, other.payments) == (5, (-5, -5, 10))


@pytest.mark.rule("WH-8", "WH-30", "WH-32")
@pytest.mark.parametrize("win", ["x3", "x4", "x6", "x7", "x9", "x10"])
def test_wh_e4_min_huxi_3_wins_with_a_menzi(win: str) -> None:
    with pytest.raises(NotAWin, match="at most 4 息, below min_huxi 5"):
        score(context(E4_HAND, win, winner=2, discarder=0))
    result = score(context(E4_HAND, win, winner=2, discarder=0), min_huxi=3)
    assert (result.details["xi"], result.value, result.payments) == (4, 4, (-4, -4, 8))
    assert result.details["parts"][-1]["type"] == "menzi"


@pytest.mark.rule("WH-35")
def test_wh_e5_dui_zi_xi() -> None:
    result = score(context(E5_HAND, "d4", E5_GROUPS, discarder=0))
    assert (result.details["xi"], result.value, result.payments, names(result)) == (14, 112, (-112, 224, -112),
                                                                                    {"对子息"})
    own = score(context(E5_HAND, "d4", E5_GROUPS))
    assert (own.details["xi"], own.value) == (17, 136)


@pytest.mark.rule("WH-35", "WH-36")
def test_wh_e6_hei_dui_zi_hu_is_flat_32() -> None:
    result = score(context(E5_HAND, "d4", E5_GROUPS.replace("x2x2x2", "x3x3x3"), discarder=0))
    assert (result.value, result.payments, names(result)) == (448, (-448, 896, -448), {"黑对子胡"})
    assert [p.value for p in result.patterns] == [32]


@pytest.mark.rule("WH-35", "WH-37")
@pytest.mark.parametrize("reading", ["loose", "strict"])
def test_wh_e7_xing_xing_xi_without_runs(reading: str) -> None:
    result = score(context(E7_HAND, "d6", E7_GROUPS, discarder=0), xingxingxi=reading)
    assert (result.details["xi"], result.value, result.payments, names(result)) == (14, 56, (-56, 112, -56),
                                                                                    {"行行息"})


@pytest.mark.rule("WH-35", "WH-37")
def test_wh_e7_self_drawn_and_the_two_seven_ten_run() -> None:
    assert score(context(E7_HAND, "d6", E7_GROUPS)).value == 68
    assert score(context(E7_HAND, "x10", E7_GROUPS, discarder=2)).value == 56
    strict = score(context(E7_HAND, "x10", E7_GROUPS, discarder=2), xingxingxi="strict")
    assert (strict.value, strict.payments, names(strict)) == (14, (-14, 28, -14), set())


@pytest.mark.rule("WH-35")
@pytest.mark.parametrize(("win", "discarder", "value", "named"), [
    ("x7", 0, 28, {"一点红"}), ("x10", 0, 28, {"一点红"}), ("x8", 0, 56, {"黑胡子"}),
    ("x9", 0, 64, {"黑胡子"}), ("x9", None, 88, {"黑胡子"}),
])
def test_wh_e8_yi_dian_hong_and_hei_hu_zi(win: str, discarder: int | None, value: int, named: set[str]) -> None:
    result = score(context(E8_HAND, win, E8_GROUPS, discarder=discarder))
    assert (result.value, result.payments, names(result)) == (value, (-value, 2 * value, -value), named)


@pytest.mark.rule("WH-35")
def test_wh_e9_huo_huo_fan() -> None:
    result = score(context(E9_HAND, "x9", winner=2, discarder=0))
    assert (result.details["xi"], result.value, result.payments) == (10, 20, (-20, -20, 40))
    assert [(p.chinese, p.value) for p in result.patterns] == [("火火翻", 2)]
    on_x7 = score(context(E9_HAND, "x7", winner=2, discarder=0))
    assert (on_x7.details["xi"], on_x7.value) == (9, 36)
    assert [(p.chinese, p.value) for p in on_x7.patterns] == [("火火翻", 4)]


@pytest.mark.rule("WH-35")
def test_wh_e10_da_zi_hu() -> None:
    result = score(context(E10_HAND, "d3", E10_GROUPS, discarder=2))
    assert (result.details["xi"], result.value, result.payments, names(result)) == (9, 72, (-72, 144, -72),
                                                                                   {"大字胡"})
    assert score(context(E10_HAND, "d3", E10_GROUPS)).value == 96
    assert score(context(E10_HAND, "d3", E10_GROUPS, discarder=2), daxiaozihu=False).value == 9


@pytest.mark.rule("WH-31", "WH-34")
def test_wh_e11_placement_and_yuan() -> None:
    own = score(context(E11_HAND, "x5"))
    assert (own.details["xi"], own.value, own.payments, own.details["inner_yuan"]) == (9, 36, (-36, 72, -36), ["x5"])
    assert "[胡刻 x5x5x5 4]" in own.details["layout"]
    other = score(context(E11_HAND, "x5", discarder=0))
    assert (other.details["xi"], other.value, other.details["outer_yuan"]) == (8, 16, ["x5"])


@pytest.mark.rule("WH-36", "WH-40")
@pytest.mark.parametrize("ready", [False, True])
def test_wh_e12_tian_hu(ready: bool) -> None:
    result = score(context(E3_HAND, "d3", winner=0, heavenly=True, ready_from_deal=ready))
    assert (result.value, result.payments, names(result)) == (20, (40, -20, -20), {"天胡"})  # never with 报听


@pytest.mark.rule("WH-35", "WH-36", "WH-38")
def test_wh_e12_di_hu_takes_no_bao_ting() -> None:
    result = score(context(E3_HAND, "d3", discarder=0, earthly=True, ready_from_deal=True))
    assert (result.value, result.payments, names(result)) == (20, (-20, 40, -20), {"地胡"})


@pytest.mark.rule("WH-38", "WH-39")
def test_wh_e12_bao_ting() -> None:
    result = score(context(E3_HAND, "d3", discarder=2, ready_from_deal=True))
    assert (result.value, result.payments, names(result)) == (20, (-20, 40, -20), {"报听"})
    matched = score(context(E3_HAND, "d3", discarder=2, ready_from_deal=True, shen="even", shen_card=card("x4")))
    assert (matched.value, names(matched)) == (40, {"报听", "神腰"})


@pytest.mark.rule("WH-5", "WH-39")
def test_wh_e13_shen() -> None:
    assert shen_of(card("x7")) == "odd"  # the first hand shows x7: 单神 for the session
    assert shen_of(card("d10")) == "even"
    base = score(context(E3_HAND, "d3", discarder=2)).value
    with_d9 = score(context(E3_HAND, "d3", discarder=2, shen="odd", shen_card=card("d9")))
    assert (with_d9.value, names(with_d9)) == (2 * base, {"神腰"})
    with_x4 = score(context(E3_HAND, "d3", discarder=2, shen="odd", shen_card=card("x4")))
    assert (with_x4.value, names(with_x4)) == (base, set())
    by_option = score(context(E3_HAND, "d3", discarder=2, shen_card=card("d9")), shen="odd")
    assert by_option.value == 2 * base


# ------------------------------------------------------------------ other scoring rules by id


@pytest.mark.rule("WH-35")
@pytest.mark.parametrize("option", [True, False])
def test_wh_35_hai_di_lao_with_its_option(option: bool) -> None:
    result = score(context(E3_HAND, "d3", discarder=2, last_tile=True), haidilao=option)
    assert (result.value, names(result)) == ((20, {"海底捞"}) if option else (5, set()))


@pytest.mark.rule("WH-35")
def test_wh_35_xiao_zi_hu() -> None:
    hand = "x1 x1 x1 x3 x4 x5 x4 x5 x6 x8 x8 x8 x9 x9 x9 x6"  # every card small
    result = score(context(hand, "x7", "[歪 x2x2x2]", discarder=0))
    assert (result.details["xi"], result.value, names(result)) == (13, 104, {"小字胡"})
    assert score(context(hand, "x7", "[歪 x2x2x2]", discarder=0), daxiaozihu=False).value == 13


@pytest.mark.rule("WH-43")
def test_wh_43_cap_limits_each_payment() -> None:
    result = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2), cap=100)
    assert (result.value, result.payments, result.details["score"], result.details["capped"]) == \
        (100, (-100, 200, -100), 480, True)
    uncapped = score(context(E1_HAND, "x1", E1_GROUPS, discarder=2), cap=1000)
    assert (uncapped.value, uncapped.details["capped"]) == (480, False)


@pytest.mark.rule("WH-42", "WH-44")
@pytest.mark.parametrize("winner", [0, 1, 2])
def test_wh_42_each_loser_pays_the_full_score_and_nothing_else(winner: int) -> None:
    discarder = (winner + 1) % 3
    result = score(context(E3_HAND, "x1", winner=winner, discarder=discarder))
    assert result.payments == paid(result, winner) and sum(result.payments) == 0
    assert result.payments[discarder] == result.payments[(winner + 2) % 3]  # no penalty for the discarder


def _extra(hand: str, win: str, **options: Any) -> ScoreResult:
    return score(context(hand, win, discarder=0), extra_mingtang=True, **options)


@pytest.mark.rule("WH-41")
def test_wh_41_dan_piao() -> None:
    hand = "x1 x1 x1 x2 x7 x10 x3 x4 x5 d1 d1 d1 d3 d4 d5 d8 d8 d8 d4"
    result = _extra(hand, "d5")
    assert (result.details["xi"], result.value, names(result)) == (10, 20, {"单漂"})
    assert score(context(hand, "d5", discarder=0)).value == 10  # the pack is off by default


@pytest.mark.rule("WH-41")
def test_wh_41_shuang_piao() -> None:
    result = _extra("x2 x7 x10 d2 d7 d10 x1 x1 x1 x3 x4 x5 d1 d1 d1 d8 d8 d8 d4", "d4")
    assert (result.details["xi"], result.value, names(result)) == (12, 24, {"双漂"})


@pytest.mark.rule("WH-41")
def test_wh_41_yin() -> None:
    result = _extra("x2 x7 x10 x7 x8 x9 x1 x1 x1 d1 d1 d1 d3 d4 d5 d8 d8 d8 d4", "d4")
    assert (result.details["xi"], result.value, names(result)) == (11, 22, {"印"})


@pytest.mark.rule("WH-41", "WH-35")
def test_wh_41_hua_hu_zi() -> None:
    result = _extra("x7 x7 x7 d2 d2 d2 d10 d10 d10 x1 x2 x3 d6 d7 d8 x8 x9 x10 x2", "x2")
    assert names(result) == {"花胡子", "火火翻"}
    assert (result.details["xi"], result.value) == (10, 10 * 64 * 32)  # 14 red cards: 火火翻 ×2^5


# ------------------------------------------------------------------ the table and the core agree


@pytest.mark.rule("WH-35", "WH-36", "WH-41")
def test_the_core_names_and_factors_are_the_tables() -> None:
    core = [(name, chinese, factor) for name, chinese, factor in zipai.MINGTANG.values()]
    table = [(e.name, e.chinese, e.value) for e in (*LAYOUT_MINGTANG, *EXTRA_MINGTANG)]
    assert core == table
    assert all(e.rule in e.doc for e in MINGTANG)  # every predicate's definition names its rule


@pytest.mark.parametrize(("field", "value"), [("round_wind", 1), ("jokers", 2), ("gold", 3), ("liable", 0),
                                              ("declared_ready", True), ("you_level", 1)])
def test_a_mahjong_only_context_field_is_refused_by_name(field: str, value: Any) -> None:
    """A WinContext field Wai Huzi does not read must keep its default: a set one is refused, naming it."""
    import dataclasses

    ctx = dataclasses.replace(context(E1_HAND, "x1", E1_GROUPS, discarder=2), **{field: value})
    with pytest.raises(hupai.HupaiError, match=f"does not use WinContext.{field} "):
        score(ctx)
    assert score(context(E1_HAND, "x1", E1_GROUPS, discarder=2)).value == 480

"""Independent audit of Wai Huzi scoring against waihuzi.md (WH-2, WH-7..9, WH-28..44): new layouts built from the
rule text, not the worked examples, with every number computed by hand from the spec.

Conventions as in the spec's examples: P0 deals, P1 wins unless stated, each loser pays the score (WH-42).
The hand arithmetic is written next to each case so that a reader can check it without the code.
"""

from __future__ import annotations

from typing import Any

import hupai
import pytest
from hupai import zipai
from hupai.rules.waihuzi import NotAWin
from hupai.scoring import ScoreResult, WinContext

from .helpers import card, context


def score(ctx: WinContext, **options: Any) -> ScoreResult:
    return hupai.score(hupai.rules.get("waihuzi", **options), ctx)


def names(result: ScoreResult) -> set[str]:
    return {p.chinese for p in result.patterns}


def each(value: int, winner: int = 1) -> tuple[int, ...]:
    """WH-42: each of the two losers pays ``value``; the winner receives both."""
    return tuple(2 * value if seat == winner else -value for seat in range(3))


# [歪 x9x9x9] + a small, black hand that reads best as five 坎/triplets and a pair (WH-31 picks it).
ALL_KAN_GROUPS, ALL_KAN_HAND = "[歪 x9x9x9]", "x1 x1 x1 x3 x4 x5 x4 x5 x6 x4 x5 x6 x8 x8 x8 x3"
# The same 歪 with a hand that has only one reading: three plain runs and the 门子 x8x9.
HEI_GROUPS, HEI_HAND = "[歪 x9x9x9]", "x1 x1 x1 x8 x8 x8 x3 x4 x5 x4 x5 x6 x4 x5 x6 x8"


# ---------------------------------------------------------------- 息 (WH-9, WH-29, WH-30) and WH-31's choice


@pytest.mark.rule("WH-31", "WH-29", "WH-36")
def test_wh_31_the_highest_score_reading_is_all_triplets() -> None:
    """x3 (other) can close x3x4x5 x4x5x6 x4x5x6 + pair x3x3 (11 息, plain runs), but x3x3x3 x4x4x4 x5x5x5 + pair
    x6x6 is legal too: 歪 4 + 坎 x1 3 + triplet x3 1 + 坎 x4 3 + 坎 x5 3 + 坎 x8 3 + pair 1 = 18 息, 对子息 with no
    red card -> 黑对子胡 ×32, all small -> 小字胡 ×8: 18 × 256 = 4608."""
    result = score(context(ALL_KAN_HAND, "x3", ALL_KAN_GROUPS, discarder=0))
    assert (result.details["xi"], result.value, result.payments) == (18, 4608, each(4608))
    assert names(result) == {"黑对子胡", "小字胡"}


@pytest.mark.rule("WH-29", "WH-31")
def test_wh_29_self_drawn_triplet_in_the_all_triplet_reading() -> None:
    """Self-drawn x3: the triplet counts 4 (歪-type): 21 息 × 256 = 5376."""
    result = score(context(ALL_KAN_HAND, "x3", ALL_KAN_GROUPS))
    assert (result.details["xi"], result.value, result.payments) == (21, 5376, each(5376))


@pytest.mark.rule("WH-30", "WH-8")
def test_wh_30_a_menzi_unit_scores_zero_whatever_the_source() -> None:
    """[歪 d9] + 坎 d1 + 坎 d8 + three plain runs + 门子 d6d7: 4 + 3 + 3 = 10 息 from another player or self-drawn
    (the winning card sits in the 门子, not in a pair or triplet). One red (d7): 一点红 ×4; all big: 大字胡 ×8 ->
    320 each either way."""
    hand = "d1 d1 d1 d3 d4 d5 d4 d5 d6 d3 d4 d5 d8 d8 d8 d6"
    for discarder in (0, None):
        result = score(context(hand, "d7", "[歪 d9d9d9]", discarder=discarder))
        assert (result.details["xi"], result.value, result.payments) == (10, 320, each(320))
        assert names(result) == {"一点红", "大字胡"}
        assert result.details["parts"][-1]["type"] == "menzi"


@pytest.mark.rule("WH-9", "WH-30", "WH-32")
def test_wh_32_min_huxi_counts_the_layout_not_the_score() -> None:
    """The 320-point layout above has 10 息: min_huxi 10 wins, 11 does not, though the score is far above both."""
    hand = "d1 d1 d1 d3 d4 d5 d4 d5 d6 d3 d4 d5 d8 d8 d8 d6"
    assert score(context(hand, "d7", "[歪 d9d9d9]", discarder=0), min_huxi=10).value == 320
    with pytest.raises(NotAWin, match="below min_huxi 11"):
        score(context(hand, "d7", "[歪 d9d9d9]", discarder=0), min_huxi=11)


@pytest.mark.rule("WH-32")
def test_wh_32_min_huxi_zero_lets_a_zero_xi_layout_win() -> None:
    """Six plain runs and a plain 门子: 0 息. Under the default min_huxi 5 it is no win; with min_huxi 0 it wins
    for 0 (no 名堂 can lift 0 息)."""
    hand = "x1 x2 x3 x4 x5 x6 d1 d2 d3 d4 d5 d6 x3 x4 x5 d3 d4 d5 x8"
    with pytest.raises(NotAWin):
        score(context(hand, "x9", discarder=0))
    result = score(context(hand, "x9", discarder=0), min_huxi=0)
    assert (result.details["xi"], result.value, result.payments) == (0, 0, (0, 0, 0))


# ---------------------------------------------------------------- 元 (WH-34)


@pytest.mark.rule("WH-34")
def test_wh_34_the_winning_card_decides_inner_or_outer() -> None:
    """HEI layout + x9: [歪 x9x9x9] + 坎 x1 + 坎 x8 + runs x3x4x5 x4x5x6 x4x5x6 + 门子 x8x9 = 10 息.
    x8: 坎 + the 门子's x8, all dealt -> 内元 ×4. x9: the 歪's three + the winning x9 -> 外元 ×2 from P2,
    内元 ×4 self-drawn. No red: 黑胡子 ×8; all small: 小字胡 ×8.
    From P2: 10 × 64 × 4 × 2 = 5120. Self-drawn: 10 × 64 × 4 × 4 = 10240."""
    other = score(context(HEI_HAND, "x9", HEI_GROUPS, discarder=2))
    assert (other.value, other.payments) == (5120, each(5120))
    assert (other.details["inner_yuan"], other.details["outer_yuan"]) == (["x8"], ["x9"])
    assert names(other) == {"黑胡子", "小字胡"}
    own = score(context(HEI_HAND, "x9", HEI_GROUPS))
    assert (own.value, own.payments) == (10240, each(10240))
    assert (sorted(own.details["inner_yuan"]), own.details["outer_yuan"]) == (["x8", "x9"], [])


@pytest.mark.rule("WH-35")
def test_wh_35_daxiaozihu_off_drops_xiao_zi_hu_only() -> None:
    """The same win without 大/小字胡: 10 × 8 (黑胡子) × 4 × 2 = 640."""
    result = score(context(HEI_HAND, "x9", HEI_GROUPS, discarder=2), daxiaozihu=False)
    assert (result.value, names(result)) == (640, {"黑胡子"})


CHI_HAND = "x3 x3 x3 d2 d7 d10 x8 x9 x10 d4 d5 d6 d1 d1 d1 d9"


@pytest.mark.rule("WH-34", "WH-9")
@pytest.mark.parametrize(("taken", "own_draw", "value", "inner", "outer"), [
    ("x3", False, 16, [], ["x3"]),   # the chowed x3 came from another player: the four x3 are 外元
    ("x4", False, 32, ["x3"], []),   # the chowed card was x4: every x3 is the winner's own
    ("x3", True, 32, ["x3"], []),    # x3 chowed from its own turned-up card: still its own draw
])
def test_wh_34_a_chowed_card_makes_its_value_outer(taken: str, own_draw: bool, value: int, inner: list[str],
                                                     outer: list[str]) -> None:
    """[吃 x3x4x5] + 坎 x3 + d2d7d10 (1) + x8x9x10 + d4d5d6 + 坎 d1 + pair d9 (单碰 1): 0+3+1+0+0+3+1 = 8 息,
    4 red cards (no colour 名堂), plain runs (no 行行息); the four x3 make one 元."""
    chi = zipai.Declared.chi("x3 x4 x5", taken, own_draw=own_draw)
    ctx = WinContext(winner=1, win_tile=card("d9"), concealed=tuple(zipai.parse(CHI_HAND)), melds=(chi,),
                     discarder=0, num_players=3)
    result = score(ctx)
    assert (result.details["xi"], result.value, result.payments) == (8, value, each(value))
    assert (result.details["inner_yuan"], result.details["outer_yuan"]) == (inner, outer)
    assert names(result) == set()


@pytest.mark.rule("WH-34", "WH-36", "WH-35")
def test_wh_34_liu_inner_piao_outer_with_hei_dui_zi_hu_and_da_zi_hu() -> None:
    """[碰 d1] 1 + [溜 d3] 4 + [飘 d4] 1 + 坎 d5 d6 d8 (9) + pair d9 (单碰 1) = 16 息; all same-card groups and a
    pair, no red -> 黑对子胡 ×32 (flat, WH-36), all big -> 大字胡 ×8; 溜 d3 内元 ×4, 飘 d4 外元 ×2:
    16 × 32 × 8 × 4 × 2 = 32768. Self-drawn d9 (单歪 4): 19 × 2048 = 38912."""
    groups, hand = "[碰 d1d1d1] [溜 d3d3d3d3] [飘 d4d4d4d4]", "d5 d5 d5 d6 d6 d6 d8 d8 d8 d9"
    other = score(context(hand, "d9", groups, discarder=2))
    assert (other.details["xi"], other.value, other.payments) == (16, 32768, each(32768))
    assert names(other) == {"黑对子胡", "大字胡"}
    assert (other.details["inner_yuan"], other.details["outer_yuan"]) == (["d3"], ["d4"])
    own = score(context(hand, "d9", groups))
    assert (own.details["xi"], own.value) == (19, 38912)


@pytest.mark.rule("WH-43")
def test_wh_43_cap_below_a_large_score() -> None:
    """The 32768 win with cap 1000: each loser pays 1000; details keep the uncapped score."""
    groups, hand = "[碰 d1d1d1] [溜 d3d3d3d3] [飘 d4d4d4d4]", "d5 d5 d5 d6 d6 d6 d8 d8 d8 d9"
    result = score(context(hand, "d9", groups, discarder=2), cap=1000)
    assert (result.value, result.payments, result.details["score"], result.details["capped"]) == (
        1000, (-1000, 2000, -1000), 32768, True)
    assert score(context(hand, "d9", groups, discarder=2), cap=40000).value == 32768


# ---------------------------------------------------------------- colour 名堂 (WH-2, WH-35)


@pytest.mark.rule("WH-35", "WH-2", "WH-34")
def test_wh_35_huo_huo_fan_counts_the_four_card_groups() -> None:
    """[溜 x2x2x2x2] 4 + [飘 d10d10d10d10] 1 + 坎 x7 3 + x3x4x5 + d1d2d3 + d4d5d6 + 门子 d7d8 = 8 息.
    Red: x2×4, d10×4, x7×3, d2, d7 = 13 -> 火火翻 ×2^(13−9) = ×16; 溜 x2 内元 ×4, 飘 d10 外元 ×2:
    8 × 16 × 4 × 2 = 1024."""
    result = score(context("x7 x7 x7 x3 x4 x5 d1 d2 d3 d4 d5 d6 d7", "d8", "[溜 x2x2x2x2] [飘 d10d10d10d10]",
                           discarder=0))
    assert (result.details["xi"], result.value, result.payments) == (8, 1024, each(1024))
    assert names(result) == {"火火翻"}
    assert [p.value for p in result.patterns] == [16]


HUO = "x2 x2 x2 x7 x7 x7 {big} {small} d1 d1 d1 x10"


@pytest.mark.rule("WH-35", "WH-2")
@pytest.mark.parametrize(("big", "small", "xi", "reds", "value"), [
    ("d2 d3 d4 d4 d5 d6", "x3 x4 x5", 10, 9, 10),     # 9 red: no 火火翻
    ("d2 d3 d4 d5 d6 d7", "x3 x4 x5", 10, 10, 20),    # 10 red: ×2
    ("d2 d7 d10 d4 d5 d6", "x3 x4 x5", 11, 11, 44),   # 11 red: ×4
    ("d2 d7 d10 d5 d6 d7", "x3 x4 x5", 11, 12, 88),   # 12 red: ×8
    ("d2 d7 d10 d5 d6 d7", "x8 x9 x10", 11, 13, 176),  # 13 red: ×16
])
def test_wh_35_huo_huo_fan_ladder(big: str, small: str, xi: int, reds: int, value: int) -> None:
    """坎 x2 3 + 坎 x7 3 + 坎 d1 3 + pair x10 (单碰 1) + two big runs (d2d7d10: 1) + a small run; x10 from P0.
    Red cards: x2×3 + x7×3 + x10×2 + the reds of the runs. With x8x9x10 the small cards also read as triplet x10
    (1) + 门子 x8x9 (0): the same 7 息."""
    result = score(context(HUO.format(big=big, small=small), "x10", discarder=0))
    assert (result.details["xi"], result.value, result.payments) == (xi, value, each(value))
    assert sum(zipai.is_red(c) for p in result.details["parts"] for c in zipai.parse(p["cards"])) == reds
    assert names(result) == (set() if reds < 10 else {"火火翻"})


# ---------------------------------------------------------------- 行行息 / 对子息 (WH-35..37)

CHI27_GROUPS, CHI27_HAND = "[吃 d2d7d10] [碰 x1x1x1]", "x4 x4 x4 d5 d5 d5 x9 x9 x9 d8 d8 d8 x6"


@pytest.mark.rule("WH-37", "WH-9")
@pytest.mark.parametrize(("reading", "value", "named"), [("loose", 60, {"行行息"}), ("strict", 15, set())])
def test_wh_37_a_chowed_two_seven_ten_run(reading: str, value: int, named: set[str]) -> None:
    """[吃 d2d7d10] 1 + [碰 x1] 1 + 坎 x4 x9 d5 d8 (12) + pair x6 (单碰 1) = 15 息, every unit > 0 息. loose:
    行行息 ×4 = 60; strict: the declared run rules it out = 15. Not 对子息 (a run), 3 red cards."""
    result = score(context(CHI27_HAND, "x6", CHI27_GROUPS, discarder=0), xingxingxi=reading)
    assert (result.details["xi"], result.value, result.payments, names(result)) == (15, value, each(value), named)


@pytest.mark.rule("WH-37")
def test_wh_37_a_plain_menzi_unit_rules_out_xing_xing_xi() -> None:
    """Same groups but the unit is the 门子 x5x6 (0 息; x5 from P0): 14 息, no 行行息 under either reading."""
    hand = "x4 x4 x4 d5 d5 d5 x9 x9 x9 d8 d8 d8 x6"
    for reading in ("loose", "strict"):
        result = score(context(hand, "x5", CHI27_GROUPS, discarder=0), xingxingxi=reading)
        assert (result.details["xi"], result.value, names(result)) == (14, 14, set())


@pytest.mark.rule("WH-36", "WH-35")
def test_wh_36_dui_zi_xi_with_red_is_eight_and_takes_no_xing_xing_xi() -> None:
    """[碰 x7] 1 + [飘 d6] 1 + 坎 x1 d3 d9 (9) + 坎 x4 (3) + pair x5 (单碰 1) = 15 息; same-card groups and a pair:
    对子息 ×8 (not also 行行息, WH-36); 3 red cards (x7): no colour 名堂; 飘 d6 外元 ×2: 15 × 8 × 2 = 240."""
    result = score(context("x1 x1 x1 d3 d3 d3 d9 d9 d9 x4 x4 x4 x5", "x5", "[碰 x7x7x7] [飘 d6d6d6d6]",
                           discarder=2))
    assert (result.details["xi"], result.value, result.payments, names(result)) == (15, 240, each(240), {"对子息"})


# ---------------------------------------------------------------- the optional pack (WH-41)

PIAO_HAND = "d7 d7 d7 x1 x1 x1 x3 x4 x5 d3 d4 d5 d4 d5 d6 {last}"


@pytest.mark.rule("WH-41")
@pytest.mark.parametrize(("groups", "last", "win", "xi", "named"), [
    # 碰 x8 1 + 坎 d7 3 + 坎 x1 3 + three plain runs + pair x9 1 = 8; the only reds: the 坎 d7 -> 单漂
    ("[碰 x8x8x8]", "x9", "x9", 8, {"单漂"}),
    # 碰 x2 (all red) + 坎 d7 (all red), nothing else red -> 双漂
    ("[碰 x2x2x2]", "x9", "x9", 8, {"双漂"}),
    # 坎 d7 all red, and one more red card: the x7 of the 门子 x6x7 (0 息) -> 印
    ("[碰 x8x8x8]", "x6", "x7", 7, {"印"}),
])
def test_wh_41_dan_piao_shuang_piao_yin(groups: str, last: str, win: str, xi: int, named: set[str]) -> None:
    ctx = context(PIAO_HAND.format(last=last), win, groups, discarder=0)
    off = score(ctx)
    assert (off.details["xi"], off.value, names(off)) == (xi, xi, set())  # extra_mingtang = false by default
    on = score(ctx, extra_mingtang=True)
    assert (on.value, on.payments, names(on)) == (2 * xi, each(2 * xi), named)


@pytest.mark.rule("WH-41", "WH-35")
def test_wh_41_hua_hu_zi_multiplies_with_huo_huo_fan() -> None:
    """[碰 x2] 1 + [歪 d10] 4 + x6x7x8 x7x8x9 d1d2d3 d7d8d9 + pair x10 (单碰 1) = 6 息; every unit holds a red
    card: 花胡子 ×64; 12 red cards: 火火翻 ×8. Off: 6 × 8 = 48; on: 6 × 64 × 8 = 3072."""
    ctx = context("x6 x7 x8 d1 d2 d3 x7 x8 x9 d7 d8 d9 x10", "x10", "[碰 x2x2x2] [歪 d10d10d10]", discarder=0)
    assert (score(ctx).value, names(score(ctx))) == (48, {"火火翻"})
    on = score(ctx, extra_mingtang=True)
    assert (on.details["xi"], on.value, on.payments, names(on)) == (6, 3072, each(3072), {"花胡子", "火火翻"})


# ---------------------------------------------------------------- how the hand was won (WH-35, WH-38..40)

TIAN_HAND = "x1 x1 x1 x3 x3 x3 x4 x4 x4 x5 x5 x5 x6 x6 x8 x8 x8 x9 x9"  # + x9: the dealer's 20 cards


@pytest.mark.rule("WH-40", "WH-28", "WH-36")
def test_wh_40_tian_hu_reads_every_triplet_as_a_kan() -> None:
    """The dealer's 20: 坎 x1 x3 x4 x5 x8 x9 (18) + pair x6 (1) = 19 息; 黑对子胡 ×32, 小字胡 ×8, 天胡 ×4:
    19 × 1024 = 19456 each, P0 +38912."""
    result = score(context(TIAN_HAND, "x9", winner=0, dealer=0, heavenly=True))
    assert (result.details["xi"], result.value, result.payments) == (19, 19456, (38912, -19456, -19456))
    assert names(result) == {"黑对子胡", "小字胡", "天胡"}
    # 报听 never joins 天胡 (WH-36)
    assert score(context(TIAN_HAND, "x9", winner=0, dealer=0, heavenly=True, ready_from_deal=True)).value == 19456


@pytest.mark.rule("WH-38", "WH-35", "WH-39")
def test_wh_38_bao_ting_hai_di_lao_and_shen_yao_all_multiply() -> None:
    """HEI layout from P2 (5120) won on the 海底 card, ready from the deal, 神腰 (odd 神, d9 shown):
    5120 × 4 × 4 × 2 = 163840. Without the haidilao option: 40960. Even 神 with d9: no 神腰 -> 81920."""
    facts = dict(discarder=2, last_tile=True, ready_from_deal=True, shen="odd", shen_card=card("d9"))
    result = score(context(HEI_HAND, "x9", HEI_GROUPS, **facts))
    assert (result.value, result.payments) == (163840, each(163840))
    assert names(result) == {"黑胡子", "小字胡", "报听", "海底捞", "神腰"}
    assert score(context(HEI_HAND, "x9", HEI_GROUPS, **facts), haidilao=False).value == 40960
    facts["shen"] = "even"
    assert score(context(HEI_HAND, "x9", HEI_GROUPS, **facts)).value == 81920


@pytest.mark.rule("WH-35", "WH-36", "WH-38")
def test_wh_36_di_hu_replaces_bao_ting() -> None:
    """地胡 on P0's first discard with 报听 too: ×4 once. HEI layout from P0: 5120 × 4 = 20480."""
    result = score(context(HEI_HAND, "x9", HEI_GROUPS, discarder=0, dealer=0, earthly=True, ready_from_deal=True))
    assert (result.value, names(result)) == (20480, {"黑胡子", "小字胡", "地胡"})


@pytest.mark.rule("WH-42", "WH-44")
@pytest.mark.parametrize("winner", [0, 2])
def test_wh_42_payments_follow_the_winner_seat(winner: int) -> None:
    """Each loser pays the score, whoever discarded (no discarder penalty, WH-44): CHI27 layout, 60 each."""
    discarder = (winner + 1) % 3
    result = score(context(CHI27_HAND, "x6", CHI27_GROUPS, winner=winner, discarder=discarder))
    assert result.payments == each(60, winner)

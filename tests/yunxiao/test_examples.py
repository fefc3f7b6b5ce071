"""The spec's worked examples YX-E1 .. YX-E18 and YX-E21 (yunxiao.md §13): patterns, rows and exact per-seat
payments. Base 1 and ``points_000`` unless stated; P0 deals.

Game-flow examples are tested here only in their pure parts: YX-E4..E6 score the declaration at the level the
flow reached (the level transitions are in ``test_you_shape.py``), YX-E15/E16 score the kong and gold events,
YX-E18 checks the 白板 stand-in. YX-E19 (过张), YX-E20 (漏胡) and YX-E22 (wall end) are engine flow.
"""

from __future__ import annotations

import pytest
from hupai.errors import HupaiError
from hupai.rules.yunxiao.hand import chow_forbidden_discards, effective_kind, is_gold
from hupai.rules.yunxiao.options import YunxiaoOptions
from hupai.rules.yunxiao.patterns import waits, you_state_allows

from .helpers import kind, meld, score, tiles

MULTIPLIER = YunxiaoOptions(scoring="multiplier_001")


def test_yx_e1_plain_discard_win():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=1, event="discard", discarder=3)
    assert result.pattern_names == ("ping_hu", "dian_pao")
    assert result.details["row"] == 6
    assert result.payments == (-1, 4, -1, -2)


def test_yx_e2_self_draw():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=1, event="self_draw")
    assert result.details["row"] == 6
    assert result.payments == (-2, 6, -2, -2)


def test_yx_e3_base_points():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=1, event="discard", discarder=3,
                   options=YunxiaoOptions(base_points=5))
    assert result.payments == (-5, 20, -5, -10)


def test_yx_e4_dan_you_jin():
    option_a = score("123m456m789p111z5p", "9s", gold="5p", winner=2, event="self_draw")
    assert option_a.payments == (-2, -2, 6, -2)
    assert not you_state_allows("discard", 2, [0, 0, 1, 0])  # P1's 3p cannot be won on by P2
    option_b = score("123m456m789p111z", "5p", gold="5p", winner=2, event="you_jin", you_level=1)
    assert option_b.pattern_names == ("dan_you_jin",)
    assert option_b.details["row"] == 9
    assert option_b.payments == (-4, -4, 12, -4)


def test_yx_e5_shuang_you_jin():
    levels = [0, 0, 2, 0]
    for seat in range(4):
        assert not you_state_allows("discard", seat, levels)
        assert not you_state_allows("rob_kong", seat, levels)
        assert not you_state_allows("rob_gold", seat, levels)
    result = score("123m456m789p111z", "5p", gold="5p", winner=2, event="you_jin", you_level=2)
    assert result.pattern_names == ("shuang_you_jin",)
    assert result.payments == (-8, -8, 24, -8)


def test_yx_e6_san_you_jin():
    levels = [0, 0, 3, 0]
    assert not you_state_allows("self_draw", 0, levels)
    assert you_state_allows("ming_gang", 0, levels) and you_state_allows("an_gang", 3, levels)
    result = score("123m456m789p111z", "5p", gold="5p", winner=2, event="you_jin", you_level=3)
    assert result.pattern_names == ("san_you_jin",)
    assert result.payments == (-16, -16, 48, -16)


def test_yx_e7_qing_yi_se_you_jin():
    draw = score("123m456m789m111m5m", "2m", gold="5m", winner=1, event="self_draw")
    assert draw.pattern_names == ("qing_yi_se", "zi_mo") and draw.details["row"] == 4
    assert draw.payments == (-10, 30, -10, -10)
    for level, each, row_name in ((1, 12, "qing_yi_se_dan_you_jin"), (2, 16, "qing_yi_se_shuang_you_jin"),
                                  (3, 24, "qing_yi_se_san_you_jin")):
        declared = score("123m456m789m111m", "5m", gold="5m", winner=1, event="you_jin", you_level=level)
        assert declared.details["row"] == 10 and declared.details["row_name"] == row_name
        assert declared.payments == (-each, 3 * each, -each, -each)


def test_yx_e8_qing_yi_se_on_a_discard():
    result = score("123m456m789m111m9m", "9m", gold="5p", winner=1, event="discard", discarder=3)
    assert result.pattern_names == ("qing_yi_se", "dian_pao") and result.details["row"] == 4
    assert result.payments == (-9, 28, -9, -10)


def test_yx_e9_san_pu_qing_yi_se():
    melds = (meld("123m", claimed_from=0), meld("456m", claimed_from=0), meld("999m", claimed_from=2))
    result = score("78m55m", "6m", gold="5p", winner=1, event="discard", discarder=3, melds=melds)
    assert result.pattern_names == ("qing_yi_se", "san_pu", "dian_pao") and result.details["row"] == 3
    assert result.payments == (-1, 28, -1, -26)


def test_yx_e10_tian_hu_and_di_hu():
    tian = score("123m456m789p111z5s", "5s", gold="9s", winner=0, event="tian_hu")
    assert tian.details["row"] == 1 and "tian_hu" in tian.pattern_names
    assert tian.payments == (30, -10, -10, -10)
    di = score("123m456m789p5s111z", "5s", gold="9s", winner=2, event="di_hu", discarder=0)
    assert di.details["row"] == 2 and "di_hu" in di.pattern_names
    assert di.payments == (-10, -9, 28, -9)


def test_yx_e11_yao_jiu():
    waiting = tiles("19m19p19s1234567z")
    assert waits(waiting, kind("5m")) == list(tiles("19m19p19s1234567z"))
    assert kind("5m") not in waits(waiting, kind("5m"))  # a drawn gold is no 幺九 tile
    on_discard = score("19m19p19s1234567z", "9m", gold="5m", winner=1, event="discard", discarder=3)
    assert on_discard.pattern_names == ("yao_jiu", "dian_pao") and on_discard.details["row"] == 5
    assert on_discard.payments == (-2, 6, -2, -2)
    drawn = score("19m19p19s1234567z", "1z", gold="5m", winner=1, event="self_draw")
    assert drawn.payments == (-4, 12, -4, -4)
    white = score("19m19p19s1234567z", "5z", gold="5m", winner=1, event="discard", discarder=3)
    assert white.pattern_names[0] == "yao_jiu"


def test_yx_e12_bu_da():
    waiting = tiles("14m259s369p12467z")
    assert waits(waiting, kind("5p")) == list(tiles("789m5p"))
    result = score("14m259s369p12467z", "8m", gold="5p", winner=1, event="discard", discarder=3)
    assert result.pattern_names == ("bu_da", "dian_pao") and result.details["row"] == 6
    assert result.payments == (-1, 4, -1, -2)
    loose = YunxiaoOptions(buda_loose=True)
    assert waits(waiting, kind("5p"), options=loose) == list(tiles("789m5p35z"))


def test_yx_e13_dui_dui_hu_and_its_you():
    drawn = score("1133m2299p55s77z8p", "6s", gold="8p", winner=1, event="self_draw")
    assert drawn.pattern_names == ("dui_dui_hu", "zi_mo")
    assert drawn.payments == (-2, 6, -2, -2)
    declared = score("1133m2299p55s77z", "8p", gold="8p", winner=1, event="you_jin", you_level=1)
    assert declared.payments == (-4, 12, -4, -4)


def test_yx_e14_san_jin_dao():
    result = score("19m479p258s127z3s3s", "3s", gold="3s", winner=2, event="san_jin_dao")
    assert result.pattern_names == ("san_jin_dao",) and result.details["row"] == 7
    assert result.payments == (-2, -2, 6, -2)
    with pytest.raises(HupaiError):  # no other form, so no 自摸 either
        score("19m479p258s127z3s3s", "3s", gold="3s", winner=2, event="self_draw")


def test_yx_e15_kongs_and_robbing():
    robbed = score("12s456m789m111z55p", "3s", gold="9p", winner=3, event="rob_kong", discarder=2)
    assert "qiang_gang_hu" in robbed.pattern_names
    assert robbed.payments == (-2, -2, -2, 6)  # the konger pays like the others
    exposed_kong = meld("3333s")
    ming = score("123m456m789p1z", "1z", gold="9p", winner=2, event="ming_gang", melds=(exposed_kong,))
    assert ming.details["row"] == 8 and "ming_gang_hu" in ming.pattern_names
    assert ming.payments == (-4, -4, 12, -4)
    concealed_kong = meld("3333s", concealed=True)
    an = score("123m456m789p1z", "1z", gold="9p", winner=2, event="an_gang", melds=(concealed_kong,))
    assert "an_gang_hu" in an.pattern_names
    assert an.payments == (-2, -2, 6, -2)


def test_yx_e16_qiang_jin_hu():
    result = score("123m456m789s55p34s", "7p", gold="7p", winner=1, event="rob_gold")
    assert "qiang_jin_hu" in result.pattern_names
    assert result.payments == (-2, 6, -2, -2)


def test_yx_e17_fifth_copy_is_no_win():
    with pytest.raises(HupaiError):
        score("1m234p567p789s", "5s", gold="5s", winner=1, event="self_draw", melds=(meld("111m"),))


def test_yx_e18_white_stand_in_and_unclaimable_gold():
    assert effective_kind(kind("5z"), kind("5m")) == kind("5m")  # chowable with 46m as 5m
    assert is_gold(kind("5m"), kind("5m"))                       # a discarded 5m is a gold: no claim
    assert kind("5z") in waits(tiles("46m123p789p11z123s"), kind("5m"))


def test_yx_e19_guo_zhang_pure_part():
    """YX-16: the forbidden discards after a chow (the turn itself is engine flow)."""
    gold = kind("9p")
    assert chow_forbidden_discards(kind("5m"), (kind("3m"), kind("4m")), gold) == {kind("2m"), kind("5m")}
    assert chow_forbidden_discards(kind("5m"), (kind("4m"), kind("6m")), gold) == {kind("5m")}  # 三角码
    assert chow_forbidden_discards(kind("3m"), (kind("1m"), kind("2m")), gold) == {kind("3m")}  # no 0m
    assert chow_forbidden_discards(kind("7s"), (kind("8s"), kind("9s")), gold) == {kind("7s")}
    # G=5m: a 白板 plays as 5m and is forbidden with it; the gold 5m itself may always go.
    forbidden = chow_forbidden_discards(kind("2m"), (kind("3m"), kind("4m")), kind("5m"))
    assert forbidden == {kind("2m"), kind("5z")}


def test_yx_e21_multiplier_001():
    e1 = score("123m456m789p5s111z", "5s", gold="9s", winner=1, event="discard", discarder=3,
               options=MULTIPLIER)
    assert e1.payments == (-1, 3, -1, -1)
    tian = score("123m456m789p111z5s", "5s", gold="9s", winner=0, event="tian_hu", options=MULTIPLIER)
    assert tian.payments == (24, -8, -8, -8)
    you = score("123m456m789p111z", "5p", gold="5p", winner=2, event="you_jin", you_level=1,
                options=MULTIPLIER)
    assert you.payments == (-4, -4, 12, -4)

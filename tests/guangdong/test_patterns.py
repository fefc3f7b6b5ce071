"""Guangdong pattern tables: each pattern alone on small literal readings, then how they combine (GD-15..21).

Readings are written one group per word, ``[...]`` = a declared meld (``Reading.parse``).
"""

from __future__ import annotations

import pytest
from hupai import HupaiError, parse
from hupai.rules.guangdong import patterns as gd
from hupai.rules.guangdong.options import GuangdongOptions
from hupai.rules.guangdong.patterns import BEYOND_LIMIT, EXTRAS, WITHIN_LIMIT, Reading
from hupai.rules.guangdong.scoring import evaluate, score_win
from hupai.scoring import WinContext

R = Reading.parse


def win(hand: str, tile: str, *, winner: int = 1, discarder: int | None = 3, **flags: object) -> WinContext:
    """A fully concealed win; P0 deals, so with dealer_east the seat wind is the winner's seat."""
    return WinContext(winner=winner, win_tile=parse(tile)[0], concealed=tuple(parse(hand)),
                      discarder=discarder, seat_wind=winner, **flags)  # type: ignore[arg-type]


# --- the tables themselves ----------------------------------------------------------------------------------

SPEC_FAN = {
    "ji_hu": 0, "ping_hu": 1, "peng_peng_hu": 2, "hun_yi_se": 2,
    "zi_mo": 1, "men_feng": 1, "quan_feng": 1, "bai_ban": 1, "fa_cai": 1, "hong_zhong": 1,
    "qing_yi_se": 4, "hun_peng": 4, "qing_peng": 5, "hun_yao_jiu": 5, "xiao_san_yuan": 5, "xiao_si_xi": 5,
    "zi_yi_se": 6, "qing_yao_jiu": 6, "da_san_yuan": 6, "da_si_xi": 6, "jiu_lian_bao_deng": 6,
    "shi_san_yao": 6,
}


def test_gd_16_17_19_tables_match_the_spec_fan():
    table = {entry.name: entry.value for entry in (*WITHIN_LIMIT, *EXTRAS, *BEYOND_LIMIT)}
    assert table == SPEC_FAN


def test_every_pattern_names_its_rule_and_its_chinese():
    every = (*WITHIN_LIMIT, *EXTRAS, *BEYOND_LIMIT, *gd.MINIMUM_WINS, *gd.FLAT_WINS)
    assert len({entry.name for entry in every}) == len(every)
    for entry in every:
        assert "GD-" in entry.doc, entry.name
        assert entry.chinese in entry.doc, entry.name
        assert entry.holds.__name__ == entry.name
        assert entry.rule in entry.doc, entry.name


# --- GD-16 within-limit patterns ----------------------------------------------------------------------------

def test_gd_16_ji_hu_matches_no_other_pattern():
    assert gd.ji_hu(R("123m 456p 789s 222s 55p"))
    assert not gd.ji_hu(R("123m 456m 789p 234s 55s"))        # 平胡
    assert not gd.ji_hu(R("111m 999p 222s 555z 44s"))         # 碰碰胡
    assert not gd.ji_hu(R("123m 456m 777m 234m 11z"))         # 混一色


def test_gd_16_ping_hu_all_chows_any_pair():
    assert gd.ping_hu(R("123m 456m 789p 234s 55s"))
    assert gd.ping_hu(R("123m 456m 789p [234s] 77z"))         # a dragon pair is still 平胡 (spec: any pair)
    assert not gd.ping_hu(R("123m 456m 789p 222s 55s"))


def test_gd_16_peng_peng_hu_pungs_or_kongs():
    assert gd.peng_peng_hu(R("111m 999p [666z] 555z 44s"))
    assert gd.peng_peng_hu(R("[1111m] 999p 666z 555z 44s"))
    assert not gd.peng_peng_hu(R("123m 999p 666z 555z 44s"))


def test_gd_16_hun_yi_se_one_suit_and_honors():
    assert gd.hun_yi_se(R("123m 456m 789m 234m 11z"))
    assert gd.hun_yi_se(R("123m 456m 789m 777z 11m"))
    assert not gd.hun_yi_se(R("123m 456m 789m 234m 11m"))     # no honor: 清一色
    assert not gd.hun_yi_se(R("123m 456m 789p 234m 11z"))     # two suits
    assert not gd.hun_yi_se(R("111z 222z 333z 555z 66z"))     # no suit: 字一色


# --- GD-17 extras -------------------------------------------------------------------------------------------

def test_gd_17_zi_mo():
    assert gd.zi_mo(R("123m 456p 789s 222s 55p", self_drawn=True))
    assert not gd.zi_mo(R("123m 456p 789s 222s 55p"))


def test_gd_17_men_feng_and_quan_feng():
    south_pung = "222z 123m 456p 789s 55s"
    assert gd.men_feng(R(south_pung, seat_wind=1)) and not gd.quan_feng(R(south_pung, seat_wind=1))
    assert gd.quan_feng(R(south_pung, seat_wind=0, round_wind=1)) and not gd.men_feng(R(south_pung))
    assert not gd.men_feng(R("123m 456p 789s 555s 22z", seat_wind=1))   # a pair is not a pung


def test_gd_17_seat_wind_equal_to_round_wind_gives_two():
    result = evaluate(R("[1111z] 123m 456p 789s 55s", seat_wind=0, round_wind=0), cap_fan=3)
    assert [p.name for p in result.patterns] == ["ji_hu", "men_feng", "quan_feng"]
    assert result.value == 2


def test_gd_17_each_dragon_pung():
    reading = R("555z [666z] 123m 456p 11s")
    assert gd.bai_ban(reading) and gd.fa_cai(reading) and not gd.hong_zhong(reading)
    assert gd.hong_zhong(R("777z 123m 456p 789s 11s"))


def test_gd_17_extras_only_for_within_limit_hands():
    # 小三元 holds two dragon pungs and is self-drawn, but beyond-limit hands take no extras.
    result = evaluate(R("555z 666z 77z 123m 456p", self_drawn=True), cap_fan=3)
    assert [p.name for p in result.patterns] == ["xiao_san_yuan"]
    assert result.value == 5


# --- GD-18 limit --------------------------------------------------------------------------------------------

def test_gd_18_within_limit_sum_is_capped():
    result = evaluate(R("666z 555z 111m 999p 44s", self_drawn=True), cap_fan=3)
    assert result.fan_before_limit == 5 and result.value == 3 and not result.beyond_limit
    assert evaluate(R("666z 555z 111m 999p 44s", self_drawn=True), cap_fan=8).value == 5


def test_gd_18_ping_hu_plus_hun_yi_se_is_three():
    result = evaluate(R("123m 456m 789m 234m 11z"), cap_fan=3)
    assert {p.name for p in result.patterns} == {"ping_hu", "hun_yi_se"} and result.value == 3


# --- GD-19 beyond-limit hands, each alone -------------------------------------------------------------------

def test_gd_19_qing_yi_se():
    assert gd.qing_yi_se(R("123m 345m 567m 789m 99m"))
    assert not gd.qing_yi_se(R("123m 345m 567m 789m 11z"))


def test_gd_19_hun_peng():
    assert gd.hun_peng(R("111m 333m 777m 222z 55z"))
    assert not gd.hun_peng(R("123m 333m 777m 222z 55z"))


def test_gd_19_qing_peng():
    assert gd.qing_peng(R("111p 333p [777p] 999p 55p"))
    assert not gd.qing_peng(R("111p 333p 777p 999s 55p"))


def test_gd_19_hun_yao_jiu():
    assert gd.hun_yao_jiu(R("111m 999p 111s 777z 22z"))
    assert not gd.hun_yao_jiu(R("111m 999p 111s 999s 99m"))    # no honor: 清幺九
    assert not gd.hun_yao_jiu(R("111m 999p 123s 777z 22z"))


def test_gd_19_xiao_san_yuan():
    assert gd.xiao_san_yuan(R("555z 666z 77z 123m 456p"))
    assert not gd.xiao_san_yuan(R("555z 666z 777z 123m 11p"))  # 大三元


def test_gd_19_xiao_si_xi():
    assert gd.xiao_si_xi(R("111z 222z 333z 44z 123m"))
    assert not gd.xiao_si_xi(R("111z 222z 333z 444z 11m"))


def test_gd_19_zi_yi_se():
    assert gd.zi_yi_se(R("111z 222z 555z 777z 66z"))
    assert not gd.zi_yi_se(R("111z 222z 555z 777z 11m"))


def test_gd_19_qing_yao_jiu():
    assert gd.qing_yao_jiu(R("111m 999m 111p 999s 11s"))
    assert not gd.qing_yao_jiu(R("111m 999m 111p 999s 11z"))


def test_gd_19_da_san_yuan():
    assert gd.da_san_yuan(R("555z [666z] 7777z 123m 11p"))
    assert not gd.da_san_yuan(R("555z 666z 77z 123m 111p"))


def test_gd_19_da_si_xi():
    assert gd.da_si_xi(R("111z 222z 333z [444z] 11m"))
    assert not gd.da_si_xi(R("111z 222z 333z 44z 111m"))


def test_gd_19_jiu_lian_bao_deng_needs_the_pure_thirteen():
    assert gd.jiu_lian_bao_deng(R("111p 234p 55p 678p 999p", win_tile="5p"))
    assert gd.jiu_lian_bao_deng(R("111p 123p 456p 789p 99p", win_tile="1p"))
    # The same 14 tiles, but the 13 before the win were 1123455678999 + 1p drawn: not 九莲宝灯.
    assert not gd.jiu_lian_bao_deng(R("111p 234p 55p 678p 999p", win_tile="1p"))
    assert not gd.jiu_lian_bao_deng(R("[111p] 234p 55p 678p 999p", win_tile="5p"))


def test_gd_19_shi_san_yao():
    assert gd.shi_san_yao(R("19m19p19s12345677z"))
    assert not gd.shi_san_yao(R("111m 999p 111s 777z 22z"))


def test_gd_19_highest_alone_no_stacking():
    # 字一色 and 大四喜 both apply (6 each): one counts, the other is reported as not stacked.
    result = evaluate(R("111z 222z 333z 444z 55z"), cap_fan=3)
    assert [p.name for p in result.patterns] == ["zi_yi_se"] and result.value == 6
    assert result.also == ("da_si_xi",)
    # 清碰 (5) beats 清一色 (4) in the same reading.
    assert [p.name for p in evaluate(R("111p 333p 777p 999p 55p"), 3).patterns] == ["qing_peng"]
    # 九莲宝灯 is not also 清一色.
    assert [p.name for p in evaluate(R("111p 234p 55p 678p 999p", win_tile="5p"), 3).patterns] == \
        ["jiu_lian_bao_deng"]


def test_gd_19_beyond_limit_outranks_a_higher_within_limit_reading():
    # Read as chows, 123m x3 + 111z + 77z is 混一色 2 + 门风 1 + 圈风 1 + 自摸 1 = 5 within the limit; read as
    # pungs it is 混碰 4. Even with the limit raised to 10, the beyond-limit reading counts (GD-19).
    result = score_win(win("111222333m111z7z", "7z", winner=0, discarder=None), GuangdongOptions(cap_fan=10))
    assert result.pattern_names == ("hun_peng",) and result.value == 4


# --- GD-15 winning forms and the best reading ---------------------------------------------------------------

def test_gd_15_no_minimum_ji_hu_wins():
    result = score_win(win("123m456p78s222s55p", "9s"), GuangdongOptions())
    assert result.pattern_names == ("ji_hu",) and result.value == 0


def test_gd_15_no_seven_pairs():
    with pytest.raises(HupaiError, match="seven pairs"):
        score_win(win("1133m2255p4466s7z", "7z"), GuangdongOptions())


def test_gd_15_incomplete_hand_raises():
    with pytest.raises(HupaiError, match="not a winning hand"):
        score_win(win("123m456p78s222s55p", "1s"), GuangdongOptions())


def test_gd_15_thirteen_orphans_is_a_winning_form():
    result = score_win(win("19m19p19s1234567z", "1m"), GuangdongOptions())
    assert result.pattern_names == ("shi_san_yao",) and result.value == 6


def test_gd_16_best_reading_is_chosen():
    # 111222333m789m55z: as pungs 混一色 2, as three 123m chows 平胡 + 混一色 = 3.
    result = score_win(win("111222333m789m5z", "5z"), GuangdongOptions())
    assert set(result.pattern_names) == {"ping_hu", "hun_yi_se"} and result.value == 3
    # All in one suit: as pungs 清碰 5 beats the chow reading's 清一色 4.
    result = score_win(win("111222333m999m5m", "5m"), GuangdongOptions())
    assert result.pattern_names == ("qing_peng",) and result.value == 5


def test_reading_parse_rejects_a_non_group():
    with pytest.raises(HupaiError, match="not a pair, pung, kong or chow"):
        R("124m 456p 789s 222s 55p")
    with pytest.raises(HupaiError, match="four melds and one pair"):
        R("123m 456p 789s 55p")

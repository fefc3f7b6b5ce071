"""The factor table (KW-19..24) and the worked examples that are pure scoring (kawuxing.md §12), through
``hupai.score``. Payments are per seat, base 1; P0 deals."""

from __future__ import annotations

import hupai
import pytest
from hupai.errors import HupaiError
from hupai.hand import Meld
from hupai.rules.kawuxing.patterns import FACTORS

from .helpers import kind, pung, score


def names(result):
    return set(result.pattern_names)


@pytest.mark.rule("KW-23")
def test_kw_e1_pi_hu_on_a_discard():
    result = score("23p456p789s234s55s", "1p", discarder=2)
    assert result.patterns == () and result.value == 1
    assert result.payments == (0, 1, -1)


@pytest.mark.rule("KW-25")
def test_kw_e2_self_draw_paid_by_both():
    result = score("23p456p789s234s55s", "1p")
    assert result.payments == (-1, 2, -1)


@pytest.mark.rule("KW-22")
def test_kw_e3_ka_wu_xing():
    result = score("123p789p234s46s77s", "5s", discarder=0)
    assert names(result) == {"ka_wu_xing"}
    assert result.payments == (-2, 2, 0)


def test_kw_e4_qing_yi_se_and_ka_wu_xing_then_an_si_gui_yi():
    result = score("111p234p46p789p99p", "5p")
    assert names(result) == {"qing_yi_se", "ka_wu_xing"}
    assert result.payments == (-8, 16, -8)
    on_one = score("111p234p46p789p99p", "1p")
    assert names(on_one) == {"qing_yi_se", "an_si_gui_yi"}
    assert on_one.value == 16


@pytest.mark.rule("KW-21")
def test_kw_e5_qing_yi_se_and_qi_dui():
    result = score("1122445577889p", "9p")
    assert names(result) == {"qing_yi_se", "qi_dui"}
    assert result.payments == (-16, 32, -16)
    declared = score("1122445577889p", "9p", liangdao=True)
    assert declared.payments == (-32, 64, -32)


def test_kw_e6_long_qi_dui_without_an_si_gui_yi():
    result = score("1111p3355p22s77s9s", "9s", winner=2, discarder=0)
    assert names(result) == {"long_qi_dui"}
    assert result.payments == (-8, 0, 8)


def test_kw_e7_ming_si_gui_yi_and_ka_wu_xing():
    result = score("46s123p789p99p", "5s", discarder=2, melds=(pung("5s", 0),))
    assert names(result) == {"ming_si_gui_yi", "ka_wu_xing"}
    assert result.payments == (0, 4, -4)


def test_kw_e8_an_si_gui_yi():
    result = score("333p12p789s456s77s", "3p")
    assert names(result) == {"an_si_gui_yi"}
    assert result.payments == (-4, 8, -4)


def test_kw_e9_da_san_yuan_peng_peng_hu_shou_zhua_yi():
    melds = (pung("5z"), pung("6z"), pung("7z"), pung("9p", 0))
    result = score("3s", "3s", discarder=2, melds=melds)
    assert names(result) == {"da_san_yuan", "peng_peng_hu", "shou_zhua_yi"}
    assert result.payments == (0, 64, -64)
    assert score("3s", "3s", discarder=2, melds=melds, liangdao=True).payments == (0, 128, -128)


def test_kw_e10_xiao_san_yuan():
    result = score("666z777z55z12p456s", "3p", discarder=2)
    assert names(result) == {"xiao_san_yuan"}
    assert result.payments == (0, 4, -4)


@pytest.mark.rule("KW-14")
def test_kw_e13_qiang_gang_hu_and_ka_wu_xing_scored():
    result = score("46p123s789s234p99s", "5p", discarder=2, robbed_kong=True)
    assert names(result) == {"qiang_gang_hu", "ka_wu_xing"}
    assert result.payments == (0, 4, -4)


@pytest.mark.rule("KW-26")
def test_kw_e15_each_winner_of_yi_pao_shuang_xiang_scored_on_its_own():
    first = score("123p456p789p34s99s", "5s", winner=1, discarder=0, winners_on_tile=2)
    second = score("123p789p234s46s77s", "5s", winner=2, discarder=0, winners_on_tile=2, liangdao=True)
    assert first.value == 1 and names(first) == set()  # the 5 ends 345s: not 卡五星
    assert names(second) == {"ka_wu_xing", "liang_dao"}
    total = [a + b for a, b in zip(first.payments, second.payments, strict=True)]
    assert total == [-5, 1, 4]


@pytest.mark.rule("KW-24")
def test_kw_e18_cap():
    melds = (pung("5z"), pung("6z"), pung("7z"), pung("9p", 0))
    result = score("3s", "3s", discarder=2, melds=melds, liangdao=True, options={"cap": 32})
    assert result.payments == (0, 32, -32)
    assert result.details["product"] == 128


@pytest.mark.rule("KW-24")
def test_kw_24_base_multiplies_the_capped_product():
    result = score("123p789p234s46s77s", "5s", discarder=0, options={"base": 3, "cap": 1})
    assert result.payments == (-3, 3, 0)


@pytest.mark.rule("KW-22")
def test_kw_22_five_as_end_of_run_pung_or_pair_is_not_ka_wu_xing():
    assert "ka_wu_xing" not in names(score("123p789p34s678s77s", "5s", discarder=0))   # 345s
    assert "ka_wu_xing" not in names(score("123p789p55s678s77s", "5s", discarder=0))   # 555s
    assert "ka_wu_xing" not in names(score("123p789p123s678s5s", "5s", discarder=0))   # the pair


@pytest.mark.rule("KW-21")
def test_kw_21_the_best_reading_counts():
    # 112233p 445566s 99s reads as 七对 (4) or as runs with the 5 won inside 456s (卡五星, 2): 七对 counts.
    result = score("112233p44566s99s", "5s", discarder=0)
    assert result.value == 4 and names(result) == {"qi_dui"}
    # 34455s6s + 5s: the 5 ends 345s in one placement and is the middle of 456s in the other: 卡五星.
    run = score("123p789p34456s99s", "5s", discarder=0)
    assert names(run) == {"ka_wu_xing"}


@pytest.mark.rule("KW-19")
def test_kw_19_seven_pairs_quads_count_as_two_pairs_and_need_a_concealed_hand():
    assert names(score("1111p2222p33s44s5s", "5s")) == {"shuang_long_qi_dui"}
    with pytest.raises(HupaiError):
        score("1122p33s44s66s", "6s", melds=(pung("7s"),))


@pytest.mark.rule("KW-20")
def test_kw_20_every_factor_row_has_a_hand():
    cases = {
        "peng_peng_hu": score("111p222p333s777s9s", "9s", discarder=0),
        "gang_shang_kai_hua": score("23p456p789s234s55s", "1p", kong_replacement=True),
        "gang_shang_pao": score("23p456p789s234s55s", "1p", discarder=0, gang_shang_pao=True),
        "hai_di_lao_yue": score("23p456p789s234s55s", "1p", last_tile=True),
    }
    for name, result in cases.items():
        assert name in names(result), (name, result.pattern_names)
        assert result.value == 2 or name == "peng_peng_hu"
    # 海底: a discard win on the last tile is not 海底捞月.
    assert names(score("23p456p789s234s55s", "1p", discarder=0, last_tile=True)) == set()
    assert {entry.name for entry in FACTORS} == {
        "peng_peng_hu", "ming_si_gui_yi", "an_si_gui_yi", "qi_dui", "long_qi_dui", "shuang_long_qi_dui",
        "da_san_yuan", "xiao_san_yuan", "qing_yi_se", "shou_zhua_yi", "ka_wu_xing", "gang_shang_kai_hua",
        "gang_shang_pao", "qiang_gang_hu", "hai_di_lao_yue", "liang_dao"}


@pytest.mark.rule("KW-3")
def test_kw_3_options_and_errors():
    rules = hupai.rules.get("kawuxing")
    assert rules.options_dict() == {"base": 1, "cap": None}
    with pytest.raises(HupaiError, match="cap"):
        hupai.rules.get("kawuxing", cap=0)
    with pytest.raises(HupaiError, match="unknown"):
        hupai.rules.get("kawuxing", horses=2)


def test_a_kong_meld_counts_as_a_pung_for_peng_peng_hu():
    kong = Meld("kong", (kind("1s"),) * 4, concealed=True)
    assert "peng_peng_hu" in names(score("222p333p77s99s", "9s", discarder=0, melds=(kong,)))

"""Spec audit, scoring (kawuxing.md KW-3, KW-19..KW-26): new hands built from the rule text, not the worked
examples, with the expected numbers worked out by hand in each test's comment. Through ``hupai.score``; P1 wins
unless stated, P0 deals, base 1 and no cap unless stated."""

from __future__ import annotations

import pytest
from hupai.errors import HupaiError, InvalidHand, NotAWin
from hupai.hand import Meld

from .helpers import kind, pung, score


def names(result):
    return set(result.pattern_names)


def kong(text: str, *, concealed: bool = False, claimed_from: int | None = None) -> Meld:
    return Meld("kong", (kind(text),) * 4, concealed=concealed, claimed_from=claimed_from,
                claimed_tile=None if claimed_from is None else kind(text))


# -- KW-20 / KW-21: the factors multiply ------------------------------------------------------------------
@pytest.mark.rule("KW-20", "KW-21", "KW-25")
def test_kw_20_ming_si_gui_yi_times_qing_yi_se_by_discard_and_by_self_draw():
    # [777s] exposed; 123s 456s 89s 11s + 7s: all 条 (清一色 4), the 7s is of the exposed 碰 (明四归一 2): 8.
    melds = (pung("7s", 0),)
    on_discard = score("123s456s89s11s", "7s", discarder=2, melds=melds)
    assert names(on_discard) == {"qing_yi_se", "ming_si_gui_yi"} and on_discard.value == 8
    assert on_discard.payments == (0, 8, -8)
    # KW-21 (Resolved): 明四归一 holds on a self-draw too; both others pay 8.
    assert score("123s456s89s11s", "7s", melds=melds).payments == (-8, 16, -8)


@pytest.mark.rule("KW-21", "KW-20")
def test_kw_21_an_si_gui_yi_on_a_discard():
    # 555s 67s 123p 789p 11p + 5s from P0: 555s + 567s; three concealed 5s and the fourth won: 4 (not 卡五星: 567).
    result = score("555s67s123p789p11p", "5s", discarder=0)
    assert names(result) == {"an_si_gui_yi"} and result.payments == (-4, 4, 0)


@pytest.mark.rule("KW-22", "KW-20", "KW-21")
def test_kw_22_an_si_gui_yi_times_ka_wu_xing():
    # 555s 46s 123p 789p 11p + 5s self-drawn: read 555s + 456s, the 5 the middle of 456s (卡五星 2) and the
    # fourth of three concealed 5s (暗四归一 4): 8, both others pay 8.
    result = score("555s46s123p789p11p", "5s")
    assert names(result) == {"an_si_gui_yi", "ka_wu_xing"}
    assert result.payments == (-8, 16, -8)


@pytest.mark.rule("KW-22", "KW-21")
def test_kw_22_a_five_that_can_be_the_pair_or_the_middle_counts_as_the_middle():
    # 123s 789s 777z 46p 55p + 5p: 456p + 55p (the won 5 in the run: 卡五星) or the won 5 in the pair 55p (not):
    # the best reading counts, 2. A single dragon pung is worth nothing.
    result = score("123s789s777z46p55p", "5p", discarder=0)
    assert names(result) == {"ka_wu_xing"} and result.payments == (-2, 2, 0)


@pytest.mark.rule("KW-22")
def test_kw_22_only_the_fives_of_the_two_suits():
    # 46s + 5s is 卡五星, 46p + 5p too; 4-5-6 never exists in the dragons, and a 5 in 345 or 567 is not 卡五星.
    assert names(score("46p123s789s234p99s", "5p", discarder=0)) == {"ka_wu_xing"}
    assert names(score("67p123s789s234p99s", "5p", discarder=0)) == set()   # 567p: the 5 is an end
    assert names(score("123s789s234p99s55z", "5z", discarder=0)) == set()    # 白 is not a five


@pytest.mark.rule("KW-21", "KW-19", "KW-20")
def test_kw_21_long_qi_dui_beats_the_standard_reading_with_an_si_gui_yi():
    # 333p 44p 55p 66p 77p 88p + 3p self-drawn.
    # Standard: 33p 345p 345p 678p 678p: 清一色 4 x 暗四归一 4 = 16.
    # Seven pairs: 3333p (two pairs) 44 55 66 77 88: 龙七对 8 x 清一色 4 = 32 (the 七对 family never takes 暗四归一).
    result = score("333p44p55p66p77p88p", "3p")
    assert names(result) == {"long_qi_dui", "qing_yi_se"} and result.value == 32
    assert result.details["seven_pairs"] is True
    assert result.payments == (-32, 64, -32)


@pytest.mark.rule("KW-20", "KW-24")
def test_kw_20_shuang_long_qi_dui_qing_yi_se_and_the_cap():
    # 1111p 2222p 33p 44p 5p + 5p from P0: two sets of four (双龙七对 16) x 清一色 4 = 64.
    full = score("1111p2222p33p44p5p", "5p", discarder=0)
    assert names(full) == {"shuang_long_qi_dui", "qing_yi_se"} and full.payments == (-64, 64, 0)
    capped = score("1111p2222p33p44p5p", "5p", discarder=0, options={"cap": 32})
    assert capped.payments == (-32, 32, 0) and capped.details == {"product": 64, "capped": True,
                                                                  "seven_pairs": True}
    at_cap = score("1111p2222p33p44p5p", "5p", discarder=0, options={"cap": 64})
    assert at_cap.value == 64 and at_cap.details["capped"] is False


@pytest.mark.rule("KW-20", "KW-19")
def test_kw_20_seven_pairs_of_dragons_take_no_dragon_factor():
    # 55z 66z 77z 11p 22p 33p 4p + 4p: 七对 4; 大三元/小三元 need pungs or kongs, pairs are neither.
    result = score("55z66z77z11p22p33p4p", "4p", discarder=0)
    assert names(result) == {"qi_dui"} and result.value == 4


@pytest.mark.rule("KW-20")
def test_kw_20_xiao_san_yuan_times_peng_peng_hu():
    # 666z 777z 55z 111p 22p + 2p: pungs 6z 7z 1p 2p, the pair 白: 小三元 4 x 碰碰胡 2 = 8.
    result = score("666z777z55z111p22p", "2p", discarder=0)
    assert names(result) == {"xiao_san_yuan", "peng_peng_hu"} and result.payments == (-8, 8, 0)


@pytest.mark.rule("KW-20")
def test_kw_20_da_san_yuan_with_a_concealed_kong_and_peng_peng_hu():
    # 暗杠 7z; 555z 666z 11p 99p + 9p from P2: kongs count as pungs: 大三元 8 x 碰碰胡 2 = 16 (no 小三元 on top).
    result = score("555z666z11p99p", "9p", discarder=2, melds=(kong("7z", concealed=True),))
    assert names(result) == {"da_san_yuan", "peng_peng_hu"} and result.payments == (0, 16, -16)


@pytest.mark.rule("KW-20", "KW-18", "KW-24", "KW-25")
def test_kw_18_da_san_yuan_with_a_run_liangdao_self_draw_and_a_cap():
    # 暗杠 5z, [666z], [777z]; 123p 9p + 9p self-drawn, 亮倒: 大三元 8 x 亮倒 2 = 16 (a run: no 碰碰胡; three
    # melds: no 手抓一); both others pay 16. With cap 8: 8 each.
    melds = (kong("5z", concealed=True), pung("6z", 0), pung("7z", 2))
    result = score("123p9p", "9p", melds=melds, liangdao=True)
    assert names(result) == {"da_san_yuan", "liang_dao"} and result.payments == (-16, 32, -16)
    assert score("123p9p", "9p", melds=melds, liangdao=True, options={"cap": 8}).payments == (-8, 16, -8)


@pytest.mark.rule("KW-20")
def test_kw_20_shou_zhua_yi_with_every_kind_of_meld_and_qing_yi_se():
    # [111p] [222p], 暗杠 3p, 直杠 4p; the single 9p won on P0's 9p: 手抓一 4 x 碰碰胡 2 x 清一色 4 = 32.
    melds = (pung("1p", 0), pung("2p", 2), kong("3p", concealed=True), kong("4p", claimed_from=0))
    result = score("9p", "9p", discarder=0, melds=melds)
    assert names(result) == {"shou_zhua_yi", "peng_peng_hu", "qing_yi_se"} and result.payments == (-32, 32, 0)


@pytest.mark.rule("KW-20")
def test_kw_20_qing_yi_se_counts_the_melds():
    # [111s] exposed with 123p 456p 78p 99p + 6p: a 条 meld breaks 清一色: 屁胡.
    result = score("123p456p78p99p", "6p", discarder=0, melds=(pung("1s", 2),))
    assert names(result) == set() and result.value == 1
    # The same hand with [111p]: 清一色 4.
    assert names(score("123p456p78p99p", "6p", discarder=0, melds=(pung("1p", 2),))) == {"qing_yi_se"}


@pytest.mark.rule("KW-20", "KW-25")
def test_kw_20_gang_shang_kai_hua_and_hai_di_lao_yue_both_count_on_a_last_replacement():
    # KW-6: the last wall tile may be a replacement: 卡五星 2 x 杠上开花 2 x 海底捞月 2 = 8, a self-draw: 8 each.
    result = score("123p789p234s46s77s", "5s", kong_replacement=True, last_tile=True)
    assert names(result) == {"ka_wu_xing", "gang_shang_kai_hua", "hai_di_lao_yue"}
    assert result.payments == (-8, 16, -8)


@pytest.mark.rule("KW-20", "KW-25", "KW-18")
def test_kw_25_gang_shang_pao_with_liangdao_is_paid_by_the_discarder_alone():
    # 卡五星 2 x 杠上炮 2 x 亮倒 2 = 8, P0 (who discarded after its replacement) pays 8; P2 nothing.
    result = score("123p789p234s46s77s", "5s", discarder=0, gang_shang_pao=True, liangdao=True)
    assert names(result) == {"ka_wu_xing", "gang_shang_pao", "liang_dao"}
    assert result.payments == (-8, 8, 0)


@pytest.mark.rule("KW-25", "KW-14", "KW-18")
def test_kw_25_qiang_gang_hu_by_a_liangdao_hand_is_paid_by_the_robbed_player():
    # 屁胡 x 抢杠胡 2 x 亮倒 2 = 4; P2, whose 补杠 was robbed, pays it all.
    result = score("23p456p789s234s55s", "1p", discarder=2, robbed_kong=True, liangdao=True, winner=0)
    assert names(result) == {"qiang_gang_hu", "liang_dao"} and result.payments == (4, 0, -4)


@pytest.mark.rule("KW-20", "KW-25")
def test_kw_20_a_discard_never_takes_the_self_draw_factors_and_contradictions_are_refused():
    # 海底捞月 is a self-draw only: a win on the final discard is plain.
    assert names(score("23p456p789s234s55s", "1p", discarder=0, last_tile=True)) == set()
    # 杠上开花 with a discarder, 杠上炮 or 抢杠胡 without one: facts no win has; refused, not scored as 屁胡 or
    # paid by both.
    for facts in ({"discarder": 0, "kong_replacement": True}, {"gang_shang_pao": True}, {"robbed_kong": True},
                  {"discarder": 0, "robbed_kong": True, "gang_shang_pao": True}):
        with pytest.raises(InvalidHand):
            score("23p456p789s234s55s", "1p", **facts)


@pytest.mark.rule("KW-3", "KW-23", "KW-24")
def test_kw_3_base_scales_pi_hu_and_the_capped_value():
    # base 3, 屁胡 self-drawn: 3 each. base 2, 清一色 x 七对 = 16 capped at 4: V = 2 x 4 = 8 per payer.
    assert score("23p456p789s234s55s", "1p", options={"base": 3}).payments == (-3, 6, -3)
    result = score("1122445577889p", "9p", options={"base": 2, "cap": 4})
    assert result.value == 8 and result.payments == (-8, 16, -8)


@pytest.mark.rule("KW-19")
def test_kw_19_not_a_win_is_refused():
    with pytest.raises(NotAWin):
        score("23p456p789s234s55s", "9p", discarder=0)
    with pytest.raises(HupaiError):  # KW-2: three seats
        score("23p456p789s234s55s", "1p", discarder=3)


@pytest.mark.rule("KW-1", "KW-8")
@pytest.mark.parametrize(("hand", "melds", "message"), [
    ("123m456p789p234p5p", (), "1m, 2m, 3m: not a Kawuxing tile"),         # KW-1: no 万
    ("111z456p789p234p5p", (), "1z: not a Kawuxing tile"),                 # KW-1: no winds
    ("1p456p789p23p5p", (kong("1p", concealed=True),), "more than four tiles of 1p"),  # KW-1: four of each
    ("456p789p234p5p", (Meld("chow", (9, 10, 11), claimed_from=0, claimed_tile=9),), "no chow"),  # KW-8
    ("456p789p234p5p", (), "13 tiles before the winning tile"),
])
def test_kw_1_a_hand_the_84_tiles_cannot_make_is_refused(hand, melds, message):
    with pytest.raises(InvalidHand, match=message):
        score(hand, "5p", discarder=0, melds=melds)

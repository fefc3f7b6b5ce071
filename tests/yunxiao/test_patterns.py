"""Yunxiao tiles and hand patterns: the gold and 白板 (YX-6, YX-7, YX-8, YX-21), each pattern alone (YX-29,
YX-32..YX-37), waits, and the hand-level win restrictions (YX-18, YX-28)."""

from __future__ import annotations

import random

import hupai
import numpy as np
import pytest
from hupai import Forms
from hupai.analysis import fits_with_jokers
from hupai.errors import InvalidHand
from hupai.rules.yunxiao.hand import (
    WHITE,
    YunxiaoHand,
    effective_kind,
    is_gold,
    split_golds,
)
from hupai.rules.yunxiao.options import YunxiaoOptions
from hupai.rules.yunxiao.patterns import (
    BUDA_TRIPLES,
    hand_patterns,
    is_bu_da,
    is_complete,
    is_qing_yi_se,
    is_seven_pairs,
    is_standard,
    is_yao_jiu,
    three_golds_may_win,
    waits,
    you_state_allows,
)

from .helpers import hand, kind, meld, tiles

LOOSE = YunxiaoOptions(buda_loose=True)


# --- YX-6 / YX-7 / YX-8 / YX-21: golds, 白板, fifth copy ----------------------------------------------------

def test_yx_6_natural_gold_kind_is_gold():
    assert is_gold(kind("5p"), kind("5p"))
    assert not is_gold(kind("5z"), kind("5p"))  # 白板 plays as G but is not a gold
    counts, golds = split_golds(tiles("123m5p5p5z"), kind("5p"))
    assert golds == 2 and counts[kind("5p")] == 1 and counts[WHITE] == 0


def test_yx_7_white_plays_as_gold_kind():
    assert effective_kind(kind("5z"), kind("5m")) == kind("5m")
    assert effective_kind(kind("5z"), kind("5z")) == kind("5z")  # G = 白板: the 白板 are the golds
    assert effective_kind(kind("6z"), kind("5m")) == kind("6z")
    # 46m + 白板 is the run 456m under G=5m, not under G=5p.
    assert hand_patterns(hand("123p789p11z46m5z123s", "5m")) == ("ping_hu",)
    assert hand_patterns(hand("123p789p11z46m5z123s", "5p")) == ()


def test_yx_7_white_is_the_gold_when_gold_is_white():
    white_gold = hand("123m456m789p111z5z", "5z")
    assert white_gold.golds == 1
    assert waits(tiles("123m456m789p111z2z"), kind("5z")) == [kind("2z"), kind("5z")]
    assert hand_patterns(hand("123m456m789p111z5z5z", "5z")) == ("ping_hu",)


def test_yx_7_white_plain_in_yao_jiu_and_bu_da():
    # G=5m: the 白板 is an honor for 幺九 and 不搭, though it plays as 5m in every other form.
    assert is_yao_jiu(hand("19m19p19s1234567z9m", "5m"))
    assert is_bu_da(hand("147m258s369p12345z", "5m"))


def test_yx_8_fifth_copy_counts_own_melds():
    """YX-E17 shape: [111m] + 1m + gold cannot pair the gold with 1m."""
    pung = meld("111m")
    assert not is_complete(hand("1m234p567p789s5s", "5s", pung))
    # The same tiles with an unrelated pung are a win: only the player's own 1m count.
    assert is_complete(hand("1m234p567p789s5s", "5s", meld("999m")))


def test_yx_8_fifth_copy_within_concealed():
    assert not is_complete(hand("1111m456p789p123s5s", "5s"))
    assert not hupai.is_win("1111m456p789p123s", jokers=1)  # the core agrees without melds


def test_yx_21_white_kong_is_a_kong_of_the_gold_kind():
    # G=5m: four 白板 are the kong [5555m]; a gold may then not stand for a fifth 5m.
    kong = meld("5555m", concealed=True)
    assert hand_patterns(hand("123p456p789p11z", "5m", kong)) == ("ping_hu",)
    assert not is_complete(hand("123p456p46m11z5m", "5m", kong))
    assert is_complete(hand("123p456p46m11z5m", "5m", meld("999s")))


def test_yx_21_white_pung_given_physically_is_read_as_gold_kind():
    as_white = hand("123p456p46m11z5m", "5m", meld("555z"))
    assert as_white.melds == (meld("555m"),)
    assert is_complete(as_white)                                  # the gold may be the fourth 5m
    assert not is_complete(hand("123p456p46m11z5m", "5m", meld("5555z")))  # but not a fifth


def test_yunxiao_hand_rejects_impossible_tiles():
    with pytest.raises(InvalidHand):
        hand("11111m", "5p")
    with pytest.raises(InvalidHand):
        YunxiaoHand((0, 1, 99), 4)
    with pytest.raises(InvalidHand):
        YunxiaoHand((0, 1, 2), 34)


# --- each pattern alone -------------------------------------------------------------------------------------

def test_yx_32_ping_hu_standard():
    assert hand_patterns(hand("123m456m789p55s111z", "9s")) == ("ping_hu",)
    assert hand_patterns(hand("123m456m789p5s111z9s", "9s")) == ("ping_hu",)  # the gold pairs 5s
    assert hand_patterns(hand("123m456m789p55s11z", "9s")) == ()               # 13 tiles: not complete
    assert hand_patterns(hand("55s111z", "9s", meld("123m"), meld("456m"), meld("789p"))) == ("ping_hu",)


def test_yx_32_golds_wild_in_runs_and_pungs():
    assert is_standard(hand("13m456m789p11z5p5p11s", "5p"))  # gold as 2m, gold + 11s as pung
    assert is_standard(hand("123m456m789p11z5p5p5p", "5p"))  # three golds as a set of their own


def test_yx_33_dui_dui_hu_seven_pairs():
    assert hand_patterns(hand("1133m2299p55s77z66s", "8p")) == ("dui_dui_hu",)
    assert hand_patterns(hand("1111m2299p55s77z66s", "8p")) == ("dui_dui_hu",)  # four alike = two pairs
    assert hand_patterns(hand("1133m2299p55s77z6s8p", "8p")) == ("dui_dui_hu",)  # gold pairs 6s
    assert hand_patterns(hand("1133m2299p55s77z8p8p", "8p")) == ("dui_dui_hu",)  # two golds pair
    assert not is_seven_pairs(hand("1133m2299p55s77z6s7s", "8p"))


def test_yx_33_no_melds_at_all_not_even_an_gang():
    assert not is_seven_pairs(hand("2299p55s77z66s", "8p", meld("1111m", concealed=True)))


def test_yx_34_yao_jiu_any_terminals_honors():
    assert hand_patterns(hand("19m19p19s1234567z9m", "5m")) == ("yao_jiu",)
    assert hand_patterns(hand("111999m1p9p19s1234z", "5p")) == ("yao_jiu",)  # no structure needed


def test_yx_34_gold_counts_only_if_gold_is_yao_jiu():
    assert not is_yao_jiu(hand("19m19p19s1234567z5m", "5m"))
    assert is_yao_jiu(hand("19m19p19s234567z9m1z", "1z"))  # G = 东: the gold is a 幺九 tile


def test_yx_34_concealed_only():
    assert not is_yao_jiu(hand("19p19s1234567z9m", "5m", meld("111m")))


def test_yx_35_buda_strict():
    assert set(BUDA_TRIPLES) == {(1, 4, 7), (1, 4, 8), (1, 4, 9), (1, 5, 8), (1, 5, 9), (1, 6, 9), (2, 5, 8),
                                 (2, 5, 9), (2, 6, 9), (3, 6, 9)}
    assert hand_patterns(hand("147m259s369p12467z", "5p")) == ("bu_da",)
    assert hand_patterns(hand("14m259s369p12467z5p", "5p")) == ("bu_da",)  # a gold fills 7m/8m/9m
    assert not is_bu_da(hand("37m259s369p123457z", "5p"))    # 37 extends to no allowed triple; 6 honors
    assert not is_bu_da(hand("14m25s369p1234567z", "5p"))    # 2 + 2 + 3 suit tiles, 7 honors
    assert not is_bu_da(hand("147m259s369p1246z1z", "5p"))   # a repeat


def test_yx_35_buda_loose_option():
    assert is_bu_da(hand("37m259s369p123457z", "5p"), loose=True)
    assert is_bu_da(hand("14m25s369p1234567z", "5p"), loose=True)
    assert hand_patterns(hand("14m25s369p1234567z", "5p"), LOOSE) == ("bu_da",)
    assert not is_bu_da(hand("34m259s369p123457z", "5p"), loose=True)  # 3 and 4 are too close
    # A gold needs room: 37 extends in no suit and all seven honors are held, so the gold fits nowhere.
    assert not is_bu_da(hand("37m37p37s1234567z5p", "5p"), loose=True)
    assert is_bu_da(hand("37m37p147s123467z5p", "5p"), loose=True)  # the gold can only be 白板


def test_yx_35_concealed_only():
    assert not is_bu_da(hand("47m259s369p12467z", "5p", meld("111m")))


def test_yx_36_qing_yi_se():
    assert hand_patterns(hand("123m456m789m111m99m", "5p")) == ("qing_yi_se",)
    assert hand_patterns(hand("123m456m789m111m2m5m", "5m")) == ("qing_yi_se",)  # G in the suit


def test_yx_36_off_suit_gold_breaks_qing_yi_se():
    assert hand_patterns(hand("123m456m789m111m9m5p", "5p")) == ("ping_hu",)


def test_yx_36_white_as_gold_belongs_to_gold_suit():
    assert hand_patterns(hand("123m46m789m111m22m5z", "5m")) == ("qing_yi_se",)
    assert not is_complete(hand("123m46m789m111m22m5z", "5p"))


def test_yx_36_all_honors_and_melds_and_pairs():
    assert hand_patterns(hand("111z222z333z666z77z", "5p")) == ("yao_jiu", "qing_yi_se")
    assert hand_patterns(hand("222z333z444z666z55z", "1z")) == ("yao_jiu", "qing_yi_se")  # 白板 plays as 东
    assert not is_qing_yi_se(hand("222z333z444z666z55z", "5p"))                 # 白板 plays as 5p
    assert is_qing_yi_se(hand("78m55m6m", "5p", meld("123m"), meld("456m"), meld("999m")))
    assert not is_qing_yi_se(hand("78m55m6m", "5p", meld("123p"), meld("456m"), meld("999m")))
    assert hand_patterns(hand("11223344556677m", "5p")) == ("dui_dui_hu", "qing_yi_se")


def test_yx_36_gold_stands_only_within_the_suit():
    # The golds complete the hand as m tiles here: 清一色 with the gold in the suit.
    assert is_qing_yi_se(hand("123m456m789m11m5m5m5m", "5m"))


def test_yx_37_no_other_patterns_ping_hu_only_as_fallback():
    assert "ping_hu" not in hand_patterns(hand("111999m111p999p11z", "5p"))  # 幺九 replaces 平胡
    assert hand_patterns(hand("111999m111p999p11z", "5p")) == ("yao_jiu",)


def test_yx_29_san_jin_dao_is_a_hand_fact():
    three = hand("19m479p258s127z3s3s3s", "3s")
    assert hand_patterns(three) == ("san_jin_dao",)
    assert not is_complete(three)
    assert hand_patterns(hand("123m456m789p11z3s3s3s", "3s")) == ("ping_hu", "san_jin_dao")


# --- waits --------------------------------------------------------------------------------------------------

def test_waits_include_a_drawn_gold():
    assert waits(tiles("123m456m789p5s111z"), kind("9s")) == [kind("5s"), kind("9s")]


def test_waits_white_as_gold_kind():
    # G=5m: 46m waits on 5m, which only a 白板 can be (a natural 5m is a gold and completes anyway).
    assert waits(tiles("123p789p11z46m123s"), kind("5m")) == [kind("5m"), kind("5z")]


def test_waits_never_on_a_fifth_held_tile():
    assert kind("1m") not in waits(tiles("1111m456p789p123s"), kind("5p"))


def test_waits_size_is_checked():
    with pytest.raises(InvalidHand):
        waits(tiles("123m456m789p5s11z"), kind("9s"))


# --- who may win: YX-18, YX-28 ------------------------------------------------------------------------------

def test_yx_18_three_golds_no_win_on_others_tiles():
    three = hand("123m456m789p11z3s3s3s", "3s")
    assert not three_golds_may_win(three, "discard")
    assert three_golds_may_win(three, "di_hu")
    assert three_golds_may_win(three, "rob_kong")
    assert three_golds_may_win(three, "self_draw")
    assert three_golds_may_win(hand("123m456m789m11m3m3m3m", "3m"), "discard")  # 清一色
    assert three_golds_may_win(hand("123m456m789p11z3s3s", "3s"), "discard")     # only two golds


def test_yx_28_you_state_restrictions():
    single = [0, 0, 1, 0]
    assert not you_state_allows("discard", 2, single)      # the 单游 player
    assert you_state_allows("discard", 1, single)          # others play normally
    assert you_state_allows("rob_gold", 1, single)
    double = [0, 0, 2, 0]
    for seat in range(4):
        assert not you_state_allows("discard", seat, double)
        assert not you_state_allows("rob_kong", seat, double)
        assert not you_state_allows("rob_gold", seat, double)
    assert you_state_allows("self_draw", 0, double) and you_state_allows("you_jin", 2, double)
    triple = [0, 0, 3, 0]
    assert not you_state_allows("self_draw", 0, triple)
    assert not you_state_allows("san_jin_dao", 0, triple)
    assert you_state_allows("ming_gang", 0, triple) and you_state_allows("an_gang", 1, triple)
    assert you_state_allows("you_jin", 2, triple) and you_state_allows("self_draw", 2, triple)


# --- agreement with the core where the Yunxiao rules add nothing --------------------------------------------

def _random_complete(rng: random.Random) -> list[int]:
    kinds: list[int] = []
    while True:
        kinds.clear()
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.randrange(27) // 9 * 9 + rng.randrange(7)
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [rng.randrange(34)] * 3
        kinds += [rng.randrange(34)] * 2
        if all(kinds.count(k) <= 4 for k in kinds):
            return kinds


def test_exact_search_agrees_with_core_without_melds():
    """The exact room search (used with declared melds) matches the core's table lookup where YX-8 adds
    nothing."""
    rng = random.Random(20261129)
    forms = Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS
    for _ in range(150):
        gold = rng.randrange(34)
        physical = _random_complete(rng)
        rng.shuffle(physical)
        physical = physical[:13]
        for _ in range(rng.randrange(3)):  # turn a few tiles into golds
            physical[rng.randrange(13)] = gold
        if any(physical.count(k) > 4 for k in physical):
            continue
        for extra in range(34):
            if physical.count(extra) == 4:
                continue
            candidate = YunxiaoHand(tuple(physical) + (extra,), gold)
            room = candidate.room()
            ours = fits_with_jokers(candidate.counts, candidate.golds, 4, 1, room) or \
                fits_with_jokers(candidate.counts, candidate.golds, 0, 7, room)
            counts = np.array(candidate.counts, dtype=np.uint8)
            core = hupai.is_win(counts, jokers=candidate.golds, forms=forms,
                                joker_kinds=candidate.joker_kinds())
            assert ours == core, (candidate, extra)

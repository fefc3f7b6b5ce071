"""The 游 shape (YX-25) and the 游 level after a discard (YX-26), with the worked examples that reach them
(YX-E4, YX-E5, YX-E6, YX-E13, YX-E17)."""

from __future__ import annotations

import pytest
from hupai.errors import HupaiError
from hupai.rules.yunxiao.hand import YunxiaoHand
from hupai.rules.yunxiao.patterns import in_you_shape, is_complete, next_you_level, you_shape_discards

from .helpers import kind, meld, tiles


def shape(text: str, gold: str, *melds) -> bool:
    return in_you_shape(tiles(text), kind(gold), melds)


def test_yx_25_four_melds_and_a_floating_gold():
    assert shape("123m456m789p111z5p", "5p")
    assert shape("123m456m789p111z5z", "5z")       # G = 白板: the 白板 is the gold


def test_yx_25_needs_a_gold():
    assert not shape("123m456m789p111z9s", "5p")
    assert not shape("123m456m789p111z5z", "5p")  # a 白板 plays as 5p but is not a gold


def test_yx_25_other_golds_are_wild():
    assert shape("123m456m79p111z5p5p", "5p")      # one gold floats, the other is 8p
    assert shape("123m456m789p5p5p5p1z", "5p")     # two golds make 1z a pung
    assert not shape("123m456m789p5p5p1z2z", "5p")  # 1z + 2z + one gold: no set
    assert shape("123m456m789p1z1z1z5p", "5p")


def test_yx_25_declared_melds_and_an_gang_count():
    assert shape("234p567p789s5s", "5s", meld("111m"))
    assert shape("234p567p789s5s", "5s", meld("1111m", concealed=True))
    assert shape("5s", "5s", meld("123m"), meld("456m"), meld("789m"), meld("1111z"))


def test_yx_25_six_pairs_only_without_melds():
    assert shape("1133m2299p55s77z8p", "8p")
    assert shape("1111m2299p55s77z8p", "8p")       # four alike are two pairs
    assert shape("1133m2299p55s7z8p8p", "8p")       # 7z pairs the second gold
    assert not shape("1133m2299p5s8p", "8p", meld("111z"))


def test_yx_25_fifth_copy_applies():
    """YX-8 inside the 游 shape: [111z] + 1z + two golds cannot make 1z a pung (a fifth 东)."""
    assert not shape("1z456p789p5s5s5s", "5s", meld("111z"))
    assert shape("1m456p789p5s5s5s", "5s", meld("111m"))  # golds as 2m 3m instead


def test_yx_25_bu_da_and_yao_jiu_never_have_the_shape():
    assert not shape("14m259s369p1246z5p", "5p")          # a 不搭 hand waiting with a gold
    assert not shape("19m19p19s23456z1z", "1z")           # 幺九 tiles with a 幺九 gold


def test_yx_25_size_is_the_size_after_a_discard():
    assert not shape("123m456m789p111z5p9s", "5p")        # 14 tiles: discard first


def test_yx_26_level_transitions():
    assert next_you_level(0, discarded_gold=False, you_shape=True) == 1
    assert next_you_level(0, discarded_gold=True, you_shape=True) == 2
    assert next_you_level(1, discarded_gold=True, you_shape=True) == 2
    assert next_you_level(2, discarded_gold=True, you_shape=True) == 3
    assert next_you_level(3, discarded_gold=True, you_shape=True) == 3
    assert next_you_level(2, discarded_gold=False, you_shape=True) == 1  # back to 单游
    for previous in range(4):
        assert next_you_level(previous, discarded_gold=True, you_shape=False) == 0
        assert next_you_level(previous, discarded_gold=False, you_shape=False) == 0
    with pytest.raises(HupaiError):
        next_you_level(4, discarded_gold=False, you_shape=True)


def test_yx_e4_dan_you_after_discarding_the_paired_tile():
    held = tiles("123m456m789p9s111z5p")
    assert is_complete(YunxiaoHand(held, kind("5p")))      # option A: 自摸 now
    assert kind("9s") in you_shape_discards(held, kind("5p"))
    assert shape("123m456m789p111z5p", "5p")
    assert next_you_level(0, discarded_gold=False, you_shape=True) == 1


def test_yx_e5_e6_shuang_and_san_you():
    held = tiles("123m456m789p111z5p5p")
    assert is_complete(YunxiaoHand(held, kind("5p")))
    assert kind("5p") in you_shape_discards(held, kind("5p"))
    level = next_you_level(0, discarded_gold=True, you_shape=shape("123m456m789p111z5p", "5p"))
    assert level == 2
    # E6: decline, draw the third gold, discard a gold again.
    level = next_you_level(level, discarded_gold=True, you_shape=shape("123m456m789p111z5p", "5p"))
    assert level == 3


def test_yx_e13_six_pairs_and_a_gold():
    held = tiles("1133m2299p55s77z6s8p")
    assert is_complete(YunxiaoHand(held, kind("8p")))
    assert you_shape_discards(held, kind("8p")) == [kind("6s")]


def test_yx_e17_fifth_copy_then_you_shape():
    pung = meld("111m")
    assert not is_complete(YunxiaoHand(tiles("1m234p567p789s5s"), kind("5s"), (pung,)))
    assert you_shape_discards(tiles("1m234p567p789s5s"), kind("5s"), (pung,)) == [kind("1m")]
    assert next_you_level(0, discarded_gold=False, you_shape=shape("234p567p789s5s", "5s", pung)) == 1

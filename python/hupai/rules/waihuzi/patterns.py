"""The Wai Huzi 名堂 table (WH-35, WH-36, WH-41), one :class:`~hupai.rules.patterns.PatternEntry` per row.

The subject of every predicate is a :class:`Win`: the layout the score is taken from (WH-28, chosen by the core as
the highest-scoring one, WH-31) with the facts of how the hand was won (天胡, 地胡, 报听, 海底, 神腰) and the
options that switch 名堂 on or off. Names, Chinese names, rule ids, factors and exclusions are written here once:
the C++ core computes the layout's own 名堂 to choose the best layout, and its names and factors
(:data:`hupai.zipai.MINGTANG`) are checked against this table (``tests/waihuzi/test_scoring.py``); scoring
multiplies this table's entries and checks the product against the core's score of the layout.

The 名堂 multiply (WH-33, :func:`~hupai.rules.patterns.product`); ``replaces`` carries WH-36: 黑对子胡 replaces
对子息 and 黑胡子 (flat ×32), 对子息 replaces 行行息, 天胡/地胡 replace 报听.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...zipai import Layout, Part, PartType, is_big, is_red
from ..patterns import PatternEntry, check_table

__all__ = ["Win", "MINGTANG", "LAYOUT_MINGTANG", "CONTEXT_MINGTANG", "EXTRA_MINGTANG"]

_SAME_CARD = frozenset({PartType.KAN, PartType.WIN_TRIPLET, PartType.WAI, PartType.PENG, PartType.LIU,
                        PartType.PIAO})
_RUNS = frozenset({PartType.RUN, PartType.CHI})
_PAIRS = frozenset({PartType.PAIR, PartType.WIN_PAIR})


@dataclass(frozen=True)
class Win:
    """A winning layout with the facts and options its 名堂 depend on.

    ``strict``: ``xingxingxi == "strict"`` (WH-37); ``daxiaozihu`` / ``extra``: the options of WH-35 / WH-41;
    ``heavenly`` 天胡, ``earthly`` 地胡, ``ready_from_deal`` 报听 (WH-38), ``haidi`` won on the last stock card
    with the ``haidilao`` option on, ``shenyao`` the card turned up after the win matches the session 神 (WH-39);
    ``yidianhong_hand``: the house rule ``yidianhong="hand"`` (一点红 counts the hand part's red cards).
    """

    layout: Layout
    strict: bool = False
    daxiaozihu: bool = True
    extra: bool = False
    heavenly: bool = False
    earthly: bool = False
    ready_from_deal: bool = False
    haidi: bool = False
    shenyao: bool = False
    yidianhong_hand: bool = False

    @property
    def parts(self) -> tuple[Part, ...]:
        """The seven units: the groups (declared first) and the 2-card unit last."""
        return self.layout.parts

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """Every card of the layout (a 4-card group's four included)."""
        return tuple(card for part in self.parts for card in part.cards)

    @cached_property
    def reds(self) -> int:
        """How many red cards (WH-2) the layout holds."""
        return sum(1 for card in self.cards if is_red(card))

    @cached_property
    def hand_reds(self) -> int:
        """How many red cards the hand part holds: the layout's undeclared parts (held cards, winning card)."""
        return sum(1 for part in self.parts if not part.declared for card in part.cards if is_red(card))

    def red_units(self) -> list[Part]:
        """The units made of red cards only (WH-41)."""
        return list(self._red_units)

    @cached_property
    def _red_units(self) -> tuple[Part, ...]:  # three 名堂 ask: found once per win
        return tuple(part for part in self.parts if all(is_red(card) for card in part.cards))


# -- the layout's 名堂 (WH-35, WH-37): the core computes these too, to choose the layout ----------------------

def dui_zi_xi(w: Win) -> bool:
    """对子息 (WH-35), ×8: every group is a same-card group (坎, 碰, 歪, 溜, 飘 or a triplet completed by the
    winning card) and the 2-card unit is a pair."""
    return all(g.type in _SAME_CARD for g in w.layout.groups) and w.layout.unit.type in _PAIRS


def xing_xing_xi(w: Win) -> bool:
    """行行息 (WH-35, WH-37), ×4: every group and the 2-card unit score 息 > 0; under ``xingxingxi="strict"``
    also no run of any kind (二七十 included)."""
    return all(p.xi > 0 for p in w.parts) and not (w.strict and any(p.type in _RUNS for p in w.parts))


def hei_hu_zi(w: Win) -> bool:
    """黑胡子 (WH-35), ×8: no red card in the layout."""
    return w.reds == 0


def hei_dui_zi_hu(w: Win) -> bool:
    """黑对子胡 (WH-35, WH-36), ×32 flat: 对子息 with no red card; replaces 对子息 and 黑胡子."""
    return dui_zi_xi(w) and w.reds == 0


def yi_dian_hong(w: Win) -> bool:
    """一点红 (WH-35), ×4: exactly one red card (in the hand part only, under ``yidianhong="hand"``)."""
    return (w.hand_reds if w.yidianhong_hand else w.reds) == 1


def huo_huo_fan(w: Win) -> bool:
    """火火翻 (WH-35), ×2^(r−9): r ≥ 10 red cards (10 → ×2, 11 → ×4, ...)."""
    return w.reds >= 10


def huo_huo_fan_factor(w: Win) -> int:
    return 1 << (w.reds - 9)


def da_zi_hu(w: Win) -> bool:
    """大字胡 (WH-35), ×8: every card big (大壹..大拾), with the ``daxiaozihu`` option."""
    return w.daxiaozihu and all(is_big(card) for card in w.cards)


def xiao_zi_hu(w: Win) -> bool:
    """小字胡 (WH-35), ×8: every card small (小一..小十), with the ``daxiaozihu`` option."""
    return w.daxiaozihu and not any(is_big(card) for card in w.cards)


# -- the optional pack (WH-41): over the seven units ------------------------------------------------------

def dan_piao(w: Win) -> bool:
    """单漂 (WH-41), ×2 with ``extra_mingtang``: exactly one unit is all red and no other card is red."""
    if not w.extra:  # the pack is off: no need to look for red units
        return False
    units = w.red_units()
    return len(units) == 1 and w.reds == len(units[0].cards)


def shuang_piao(w: Win) -> bool:
    """双漂 (WH-41), ×2 with ``extra_mingtang``: exactly two units are all red and no other card is red."""
    if not w.extra:  # the pack is off: no need to look for red units
        return False
    units = w.red_units()
    return len(units) == 2 and w.reds == sum(len(u.cards) for u in units)


def yin(w: Win) -> bool:
    """印 (WH-41), ×2 with ``extra_mingtang``: exactly one unit is all red and exactly one other card is red."""
    if not w.extra:  # the pack is off: no need to look for red units
        return False
    units = w.red_units()
    return len(units) == 1 and w.reds == len(units[0].cards) + 1


def hua_hu_zi(w: Win) -> bool:
    """花胡子 (WH-41), ×64 with ``extra_mingtang``: every unit holds at least one red card."""
    return w.extra and all(any(is_red(card) for card in p.cards) for p in w.parts)


# -- how the hand was won (WH-35, WH-38..40): the same for every layout, so they never change the choice ------

def tian_hu(w: Win) -> bool:
    """天胡 (WH-35, WH-40), ×4: the dealer's 20 dealt cards form a winning layout, declared before its first move."""
    return w.heavenly


def di_hu(w: Win) -> bool:
    """地胡 (WH-35), ×4: a non-dealer wins on the dealer's first discard."""
    return w.earthly


def bao_ting(w: Win) -> bool:
    """报听 (WH-35, WH-38), ×4: ready from the deal (the dealer right after its first discard) and no group made
    since; replaced by 天胡/地胡 (WH-36)."""
    return w.ready_from_deal


def hai_di_lao(w: Win) -> bool:
    """海底捞 (WH-35), ×4: won on the last stock card, with the ``haidilao`` option."""
    return w.haidi


def shen_yao(w: Win) -> bool:
    """神腰 (WH-35, WH-39), ×2: the stock card turned up after the win has the parity of the session 神."""
    return w.shenyao


_NOT_WITH_BAO_TING = ("bao_ting",)

#: The 名堂 of the layout itself, in the core's order (:data:`hupai.zipai.MINGTANG`).
LAYOUT_MINGTANG: tuple[PatternEntry[Win, int], ...] = (
    PatternEntry("dui_zi_xi", "对子息", "WH-35", 8, dui_zi_xi, replaces=("xing_xing_xi",),
                 english="All Same-Card Groups"),
    PatternEntry("xing_xing_xi", "行行息", "WH-37", 4, xing_xing_xi, english="Every Group Scores"),
    PatternEntry("hei_hu_zi", "黑胡子", "WH-35", 8, hei_hu_zi, english="No Red Card"),
    PatternEntry("hei_dui_zi_hu", "黑对子胡", "WH-36", 32, hei_dui_zi_hu, replaces=("dui_zi_xi", "hei_hu_zi"),
                 english="Same-Card Groups, No Red"),
    PatternEntry("yi_dian_hong", "一点红", "WH-35", 4, yi_dian_hong, english="One Red Card"),
    PatternEntry("huo_huo_fan", "火火翻", "WH-35", 2, huo_huo_fan, value_of=huo_huo_fan_factor,
                 english="Ten or More Reds"),
    PatternEntry("da_zi_hu", "大字胡", "WH-35", 8, da_zi_hu, english="All Big Cards"),
    PatternEntry("xiao_zi_hu", "小字胡", "WH-35", 8, xiao_zi_hu, english="All Small Cards"),
)
#: The optional pack (WH-41), layout 名堂 too.
EXTRA_MINGTANG: tuple[PatternEntry[Win, int], ...] = (
    PatternEntry("dan_piao", "单漂", "WH-41", 2, dan_piao, english="One All-Red Unit"),
    PatternEntry("shuang_piao", "双漂", "WH-41", 2, shuang_piao, english="Two All-Red Units"),
    PatternEntry("yin", "印", "WH-41", 2, yin, english="Red Seal"),
    PatternEntry("hua_hu_zi", "花胡子", "WH-41", 64, hua_hu_zi, english="Red in Every Unit"),
)
#: The 名堂 of how the hand was won.
CONTEXT_MINGTANG: tuple[PatternEntry[Win, int], ...] = (
    PatternEntry("tian_hu", "天胡", "WH-40", 4, tian_hu, replaces=_NOT_WITH_BAO_TING, english="Heavenly Hand"),
    PatternEntry("di_hu", "地胡", "WH-35", 4, di_hu, replaces=_NOT_WITH_BAO_TING, english="Earthly Hand"),
    PatternEntry("bao_ting", "报听", "WH-38", 4, bao_ting, english="Ready from the Deal"),
    PatternEntry("hai_di_lao", "海底捞", "WH-35", 4, hai_di_lao, english="Last Card Win"),
    PatternEntry("shen_yao", "神腰", "WH-39", 2, shen_yao, english="Spirit's Waist"),
)
#: Every 名堂, one table (WH-36's exclusions only act within it): what scoring multiplies.
MINGTANG: tuple[PatternEntry[Win, int], ...] = (*LAYOUT_MINGTANG, *EXTRA_MINGTANG, *CONTEXT_MINGTANG)

check_table(MINGTANG)

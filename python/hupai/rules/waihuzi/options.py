"""Wai Huzi (歪胡子) options: the spec's options table (waihuzi.md §11), on the shared options base.

Defaults are the spec's. An unknown name or an invalid value raises :class:`hupai.HupaiError` naming the option.

The house rules (issue 23, ``docs/rules/waihuzi.md`` "House rules") are the readings of seed 004 that the spec
does not follow; each defaults to the spec's reading and is left out of the logged options at that default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..options import RuleOptions, choice, flag, integer

__all__ = ["WaihuziOptions"]


@dataclass(frozen=True)
class WaihuziOptions(RuleOptions):
    """The Wai Huzi option set; :meth:`describe` lists each option with its rule id."""

    system: ClassVar[str] = "Wai Huzi"

    min_huxi: int = integer(5, minimum=0, rule="WH-32", doc="the least total 息 of a winning layout")
    cap: int | None = integer(None, minimum=1, optional=True, rule="WH-43",
                              doc="each loser pays min(score, cap); None: no limit")
    xingxingxi: str = choice("loose", "strict", rule="WH-37",
                             doc="行行息: 'loose' allows 二七十 runs (1 息); 'strict' allows no run at all")
    daxiaozihu: bool = flag(True, rule="WH-35", doc="大字胡 / 小字胡 (×8) count")
    haidilao: bool = flag(True, rule="WH-35", doc="海底捞 (×4) counts: winning on the last stock card")
    extra_mingtang: bool = flag(False, rule="WH-41", doc="the optional 名堂 pack: 单漂 双漂 印 花胡子")
    shen: str | None = choice(None, "odd", "even", rule="WH-5",
                              doc="the session 神: None (from the first hand's shown card), 'odd' 单神, 'even' 双神")
    # -- house rules: seed 004's readings (default: the spec's) --------------------------------------------
    shen_shown: str = choice("dealer_last", "random", rule="WH-5", house=True,
                             doc="the card shown for the 神: 'dealer_last' the dealer's last dealt card (the "
                                 "spec), 'random' a dealt card drawn at random from the seed (seed: 系统随机亮一张牌)")
    dandiao: str = choice("table", "plus5", rule="WH-30", house=True,
                          doc="a win on a single wait (单吊, the winning card pairs a lone card): 'table' the pair's "
                              "4/1 息 (the spec), 'plus5' 5 息 more (seed: 吊到相同字加5息)")
    yidianhong: str = choice("layout", "hand", rule="WH-35", house=True,
                             doc="一点红 counts the red cards of 'layout' (the spec) or of the 'hand' only: the held "
                                 "cards and the winning card, not the declared groups (seed: 手上只有一个红字)")
    dihu: str = choice("opening", "first_discard", rule="WH-35", house=True,
                       doc="地胡 is a win on the dealer's first discard when it is its 'opening' move (the spec), "
                           "or on its 'first_discard' whenever it comes, after an opening 溜 too "
                           "(seed: 庄家打出的第一张牌)")
    shenyao: str = choice("stock_top", "after_win_card", rule="WH-39", house=True,
                          doc="神腰's card: the 'stock_top' after any win (the spec), or the card 'after_win_card' in "
                              "the stock: only a win on a turned-up card has one (seed: 胡牌的那张牌的下一张)")
    sishou: str = choice("after_discard", "at_claim", rule="WH-27", house=True,
                         doc="kept so that tables and logs recorded with it load: both values play alike, the seat "
                             "made 死手 by a 碰/歪 discards (seed: 任何吃碰等都要打牌), 死手 from the claim on")

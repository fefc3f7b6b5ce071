"""Kawuxing (卡五星) options: the spec's options table (kawuxing.md §11), on the shared options base.

Defaults reproduce the spec text (base 1, no cap). An unknown name or an invalid value raises
:class:`hupai.HupaiError` naming the option.

The house rules (issue 23, ``docs/rules/kawuxing.md`` "House rules") are the readings of seed 002 that the spec
does not follow; each defaults to the spec's reading and is left out of the logged options at that default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..options import RuleOptions, choice, integer

__all__ = ["KawuxingOptions"]


@dataclass(frozen=True)
class KawuxingOptions(RuleOptions):
    """The Kawuxing option set; :meth:`describe` lists each option with its rule id."""

    system: ClassVar[str] = "Kawuxing"

    base: int = integer(1, minimum=1, rule="KW-3",
                        doc="底金: a hand is worth base x the product of its factors; kong money (KW-12) and the "
                            "荒庄 payments (KW-27) are in base units too")
    cap: int | None = integer(None, minimum=1, optional=True, rule="KW-24",
                              doc="limit of the factor product (None: no limit); kong money is never capped")
    # -- house rules: seed 002's readings (default: the spec's) --------------------------------------------
    louhu_scope: str = choice("any_win", "discards", rule="KW-10", house=True,
                              doc="what a 漏胡 block stops: every win on another player's tile under both values "
                                  "('discards', seed 九.2 打出的牌, reads as 七.2 defines it: 抢杠 included)")
    liangdao_wins: str = choice("any", "self_draw", rule="KW-17", house=True,
                                doc="after 亮倒: 'any' win by discard, robbing or self-draw (the spec), "
                                    "'self_draw' only self-draw wins (seed 九.5 只能自摸胡牌)")
    liangdao_discarder: str = choice("value", "double", rule="KW-18", house=True,
                                     doc="who discards into a 亮倒 hand pays 'value' (V, its ×2 included: the spec) "
                                         "or 'double' (2V: seed 九.1 赔2倍 and 点炮者出双份)")
    si_gui_yi: str = choice("any_win", "by_source", rule="KW-21", house=True,
                            doc="明四归一/暗四归一: 'any_win' on a discard or a self-draw (the spec), 'by_source' "
                                "明 only on a discard win, 暗 only on a self-draw (seed 八.2, 八.3)")
    shou_zhua_yi: str = choice("any_meld", "pungs", rule="KW-20", house=True,
                               doc="手抓一's four melds: 'any_meld' 碰 or kongs (the spec), 'pungs' four melds taken "
                                   "in the open, 碰 or exposed kongs, no 暗杠 (seed 八.13 已碰了四对牌, 七.4(2))")
    hai_di_lao_yue: str = choice("self_draw", "last_tile", rule="KW-20", house=True,
                                 doc="海底捞月: 'self_draw' of the last wall tile (the spec), 'last_tile' any win "
                                     "on the 84th tile, its final discard included (seed 八.14)")

"""Wai Huzi (歪胡子) options: the spec's options table (waihuzi.md §11), on the shared options base.

Defaults are the spec's. An unknown name or an invalid value raises :class:`hupai.HupaiError` naming the option.
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

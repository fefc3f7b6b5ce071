"""The Kawuxing factor table (KW-20), one :class:`~hupai.rules.patterns.PatternEntry` per row.

The subject of every predicate is a :class:`Reading`: one decomposition of the winner's concealed tiles (the
winning tile included) with the group the winning tile sits in, plus the exposed melds and the facts of the win.
Factors that depend on the reading (碰碰胡, 小三元, 卡五星, the 七对 family) differ between readings; KW-21
scores the hand by the best one (:func:`~.scoring.best_reading`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...analysis import Group
from ...hand import Meld
from ...scoring import WinContext
from ..patterns import PatternEntry, check_table
from .options import KawuxingOptions

__all__ = ["Reading", "FACTORS", "DRAGONS", "FIVES"]

DRAGONS = (31, 32, 33)  # 白 发 中 (5z 6z 7z)
FIVES = (13, 22)        # 5p, 5s: the 卡五星 tiles (KW-22)


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand.

    ``groups`` are the concealed part's groups (the winning tile among them, in ``groups[win_group]``);
    ``seven_pairs`` says the reading is the 七对 form (a quad is two pairs of one kind, KW-19); ``options`` the
    rule options (the house rules of KW-20 and KW-21 change three factors).
    """

    context: WinContext
    seven_pairs: bool
    groups: tuple[Group, ...]
    win_group: int
    options: KawuxingOptions = KawuxingOptions()

    @property
    def melds(self) -> tuple[Meld, ...]:
        return self.context.mahjong_melds()

    def all_kinds(self) -> list[int]:
        """Every tile of the hand: concealed, the winning tile, the melds."""
        return [*self.context.concealed, self.context.win_tile, *(k for m in self.melds for k in m.tiles)]

    def triplet_kinds(self) -> list[int]:
        """Kinds of the pungs and kongs, concealed (standard form) and exposed."""
        own = [] if self.seven_pairs else [g.tiles[0] for g in self.groups if g.type == "pung"]
        return own + [m.tiles[0] for m in self.melds if m.type != "chow"]

    def pair_kind(self) -> int:
        return next((g.tiles[0] for g in self.groups if g.type == "pair"), -1)

    def quads(self) -> int:
        """Sets of four identical among the seven pairs."""
        counts = [0] * 34
        for kind in self.context.concealed:
            counts[kind] += 1
        counts[self.context.win_tile] += 1
        return sum(1 for c in counts if c == 4)


def peng_peng_hu(r: Reading) -> bool:
    """碰碰胡 (KW-20), ×2: standard form; all four melds are pungs or kongs (concealed or exposed)."""
    return not r.seven_pairs and all(g.type in ("pung", "pair") for g in r.groups) \
        and all(m.type != "chow" for m in r.melds)


def ming_si_gui_yi(r: Reading) -> bool:
    """明四归一 (KW-20, KW-21), ×2: the winning tile's kind is one of the winner's exposed 碰 (discard or
    self-draw alike; with ``si_gui_yi="by_source"`` on a discard win only)."""
    tile = r.context.win_tile
    if r.options.si_gui_yi == "by_source" and r.context.self_drawn:
        return False
    return any(m.type == "pung" and m.tiles[0] == tile for m in r.melds)


def an_si_gui_yi(r: Reading) -> bool:
    """暗四归一 (KW-20, KW-21), ×4: standard form; the winner holds three concealed tiles of the winning kind
    (not a kong) and wins with the fourth (with ``si_gui_yi="by_source"`` by self-draw only)."""
    if r.options.si_gui_yi == "by_source" and not r.context.self_drawn:
        return False
    return not r.seven_pairs and r.context.concealed.count(r.context.win_tile) == 3


def qi_dui(r: Reading) -> bool:
    """七对 (KW-20), ×4: seven pairs, fully concealed, no four identical."""
    return r.seven_pairs and r.quads() == 0


def long_qi_dui(r: Reading) -> bool:
    """龙七对 (KW-20), ×8: seven pairs with exactly one set of four identical (replaces 七对)."""
    return r.seven_pairs and r.quads() == 1


def shuang_long_qi_dui(r: Reading) -> bool:
    """双龙七对 (KW-20), ×16: seven pairs with two or more sets of four identical (replaces 七对)."""
    return r.seven_pairs and r.quads() >= 2


def da_san_yuan(r: Reading) -> bool:
    """大三元 (KW-20), ×8: pungs or kongs of 中, 发 and 白."""
    triplets = r.triplet_kinds()
    return all(d in triplets for d in DRAGONS)


def xiao_san_yuan(r: Reading) -> bool:
    """小三元 (KW-20), ×4: two dragon pungs or kongs, and the third dragon as the pair."""
    if r.seven_pairs:
        return False
    triplets = r.triplet_kinds()
    return sum(1 for d in DRAGONS if d in triplets) == 2 and r.pair_kind() in DRAGONS


def qing_yi_se(r: Reading) -> bool:
    """清一色 (KW-20), ×4: every tile, melds included, of one suit (筒 or 条; no dragon)."""
    kinds = r.all_kinds()
    return all(k < 27 for k in kinds) and len({k // 9 for k in kinds}) == 1


def shou_zhua_yi(r: Reading) -> bool:
    """手抓一 (KW-20), ×4: four declared melds (碰 or any kong; with ``shou_zhua_yi="pungs"`` four melds taken in
    the open, 碰 or an exposed kong, no 暗杠: seed 八.13 已碰了四对牌 and its example 七.4(2), whose 中发白
    "3副刻子(杠)" keep 手抓一 "如果有开杠"); the win is on the single remaining tile."""
    if r.options.shou_zhua_yi == "pungs" and any(m.concealed for m in r.melds):
        return False
    return len(r.melds) == 4 and len(r.context.concealed) == 1


def ka_wu_xing(r: Reading) -> bool:
    """卡五星 (KW-22), ×2: the winning tile is 5p or 5s and, in this reading, the middle of the run 4-5-6 of its
    suit whose 4 and 6 came from the concealed hand (not the end of a run, nor in a pung or the pair)."""
    tile = r.context.win_tile
    if tile not in FIVES or r.seven_pairs:
        return False
    group = r.groups[r.win_group]
    return group.type == "chow" and group.tiles == (tile - 1, tile, tile + 1)


def gang_shang_kai_hua(r: Reading) -> bool:
    """杠上开花 (KW-20), ×2: self-draw on a kong replacement."""
    return r.context.kong_replacement and r.context.self_drawn


def gang_shang_pao(r: Reading) -> bool:
    """杠上炮 (KW-20), ×2: won on the discard a player made right after drawing its kong replacement
    (``context.discard_after_kong``, decided from the engine's history)."""
    return r.context.discard_after_kong and not r.context.self_drawn


def qiang_gang_hu(r: Reading) -> bool:
    """抢杠胡 (KW-20, KW-14), ×2: won on a robbed 补杠 tile."""
    return r.context.robbed_kong


def hai_di_lao_yue(r: Reading) -> bool:
    """海底捞月 (KW-20, KW-6), ×2: self-draw of the last wall tile (a replacement included); with
    ``hai_di_lao_yue="last_tile"`` any win on the 84th tile, on its final discard too."""
    return r.context.last_tile and (r.context.self_drawn or r.options.hai_di_lao_yue == "last_tile")


def liang_dao(r: Reading) -> bool:
    """亮倒 (KW-18, KW-20), ×2 once: the winner had declared 亮倒 (``context.declared_ready``)."""
    return r.context.declared_ready


_SEVEN_PAIRS = ("an_si_gui_yi",)  # KW-21: none of the 七对 family takes 暗四归一

FACTORS: tuple[PatternEntry[Reading, int], ...] = (
    PatternEntry("peng_peng_hu", "碰碰胡", "KW-20", 2, peng_peng_hu, english="All Pungs"),
    PatternEntry("ming_si_gui_yi", "明四归一", "KW-20", 2, ming_si_gui_yi, english="Exposed Four in One"),
    PatternEntry("an_si_gui_yi", "暗四归一", "KW-20", 4, an_si_gui_yi, english="Concealed Four in One"),
    PatternEntry("qi_dui", "七对", "KW-20", 4, qi_dui, replaces=_SEVEN_PAIRS, english="Seven Pairs"),
    PatternEntry("long_qi_dui", "龙七对", "KW-20", 8, long_qi_dui, replaces=("qi_dui", *_SEVEN_PAIRS),
                 english="Dragon Seven Pairs"),
    PatternEntry("shuang_long_qi_dui", "双龙七对", "KW-20", 16, shuang_long_qi_dui,
                 replaces=("qi_dui", "long_qi_dui", *_SEVEN_PAIRS), english="Double Dragon Seven Pairs"),
    PatternEntry("da_san_yuan", "大三元", "KW-20", 8, da_san_yuan, replaces=("xiao_san_yuan",),
                 english="Big Three Dragons"),
    PatternEntry("xiao_san_yuan", "小三元", "KW-20", 4, xiao_san_yuan, english="Little Three Dragons"),
    PatternEntry("qing_yi_se", "清一色", "KW-20", 4, qing_yi_se, english="All One Suit"),
    PatternEntry("shou_zhua_yi", "手抓一", "KW-20", 4, shou_zhua_yi, english="One Tile in Hand"),
    PatternEntry("ka_wu_xing", "卡五星", "KW-22", 2, ka_wu_xing, english="Closed Five Star"),
    PatternEntry("gang_shang_kai_hua", "杠上开花", "KW-20", 2, gang_shang_kai_hua, english="Win on a Kong Replacement"),
    PatternEntry("gang_shang_pao", "杠上炮", "KW-20", 2, gang_shang_pao, english="Discard after a Kong"),
    PatternEntry("qiang_gang_hu", "抢杠胡", "KW-20", 2, qiang_gang_hu, english="Robbing the Kong"),
    PatternEntry("hai_di_lao_yue", "海底捞月", "KW-20", 2, hai_di_lao_yue, english="Last Tile Self-Drawn"),
    PatternEntry("liang_dao", "亮倒", "KW-18", 2, liang_dao, english="Declared Ready"),
)

check_table(FACTORS)

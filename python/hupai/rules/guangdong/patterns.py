"""Guangdong (广东麻将) scoring patterns: one small named predicate per pattern, in tables (GD-16 .. GD-21).

Read top to bottom, the tables are the spec's pattern tables:

- :data:`WITHIN_LIMIT` (爆胡以内, GD-16): 鸡胡, 平胡, 碰碰胡, 混一色 — their 番 add;
- :data:`EXTRAS` (附加, GD-17): 自摸, 门风, 圈风, each dragon pung — added to within-limit hands only;
- :data:`BEYOND_LIMIT` (爆胡以外, GD-19): 清一色 .. 十三幺 — the highest one alone counts;
- :data:`MINIMUM_WINS` (GD-20): 杠上开花, 海底捞月, 抢杠, 一炮三响 — raise the value to ``cap_fan``;
- :data:`FLAT_WINS` (GD-21): 天和, 人和, 地和 — a flat 6 番.

The hand patterns are predicates over a :class:`Reading` (one decomposition with the exposed melds folded in,
plus the few facts of the win they need), so each can be tested on a hand written by hand; the special wins
are predicates over the :class:`~hupai.scoring.WinContext` itself. ``scoring.py`` combines the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from ...errors import HupaiError
from ...scoring import WinContext
from ...tiles import HONORS, TERMINALS_HONORS, format_tiles, parse
from ..patterns import PatternEntry, check_table

__all__ = [
    "Reading", "WITHIN_LIMIT", "EXTRAS", "BEYOND_LIMIT", "MINIMUM_WINS", "FLAT_WINS",
    "FLAT_FAN", "WINDS", "DRAGONS", "TERMINALS",
]

WINDS = (27, 28, 29, 30)    # 东 南 西 北
DRAGONS = (31, 32, 33)      # 白 发 中
TERMINALS = (0, 8, 9, 17, 18, 26)
FLAT_FAN = 6                # GD-21
_NINE_GATES = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)  # 1112345678999 as offsets within one suit
_DIGITS = tuple(str(k % 9 + 1) for k in range(34))
_SUIT_LETTERS = "mpsz"


@dataclass(frozen=True)
class Reading:
    """One reading of a complete hand, exposed melds included, with the facts of the win the patterns read.

    - ``form``: ``"standard"`` (four melds and a pair) or ``"thirteen_orphans"`` (十三幺).
    - ``pair``: the pair's kind (for 十三幺, the duplicated kind).
    - ``chows``: the first kind of every chow; ``pungs``: the kind of every pung or kong. Exposed and
      concealed melds alike: no Guangdong pattern tells them apart (GD-17: "a pung means a pung or kong,
      concealed or exposed").
    - ``concealed``: the concealed tiles before the winning tile, sorted (九莲宝灯 reads exactly these).
    - ``melded``: the player declared a meld (a 暗杠 included), so the hand is not fully concealed.
    - ``self_drawn``: the win counts as 自摸 (抢杠 and 杠上开花 included, GD-26/27).
    - ``seat_wind``, ``round_wind``: 0..3 = 东南西北.
    """

    form: Literal["standard", "thirteen_orphans"]
    pair: int
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    concealed: tuple[int, ...] = ()
    melded: bool = False
    self_drawn: bool = False
    seat_wind: int = 0
    round_wind: int = 0

    @property
    def standard(self) -> bool:
        return self.form == "standard"

    @cached_property  # the pattern predicates ask for these again and again; a Reading never changes
    def kinds(self) -> frozenset[int]:
        """Every kind in the hand."""
        if not self.standard:
            return frozenset(TERMINALS_HONORS)
        run_tiles = (first + step for first in self.chows for step in range(3))
        return frozenset((self.pair, *self.pungs, *run_tiles))

    @cached_property
    def suits(self) -> frozenset[int]:
        """The suits (0 万, 1 筒, 2 条) the hand's suited tiles belong to."""
        return frozenset(k // 9 for k in self.kinds if k < 27)

    @property
    def has_honors(self) -> bool:
        return any(k >= 27 for k in self.kinds)

    def __str__(self) -> str:
        if not self.standard:
            return f"十三幺 pair {format_tiles([self.pair])}"
        groups = [[k] * 3 for k in self.pungs] + [[k, k + 1, k + 2] for k in self.chows] + [[self.pair] * 2]
        # Each group is sorted kinds of one suit: format_tiles(group), written directly (this runs at every win).
        return " ".join("".join(_DIGITS[k] for k in group) + _SUIT_LETTERS[group[0] // 9] for group in sorted(groups))

    @classmethod
    def parse(cls, text: str, *, win_tile: str | int | None = None, self_drawn: bool = False,
              seat_wind: int = 0, round_wind: int = 0) -> Reading:
        """A reading written in our notation, one group per word; ``[...]`` marks a declared meld.

        ``Reading.parse("123m 456m 789m [234m] 11z")``. A word of 14 tiles is a 十三幺 hand. ``concealed``
        is the unbracketed tiles less one ``win_tile`` (when given). For tests and explanations; scoring
        builds readings from :func:`hupai.decompositions`.
        """
        pair: int | None = None
        chows: list[int] = []
        pungs: list[int] = []
        concealed: list[int] = []
        melded = False
        for word in text.split():
            declared = word.startswith("[") and word.endswith("]")
            tiles = sorted(parse(word[1:-1] if declared else word))
            melded |= declared
            if not declared:
                concealed += tiles
            if len(tiles) == 14 and not declared and set(tiles) == set(TERMINALS_HONORS):
                duplicate = next(k for k in tiles if tiles.count(k) == 2)
                return cls("thirteen_orphans", duplicate, concealed=_less(tiles, win_tile),
                           self_drawn=self_drawn, seat_wind=seat_wind, round_wind=round_wind)
            if len(tiles) == 2 and tiles[0] == tiles[1] and not declared and pair is None:
                pair = tiles[0]
            elif len(tiles) in (3, 4) and len(set(tiles)) == 1:
                pungs.append(tiles[0])
            elif len(tiles) == 3 and tiles[0] < 27 and tiles[0] % 9 <= 6 and \
                    tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]:
                chows.append(tiles[0])
            else:
                raise HupaiError(f"{word!r} is not a pair, pung, kong or chow in reading {text!r}")
        if pair is None or len(chows) + len(pungs) != 4:
            raise HupaiError(f"reading {text!r} needs four melds and one pair")
        return cls("standard", pair, tuple(chows), tuple(pungs), _less(concealed, win_tile), melded,
                   self_drawn, seat_wind, round_wind)


def _less(tiles: list[int], win_tile: str | int | None) -> tuple[int, ...]:
    """``tiles`` without one copy of ``win_tile`` (all of them when it is None), sorted."""
    rest = sorted(tiles)
    if win_tile is not None:
        kind = parse(win_tile)[0] if isinstance(win_tile, str) else win_tile
        if kind not in rest:
            raise HupaiError(f"win tile {format_tiles([kind])} is not among the concealed tiles")
        rest.remove(kind)
    return tuple(rest)


def _pung_count(reading: Reading, kinds: tuple[int, ...]) -> int:
    return sum(1 for k in reading.pungs if k in kinds)


# --- GD-16: within-limit patterns (爆胡以内); their 番 add --------------------------------------------------

def ping_hu(reading: Reading) -> bool:
    """平胡 (GD-16), 1 番: all four melds are chows; any pair."""
    return reading.standard and len(reading.chows) == 4


def peng_peng_hu(reading: Reading) -> bool:
    """碰碰胡 (GD-16), 2 番: all four melds are pungs or kongs."""
    return reading.standard and len(reading.pungs) == 4


def hun_yi_se(reading: Reading) -> bool:
    """混一色 (GD-16), 2 番: tiles of exactly one suit plus at least one honor."""
    return reading.standard and len(reading.suits) == 1 and reading.has_honors


def ji_hu(reading: Reading) -> bool:
    """鸡胡 (GD-16, GD-15), 0 番: a standard hand that matches no other within-limit pattern (no minimum)."""
    return reading.standard and not (ping_hu(reading) or peng_peng_hu(reading) or hun_yi_se(reading))


WITHIN_LIMIT: tuple[PatternEntry[Reading, int], ...] = (
    PatternEntry("ji_hu", "鸡胡", "GD-16", 0, ji_hu, english="Chicken Hand"),
    PatternEntry("ping_hu", "平胡", "GD-16", 1, ping_hu, english="All Chows"),
    PatternEntry("peng_peng_hu", "碰碰胡", "GD-16", 2, peng_peng_hu, english="All Pungs"),
    PatternEntry("hun_yi_se", "混一色", "GD-16", 2, hun_yi_se, english="Mixed One Suit"),
)


# --- GD-17: extras (附加), within-limit hands only ----------------------------------------------------------

def zi_mo(reading: Reading) -> bool:
    """自摸 (GD-17), +1: the winner drew the winning tile (抢杠 and 杠上开花 count as 自摸, GD-26/27)."""
    return reading.self_drawn


def men_feng(reading: Reading) -> bool:
    """门风 (GD-17), +1: a pung or kong of the seat wind. With 圈风 on the same wind the pung gives +2."""
    return WINDS[reading.seat_wind] in reading.pungs


def quan_feng(reading: Reading) -> bool:
    """圈风 (GD-17), +1: a pung or kong of the round wind. With 门风 on the same wind the pung gives +2."""
    return WINDS[reading.round_wind] in reading.pungs


def bai_ban(reading: Reading) -> bool:
    """白板 (GD-17), +1: a pung or kong of 白 (5z); each dragon pung counts."""
    return 31 in reading.pungs


def fa_cai(reading: Reading) -> bool:
    """发财 (GD-17), +1: a pung or kong of 发 (6z); each dragon pung counts."""
    return 32 in reading.pungs


def hong_zhong(reading: Reading) -> bool:
    """红中 (GD-17), +1: a pung or kong of 中 (7z); each dragon pung counts."""
    return 33 in reading.pungs


EXTRAS: tuple[PatternEntry[Reading, int], ...] = (
    PatternEntry("zi_mo", "自摸", "GD-17", 1, zi_mo, english="Self-Drawn"),
    PatternEntry("men_feng", "门风", "GD-17", 1, men_feng, english="Seat Wind"),
    PatternEntry("quan_feng", "圈风", "GD-17", 1, quan_feng, english="Prevalent Wind"),
    PatternEntry("bai_ban", "白板", "GD-17", 1, bai_ban, english="White Dragon"),
    PatternEntry("fa_cai", "发财", "GD-17", 1, fa_cai, english="Green Dragon"),
    PatternEntry("hong_zhong", "红中", "GD-17", 1, hong_zhong, english="Red Dragon"),
)


# --- GD-19: beyond-limit hands (爆胡以外); no extras, no stacking -------------------------------------------

def qing_yi_se(reading: Reading) -> bool:
    """清一色 (GD-19), 4 番: all tiles of one suit."""
    return reading.standard and len(reading.suits) == 1 and not reading.has_honors


def hun_peng(reading: Reading) -> bool:
    """混碰 (GD-19, GD-16), 4 番: 混一色 + 碰碰胡."""
    return hun_yi_se(reading) and peng_peng_hu(reading)


def qing_peng(reading: Reading) -> bool:
    """清碰 (GD-19), 5 番: 清一色 + 碰碰胡."""
    return qing_yi_se(reading) and peng_peng_hu(reading)


def hun_yao_jiu(reading: Reading) -> bool:
    """混幺九 (GD-19), 5 番: every tile a terminal (1/9) or an honor, with both present."""
    kinds = reading.kinds
    return kinds <= set(TERMINALS_HONORS) and bool(kinds & set(TERMINALS)) and bool(kinds & set(HONORS))


def xiao_san_yuan(reading: Reading) -> bool:
    """小三元 (GD-19), 5 番: two dragon pungs and a dragon pair."""
    return reading.standard and reading.pair in DRAGONS and _pung_count(reading, DRAGONS) == 2


def xiao_si_xi(reading: Reading) -> bool:
    """小四喜 (GD-19), 5 番: three wind pungs and a wind pair."""
    return reading.standard and reading.pair in WINDS and _pung_count(reading, WINDS) == 3


def zi_yi_se(reading: Reading) -> bool:
    """字一色 (GD-19), 6 番: all honors."""
    return reading.standard and reading.kinds <= set(HONORS)


def qing_yao_jiu(reading: Reading) -> bool:
    """清幺九 (GD-19), 6 番: all terminals, no honors."""
    return reading.kinds <= set(TERMINALS)


def da_san_yuan(reading: Reading) -> bool:
    """大三元 (GD-19), 6 番: three dragon pungs."""
    return _pung_count(reading, DRAGONS) == 3


def da_si_xi(reading: Reading) -> bool:
    """大四喜 (GD-19), 6 番: four wind pungs."""
    return _pung_count(reading, WINDS) == 4


def jiu_lian_bao_deng(reading: Reading) -> bool:
    """九莲宝灯 (GD-19), 6 番: fully concealed; the 13 tiles before the winning tile are exactly
    ``1112345678999`` of one suit, and the winning tile is of that suit (it is then not also 清一色: only the
    highest hand counts)."""
    if reading.melded or len(reading.concealed) != 13 or not qing_yi_se(reading):
        return False
    base = reading.concealed[0]
    return base % 9 == 0 and reading.concealed == tuple(base + offset for offset in _NINE_GATES)


def shi_san_yao(reading: Reading) -> bool:
    """十三幺 (GD-19, GD-15), 6 番: one of each of the 13 terminal and honor kinds plus a duplicate of one."""
    return reading.form == "thirteen_orphans"


BEYOND_LIMIT: tuple[PatternEntry[Reading, int], ...] = (
    PatternEntry("qing_yi_se", "清一色", "GD-19", 4, qing_yi_se, english="All One Suit"),
    PatternEntry("hun_peng", "混碰", "GD-19", 4, hun_peng, english="Mixed One Suit, All Pungs"),
    PatternEntry("qing_peng", "清碰", "GD-19", 5, qing_peng, english="All One Suit, All Pungs"),
    PatternEntry("hun_yao_jiu", "混幺九", "GD-19", 5, hun_yao_jiu, english="Terminals and Honors"),
    PatternEntry("xiao_san_yuan", "小三元", "GD-19", 5, xiao_san_yuan, english="Little Three Dragons"),
    PatternEntry("xiao_si_xi", "小四喜", "GD-19", 5, xiao_si_xi, english="Little Four Winds"),
    PatternEntry("zi_yi_se", "字一色", "GD-19", 6, zi_yi_se, english="All Honors"),
    PatternEntry("qing_yao_jiu", "清幺九", "GD-19", 6, qing_yao_jiu, english="All Terminals"),
    PatternEntry("da_san_yuan", "大三元", "GD-19", 6, da_san_yuan, english="Big Three Dragons"),
    PatternEntry("da_si_xi", "大四喜", "GD-19", 6, da_si_xi, english="Big Four Winds"),
    PatternEntry("jiu_lian_bao_deng", "九莲宝灯", "GD-19", 6, jiu_lian_bao_deng, english="Nine Gates"),
    PatternEntry("shi_san_yao", "十三幺", "GD-19", 6, shi_san_yao, english="Thirteen Orphans"),
)


# --- GD-20: special wins with a minimum of cap_fan (their value is a placeholder: the minimum is cap_fan) -

def gang_shang_kai_hua(context: WinContext) -> bool:
    """杠上开花 (GD-20, GD-26): a self-draw on a kong's replacement tile."""
    return context.kong_replacement and context.discarder is None


def hai_di_lao_yue(context: WinContext) -> bool:
    """海底捞月 (GD-20): a self-draw of the last tile (a win on the last discard has no minimum)."""
    return context.last_tile and context.discarder is None


def qiang_gang(context: WinContext) -> bool:
    """抢杠 (GD-20, GD-27): a win on the tile another player adds in a 补杠."""
    return context.robbed_kong


def yi_pao_san_xiang(context: WinContext) -> bool:
    """一炮三响 (GD-20, GD-24): one of three winners on one discard (robbed kongs have their own minimum)."""
    return context.winners_on_tile == 3 and context.discarder is not None and not context.robbed_kong


MINIMUM_WINS: tuple[PatternEntry[WinContext, int], ...] = (
    PatternEntry("gang_shang_kai_hua", "杠上开花", "GD-20", 0, gang_shang_kai_hua, english="Win on a Kong Replacement"),
    PatternEntry("hai_di_lao_yue", "海底捞月", "GD-20", 0, hai_di_lao_yue, english="Last Tile Self-Drawn"),
    PatternEntry("qiang_gang", "抢杠", "GD-20", 0, qiang_gang, english="Robbing the Kong"),
    PatternEntry("yi_pao_san_xiang", "一炮三响", "GD-20", 0, yi_pao_san_xiang, english="One Discard, Three Winners"),
)


# --- GD-21: heavenly and earthly wins, flat 6 番 ------------------------------------------------------------

def tian_hu(context: WinContext) -> bool:
    """天和 (GD-21), 6 番 flat: the dealer's dealt 14 tiles win."""
    return context.heavenly


def ren_hu(context: WinContext) -> bool:
    """人和 (GD-21), 6 番 flat: a non-dealer wins on the dealer's first discard."""
    return context.human


def di_hu(context: WinContext) -> bool:
    """地和 (GD-21), 6 番 flat: a non-dealer self-draws on its first draw, in the first go-around, before any
    吃, 碰 or 杠."""
    return context.earthly


FLAT_WINS: tuple[PatternEntry[WinContext, int], ...] = (
    PatternEntry("tian_hu", "天和", "GD-21", FLAT_FAN, tian_hu, english="Heavenly Hand"),
    PatternEntry("ren_hu", "人和", "GD-21", FLAT_FAN, ren_hu, english="Human Hand"),
    PatternEntry("di_hu", "地和", "GD-21", FLAT_FAN, di_hu, english="Earthly Hand"),
)

check_table(WITHIN_LIMIT, EXTRAS, BEYOND_LIMIT, MINIMUM_WINS, FLAT_WINS)

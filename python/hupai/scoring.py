"""Scoring types shared by every rule system (``hupai.score``, in :mod:`hupai.rules`, scores a hand without a
game).

A rule system scores a :class:`WinContext` (the facts of one win) into a :class:`ScoreResult`
(patterns found, value, per-seat payments). The game engine builds the context from its history; a server that
runs its own flow builds it directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import HupaiError
from .hand import Meld

if TYPE_CHECKING:  # pragma: no cover
    from .zipai import Declared

__all__ = ["WinContext", "Pattern", "ScoreResult"]


@dataclass(frozen=True)
class WinContext:
    """The facts of one win.

    ``concealed`` holds the winner's concealed natural tiles *before* the winning tile (kinds, any order); the
    winning tile is ``win_tile``. ``discarder`` is the seat that supplied the tile (a discard or a robbed kong);
    ``None`` means self-drawn. ``liable`` is the seat a liability (包) rule makes pay alone, as decided from the
    game's history (the engine or the caller decides it; scoring only applies it).
    """

    winner: int
    win_tile: int
    concealed: tuple[int, ...]
    melds: tuple[Meld | Declared, ...] = ()  # mahjong: Meld; Wai Huzi: hupai.zipai.Declared (歪 碰 溜 飘 吃)
    discarder: int | None = None
    dealer: int = 0
    num_players: int = 4
    seat_wind: int = 0          # 0..3 = 东南西北
    round_wind: int = 0         # 0..3 = 东南西北
    kong_replacement: bool = False  # won with a kong replacement tile (杠上开花)
    robbed_kong: bool = False       # won on a tile added to a kong (抢杠)
    last_tile: bool = False         # won with / on the last tile of the wall (海底)
    heavenly: bool = False          # 天和/天胡: the dealer's dealt hand
    earthly: bool = False           # 地和/地胡 (per the rule system's definition)
    human: bool = False             # 人和: a non-dealer wins on the dealer's first discard
    winners_on_tile: int = 1        # how many players win on this one tile
    liable: int | None = None
    jokers: int = 0                 # wild tiles held among the concealed tiles (not in ``concealed``)
    declared_ready: bool = False    # the winner had declared its hand ready and shown it (亮倒: Kawuxing KW-16..18)
    discard_after_kong: bool = False  # won on a discard made right after a kong's replacement draw (杠上炮)
    extras: Mapping[str, Any] = field(default_factory=dict)  # rule-specific facts (游金 level, 亮倒, ...)
    # Wai Huzi (waihuzi.md): facts of how the hand went that its 名堂 need and the cards cannot show.
    ready_from_deal: bool = False   # 报听 (WH-38): ready from the deal and no group made since; the flow decides
    shen: str | None = None         # the session 神 (WH-5): "odd" (单神) or "even" (双神); None: the option's
    shen_card: int | None = None    # the card turned up after the win for 神腰 (WH-39), kind 0..19; None: none

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    def mahjong_melds(self) -> tuple[Meld, ...]:
        """``melds`` as a mahjong rule system reads them; a zipai group among them is refused (HupaiError)."""
        melds = tuple(meld for meld in self.melds if isinstance(meld, Meld))
        if len(melds) != len(self.melds):
            other = next(meld for meld in self.melds if not isinstance(meld, Meld))
            raise HupaiError(f"a mahjong win's melds are hupai.hand.Meld, got {type(other).__name__}")
        return melds


@dataclass(frozen=True)
class Pattern:
    """A scoring pattern that applied: ``name`` in pinyin (``"qing_yi_se"``), ``chinese`` (清一色), its value."""

    name: str
    chinese: str
    value: int


@dataclass(frozen=True)
class ScoreResult:
    """What a win is worth.

    ``value`` is the rule system's hand value (番 after the cap for Guangdong, points per payer for Yunxiao, the
    factor product for Kawuxing); ``payments`` are per seat, signed, summing to zero.
    """

    patterns: tuple[Pattern, ...]
    value: int
    payments: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def pattern_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.patterns)

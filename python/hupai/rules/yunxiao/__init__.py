"""云霄麻将 Yunxiao (Fujian gold-tile mahjong), spec ``rules/yunxiao.md``: the pure rule layer.

- :mod:`.options`: :class:`YunxiaoOptions` (spec §12).
- :mod:`.hand`: the gold, the 白板 stand-in and the fifth-copy rule (YX-6..8, YX-21); tile conventions.
- :mod:`.patterns`: win patterns, waits, the 游 shape and level (YX-18, YX-25..29, YX-31..37).
- :mod:`.scoring`: the row tables and :func:`score_win` (YX-38..43).
- :mod:`.rules`: :class:`YunxiaoRules`, the rule object the table engine consults (YX-5..31, YX-44..46).
"""

from __future__ import annotations

from .hand import WHITE, YunxiaoHand, chow_forbidden_discards, effective_kind, is_gold, split_golds
from .options import YunxiaoOptions
from .patterns import (
    EVENTS,
    HAND_PATTERNS,
    hand_patterns,
    in_you_shape,
    is_complete,
    next_you_level,
    three_golds_may_win,
    waits,
    you_shape_discards,
    you_state_allows,
)
from .rules import YunxiaoRules
from .scoring import MULTIPLIER_001, POINTS_000, score_win

__all__ = [
    "EVENTS", "HAND_PATTERNS", "MULTIPLIER_001", "POINTS_000", "WHITE", "YunxiaoHand", "YunxiaoOptions",
    "YunxiaoRules", "chow_forbidden_discards", "effective_kind", "hand_patterns", "in_you_shape",
    "is_complete", "is_gold", "next_you_level", "score_win", "split_golds", "three_golds_may_win", "waits",
    "you_shape_discards", "you_state_allows",
]

"""hupai (胡牌): a fast, correct engine for Chinese regional mahjong and zipai.

The public API is re-exported here; see ``hupai.analysis`` (hand analysis), ``hupai.tiles`` (notation).
"""

from __future__ import annotations

from .analysis import (
    Decomposition,
    Forms,
    Group,
    decompositions,
    is_win,
    is_win_batch,
    shanten,
    shanten_batch,
    waits,
)
from .errors import HupaiError, IllegalAction, InvalidHand
from .tiles import format_tiles, parse, to_counts

__version__ = "0.1.0"

__all__ = [
    "Decomposition", "Forms", "Group", "HupaiError", "IllegalAction", "InvalidHand",
    "decompositions", "format_tiles", "is_win", "is_win_batch", "parse", "shanten", "shanten_batch",
    "to_counts", "waits",
]

"""hupai (胡牌): a fast, correct engine for Chinese regional mahjong and zipai.

The public API is re-exported here; see ``hupai.analysis`` (hand analysis), ``hupai.tiles`` (notation),
``hupai.game`` (the table engine: ``Game``, ``Match``), ``hupai.rules`` (rule systems), ``hupai.bots``.
"""

from __future__ import annotations

from . import bots, rules
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
from .game import Action, Game, HandResult, Match
from .scoring import WinContext, score
from .tiles import format_tiles, parse, to_counts

__version__ = "0.1.0"

__all__ = [
    "Action", "Decomposition", "Forms", "Game", "Group", "HandResult", "HupaiError", "IllegalAction",
    "InvalidHand", "Match", "WinContext", "bots", "decompositions", "format_tiles", "is_win", "is_win_batch",
    "parse", "rules", "score", "shanten", "shanten_batch", "to_counts", "waits",
]

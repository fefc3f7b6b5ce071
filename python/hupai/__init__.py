"""hupai (胡牌): a fast, correct engine for Chinese regional mahjong and zipai.

The public API is re-exported here; see ``hupai.analysis`` (hand analysis), ``hupai.tiles`` (notation),
``hupai.game`` (the table engine: ``Game``, ``Match``), ``hupai.rules`` (rule systems), ``hupai.bots``.

The table engine, rule systems and bots (and numpy) load on first use, so ``import hupai`` stays fast for a
server that only validates hands.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .analysis import (
    Decomposition,
    DiscardOption,
    Forms,
    Group,
    decompositions,
    discard_options,
    is_win,
    is_win_batch,
    shanten,
    shanten_batch,
    waits,
)
from .errors import HupaiError, IllegalAction, InvalidHand, InvalidState, NotAWin
from .hand import Meld, ParsedHand, parse_hand
from .tiles import format_tiles, parse, to_counts

if TYPE_CHECKING:  # pragma: no cover
    from . import bots, rules, zipai
    from .game import Action, Game, HandResult, Match
    from .rules import score
    from .scoring import ScoreResult, WinContext

__version__ = "0.1.0"

# name -> (module, attribute or None for the module itself), imported on first access (PEP 562)
_LAZY = {
    "Action": ("hupai.game", "Action"),
    "Game": ("hupai.game", "Game"),
    "HandResult": ("hupai.game", "HandResult"),
    "Match": ("hupai.game", "Match"),
    "WinContext": ("hupai.scoring", "WinContext"),
    "ScoreResult": ("hupai.scoring", "ScoreResult"),
    "score": ("hupai.rules", "score"),
    "rules": ("hupai.rules", None),
    "bots": ("hupai.bots", None),
    "zipai": ("hupai.zipai", None),
    "simulate": ("hupai.simulate", None),  # a callable module: hupai.simulate(...) runs a simulation
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'hupai' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    return module if attribute is None else getattr(module, attribute)


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Action", "Decomposition", "DiscardOption", "Forms", "Game", "Group", "HandResult", "HupaiError",
    "IllegalAction", "InvalidHand", "InvalidState", "Match", "Meld", "NotAWin", "ParsedHand", "ScoreResult",
    "WinContext", "bots", "decompositions", "discard_options", "format_tiles", "is_win", "is_win_batch", "parse",
    "parse_hand", "rules", "score", "shanten", "shanten_batch", "simulate", "to_counts", "waits", "zipai",
]

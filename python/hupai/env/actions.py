"""A fixed action space per rule system: every action a seat could ever take has one index.

Agents choose an index; the environment turns it into the one legal :class:`~hupai.actions.Action` it names.
The layout is a list of blocks, each an action kind with a flag, laid out one after another
(:meth:`ActionSpace.describe` lists them with their offsets):

- a block of ``kinds`` indices (34 mahjong tiles, 20 Wai Huzi cards) for every kind with a tile: ``discard``,
  ``pung``, each kong flag, ``win``, every declaration, Wai Huzi's ``liu`` / ``piao`` / ``wai``; the index is
  the block's offset + the action's tile;
- ``pass``: one index;
- ``chow``: mahjong: ``kinds x 6``, the claimed tile, its place in the run (low, middle, high) and whether a
  tile of the run stands in for another (Yunxiao's 白板 as the gold's face); Wai Huzi: one index per run of
  WH-7 (18) and the claimed card's place in it (3).

A rule system adds blocks for the flags it declares (:attr:`hupai.rules.Rules.action_flags`: Kawuxing's 亮倒
discard, Yunxiao's 明杠 / 游金 / 抢金, Wai Huzi's 天胡), so every legal action of a decision has an index of
its own (tested over thousands of hands of every system).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..actions import Action
from ..errors import HupaiError, IllegalAction
from ..rules.base import Rules
from ..tiles import NUM_KINDS
from ..zipai.cards import RUNS

__all__ = ["ActionSpace", "kinds_of"]

_KONG_FLAGS = ("exposed", "concealed", "added")
#: Action kinds with a tile, per rule-system family, in their block order (chow and pass are laid out apart).
_TILE_KINDS = {"mahjong": ("discard", "pung", "kong", "win", "declare"),
               "zipai": ("discard", "pung", "wai", "liu", "piao", "win")}
_RUN_INDEX: dict[tuple[int, ...], int] = {run: index for index, run in enumerate(RUNS)}


def kinds_of(rules: Rules) -> int:
    """How many tile (card) kinds a rule system's observations count: 34 for mahjong, 20 for Wai Huzi."""
    return 20 if rules.family == "zipai" else NUM_KINDS


class ActionSpace:
    """The action indices of one rule system (with its options): ``index(action)``, ``mask(legal)``,
    ``action(index, legal)``."""

    def __init__(self, rules: Rules) -> None:
        if rules.family not in _TILE_KINDS:
            raise HupaiError(f"{rules.name}: hupai.env has no action layout for the {rules.family!r} family")
        self.family = rules.family
        self.kinds = kinds_of(rules)
        flags = rules.action_flags
        blocks: list[tuple[str, str, int]] = []  # (kind, flag, width)
        for kind in _TILE_KINDS[rules.family]:
            if kind == "kong":
                kind_flags: tuple[str, ...] = _KONG_FLAGS
            elif kind == "declare":
                kind_flags = tuple(flags.get("declare", ()))
            else:
                kind_flags = ("", *flags.get(kind, ()))
            blocks.extend((kind, flag, self.kinds) for flag in kind_flags)
        if rules.family == "zipai":
            blocks.append(("chow", "", len(RUNS) * 3))
        elif "chow" in rules.claim_priority:
            blocks.append(("chow", "", self.kinds * 6))
        blocks.append(("pass", "", 1))
        self._offsets: dict[tuple[str, str], int] = {}
        self._blocks: list[tuple[str, str, int, int]] = []
        offset = 0
        for kind, flag, width in blocks:
            self._offsets[(kind, flag)] = offset
            self._blocks.append((kind, flag, offset, width))
            offset += width
        #: How many indices the space has (``gymnasium.spaces.Discrete(n)``).
        self.n = offset
        # Each action's index, as found: a decision asks for every legal action's, and there are only so many
        # distinct actions (seats x kinds x flags), so the memo stays small.
        self._memo: dict[Action, int] = {}
        # The same indices as native uint16 bytes (hupai.env.Encoder joins a decision's legal actions' bytes).
        self._packed: dict[Action, bytes] = {}

    def describe(self) -> list[dict[str, Any]]:
        """The blocks: ``{"kind", "flag", "start", "size"}`` in index order (the documented layout)."""
        return [{"kind": kind, "flag": flag, "start": start, "size": width}
                for kind, flag, start, width in self._blocks]

    def index(self, action: Action) -> int:
        """The index of ``action`` (its seat is not part of it). Raises HupaiError for an action this space has
        no index for (a rule system that did not declare one of its flags)."""
        found = self._memo.get(action)
        if found is None:
            found = self._memo[action] = self._index(action)
        return found

    def _index(self, action: Action) -> int:
        offset = self._offsets.get((action.kind, action.flag))
        if offset is None:
            raise HupaiError(f"hupai.env: no index for {action.kind!r} with flag {action.flag!r} (declare the flag "
                             "in the rule system's action_flags)")
        if action.kind == "pass":
            return offset
        if action.kind == "chow":
            return offset + self._chow_slot(action)
        return offset + action.tile

    def _chow_slot(self, action: Action) -> int:
        tiles = action.tiles
        place = tiles.index(action.tile) if action.tile in tiles else 1
        if self.family == "zipai":
            return _RUN_INDEX[tuple(sorted(tiles))] * 3 + place
        low = min(tiles)
        natural = tuple(sorted(tiles)) == (low, low + 1, low + 2)
        return action.tile * 6 + place * 2 + (0 if natural else 1)

    def legal_indices(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Each legal action by its index; two legal actions on one index is a bug of the layout (raised)."""
        out: dict[int, Action] = {}
        memo = self._memo
        for action in legal:
            index = memo.get(action)
            if index is None:
                index = self.index(action)
            if index in out:
                raise HupaiError(f"hupai.env: {out[index]} and {action} share action index {index}")
            out[index] = action
        return out

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        """``int8[n]``: 1 at the index of every legal action."""
        mask = np.zeros(self.n, dtype=np.int8)
        for index in self.legal_indices(legal):
            mask[index] = 1
        return mask

    def as_index(self, value: Any) -> int:
        """``value`` as an index of this space: what ``gymnasium.spaces.Discrete(n)`` contains (an int, a numpy
        integer or a 0-d integer array, in 0..n-1), else IllegalAction (a bool, a float, None, a string...)."""
        if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
            value = value.item()
        elif isinstance(value, np.integer):
            value = int(value)
        if type(value) is not int or not 0 <= value < self.n:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
            raise IllegalAction(f"action index must be an int in 0..{self.n - 1}, got {shown}")
        return value

    def action(self, index: Any, legal: Sequence[Action]) -> Action:
        """The legal action at ``index``; an index out of range or of no legal action raises IllegalAction."""
        index = self.as_index(index)
        chosen = self.legal_indices(legal).get(index)
        if chosen is None:
            raise IllegalAction(f"action index {index} is not legal now (see the observation's action_mask)")
        return chosen

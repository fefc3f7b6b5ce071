"""Yunxiao playing advice (:mod:`hupai.rules.base_advice`): golds as jokers, the 游 shape before a plain
win, and patience with a gold in hand.

Everything it reads is public in the observation or the seat's own: the gold (``extras["gold"]``, YX-6: the
indicator is face up), the kong count (``extras["kongs"]``), the live wall, the wall-end reserve option, and
the seat's own tiles and melds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import _core
from ...analysis import Forms
from ...tiles import NUM_KINDS
from ..base_advice import Advice
from .options import YunxiaoOptions
from .rules import YunxiaoRules

if TYPE_CHECKING:  # pragma: no cover
    from ...actions import Action
    from ...observation import Observation

__all__ = ["ADVICE", "YunxiaoAdvice"]




class YunxiaoAdvice(Advice):
    """Yunxiao: shanten with the golds as jokers and 白板 as the gold's face; 游 discards before a plain
    self-draw win; a gold holder lets discard wins pass while the wall is long."""

    #: A gold holder keeps drawing, passing discard wins, while more than this many live tiles lie beyond the
    #: reserve: a self-draw pays 2 each and a 游金 4 or more each, against 2 + 1 + 1 for a discard win.
    own_draw_patience = 12

    def __init__(self, forms: Forms | int) -> None:
        super().__init__(forms)
        self._last: tuple[bytes, int, int, tuple[int, ...]] | None = None
        self._options: tuple[Mapping[str, Any], YunxiaoOptions] | None = None

    def shanten(self, observation: Observation, rows: np.ndarray, melds: int | np.ndarray) -> np.ndarray:
        """Shanten of physical ``uint8[N, 34]`` hands with the golds as jokers and 白板 as G (YX-6, YX-7), in
        the standard and seven-pairs forms (YX-8, 幺九 and 不搭 left out)."""
        # One core call reads the physical rows as they are (no natural-count rows built in numpy).
        return _core.yunxiao_shanten_rows(rows, observation.extras["gold"], melds, self._forms)

    def discard_shanten(self, observation: Observation, melds: int) -> Sequence[int] | None:
        """:meth:`shanten` of the hand less each physical kind held, golds as jokers, by one core call (the
        agents' ``discard_shanten`` feature asks it at every turn)."""
        result: Sequence[int] = _core.yunxiao_discard_shanten(observation.counts, observation.extras["gold"], melds,
                                                               self._forms)
        return result

    def rank_discards(self, observation: Observation, discards: Sequence[Action]) -> list[int]:
        """The shanten after each discard, golds as jokers (lower first); no count of improving tiles."""
        # One core call gives the shanten after each physical discard as shanten() counts it (the natural tiles
        # with 白板 in G's place, one gold fewer after a gold's discard); each discard reads its entry.
        after = self._after_discards(observation)
        return [-after[action.tile] for action in discards]  # (faster than a chain of maps here)

    def _after_discards(self, observation: Observation) -> tuple[int, ...]:
        """``_core.yunxiao_discard_shanten`` of the seat's hand (golds as jokers, by physical kind), remembered
        for the last hand asked: a turn asks it for the 游 discards and then for the ranking."""
        counts = observation.counts
        gold = observation.extras["gold"]
        melds = len(observation.melds[observation.seat])
        last = self._last
        if last is not None and last[0] == counts and last[1] == gold and last[2] == melds:
            return last[3]
        after = _core.yunxiao_discard_shanten(counts, gold, melds, self._forms)
        self._last = (counts, gold, melds, after)
        return after

    def premium_discards(self, observation: Observation) -> tuple[int, ...]:
        """YX-25..YX-27: the discards into the 游 shape, a gold first (双游/三游 pay more, YX-26). None on the
        dealer's dealt hand: 天胡 (10 each, YX-38) is worth more than any 游 it could lead to but 三游."""
        if observation.drawn_from == "dealt":
            return ()
        gold = observation.extras["gold"]
        counts = observation.counts
        melds = observation.melds[observation.seat]
        # YX-25: only a winning-size hand holding a gold can discard into the 游 shape.
        if not counts[gold] or sum(counts) != 14 - 3 * len(melds):
            return ()
        # A discard leaves the 游 shape only if the hand it leaves, with one more gold, is complete: then that hand
        # is ready (shanten <= 0; a tile lowers shanten by one at most). Only then is the core asked.
        after = self._after_discards(observation)
        if min(after) > 0:  # no discard leaves a ready hand: the common case
            return ()
        # The seat's own melds show it their tiles (a face-down kong too): the core reads the tiles alone.
        tiles = b"".join([bytes(meld.tiles) for meld in melds])
        bits = _core.yunxiao_you_discards(counts, gold, tiles, len(melds))
        if not bits:
            return ()
        kinds = [kind for kind in range(NUM_KINDS) if bits >> kind & 1]
        return tuple(sorted(kinds, key=lambda kind: kind != gold))

    def prefers_own_draw(self, observation: Observation) -> bool:
        """A gold holder with draws to come hopes for a self-draw or 游金 rather than a discard win."""
        if not observation.counts[observation.extras["gold"]]:
            return False
        # The options are read back where they are checked, once per options mapping (a game's observations
        # share theirs).
        options = observation.options
        last = self._options
        if last is None or last[0] is not options:
            last = self._options = (options, YunxiaoOptions.from_mapping(options))
        return observation.wall_left > last[1].reserve_after(observation.extras["kongs"]) + self.own_draw_patience


ADVICE = YunxiaoAdvice(YunxiaoRules.win_forms)

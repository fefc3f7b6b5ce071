"""Yunxiao playing advice (:mod:`hupai.rules.base_advice`): golds as jokers, the 游 shape before a plain
win, and patience with a gold in hand.

Everything it reads is public in the observation or the seat's own: the gold (``extras["gold"]``, YX-6: the
indicator is face up), the kong count (``extras["kongs"]``), the live wall, the wall-end reserve option, and
the seat's own tiles and melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ... import _core
from ..base_advice import ANY_KIND, Advice
from .hand import WHITE
from .options import YunxiaoOptions
from .patterns import you_shape_discards_of
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

    def shanten(self, observation: Observation, rows: np.ndarray, melds: int | np.ndarray) -> np.ndarray:
        """Shanten of physical ``uint8[N, 34]`` hands with the golds as jokers and 白板 as G (YX-6, YX-7), in
        the standard and seven-pairs forms (YX-8, 幺九 and 不搭 left out)."""
        gold = observation.extras["gold"]
        jokers = rows[:, gold].astype(np.int32)  # the core's own dtype: no conversion on the way
        natural = rows.copy()
        natural[:, gold] = rows[:, WHITE] if gold != WHITE else 0
        if gold != WHITE:
            natural[:, WHITE] = 0
        # The core directly (hupai.shanten_batch's checks cost more than its work on a dozen rows).
        return _core.shanten_batch(natural, jokers, melds, self._forms, ANY_KIND, 1)

    def rank_discards(self, observation: Observation, discards: Sequence[Action]) -> list[int]:
        """The shanten after each discard, golds as jokers (lower first); no count of improving tiles."""
        # As shanten() counts them, built as bytes (cheaper than numpy for a dozen rows): the natural tiles
        # with 白板 moved to G's place, and the golds held as jokers, one fewer after a gold's discard.
        gold = observation.extras["gold"]
        natural = bytearray(observation.counts)
        held = natural[gold]
        natural[gold] = natural[WHITE] if gold != WHITE else 0
        if gold != WHITE:
            natural[WHITE] = 0
        rows = natural * len(discards)
        jokers = [held] * len(discards)
        for row, action in enumerate(discards):
            tile = action.tile
            if tile == gold:
                jokers[row] -= 1
            else:
                rows[34 * row + (gold if tile == WHITE else tile)] -= 1
        melds = len(observation.melds[observation.seat])
        shanten = _core.shanten_batch(np.frombuffer(rows, dtype=np.uint8).reshape(-1, 34),
                                      np.array(jokers, dtype=np.int32), melds, self._forms, ANY_KIND, 1)
        return [-value for value in shanten.tolist()]

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
        kinds = you_shape_discards_of(bytes(counts), gold, observation.own_melds)
        return tuple(sorted(kinds, key=lambda kind: kind != gold))

    def prefers_own_draw(self, observation: Observation) -> bool:
        """A gold holder with draws to come hopes for a self-draw or 游金 rather than a discard win."""
        # Rare (a win on offer to a gold holder): the options are read back where they are checked.
        reserve = YunxiaoOptions.from_mapping(observation.options).reserve_after(observation.extras["kongs"])
        return (bool(observation.counts[observation.extras["gold"]])
                and observation.wall_left > reserve + self.own_draw_patience)


ADVICE = YunxiaoAdvice(YunxiaoRules.win_forms)

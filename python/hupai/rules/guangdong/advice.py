"""Guangdong playing advice (:mod:`hupai.rules.base_advice`): plain tiles in Guangdong's winning forms
(GD-15: standard and thirteen orphans, no seven pairs); no declaration is worth more than a win. A self-draw is paid
one share by each of the three others (GD-22) and adds 自摸's 番 (GD-17: a share is base x 2^番), a discard win one
share by the discarder alone under the default ``discard_pays="one"`` (GD-23): six times as much below the 番 cap,
which :class:`hupai.ev.EVBot` weighs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base_advice import Advice
from .rules import GuangdongRules

if TYPE_CHECKING:  # pragma: no cover
    from ...observation import Observation

__all__ = ["ADVICE", "GuangdongAdvice"]


class GuangdongAdvice(Advice):
    def self_draw_ratio(self, observation: Observation) -> float:
        """GD-22 against GD-23, with 自摸's +1 番 doubling the share (GD-17; below the cap, as most hands are): 3 x 2
        shares against the discarder's 1, or against 3 with ``discard_pays="all_three"``."""
        return 6.0 if observation.options.get("discard_pays", "one") == "one" else 2.0


ADVICE = GuangdongAdvice(GuangdongRules.win_forms)

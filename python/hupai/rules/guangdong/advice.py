"""Guangdong playing advice (:mod:`hupai.rules.base_advice`): plain tiles in Guangdong's winning forms
(GD-15: standard and thirteen orphans, no seven pairs); no declaration is worth more than a win. A self-draw is paid
one share by each of the three others (GD-22), a discard win one share by the discarder alone under the default
``discard_pays="one"`` (GD-23): three times as much, which :class:`hupai.ev.EVBot` weighs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base_advice import Advice
from .rules import GuangdongRules

if TYPE_CHECKING:  # pragma: no cover
    from ...observation import Observation

__all__ = ["ADVICE", "GuangdongAdvice"]


class GuangdongAdvice(Advice):
    def self_draw_ratio(self, observation: Observation) -> float:
        """GD-22 against GD-23: 3 shares against the discarder's 1, or 3 against 3 with ``all_three``."""
        return 3.0 if observation.options.get("discard_pays", "one") == "one" else 1.0


ADVICE = GuangdongAdvice(GuangdongRules.win_forms)

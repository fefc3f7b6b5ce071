"""Guangdong playing advice (:mod:`hupai.rules.base_advice`): plain tiles in Guangdong's winning forms
(GD-15: standard and thirteen orphans, no seven pairs); no declaration is worth more than a win."""

from __future__ import annotations

from ..base_advice import Advice
from .rules import GuangdongRules

__all__ = ["ADVICE"]

ADVICE = Advice(GuangdongRules.win_forms)

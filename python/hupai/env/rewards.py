"""Rewards: a seat's payments when a hand ends times a scale, by default one per rule system
(:data:`REWARD_SCALES`); :func:`reward_scale` checks a given one."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import HupaiError

__all__ = ["REWARD_SCALES", "reward_scale"]

#: The default reward scale of each rule system: about 1 / the standard deviation of a seat's payments in a hand
#: of GreedyBot play (claim window "eligible"; docs/agents.md gives the measurements), to one significant digit.
#: Random play draws most hands and pays far less; a learner's play moves towards the greedy spread.
REWARD_SCALES: Mapping[str, float] = MappingProxyType(
    {"guangdong": 0.3, "yunxiao": 0.3, "kawuxing": 0.3, "waihuzi": 0.01})


def reward_scale(rules: str, given: Any = None) -> float:
    """``given`` checked (a finite number > 0), or the rule system's default (1.0 for one without)."""
    import math

    if given is None:
        return REWARD_SCALES.get(rules, 1.0)
    if isinstance(given, bool) or not isinstance(given, (int, float)) or not math.isfinite(given) or given <= 0:
        raise HupaiError(f"reward_scale must be a finite number > 0 (or None: the rule system's default), "
                         f"got {given!r}")
    return float(given)

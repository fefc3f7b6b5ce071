"""Weighted worlds: how well another seat's dealt hand in a sampled world explains the way that seat has played.

:func:`hupai.worlds.sample` deals the hidden tiles uniformly among the deals an observation allows. A player who
has kept its useful tiles for ten turns is much nearer a win than thirteen tiles dealt at random, so uniform
worlds make the other seats slow and harmless, and a search over them overrates pushing. This module gives a
sampled hand a likelihood from the cheapest facts that carry the effect: how many turns the seat has played and
how many melds it shows (public), and how far its hand in the world is from a win (its *level*: the shanten as
the rule system's advice counts it, golds as jokers in Yunxiao; in Wai Huzi 0 for a hand ready for a win worth
the minimum 息 and otherwise the cards its shape lacks, as its advice judges a hand). Levels are capped at
:data:`LEVELS` - 1.

The weight of a level is the ratio of two frequencies measured in self-play (``bench/calibrate_worlds.py``,
the tables in :mod:`hupai._world_weights`): how often a real EVBot hand of a seat with those turns and melds was
at that level, over how often a uniformly sampled world of the same observation dealt that seat a hand at that
level. :func:`hupai.worlds.sample` with ``weights`` deals each other seat several candidate hands from the
unseen tiles and keeps one at random in proportion to its weight (importance resampling, one seat after
another, drawn from the sample's random stream: the same seed gives the same world). Every candidate is a deal
the observation allows, so a weighted world is as consistent as a uniform one; only how likely each is changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import rules as rules_module
from ._world_weights import TABLES
from .bots import _own_groups, _zipai_advice
from .errors import HupaiError
from .observation import Observation

__all__ = ["WorldWeights", "LEVELS", "TURN_STEP", "TURN_BUCKETS", "MELD_BUCKETS", "bucket", "levels",
           "turns_played"]

LEVELS = 5          #: levels 0 .. 4 (4: four or more from a win)
TURN_STEP = 2       #: turns played are bucketed two at a time
TURN_BUCKETS = 10   #: ... up to 18 and more
MELD_BUCKETS = 4    #: melds shown: 0, 1, 2, 3 or more


_ZIPAI: dict[Any, Any] = {}  # the zipai advice by options, built once (a new one looks its tables up again)


def turns_played(observation: Observation, other: int) -> int:
    """How many tiles ``other`` has discarded: its pile and the discards of its that others claimed."""
    claimed = sum(1 for seat_melds in observation.melds for meld in seat_melds if meld.claimed_from == other)
    return len(observation.discards[other]) + claimed


def bucket(observation: Observation, other: int) -> tuple[int, int]:
    """The public facts a level's weight depends on: (turns bucket, melds bucket)."""
    turns = min(turns_played(observation, other) // TURN_STEP, TURN_BUCKETS - 1)
    return turns, min(len(observation.melds[other]), MELD_BUCKETS - 1)


def levels(observation: Observation, other: int, hands: Sequence[bytes | bytearray] | np.ndarray) -> list[int]:
    """The level of each of ``hands`` (concealed counts of seat ``other`` with its shown melds; or a uint8 array
    of them, a row a hand), capped."""
    top = LEVELS - 1
    if len(observation.counts) == 34:
        advice = rules_module.advice(observation.rules)
        if isinstance(hands, np.ndarray):  # the rows already (weighted worlds deal their candidates as one array)
            rows = hands
        else:
            rows = np.frombuffer(b"".join(bytes(hand) for hand in hands), dtype=np.uint8).reshape(-1, 34)
        melds = len(observation.melds[other])
        found = advice.shanten(observation, rows, melds).tolist()
        return [min(max(level, 0), top) for level in found]
    advice_z = _zipai_advice(_ZIPAI, observation)
    groups = _own_groups(other, observation.melds[other])
    out = []
    for hand in hands:
        try:
            judged = advice_z.judge(bytes(hand), groups)
        except HupaiError:  # not a hand at rest (no seat but the one to act holds one more): no evidence
            out.append(top)
            continue
        out.append(0 if judged.wait_value > 0 else min(max(-judged.closeness, 1), top))
    return out


def _checked_tables(tables: Any) -> dict[str, Any]:
    """``tables`` as given, once each system's weights are known to be ``[turns][melds][level]`` of finite
    non-negative numbers (a hupai error otherwise: a malformed table would fail deep inside a search)."""
    if not isinstance(tables, dict):
        raise HupaiError(f"world weight tables must be a dict of rule system names, got {type(tables).__name__}")
    shape = (TURN_BUCKETS, MELD_BUCKETS, LEVELS)
    for name, table in tables.items():
        try:
            weights = np.asarray(table["weights"], dtype=np.float64)
        except (TypeError, KeyError, IndexError, ValueError) as error:
            raise HupaiError(f"world weights for {name!r} must be a table under 'weights' ({error})") from None
        if weights.shape != shape or not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise HupaiError(f"world weights for {name!r} must be {shape[0]} x {shape[1]} x {shape[2]} finite "
                             f"numbers of at least 0, got shape {weights.shape}")
    return tables


class WorldWeights:
    """Importance resampling of the other seats' hands by :func:`levels` (module docstring).

    ``candidates``: hands dealt per seat to choose one from (1 deals uniformly); ``tables``: weights by rule
    system name, ``[turns bucket][melds bucket][level]`` (default: the calibrated :data:`TABLES`)."""

    def __init__(self, candidates: int = 64, tables: dict[str, Any] | None = None) -> None:
        if type(candidates) is not int or not 1 <= candidates <= 256:
            raise HupaiError(f"candidates must be an int from 1 to 256, got {candidates!r}")
        self.candidates = candidates
        self.tables = TABLES if tables is None else _checked_tables(tables)

    def weighs(self, observation: Observation) -> bool:
        """Whether this observation's rule system has a table (others are dealt uniformly)."""
        return observation.rules in self.tables and self.candidates > 1

    def weight(self, observation: Observation, other: int, level: int) -> float:
        """The weight of a hand of ``other`` at ``level``, given what the seat has seen of its play."""
        turns, melds = bucket(observation, other)
        return float(self.tables[observation.rules]["weights"][turns][melds][level])

    def pick(self, observation: Observation, other: int, hands: Sequence[bytes | bytearray] | np.ndarray,
             rng: random.Random) -> int:
        """The index of the hand kept among ``hands`` (candidates for ``other``, or a uint8 array of them, a row
        a hand), drawn in proportion to their weights from ``rng``."""
        turns, melds = bucket(observation, other)
        row = self.tables[observation.rules]["weights"][turns][melds]
        weights = [row[level] for level in levels(observation, other, hands)]
        point = rng.random() * sum(weights)
        for index, weight in enumerate(weights):
            point -= weight
            if point < 0:
                return index
        return len(hands) - 1

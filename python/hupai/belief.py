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
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import rules as rules_module
from ._world_levels import SHARES
from ._world_waits import WAITS
from ._world_weights import TABLES
from .bots import _own_groups, _zipai_advice
from .errors import HupaiError
from .observation import Observation

__all__ = ["WorldWeights", "MatchedWorlds", "WaitingWorlds", "LEVELS", "WAIT_CLASSES", "TURN_STEP", "TURN_BUCKETS",
           "MELD_BUCKETS", "bucket", "levels", "turns_played", "wait_classes"]

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


def _arrays(tables: Any, what: str, key: str, shape: tuple[int, ...]) -> Iterator[tuple[str, Any, np.ndarray]]:
    """Each system's ``(name, table, array)`` of a data table of the worlds (``what``: how errors name it), once
    ``tables`` is a dict and the array under ``key`` has ``shape`` and finite numbers of at least 0 (a hupai error
    otherwise: a malformed table would fail deep inside a search)."""
    if not isinstance(tables, dict):
        raise HupaiError(f"{what} must be a dict of rule system names, got {type(tables).__name__}")
    for name, table in tables.items():
        try:
            found = np.asarray(table[key], dtype=np.float64)
        except (TypeError, KeyError, IndexError, ValueError) as error:
            raise HupaiError(f"{what} for {name!r} must be an array under {key!r} ({error})") from None
        if found.shape != shape or not np.all(np.isfinite(found)) or np.any(found < 0):
            raise HupaiError(f"{what} for {name!r} must be {' x '.join(map(str, shape))} finite numbers of at least "
                             f"0, got shape {found.shape}")
        yield name, table, found


def _checked_tables(tables: Any) -> dict[str, Any]:
    """``tables`` as given, once each system's weights are ``[turns][melds][level]`` of finite non-negative
    numbers."""
    for _ in _arrays(tables, "world weights", "weights", (TURN_BUCKETS, MELD_BUCKETS, LEVELS)):
        pass
    return tables  # type: ignore[no-any-return]  # (a dict: _arrays checked it)


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

    def keep(self, observation: Observation, other: int, rows: np.ndarray, pool: Sequence[int],
             rng: random.Random, unseen: Sequence[int] | None = None) -> np.ndarray:
        """The hand dealt to ``other``: one of ``rows`` (its candidates, a uint8 row each, uniform deals of
        ``pool``, the tiles still to deal), kept by :meth:`pick`. ``unseen``: the copies of each kind the
        observing seat cannot see (:func:`hupai.worlds.unseen_counts`), for dealers that read it."""
        kept: np.ndarray = rows[self.pick(observation, other, rows, rng)]
        return kept

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


def _checked_shares(shares: Any) -> dict[str, Any]:
    """``shares`` as given, once each system's are ``[turns][melds][level]`` of finite non-negative numbers with a
    positive sum in every bucket and a ``discarded`` factor in (0, 100] (a hupai error otherwise)."""
    for name, table, found in _arrays(shares, "world level shares", "shares", (TURN_BUCKETS, MELD_BUCKETS, LEVELS)):
        if np.any(found.sum(axis=2) <= 0):
            raise HupaiError(f"world level shares for {name!r}: every bucket's shares must sum above 0")
        factor = table.get("discarded", 1.0)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0 < factor <= 100:
            raise HupaiError(f"world level shares for {name!r}: 'discarded' must be a number above 0 and at most "
                             f"100, got {factor!r}")
    return shares  # type: ignore[no-any-return]  # (a dict: _arrays checked it)


class MatchedWorlds(WorldWeights):
    """Level-matched worlds: each other seat's hand is dealt at a level drawn from how often a real hand of a seat
    with its public bucket (turns played, melds shown) is at each level (``shares``, measured in self-play by
    ``bench/calibrate_worlds.py --levels``, :mod:`hupai._world_levels`), so the worlds deal ready hands about as
    often as real games do.

    Importance resampling (:class:`WorldWeights`) can keep only what its candidates hold, and a ready hand is
    rare among uniform deals (about 0.3% of them late in a Guangdong hand against 40% of real hands): it dealt
    7% ready hands, matched worlds 37% (``bench/calibrate_worlds.py --check``). Here a seat's level is drawn
    first; a candidate at that level is kept if any was dealt (uniformly among them: a uniform deal given its
    level, up to the own-discard weighting below); otherwise the nearest candidate above it is moved
    down one level at a time by swapping one of its tiles for an unseen one (among the swaps that lower its
    level, each in proportion to the copies it moves), as the seat's own draws and discards would have done.
    The swapped hands are near uniform among the hands at their level, not exactly. Where a rule system's
    levels are not a shanten (Wai Huzi) the nearest candidate is kept, with no swap. Every hand kept is a deal of
    the unseen tiles, so a matched world is as consistent as a uniform one.

    A seat's own discards count too: real hands hold copies of the kinds their seat discarded less often than a
    uniform deal does (in Guangdong about a quarter as often), so among the hands at the drawn level each is kept in
    proportion to the system's ``discarded`` ratio (measured with the shares) to the power of the copies it
    holds of kinds that seat discarded, and the swaps are tilted the same way: the worlds' hands then hold the
    kinds their seat threw away about as rarely as real hands do.

    ``candidates``: uniform hands dealt per seat; ``shares``: real level shares by rule system name,
    ``[turns bucket][melds bucket][level]`` under ``"shares"`` and the ratio under ``"discarded"`` (1 if absent;
    default: the calibrated :data:`hupai._world_levels.SHARES`)."""

    def __init__(self, candidates: int = 64, shares: dict[str, Any] | None = None) -> None:
        super().__init__(candidates)
        self.shares = SHARES if shares is None else _checked_shares(shares)

    def weighs(self, observation: Observation) -> bool:
        return observation.rules in self.shares and self.candidates > 1

    def target(self, observation: Observation, other: int, rng: random.Random) -> int:
        """A level for ``other``'s hand, drawn from the real shares of its bucket."""
        turns, melds = bucket(observation, other)
        row = self.shares[observation.rules]["shares"][turns][melds]
        point = rng.random() * sum(row)
        for level, share in enumerate(row):
            point -= share
            if point < 0:
                return level
        return LEVELS - 1

    def tilt(self, observation: Observation, other: int) -> np.ndarray:
        """Per kind, the factor a held copy weighs a hand of ``other`` by: the system's ``discarded`` ratio for a
        kind ``other`` discarded, 1 for the rest."""
        factor = float(self.shares[observation.rules].get("discarded", 1.0))
        out = np.ones(len(observation.counts))
        out[list(set(observation.discards[other]))] = factor
        return out

    def keep(self, observation: Observation, other: int, rows: np.ndarray, pool: Sequence[int],
             rng: random.Random, unseen: Sequence[int] | None = None) -> np.ndarray:
        goal = self.target(observation, other, rng)
        found = levels(observation, other, rows)
        tilt = self.tilt(observation, other)
        at = [index for index, level in enumerate(found) if level == goal]
        ready = self.ready_odds(observation, other, unseen) if goal == 0 and unseen is not None else None
        if at:
            if ready is not None and len(at) > 1:
                drawn = [_weighed(rows, at, tilt, rng) for _ in range(self.draws)]
                picked: np.ndarray = rows[drawn[_odds_pick(ready(rows[drawn]), rng)]]
                return picked
            kept: np.ndarray = rows[_weighed(rows, at, tilt, rng)]
            return kept
        above = [level for level in found if level > goal]
        nearest = min(above) if above else max(found)
        near = [index for index, level in enumerate(found) if level == nearest]
        row: np.ndarray = rows[_weighed(rows, near, tilt, rng)]
        if nearest <= goal or len(observation.counts) != 34:
            return row
        return _descend(observation, other, row, pool, goal, rng, tilt, ready, self.draws)

    #: ready hands drawn to choose one from by their waits (:class:`WaitingWorlds`)
    draws = 1

    def ready_odds(self, observation: Observation, other: int,
                   unseen: Sequence[int]) -> Callable[[np.ndarray], np.ndarray] | None:
        """How to weigh ready hands of ``other`` against each other (rows in, one odds each), or None: as the
        level and the own-discard tilt alone pick them (matched worlds)."""
        return None


#: Classes of a ready hand's waits (:func:`wait_classes`): five bands of the copies of its waited kinds its seat
#: cannot see (0-2, 3-4, 5-6, 7-8, 9 or more), each split by whether the seat discarded a kind it waits on.
WAIT_CLASSES = 10


def wait_classes(observation: Observation, other: int, rows: np.ndarray, unseen: Sequence[int]) -> np.ndarray:
    """The class of each of ``rows`` (ready mahjong hands of ``other``, concealed counts, a uint8 row each) by
    its waits, as ``other`` itself would see them: ``2 * band + discarded``, where band counts the copies of the
    kinds that complete the hand that ``other`` cannot see (the observer's own tiles among them: the observer
    sees them, ``other`` does not) in bands of two from 3, and discarded is 1 if ``other`` discarded a kind it
    waits on. ``unseen``: the copies of each kind the observer cannot see (:func:`hupai.worlds.unseen_counts` of
    the observation). Reads the observation, the rows and ``unseen`` alone."""
    advice = rules_module.advice(observation.rules)
    melds = len(observation.melds[other])
    count = len(rows)
    width = rows.shape[1]
    # a fifth copy is no wait: such a row is left as the hand (one short of complete), and masked out below
    grown = np.minimum(rows[:, None, :] + np.eye(width, dtype=np.uint8)[None, :, :], 4).reshape(-1, width)
    complete = (advice.shanten(observation, grown, melds) < 0).reshape(count, width) & (rows < 4)
    hidden = np.asarray(unseen, dtype=np.int16) + np.frombuffer(
        bytes(observation.counts), dtype=np.uint8)
    live = np.clip(hidden[None, :] - rows, 0, None)
    copies = (complete * live).sum(axis=1)
    thrown = np.zeros(width, dtype=bool)
    thrown[list(set(observation.discards[other]))] = True
    discarded = (complete & thrown[None, :]).any(axis=1)
    band = np.clip((copies - 1) // 2, 0, WAIT_CLASSES // 2 - 1)
    out: np.ndarray = 2 * band + discarded
    return out


def _checked_waits(waits: Any) -> dict[str, Any]:
    """``waits`` as given, once each system's are :data:`WAIT_CLASSES` finite non-negative numbers with a positive
    sum under ``"weights"`` (a hupai error otherwise)."""
    for name, _, found in _arrays(waits, "world wait weights", "weights", (WAIT_CLASSES,)):
        if found.sum() <= 0:
            raise HupaiError(f"world wait weights for {name!r} must sum above 0")
    return waits  # type: ignore[no-any-return]  # (a dict: _arrays checked it)


class WaitingWorlds(MatchedWorlds):
    """Matched worlds whose ready hands wait where real ones do.

    A matched world deals another seat a ready hand as often as real play has one, but it waits on tiles drawn at
    random, while a real player has kept the shape whose winning tiles it has not seen (it counts unseen
    improving tiles), and has not thrown a kind it now waits on. So where a rule system has a table (``waits``,
    measured by ``bench/calibrate_worlds.py --waits``, :mod:`hupai._world_waits`), each ready hand is chosen
    among ``draws`` ready hands a matched world would deal (the candidates at level 0, or the last swaps of the
    descent), in proportion to the weight of its class (:func:`wait_classes`): how often a real ready hand of
    another seat is of that class, over how often a matched world's is (importance resampling again). Every hand
    kept is one a matched world could deal, so a waiting world is as consistent as a matched one."""

    def __init__(self, candidates: int = 64, shares: dict[str, Any] | None = None,
                 waits: dict[str, Any] | None = None, draws: int = 12) -> None:
        super().__init__(candidates, shares)
        if type(draws) is not int or not 1 <= draws <= 64:
            raise HupaiError(f"draws must be an int from 1 to 64, got {draws!r}")
        self.waits = WAITS if waits is None else _checked_waits(waits)
        self.draws = draws

    def ready_odds(self, observation: Observation, other: int,
                   unseen: Sequence[int]) -> Callable[[np.ndarray], np.ndarray] | None:
        table = self.waits.get(observation.rules)
        if table is None or len(observation.counts) != 34 or self.draws < 2:
            return None
        weights = np.asarray(table["weights"], dtype=np.float64)

        def odds(rows: np.ndarray) -> np.ndarray:
            found: np.ndarray = weights[wait_classes(observation, other, rows, unseen)]
            return found
        return odds


def _odds_pick(odds: np.ndarray, rng: random.Random) -> int:
    """An index drawn in proportion to ``odds`` (uniformly if they are all 0)."""
    total = np.cumsum(odds)
    if total[-1] <= 0:
        return min(int(rng.random() * len(odds)), len(odds) - 1)
    return min(int(np.searchsorted(total, rng.random() * total[-1], side="right")), len(odds) - 1)


def _weighed(rows: np.ndarray, among: list[int], tilt: np.ndarray, rng: random.Random) -> int:
    """One index of ``among`` (rows of ``rows``), drawn in proportion to the product of ``tilt`` over each row's
    copies (uniformly where every factor is 1)."""
    if len(among) == 1:
        return among[0]
    odds = np.cumsum(np.prod(tilt[None, :] ** rows[among], axis=1))
    return among[min(int(np.searchsorted(odds, rng.random() * odds[-1], side="right")), len(among) - 1)]


def _descend(observation: Observation, other: int, row: np.ndarray, pool: Sequence[int], goal: int,
             rng: random.Random, tilt: np.ndarray | None = None,
             ready: Callable[[np.ndarray], np.ndarray] | None = None, draws: int = 1) -> np.ndarray:
    """``row`` (a mahjong hand of ``other`` above level ``goal``) moved down to ``goal`` by single swaps of a held
    tile for one of ``pool``'s not in it: at each step one swap among those that lower its shanten by one, drawn
    in proportion to the copies held times the copies unseen (as a draw would come), times the ``tilt`` of the
    kind taken in over that of the kind given up. Stops where none does."""
    advice = rules_module.advice(observation.rules)
    melds = len(observation.melds[other])
    hand = row.astype(np.int16)
    spare = np.asarray(pool, dtype=np.int16) - hand
    shanten = int(advice.shanten(observation, row[None, :], melds)[0])
    while shanten > goal:
        held = np.flatnonzero(hand)
        free = np.flatnonzero(spare > 0)
        out, into = np.meshgrid(held, free, indexing="ij")
        differ = out != into
        out, into = out[differ], into[differ]
        if not len(out):
            break
        swaps = np.repeat(hand[None, :], len(out), axis=0)
        lines = np.arange(len(out))
        swaps[lines, out] -= 1
        swaps[lines, into] += 1
        after = advice.shanten(observation, swaps.astype(np.uint8), melds)
        lower = np.flatnonzero(after == shanten - 1)
        if not len(lower):
            break
        odds = hand[out[lower]].astype(np.float64) * spare[into[lower]]
        if tilt is not None:
            odds *= tilt[into[lower]] / tilt[out[lower]]
        odds = np.cumsum(odds)
        if ready is not None and shanten == 1:  # the last step: ``draws`` ready hands, one kept by its waits
            drawn = [int(lower[min(int(np.searchsorted(odds, rng.random() * odds[-1], side="right")),
                                   len(lower) - 1)]) for _ in range(draws)]
            chosen = drawn[_odds_pick(ready(swaps[drawn].astype(np.uint8)), rng)]
        else:
            chosen = int(lower[min(int(np.searchsorted(odds, rng.random() * odds[-1], side="right")),
                                   len(lower) - 1)])
        hand[out[chosen]] -= 1
        spare[out[chosen]] += 1
        hand[into[chosen]] += 1
        spare[into[chosen]] -= 1
        shanten -= 1
    return hand.astype(np.uint8)

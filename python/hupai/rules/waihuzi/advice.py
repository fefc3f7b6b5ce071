"""Playing advice for a 息-seeking Wai Huzi player, over plain data (not a rule: the engine never asks it).

A hand is given as counts (``uint8[20]`` numpy array or 20 bytes; a card string works too), the declared groups
(:class:`hupai.zipai.Declared`), the cards it may not discard (锁牌, WH-26) and, if the caller knows them, how
many copies of each card it has not seen (``unseen``; by default four less the seat's own cards). The advice
judges a hand *at rest* (3m+1 cards in the hand, WH-11) by, in this order:

1. how much its waits are worth: over the cards that complete it with at least ``min_huxi`` 息 (the core's
   :func:`hupai.zipai.waits`), the copies still unseen times the better score (self-drawn or from another);
2. how far its shape is from a win: the fewest cards it lacks for the groups still to make and the 2-card unit
   (counting complete groups, pairs and 门子 in each size, a Python estimate like mahjong's shanten);
3. the 息 it would then hold (declared groups exactly, the hand's best grouping estimated).

:meth:`WaihuziAdvice.discard` picks the discard whose hand at rest judges best; :meth:`WaihuziAdvice.claim`
says whether to take an offered card (溜 and 歪 always, 4 息 each; 胡 always; 碰, 吃 and a 飘 of three held when the
hand at rest afterwards judges better than it does now).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ... import zipai
from ...analysis import Forms
from ...errors import HupaiError, InvalidHand
from ...zipai import Declared, PartType
from ..base_advice import Advice
from .scoring import CoreOptions, core_min_huxi

__all__ = ["ADVICE", "WaihuziAdvice", "Judgement", "CLAIMS"]

#: The offered-card actions :meth:`WaihuziAdvice.claim` answers (WH-14, WH-15).
CLAIMS = ("win", "liu", "wai", "piao", "peng", "chi")
_GROUPS_IN_A_WIN = 6  # WH-28: six groups (declared or in the hand) and one 2-card unit
_DECLARED_XI = {PartType.WAI: 4, PartType.LIU: 4, PartType.PENG: 1, PartType.PIAO: 1}


@dataclass(frozen=True, order=True)
class Judgement:
    """How good a hand at rest is; a larger judgement is better (compared field by field)."""

    wait_value: int   #: Σ over waiting cards of unseen copies × the better score (0: not ready)
    closeness: int    #: minus the cards the shape lacks (−1: ready by shape)
    xi: int           #: declared 息 + the hand's best grouping's 息 (estimated)


def _counts(cards: Any) -> np.ndarray:
    if isinstance(cards, (bytes, bytearray, memoryview)):
        array = np.frombuffer(cards, dtype=np.uint8)
        if array.shape != (zipai.NUM_KINDS,) or array.max(initial=0) > zipai.COPIES:
            raise InvalidHand("counts must be 20 bytes of 0..4")
        return array.copy()
    return np.array(zipai.to_counts(cards), dtype=np.uint8)


_Block = tuple[tuple[tuple[int, int], ...], int, int, int]  # (values and counts used, groups, partials, 息)
# Blocks that start at a value, by offset (WH-7..9: 坎 3 息, pair 1, runs and 门子 0) ...
_PLAIN: tuple[_Block, ...] = (
    (((0, 3),), 1, 0, 3), (((0, 2),), 0, 1, 1), (((0, 1), (1, 1), (2, 1)), 1, 0, 0),
    (((0, 1), (1, 1)), 0, 1, 0), (((0, 1), (2, 1)), 0, 1, 0))
# ... and the 二七十 ones, at value 2 (index 1) and value 7 (index 6): run 1 息, 门子 1 息.
_TWO_SEVEN_TEN: dict[int, tuple[_Block, ...]] = {
    1: ((((0, 1), (5, 1), (8, 1)), 1, 0, 1), (((0, 1), (5, 1)), 0, 1, 1), (((0, 1), (8, 1)), 0, 1, 1)),
    6: ((((0, 1), (3, 1)), 0, 1, 1),),
}


def _blocks_at(i: int) -> tuple[_Block, ...]:
    return tuple((tuple((i + d, n) for d, n in used), g, p, x)
                 for used, g, p, x in (*_PLAIN, *_TWO_SEVEN_TEN.get(i, ()))
                 if all(i + d < 10 for d, _ in used))


_BLOCKS = tuple(_blocks_at(i) for i in range(10))


@lru_cache(maxsize=1 << 14)
def suit_shape(values: bytes) -> tuple[int, int, int]:
    """For one size's counts (10 bytes): (groups, partials, 息) of the grouping with the most 2 × groups +
    partials, then the most 息 (a pair or 门子 is one card from a group or the unit; a lone card two)."""
    _, xi, groups, partials = _best_from(0, tuple(values))
    return groups, partials, xi


@lru_cache(maxsize=1 << 16)  # a memo of a pure function: one discard changes one size, the other repeats
def _best_from(i: int, rest: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The best grouping of the cards ``rest`` at values ``i``.. (blocks only reach upward, so the values below
    ``i`` never matter): (2 × groups + partials, 息, groups, partials)."""
    while rest and not rest[0]:
        i, rest = i + 1, rest[1:]
    if not rest:
        return (0, 0, 0, 0)
    best = _best_from(i + 1, rest[1:])  # what is left at this value stays single
    for used, g, p, x in _BLOCKS[i]:
        counts = list(rest)
        if all(counts[k - i] >= n for k, n in used):
            for k, n in used:
                counts[k - i] -= n
            s, xi, groups, partials = _best_from(i, tuple(counts))
            found = (s + 2 * g + p, xi + x, groups + g, partials + p)
            if found > best:
                best = found
    return best


def shape(counts: np.ndarray, groups_needed: int) -> tuple[int, int]:
    """(cards lacking, 息 of that grouping) for a hand that must still make ``groups_needed`` groups and the
    2-card unit: an estimate from each size's best grouping (like mahjong's shanten, not a proof)."""
    raw = counts.tobytes()
    t1, p1, x1 = suit_shape(raw[:10])
    t2, p2, x2 = suit_shape(raw[10:])
    t = min(t1 + t2, groups_needed)
    room = groups_needed - t
    partials = p1 + p2
    return 2 * room - min(partials, room) + (0 if partials > room else 1), x1 + x2


def _declared_xi(groups: Sequence[Declared]) -> int:
    return sum(_DECLARED_XI.get(g.type, 1 if all(zipai.is_red(c) for c in g.cards) else 0) for g in groups)


class WaihuziAdvice(Advice):
    """Advice for a 息-seeking player under one option set (``min_huxi`` and the 名堂 options score the waits).

    It subclasses the mahjong :class:`~hupai.rules.base_advice.Advice` only so that ``hupai.rules.advice`` has one
    return type; the mahjong methods (shanten over 34 kinds, observations) do not apply to Wai Huzi: use
    :meth:`judge`, :meth:`discard`, :meth:`rank_discards` and :meth:`claim`.
    """

    def __init__(self, min_huxi: int = 5, xingxingxi: str = "loose", daxiaozihu: bool = True,
                 extra_mingtang: bool = False) -> None:
        super().__init__(Forms.STANDARD)
        self.min_huxi = min_huxi
        self.core: CoreOptions = {"xingxingxi": xingxingxi, "daxiaozihu": daxiaozihu,
                                  "extra_mingtang": extra_mingtang}

    @property
    def options(self) -> dict[str, Any]:
        """The options the advice judges waits under."""
        return {"min_huxi": self.min_huxi, **self.core}

    @classmethod
    def for_rules(cls, rules: Any) -> WaihuziAdvice:
        """The advice under a :class:`~.rules.WaihuziRules`' options."""
        o = rules.options
        return cls(core_min_huxi(o), o.xingxingxi, o.daxiaozihu, o.extra_mingtang)

    def _unseen(self, counts: np.ndarray, groups: Sequence[Declared], unseen: Any) -> np.ndarray:
        if unseen is not None:
            return _counts(unseen)
        seen = counts.astype(np.int16)
        for group in groups:
            for card in group.cards:
                seen[card] += 1
        out: np.ndarray = np.clip(zipai.COPIES - seen, 0, zipai.COPIES).astype(np.uint8)
        return out

    def judge(self, counts: Any, groups: Sequence[Declared] = (), unseen: Any = None) -> Judgement:
        """How good a hand at rest (3m+1 cards with its groups) is (see the module docstring)."""
        hand = _counts(counts)
        return self._judge(hand, list(groups), self._unseen(hand, groups, unseen))

    def _judge(self, hand: np.ndarray, groups: list[Declared], unseen: np.ndarray) -> Judgement:
        lacking, xi = shape(hand, _GROUPS_IN_A_WIN - len(groups))
        value = 0
        if lacking <= 1:  # ready by shape: ask the core which cards win, with enough 息
            for wait in zipai.waits(hand, groups, min_huxi=self.min_huxi, **self.core):
                scores = [layout.score for layout in (wait.self_drawn, wait.from_other) if layout is not None]
                value += int(unseen[wait.card]) * max(scores)
        return Judgement(value, -lacking, _declared_xi(groups) + xi)

    def rank_discards(self, counts: Any, groups: Sequence[Declared] = (),  # type: ignore[override]
                      forbidden: Iterable[int] = (), unseen: Any = None) -> dict[int, Judgement]:
        """For a hand in a discard state (one card more than at rest): each card it may discard, with the
        judgement of the hand it leaves."""
        hand = _counts(counts)
        seen = self._unseen(hand, groups, unseen)
        banned = set(forbidden)
        out = {}
        for kind in map(int, np.flatnonzero(hand)):
            if kind in banned:
                continue
            hand[kind] -= 1
            out[kind] = self._judge(hand, list(groups), seen)
            hand[kind] += 1
        return out

    def discard(self, counts: Any, groups: Sequence[Declared] = (), forbidden: Iterable[int] = (),
                unseen: Any = None) -> int:
        """The discard that leaves the best hand at rest; ties go to the lower card. :class:`HupaiError` when
        every card is forbidden (WH-18 makes the flow refuse such a claim)."""
        ranked = self.rank_discards(counts, groups, forbidden, unseen)
        if not ranked:
            raise HupaiError("no card may be discarded: every card in the hand is locked (WH-18, WH-26)")
        return max(ranked, key=lambda kind: (ranked[kind], -kind))

    def claim(self, action: str, counts: Any, card: int, groups: Sequence[Declared] = (),
              menzi: tuple[int, int] | None = None, forbidden: Iterable[int] = (), unseen: Any = None) -> bool:
        """Whether to take the offered ``card`` with ``action`` (one of :data:`CLAIMS`); ``counts`` is the hand
        at rest, ``menzi`` the two held cards a 吃 uses, ``forbidden`` the locked cards (WH-26)."""
        if action not in CLAIMS:
            raise HupaiError(f"unknown Wai Huzi claim {action!r} (one of {', '.join(CLAIMS)})")
        if action in ("win", "liu", "wai"):
            return True  # a win ends the hand; 溜 and 歪 are 4 息 each and never break a group
        hand = _counts(counts)
        seen = self._unseen(hand, groups, unseen)
        if seen[card]:
            seen[card] -= 1  # the offered card is seen now
        before = self._judge(hand, list(groups), seen)
        after_groups = list(groups)
        locked = set(forbidden)
        need = {"piao": 3, "peng": 2}.get(action, 0)
        if action == "piao" and hand[card] < 3:
            return True  # onto one's own 碰: the same 1 息, a sure 外元, no discard
        if hand[card] < need or (action == "chi" and (menzi is None or min(hand[k] for k in menzi) < 1)):
            raise HupaiError(f"the hand cannot {action} {zipai.card_name(card)}"
                             + (" (a 吃 needs the two held cards of its 门子)" if action == "chi" else ""))
        if action == "piao":
            hand[card] -= 3
            return self._judge(hand, [*after_groups, Declared.piao(card)], seen) > before
        if action == "peng":
            hand[card] -= 2
            after_groups.append(Declared.peng(card))
        else:
            assert menzi is not None
            low, high = menzi
            hand[low] -= 1
            hand[high] -= 1
            after_groups.append(Declared.chi([low, high, card], card))
            # WH-26: the chowed card's copies and the 门子's other completing card become locked
            locked |= {card, *(c for c in zipai.completing_cards(low, high) if c != card)}
        ranked = self.rank_discards(hand, after_groups, locked, seen)
        return bool(ranked) and max(ranked.values()) > before

    def holds_ready_bonus(self, counts: Any, groups: Sequence[Declared] = (), unseen: Any = None) -> bool:
        """Whether a hand at rest (3m+1 cards) with these declared ``groups`` would be paid 报听's ×4 if it won as
        it stands (WH-35, WH-38): it has made no group, so it holds the cards it was ready with at the deal (a
        non-dealer's 19; the dealer's after its first discard), and it is ready now. Any 吃, 碰, 歪, 溜 or 飘 would
        forfeit the ×4 (WH-38), which a player weighs before taking one."""
        hand = _counts(counts)
        return not groups and int(hand.sum()) % 3 == 1 and self.judge(hand, (), unseen).wait_value > 0


#: GreedyBot's advice under the default options (:func:`hupai.rules.advice`); build one per option set with
#: :meth:`WaihuziAdvice.for_rules`.
ADVICE = WaihuziAdvice()

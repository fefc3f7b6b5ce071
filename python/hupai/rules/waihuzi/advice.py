"""Playing advice for a 息-seeking Wai Huzi player, over plain data (not a rule: the engine never asks it).

A hand is given as counts (``uint8[20]`` numpy array or 20 bytes; a card string works too), the declared groups
(:class:`hupai.zipai.Declared`), the cards it may not discard (锁牌, WH-26) and, if the caller knows them, how
many copies of each card it has not seen (``unseen``; by default four less the seat's own cards). The advice
judges a hand *at rest* (3m+1 cards in the hand, WH-11) by, in this order:

1. how much its waits are worth: over the cards that complete it with at least ``min_huxi`` 息 (the core's
   :func:`hupai.zipai.waits`), the copies still unseen times the better score (self-drawn or from another);
2. how far its shape is from a win: the fewest cards it lacks for the groups still to make and the 2-card unit
   (counting complete groups, pairs and 门子 in each size, an estimate like mahjong's shanten);
3. the 息 it would then hold (declared groups exactly, the hand's best grouping estimated).

:meth:`WaihuziAdvice.discard` picks the discard whose hand at rest judges best; :meth:`WaihuziAdvice.claim`
says whether to take an offered card (溜 and 歪 always, 4 息 each; 胡 always; 碰, 吃 and a 飘 of three held when the
hand at rest afterwards judges better than it does now), and :meth:`WaihuziAdvice.claims` answers several offers
of one card at once.

The judging is the C++ core's (``cpp/zipai_advice.cpp``): one call judges every discard of a hand, or the hand
at rest and every claim it is offered, with the GIL released. This module checks and converts the arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import _core, zipai
from ...analysis import Forms
from ...errors import HupaiError, InvalidHand
from ...tiles import is_integer
from ...zipai import Declared
from ...zipai.analysis import _declared, _options
from ..base_advice import Advice
from .scoring import CoreOptions, core_min_huxi

__all__ = ["ADVICE", "WaihuziAdvice", "Judgement", "CLAIMS"]

#: The offered-card actions :meth:`WaihuziAdvice.claim` answers (WH-14, WH-15).
CLAIMS = ("win", "liu", "wai", "piao", "peng", "chi")
_ALWAYS = frozenset(("win", "liu", "wai"))  # a win ends the hand; 溜 and 歪 are 4 息 each and never break a group
_CLAIM_CODES = {"piao": 0, "peng": 1, "chi": 2}  # the core's claim kinds
_CHI = _CLAIM_CODES["chi"]
_GROUP_CLAIMS = frozenset(("peng", "chi"))  # the claims that take an offered card into a group and then discard
_GROUPS_IN_A_WIN = 6  # WH-28: six groups (declared or in the hand) and one 2-card unit
_AT_REST = 20         # the core's row of the hand at rest
_NOT_AT_REST = "discards are ranked for a hand in a discard state (3m+2 cards), not one at rest"


@dataclass(frozen=True, order=True)
class Judgement:
    """How good a hand at rest is; a larger judgement is better (compared field by field)."""

    wait_value: int   #: Σ over waiting cards of unseen copies × the better score (0: not ready)
    closeness: int    #: minus the cards the shape lacks (−1: ready by shape)
    xi: int           #: declared 息 + the hand's best grouping's 息 (estimated)


def _counts(cards: Any, name: str = "counts") -> np.ndarray | bytes:
    if type(cards) is bytes and len(cards) == zipai.NUM_KINDS:  # noqa: E721 (the core checks the counts)
        return cards
    if isinstance(cards, np.ndarray) and cards.dtype == np.uint8 and cards.shape == (zipai.NUM_KINDS,):
        return cards  # the core copies it and checks the counts
    if isinstance(cards, (bytes, bytearray, memoryview)):
        array = np.frombuffer(cards, dtype=np.uint8)
        if array.shape != (zipai.NUM_KINDS,) or array.max(initial=0) > zipai.COPIES:
            raise InvalidHand(f"{name} must be 20 bytes of 0..4")
        return array
    return np.array(zipai.to_counts(cards), dtype=np.uint8)


def _card(card: Any, what: str) -> int:
    if type(card) is int and 0 <= card < zipai.NUM_KINDS:  # noqa: E721 (the common case; a bool is no card)
        return card
    if not is_integer(card) or not 0 <= card < zipai.NUM_KINDS:
        raise InvalidHand(f"{what} must be a card 0..19, got {card!r}")
    return int(card)


def _held(card: Any) -> int:
    return -1 if card == -1 else _card(card, "a 门子 card")


def _mask(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << _card(card, "a forbidden card")
    return mask


def _mask_of(cards: Iterable[int]) -> int:
    """:func:`_mask`, at once for the usual empty set."""
    return 0 if type(cards) in _PLAIN and not cards else _mask(cards)


_PLAIN = (set, frozenset, tuple, list)


def suit_shape(values: bytes) -> tuple[int, int, int]:
    """For one size's counts (10 bytes): (groups, partials, 息) of the grouping with the most 2 × groups +
    partials, then the most 息 (a pair or 门子 is one card from a group or the unit; a lone card two)."""
    return _core.zipai_suit_shape(bytes(values))


def shape(counts: np.ndarray, groups_needed: int) -> tuple[int, int]:
    """(cards lacking, 息 of that grouping) for a hand that must still make ``groups_needed`` groups and the
    2-card unit: an estimate from each size's best grouping (like mahjong's shanten, not a proof)."""
    raw = bytes(_counts(counts))
    t1, p1, x1 = suit_shape(raw[:10])
    t2, p2, x2 = suit_shape(raw[10:])
    t = min(t1 + t2, groups_needed)
    room = groups_needed - t
    partials = p1 + p2
    return 2 * room - min(partials, room) + (0 if partials > room else 1), x1 + x2


class WaihuziAdvice(Advice):
    """Advice for a 息-seeking player under one option set (``min_huxi`` and the 名堂 options score the waits).

    It subclasses the mahjong :class:`~hupai.rules.base_advice.Advice` only so that ``hupai.rules.advice`` has one
    return type; the mahjong methods (shanten over 34 kinds, observations) do not apply to Wai Huzi: use
    :meth:`judge`, :meth:`discard`, :meth:`rank_discards`, :meth:`claim` and :meth:`claims`.
    """

    def __init__(self, min_huxi: int = 5, xingxingxi: str = "loose", daxiaozihu: bool = True,
                 extra_mingtang: bool = False) -> None:
        super().__init__(Forms.STANDARD)
        self.min_huxi = min_huxi
        self.core: CoreOptions = {"xingxingxi": xingxingxi, "daxiaozihu": daxiaozihu,
                                  "extra_mingtang": extra_mingtang}
        self._core_options = _options(min_huxi, xingxingxi, daxiaozihu, extra_mingtang)
        self._last_groups: tuple[Any, list[tuple[int, int, int, int, int]]] = (None, [])

    @property
    def options(self) -> dict[str, Any]:
        """The options the advice judges waits under."""
        return {"min_huxi": self.min_huxi, **self.core}

    @classmethod
    def for_rules(cls, rules: Any) -> WaihuziAdvice:
        """The advice under a :class:`~.rules.WaihuziRules`' options."""
        o = rules.options
        return cls(core_min_huxi(o), o.xingxingxi, o.daxiaozihu, o.extra_mingtang)

    def _unseen(self, counts: np.ndarray | bytes, groups: Sequence[Declared], unseen: Any) -> np.ndarray | bytes:
        if unseen is not None:
            return _counts(unseen, "unseen")
        seen = (counts if isinstance(counts, np.ndarray) else np.frombuffer(counts, dtype=np.uint8)).astype(np.int16)
        for group in groups:
            for card in group.cards:
                seen[card] += 1
        out: np.ndarray = np.clip(zipai.COPIES - seen, 0, zipai.COPIES).astype(np.uint8)
        return out

    def _arguments(self, counts: Any, groups: Sequence[Declared], unseen: Any) -> tuple[Any, Any, Any]:
        """The core's hand, declared groups and unseen counts."""
        # 20 bytes each, as a player passes them, are taken as they are (the core checks the counts)
        hand = counts if type(counts) is bytes and len(counts) == zipai.NUM_KINDS else _counts(counts)  # noqa: E721
        last = self._last_groups  # a player asks about the same groups decision after decision
        if groups is last[0] and type(groups) is tuple:  # noqa: E721 (only an immutable tuple can be kept)
            declared = last[1]
        else:
            declared = _declared(groups)
            if type(groups) is tuple:  # noqa: E721
                self._last_groups = (groups, declared)  # one tuple, replaced whole
        if type(unseen) is bytes and len(unseen) == zipai.NUM_KINDS:  # noqa: E721
            return hand, declared, unseen
        return hand, declared, self._unseen(hand, groups, unseen)

    def _advise(self, counts: Any, groups: Sequence[Declared], unseen: Any, forbidden: int = 0,
                claims: Sequence[tuple[int, int, int, int]] = ()) -> tuple[np.ndarray, np.ndarray, int]:
        return _core.zipai_advise(*self._arguments(counts, groups, unseen), forbidden, self._core_options, claims)

    def judge(self, counts: Any, groups: Sequence[Declared] = (), unseen: Any = None) -> Judgement:
        """How good a hand at rest (3m+1 cards with its groups) is (see the module docstring)."""
        judged, _, _ = self._advise(counts, groups, unseen)
        flag, *row = judged[_AT_REST].tolist()
        if not flag:
            raise InvalidHand("judge takes a hand at rest (3m+1 cards); rank_discards one in a discard state")
        return Judgement(*row)

    def rank_discards(self, counts: Any, groups: Sequence[Declared] = (),  # type: ignore[override]
                      forbidden: Iterable[int] = (), unseen: Any = None) -> dict[int, Judgement]:
        """For a hand in a discard state (one card more than at rest): each card it may discard, with the
        judgement of the hand it leaves."""
        judged, _, _ = self._discard_state(counts, groups, forbidden, unseen)
        return {kind: Judgement(*row[1:]) for kind, row in enumerate(judged[:_AT_REST].tolist()) if row[0]}

    def _discard_state(self, counts: Any, groups: Sequence[Declared], forbidden: Iterable[int],
                       unseen: Any) -> tuple[np.ndarray, np.ndarray, int]:
        found = self._advise(counts, groups, unseen, _mask_of(forbidden))
        if found[0][_AT_REST, 0]:
            raise InvalidHand(_NOT_AT_REST)
        return found

    def discard(self, counts: Any, groups: Sequence[Declared] = (), forbidden: Iterable[int] = (),
                unseen: Any = None) -> int:
        """The discard that leaves the best hand at rest; ties go to the lower card. :class:`HupaiError` when
        every card is forbidden (WH-18 makes the flow refuse such a claim)."""
        # the core's best discard alone (zipai_advise's judgement of every discard, without its arrays)
        best = _core.zipai_advise_discard(*self._arguments(counts, groups, unseen), _mask_of(forbidden),
                                          self._core_options)
        if best == -2:
            raise InvalidHand(_NOT_AT_REST)
        if best < 0:
            raise HupaiError("no card may be discarded: every card in the hand is locked (WH-18, WH-26)")
        return best

    def claim(self, action: str, counts: Any, card: int, groups: Sequence[Declared] = (),
              menzi: tuple[int, int] | None = None, forbidden: Iterable[int] = (), unseen: Any = None) -> bool:
        """Whether to take the offered ``card`` with ``action`` (one of :data:`CLAIMS`); ``counts`` is the hand
        at rest, ``menzi`` the two held cards a 吃 uses, ``forbidden`` the locked cards (WH-26)."""
        return self.claims([(action, card, menzi)], counts, groups, forbidden, unseen)[0]

    def claims(self, offers: Sequence[tuple[str, int, tuple[int, int] | None]], counts: Any,
               groups: Sequence[Declared] = (), forbidden: Iterable[int] = (), unseen: Any = None) -> list[bool]:
        """:meth:`claim` for several offers ``(action, card, menzi)`` to one hand at rest, judged in one call to
        the core (the hand as it is once per offered card)."""
        # The loops of _claim_codes and _answers, written out: this is GreedyBot's every claim, and the two calls
        # would cost it instructions.
        codes: list[tuple[int, int, int, int]] = []
        for action, card, menzi in offers:
            code = _CLAIM_CODES.get(action) if type(action) is str else None  # noqa: E721
            if code is None:
                if action not in CLAIMS:
                    raise HupaiError(f"unknown Wai Huzi claim {action!r} (one of {', '.join(CLAIMS)})")
                continue  # one of _ALWAYS
            if not (type(card) is int and 0 <= card < zipai.NUM_KINDS):  # noqa: E721 (the common case passes)
                card = _card(card, "the offered card")
            if menzi is None or code != _CHI:
                codes.append((code, card, -1, -1))
            else:
                low, high = menzi
                if not (type(low) is int and type(high) is int and 0 <= low < 20 and 0 <= high < 20):  # noqa: E721
                    low, high = _held(low), _held(high)  # checked one by one (-1 stays: the core refuses it)
                codes.append((code, card, low, high))
        if not codes:
            return [True] * len(offers)
        answers = iter(_core.zipai_advise_claims(*self._arguments(counts, groups, unseen), _mask_of(forbidden),
                                                 self._core_options, codes))
        out = []
        for action, card, menzi in offers:
            verdict = 1 if action in _ALWAYS else next(answers)
            if verdict < 0:
                raise _refusal(verdict, action, card, menzi)
            out.append(verdict == 1)
        return out

    def judged_claims(self, offers: Sequence[tuple[str, int, tuple[int, int] | None]], counts: Any,
                      groups: Sequence[Declared] = (), forbidden: Iterable[int] = (), unseen: Any = None
                      ) -> tuple[list[bool], list[Judgement | None]]:
        """:meth:`claims`, with the judgement of the hand at rest after each 碰, 吃 or 飘 and its best discard (None
        for a win, 溜 or 歪, which the advice always takes), from the same call to the core."""
        codes = _claim_codes(offers)
        if not codes:
            return [True] * len(offers), [None] * len(offers)
        _, judged, _ = self._advise(counts, groups, unseen, _mask_of(forbidden), codes)
        rows = iter(judged.tolist())  # verdict, before (waits, closeness, 息), judged after, after (the same)
        verdicts, after = [], []
        for action, _, _ in offers:
            row = None if action in _ALWAYS else next(rows)
            verdicts.append(1 if row is None else row[0])
            after.append(None if row is None else Judgement(*row[5:8]))
        return _answers(offers, iter(verdicts)), after

    def for_ev(self) -> RedKeeping:
        """This advice as EVBot plays it: the same, but a discard that keeps red cards where the shape does not
        mind (WH-35's 火火翻) or gives up the last one or two (一点红, 黑胡子), a 飘 of three held cards taken
        for its 外元 (WH-34), and a 歪 or a discard where a 溜 would leave a worse hand: :class:`RedKeeping`."""
        return RedKeeping(self)

    def holds_ready_bonus(self, counts: Any, groups: Sequence[Declared] = (), unseen: Any = None) -> bool:
        """Whether a hand at rest (3m+1 cards) with these declared ``groups`` would be paid 报听's ×4 if it won as
        it stands (WH-35, WH-38): it has made no group, so it holds the cards it was ready with at the deal (a
        non-dealer's 19; the dealer's after its first discard), and it is ready now. Any 吃, 碰, 歪, 溜 or 飘 would
        forfeit the ×4 (WH-38), which a player weighs before taking one."""
        hand = _counts(counts)
        return not groups and int(sum(hand)) % 3 == 1 and self.judge(hand, (), unseen).wait_value > 0


def _claim_codes(offers: Sequence[tuple[str, int, tuple[int, int] | None]]) -> list[tuple[int, int, int, int]]:
    """The core's (kind, card, low, high) for each offer it judges (a 碰, 吃 or 飘; a win, 溜 or 歪 is always
    taken), each checked (:meth:`WaihuziAdvice.claims` writes the same loop out)."""
    codes: list[tuple[int, int, int, int]] = []
    for action, card, menzi in offers:
        code = _CLAIM_CODES.get(action) if type(action) is str else None  # noqa: E721
        if code is None:
            if action not in CLAIMS:
                raise HupaiError(f"unknown Wai Huzi claim {action!r} (one of {', '.join(CLAIMS)})")
            continue  # one of _ALWAYS
        if not (type(card) is int and 0 <= card < zipai.NUM_KINDS):  # noqa: E721 (the common case passes)
            card = _card(card, "the offered card")
        if menzi is None or code != _CHI:
            codes.append((code, card, -1, -1))
        else:
            low, high = menzi
            if not (type(low) is int and type(high) is int and 0 <= low < 20 and 0 <= high < 20):  # noqa: E721
                low, high = _held(low), _held(high)  # checked one by one (-1 stays: the core refuses it)
            codes.append((code, card, low, high))
    return codes


def _answers(offers: Sequence[tuple[str, int, tuple[int, int] | None]], verdicts: Iterable[int]) -> list[bool]:
    """The core's verdicts on the judged offers as answers to every offer (a win, 溜 or 歪 taken), or the refusal
    of an offer the hand cannot make (:meth:`WaihuziAdvice.claims` writes the same loop out)."""
    answers = iter(verdicts)
    out = []
    for action, card, menzi in offers:
        verdict = 1 if action in _ALWAYS else next(answers)
        if verdict < 0:
            raise _refusal(verdict, action, card, menzi)
        out.append(verdict == 1)
    return out


def _refusal(verdict: int, action: str, card: int, menzi: tuple[int, int] | None) -> HupaiError:
    name = zipai.card_name(card)
    if verdict == -1:
        return HupaiError(f"the hand cannot {action} {name}"
                          + (" (a 吃 needs the two held cards of its 门子)" if action == "chi" else ""))
    if verdict == -2:
        return InvalidHand(f"a 吃 is a run of one size (x1x2x3 or x2x7x10): {name} with {menzi!r} is not")
    return InvalidHand(f"{name} would be a fifth copy: the hand and its groups hold all four")


#: GreedyBot's advice under the default options (:func:`hupai.rules.advice`); build one per option set with
#: :meth:`WaihuziAdvice.for_rules`.
ADVICE = WaihuziAdvice()


#: The red cards (hand and declared groups) from which EVBot keeps its red cards (:class:`RedKeeping`): within two
#: of 火火翻's ten (WH-35). Fewer rarely reach ten; chosen on seeds 21 and 22 over 7 and 9 and over keeping them always.
RED_REACH = 8

#: The red cards (hand and declared groups) at or below which EVBot gives up its red cards (:class:`RedKeeping`):
#: within two of 黑胡子's none (×8) and one of 一点红's one (×4, WH-35).
RED_SHED = 2


def _reds(counts: Any, groups: Sequence[Any]) -> int:
    """The red cards (二七十, WH-2) in a hand's counts and its declared groups."""
    held = bytes(_counts(counts))
    return (sum(held[card] for card in zipai.RED_KINDS)
            + sum(1 for group in groups for card in group.cards if card in zipai.RED_KINDS))


class RedKeeping:
    """Wai Huzi's advice as EVBot plays it (:meth:`WaihuziAdvice.for_ev`): its discard keeps the red cards (二七十)
    where the shape does not mind in a hand with many, gives them up in a hand with few, and it takes a 飘 of
    three held cards for its 外元.

    火火翻 multiplies a win by 2^(r-9) for r >= 10 red cards (WH-35): in GreedyBot's play it comes in 8% of the
    wins but makes a third of what they are worth, so a red card kept is worth more than the 息 the advice breaks
    its ties by, in a hand that can reach ten. While the hand is not ready, holds at least :data:`RED_REACH` red
    cards (its hand and declared groups: within two of ten) and the advice's discard is red, a black discard that
    leaves the shape as close to a win (the most 息 first, then the lower card) is played instead. With fewer red
    cards the hand rarely ends with ten, and a red card kept only costs 息 and ways to win, so the advice's choice
    stands; so it does for a ready hand (its waits are worth their full score, 火火翻 included).

    At the other end, a win with one red card is 一点红 (×4) and one with none 黑胡子 (×8, WH-35): while the hand
    is not ready, holds one or two red cards (at most :data:`RED_SHED`) and the advice's discard is black, a red
    discard that leaves the shape as close to a win (the most 息 first, then the lower card) is played instead.

    Its claims are the advice's but for one: a 飘 of three held cards (a 坎) on another seat's card, which the
    advice declines in a hand that is not ready (the 坎's 3 息 become the 飘's 1, WH-9, and it judges such a hand
    by its shape and then its 息). A 飘 is always 外元 (WH-34): it doubles whatever the hand wins, for 2 息, and
    once another seat shows the fourth card the 坎 can never be a 溜 (内元, ×4). So while the hand has no live wait
    (a ready hand's waits already count the 外元) it takes the 飘 when the shape stays as close to a win and the
    hand keeps the 息 a win needs (``min_huxi``, WH-32: its best grouping's 息 with the 飘's 1): then the 2 息 cost
    no way to win, and the win is worth twice as much. A hand that would fall short keeps its 坎 (taking the 飘
    there, in screens, won less).

    A 溜 takes three or four cards from the hand and makes no discard (WH-9, WH-12). Offered the 溜 of a 坎 and its
    self-drawn fourth together with the 歪 of the same card (two held and the drawn one, then a discard), it takes
    the 歪 where the hand left after the best discard is ready and worth more (the waits' worth counts the 溜's
    内元, and the fourth card's where a win's layout uses it, WH-34) or, neither ready, closer to a win
    (:meth:`claims`). In a discard state holding four of a card, it keeps them and discards where that leaves a
    ready hand worth more (:meth:`keeps_four`).

    A player takes the first claim the advice accepts, in the flow's order (溜, 飘, 歪, then 碰, then 吃, WH-17).
    Where the advice accepts several 碰 and 吃 of one card (a 碰 and a 吃, or 吃 with different 门子), it takes the
    one whose hand at rest after its discard judges best instead."""

    def __init__(self, advice: Any) -> None:
        self._advice = advice

    def __getattr__(self, name: str) -> Any:
        return getattr(self._advice, name)

    def discard(self, counts: Any, groups: Sequence[Any] = (), forbidden: Any = (), unseen: Any = None) -> int:
        ranked: dict[int, Any] = self._advice.rank_discards(counts, groups, forbidden, unseen)
        if not ranked:
            return int(self._advice.discard(counts, groups, forbidden, unseen))  # the advice's own error
        best = max(ranked.values())
        greedy: int = min(card for card, judged in ranked.items() if judged == best)
        if best.wait_value > 0:  # ready: the waits' worth already counts 火火翻, 一点红 and 黑胡子
            return greedy
        reds = _reds(counts, groups)
        if greedy in zipai.RED_KINDS and reds >= RED_REACH:  # toward 火火翻: keep the red cards
            keep_red = False
        elif greedy not in zipai.RED_KINDS and 0 < reds <= RED_SHED:  # toward 一点红 and 黑胡子: give them up
            keep_red = True
        else:
            return greedy
        other: list[tuple[int, int]] = [(judged.xi, -card) for card, judged in ranked.items()
                 if (card in zipai.RED_KINDS) is keep_red and judged.wait_value == 0
                 and judged.closeness == best.closeness]
        return -max(other)[1] if other else greedy

    def claims(self, offers: Sequence[tuple[str, int, tuple[int, int] | None]], counts: Any,
               groups: Sequence[Any] = (), forbidden: Iterable[int] = (), unseen: Any = None) -> list[bool]:
        """The advice's :meth:`~WaihuziAdvice.claims`, with a 飘 of three held cards taken for its 外元 while the
        hand has no live wait, the shape stays as close to a win and the hand keeps ``min_huxi`` 息, a 溜
        declined where the 歪 of the same card, offered with it, leaves a better hand, and of several 碰 and 吃 it
        accepts only the one that leaves the best hand (see the class docstring)."""
        answers: list[bool]
        after: list[Any] = []
        if len(offers) > 1 and len([1 for action, _, _ in offers if action in _GROUP_CLAIMS]) > 1:
            # maybe several to take: their judgements too, from the same call to the core
            answers, after = self._advice.judged_claims(offers, counts, groups, forbidden, unseen)
        else:
            answers = self._advice.claims(offers, counts, groups, forbidden, unseen)
        for i, (action, card, _) in enumerate(offers):
            if action == "piao" and not answers[i] and bytes(_counts(counts))[card] >= 3:
                _, judged, _ = self._advice._advise(counts, groups, unseen, _mask_of(forbidden),
                                                     [(_CLAIM_CODES["piao"], card, -1, -1)])
                row = judged[0].tolist()  # verdict, before (waits, closeness, 息), judged after, after (the same)
                answers[i] = bool(row[1] == 0 and row[4] and row[6] >= row[2] and row[7] >= self._advice.min_huxi)
            elif action == "liu" and ("wai", card, None) in offers and self._wai_over_liu(counts, card, groups,
                                                                                          forbidden, unseen):
                answers[i] = False  # the 歪 of the same card, offered after it, is taken instead
        if after:
            taken = [i for i, (action, _, _) in enumerate(offers) if answers[i] and action in _GROUP_CLAIMS]
            if len(taken) > 1 and answers.index(True) == taken[0]:
                # A player takes the first claim its advice accepts: of several 碰 and 吃, the one leaving the best
                # hand (the first of the best).
                best = max(taken, key=lambda i: (after[i], -i))
                for i in taken:
                    answers[i] = i == best
        return answers

    def keeps_four(self, counts: Any, card: int, groups: Sequence[Any] = (), forbidden: Iterable[int] = (),
                   unseen: Any = None) -> bool:
        """Whether a hand in a discard state (3m+2 cards) that holds four of ``card`` had better discard a card and
        keep them than declare their 溜 in place of the discard (WH-12): the hand left after the best discard is
        ready and its waits are worth more (their worth counts the 内元 of four held cards a win's layout uses,
        WH-34). The 溜 is 4 息 and 内元 on any win, but it takes four cards from the hand where a discard takes
        one. A hand that is not ready either way declares it (kept for a shape closer to a win, the four won less
        in screens: the 溜's 内元 is sure, the four held cards' is not)."""
        held = bytes(_counts(counts))
        if held[card] != 4:
            return False
        liu = bytearray(held)
        liu[card] = 0
        after_liu = self._advice.judge(bytes(liu), (*groups, Declared.liu(card)), unseen)
        ranked = self._advice.rank_discards(held, groups, forbidden, unseen)
        if not ranked:
            return False
        return bool(max(ranked.values()).wait_value > after_liu.wait_value)

    def _wai_over_liu(self, counts: Any, card: int, groups: Sequence[Any], forbidden: Iterable[int],
                      unseen: Any) -> bool:
        """Whether a 歪 of a self-drawn ``card`` onto two of the three held, then the best discard, leaves a better
        hand at rest than the 溜 of all four: a ready hand worth more (its waits' worth counts the 溜's 内元 on the
        one side and, on the other, the fourth card kept in hand where a win's layout uses it, WH-34), or, neither
        ready, a shape closer to a win. Both groups are 4 息 (WH-9); the 溜 takes three cards from the hand and
        needs no discard, the 歪 takes two and lets the hand give up its worst card instead of the third copy."""
        held = bytes(_counts(counts))
        if held[card] < 3:
            return False
        liu, wai = bytearray(held), bytearray(held)
        liu[card] -= 3
        wai[card] -= 2
        after_liu = self._advice.judge(bytes(liu), (*groups, Declared.liu(card)), unseen)
        ranked = self._advice.rank_discards(bytes(wai), (*groups, Declared.wai(card)), forbidden, unseen)
        if not ranked:
            return False
        after_wai = max(ranked.values())
        if after_wai.wait_value or after_liu.wait_value:
            return bool(after_wai.wait_value > after_liu.wait_value)
        return bool(after_wai.closeness > after_liu.closeness)

    def claim(self, action: str, counts: Any, card: int, groups: Sequence[Any] = (),
              menzi: tuple[int, int] | None = None, forbidden: Iterable[int] = (), unseen: Any = None) -> bool:
        """:meth:`claims` for one offer."""
        return self.claims([(action, card, menzi)], counts, groups, forbidden, unseen)[0]

"""Playing advice for Kawuxing bots: when to declare 亮倒 (KW-16..18).

A bot picks its discard as usual; the advice (:meth:`KawuxingAdvice.declare`, from what the seat observes) then
says whether to make that discard a 亮倒 declaration. 亮倒 doubles the hand's value (KW-18)
and makes a discarder into the hand pay alone, at the cost of a frozen hand (KW-17), a shown
wait, and 1 x base to each undeclared player on a 荒庄 (KW-27).
The advice declares when the discard leaves a ready hand whose winning kinds still have copies this seat has not seen
(in its hand, in every discard, in every meld): a wait with no tile left can only lose by being declared.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from ...actions import Action
from ..base_advice import Advice
from .rules import LIANGDAO, KawuxingRules, hand_waits

if TYPE_CHECKING:  # pragma: no cover
    from ...observation import Observation

__all__ = ["ADVICE", "KawuxingAdvice"]


def _unseen(own: Sequence[int], piles: Sequence[Sequence[int]], meld_tiles: Sequence[Sequence[int]],
            revealed: Sequence[Sequence[int]], seat: int, kinds: Sequence[int]) -> int:
    seen = list(own)
    for tiles in (*piles, *meld_tiles, *(shown for other, shown in enumerate(revealed) if other != seat)):
        for kind in tiles:
            seen[kind] += 1
    return sum(max(0, 4 - seen[kind]) for kind in kinds)


class KawuxingAdvice(Advice):
    """Plain tiles in Kawuxing's winning forms (KW-19), and 亮倒 with a discard that leaves a live wait."""

    #: SearchBot's Kawuxing settings: a margin of 1.5 standard errors and weighted worlds, chosen by the audits
    #: (docs/bots.md); over 6,000 rotated deals it beat EVBot by +0.071 a seat-hand [+0.038, +0.103], and a paired
    #: screen against the default settings measured +0.056 [-0.009, +0.120].
    search = MappingProxyType({"margin": 1.5, "worlds": "weighted"})

    def self_draw_ratio(self, observation: Observation) -> float:
        """KW-25: on a self-draw both others pay V, on a discard win the discarder alone pays V."""
        return 2.0

    def worth_kong(self, observation: Observation, kongs: Sequence[Action]) -> Action | None:
        """A kong that keeps the hand's shanten: it is paid at once (KW-12: 4 for a 暗杠, 2 for a 直杠 or 补杠, kept
        whatever follows, KW-15) and its replacement is a free draw (杠上开花 ×2, KW-20). No 补杠 of a suit tile,
        which a wait may rob (KW-14) for a whole hand's value; an honor's cannot be."""
        return self.kong_for_free(observation, kongs)

    def known_waits(self, observation: Observation) -> dict[int, frozenset[int]]:
        """KW-16: a 亮倒 hand lies face up, so its waits are everyone's to read."""
        out: dict[int, frozenset[int]] = {}
        for other, shown in enumerate(observation.extras.get("revealed", ())):
            if other != observation.seat and shown:
                counts = bytearray(34)
                for kind in shown:
                    counts[kind] += 1
                out[other] = frozenset(hand_waits(counts, len(observation.melds[other]), self._forms))
        return out

    def declare(self, observation: Observation, chosen: Action) -> Action:
        declared = Action("discard", observation.seat, chosen.tile, (), LIANGDAO)
        if chosen.kind != "discard" or chosen.flag or declared not in observation.legal_actions:
            return chosen
        counts = bytearray(observation.counts)
        counts[chosen.tile] -= 1
        seat = observation.seat
        wait_kinds = hand_waits(counts, len(observation.melds[seat]), self._forms)
        melds = [meld.tiles for seat_melds in observation.melds for meld in seat_melds]
        live = _unseen(observation.counts, observation.discards, melds, observation.extras.get("revealed", ()), seat,
                       wait_kinds)
        return declared if live > 0 else chosen


#: GreedyBot's advice (:func:`hupai.rules.advice`).
ADVICE = KawuxingAdvice(KawuxingRules.win_forms)

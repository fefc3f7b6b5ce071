"""Playing advice for Kawuxing bots: when to declare 亮倒 (KW-16..18).

A bot picks its discard as usual; the advice (:meth:`KawuxingAdvice.declare` from what the seat observes, or
:func:`with_liangdao` from a table) then says whether to make that discard a 亮倒 declaration. 亮倒 doubles
the hand's value (KW-18) and makes a discarder into the hand pay alone, at the cost of a frozen hand (KW-17),
a shown wait, and 1 x base to each undeclared player on a 荒庄 (KW-27). The advice
declares when the discard leaves a ready hand whose winning kinds still have copies this seat has not seen
(in its hand, in every discard, in every meld): a wait with no tile left can only lose by being declared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...actions import Action
from ..base_advice import Advice
from ..contract import TableView

if TYPE_CHECKING:  # pragma: no cover
    from ...observation import Observation
from .rules import LIANGDAO, KawuxingRules, hand_waits

__all__ = ["ADVICE", "KawuxingAdvice", "with_liangdao", "unseen_copies"]


def _unseen(own: Sequence[int], piles: Sequence[Sequence[int]], meld_tiles: Sequence[Sequence[int]],
            revealed: Sequence[Sequence[int]], seat: int, kinds: Sequence[int]) -> int:
    seen = list(own)
    for tiles in (*piles, *meld_tiles, *(shown for other, shown in enumerate(revealed) if other != seat)):
        for kind in tiles:
            seen[kind] += 1
    return sum(max(0, 4 - seen[kind]) for kind in kinds)


def unseen_copies(table: TableView, seat: int, kinds: Sequence[int]) -> int:
    """How many tiles of ``kinds`` ``seat`` has not seen (its concealed tiles, every discard on the table,
    every meld, the 亮倒 hands shown)."""
    melds = [meld.tiles for seat_melds in table.melds for meld in seat_melds]
    return _unseen(table.hands[seat], table.discards, melds, table.extras.get("revealed", ()), seat, kinds)


class KawuxingAdvice(Advice):
    """Plain tiles in Kawuxing's winning forms (KW-19), and 亮倒 with a discard that leaves a live wait."""

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


def with_liangdao(rules: KawuxingRules, table: TableView, seat: int, chosen: Action,
                  legal: Sequence[Action]) -> Action:
    """``chosen`` as a 亮倒 declaration when that is legal and its wait is still live (see the module
    docstring); otherwise ``chosen`` itself."""
    if chosen.kind != "discard" or chosen.flag:
        return chosen
    declared = Action("discard", seat, chosen.tile, (), LIANGDAO)
    if declared not in legal:
        return chosen
    counts = bytearray(table.hands[seat])
    counts[chosen.tile] -= 1
    wait_kinds = hand_waits(counts, len(table.melds[seat]), int(rules.win_forms))
    return declared if unseen_copies(table, seat, wait_kinds) > 0 else chosen

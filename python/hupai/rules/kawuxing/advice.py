"""Playing advice for Kawuxing bots: when to declare 亮倒 (KW-16..18).

A bot picks its discard as usual; :func:`with_liangdao` then says whether to make that discard a 亮倒
declaration. 亮倒 doubles the hand's value (KW-18) and makes a discarder into the hand pay alone, at the cost of
a frozen hand (KW-17), a shown wait, and 1 x base to each undeclared player on a 荒庄 (KW-27). The advice
declares when the discard leaves a ready hand whose winning kinds still have copies this seat has not seen
(in its hand, in every discard, in every meld): a wait with no tile left can only lose by being declared.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Action
from ..base_advice import Advice
from ..contract import TableView
from .rules import LIANGDAO, KawuxingRules, hand_waits

__all__ = ["ADVICE", "with_liangdao", "unseen_copies"]

#: GreedyBot's advice (:func:`hupai.rules.advice`): plain tiles in Kawuxing's winning forms (KW-19).
ADVICE = Advice(KawuxingRules.win_forms)


def unseen_copies(table: TableView, seat: int, kinds: Sequence[int]) -> int:
    """How many tiles of ``kinds`` ``seat`` has not seen (its concealed tiles, every discard on the table,
    every meld, the 亮倒 hands shown)."""
    seen = list(table.hands[seat])
    for pile in table.discards:
        for kind in pile:
            seen[kind] += 1
    for melds in table.melds:
        for meld in melds:
            for kind in meld.tiles:
                seen[kind] += 1
    for other, shown in enumerate(table.extras.get("revealed", ())):
        if other != seat:
            for kind in shown:
                seen[kind] += 1
    return sum(max(0, 4 - seen[kind]) for kind in kinds)


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

"""Why an action is not legal: the message of the :class:`~hupai.IllegalAction` the shell raises, for the mahjong
flow (:meth:`hupai.game.mahjong.flow.MahjongFlow.why_illegal`; the zipai flow's: :mod:`hupai.game.zipai.illegal`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Action
from ...tiles import format_tiles

if TYPE_CHECKING:  # pragma: no cover
    from ..flow import Decision
    from ..state.table import Table

__all__ = ["illegal_reason"]


def illegal_reason(table: Table, decision: Decision, action: Action, legal: tuple[Action, ...]) -> str:
    """Why ``action`` (well-formed, of a seat of this table) is not among ``legal``, its seat's actions, with
    ``decision`` the flow's current one."""
    if table.phase == "over":
        return f"{action}: the hand is over"
    if action.seat not in decision.seats:
        if action.seat in table.answers:
            return f"{action}: seat {action.seat} has already answered this claim window"
        waiting = ", ".join(f"P{s}" for s in decision.seats)
        return (f"{action}: it is not P{action.seat}'s decision now "
                f"({decision.phase}, waiting for {waiting})")
    same_kind = [a for a in legal if a.kind == action.kind]
    if not same_kind:
        kinds = sorted({a.kind for a in legal})
        return (f"{action}: no {action.kind} is legal for P{action.seat} now "
                f"(legal kinds: {', '.join(kinds)})")
    if action.kind in ("discard", "win", "pung", "kong", "chow") and action.tile < 0:
        return f"{action}: a {action.kind} needs a tile"
    if action.kind == "discard" and not table.hands[action.seat][action.tile]:
        return f"{action}: P{action.seat} holds no {format_tiles([action.tile])}"
    return f"{action} is not legal now; legal {action.kind} actions: {', '.join(map(str, same_kind))}"

"""Why an action is not legal: the message of the :class:`~hupai.IllegalAction` the shell raises, for the zipai
flow (:meth:`hupai.game.zipai.flow.ZipaiFlow.why_illegal`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Action
from ...zipai import NUM_KINDS as ZIPAI_KINDS
from ...zipai import format_cards

if TYPE_CHECKING:  # pragma: no cover
    from ..state.zipai import ZipaiTable

__all__ = ["zipai_illegal_reason"]


def zipai_illegal_reason(table: ZipaiTable, seats: tuple[int, ...], action: Action, legal: tuple[Action, ...]) -> str:
    """Why ``action`` (well-formed, of a seat of this zipai table) is not among ``legal``, its seat's actions,
    with ``seats`` the seats to act now."""
    if table.phase == "over":
        return f"{_show(action)}: the hand is over"
    if action.seat not in seats:
        if action.seat in table.answers:
            return f"{_show(action)}: P{action.seat} has already answered this offer"
        waiting = ", ".join(f"P{s}" for s in seats)
        return (f"{_show(action)}: it is not P{action.seat}'s decision now "
                f"({table.phase}, waiting for {waiting})")
    same = [a for a in legal if a.kind == action.kind]
    if not same:
        kinds = ", ".join(sorted({a.kind for a in legal}))
        return f"{_show(action)}: no {action.kind} is legal for P{action.seat} now (legal: {kinds})"
    if action.kind == "discard" and 0 <= action.tile < ZIPAI_KINDS:
        if not table.hands[action.seat][action.tile]:
            return f"{_show(action)}: P{action.seat} holds no {_card(action.tile)}"
        if table.locked[action.seat] >> action.tile & 1:
            return f"{_show(action)}: {_card(action.tile)} is locked (锁牌, WH-26) and cannot be discarded"
    if action.kind == "chow" and 0 <= action.tile < ZIPAI_KINDS and table.chi_ban[action.seat] >> action.tile & 1:
        return f"{_show(action)}: P{action.seat} may not 吃 {_card(action.tile)} (臭牌, WH-21..23)"
    return f"{_show(action)} is not legal now; legal {action.kind}: {', '.join(map(_show, same))}"


def _card(card: int) -> str:
    return format_cards([card]) if 0 <= card < ZIPAI_KINDS else str(card)


def _show(action: Action) -> str:
    """A zipai action in words, its cards by name (``P0 discard x2``)."""
    return action.describe(ZIPAI_KINDS)

"""Claims on a discard or on a kong being added: ask every eligible seat, then resolve by the rules' priority.

The engine offers each seat its options (:func:`collect`), records one answer per seat (``pass`` included),
and once every asked seat has answered, :func:`resolve` decides: wins first (every winner if the rules allow
several, else the first in turn order from the source: head-bump), otherwise the highest-priority meld claim,
ties going to the seat first in turn order. Seats with nothing to claim are not asked, so most discards need
no answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import ACTIONS, Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules.base import Rules
    from .state import Table

__all__ = ["louhu_blocks", "collect", "collect_robbers", "resolve", "record_missed"]


def louhu_blocks(rules: Rules, table: Table, seat: int, tile: int) -> bool:
    """Does a declined win still block ``seat`` from winning on another player's ``tile`` (漏胡, GD-11)?"""
    if rules.louhu is None:
        return False
    return table.missed_all[seat] or tile in table.missed[seat]


def _order_from(table: Table, source: int) -> list[int]:
    n = table.num_players
    return [(source + i) % n for i in range(1, n)]


def collect(rules: Rules, table: Table, tile: int,
            offered: dict[int, list[Action]]) -> dict[int, tuple[Action, ...]]:
    """What the seats are asked about the discard ``tile``: the claims the rules ``offered``
    (:meth:`~hupai.rules.base.Rules.claim_options`) without wins that 漏胡 blocks, each with ``pass`` last."""
    pending: dict[int, tuple[Action, ...]] = {}
    for seat, options in offered.items():
        if options[0].kind == "win" and louhu_blocks(rules, table, seat, tile):
            options = options[1:]
        if options:
            options.append(ACTIONS.pass_[seat])
            pending[seat] = tuple(options)
    return pending


def collect_robbers(rules: Rules, table: Table, tile: int, konger: int) -> dict[int, tuple[Action, ...]]:
    """The seats that may rob a kong of ``tile`` being added by ``konger`` (抢杠, GD-14), with win/pass."""
    pending: dict[int, tuple[Action, ...]] = {}
    for seat in _order_from(table, konger):
        if (not louhu_blocks(rules, table, seat, tile) and rules.completes(table, seat, tile, False)
                and rules.may_win(table, seat, tile, "robbed_kong")):
            pending[seat] = (ACTIONS.win[seat][tile], ACTIONS.pass_[seat])
    return pending


def record_missed(rules: Rules, table: Table, tile: int, taken: frozenset[int]) -> None:
    """Mark the 漏胡 block of every asked seat that could have won and did not (``taken``: the winners)."""
    if rules.louhu is None:
        return
    for seat, options in table.pending.items():
        if seat not in taken and options[0].kind == "win":
            if rules.louhu == "any_tile":
                table.missed_all[seat] = True
            else:
                table.missed[seat].add(tile)


def resolve(rules: Rules, table: Table, source: int) -> tuple[list[int], Action | None]:
    """Decide once every asked seat has answered: ``(winners, None)`` or ``([], meld claim or None)``."""
    answers = table.answers
    if len(answers) == 1:  # one seat was asked (most windows): its answer decides
        (answer,) = answers.values()
        kind = answer[0]
        if kind == "win":
            return [answer[1]], None
        return [], None if kind == "pass" else answer
    order = _order_from(table, source)
    winners = [seat for seat in order if seat in answers and answers[seat].kind == "win"]
    if winners:
        return (winners if rules.multiple_winners else winners[:1]), None
    priority = rules.claim_priority
    best: Action | None = None
    best_rank = -1
    for seat in order:  # turn order breaks ties: the first seat keeps the claim
        answer = answers.get(seat)
        if answer is None or answer.kind == "pass":
            continue
        rank = priority.get(answer.kind, 0)
        if rank > best_rank:
            best, best_rank = answer, rank
    return [], best

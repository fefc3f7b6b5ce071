"""Claims on a discard or on a kong being added: ask the seats, then resolve by the rules' priority.

The engine finds each seat's options (:func:`standard_options`, one core scan, unless the rule system declares
``custom_claims``), offers them (:func:`collect`), records one answer per seat (``pass`` included), and once every
asked seat has answered, :func:`resolve` decides: wins first (every winner if the rules allow several, else the
first in turn order from the source: head-bump), otherwise the highest-priority meld claim, ties going to the seat
first in turn order.

Who is asked is the game's ``claim_window`` setting: ``"eligible"`` asks only seats with an option, so most
discards need no answer (fastest, for simulations), but *whether* a window opens, and for whom, then depends on
concealed tiles; ``"all"`` asks every other seat on every discard and kong offered to robbers (each may pass),
so that the window itself reveals nothing (what a server needs).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..._core import claim_scan
from ...actions import ACTIONS, CHOWS, Action
from ..state.table import LOUHU_ALL as _LOUHU_ALL
from ..state.table import READY_UNKNOWN

if TYPE_CHECKING:  # pragma: no cover
    from ...rules.base import Rules
    from ..state.table import Table

__all__ = ["SCAN_ALL", "ChowMasks", "CLAIM_WINDOWS", "louhu_blocks", "standard_options", "is_ready", "collect",
           "collect_robbers", "resolve", "record_missed"]

#: The values of the game's ``claim_window`` setting (see the module docstring).
CLAIM_WINDOWS = ("eligible", "all")

# _core.claim_scan's bits, per seat (cpp/claims.hpp); the same bits of all four seats; its flags (melds
# claimable 1, kong allowed 2, check wins 4).
_WIN, _PUNG, _KONG, _CHOWS = 1, 2, 4, 8 | 16 | 32
_ANY_WIN, _ANY_KONG, _ANY_MELD = 0x01010101, 0x04040404, 0x3E3E3E3E
_SCAN_MELDS, SCAN_ALL = 1 | 2, 1 | 2 | 4


class ChowMasks:
    """A mahjong flow's per-seat chow masks (``_core.claim_scan``'s bits: who may chow a seat's discard) for
    rules that declare ``chow_seats``: item ``seat`` asks :meth:`~hupai.rules.base.Rules.chow_seats` about
    ``table``. (Rules without that hook use a fixed tuple: the 下家.) The flow makes one per table (deal, restore):
    holding the flow instead made every hand's flow a reference cycle, freed only by the cyclic GC, whose timing
    then moved the hand's cost around."""

    __slots__ = ("rules", "table")

    def __init__(self, rules: Rules, table: Table) -> None:
        self.rules = rules
        self.table = table

    def __getitem__(self, seat: int) -> int:
        mask = 0
        for chower in self.rules.chow_seats(self.table, seat):
            mask |= 1 << chower
        return mask


def louhu_blocks(rules: Rules, table: Table, seat: int, tile: int) -> bool:
    """Does a declined win still block ``seat`` from winning on another player's ``tile`` (漏胡, GD-11)?"""
    if rules.louhu is None:
        return False
    mask = table.louhu[seat]  # (usually 0: one test)
    return mask != 0 and (mask >= _LOUHU_ALL or mask >> tile & 1 == 1)


# Per table size and source seat, the other seats in turn order from it.
_ORDERS = {n: tuple(tuple((source + i) % n for i in range(1, n)) for source in range(n)) for n in range(2, 5)}


def _order_from(table: Table, source: int) -> list[int]:
    n = table.num_players
    return [(source + i) % n for i in range(1, n)]


def standard_options(rules: Rules, table: Table, tile: int, discarder: int,
                     shapes: int | None = None) -> dict[int, list[Action]]:
    """The standard claims on ``tile`` discarded by ``discarder`` (see
    :meth:`~hupai.rules.base.Rules.claim_options`), in turn order from the discarder. ``shapes``: the scan's
    answer if the caller made it already (the flow's quick path, with every flag and the 下家 chowing).

    This runs on every discard, so the shapes of all seats are read by one core call (``_core.claim_scan``,
    which decides wins too when the rules declare ``core_wins``, and returns the ready cache where it works it
    out, stored here), and the rule questions (:meth:`~hupai.rules.base.Rules.melds_claimable`, ``can_kong``,
    ``may_win``, ``completes``) are asked only about what the shapes allow.
    """
    caps = rules.capabilities
    core_wins = caps.core_wins
    if shapes is None:
        if tile >= 27:
            chowers = 0
        elif not caps.chow_seats:
            chowers = 1 << ((discarder + 1) % table.num_players)
        else:
            chowers = sum(1 << seat for seat in rules.chow_seats(table, discarder))
        # (the readiness the scan works out goes into the engine's cache, in place)
        shapes, _ = claim_scan(table.hands, table.meld_records, table.ready_bytes, tile, discarder,
                               rules.win_forms, chowers, SCAN_ALL if core_wins else _SCAN_MELDS)
    if not shapes and core_wins:
        return {}  # the common case: nobody can claim, and no rule question needed asking
    if shapes & _ANY_MELD:  # the wall-end questions, asked only when some meld is possible
        if not rules.melds_claimable(table):
            shapes &= _ANY_WIN
        elif shapes & _ANY_KONG and not rules.can_kong(table):
            shapes &= ~_ANY_KONG
    order = _ORDERS[table.num_players][discarder]
    if not core_wins:  # the rules' own win test, added to the scan's meld shapes
        for seat in order:
            if rules.completes(table, seat, tile, False):
                shapes |= _WIN << (8 * seat)
    out: dict[int, list[Action]] = {}
    for seat in order:
        bits = (shapes >> (8 * seat)) & 0xFF
        if not bits:
            continue
        options: list[Action] = []
        if bits & _WIN and rules.may_win(table, seat, tile, "discard"):
            options.append(ACTIONS.win[seat][tile])
        if bits & _KONG:
            options.append(ACTIONS.exposed_kong[seat][tile])
        if bits & _PUNG:
            options.append(ACTIONS.pung[seat][tile])
        if bits & _CHOWS:
            options.extend(chow for bit, chow in CHOWS[seat][tile] if bits & bit)
        if options:
            out[seat] = options
    return out


def is_ready(rules: Rules, table: Table, seat: int) -> bool:
    """Is ``seat``'s waiting hand ready (:meth:`~hupai.rules.base.Rules.ready`), through the engine's cache
    (``table.ready_bytes``, reset whenever that hand changes)?"""
    cached = table.ready_bytes[seat]
    if cached == READY_UNKNOWN:
        ready = rules.ready(table, seat)
        table.ready_bytes[seat] = 1 if ready else 0
        return ready
    return cached == 1


def collect(rules: Rules, table: Table, tile: int, offered: dict[int, list[Action]], source: int,
            window: str) -> dict[int, tuple[Action, ...]]:
    """What the seats are asked about the discard ``tile`` from ``source``: the claims ``offered`` without wins
    that 漏胡 blocks, each with ``pass`` last; with ``window="all"`` every other seat, in turn order (``pass``
    alone where it has no claim)."""
    pending: dict[int, tuple[Action, ...]] = {}
    if window == "all":
        for seat in _order_from(table, source):
            options = offered.get(seat, [])
            if options and options[0].kind == "win" and louhu_blocks(rules, table, seat, tile):
                options = options[1:]
            pending[seat] = (*options, ACTIONS.pass_[seat])
        return pending
    for seat, options in offered.items():
        if options[0].kind == "win" and louhu_blocks(rules, table, seat, tile):
            options = options[1:]
        if options:
            options.append(ACTIONS.pass_[seat])
            pending[seat] = tuple(options)
    return pending


def collect_robbers(rules: Rules, table: Table, tile: int, konger: int,
                    window: str) -> dict[int, tuple[Action, ...]]:
    """The seats asked about a kong of ``tile`` being added by ``konger`` (抢杠, GD-14): those that may rob it
    (win or pass), and with ``window="all"`` every other seat (``pass`` alone where it may not)."""
    pending: dict[int, tuple[Action, ...]] = {}
    for seat in _order_from(table, konger):
        blocked = rules.louhu_blocks_robbing and louhu_blocks(rules, table, seat, tile)
        if (not blocked and rules.completes(table, seat, tile, False)
                and rules.may_win(table, seat, tile, "robbed_kong")):
            pending[seat] = (ACTIONS.win[seat][tile], ACTIONS.pass_[seat])
        elif window == "all":
            pending[seat] = (ACTIONS.pass_[seat],)
    return pending


def record_missed(rules: Rules, table: Table, tile: int, taken: Collection[int]) -> None:
    """Mark the 漏胡 block of every asked seat that could have won and did not (``taken``: the winners, at most
    three seats: a list is as quick to search as a set, and cheaper to make)."""
    louhu = rules.louhu
    if louhu is None:
        return
    block = _LOUHU_ALL if louhu == "any_tile" else 1 << tile
    for seat, options in table.pending.items():
        if seat not in taken and options[0].kind == "win":
            table.louhu[seat] |= block


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

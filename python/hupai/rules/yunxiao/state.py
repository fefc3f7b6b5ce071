"""Yunxiao's own state in a restored game (``table.extras``), checked as untrusted input (YX-6, YX-16, YX-23,
YX-26, YX-30): what :meth:`YunxiaoRules.check_state` asks when a saved game is loaded.

Its hooks read these facts as they are, so a forged one (a 游 level the hand does not give, say) would otherwise
surface later, half-way through an action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._core import ints_within
from ...actions import Action
from ...errors import InvalidState
from ..base import Rules
from ..contract import SetState, TableView

__all__ = ["check_state", "KEYS"]

#: Every key of Yunxiao's state, as ``on_deal`` sets them.
KEYS = frozenset({"gold", "indicator", "you", "kongs", "last_kong", "chow_turn"})


def _ints(values: Any, low: int, high: int, length: int) -> bool:
    """``values`` is a list of ``length`` exact ints (no bools) in low..high: one core pass."""
    bounds = _BOUNDS.get((low, high, length))
    if bounds is None:  # (a few keys: the levels, last_kong and chow_turn per seat count)
        bounds = _BOUNDS[low, high, length] = ((low,) * length, (high,) * length)
    return ints_within(values, *bounds)


_BOUNDS: dict[tuple[int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def check_state(rules: Rules, table: TableView, actions: Sequence[Action], own_discard_hook: bool = False) -> None:
    """Raise :class:`~hupai.InvalidState` naming the entry of ``table.extras`` that play could not have left.
    ``own_discard_hook``: ``rules.on_discard`` is Yunxiao's own, which leaves a seat with no gold and level 0
    at level 0 whatever it discards, so such a seat needs no asking (most seats; a restore is a server's
    per-request path)."""
    w = "snapshot.table.extras"
    extras = table.extras
    if extras.keys() != KEYS:
        raise InvalidState(f"{w}: must hold exactly {', '.join(sorted(KEYS))}")
    n = table.num_players
    gold = table.wall.tiles[-1]
    if extras["gold"] != gold or type(extras["gold"]) is not int:  # noqa: E721
        raise InvalidState(f"{w}.gold: is not the kind of the wall's last tile (YX-6)")
    if extras["indicator"] not in (gold, -1) or type(extras["indicator"]) is not int:  # noqa: E721
        raise InvalidState(f"{w}.indicator: is the gold or -1 once taken (YX-30)")
    if not _ints(extras["you"], 0, 3, n):
        raise InvalidState(f"{w}.you: must be {n} levels in 0..3 (YX-26)")
    melds = table.melds
    kongs = sum([m.type == "kong" for seat_melds in melds for m in seat_melds]) if any(melds) else 0
    if extras["kongs"] != kongs or type(extras["kongs"]) is not int:  # noqa: E721
        raise InvalidState(f"{w}.kongs: must count the {kongs} kongs made")
    last = extras["last_kong"]
    if not (last == [] if not kongs else _ints(last, 0, n - 1, 2) and last[1] in (0, 1)):
        raise InvalidState(f"{w}.last_kong: must be [] or [seat, concealed 0/1] of the last kong")
    chow = extras["chow_turn"]
    if chow != [] and not (_ints(chow, 0, 200, 3) and chow[0] < n and chow[2] < len(melds[chow[0]])
                           and melds[chow[0]][chow[2]].type == "chow"):
        raise InvalidState(f"{w}.chow_turn: must be [] or [seat, discards, meld index] of a chow")
    # YX-26: a level is what the seat's last discard left (its hand has not changed since, unless it is the seat
    # in its turn): 0 out of 游 shape, 1 in shape, 2 or 3 after discarding a gold in shape.
    levels = extras["you"]
    acting = table.turn_seat if table.phase in ("turn", "rob") else -1
    asked = []
    if own_discard_hook:
        hands = table.hands
        for seat in range(n):
            if (levels[seat] or hands[seat][gold]) and seat != acting:
                asked.append(seat)
        if not asked:
            return
    else:
        asked = [seat for seat in range(n) if seat != acting]
    last_discards: dict[int, int] = {}  # each asked seat's last discard, found from the end
    wanted = set(asked)
    for action in reversed(actions):
        if action[0] == "discard" and action[1] in wanted:
            last_discards[action[1]] = action[2]
            wanted.discard(action[1])
            if not wanted:
                break
    for seat in asked:
        level = levels[seat]
        if seat not in last_discards:
            computed = 0
        else:
            effects = [e for e in rules.on_discard(table, seat, last_discards[seat]) if isinstance(e, SetState)]
            computed = effects[0].value[seat] if effects else level
        if (computed == 0) != (level == 0) or (computed >= 2) != (level >= 2):
            raise InvalidState(f"{w}.you[{seat}]: {level} is not the 游 level seat {seat}'s hand and last discard "
                               f"give")

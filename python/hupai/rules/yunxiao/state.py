"""Yunxiao's own state in a restored game (``table.extras``), checked as untrusted input (YX-6, YX-16, YX-23,
YX-26, YX-30): what :meth:`YunxiaoRules.check_state` asks when a saved game is loaded.

Its hooks read these facts as they are, so a forged one (a 游 level the hand does not give, say) would otherwise
surface later, half-way through an action.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from ..._core import ints_within
from ...actions import Action
from ...errors import InvalidState
from ..base import Rules
from ..contract import SetState, TableView

__all__ = ["check_state", "KEYS"]

#: Every key of Yunxiao's state, as ``on_deal`` sets them.
KEYS = frozenset({"gold", "indicator", "you", "kongs", "last_kong", "chow_turn"})


def _bounds(n: int) -> tuple[tuple[int, ...], ...]:
    """ints_within's bounds for ``n`` seats: the levels (0..3 each), ``last_kong`` (a seat, 0/1; the flag is
    tested apart) and ``chow_turn`` (0..200 each; the seat and meld index are tested apart)."""
    bounds = _BOUNDS.get(n)
    if bounds is None:  # (one entry per seat count)
        bounds = _BOUNDS[n] = ((0,) * n, (3,) * n, (0, 0), (n - 1, n - 1), (0, 0, 0), (200, 200, 200))
    return bounds


_BOUNDS: dict[int, tuple[tuple[int, ...], ...]] = {}
_FIELDS = itemgetter("gold", "indicator", "you", "kongs", "last_kong", "chow_turn")


def check_state(rules: Rules, table: TableView, actions: Sequence[Action], own_discard_hook: bool = False) -> None:
    """Raise :class:`~hupai.InvalidState` naming the entry of ``table.extras`` that play could not have left.
    ``own_discard_hook``: ``rules.on_discard`` is Yunxiao's own, which leaves a seat with no gold and level 0
    at level 0 whatever it discards, so such a seat needs no asking (most seats; a restore is a server's
    per-request path)."""
    w = "snapshot.table.extras"
    extras = table.extras
    if extras.keys() != KEYS:
        raise InvalidState(f"{w}: must hold exactly {', '.join(sorted(KEYS))}")
    given_gold, indicator, levels, given_kongs, last, chow = _FIELDS(extras)
    n = table.num_players
    low, high, seat_low, seat_high, chow_low, chow_high = _bounds(n)
    gold = table.wall.tiles[-1]
    if given_gold != gold or type(given_gold) is not int:  # noqa: E721
        raise InvalidState(f"{w}.gold: is not the kind of the wall's last tile (YX-6)")
    if indicator not in (gold, -1) or type(indicator) is not int:  # noqa: E721
        raise InvalidState(f"{w}.indicator: is the gold or -1 once taken (YX-30)")
    if not ints_within(levels, low, high):
        raise InvalidState(f"{w}.you: must be {n} levels in 0..3 (YX-26)")
    melds = table.melds
    kongs = sum([m.type == "kong" for seat_melds in melds for m in seat_melds]) if any(melds) else 0
    if given_kongs != kongs or type(given_kongs) is not int:  # noqa: E721
        raise InvalidState(f"{w}.kongs: must count the {kongs} kongs made")
    if not (last == [] if not kongs else ints_within(last, seat_low, seat_high) and last[1] in (0, 1)):
        raise InvalidState(f"{w}.last_kong: must be [] or [seat, concealed 0/1] of the last kong")
    if chow != [] and not (ints_within(chow, chow_low, chow_high) and chow[0] < n and chow[2] < len(melds[chow[0]])
                           and melds[chow[0]][chow[2]].type == "chow"):
        raise InvalidState(f"{w}.chow_turn: must be [] or [seat, discards, meld index] of a chow")
    # YX-26: a level is what the seat's last discard left (its hand has not changed since, unless it is the seat
    # in its turn): 0 out of 游 shape, 1 in shape, 2 or 3 after discarding a gold in shape.
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

"""Kawuxing's own state in a restored game (``table.extras``), checked as untrusted input (KW-13, KW-16): what
:meth:`KawuxingRules.check_state` asks when a saved game is loaded.

The hooks read these facts as they are (a forged 亮倒 flag would freeze a hand, a forged chain would pay kong
money the play never earned), so a state the actions could not have left is refused here.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ...actions import Action
from ...errors import InvalidState
from ..contract import TableView

__all__ = ["check_state", "KEYS", "LIANGDAO"]

#: Every key of Kawuxing's state, as ``on_deal`` sets them.
KEYS = frozenset({"liangdao", "revealed", "chain"})
#: The flag of a discard that declares 亮倒 (also :data:`hupai.rules.kawuxing.LIANGDAO`).
LIANGDAO = "liangdao"


def _ints(values: Any, length: int) -> bool:
    return (type(values) is list and len(values) == length  # noqa: E721
            and set(map(type, values)) <= {int})


def check_state(table: TableView, actions: Sequence[Action]) -> None:
    """Raise :class:`~hupai.InvalidState` naming the entry of ``table.extras`` that play could not have left."""
    w = "snapshot.table.extras"
    extras = table.extras
    if set(extras) != KEYS:
        raise InvalidState(f"{w}: must hold exactly {', '.join(sorted(KEYS))}")
    n = table.num_players
    declared = [False] * n
    if LIANGDAO in map(itemgetter(4), actions):  # (a C scan first: most hands have no declaration)
        for action in actions:
            if action[0] == "discard" and action[4] == LIANGDAO:
                declared[action[1]] = True
    flags = extras["liangdao"]
    if type(flags) is not list or len(flags) != n or set(map(type, flags)) != {bool}:  # noqa: E721
        raise InvalidState(f"{w}.liangdao: must be {n} true/false flags")
    if flags != declared:
        raise InvalidState(f"{w}.liangdao: {flags} is not who declared 亮倒 in the actions ({declared}) (KW-16)")
    revealed = extras["revealed"]
    if type(revealed) is not list or len(revealed) != n:  # noqa: E721
        raise InvalidState(f"{w}.revealed: must be {n} lists of kinds")
    for seat in range(n):
        # The tile the seat has just drawn is not part of the hand it showed: in its turn, while its kong is
        # offered to be robbed, and in a hand it won by that draw (自摸: the hand is over, the tile still drawn).
        # Only while the seat still holds it: an added kong made with it takes it out (robbed or not).
        drawn = table.drawn if table.turn_seat == seat and table.phase in ("turn", "rob", "over") else -1
        if drawn >= 0 and not table.hands[seat][drawn]:
            drawn = -1
        expected = sorted(table.concealed_kinds(seat, drawn)) if declared[seat] else []
        if revealed[seat] != expected:
            raise InvalidState(f"{w}.revealed[{seat}]: is not seat {seat}'s shown hand (KW-16: the concealed tiles "
                               f"of a 亮倒 hand, none otherwise)")
    chain = extras["chain"]
    kongs = sum(m.type == "kong" for melds in table.melds for m in melds)
    if not _ints(chain, 3):
        raise InvalidState(f"{w}.chain: must be [seat, length, discards] (KW-13)")
    seat, length, discards = chain
    if not kongs:
        if chain != [-1, 0, 0]:
            raise InvalidState(f"{w}.chain: must be [-1, 0, 0] before any kong (KW-13)")
    elif not (0 <= seat < n and 1 <= length <= kongs and 0 <= discards <= table.discards_made[seat]):
        raise InvalidState(f"{w}.chain: [{seat}, {length}, {discards}] is not a kong chain of this table (KW-13)")

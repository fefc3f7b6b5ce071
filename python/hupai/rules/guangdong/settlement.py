"""Guangdong (广东麻将) settlement: who pays how many shares for one win (GD-3, GD-22 .. GD-30).

A share is ``base * 2**fan`` (GD-3). One call settles one winner's win; several winners on one discard (GD-24)
are settled by one call per winner, and the per-seat payments simply add.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...scoring import WinContext
from .options import GuangdongOptions

__all__ = ["PLAYERS", "Settlement", "share", "liable_seat", "settle", "drawn_hand_payments"]

PLAYERS = 4                   # GD-2
OPPONENTS = PLAYERS - 1       # "three shares" in GD-23/25 is one per opponent


@dataclass(frozen=True)
class Settlement:
    """The outcome of settling one win.

    ``payments`` are per seat, signed, summing to zero; ``paid_by`` maps each paying seat to what it pays;
    ``rule`` is the rule id that decided who pays; ``liable`` the seat paying alone under a 包 rule, if any.
    """

    share: int
    payments: tuple[int, ...]
    paid_by: Mapping[int, int]
    rule: str
    liable: int | None


def share(fan: int, options: GuangdongOptions) -> int:
    """GD-3: one share of a hand worth ``fan`` 番 is ``base * 2**fan``."""
    unit: int = options.base * 2 ** fan  # int ** int is typed Any (a negative power is a float); fan >= 0
    return unit


def liable_seat(context: WinContext) -> tuple[int | None, str | None]:
    """The seat that pays three shares alone (GD-25), and the rule that makes it liable.

    - GD-27 抢杠: the robbed player (the context's ``discarder``). It is listed before GD-28/29, so it decides
      even when the engine also passes a ``liable`` seat (GD-25: the first case listed decides).
    - GD-26, GD-28, GD-29: the engine decides the liable seat from the game's history and passes it as
      ``context.liable``. All three make a player liable only for a *self-drawn* win (杠上开花 is one); on
      a discard win GD-23 applies instead (GD-29: "If X wins on a discard instead, GD-23 applies"), so a
      ``liable`` seat passed with a discard win is ignored.
    """
    if context.robbed_kong:
        return context.discarder, "GD-27"
    if context.liable is not None and context.discarder is None:
        # The label is informational: GD-26 when the win is on the replacement of a kong made on the liable
        # seat's discard, otherwise GD-25 (the engine applied GD-28 or GD-29).
        konged_discard = any(meld.type == "kong" and not meld.added and meld.claimed_from == context.liable
                             for meld in context.melds)
        return context.liable, "GD-26" if context.kong_replacement and konged_discard else "GD-25"
    return None, None


def settle(context: WinContext, fan: int, options: GuangdongOptions) -> Settlement:
    """Settle one winner's win worth ``fan`` 番 (after the limit and the minimums).

    - GD-25..29: a liable player pays three shares; nobody else pays.
    - GD-22: a self-drawn win: each of the three opponents pays one share.
    - GD-23: a discard win: the discarder pays one share (``discard_pays="one"``) or three (``"all_three"``).
    - GD-24: each winner on one discard is settled alone under GD-23 (一炮三响 raises the value first, in
      scoring); the other players pay nothing.
    """
    unit = share(fan, options)
    liable, rule = liable_seat(context)
    if liable is not None:
        paid_by = {liable: OPPONENTS * unit}
    elif context.discarder is None:
        rule = "GD-22"
        paid_by = {seat: unit for seat in range(PLAYERS) if seat != context.winner}
    else:
        rule = "GD-24" if context.winners_on_tile > 1 else "GD-23"
        shares = OPPONENTS if options.discard_pays == "all_three" else 1
        paid_by = {context.discarder: shares * unit}
    payments = [0] * PLAYERS
    for seat, amount in paid_by.items():
        payments[seat] -= amount
        payments[context.winner] += amount
    return Settlement(unit, tuple(payments), paid_by, rule or "GD-25", liable)


def drawn_hand_payments() -> tuple[int, ...]:
    """GD-30: a drawn hand (流局, 和牌, 荒牌) pays nothing: no kong money (GD-13), no penalties."""
    return (0,) * PLAYERS

"""Time and absence at a table: each human seat's turn timer and time bank, whether it is here, and whether the
server's bot plays it for now (``auto``).

Decisions the issue leaves open, taken here:

- **The timer.** Every decision of a human seat has ``base`` seconds (``claim_seconds`` in a claim or rob window,
  ``turn_seconds`` for any other decision) and then its bank: the seat's deadline is the
  decision's opening + base + bank. Time used beyond the base comes out of the bank; the bank is refilled to
  ``bank_seconds`` when a hand is dealt. A base of 0 turns that timer off (and the bank with it).
- **Timeout and absence.** A seat that lets its deadline pass, or that is away (no WebSocket open, no poll
  waiting, and none for ``absent_seconds``), is put on ``auto``: the server's bot (the table's ``bot``, at its
  think time) plays it until the seat comes back: any action, ``next``, ``back`` or WebSocket hello from it.
  A poll only shows that the seat is here; it does not take the seat back (a tab left open is no player).
  Between hands, a seat that is away is put on auto (so it is counted ready); one that is here but does not
  say ``next`` within ``turn_seconds`` is counted ready, without auto.
- **A restart.** The banks and the seats on auto are stored with the table's runtime facts; an open decision's
  base restarts with the server (the time it was down is nobody's), and every seat gets the absence grace
  anew.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["SeatClock"]


class SeatClock:
    """The human seats' banks, auto flags and presence (times are ``time.monotonic()`` seconds)."""

    def __init__(self, seats: Iterable[int], *, turn: float, claim: float, bank: float,
                 runtime: Mapping[str, Any], now: float) -> None:
        self.seats = list(seats)
        self.turn, self.claim, self.full_bank = turn, claim, bank
        stored = runtime.get("bank") or {}
        self.bank: dict[int, float] = {seat: float(stored.get(str(seat), bank)) for seat in self.seats}
        self.auto: set[int] = {int(seat) for seat in runtime.get("auto", ()) if int(seat) in self.bank}
        self.last_seen: dict[int, float] = dict.fromkeys(self.seats, now)
        self.attached: dict[int, int] = dict.fromkeys(self.seats, 0)

    # -- the timer ------------------------------------------------------------------------------------------
    def base(self, claim: bool) -> float:
        return self.claim if claim else self.turn

    def deadline(self, seat: int, opened: float, claim: bool) -> float | None:
        """When the seat's decision opened at ``opened`` runs out (None: no timer on it)."""
        base = self.base(claim)
        if base <= 0 or seat not in self.bank:
            return None
        return opened + base + self.bank[seat]

    def spend(self, seat: int, opened: float, claim: bool, now: float) -> None:
        """The seat answered at ``now``: what it used beyond the base comes out of its bank."""
        base = self.base(claim)
        if base > 0 and seat in self.bank:
            self.bank[seat] = max(0.0, self.bank[seat] - max(0.0, now - opened - base))

    def refill(self) -> None:
        """A new hand: every bank full again."""
        self.bank = dict.fromkeys(self.seats, self.full_bank)

    # -- presence -------------------------------------------------------------------------------------------
    def seen(self, seat: int, now: float) -> None:
        if seat in self.last_seen:
            self.last_seen[seat] = now

    def attach(self, seat: int, now: float) -> None:
        """A WebSocket or a waiting poll follows the seat."""
        if seat in self.attached:
            self.attached[seat] += 1
            self.last_seen[seat] = now

    def detach(self, seat: int, now: float) -> None:
        if seat in self.attached:
            self.attached[seat] = max(0, self.attached[seat] - 1)
            self.last_seen[seat] = now

    def away_at(self, seat: int, grace: float) -> float | None:
        """When the seat counts as away (None: it is followed now)."""
        if self.attached.get(seat, 1):
            return None
        return self.last_seen[seat] + grace

    def to_dict(self) -> dict[str, Any]:
        """What is stored with the table's runtime facts."""
        return {"bank": {str(seat): round(left, 3) for seat, left in self.bank.items()}, "auto": sorted(self.auto)}

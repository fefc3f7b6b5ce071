"""What a hand *flow* provides to the :class:`~hupai.game.Game` shell, and the two families it is made for.

The shell (``game.py``) is the same for every rule system: it caches legal actions, validates an action before
anything changes (an illegal one raises ``IllegalAction`` and leaves the game as it was), refuses re-entry,
keeps the action list, writes and replays the log, saves and restores snapshots, and hands out observations.
A flow runs the hand itself. The shell picks it by the rule system's ``family`` (``FLOWS`` in ``game.py``), so a
new family is a new flow class, not more hooks in an existing one.

**The mahjong family** (:class:`~hupai.game.mahjong.flow.MahjongFlow`: Guangdong, Yunxiao, Kawuxing): a deal of
``hand_size`` tiles (the dealer one more), turns that draw into the hand and discard, claim windows on a discard
(win, kong, pung, chow by priority, one or several winners), kongs with replacement draws and robbing, rule
declarations before a draw or with a discard, the wall end.

**The zipai family** (Wai Huzi, ``rules/waihuzi.md``: :class:`~hupai.game.zipai.flow.ZipaiFlow` on this protocol,
its table :class:`~hupai.game.state.zipai.ZipaiTable`, its observer :mod:`hupai.game.zipai.observation`). What
it needs, and why it is not the mahjong flow with more hooks:

- Cards 0..19 (小一..小十, 大壹..大拾), 80 of them, 3 seats; the dealer gets 20 cards, the others 19 (WH-4..6).
- A drawn stock card is turned face up, *not* put into the drawer's hand, and offered to every seat at once:
  the drawer may 溜/歪/飘/吃/胡 with it, the others 飘/碰/胡, the 下家 also 吃; an unclaimed card goes to the
  drawer's discards. Discards are offered the same way. So the window follows every draw as well as every
  discard, and its answers are groups of three and four (溜, 飘, 歪, 坎, 碰, 吃), not mahjong melds.
- Priorities 溜/飘/歪 > 胡 > 碰 > 吃, turn-order ties, a single winner; 溜 and 飘 replace the discard.
- Per-seat bans that outlive a window: 过吃, 过碰, 锁牌 (locked cards that cannot be discarded), 臭牌, 死手
  (shown to all; no win, no claims, the seat still draws and pays); a claim that would leave no legal discard
  is refused.
- 海底, 黄庄, the session 神 (单神/双神), and scoring in 息 with 名堂 multipliers from the C++ split core.

Its state is therefore its own table type (counts of 20 kinds per seat, face-up groups, the turned card, the
bans), its own actions and observation fields, while the shell's guarantees (legal-action cache, validation
first, logs that replay byte for byte, snapshots, per-hand seeds, observations only to clients) stay as they
are.

A flow object has these members (``MahjongFlow`` is the reference):

- ``observer`` (a class attribute): the :class:`~hupai.game.mahjong.observation.Observer` class that shows its
  table to a seat;
- ``rules``, ``table`` (its state, with ``to_json`` / ``Table.from_json`` for snapshots), ``events`` (the
  :class:`~hupai.events.EventLog` the log reads), ``result`` (None until the hand is over), ``window`` (the claim
  window setting);
- ``deal(seed, dealer, round_wind, first_dealer, stacked)`` and ``restore(table)``;
- ``current`` (a :class:`Decision`), ``seats_to_act()``;
- ``legal_actions(seat)`` (uncached: the shell caches), ``apply(action)`` (an action the shell found legal: it
  must not fail half-way; it returns a new dict, by seat, of the legal actions it already knows for the new state,
  which becomes the shell's cache: usually empty, a plain turn's discards in the mahjong flow),
  ``why_illegal(action, legal)`` (the message of an ``IllegalAction``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from ..actions import Action
from ..events import EventLog
from ..rules.base import Rules
from .result import HandResult
from .state.table import Table

__all__ = ["Flow", "Decision"]


class Decision(NamedTuple):
    """Who must act now: ``phase`` (``"turn"``, ``"claim"``, ``"rob"``, ``"predraw"``, ``"over"``), the seats
    still to answer, the tile in question (drawn, discarded or being konged; -1 if none) and its source
    seat."""

    phase: str
    seats: tuple[int, ...]
    tile: int
    source: int


class Flow(Protocol):
    """The members a hand flow gives the shell (see the module docstring)."""

    # Its family's Observer class (typed loosely: the observers read the game through .view, which names this
    # protocol).
    observer: ClassVar[type[Any]]
    rules: Rules
    table: Table
    events: EventLog
    result: HandResult | None
    window: str

    def deal(self, seed: int, dealer: int, round_wind: int, first_dealer: int,
             stacked: Sequence[int] | None = None) -> None: ...
    def restore(self, table: Table) -> None: ...
    def snapshot_table(self) -> dict[str, Any]: ...
    @property
    def current(self) -> Decision: ...
    def seats_to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> tuple[Action, ...]: ...
    def apply(self, action: Action) -> dict[int, tuple[Action, ...]]: ...
    def why_illegal(self, action: Action, legal: tuple[Action, ...]) -> str: ...

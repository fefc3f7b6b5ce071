"""What the engine and a rule system exchange: a read-only view in, effects and answers out (DESIGN §4).

Rules read, the engine writes. Every rule hook receives a :class:`TableView` (the engine's own table, typed
read-only: a hook must not change it, and ``tests/game/test_contract.py`` checks that none does) and answers a
question. A state change a rule system needs is an :data:`Effect` it *returns*; the engine applies it (and logs
what a player could see: a payment is a ``payment`` event, a declaration a ``declare`` event).

The effects:

- :class:`SetState`: set one entry of the rule system's own state (``view.extras``: a gold, 游 levels, 亮倒
  flags, kong counts). JSON values only; the state is public (observations show it), so nothing that depends on
  a seat's concealed tiles may be stored there.
- :class:`TakeFromTail`: move ``count`` tiles from the live wall's tail out of play (Yunxiao's gold indicator);
  the rule system notes in its state which tiles they were.
- :class:`GiveTile`: a tile that the rules set aside joins ``seat``'s hand as the tile it drew (Yunxiao's 抢金
  takes the indicator), with the win source ``source``.
- :class:`Pay`: an immediate payment (kong money), per seat, summing to zero.

:class:`Capabilities` is what a rule system declares about itself so that the engine can choose its fast paths
(a plain turn answered by one core call, the claim scan in the core): data, never detected from which methods a
subclass overrides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..hand import Meld

__all__ = [
    "TableView", "WallView", "Effect", "Effects", "SetState", "TakeFromTail", "GiveTile", "Pay", "Capabilities",
]


class WallView(Protocol):
    """The wall as rules read it: ``tiles[head:tail]`` are live; normal draws come from the head. ``tiles`` is the
    engine's buffer (``bytes``, a kind a byte, immutable): read it as a sequence of ints."""

    @property
    def tiles(self) -> Sequence[int]: ...
    @property
    def head(self) -> int: ...
    @property
    def tail(self) -> int: ...
    @property
    def live(self) -> int: ...


class TableView(Protocol):
    """The table of one mahjong-family hand, read-only. The fields (``hupai.game.state.table.Table`` documents each):

    ``num_players``, ``dealer``, ``first_dealer``, ``round_wind``, ``seat_winds``, ``wall``, ``hands`` (per seat,
    34 counts; ``views`` the same as numpy arrays), ``melds``, ``discards`` (claimed tiles removed), ``phase``,
    ``turn_seat``, ``drawn``, ``drawn_from``, ``kong_from``, ``last_discard``, ``discarder``, ``kong_tile``,
    ``kong_seat``, ``draws``, ``discards_made``, ``calls``, ``meld_order``, ``extras`` (the rule system's own
    state, written only through :class:`SetState`), ``payments``, ``ready`` (the engine's cache of
    :meth:`~hupai.rules.base.Rules.ready` per seat: True, False, or None when not known yet; a rule system whose
    win test is its own may read it to skip work; ``ready_bytes`` is the same cache as the engine keeps it, a
    byte per seat: 0 not ready, 1 ready, 255 not known, cheaper to read on a path taken every discard).
    """

    @property
    def num_players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def round_wind(self) -> int: ...
    @property
    def seat_winds(self) -> tuple[int, ...]: ...
    @property
    def wall(self) -> WallView: ...
    @property
    def hands(self) -> Sequence[bytearray]: ...
    @property
    def views(self) -> Sequence[Any]: ...
    @property
    def melds(self) -> Sequence[Sequence[Meld]]: ...
    @property
    def discards(self) -> Sequence[Sequence[int]]: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn_seat(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def drawn_from(self) -> str: ...
    @property
    def kong_from(self) -> int: ...
    @property
    def last_discard(self) -> int: ...
    @property
    def discarder(self) -> int: ...
    @property
    def kong_tile(self) -> int: ...
    @property
    def kong_seat(self) -> int: ...
    @property
    def draws(self) -> Sequence[int]: ...
    @property
    def discards_made(self) -> Sequence[int]: ...
    @property
    def calls(self) -> int: ...
    @property
    def meld_order(self) -> Sequence[tuple[int, int]]: ...
    @property
    def extras(self) -> Mapping[str, Any]: ...
    @property
    def payments(self) -> Sequence[int]: ...
    @property
    def ready(self) -> Sequence[bool | None]: ...
    @property
    def ready_bytes(self) -> bytes | bytearray: ...

    def concealed_kinds(self, seat: int, without: int = -1) -> list[int]: ...


@dataclass(frozen=True, slots=True)
class SetState:
    """Set ``view.extras[key] = value`` (a JSON value; the engine stores a copy)."""

    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class TakeFromTail:
    """Take ``count`` tiles from the live wall's tail out of play."""

    count: int = 1


@dataclass(frozen=True, slots=True)
class GiveTile:
    """``tile`` (set aside earlier by the rules) joins ``seat``'s hand as its drawn tile, drawn from ``source``."""

    seat: int
    tile: int
    source: str


@dataclass(frozen=True, slots=True)
class Pay:
    """An immediate payment: ``amounts`` per seat (summing to zero), logged as a ``payment`` event of ``seat``
    (who caused it: the kong's maker) with ``reason`` (e.g. ``"kong"``)."""

    amounts: tuple[int, ...]
    seat: int = -1
    reason: str = "kong"


Effect = SetState | TakeFromTail | GiveTile | Pay
Effects = Sequence[Effect]


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a rule system declares so the engine can choose its paths. Each flag says that a hook may do more
    than the base class's default; the engine calls a hook only if its flag is set (a hook whose flag is unset is
    never called, so declaring is required: :class:`~hupai.rules.base.Rules` checks it when a subclass is made).

    - ``core_wins``: :meth:`~hupai.rules.base.Rules.completes` and ``ready`` are the core's test of
      ``win_forms`` on the physical counts, so the engine's scans may decide wins and readiness themselves.
    - ``custom_claims``: :meth:`~hupai.rules.base.Rules.claim_options` replaces the standard claims (win, kong,
      pung, chows to ``chow_seats``), which the engine otherwise scans in the core.
    - ``chow_seats``: :meth:`~hupai.rules.base.Rules.chow_seats` is not "the 下家 only".
    - ``pre_draw``: :meth:`~hupai.rules.base.Rules.pre_draw_actions` may offer declarations before a draw.
    - ``forbidden_discards``, ``turn_extras``, ``kong_options``, ``declared_kongs``, ``last_kong``,
      ``on_discard``, ``on_claim``, ``on_drawn``: the hooks of the same names.
    - ``wall_end``: :meth:`~hupai.rules.base.Rules.can_draw` is more than :attr:`~hupai.rules.base.Rules.dead_wall`
      (the engine checks that count itself otherwise).
    - ``turn_is_plain``: the hook of that name says when a turn of a system with turn hooks (forbidden discards,
      extras, kong options) is still only its discards unless the core finds a complete hand or a possible
      kong: the engine then answers that turn with one core call, as it does every turn of a system without them.
      Without ``core_wins`` the hook may say so only for a seat the engine's ready cache knows is not ready (its
      byte 0): the core's test of a complete hand is then skipped, not trusted.
    - ``gold_turn``: the hook of that name gives the facts of the core's quiet discard in Yunxiao's shape
      (``_core.yunxiao_turn``: golds, 游 levels, a wall end of its own), which the engine then tries first.
    - ``claims_in_shapes``: a custom :meth:`~hupai.rules.base.Rules.claim_options` never offers a claim that the
      core's standard scan (``_core.claim_scan``: wins by the core's test, pungs and kongs by count, chows to
      :meth:`~hupai.rules.base.Rules.chow_seats`) does not find, so when that scan finds nothing the engine skips
      the hook (with ``claim_window="eligible"``: the next turn follows at once).
    """

    core_wins: bool = True
    custom_claims: bool = False
    chow_seats: bool = False
    pre_draw: bool = False
    forbidden_discards: bool = False
    turn_extras: bool = False
    kong_options: bool = False
    declared_kongs: bool = False
    last_kong: bool = False
    on_discard: bool = False
    on_claim: bool = False
    on_drawn: bool = False
    wall_end: bool = False
    turn_is_plain: bool = False
    claims_in_shapes: bool = False
    gold_turn: bool = False

    @property
    def plain_turns(self) -> bool:
        """A turn is the core's question alone (a complete hand, a possible kong, else the discards)."""
        return self.core_wins and not (self.forbidden_discards or self.turn_extras or self.kong_options
                                       or self.last_kong)

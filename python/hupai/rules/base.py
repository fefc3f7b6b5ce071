"""The rule-system interface the table engine consults (DESIGN §4).

The engine (``hupai.game``) runs a generic mahjong hand: deal, draw, discard, claims, kongs, wins, settlement.
Every *rule question* goes to a :class:`Rules` object, and the engine has no branch on a rule system's name. The
defaults here are plain Chinese mahjong (136 tiles, four players, chow from the left, win > kong/pung > chow,
several winners allowed, 补杠 robbable); a rule system overrides what differs.

The hooks, grouped (``table`` is the engine's :class:`~hupai.game.state.Table`; rules read it, and write only
``table.extras`` in the hooks that say so):

- **Setup:** :attr:`name`, :attr:`num_players`, :attr:`hand_size`, :meth:`tiles`, :meth:`seat_winds`,
  :meth:`on_deal` (e.g. flip Yunxiao's gold from the wall tail), :meth:`options_dict`.
- **Wall:** :meth:`can_draw` (the wall end, e.g. a reserve that grows with kongs), :meth:`can_kong`,
  :meth:`melds_claimable` (GD-8: the last discard may only be won on), :attr:`replacement_from_tail`.
- **Claims:** :meth:`can_chow`, :attr:`claim_priority`, :attr:`multiple_winners` (else head-bump in turn order
  from the discarder), :meth:`claim_options` (full override point), :attr:`robbable_kongs`.
- **Missed win (漏胡):** :attr:`louhu` (``"same_kind"``, ``"any_tile"`` or ``None``), :attr:`louhu_clears_on_claim`.
- **Wins:** :meth:`waits` (kinds that complete a hand), :meth:`is_complete` (the whole hand, for the dealt hand),
  :meth:`may_win` (extra restrictions: 游金 states, three golds ...).
- **Own turn:** :meth:`kong_options`, :meth:`forbidden_discards` (过张), :meth:`turn_extras` /
  :meth:`pre_draw_actions` / :meth:`apply_extra` (declarations: 亮倒 with a discard, 游金 before a draw, 抢金),
  :meth:`on_kong` (immediate kong money).
- **Scoring and rotation:** :meth:`win_context` (the facts of a win, liability included), :meth:`score`,
  :meth:`next_dealer`, :meth:`next_round`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..analysis import Forms, is_win, waits
from ..hand import Meld
from ..scoring import ScoreResult, WinContext

if TYPE_CHECKING:  # pragma: no cover
    from ..game.actions import Action
    from ..game.state import Table

__all__ = ["Rules", "WinSource"]

#: Where a winning tile came from: ``"wall"`` (self-drawn), ``"replacement"`` (after a kong), ``"discard"``,
#: ``"robbed_kong"`` (抢杠), ``"dealt"`` (the dealer's dealt 14), or a rule system's own (``"declared"``).
WinSource = str


class Rules(ABC):
    """A rule system. Subclasses set :attr:`name` and implement :meth:`options_dict` and :meth:`score`."""

    name: ClassVar[str] = ""
    num_players: int = 4
    #: Tiles dealt to each seat; the dealer gets one more and takes the first turn without drawing.
    hand_size: int = 13
    #: Higher answers beat lower ones when several seats claim one discard.
    claim_priority: ClassVar[dict[str, int]] = {"win": 3, "kong": 2, "pung": 2, "chow": 1}
    #: Every seat that claims 胡 on a discard wins (一炮多响); if False the first in turn order wins (截胡).
    multiple_winners: bool = True
    #: Kong flags other seats may rob (抢杠).
    robbable_kongs: frozenset[str] = frozenset({"added"})
    #: Missed-win scope, or None if the rule system has no 漏胡.
    louhu: str | None = "same_kind"
    #: Whether a chow/pung/kong ends the 漏胡 block (a draw always does).
    louhu_clears_on_claim: bool = True
    #: Kong replacement tiles come from the wall's tail (the order is hidden either way).
    replacement_from_tail: bool = True
    #: Winning forms passed to the core.
    win_forms: Forms = Forms.STANDARD

    # -- setup ------------------------------------------------------------------------------------------
    @abstractmethod
    def options_dict(self) -> dict[str, Any]:
        """The full option set, every option named (recorded in logs and results)."""

    def tiles(self) -> Sequence[int]:
        """The tile multiset of one wall, in a fixed order (the shuffle makes the order)."""
        return [kind for kind in range(34) for _ in range(4)]

    def seat_winds(self, dealer: int, first_dealer: int) -> tuple[int, ...]:
        """Each seat's wind 0..3 (东南西北) for a hand dealt by ``dealer``: by default the dealer is 东."""
        n = self.num_players
        return tuple((seat - dealer) % n for seat in range(n))

    def on_deal(self, table: Table) -> None:
        """Called once after the deal, before the dealer's first turn. May take tiles from the wall and keep
        facts in ``table.extras`` (Yunxiao flips its gold indicator here)."""

    # -- wall -------------------------------------------------------------------------------------------
    def can_draw(self, table: Table) -> bool:
        """May the next normal draw happen? False ends the hand as drawn (流局)."""
        return table.wall.live > 0

    def can_kong(self, table: Table) -> bool:
        """May a kong be declared now? By default a replacement tile must remain."""
        return table.wall.live > 0

    def melds_claimable(self, table: Table) -> bool:
        """May the discard on the table be chowed, punged or konged? By default only if another draw follows."""
        return self.can_draw(table)

    # -- claims -----------------------------------------------------------------------------------------
    def can_chow(self, table: Table, discarder: int, seat: int) -> bool:
        """By default only the discarder's 下家 may chow."""
        return seat == (discarder + 1) % table.num_players

    def claim_options(self, table: Table, seat: int, tile: int, discarder: int) -> list[Action]:
        """Every claim ``seat`` may make on ``tile`` discarded by ``discarder`` (without ``pass``).

        The default offers win (:meth:`waits` and :meth:`may_win`), kong (three held) and pung (two held) when
        :meth:`melds_claimable`, and chow for :meth:`can_chow` seats.
        """
        from ..game.actions import Action

        out: list[Action] = []
        if tile in self.cached_waits(table, seat) and self.may_win(table, seat, tile, "discard"):
            out.append(Action("win", seat, tile))
        if not self.melds_claimable(table):
            return out
        held = table.hands[seat][tile]
        if held >= 3 and self.can_kong(table):
            out.append(Action("kong", seat, tile, (), "exposed"))
        if held >= 2:
            out.append(Action("pung", seat, tile))
        if tile < 27 and self.can_chow(table, discarder, seat):
            hand = table.hands[seat]
            number = tile % 9
            for low in (tile - 2, tile - 1, tile):
                if low < tile - number or low + 2 > tile - number + 8:
                    continue  # the run would leave the suit
                if all(hand[k] for k in (low, low + 1, low + 2) if k != tile):
                    out.append(Action("chow", seat, tile, (low, low + 1, low + 2)))
        return out

    # -- wins -------------------------------------------------------------------------------------------
    def waits(self, table: Table, seat: int, counts: list[int]) -> frozenset[int]:
        """Kinds that would complete ``seat``'s hand whose concealed part is ``counts`` (3n+1 tiles)."""
        melds = len(table.melds[seat])
        return frozenset(waits(_kinds(counts), melds=melds, forms=self.win_forms))

    def cached_waits(self, table: Table, seat: int) -> frozenset[int]:
        """:meth:`waits` of ``seat``'s hand without its drawn tile, cached until that hand changes."""
        cached = table._waits[seat]
        if cached is None:
            counts = table.hands[seat]
            if table.turn_seat == seat and table.drawn >= 0 and table.phase in ("turn", "predraw"):
                counts = list(counts)
                counts[table.drawn] -= 1
            cached = table._waits[seat] = self.waits(table, seat, counts)
        return cached

    def is_complete(self, table: Table, seat: int) -> bool:
        """Is ``seat``'s whole hand (3n+2 concealed tiles plus melds) a win? Used for the dealt hand."""
        return is_win(_kinds(table.hands[seat]), melds=len(table.melds[seat]), forms=self.win_forms)

    def may_win(self, table: Table, seat: int, tile: int, source: WinSource) -> bool:
        """Extra conditions on a win whose shape is complete (beyond 漏胡, which the engine applies)."""
        return True

    # -- own turn ---------------------------------------------------------------------------------------
    def kong_options(self, table: Table, seat: int) -> list[Action]:
        """Kongs ``seat`` may declare in its own turn: 暗杠 of four held, 补杠 onto its own pung."""
        from ..game.actions import Action

        if not self.can_kong(table):
            return []
        hand = table.hands[seat]
        out = [Action("kong", seat, kind, (), "concealed") for kind in range(34) if hand[kind] == 4]
        out.extend(Action("kong", seat, meld.tiles[0], (), "added")
                   for meld in table.melds[seat] if meld.type == "pung" and hand[meld.tiles[0]])
        return out

    def forbidden_discards(self, table: Table, seat: int) -> frozenset[int]:
        """Kinds ``seat`` may not discard now (Yunxiao's 过张 after a chow). None by default."""
        return frozenset()

    def pre_draw_actions(self, table: Table, seat: int) -> list[Action]:
        """Declarations ``seat`` may make at the start of its turn, before drawing (游金, 抢金). If any, the
        engine asks the seat (``pass`` = draw normally)."""
        return []

    def turn_extras(self, table: Table, seat: int) -> list[Action]:
        """Extra actions in ``seat``'s own turn (e.g. a discard with a 亮倒 flag)."""
        return []

    def apply_extra(self, table: Table, action: Action) -> WinSource | None:
        """Apply a rule-specific action; return a :data:`WinSource` if it is a win the engine must settle."""
        raise NotImplementedError(f"{self.name} has no action {action.kind}/{action.flag}")

    def on_kong(self, table: Table, seat: int, meld: Meld) -> list[int] | None:
        """Immediate payments for a kong just made (per seat, summing to zero), or None (no kong money)."""
        return None

    # -- scoring and rotation ---------------------------------------------------------------------------
    def win_context(self, table: Table, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        """The facts of a win, for :meth:`score`. The default fills what every system shares."""
        counts = list(table.hands[seat])
        if source in ("wall", "replacement", "dealt"):
            counts[tile] -= 1  # the winning tile is in the hand already
        return WinContext(
            winner=seat, win_tile=tile, concealed=tuple(_kinds(counts)), melds=tuple(table.melds[seat]),
            discarder=discarder, dealer=table.dealer, num_players=table.num_players,
            seat_wind=table.seat_winds[seat], round_wind=table.round_wind,
            kong_replacement=source == "replacement", robbed_kong=source == "robbed_kong",
            last_tile=source in ("wall", "replacement") and table.wall.live == 0,
            heavenly=source == "dealt", winners_on_tile=winners_on_tile,
        )

    @abstractmethod
    def score(self, context: WinContext) -> ScoreResult:
        """Score one win (patterns, value, per-seat payments)."""

    def next_dealer(self, table: Table, winners: Sequence[int]) -> int:
        """Who deals the next hand. By default the dealer repeats if it won or nobody won."""
        if not winners or table.dealer in winners:
            return table.dealer
        return (table.dealer + 1) % table.num_players

    def next_round(self, round_wind: int, dealer: int, next_dealer: int, first_dealer: int) -> tuple[int, bool]:
        """The round wind after the deal passes from ``dealer`` to ``next_dealer``, and whether the match ends.

        By default the round advances when the deal returns to ``first_dealer`` and the match ends after 北.
        """
        if next_dealer == first_dealer and dealer != first_dealer:
            return (round_wind + 1, round_wind + 1 >= 4)
        return (round_wind, False)


def _kinds(counts: list[int]) -> list[int]:
    out: list[int] = []
    for kind, count in enumerate(counts):
        if count:
            out.extend([kind] * count)
    return out

"""The rule-system interface the table engine consults (DESIGN §4).

The engine (``hupai.game``) runs a generic mahjong hand: deal, draw, discard, claims, kongs, wins,
settlement. Every *rule question* goes to a :class:`Rules` object, and the engine has no branch on a rule
system's name. The defaults here are plain Chinese mahjong (136 tiles, four players, chow from the left,
win > kong/pung > chow, several winners allowed, 补杠 robbable); a rule system overrides what differs.

The hooks, grouped (``table`` is the engine's :class:`~hupai.game.state.Table`; rules read it, and write
only ``table.extras`` in the hooks that say so):

- **Setup:** :attr:`name`, :attr:`num_players`, :attr:`hand_size`, :meth:`tiles`, :meth:`seat_winds`,
  :meth:`on_deal` (e.g. flip Yunxiao's gold from the wall tail), :meth:`options_dict`.
- **Wall:** :meth:`can_draw` (the wall end, e.g. a reserve that grows with kongs), :meth:`can_kong`,
  :meth:`melds_claimable` (GD-8: the last discard may only be won on), :attr:`replacement_from_tail`.
- **Claims:** :meth:`chow_seats`, :attr:`claim_priority`, :attr:`multiple_winners` (else head-bump in turn
  order from the discarder), :meth:`claim_options` (full override point), :meth:`claim_meld` (the meld a
  claim makes and the tiles it takes: wild stand-ins), :attr:`robbable_kongs`.
- **Missed win (漏胡):** :attr:`louhu` (``"same_kind"``, ``"any_tile"`` or ``None``),
  :attr:`louhu_clears_on_claim`.
- **Wins:** :meth:`completes` (does a tile complete a hand: override for wild tiles), :meth:`may_win`
  (extra restrictions: 游金 states, three golds ...).
- **Own turn:** :meth:`kong_options`, :meth:`forbidden_discards` (过张), :meth:`on_discard` (a rule
  system's own state after each discard: 游 levels), :meth:`turn_extras` /
  :meth:`pre_draw_actions` / :meth:`apply_extra` (declarations: 亮倒 with a discard, 游金 before a draw,
  抢金), :meth:`declares_kong` (a declaration that is a kong), :meth:`on_kong` (immediate kong money),
  :meth:`replacement_ends_hand` (a last kong: win on its replacement or end the hand drawn).
- **Scoring and rotation:** :meth:`win_context` (the facts of a win, liability included), :meth:`score`,
  :meth:`next_dealer`, :meth:`next_round`.
- **For shanten-driven players** (:class:`hupai.bots.GreedyBot`): :attr:`wild_tiles`, :meth:`shanten_batch`
  (how the rules count a hand: golds as jokers), :meth:`premium_discards` (discards into a declared state worth
  more than winning now: the 游 shape), :meth:`prefers_own_draw`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .._core import claim_scan
from ..actions import ACTIONS, CHOWS, Action
from ..analysis import Forms, is_win, shanten, shanten_batch, waits
from ..hand import Meld
from ..scoring import ScoreResult, WinContext
from ..tiles import STANDARD_TILES, counts_to_kinds

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..game.state import Table

__all__ = ["Rules", "WinSource", "STANDARD_TILES"]


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
    #: Some tiles are wild (Yunxiao's golds): a hand's counts are not what the core should see as they are,
    #: so shanten-driven players must ask :meth:`shanten_batch` instead of the core directly.
    wild_tiles: bool = False
    #: Set per class: :meth:`completes` and :meth:`ready` are this base's (the core's tests), so the claim
    #: and turn scans may test wins and readiness themselves.
    _core_completes: ClassVar[bool] = True
    #: Set per class: :meth:`chow_seats` is this base's (the 下家 only), known without a call.
    _default_chow_seats: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._core_completes = cls.completes is Rules.completes and cls.ready is Rules.ready
        cls._default_chow_seats = cls.chow_seats is Rules.chow_seats

    # -- setup ------------------------------------------------------------------------------------------
    @abstractmethod
    def options_dict(self) -> dict[str, Any]:
        """The full option set, every option named (recorded in logs and results)."""

    def tiles(self) -> Sequence[int]:
        """The tile multiset of one wall, in a fixed order (the shuffle makes the order)."""
        return STANDARD_TILES

    def seat_winds(self, dealer: int, first_dealer: int) -> tuple[int, ...]:
        """Each seat's wind 0..3 (东南西北) for a hand dealt by ``dealer``: by default the dealer is 东."""
        n = self.num_players
        return tuple((seat - dealer) % n for seat in range(n))

    def on_deal(self, table: Table) -> None:  # noqa: B027 (an optional hook: empty by design)
        """Called once after the deal, before the dealer's first turn. May take tiles from the wall and keep
        facts in ``table.extras`` (Yunxiao flips its gold indicator here)."""

    # -- wall -------------------------------------------------------------------------------------------
    def can_draw(self, table: Table) -> bool:
        """May the next normal draw happen? False ends the hand as drawn (流局)."""
        wall = table.wall
        return wall.tail > wall.head

    def can_kong(self, table: Table) -> bool:
        """May a kong be declared now? By default a replacement tile must remain."""
        wall = table.wall
        return wall.tail > wall.head

    def melds_claimable(self, table: Table) -> bool:
        """May the discard on the table be chowed, punged or konged? By default if another draw follows."""
        return self.can_draw(table)

    # -- claims -----------------------------------------------------------------------------------------
    def chow_seats(self, table: Table, discarder: int) -> tuple[int, ...]:
        """The seats that may chow ``discarder``'s discard: by default only its 下家; ``()`` for no chow."""
        return ((discarder + 1) % table.num_players,)

    def claim_options(self, table: Table, tile: int, discarder: int) -> dict[int, list[Action]]:
        """Every claim each other seat may make on ``tile`` discarded by ``discarder`` (``pass`` not
        included; seats with no claim left out), in turn order from the discarder.

        The default offers win (:meth:`completes` and :meth:`may_win`), then kong (three held) and pung
        (two held) if :meth:`melds_claimable`, and chows to :meth:`chow_seats`. The engine removes wins
        blocked by 漏胡 and adds ``pass``. This runs on every discard, so the shapes of all seats are read by
        one core call (``_core.claim_scan``, the wins included unless a subclass overrides :meth:`completes`
        or :meth:`ready`; it fills ``table.ready`` as :meth:`ready` would), and the rule questions
        (:meth:`melds_claimable`, :meth:`can_kong`, :meth:`may_win`) are asked only about what the shapes
        allow: they must not have side effects.
        """
        if tile >= 27:
            chowers = 0
        elif self._default_chow_seats:
            chowers = 1 << ((discarder + 1) % table.num_players)
        else:
            chowers = sum(1 << seat for seat in self.chow_seats(table, discarder))
        core_wins = self._core_completes
        shapes = claim_scan(table.hands, table.melds, table.ready, tile, discarder, self.win_forms, chowers,
                            _SCAN_ALL if core_wins else _SCAN_MELDS)
        if not shapes and core_wins:
            return {}  # the common case: nobody can claim, and no rule question needed asking
        if shapes & _ANY_MELD:  # the wall-end questions, asked only when some meld is possible
            if not self.melds_claimable(table):
                shapes &= _ANY_WIN
            elif shapes & _ANY_KONG and not self.can_kong(table):
                shapes &= ~_ANY_KONG
        n = table.num_players
        out: dict[int, list[Action]] = {}
        for step in range(1, n):
            seat = (discarder + step) % n
            bits = (shapes >> (8 * seat)) & 0xFF
            if not core_wins and self.completes(table, seat, tile, False):
                bits |= _WIN
            if not bits:
                continue
            options: list[Action] = []
            if bits & _WIN and self.may_win(table, seat, tile, "discard"):
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

    def claim_meld(self, table: Table, action: Action) -> tuple[tuple[int, ...], Meld]:
        """The meld a winning claim ``action`` on the discard makes, and the physical kinds it takes from the
        claimer's concealed tiles (the discard itself not among them).

        The engine calls this once, when it carries the claim out; a rule system may keep facts about the
        claim in ``table.extras`` here. The default reads everything as physical kinds: a chow's
        ``action.tiles`` are its run (the discard among them), a pung or kong is of the discard's kind. A rule
        system with stand-in tiles (Yunxiao's 白板 as the gold's face, YX-7) records the meld in the kinds the
        tiles play as, while the hand gives up the tiles it holds.
        """
        tile, discarder = table.last_discard, table.discarder
        if action.kind == "chow":
            used = list(action.tiles)
            used.remove(tile)
            return tuple(used), Meld("chow", action.tiles, claimed_from=discarder, claimed_tile=tile)
        if action.kind == "pung":
            return (tile, tile), Meld("pung", (tile,) * 3, claimed_from=discarder, claimed_tile=tile)
        return (tile,) * 3, Meld("kong", (tile,) * 4, claimed_from=discarder, claimed_tile=tile)

    # -- wins -------------------------------------------------------------------------------------------
    def completes(self, table: Table, seat: int, tile: int, in_hand: bool) -> bool:
        """Is ``seat``'s hand complete with ``tile``? ``in_hand``: the tile is already among its concealed
        tiles (a draw); otherwise it comes from another player and must complete a waiting hand. Shape
        only: :meth:`may_win` and 漏胡 come on top.

        The default asks the core (:attr:`win_forms`) about the hand's counts in place (a zero-copy view). The
        engine's own scans (claims after a discard, a plain turn) ask the core directly and skip seats whose
        ``table.ready`` is False.
        """
        melds = len(table.melds[seat])
        if in_hand:
            return is_win(table.views[seat], melds=melds, forms=int(self.win_forms))
        hand = table.hands[seat]
        if hand[tile] >= 4 or sum(hand) != 13 - 3 * melds:
            return False  # a fifth copy, or a hand between a claim and its discard (it waits on nothing)
        hand[tile] += 1
        try:
            return is_win(table.views[seat], melds=melds, forms=int(self.win_forms))
        finally:
            hand[tile] -= 1

    def ready(self, table: Table, seat: int) -> bool:
        """Is ``seat``'s waiting hand (without the tile it just drew, if it is its turn) ready (听牌)? Cached
        in ``table.ready`` until the engine sees that hand change; where it is False the engine skips the
        turn's win check (a rule system whose :meth:`completes` is costly fills it: Yunxiao)."""
        cached = table.ready[seat]
        if cached is None:
            hand = table.hands[seat]
            drawn = table.drawn if table.turn_seat == seat and table.phase == "turn" else -1
            if drawn >= 0:
                hand[drawn] -= 1
            try:
                if sum(hand) % 3 != 1:  # a hand between a claim and its discard waits on nothing
                    cached = False
                else:
                    cached = shanten(table.views[seat], melds=len(table.melds[seat]),
                                     forms=int(self.win_forms)) <= 0
            finally:
                if drawn >= 0:
                    hand[drawn] += 1
            table.ready[seat] = cached
        return cached

    # -- questions a shanten-driven player asks (hupai.bots.GreedyBot) ----------------------------------
    def shanten_batch(self, table: Table, rows: np.ndarray, melds: int | np.ndarray) -> np.ndarray:
        """Shanten of physical ``uint8[N, 34]`` hands under these rules. The default is the core's, in
        :attr:`win_forms`; a rule system with wild tiles maps them to jokers first."""
        return shanten_batch(rows, melds=melds, forms=int(self.win_forms))

    def premium_discards(self, table: Table, seat: int) -> list[int]:
        """Kinds whose discard now puts ``seat`` in a declared state worth more than winning at once (Yunxiao:
        the 游 shape, YX-25); empty by default."""
        return []

    def prefers_own_draw(self, table: Table, seat: int) -> bool:
        """Whether ``seat`` expects more from its own draws than from winning on a discard now (Yunxiao: a
        gold holder with a long wall ahead); False by default."""
        return False

    def winning_tiles(self, table: Table, seat: int) -> list[int]:
        """The kinds that would complete ``seat``'s waiting hand (without the tile it just drew, in its turn),
        by shape (for observations, bots and tests)."""
        drawn = table.drawn if table.turn_seat == seat and table.phase == "turn" else -1
        kinds = table.concealed_kinds(seat, drawn)
        if len(kinds) % 3 != 1:
            return []  # between a claim and its discard: no wait
        return waits(kinds, melds=len(table.melds[seat]), forms=self.win_forms)

    def may_win(self, table: Table, seat: int, tile: int, source: WinSource) -> bool:
        """Extra conditions on a win whose shape is complete (beyond 漏胡, which the engine applies)."""
        return True

    # -- own turn ---------------------------------------------------------------------------------------
    def kong_options(self, table: Table, seat: int) -> list[Action]:
        """Kongs ``seat`` may declare in its own turn: 暗杠 of four held, 补杠 onto its own pung."""
        hand = table.hands[seat]
        melds = table.melds[seat]
        if (4 not in hand and not melds) or not self.can_kong(table):
            return []
        out = []
        if 4 in hand:
            kongs = ACTIONS.concealed_kong[seat]
            out = [kongs[kind] for kind in range(34) if hand[kind] == 4]
        for meld in melds:
            if meld.type == "pung" and hand[meld.tiles[0]]:
                out.append(ACTIONS.added_kong[seat][meld.tiles[0]])
        return out

    def on_discard(self, table: Table, seat: int, tile: int) -> None:  # noqa: B027 (optional, empty by design)
        """Called once after every discard (the tile is out of the hand and on the table), before claims are
        offered: a rule system may update its own facts in ``table.extras`` (Yunxiao's 游 levels, YX-26)."""

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

    def declares_kong(self, table: Table, action: Action) -> bool:
        """Is the rule-specific own-turn ``action`` (a ``declare`` that :meth:`kong_options` offers) a kong of
        the four ``action.tile`` held, shown as an exposed kong (Yunxiao's self-drawn 明杠, YX-20)?

        If True the engine makes it as it makes its own kongs, and :meth:`apply_extra` is not called: offered
        to robbers first if ``action.flag`` is in :attr:`robbable_kongs`, then melded (a ``kong`` event),
        counted by :meth:`on_kong` and followed by the replacement draw. False by default.
        """
        return False

    def on_kong(self, table: Table, seat: int, meld: Meld) -> list[int] | None:
        """Immediate payments for a kong just made (per seat, summing to zero), or None (no kong money)."""
        return None

    def replacement_ends_hand(self, table: Table, seat: int) -> bool:
        """Is the tile ``seat`` just drew after a kong its last chance: may it now only win on it, or else end
        the hand as drawn (流局) without discarding? Asked only while the drawn tile is a kong replacement.

        If True the engine offers the win (when legal) and ``pass``, which ends the hand drawn: no discard, no
        further kong or declaration. False by default (Yunxiao's third kong, YX-23, says True).
        """
        return False

    # -- scoring and rotation ---------------------------------------------------------------------------
    def win_context(self, table: Table, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        """The facts of a win, for :meth:`score`. The default fills what every system shares."""
        counts = list(table.hands[seat])
        if source in ("wall", "replacement", "dealt"):
            counts[tile] -= 1  # the winning tile is in the hand already
        return WinContext(
            winner=seat, win_tile=tile, concealed=counts_to_kinds(counts), melds=tuple(table.melds[seat]),
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

    def next_round(self, round_wind: int, dealer: int, next_dealer: int,
                   first_dealer: int) -> tuple[int, bool]:
        """The round wind after the deal passes from ``dealer`` to ``next_dealer``, and whether the match
        ends.

        By default the round advances when the deal returns to ``first_dealer`` and the match ends after
        北.
        """
        if next_dealer == first_dealer and dealer != first_dealer:
            return (round_wind + 1, round_wind + 1 >= 4)
        return (round_wind, False)


# _core.claim_scan's bits, per seat (cpp/claims.hpp); the same bits of all four seats; its flags (melds
# claimable 1, kong allowed 2, check wins 4).
_WIN, _PUNG, _KONG, _CHOWS = 1, 2, 4, 8 | 16 | 32
_ANY_WIN, _ANY_KONG, _ANY_MELD = 0x01010101, 0x04040404, 0x3E3E3E3E
_SCAN_MELDS, _SCAN_ALL = 1 | 2, 1 | 2 | 4

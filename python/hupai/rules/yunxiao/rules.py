"""云霄麻将 Yunxiao: the rule object the table engine consults (flow), over the pure rule layer.

The table holds **physical** tiles: a gold is kind ``G``, a 白板 is ``5z``. Every rule question is answered
with the rule layer (:mod:`.hand`, :mod:`.patterns`, :mod:`.scoring`), which takes physical tiles too. The
flow rules, each answered by a hook here:

- YX-5, YX-6 (:meth:`on_deal`): the gold indicator is the wall's last tile; it leaves the wall (82 live tiles)
  and its kind is ``G``. ``table.extras`` holds the public Yunxiao facts: ``gold``, ``indicator`` (-1 once
  taken by 抢金), ``you`` (游 level per seat), ``kongs`` (kongs made), ``last_kong``, ``chow_turn`` (YX-16).
- YX-7 白板 plays as ``G`` (:func:`~.hand.effective_kind`) in waits, wins and melds. A 白板 pung or kong is
  made of 白板 tiles, so the engine's physical claims are right. A chow may use a 白板 as ``G`` (the discard,
  or a tile from the hand, YX-E18): its action lists the physical tiles in run order and
  :meth:`claim_meld` records the meld in effective kinds.
- YX-11 (:meth:`claim_options`): a discarded gold is never claimed or won on; golds are always discardable.
- YX-12, YX-13 (:meth:`can_draw`, :meth:`can_kong`): the reserve 34/38/40 grows with kongs; replacement tiles
  come from the tail (engine) and are drawn even below the reserve.
- YX-14, YX-15: 胡 > 杠 > 碰 > 吃, chow by the 下家 only, one winner by head-bump
  (``multiple_winners=False``).
- YX-16 (:meth:`forbidden_discards`): 过张 for the whole turn of a chow, kongs in it included
  (:meth:`claim_meld` notes the chow's turn). YX-17: 漏胡 (``louhu``, engine).
- YX-18, YX-28 (:meth:`may_win`): three golds and the 游 states restrict who may win and how.
- YX-20..YX-23 (:meth:`kong_options`, :meth:`declares_kong`, :meth:`on_kong`): 明杠 on a discard (engine),
  self-drawn fourth as 暗杠 (engine) or 明杠 (the declaration ``ming_gang``, made and robbed by the engine),
  补杠 (engine, robbable); at most ``max_kongs``, the last of which ends the hand unless its maker wins on
  the replacement (:meth:`replacement_ends_hand`: win or ``pass``, no discard).
- YX-25..YX-28 (:meth:`on_discard` recomputes the discarder's level, :meth:`pre_draw_actions` offers
  ``you_jin``), YX-29 三金倒 and YX-31 天胡 (:meth:`completes`), YX-30 抢金胡 (``qiang_jin`` before the first
  draw), YX-31 地胡.
- YX-38..YX-43 (:meth:`win_context`, :meth:`score`): the win's event and 游 level go to
  :func:`~.scoring.score_win`. YX-44 drawn hands pay nothing; YX-45 (:meth:`next_dealer`); YX-46 no winds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from typing import Any, ClassVar

from ... import _core
from ...actions import ACTIONS, CHOW_RUNS, Action
from ...analysis import Forms
from ...hand import Meld
from ...scoring import ScoreResult, WinContext
from ...tiles import NUM_KINDS, kind_name
from ..base import Rules, WinSource
from ..contract import Capabilities, Effects, GiveTile, SetState, TableView, TakeFromTail
from ..facts import Fact, seat_label, seat_values, tile_of
from .hand import WHITE, YunxiaoHand, chow_forbidden_discards, counts_to_kinds, effective_kind
from .options import YunxiaoOptions
from .patterns import next_you_level, three_golds_may_win, you_state_allows
from .scoring import PATTERN_CHINESE, PATTERN_ENGLISH, score_win
from .state import check_state

__all__ = ["YunxiaoRules", "YOU_JIN", "QIANG_JIN", "MING_GANG"]

#: Declaration flags (``Action("declare", seat, tile, (), flag)``).
YOU_JIN = "you_jin"        # YX-27: 游金胡 before drawing; tile = the floating gold G
QIANG_JIN = "qiang_jin"    # YX-30: 抢金胡, take the indicator instead of drawing; tile = G
MING_GANG = "ming_gang"    # YX-20: declare a self-drawn fourth as 明杠 (robbable, YX-22); tile = the kind

_OTHERS_TILE = frozenset({"discard", "di_hu", "rob_kong"})
# The seats after a discarder, in turn order, by table size: claim_options' loop, made once (a range and a modulo
# per seat cost more than the rest of a discard's test of a seat known not ready).
_AFTER = {n: tuple(tuple((seat + step) % n for step in range(1, n)) for seat in range(n)) for n in range(2, 5)}
#: For each kind, the chow runs holding it, each with the two other kinds the chower must show.
_CHOW_PARTNERS = tuple(tuple((run, tuple(k for k in run if k != kind)) for run in runs)
                       for kind, runs in enumerate(CHOW_RUNS))


# Pure questions about a hand go to the core in one call each (cpp/wild_yunxiao.hpp: the same answers as
# patterns.py's hand_waits, is_complete and you_shape_of, checked against them in tests/yunxiao/test_core_hand.py):
# the table's 34 physical counts as they stand, the gold, and the declared melds' tiles as bytes.
def _meld_tiles(melds: Sequence[Meld]) -> bytes:
    """The tiles of ``melds`` as the core reads them (a 白板 among them plays as G, the core knows, YX-7). The hot
    callers pass ``b""`` themselves for no melds, the common case, without calling this."""
    return b"".join([bytes(meld.tiles) for meld in melds])


def _core_waits(counts: bytes, gold: int, meld_tiles: bytes, melds: int, loose: bool) -> int:
    """The core's waits of a waiting hand (YX-32..35, YX-8; :func:`~.patterns.hand_waits`), a bit mask."""
    bits: int = _core.yunxiao_waits(counts, gold, meld_tiles, melds, loose)
    return bits


def _kind_list(bits: int) -> list[int]:
    """The kinds of a core bit mask (bit k = kind k), ascending."""
    return [kind for kind in range(NUM_KINDS) if bits >> kind & 1]


def _kinds(counts: Sequence[int], without: int = -1) -> tuple[int, ...]:
    """The physical kinds of a hand of counts, ascending, one ``without`` left out when it is held."""
    if without >= 0 and counts[without]:
        counts = bytearray(counts)
        counts[without] -= 1
    return counts_to_kinds(counts)


#: YX-26: the 游 levels by number, as a table shows them.
YOU_LEVELS = {1: "单游 single swim", 2: "双游 double swim", 3: "三游 triple swim"}


class YunxiaoRules(Rules):
    """Yunxiao mahjong (``rules/yunxiao.md``). Build with ``YunxiaoRules(options)`` or
    ``hupai.rules.get("yunxiao", **options)``."""

    name: ClassVar[str] = "yunxiao"
    capabilities: ClassVar[Capabilities] = Capabilities(
        core_wins=False, custom_claims=True, pre_draw=True, forbidden_discards=True, kong_options=True,
        declared_kongs=True, last_kong=True, on_discard=True, on_claim=True, wall_end=True, turn_is_plain=True,
        gold_turn=True)
    claim_priority: ClassVar[dict[str, int]] = {"win": 4, "kong": 3, "pung": 2, "chow": 1}  # YX-15
    #: YX-29..31 events (``human`` is YX-31's 地胡 too), the gold, 游 level; no winds (YX-46), no 海底.
    context_fields: ClassVar[frozenset[str] | None] = frozenset({
        "kong_replacement", "robbed_kong", "heavenly", "earthly", "human", "jokers", "gold", "event", "you_level"})
    multiple_winners = False  # YX-15: head-bump, 下家 > 对家 > 上家
    robbable_kongs = frozenset({"added", "ming_gang"})  # YX-22: 补杠 and the self-drawn 明杠 (its flag)
    louhu_clears_on_claim = True  # YX-17: a 吃, 碰 or 杠 is a move
    #: For bots that read it (the engine asks :meth:`completes`): the structured forms, golds left out.
    win_forms = Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS
    action_flags: ClassVar[Mapping[str, tuple[str, ...]]] = {"declare": (MING_GANG, YOU_JIN, QIANG_JIN)}
    # chow_turn is the engine's bookkeeping for YX-16 (a seat, a discard count and a meld index): not a feature.
    public_facts: ClassVar[Mapping[str, str]] = {
        "gold": "tile", "indicator": "tile", "you": "seat_ints", "kongs": "int", "last_kong": "ints:2",
        "chow_turn": "skip"}

    def __init__(self, options: Mapping[str, Any] | YunxiaoOptions | None = None) -> None:
        self.options = YunxiaoOptions.from_mapping(options)
        self._loose = self.options.buda_loose
        # A bounded memo of the waits (a core bit mask) of the waiting hands asked about, owned by this object (no
        # module-level state): a ready seat is asked about every discard until its hand changes.
        self._wait_bits = lru_cache(maxsize=1 << 12)(partial(_core_waits, loose=self._loose))
        self.louhu = self.options.louhu  # YX-17
        self._reserves = tuple(self.options.reserve_after(kongs) for kongs in range(self.options.max_kongs))
        self._options_dict = self.options.to_dict()

    def options_dict(self) -> dict[str, Any]:
        return dict(self._options_dict)

    def __repr__(self) -> str:
        return f"YunxiaoRules({self.options_dict()!r})"

    # -- setup: YX-5, YX-6 ------------------------------------------------------------------------------
    def on_deal(self, table: TableView) -> Effects:
        """YX-6 开金: the wall's last tile is the gold indicator; it leaves play (82 live tiles remain)."""
        wall = table.wall
        gold = wall.tiles[wall.tail - 1]
        n = table.num_players
        return (TakeFromTail(1), SetState("gold", gold), SetState("indicator", gold), SetState("you", [0] * n),
                SetState("kongs", 0), SetState("last_kong", []), SetState("chow_turn", []))

    @staticmethod
    def gold(table: TableView) -> int:
        """The gold kind G of the hand on ``table`` (YX-6): ``table.extras["gold"]``, read directly by the hooks
        below (they run at every discard)."""
        gold: int = table.extras["gold"]  # an int: set by on_deal, checked in a restored snapshot
        return gold

    # -- wall: YX-12, YX-13, YX-23 ----------------------------------------------------------------------
    def can_draw(self, table: TableView) -> bool:
        """YX-12: a normal draw needs more than R live tiles (R after 0/1/2 kongs); YX-23: the hand ends once
        the last allowed kong has been made (its maker did not win on the replacement)."""
        kongs: int = table.extras["kongs"]
        wall = table.wall
        return kongs < self.options.max_kongs and wall.tail - wall.head > self._reserves[kongs]

    def gold_turn(self, table: TableView) -> tuple[int, list[int], int, bool, int] | None:
        """The core's quiet discard's facts (``_core.yunxiao_turn``: the same claims, readiness, 游, declaration and
        wall-end answers as the hooks here): the gold, the 游 levels, the reserve a normal draw leaves (YX-12, as
        :meth:`can_draw`), the buda_loose option, and the dealer while the gold may still be robbed (YX-30: the
        indicator lies; -1 once taken); None once the last allowed kong is made (YX-23). Facts of ``table.extras``
        alone (and the hand's dealer and options): the engine keeps them while the table holds the same mapping
        (it replaces it when a fact changes). The core leaves a discard to the hooks where the next seat may
        declare before its draw (:meth:`pre_draw_actions`: a 游 level, or a first draw of a seat waiting on the gold
        while nobody has called)."""
        extras = table.extras
        kongs: int = extras["kongs"]
        if kongs >= self.options.max_kongs:
            return None
        return (extras["gold"], extras["you"], self._reserves[kongs], self._loose,
                table.dealer if extras["indicator"] >= 0 else -1)

    def can_kong(self, table: TableView) -> bool:
        """YX-23: at most ``max_kongs`` per hand; YX-13: a replacement is drawn even below the reserve."""
        kongs: int = table.extras["kongs"]
        wall = table.wall
        return kongs < self.options.max_kongs and wall.tail > wall.head

    def melds_claimable(self, table: TableView) -> bool:
        return True  # the spec ends the hand only when a normal draw is due

    # -- hands ------------------------------------------------------------------------------------------
    def _waiting(self, table: TableView, seat: int) -> bytes | bytearray | None:
        """``seat``'s waiting hand (without the tile drawn this turn) as physical counts, or None if its size
        is not a waiting size (between a claim and its discard). The table's own counts when nothing is drawn:
        read, never written."""
        hand = table.hands[seat]
        drawn = table.drawn
        if drawn >= 0 and table.turn_seat == seat and table.phase == "turn" and hand[drawn]:
            hand = bytearray(hand)
            hand[drawn] -= 1
        return hand if sum(hand) % 3 == 1 else None

    def _waits_of(self, table: TableView, seat: int) -> int:
        """:meth:`waits` as the core's bit mask (bit k: kind k), memoised by hand."""
        counts = self._waiting(table, seat)
        if counts is None:
            return 0
        melds = table.melds[seat]
        tiles = _meld_tiles(melds) if melds else b""
        return self._wait_bits(bytes(counts), table.extras["gold"], tiles, len(melds))

    def waits(self, table: TableView, seat: int) -> frozenset[int]:
        """Physical kinds completing ``seat``'s waiting hand (G listed when a drawn gold completes it)."""
        return frozenset(_kind_list(self._waits_of(table, seat)))

    def ready(self, table: TableView, seat: int) -> bool:
        """Can some tile make ``seat`` win? Waits, or two golds held (a drawn third gold is 三金倒, YX-29)."""
        counts = self._waiting(table, seat)
        if counts is None:
            return False
        gold = table.extras["gold"]
        if counts[gold] >= 2:
            return True
        melds = table.melds[seat]
        # One core call: most hands are not ready, and the core rules them out from the counts at once. Not
        # memoised: the engine caches the answer until the hand changes.
        tiles = _meld_tiles(melds) if melds else b""
        return _core.yunxiao_waits(counts, gold, tiles, len(melds), self._loose) != 0

    def _complete_now(self, table: TableView, seat: int) -> bool:
        """Is ``seat``'s whole concealed hand (a winning size) complete in some form (YX-32..35)?"""
        melds = table.melds[seat]
        complete: bool = _core.yunxiao_complete(table.hands[seat], table.extras["gold"], _meld_tiles(melds),
                                                len(melds), self._loose)
        return complete

    def completes(self, table: TableView, seat: int, tile: int, in_hand: bool) -> bool:
        """YX-14 a win on another's tile: ``tile`` is a wait and not a gold (YX-11). Own tile (a draw or the
        dealt 14th): the hand is complete, or holds all three golds (YX-29 三金倒, YX-31 天胡)."""
        known = table.ready_bytes[seat]  # the engine's cache of ready() (255 not known): filled before claims and
        if not (self.ready(table, seat) if known == 255 else known):  # turns are asked
            return False
        gold = table.extras["gold"]
        if in_hand:
            if table.hands[seat][gold] >= 3:
                return True
            if tile == table.drawn and table.turn_seat == seat and table.phase == "turn":
                # The drawn tile completes the hand exactly when it is a wait of the hand before it (the waits
                # try every form, YX-32..35, a drawn gold included): memoised, and usually known already, from
                # when that hand's readiness was found.
                return bool(self._waits_of(table, seat) >> tile & 1)
            return self._complete_now(table, seat)
        return tile != gold and bool(self._waits_of(table, seat) >> tile & 1)

    def winning_tiles(self, table: TableView, seat: int) -> list[int]:
        gold = table.extras["gold"]
        return [k for k in _kind_list(self._waits_of(table, seat)) if k != gold]

    # -- events and who may win: YX-18, YX-28, YX-31 ----------------------------------------------------
    def event(self, table: TableView, seat: int, source: WinSource) -> str:
        """The scoring event (:data:`~.patterns.EVENTS`) of a win by ``seat`` from ``source``."""
        if source == "dealt":
            return "tian_hu"
        if source == "discard":
            dealer = table.dealer
            first = table.discarder == dealer and sum(table.discards_made) == 1
            return "di_hu" if first and seat != dealer else "discard"
        if source == "robbed_kong":
            return "rob_kong"
        if source in ("rob_gold", YOU_JIN):
            return source
        if not self._complete_now(table, seat):
            return "san_jin_dao"  # YX-29: three golds, no other form
        if source == "replacement":
            last = table.extras["last_kong"]
            return "an_gang" if last and last[1] else "ming_gang"
        return "self_draw"

    def may_win(self, table: TableView, seat: int, tile: int, source: WinSource) -> bool:
        """YX-28 (the 游 states, :func:`~.patterns.you_state_allows`) and YX-18 (three golds on another's tile
        only by 地胡, 清一色 or 抢杠胡)."""
        event = self.event(table, seat, source)
        if not you_state_allows(event, seat, table.extras["you"]):
            return False
        gold = table.extras["gold"]
        if event in _OTHERS_TILE and table.hands[seat][gold] >= 3:
            hand = YunxiaoHand((*_kinds(table.hands[seat]), tile), gold, tuple(table.melds[seat]))
            return three_golds_may_win(hand, event, self.options)
        return True

    # -- claims: YX-11, YX-14, YX-15, YX-26 -------------------------------------------------------------
    def claim_options(self, table: TableView, tile: int, discarder: int) -> dict[int, list[Action]]:
        """YX-14 claims on a discard, win first, by effective kind (YX-7). A gold is never claimed (YX-11).

        A chow's ``tiles`` are physical kinds in run order: a 白板 stands where the run needs ``G`` (YX-E18:
        with G=5m, 46m chow a discarded 白板 as ``(4m, 5z, 6m)``; 4m and a held 白板 chow 6m the same way).
        :meth:`claim_meld` turns them into the meld ``456m``."""
        gold = table.extras["gold"]
        if tile == gold:
            return {}
        after = _AFTER[table.num_players][discarder]
        chower = after[0]
        face = gold if tile == WHITE and gold != WHITE else tile  # effective_kind (YX-7), inline: every discard
        out: dict[int, list[Action]] = {}
        ready = table.ready_bytes  # the engine's cache (0 not ready, 1 ready, 255 not known), filled before it asks:
        # a seat known not ready is not asked
        hands = table.hands
        for seat in after:
            hand = hands[seat]
            known = ready[seat]
            if not known and hand[tile] < 2 and seat != chower:
                continue  # no win, pung, kong or chow: most seats at most discards
            options: list[Action] = []
            if known:
                if known == 255:  # readiness not known (the engine fills it first): the whole test
                    wins = self.completes(table, seat, tile, False)
                else:  # ready: is the tile a wait of its waiting hand (what completes() asks, read directly)?
                    melds = table.melds[seat]
                    tiles = _meld_tiles(melds) if melds else b""
                    wins = bool(self._wait_bits(bytes(hand), gold, tiles, len(melds)) >> tile & 1)
                if wins and self.may_win(table, seat, tile, "discard"):
                    options.append(ACTIONS.win[seat][tile])
            # A pung or kong is always of one physical kind: the only tiles playing as G are the 白板.
            if hand[tile] >= 2:
                if hand[tile] >= 3 and self.can_kong(table):
                    options.append(ACTIONS.exposed_kong[seat][tile])
                options.append(ACTIONS.pung[seat][tile])
            if seat == chower and face < 27:
                for run, (one, other) in _CHOW_PARTNERS[face]:
                    # A gold never enters a claimed meld (YX-14): where the run needs G, only a 白板 plays it.
                    if hand[WHITE if one == gold else one] and hand[WHITE if other == gold else other]:
                        physical = tuple(tile if k == face else WHITE if k == gold else k for k in run)
                        options.append(Action("chow", seat, tile, physical))
            if options:
                out[seat] = options
        return out

    def claim_meld(self, table: TableView, action: Action) -> tuple[tuple[int, ...], Meld]:
        """YX-7: a chow takes its physical tiles from the hand (a 白板 among them) and is recorded in effective
        kinds (``4m 5z 6m`` under G=5m is the meld ``456m``); the claimed tile stays physical (YX-16, the chow's
        turn: :meth:`on_claim`). Pungs and kongs are of one physical kind."""
        if action.kind != "chow" or WHITE not in action.tiles:
            # Every tile plays as itself (most chows): the engine's shared melds, built once (Rules.claim_meld).
            return super().claim_meld(table, action)
        gold = table.extras["gold"]
        tile = action.tile
        used = list(action.tiles)
        used.remove(tile)
        meld = Meld("chow", tuple(effective_kind(k, gold) for k in action.tiles),
                    claimed_from=table.discarder, claimed_tile=tile)
        return tuple(used), meld

    def on_claim(self, table: TableView, seat: int, meld: Meld) -> Effects:
        """YX-16: a chow's turn is noted (seat, its discards so far, the meld's index) so that 过张 holds for the
        whole turn, kongs made in it included."""
        if meld.type != "chow":
            return ()
        return (SetState("chow_turn", [seat, table.discards_made[seat], len(table.melds[seat]) - 1]),)

    def on_discard(self, table: TableView, seat: int, tile: int) -> Effects:
        """YX-26: the 游 level of ``seat`` after its discard of ``tile`` (the engine asks once per discard,
        before claims are offered)."""
        levels = table.extras["you"]
        gold = table.extras["gold"]
        hand = table.hands[seat]
        if not hand[gold] and not levels[seat]:
            return ()  # YX-25: no gold, no 游 shape, and the level stays 0 (most discards)
        melds = table.melds[seat]
        shape = hand[gold] >= 1 and _core.yunxiao_you_shape(hand, gold, _meld_tiles(melds) if melds else b"",
                                                            len(melds))
        level = next_you_level(levels[seat], tile == gold, shape)
        if level == levels[seat]:
            return ()
        return (SetState("you", [level if s == seat else old for s, old in enumerate(levels)]),)

    # -- own turn: YX-16, YX-20..YX-23, YX-27, YX-30 ----------------------------------------------------
    def forbidden_discards(self, table: TableView, seat: int) -> frozenset[int]:
        """YX-16 过张: in the turn of a chow, the chowed kind and the other end of a two-sided pair (physical
        kinds; golds always allowed; the engine lifts it when nothing else is left). The turn lasts until the
        chow's maker discards, so a kong made in it (and its replacement draw) does not lift the restriction."""
        chow_turn = table.extras["chow_turn"]
        # The turn is over once the seat has discarded since the chow (its discard count moved on).
        if not chow_turn or chow_turn[0] != seat or chow_turn[1] != table.discards_made[seat]:
            return frozenset()
        meld = table.melds[seat][chow_turn[2]]
        gold = table.extras["gold"]
        claimed = effective_kind(meld.claimed_tile, gold)
        used = list(meld.tiles)
        used.remove(claimed)
        return chow_forbidden_discards(claimed, (used[0], used[1]), gold)

    def turn_is_plain(self, table: TableView, seat: int) -> bool:
        """The common turn, decided without the turn hooks: a draw from the wall by a seat whose hand before it was
        known not to be ready (the engine's cache byte 0, set at its last discard). No tile then completes it, a
        drawn third gold included (ready() counts two golds held as ready: YX-29), and no chow turn's 过张 holds
        (YX-16: a chow is followed by a discard, not a draw). The engine adds the core's kong test (YX-20: four
        held, or a held tile of an exposed pung) and falls back to the hooks when it finds one. A replacement
        draw (YX-13, YX-23) or a tile given by a declaration takes the hooks."""
        return table.ready_bytes[seat] == 0 and table.drawn_from == "wall"

    def kong_options(self, table: TableView, seat: int) -> list[Action]:
        """YX-20: a self-drawn fourth as 暗杠 (``kong``/``concealed``) or 明杠 (``declare``/``ming_gang``),
        and 补杠 onto one's own pung; YX-21: golds never (at most three exist); four 白板 are a kong of G."""
        hand = table.hands[seat]
        melds = table.melds[seat]
        kind = hand.find(4)  # the hand's counts are bytes: find the kinds held four times
        if (kind < 0 and not melds) or not self.can_kong(table):
            return []  # no four alike and no pung to add to (most turns), or no kong allowed
        out: list[Action] = []
        while kind >= 0:
            out.append(ACTIONS.concealed_kong[seat][kind])
            out.append(Action("declare", seat, kind, (), MING_GANG))
            kind = hand.find(4, kind + 1)
        for meld in melds:
            if meld.type == "pung" and hand[meld.tiles[0]]:
                out.append(ACTIONS.added_kong[seat][meld.tiles[0]])
        return out

    def pre_draw_actions(self, table: TableView, seat: int) -> list[Action]:
        """Before the draw (after the YX-12 wall-end check): YX-27 游金胡 for a level >= 1 player, YX-30
        抢金胡 for a ready non-dealer at its first turn while nobody has claimed; YX-28 may forbid either."""
        levels = table.extras["you"]
        if not levels[seat] and table.draws[seat]:
            return []  # no 游 level, and past the first draw: neither declaration (every turn but a few)
        gold = table.extras["gold"]
        out = []
        if levels[seat] >= 1 and you_state_allows(YOU_JIN, seat, levels):
            out.append(Action("declare", seat, gold, (), YOU_JIN))
        if (seat != table.dealer and table.calls == 0 and table.draws[seat] == 0
                and table.extras["indicator"] >= 0 and you_state_allows("rob_gold", seat, levels)
                and self._waits_of(table, seat) >> gold & 1):
            out.append(Action("declare", seat, gold, (), QIANG_JIN))
        return out

    def pre_draw_window(self, table: TableView, seat: int) -> bool:
        """With ``claim_window="all"``: ask on public facts alone, so that being asked does not show that a
        seat waits on the gold (YX-30 抢金 needs that): a 游 level, or a non-dealer's first turn while nobody
        has claimed and the indicator lies (it then passes when it cannot 抢金)."""
        levels = table.extras["you"]
        if levels[seat] >= 1 and you_state_allows(YOU_JIN, seat, levels):
            return True
        return (seat != table.dealer and table.calls == 0 and table.draws[seat] == 0
                and table.extras["indicator"] >= 0 and you_state_allows("rob_gold", seat, levels))

    def on_declare(self, table: TableView, action: Action) -> tuple[Effects, WinSource | None]:
        if action.flag == YOU_JIN:
            return (), YOU_JIN
        if action.flag == QIANG_JIN:
            # The indicator joins the hand as its winning tile and acts as a gold (YX-30).
            return (GiveTile(action.seat, action.tile, "rob_gold"), SetState("indicator", -1)), "rob_gold"
        return super().on_declare(table, action)

    def declares_kong(self, table: TableView, action: Action) -> bool:
        """YX-20/YX-22: the ``ming_gang`` declaration is a self-drawn fourth shown as 明杠; the engine offers it
        to robbers (its flag is in :attr:`robbable_kongs`), then makes it and draws the replacement from the
        tail (YX-13)."""
        return action.flag == MING_GANG

    def on_kong(self, table: TableView, seat: int, meld: Meld) -> Effects:
        """Count the kong (YX-12 reserve, YX-23 limit, YX-45 rotation); YX-24: no kong money."""
        return (SetState("kongs", table.extras["kongs"] + 1), SetState("last_kong", [seat, int(meld.concealed)]))

    def replacement_ends_hand(self, table: TableView, seat: int) -> bool:
        """YX-23: after the last allowed kong's replacement draw its maker wins or the hand ends at once as a
        drawn hand (YX-44), without a discard; YX-45 then passes the deal (a kong was made)."""
        kongs: int = table.extras["kongs"]
        return kongs >= self.options.max_kongs

    # -- YX-25 -------------------------------------------------------------------------------------------
    def you_discards(self, table: TableView, seat: int) -> list[int]:
        """YX-25: physical kinds whose discard now would leave ``seat``'s hand in 游 shape (a gold discard
        among them raises the level to 双游/三游, YX-26). Empty unless the hand is a winning size and holds a
        gold."""
        gold = table.extras["gold"]
        hand = table.hands[seat]
        melds = table.melds[seat]
        if not hand[gold] or sum(hand) != 14 - 3 * len(melds):
            return []
        return _kind_list(_core.yunxiao_you_discards(hand, gold, _meld_tiles(melds), len(melds)))

    # -- restoring a saved game -------------------------------------------------------------------------
    def set_aside(self, extras: Mapping[str, Any]) -> tuple[int, ...]:
        """YX-6: the gold indicator, while it lies (YX-30 抢金 takes it)."""
        indicator = extras.get("indicator")
        return (indicator,) if type(indicator) is int and 0 <= indicator < 34 else ()  # noqa: E721

    def stand_in(self, extras: Mapping[str, Any]) -> tuple[int, int] | None:
        """YX-7: a chow records a 白板 as the gold's kind."""
        gold = extras.get("gold")
        return (gold, WHITE) if type(gold) is int and 0 <= gold < 34 and gold != WHITE else None  # noqa: E721

    def check_state(self, table: TableView, actions: Sequence[Action]) -> None:
        """YX-6, YX-16, YX-23, YX-26, YX-30: see :func:`.state.check_state`."""
        check_state(self, table, actions, type(self).on_discard is YunxiaoRules.on_discard)

    # -- scoring and rotation: YX-38..YX-46 -------------------------------------------------------------
    def win_context(self, table: TableView, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        """The facts :func:`~.scoring.score_win` needs: physical tiles, the event, the 游 level, the gold."""
        gold = table.extras["gold"]
        event = self.event(table, seat, source)
        if source == YOU_JIN:
            tile = gold  # the floating gold is the winning tile; no tile is added (YX-27)
        without = -1 if event in ("discard", "di_hu", "rob_kong") else tile
        return WinContext(
            winner=seat, win_tile=tile, concealed=_kinds(table.hands[seat], without),
            melds=tuple(table.melds[seat]), discarder=discarder, dealer=table.dealer,
            num_players=table.num_players, first_dealer=table.first_dealer,
            kong_replacement=source == "replacement", robbed_kong=source == "robbed_kong",
            heavenly=event == "tian_hu", earthly=event == "di_hu", winners_on_tile=winners_on_tile,
            gold=gold, event=event, you_level=table.extras["you"][seat] if event == YOU_JIN else 0,
        )

    def describe_facts(self, extras: Mapping[str, Any]) -> list[Fact]:
        """YX-5..7: the gold (wild) and 白板 playing as the gold's face; the gold tile taken by 抢金 (YX-30);
        YX-23: kongs made of ``max_kongs``; YX-26: each seat's 游 level."""
        facts = []
        gold = tile_of(extras, "gold")
        if gold >= 0:
            name = f"{kind_name(gold)} {kind_name(gold, 'chinese')}"
            facts.append(Fact("金", "Gold", f"{name} is wild: it stands in for any tile", (gold,)))
            facts.append(Fact("白板", "White Dragon", f"plays as the gold's face, {name}", (WHITE,)))
            if extras.get("indicator") == -1:
                facts.append(Fact("抢金", "Gold robbed", "the turned-up gold was taken into a hand (抢金)"))
        kongs = extras.get("kongs")
        if type(kongs) is int and kongs > 0:
            facts.append(Fact("杠", "Kongs", f"{kongs} of {self.options.max_kongs} made (the last ends the hand "
                              "unless its maker wins on the replacement)"))
        for seat, level in enumerate(seat_values(extras, "you")):
            if type(level) is int and level in YOU_LEVELS:
                facts.append(Fact("游金", "Swimming gold", f"{seat_label(seat)}: {YOU_LEVELS[level]}", (), seat))
        return facts

    def pattern_names(self) -> Mapping[str, tuple[str, str]]:
        """YX-29..41: the hand patterns, events and 游金 levels a result reports."""
        return {name: (chinese, PATTERN_ENGLISH[name]) for name, chinese in PATTERN_CHINESE.items()}

    def score(self, context: WinContext) -> ScoreResult:
        """YX-38..YX-43 (:func:`.scoring.score_win`); ``value`` is the total the winner receives."""
        return score_win(self.prepare(context), self.options)

    def next_dealer(self, table: TableView, winners: Sequence[int]) -> int:
        """YX-45: the winner deals; after a drawn hand the dealer repeats unless a kong was made (then its
        下家 deals)."""
        if winners:
            return winners[0]
        return table.dealer if not table.extras["kongs"] else (table.dealer + 1) % table.num_players

    def next_round(self, round_wind: int, dealer: int, next_dealer: int, first_dealer: int
                   ) -> tuple[int, bool]:
        """YX-46: no round winds; a session lasts as many hands as the caller plays."""
        return (round_wind, False)

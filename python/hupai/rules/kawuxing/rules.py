"""卡五星 Kawuxing: the rule object the table engine consults (flow, 亮倒, kong money), over :mod:`.scoring`.

Flow rules (``../shared/rules/kawuxing.md``), each answered by a hook here or a base default:

- KW-1 (:meth:`tiles`): 84 tiles, 筒 条 and the three dragons. KW-2 three players; KW-4 dealer 14, others 13,
  no dead wall (every tile is drawn: the base ``can_draw``); the first dealer is drawn by ``Match``.
- KW-5 turns (engine). KW-6 the last tile (:meth:`forbidden_discards`: discard it as drawn; no kong since no
  replacement remains, KW-7; the base ``melds_claimable``: its discard may only be won on).
- KW-8 no chow (:meth:`chow_seats`); KW-9 胡 > 杠/碰, every winner stands (``multiple_winners``).
- KW-10 漏胡 any tile until the next draw (``louhu="any_tile"``; a claim does not lift it); robbing a kong too
  unless ``louhu_scope="discards"`` (``louhu_blocks_robbing``).
- KW-11 kong timing (:meth:`kong_options`): 暗杠 of the tile just drawn (any dealt quad in the first turn),
  补杠 only with a freshly drawn fourth; 直杠 on a discard (:meth:`claim_options`).
- KW-12..15 kong money in base units (:meth:`on_kong` returns a ``Pay``), the 杠上杠 chain in
  ``extras["chain"]``; a robbed 补杠 is never made, so it pays nothing; money paid stands on a drawn hand.
- KW-16..18 亮倒: a discard with the flag :data:`LIANGDAO` (:meth:`turn_extras` offers it when the 13 tiles
  after the discard are ready; :meth:`on_declare` records ``extras["liangdao"]`` and the declarer's concealed
  tiles in ``extras["revealed"]``, public by the rule). Frozen hand: 摸切 (:meth:`forbidden_discards`), no 碰,
  暗杠/直杠 only when the waits are unchanged, 补杠 always (:meth:`kong_options`, :meth:`claim_options`).
- Restoring (:meth:`check_state`, :mod:`.state`): the state must be what the actions left.
- KW-19..26 (:meth:`win_context`, :meth:`score`): 亮倒 and 杠上炮 are the context's typed ``declared_ready`` and
  ``discard_after_kong``.
- KW-27 (:meth:`drawn_settlement`, :meth:`on_drawn`): the 荒庄 payments by the number of 亮倒 players, paid when
  the hand ends drawn. KW-28 (:meth:`next_dealer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np

from ..._core import discard_scores
from ..._core import waits as _core_waits
from ...actions import ACTIONS, Action
from ...analysis import shanten
from ...hand import Meld
from ...scoring import ScoreResult, WinContext
from ..base import Rules, WinSource
from ..contract import Capabilities, Effects, Pay, SetState, TableView
from ..facts import Fact, seat_label, seat_values
from ..patterns import names_of
from .options import KawuxingOptions
from .patterns import FACTORS
from .scoring import FORMS, KINDS, PLAYERS, score_win
from .state import LIANGDAO, check_state

__all__ = ["KawuxingRules", "LIANGDAO", "KAWUXING_TILES", "KONG_MONEY", "hand_waits", "kong_type"]

#: KW-1: four of each of 1p..9p, 1s..9s, 5z 6z 7z.
KAWUXING_TILES: tuple[int, ...] = tuple(kind for kind in sorted(KINDS) for _ in range(4))

#: KW-12: what each payer pays for a kong, in base units (x ``base``), by kind of kong (before the KW-13 chain
#: doubling). The spec gives every payment in base units (its notation; KW-27's 1 x base), and the seed prices
#: 喜钱 in 番 of 底金 like a hand's value, so ``base`` scales kong money too; 亮倒 and ``cap`` never do (KW-15).
KONG_MONEY = {"concealed": 2, "added": 1, "exposed": 2}

_NO_JOKERS = (1 << 34) - 1  # the core's joker-kinds mask; with no jokers it does not matter


def hand_waits(counts: bytearray, melds: int, forms: int) -> list[int]:
    """The core's waits of a counts hand (the checked ``hupai.waits`` would read a bytearray as tile text)."""
    return _core_waits(np.frombuffer(counts, dtype=np.uint8), 0, melds, forms, _NO_JOKERS)


# The 亮倒 discards (KW-16), per seat and kind, made once: turn_extras offers these objects.
_LIANGDAO = tuple(tuple(Action("discard", seat, kind, (), LIANGDAO) for kind in range(34)) for seat in range(PLAYERS))

# For each kind, every other kind: the 摸切 restriction of a frozen hand or the last tile (KW-6, KW-17).
_ALL_BUT = tuple(frozenset(k for k in range(34) if k != kind) for kind in range(34))


def kong_type(meld: Meld) -> str:
    """``"concealed"`` (暗杠), ``"added"`` (补杠) or ``"exposed"`` (直杠 on a discard)."""
    if meld.concealed:
        return "concealed"
    return "added" if meld.added else "exposed"


_NAMES = names_of(FACTORS)


class KawuxingRules(Rules):
    """Kawuxing (``rules/kawuxing.md``). Build with ``hupai.rules.get("kawuxing", **options)``."""

    name: ClassVar[str] = "kawuxing"
    pattern_unit: ClassVar[str] = "×"  # KW-20: factors multiply
    capabilities: ClassVar[Capabilities] = Capabilities(
        custom_claims=True, chow_seats=True, forbidden_discards=True, turn_extras=True, kong_options=True,
        on_drawn=True, turn_is_plain=True, claims_in_shapes=True)
    claim_priority: ClassVar[dict[str, int]] = {"win": 3, "kong": 2, "pung": 2}  # KW-9
    #: KW-20 factors read the event flags and 亮倒; no winds, no 天胡/地胡 (KW-20 has none).
    context_fields: ClassVar[frozenset[str] | None] = frozenset({
        "kong_replacement", "robbed_kong", "last_tile", "declared_ready", "discard_after_kong"})
    multiple_winners = True  # KW-9: 一炮双响, and two robbers of one kong
    robbable_kongs = frozenset({"added"})  # KW-14
    louhu = "any_tile"  # KW-10
    louhu_clears_on_claim = False  # KW-10: only the player's next draw ends the block
    num_players = PLAYERS  # KW-2
    hand_size = 13  # KW-4
    win_forms = FORMS  # KW-19
    action_flags: ClassVar[Mapping[str, tuple[str, ...]]] = {"discard": (LIANGDAO,)}
    public_facts: ClassVar[Mapping[str, str]] = {"liangdao": "seat_bools", "revealed": "seat_tiles",
                                                 "chain": "ints:3"}

    def __init__(self, options: Mapping[str, Any] | KawuxingOptions | None = None) -> None:
        self.options = KawuxingOptions.from_mapping(options)
        self._options_dict = self.options.to_dict()
        self._forms = int(self.win_forms)
        # House rules (options.py): KW-17 a 亮倒 hand wins by self-draw only. KW-10: a 漏胡 block stops robbing a
        # kong under either louhu_scope: the seed's 九.2 "打出的牌" is 七.2's, where 点炮胡 includes 抢杠胡 (KW-18).
        self._self_draw_only = self.options.liangdao_wins == "self_draw"
        self.louhu_blocks_robbing = True

    def options_dict(self) -> dict[str, Any]:
        return dict(self._options_dict)

    def __repr__(self) -> str:
        return f"KawuxingRules({self.options_dict()!r})"

    # -- setup: KW-1, KW-4 ----------------------------------------------------------------------------
    def tiles(self) -> Sequence[int]:
        return KAWUXING_TILES

    def on_deal(self, table: TableView) -> Effects:
        """The public Kawuxing state: who has declared 亮倒, the declarers' shown tiles, the kong chain
        ``[seat, length, that seat's discards when it made the kong]`` (KW-13)."""
        n = table.num_players
        return (SetState("liangdao", [False] * n), SetState("revealed", [[] for _ in range(n)]),
                SetState("chain", [-1, 0, 0]))

    def describe_facts(self, extras: Mapping[str, Any]) -> list[Fact]:
        """KW-16: each 亮倒 seat and the 13 tiles it shows (its concealed tiles, face up: ``hand``); KW-13: the
        last kong's place in its 杠上杠 chain, which doubles the kong money."""
        facts = []
        revealed = seat_values(extras, "revealed")
        for seat, declared in enumerate(seat_values(extras, "liangdao")):
            if declared is True:
                tiles = revealed[seat] if seat < len(revealed) else ()
                shown = tuple(tiles) if isinstance(tiles, (list, tuple)) else ()
                facts.append(Fact("亮倒", "Declared ready", f"{seat_label(seat)} shows its hand: it waits, and may "
                                  "only draw and discard (摸切)", shown, seat, hand=True))
        if not facts and seat_values(extras, "liangdao"):
            facts.append(Fact("亮倒", "Declared ready", "nobody yet"))
        chain = seat_values(extras, "chain")
        if len(chain) == 3 and type(chain[0]) is int and chain[0] >= 0 and type(chain[1]) is int and chain[1] > 0:
            seat, length = chain[0], chain[1]
            text = f"{seat_label(seat)}'s last kong" + (f" was number {length} of a chain, paid ×{1 << (length - 1)}"
                                                       if length > 1 else " started no chain (paid ×1)")
            facts.append(Fact("杠上杠", "Kong chain", text, (), seat))
        return facts

    def pattern_names(self) -> Mapping[str, tuple[str, str]]:
        """KW-20..22: the factors' names."""
        return _NAMES

    # -- claims: KW-8, KW-9, KW-17 --------------------------------------------------------------------
    def chow_seats(self, table: TableView, discarder: int) -> tuple[int, ...]:
        return ()  # KW-8: no chow

    def claim_options(self, table: TableView, tile: int, discarder: int) -> dict[int, list[Action]]:
        """胡, 直杠 and 碰 on a discard; a 亮倒 hand never 碰s and 直杠s only when its waits stay the same
        (KW-17). The last tile's discard may only be won on (KW-6)."""
        liangdao = table.extras["liangdao"]
        claimable = self.melds_claimable(table)
        kong_ok = claimable and self.can_kong(table)
        n = table.num_players
        out: dict[int, list[Action]] = {}
        for step in range(1, n):
            seat = (discarder + step) % n
            hand = table.hands[seat]
            options: list[Action] = []
            declared = liangdao[seat]
            if (table.ready_bytes[seat] and not (declared and self._self_draw_only)
                    and self.completes(table, seat, tile, False)):
                options.append(ACTIONS.win[seat][tile])
            if claimable and hand[tile] >= 2:
                if hand[tile] == 3 and kong_ok and (not declared or self.keeps_waits(table, seat, tile, 3)):
                    options.append(ACTIONS.exposed_kong[seat][tile])
                if not declared:
                    options.append(ACTIONS.pung[seat][tile])
            if options:
                out[seat] = options
        return out

    def may_win(self, table: TableView, seat: int, tile: int, source: WinSource) -> bool:
        """KW-17's house rule ``liangdao_wins="self_draw"``: a 亮倒 hand may not rob a kong (nor win on a
        discard: :meth:`claim_options` does not offer it)."""
        return not (self._self_draw_only and source == "robbed_kong" and table.extras["liangdao"][seat])

    # -- own turn: KW-6, KW-11, KW-16, KW-17 ----------------------------------------------------------
    def waiting_kinds(self, table: TableView, seat: int) -> frozenset[int]:
        """The kinds completing ``seat``'s waiting hand (its concealed tiles without the one just drawn)."""
        counts = bytearray(table.hands[seat])
        if table.turn_seat == seat and table.phase == "turn" and table.drawn >= 0:
            counts[table.drawn] -= 1
        return frozenset(hand_waits(counts, len(table.melds[seat]), self._forms))

    def keeps_waits(self, table: TableView, seat: int, kind: int, held: int) -> bool:
        """KW-17: would a kong of ``kind`` (``held`` of them leaving the concealed tiles: 4 for 暗杠, 3 for
        直杠) leave the set of winning kinds as it is?"""
        before = self.waiting_kinds(table, seat)
        counts = bytearray(table.hands[seat])
        counts[kind] -= held
        if held == 4 and table.drawn >= 0 and table.drawn != kind:
            counts[table.drawn] -= 1  # the drawn tile is not part of the waiting hand
        after = frozenset(hand_waits(counts, len(table.melds[seat]) + 1, self._forms))
        return before == after

    def kong_options(self, table: TableView, seat: int) -> list[Action]:
        """KW-11: 暗杠 of the tile just drawn, or of any quad in the player's first turn (dealt quads); 补杠
        only with a freshly drawn fourth; KW-17: a 亮倒 hand 暗杠s only if its waits stay the same."""
        if not self.can_kong(table):
            return []
        hand = table.hands[seat]
        drawn = table.drawn
        declared = table.extras["liangdao"][seat]
        first_turn = table.discards_made[seat] == 0
        out: list[Action] = []
        kind = hand.find(4)  # the counts are bytes: find the kinds held four times
        while kind >= 0:
            if (kind == drawn or first_turn) and (not declared or self.keeps_waits(table, seat, kind, 4)):
                out.append(ACTIONS.concealed_kong[seat][kind])
            kind = hand.find(4, kind + 1)
        if drawn >= 0:
            for meld in table.melds[seat]:
                if meld.type == "pung" and meld.tiles[0] == drawn:
                    out.append(ACTIONS.added_kong[seat][drawn])
        return out

    def turn_is_plain(self, table: TableView, seat: int) -> bool:
        """The common turn, decided without the turn hooks: the wall is not empty (KW-6: the last tile's drawer
        discards it), the seat has not declared 亮倒 (KW-17: it discards what it drew), and its hand is at least
        two tiles from complete, so that no discard leaves it ready (KW-16: no 亮倒 to offer) and it is not
        complete. The engine adds the core's kong test (KW-11: a quad held, or a held tile of an exposed pung)."""
        wall = table.wall
        return (wall.tail != wall.head and not table.extras["liangdao"][seat]
                and shanten(table.hands[seat], melds=len(table.melds[seat]), forms=self._forms) > 0)

    def plain_turn_mask(self, table: TableView) -> int:
        """:meth:`turn_is_plain` as the core can judge it over a run of unclaimed turns: the seats that declared
        亮倒 (their flags change only by a declaration); no chows (KW-8)."""
        mask = 0
        for seat, declared in enumerate(table.extras["liangdao"]):
            if declared:
                mask |= 1 << seat
        return mask

    def forbidden_discards(self, table: TableView, seat: int) -> frozenset[int]:
        """KW-6: the player who drew the last tile discards that tile; KW-17: a 亮倒 hand discards what it
        drew (摸切)."""
        drawn = table.drawn
        if drawn >= 0 and (table.wall.live == 0 or table.extras["liangdao"][seat]):
            return _ALL_BUT[drawn]
        return frozenset()

    def turn_extras(self, table: TableView, seat: int) -> list[Action]:
        """KW-16: discards that declare 亮倒, one per kind whose discard leaves a ready hand: one that some tile
        would complete. A wait only on a fifth copy (the other four of the kind in the player's own hand and
        melds) is not one: such a hand can never win, and 亮倒 would freeze it for nothing."""
        if table.extras["liangdao"][seat]:
            return []
        hand = table.hands[seat]
        melds = len(table.melds[seat])
        if shanten(hand, melds=melds, forms=self._forms) > 0:
            return []  # no discard can leave this hand ready (the cheaper question first: most hands)
        # One core call says which discards leave a ready hand (shanten 0 after it: a score of at least 0, see
        # _core.discard_scores); only their waits are asked (asking every held kind's waits was most of this hook's
        # cost at a ready hand's turn).
        scores = discard_scores(hand, 0, melds, self._forms, None)
        forbidden = self.forbidden_discards(table, seat)
        shown = [0] * 34  # the seat's own copies in its melds
        for meld in table.melds[seat]:
            shown[meld.tiles[0]] += len(meld.tiles)
        out = []
        counts = bytearray(hand)
        flagged = _LIANGDAO[seat]
        for kind in range(34):
            if scores[kind] < 0 or kind in forbidden:  # (a kind not held scores below 0 too)
                continue
            counts[kind] -= 1
            if any(counts[wait] + shown[wait] < 4 for wait in hand_waits(counts, melds, self._forms)):
                out.append(flagged[kind])
            counts[kind] += 1
        return out

    def on_declare(self, table: TableView, action: Action) -> tuple[Effects, WinSource | None]:
        """KW-16: a 亮倒 discard shows the 13 tiles that stay (the discard is still in the hand here)."""
        if action.kind != "discard" or action.flag != LIANGDAO:
            return super().on_declare(table, action)
        seat = action.seat
        liangdao = list(table.extras["liangdao"])
        liangdao[seat] = True
        return (SetState("liangdao", liangdao),
                SetState("revealed", self._revealed(table, seat, table.concealed_kinds(seat, action.tile)))), None

    @staticmethod
    def _revealed(table: TableView, seat: int, kinds: Sequence[int]) -> list[list[int]]:
        revealed = [list(r) for r in table.extras["revealed"]]
        revealed[seat] = sorted(kinds)
        return revealed

    # -- kong money: KW-12..15 ------------------------------------------------------------------------
    def chain_length(self, table: TableView, seat: int, meld: Meld) -> int:
        """KW-13: the place of this kong in its 杠上杠 chain (1 if it starts one)."""
        length = table.extras["chain"][1]
        if meld.claimed_from is not None and kong_type(meld) == "exposed":
            # On the discard its maker made right after drawing a kong replacement.
            continues = self.after_kong_discard(table, meld.claimed_from)
        else:
            chain_seat = table.extras["chain"][0]
            continues = table.drawn_from == "replacement" and chain_seat == seat
        return length + 1 if continues else 1

    def on_kong(self, table: TableView, seat: int, meld: Meld) -> Effects:
        """KW-12, KW-13: the kong money (x ``base``), doubled along a chain; the chain noted; a 亮倒 maker's shown
        tiles updated (its quad is a meld now)."""
        kind = kong_type(meld)
        length = self.chain_length(table, seat, meld)
        amount = (KONG_MONEY[kind] * self.options.base) << (length - 1)
        amounts = [0] * table.num_players
        if kind == "exposed":
            assert meld.claimed_from is not None
            amounts[meld.claimed_from] = -amount
            amounts[seat] = amount
        else:
            for other in range(table.num_players):
                if other != seat:
                    amounts[other] = -amount
                    amounts[seat] += amount
        effects: list[Any] = [Pay(tuple(amounts), seat, "kong"),
                              SetState("chain", [seat, length, table.discards_made[seat]])]
        if table.extras["liangdao"][seat]:
            effects.append(SetState("revealed", self._revealed(table, seat, table.concealed_kinds(seat))))
        return tuple(effects)

    # -- scoring and rotation: KW-18..28 --------------------------------------------------------------
    def after_kong_discard(self, table: TableView, discarder: int) -> bool:
        """Is ``discarder``'s last discard the one it made right after drawing a kong replacement (杠上炮)?"""
        chain_seat, _, discards = table.extras["chain"]
        return bool(chain_seat == discarder and table.discards_made[discarder] == discards + 1)

    def win_context(self, table: TableView, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        context = super().win_context(table, seat, tile, source, discarder, winners_on_tile)
        pao = source == "discard" and discarder is not None and self.after_kong_discard(table, discarder)
        context = replace(context, declared_ready=bool(table.extras["liangdao"][seat]), discard_after_kong=pao)
        if self.options.hai_di_lao_yue == "last_tile" and source == "discard" and table.wall.live == 0:
            # KW-20's house rule: the final discard (KW-6) is the 84th tile too; set only under the option, so
            # the spec's contexts (and logs) stay as they were.
            context = replace(context, last_tile=True)
        return context

    def score(self, context: WinContext) -> ScoreResult:
        """KW-20..KW-26 (:func:`.scoring.score_win`); ``value`` is what each payer pays: ``base`` x the capped
        factor product."""
        return score_win(self.prepare(context), self.options)

    def drawn_settlement(self, table: TableView) -> tuple[int, ...]:
        """KW-27 荒庄: each 亮倒 player pays ``base`` to each player who has not declared (kong money stands
        and is not part of this)."""
        liangdao = table.extras["liangdao"]
        base = self.options.base
        amounts = [0] * table.num_players
        for payer, declared in enumerate(liangdao):
            if declared:
                for other, other_declared in enumerate(liangdao):
                    if not other_declared:
                        amounts[payer] -= base
                        amounts[other] += base
        return tuple(amounts)

    def on_drawn(self, table: TableView) -> Effects:
        """KW-27: the 荒庄 payments by the number of 亮倒 players, applied by the engine when the hand ends
        drawn (on top of the kong money already paid, KW-15)."""
        amounts = self.drawn_settlement(table)
        return (Pay(amounts, -1, "huangzhuang"),) if any(amounts) else ()

    def check_state(self, table: TableView, actions: Sequence[Action]) -> None:
        """A restored game's Kawuxing state must be what its actions left (:func:`.state.check_state`)."""
        check_state(table, actions)

    def next_dealer(self, table: TableView, winners: Sequence[int]) -> int:
        """KW-28: a single winner deals; after 一炮双响 or a double rob the discarder (the robbed player)
        deals; after 荒庄 the dealer repeats."""
        if not winners:
            return table.dealer
        if len(winners) == 1:
            return winners[0]
        return table.kong_seat if table.kong_seat >= 0 else table.discarder

    def next_round(self, round_wind: int, dealer: int, next_dealer: int, first_dealer: int
                   ) -> tuple[int, bool]:
        """No round winds in Kawuxing: a session lasts as many hands as the caller plays."""
        return (round_wind, False)

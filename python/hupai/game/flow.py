"""The mechanics of one hand: deal, draws, discards, claims, kongs, wins and the end of the wall.

:class:`HandFlow` mutates the :class:`~hupai.game.state.Table` and appends events
(:class:`~hupai.events.Event`). Its methods are only called with actions the
:class:`~hupai.game.game.Game` has already found legal, so none of them can fail half-way (validate first,
then mutate: no copies needed to keep a rejected action harmless). Every rule question goes to
``self.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..events import Event, RawEvent
from ..hand import Meld
from ..rules.base import Rules
from . import claims
from .result import HandResult, WinResult
from .state import Table
from .wall import Wall, shuffle

__all__ = ["HandFlow"]


@dataclass(frozen=True, slots=True)
class Hooks:
    """Which optional hooks a rule system overrides. Hooks left at their (empty) defaults are not called on
    the hot path: a speed-up only, decided from the rules object's class, never from its name. (Slots, not a
    NamedTuple: the interpreter reads slots fastest.)"""

    pre_draw: bool
    forbidden: bool
    extras: bool
    kongs: bool  # a custom kong_options may offer kongs that the quick check (four held, a meld) would miss
    last_kong: bool  # replacement_ends_hand may say True (a kong after which the hand ends unless won)
    declared_kongs: bool  # declares_kong may say True (a rule-specific declaration that makes a kong)
    discards: bool  # on_discard keeps rule-specific state
    # A turn is the core's question alone (``_core.turn_scan``: a complete hand, a possible kong, else the
    # discards): completes and ready are the base's, no turn hook (forbidden, extras, kongs, last_kong) is
    # overridden.
    plain_turns: bool
    forms: int  # int(rules.win_forms), read once

    @classmethod
    def of(cls, rules: Rules) -> Hooks:
        kind = type(rules)
        forbidden = kind.forbidden_discards is not Rules.forbidden_discards
        extras = kind.turn_extras is not Rules.turn_extras
        kongs = kind.kong_options is not Rules.kong_options
        last_kong = kind.replacement_ends_hand is not Rules.replacement_ends_hand
        plain = kind._core_completes and not (forbidden or extras or kongs or last_kong)
        return cls(kind.pre_draw_actions is not Rules.pre_draw_actions, forbidden, extras, kongs, last_kong,
                   kind.declares_kong is not Rules.declares_kong, kind.on_discard is not Rules.on_discard, plain,
                   int(rules.win_forms))


class HandFlow:
    """State and transitions of one hand (the public API is :class:`~hupai.game.Game`)."""

    rules: Rules
    table: Table
    _events: list[Event | RawEvent]  # draws and discards as plain tuples (cheaper); Game.events converts
    _result: HandResult | None
    _hooks: Hooks

    # -- setup ------------------------------------------------------------------------------------------
    def _deal(self, seed: int, dealer: int, round_wind: int, first_dealer: int,
              stacked: list[int] | None = None) -> None:
        rules = self.rules
        n = rules.num_players
        wall = Wall(shuffle(rules.tiles(), seed) if stacked is None else list(stacked))
        winds = rules.seat_winds(dealer, first_dealer)
        table = self.table = Table(n, dealer, first_dealer, round_wind, winds, wall)
        events = self._events
        size = rules.hand_size
        tiles = wall.tiles
        for offset in range(n):
            seat = (dealer + offset) % n
            hand = table.hands[seat]
            dealt = tiles[wall.head:wall.head + size]
            wall.head += size
            for tile in dealt:
                hand[tile] += 1
            events.append(Event("deal", seat, -1, tuple(sorted(dealt))))
        # The dealer's extra tile is kept as its "drawn" tile so a dealt win (天和) has a winning tile.
        extra = wall.draw()
        table.hands[dealer][extra] += 1
        events.append(Event("deal", dealer, extra, (), "extra"))
        rules.on_deal(table)
        table.turn_seat = dealer
        table.drawn = extra
        table.drawn_from = "dealt"

    # -- turn mechanics ---------------------------------------------------------------------------------
    def _draw(self, seat: int, source: str) -> None:
        table = self.table
        wall = table.wall
        if source == "replacement" and self.rules.replacement_from_tail:
            wall.tail -= 1
            tile = wall.tiles[wall.tail]
        else:
            tile = wall.tiles[wall.head]
            wall.head += 1
        table.hands[seat][tile] += 1
        table.drawn = tile
        table.drawn_from = source
        table.draws[seat] += 1
        if table.missed[seat] or table.missed_all[seat]:  # drawing is a move: the 漏胡 block ends (GD-11)
            table.missed[seat].clear()
            table.missed_all[seat] = False
        table.phase = "turn"
        table.turn_seat = seat
        self._events.append(("draw", seat, tile, (), source))  # a raw Event (see Game.events)

    def _discard(self, seat: int, tile: int, flag: str) -> None:
        table = self.table
        table.hands[seat][tile] -= 1
        if tile != table.drawn:
            table.ready[seat] = None  # a 摸切 discard leaves the waiting hand as it was
        table.discards[seat].append(tile)
        table.discards_made[seat] += 1
        table.last_discard = tile
        table.discarder = seat
        table.drawn = -1
        table.drawn_from = ""
        self._events.append(("discard", seat, tile, (), flag))
        table.phase = "claim"
        if self._hooks.discards:
            self.rules.on_discard(table, seat, tile)
        # Outside a claim window ``pending`` and ``answers`` are empty: every way out of one clears them.
        options = self.rules.claim_options(table, tile, seat)
        if options:
            pending = claims.collect(self.rules, table, tile, options)
            if pending:
                table.pending = pending
                return
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        """``seat``'s discard went unclaimed: its 下家's turn starts with the wall-end check, pre-draw
        declarations, then the draw (the discard has already cleared ``drawn``)."""
        table = self.table
        table.kong_from = -1
        seat = (seat + 1) % table.num_players
        table.turn_seat = seat
        if not self.rules.can_draw(table):
            self._end_drawn()
            return
        if self._hooks.pre_draw and self.rules.pre_draw_actions(table, seat):
            table.phase = "predraw"
            return
        self._draw(seat, "wall")

    def _add_meld(self, seat: int, meld: Meld, replace: int = -1) -> None:
        table = self.table
        melds = table.melds[seat]
        if replace >= 0:
            melds[replace] = meld
        else:
            melds.append(meld)
            table.meld_order.append((seat, len(melds) - 1))
        table.calls += 1
        table.ready[seat] = None
        self._events.append(Event(meld.type, seat, -1 if meld.claimed_tile is None else meld.claimed_tile,
                                  meld.tiles, "" if meld.claimed_from is None else str(meld.claimed_from)))

    def _claim(self, action: Action) -> None:
        """Carry out the winning meld claim on the discard."""
        table = self.table
        seat, discarder = action.seat, table.discarder
        hand = table.hands[seat]
        table.discards[discarder].pop()
        if self.rules.louhu_clears_on_claim:
            table.missed[seat].clear()
            table.missed_all[seat] = False
        table.pending = {}
        table.answers = {}
        # The rules say which tiles leave the hand and what meld they make: they differ where a tile plays as
        # another kind (Yunxiao's 白板 as the gold's face, YX-7).
        used, meld = self.rules.claim_meld(table, action)
        for kind in used:
            hand[kind] -= 1
        self._add_meld(seat, meld)
        if meld.type == "kong":
            self._after_kong(seat, meld, discarder)
            return
        table.phase = "turn"
        table.turn_seat = seat
        table.drawn = -1
        table.drawn_from = ""
        table.kong_from = -1

    def _own_kong(self, seat: int, tile: int, flag: str) -> None:
        """A kong in ``seat``'s own turn: ``concealed`` (暗杠), ``added`` (补杠 onto its pung), or a rule
        system's declared kong of four held (:meth:`~hupai.rules.base.Rules.declares_kong`, flag = the
        declaration's). Robbable if ``flag`` is in the rules' ``robbable_kongs``."""
        table = self.table
        if flag == "concealed":
            table.hands[seat][tile] -= 4
            meld = Meld("kong", (tile,) * 4, concealed=True)
            self._add_meld(seat, meld)
            self._after_kong(seat, meld, -1)
            return
        if flag in self.rules.robbable_kongs:
            robbers = claims.collect_robbers(self.rules, table, tile, seat)
            if robbers:
                table.phase = "rob"
                table.kong_tile = tile
                table.kong_seat = seat
                table.pending = robbers
                table.answers = {}
                self._events.append(Event("rob", seat, tile, (), flag))
                return
        self._complete_own_kong(seat, tile)

    def _complete_own_kong(self, seat: int, tile: int) -> None:
        table = self.table
        melds = table.melds[seat]
        index = next((i for i, m in enumerate(melds) if m.type == "pung" and m.tiles[0] == tile), -1)
        if index < 0:
            # A declared kong (Rules.declares_kong): four held tiles shown as an exposed kong. A seat holding
            # four of a kind has no pung of it, so the two cases cannot be confused.
            table.hands[seat][tile] -= 4
            meld = Meld("kong", (tile,) * 4)
            self._add_meld(seat, meld)
        else:
            table.hands[seat][tile] -= 1
            pung = melds[index]
            meld = Meld("kong", (tile,) * 4, claimed_from=pung.claimed_from, added=True,
                        claimed_tile=pung.claimed_tile)
            self._add_meld(seat, meld, replace=index)
        self._after_kong(seat, meld, -1)

    def _after_kong(self, seat: int, meld: Meld, kong_from: int) -> None:
        table = self.table
        table.kong_tile = -1
        table.kong_seat = -1
        table.pending = {}
        table.answers = {}
        money = self.rules.on_kong(table, seat, meld)
        if money:
            table.payments = [a + b for a, b in zip(table.payments, money, strict=True)]
            self._events.append(Event("payment", seat, -1, tuple(money), "kong"))
        self._draw(seat, "replacement")
        table.kong_from = kong_from

    # -- claim resolution -------------------------------------------------------------------------------
    def _answer(self, action: Action) -> None:
        table = self.table
        table.answers[action.seat] = action
        if len(table.answers) < len(table.pending):
            return
        rob = table.phase == "rob"
        source = table.kong_seat if rob else table.discarder
        tile = table.kong_tile if rob else table.last_discard
        winners, claim = claims.resolve(self.rules, table, source)
        claims.record_missed(self.rules, table, tile, frozenset(winners))
        if winners:
            if rob:
                table.hands[source][tile] -= 1  # the added tile goes to the robbers
                table.ready[source] = None
            self._settle([(seat, tile, "robbed_kong" if rob else "discard", source) for seat in winners])
        elif rob:
            table.pending = {}
            table.answers = {}
            self._complete_own_kong(source, tile)
        elif claim is not None:
            self._claim(claim)
        else:
            table.pending = {}
            table.answers = {}
            self._next_turn(source)

    # -- the end ----------------------------------------------------------------------------------------
    def _settle(self, wins: list[tuple[int, int, str, int | None]]) -> None:
        table = self.table
        rules = self.rules
        results = []
        payments = list(table.payments)
        for seat, tile, source, discarder in wins:
            context = rules.win_context(table, seat, tile, source, discarder, len(wins))
            score = rules.score(context)
            payments = [a + b for a, b in zip(payments, score.payments, strict=True)]
            results.append(WinResult(seat, tile, source, discarder, context, score))
            self._events.append(Event("win", seat, tile, (), source))
        winners = tuple(w[0] for w in wins)
        self._finish(HandResult(winners, tuple(results), tuple(payments),
                                rules.next_dealer(table, winners), False))

    def _end_drawn(self) -> None:
        table = self.table
        self._events.append(Event("drawn"))
        self._finish(HandResult((), (), tuple(table.payments), self.rules.next_dealer(table, ()), True))

    def _finish(self, result: HandResult) -> None:
        table = self.table
        table.phase = "over"
        table.pending = {}
        table.answers = {}
        self._result = result
        self._events.append(Event("end", -1, -1, tuple(result.payments), str(result.next_dealer)))

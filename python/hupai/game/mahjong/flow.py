"""The mahjong flow: one hand of the mahjong family (Guangdong, Yunxiao, next Kawuxing), hosted by the
:class:`~hupai.game.Game` shell.

Deal, draws (the drawn tile enters the hand), discards, claims on a discard, kongs and their replacement draws,
robbing a kong, wins, the wall end, settlement. :class:`MahjongFlow` owns and mutates the
:class:`~hupai.game.state.table.Table` and appends events (:class:`~hupai.events.Event`); every rule question goes to
``self.rules`` (a read-only view of the table in, answers and effects out: :mod:`hupai.rules.contract`), and
the paths taken follow what the rules declare in ``rules.capabilities``.

Its mutating methods are only called with actions the shell has already found legal, so none of them can fail
half-way (validate first, then mutate: no copies needed to keep a rejected action harmless).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._core import (
    claim_scan,
    count_kinds,
    discard_tile,
    held_actions,
    lean_chain,
    lean_turn,
    plain_turn,
    yunxiao_turn,
)
from ...actions import ACTIONS, Action
from ...events import EventLog, record, turn_record
from ...hand import MELD_WIDTH, Meld
from ...rules.base import Rules
from ...rules.contract import Effects, GiveTile, Pay, SetState, TakeFromTail
from ..flow import Decision
from ..result import HandResult, WinResult, close_hand
from ..state.compact import table_to_compact
from ..state.table import CLAIMED, READY_UNKNOWN, Table, copy_json
from ..state.wall import Wall, shuffle
from . import claims
from .claims import SCAN_ALL as _SCAN_ALL
from .illegal import illegal_reason
from .observation import Observer

__all__ = ["MahjongFlow"]

# Per table size n, per seat: the bit of its 下家 (who may chow: claim_scan's mask), and the 下家 itself. Made once
# here, not per hand.
_CHOWERS = {n: tuple(1 << ((seat + 1) % n) for seat in range(n)) for n in range(2, 5)}
_NEXT = {n: tuple((seat + 1) % n for seat in range(n)) for n in range(2, 5)}
# The records of the common events, per seat and kind (hupai.events.record), made once: the turn paths append
# these ints.
_DRAWS = {source: tuple(tuple(record("draw", seat, kind, source) for kind in range(34)) for seat in range(4))
          for source in ("wall", "replacement")}
_DISCARDS = tuple(tuple(record("discard", seat, kind) for kind in range(34)) for seat in range(4))
_DEALS = tuple(tuple(record("deal", seat, count=count) for count in range(64)) for seat in range(4))  # + the tiles
_EXTRAS = tuple(tuple(record("deal", seat, kind, "extra") for kind in range(34)) for seat in range(4))
_DRAWN = record("drawn")
# A plain turn's one record, per discarder, tile and drawn tile (hupai.events.turn_record): the lean turn's.
_TURNS = tuple(tuple(tuple(turn_record(seat, kind, drawn) for drawn in range(34)) for kind in range(34))
               for seat in range(4))
# The same, flat (index (seat * 34 + tile) * 34 + drawn): what _core.lean_chain takes its runs' records from.
_TURN_RECORDS = tuple(by_drawn for by_tile in _TURNS for by_kind in by_tile for by_drawn in by_kind)

# A meld's header (its tiles follow), per type, seat, claimed tile and the seat claimed from; index -1 (the last
# entry) stands for None: no claimed tile, no seat claimed from.
_MELDS = {kind: tuple(tuple(tuple(record(kind, seat, tile, str(source) if source < 4 else "", size)
                                  for source in range(5)) for tile in (*range(34), -1)) for seat in range(4))
          for kind, size in (("chow", 3), ("pung", 3), ("kong", 4))}


class MahjongFlow:
    """State and transitions of one mahjong-family hand (the public API is :class:`~hupai.game.Game`).

    ``window`` is the claim window setting (:data:`~hupai.game.mahjong.claims.CLAIM_WINDOWS`).
    """

    __slots__ = ("rules", "table", "events", "result", "window", "_plain_turns", "_forms", "_caps", "_quick_claims",
                 "_pre_draw", "_seats", "_ready_first", "_pungs", "_chowers", "_dead_wall", "_lean", "_next_seat",
                 "_quick_turn", "_turn_pack", "chains", "chained", "_gold_turn", "_chain_facts", "_gold_facts")

    observer = Observer  # what a seat sees of this flow's table
    rules: Rules
    table: Table
    events: EventLog
    result: HandResult | None

    def __init__(self, rules: Rules, window: str) -> None:
        self.rules = rules
        self.window = window
        self.events = EventLog(rules.num_players)
        self.result = None
        caps = self._caps = rules.capabilities
        self._plain_turns = caps.plain_turns
        self._forms = int(rules.win_forms)
        self._dead_wall = -1 if caps.wall_end else rules.dead_wall
        # Whether a seat is asked before its draw: on public facts alone when every seat is asked (see
        # Rules.pre_draw_window), else only when it has a declaration.
        self._pre_draw = (None if not caps.pre_draw
                          else rules.pre_draw_window if window == "all" else rules.pre_draw_actions)
        n = rules.num_players
        self._seats = range(n)
        # The discarder's readiness worked out at its discard (see _discard): the rules test wins in Python.
        self._ready_first = caps.custom_claims and not caps.core_wins
        # Rules with chow_seats get their ChowMasks of the table at deal and restore (see ChowMasks: not the flow).
        self._chowers: tuple[int, ...] | claims.ChowMasks = _CHOWERS[n]
        # The rules' turn hooks skipped when they say a turn is plain (Rules.turn_is_plain), else None. Rules that
        # test wins themselves say so only for a seat known not ready (its cache byte 0): the core then looks for no
        # complete hand (the drawn tile is passed only for a byte that is not 0), only for a kong.
        self._quick_turn = rules.turn_is_plain if caps.turn_is_plain else None
        # Claims found by one core scan first (see _discard): standard claims, or custom ones within its shapes.
        self._quick_claims = (window == "eligible" and caps.core_wins and not caps.on_discard
                              and (not caps.custom_claims or caps.claims_in_shapes))
        # The lean turn (see apply): claims scanned by the core first, a declared wall end, no pre-draw window,
        # plain turns (or turns the rules can say are plain). Guangdong and Kawuxing in a simulation.
        self._lean = (self._quick_claims and (self._plain_turns or self._quick_turn is not None)
                      and self._pre_draw is None and self._dead_wall >= 0)
        self._next_seat = _NEXT[n]
        # The rules' facts for the core's quiet gold discard (Rules.gold_turn: Yunxiao's), with claims by the window
        # "eligible" only (with "all" every discard opens a window), else None.
        self._gold_turn = rules.gold_turn if caps.gold_turn and window == "eligible" else None
        # Rules.gold_turn's answer and the table's facts mapping it was asked for (it follows from them alone, and the
        # flow replaces the mapping when a fact changes: _apply_effects), asked again for another mapping.
        self._gold_facts: tuple[Any, tuple[int, list[int], int, bool, int] | None] = (None, None)
        #: Whether the core may play a run of the built-in bots' plain turns (:meth:`_lean_chain`): a lean flow whose
        #: turns are plain without a rules hook and whose 下家 alone chows (Guangdong), or whose rules make the
        #: promise of Rules.plain_turn_mask (Kawuxing: its facts are asked once until an action other than a plain
        #: discard, see _chain_facts).
        self.chains = self._lean and ((self._quick_turn is None and not caps.chow_seats)
                                      or type(rules).plain_turn_mask is not Rules.plain_turn_mask)
        #: hupai.game.match.play_until's players and bots for this hand, worked out at its first call (its _prepared)
        self.chained: tuple[Any, ...] | None = None
        #: For rules with a turn hook or chow_seats: (Rules.plain_turn_mask, the per-seat chow masks) as _lean_chain
        #: last asked them, kept until a meld or a rules effect (a declaration's among them), the deal or a restore:
        #: the promise is that neither changes over turns that nobody claims from. None: ask again.
        self._chain_facts: tuple[int | None, tuple[int, ...]] | None = None

    # -- setup ------------------------------------------------------------------------------------------
    def deal(self, seed: int, dealer: int, round_wind: int, first_dealer: int,
             stacked: Sequence[int] | None = None) -> None:
        rules = self.rules
        n = rules.num_players
        wall = Wall(shuffle(rules.tiles(), seed) if stacked is None else bytes(stacked))
        winds = rules.seat_winds(dealer, first_dealer)
        table = self.table = Table(n, dealer, first_dealer, round_wind, winds, wall)
        self._chain_facts = None
        self._gold_facts = (None, None)
        if self._caps.chow_seats:
            self._chowers = claims.ChowMasks(rules, table)
        self._pungs = [0] * n  # per seat, the kinds of its exposed pungs (turn_scan: a 补杠 to offer)
        events = self.events
        size = rules.hand_size
        tiles = wall.tiles
        for offset in range(n):
            seat = (dealer + offset) % n
            hand = table.hands[seat]
            start = wall.head
            wall.head += size
            hand[:] = count_kinds(tiles, start, wall.head, 34)
            events.records.append(_DEALS[seat][size])
            events.records.extend(sorted(tiles[start:wall.head]))
        # The dealer's extra tile is kept as its "drawn" tile so a dealt win (天和) has a winning tile.
        extra = wall.draw()
        table.hands[dealer][extra] += 1
        events.records.append(_EXTRAS[dealer][extra])
        self._apply_effects(rules.on_deal(table))
        table.turn_seat = dealer
        table.drawn = extra
        table.drawn_from = "dealt"
        self._pack_turn()

    def restore(self, table: Table) -> None:
        self.table = table
        self._chain_facts = None
        self._gold_facts = (None, None)
        if self._caps.chow_seats:
            self._chowers = claims.ChowMasks(self.rules, table)
        self._pungs = [_pung_kinds(melds) if melds else 0 for melds in table.melds]
        self._pack_turn()

    def snapshot_table(self) -> dict[str, Any]:
        """The table as a snapshot holds it (format 2: :mod:`hupai.game.state.compact`)."""
        return table_to_compact(self.table)

    def _pack_turn(self) -> None:
        """What ``_core.lean_turn`` reads and writes, gathered once a hand: the table keeps these objects
        (changing their contents, never replacing them) from its deal or restore to its end."""
        table = self.table
        self._turn_pack = (table.hands, table.draws, table.discards_made, table.meld_records, self._pungs, table.louhu,
                           ACTIONS.discard, table.wall.tiles, self._forms, table.piles)

    # -- effects ----------------------------------------------------------------------------------------
    def _apply_effects(self, effects: Effects) -> None:
        """Carry out what a rule hook asked for (:mod:`hupai.rules.contract`)."""
        table = self.table
        facts = None  # the new mapping of this call's facts, made at its first SetState
        for effect in effects:
            self._chain_facts = None  # (a rule's effect may change what it promised: Rules.plain_turn_mask)
            if isinstance(effect, SetState):
                # A new mapping, the old one left as it was: an observer keeps the one it froze, and one identity
                # test tells it whether the facts changed (Observer.buffers, at every decision of an environment).
                if facts is None:
                    facts = table.extras = dict(table.extras)
                facts[effect.key] = copy_json(effect.value)
            elif isinstance(effect, Pay):
                amounts = effect.amounts
                if len(amounts) != table.num_players or sum(amounts) != 0:
                    raise ValueError(f"{self.rules.name}: a payment must give one amount per seat summing to 0, "
                                     f"got {amounts!r}")
                table.payments = [a + b for a, b in zip(table.payments, amounts, strict=True)]
                self.events.add("payment", effect.seat, -1, tuple(amounts), effect.reason)
            elif isinstance(effect, TakeFromTail):
                if not 0 <= effect.count <= table.wall.live:
                    raise ValueError(f"{self.rules.name}: cannot take {effect.count} tiles from the wall's tail")
                table.wall.tail -= effect.count
            elif isinstance(effect, GiveTile):
                seat, tile = effect.seat, effect.tile
                table.hands[seat][tile] += 1
                table.ready_bytes[seat] = READY_UNKNOWN
                table.drawn = tile
                table.drawn_from = effect.source
            else:
                raise TypeError(f"{self.rules.name}: a rule hook returned {effect!r}, which is not an effect")

    # -- decisions --------------------------------------------------------------------------------------
    @property
    def current(self) -> Decision:
        table = self.table
        phase = table.phase
        if phase == "over":
            return Decision("over", (), -1, -1)
        if phase in ("turn", "predraw"):
            return Decision(phase, (table.turn_seat,), table.drawn, table.turn_seat)
        seats = tuple(s for s in table.pending if s not in table.answers)
        if phase == "rob":
            return Decision(phase, seats, table.kong_tile, table.kong_seat)
        return Decision(phase, seats, table.last_discard, table.discarder)

    def seats_to_act(self) -> tuple[int, ...]:
        table = self.table
        phase = table.phase
        if phase == "turn" or phase == "predraw":
            return (table.turn_seat,)
        if phase == "over":
            return ()
        answers = table.answers
        return tuple(s for s in table.pending if s not in answers)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        table = self.table
        phase = table.phase
        if phase == "turn":
            if seat != table.turn_seat:
                return ()
            quick = self._quick_turn
            if self._plain_turns or (quick is not None and quick(table, seat)):  # usually found by apply() already
                discards = plain_turn(table.hands[seat], table.meld_records[seat], self._pungs[seat],
                                      table.drawn if table.ready_bytes[seat] else -1, self._forms,
                                      ACTIONS.discard[seat])
                if discards is not None:
                    return discards
            return self._turn_actions(seat)
        if phase == "claim" or phase == "rob":
            return () if seat in table.answers else table.pending.get(seat, ())
        if phase == "predraw" and seat == table.turn_seat:
            return (*self.rules.pre_draw_actions(table, seat), ACTIONS.pass_[seat])
        return ()

    def _turn_actions(self, seat: int) -> tuple[Action, ...]:
        table = self.table
        rules = self.rules
        caps = self._caps
        hand = table.hands[seat]
        drawn = table.drawn
        # (A plain turn gets here only when _core.plain_turn found a complete hand or a possible kong.)
        # (not known not ready: the core's cache byte not 0, or the rules' answer through the cache)
        ready = table.ready_bytes[seat] != 0 if caps.core_wins else claims.is_ready(rules, table, seat)
        win = (drawn >= 0 and ready and rules.completes(table, seat, drawn, True)
               and rules.may_win(table, seat, drawn, table.drawn_from))
        out: list[Action] = [ACTIONS.win[seat][drawn]] if win else []
        if caps.last_kong and table.drawn_from == "replacement" and rules.replacement_ends_hand(table, seat):
            # A last kong (Yunxiao's third, YX-23): win on the replacement, or ``pass`` to end the hand drawn.
            return (*out, ACTIONS.pass_[seat])
        if 4 in hand or table.melds[seat] or caps.kong_options:
            out.extend(rules.kong_options(table, seat))
        discards = ACTIONS.discard[seat]
        forbidden = rules.forbidden_discards(table, seat) if caps.forbidden_discards else None
        if forbidden:
            allowed = bytearray(hand)
            for kind in forbidden:
                allowed[kind] = 0
            # Nothing allowed: the restriction lifts.
            out.extend(held_actions(allowed, discards) or held_actions(hand, discards))
        else:
            out.extend(held_actions(hand, discards))
        if caps.turn_extras:
            out.extend(rules.turn_extras(table, seat))
        return tuple(out)

    def why_illegal(self, action: Action, legal: tuple[Action, ...]) -> str:
        """Why ``action`` (well-formed, of a seat of this table) is not among ``legal``, its seat's actions."""
        return illegal_reason(self.table, self.current, action, legal)

    # -- applying a legal action ------------------------------------------------------------------------
    def apply(self, action: Action) -> dict[int, tuple[Action, ...]]:
        """Apply a legal action. Returns the legal actions already known for the new state, by seat: the discards
        of a plain turn it led to (one core call, and the shell's next question answered without asking)."""
        kind, seat, tile, _, flag = action
        table = self.table
        phase = table.phase
        if self._lean and kind == "discard" and phase == "turn" and not flag:
            known = self._lean_turn(action, seat, tile)
            if known is not None:
                return known
            return self.known_legal()
        elif phase == "turn" and kind == "discard":
            if flag:
                effects, _ = self.rules.on_declare(table, action)
                self._apply_effects(effects)
            elif self._gold_turn is not None:
                known = self._gold_discard(seat, tile)
                if known is not None:
                    return known
            self._discard(seat, tile, flag)
        elif phase == "turn":
            if kind == "kong":
                self._own_kong(seat, tile, flag)
            elif kind == "win":
                self._settle([(seat, tile, table.drawn_from, None)])
            elif kind == "pass":  # legal in a turn only after a last kong (Rules.replacement_ends_hand)
                self._end_drawn()
            else:
                self._declare(action)
        elif phase == "predraw":
            if kind == "pass":
                self._draw(seat, "wall")
            else:
                self._declare(action)
        else:  # a claim or rob window
            self._answer(action)
        return self.known_legal()

    def known_legal(self) -> dict[int, tuple[Action, ...]]:
        """What :meth:`apply` returns after an action: the legal actions already known for the state it led to."""
        table = self.table
        phase = table.phase
        if phase != "turn":
            if phase == "claim" or phase == "rob":  # the window's options of the seats still to answer
                answers = table.answers
                return {seat: options for seat, options in table.pending.items() if seat not in answers}
            return {}
        seat = table.turn_seat
        quick = self._quick_turn
        if self._plain_turns or (quick is not None and quick(table, seat)):
            # The turn this action gave, if it is plain: its discards alone, found by one core call (no complete
            # hand, not looked for if the hand before the draw was known not to be ready; no kong possible). The
            # common turn, answered here for the shell's cache (legal_actions makes the same call otherwise).
            discards = plain_turn(table.hands[seat], table.meld_records[seat], self._pungs[seat],
                                  table.drawn if table.ready_bytes[seat] else -1, self._forms,
                                  ACTIONS.discard[seat])
            if discards is not None:
                return {seat: discards}
        return {}

    def _declare(self, action: Action) -> None:
        if self._caps.declared_kongs and self.rules.declares_kong(self.table, action):
            # A declaration that makes a kong (Yunxiao's self-drawn 明杠, YX-20): the engine's own kong
            # machinery robs, melds, logs and draws the replacement, as for its own kongs.
            self.events.add("declare", action.seat, action.tile, (), action.flag)
            self._own_kong(action.seat, action.tile, action.flag)
            return
        effects, source = self.rules.on_declare(self.table, action)
        self._apply_effects(effects)
        self.events.add("declare", action.seat, action.tile, (), action.flag)
        if source is not None:
            self._settle([(action.seat, action.tile, source, None)])

    # -- turn mechanics ---------------------------------------------------------------------------------
    def _lean_turn(self, action: Action, seat: int, tile: int) -> dict[int, tuple[Action, ...]] | None:
        """The plain turn in one frame, for a flow with ``_lean`` set: ``seat`` discards ``tile`` (``action``, the
        engine's own object; no declaration), the core's scan finds nobody able to claim it, and the next seat
        draws from the wall (one record in the log for both events) and gets a turn of discards alone: what
        :meth:`_discard`, :meth:`_next_turn`, :meth:`_draw` and :meth:`apply` do in that case, with the same state
        and events at the end. ``_core.lean_turn`` makes both scans in one crossing and writes plain buffers only
        (the two hand counts moved, the per-seat counters, the discard on its pile, the ready cache's bytes); the rest
        (events and the Table's own fields) is kept here. Anything
        else (a claim is possible, the wall ends, a 漏胡 block that the next seat's draw ends) leaves by the general
        path at the point where the two part, and returns None: :meth:`known_legal` finishes. Most actions of a
        simulated Guangdong or Kawuxing hand are this one; :func:`hupai.game.play` calls it directly."""
        table = self.table
        wall = table.wall
        head = wall.head
        quick = self._quick_turn
        hook = None
        if quick is not None and self.chains:
            # Rules whose turn hook makes the promise of Rules.plain_turn_mask (Kawuxing): the core judges the next
            # turn from those facts (kept as _lean_chain keeps them), and no turn_is_plain nor chow_seats is asked
            # in Python at this turn (most of Kawuxing's engine cost at an agent's decision).
            facts = self._chain_facts
            if facts is None:
                facts = self._facts()
            if facts[0] is not None:
                hook = (facts[0], wall.tail)
                chowers = facts[1][seat]
        # drawn: the tile the next seat drew, -1 if the turn stopped before that draw (got is then the shapes)
        if hook is None:
            got, drawn = lean_turn(self._turn_pack, table.ready_bytes, seat, tile, table.drawn, head,
                                   wall.tail - self._dead_wall, self._chowers[seat])
        else:
            got, drawn = lean_turn(self._turn_pack, table.ready_bytes, seat, tile, table.drawn, head,
                                   wall.tail - self._dead_wall, chowers, hook)
            quick = None  # (the core's answer is the rules')
        table.last_discard = tile
        table.discarder = seat
        if drawn < 0:
            # A claim window (the scan's shapes), or nobody may claim but the turn goes on by _next_turn (the
            # wall's end, or a 漏胡 block that the next seat's own draw ends): as _discard.
            self.events.records.append(_DISCARDS[seat][tile])
            table.drawn = -1
            table.drawn_from = ""
            table.phase = "claim"
            if got:
                self._claim_window(seat, tile, got)  # type: ignore[arg-type]  # the shapes: no draw, an int
            else:
                self._next_turn(seat)
            return None
        self.events.records.append(_TURNS[seat][tile][drawn])  # the discard and the next seat's draw
        seat = self._next_seat[seat]  # nobody may claim, and the next seat drew
        table.kong_from = -1
        table.turn_seat = seat
        table.drawn = drawn
        wall.head = head + 1
        table.drawn_from = "wall"
        if got is not None:  # a turn of discards alone, unless the rules' own hook says otherwise
            if quick is None or quick(table, seat):
                return {seat: got}  # type: ignore[dict-item]  # a tuple: an int returned above
        elif hook is not None:
            # Not plain by the core's test or the rules' facts: what legal_actions would answer (its turn_is_plain,
            # asked again, would be False, or the core's same test would find the win or kong), without that question.
            return {seat: self._turn_actions(seat)}
        return {}  # a turn for the core's or the rules' further questions: Game.legal_actions asks the flow

    def _facts(self) -> tuple[int | None, tuple[int, ...]]:
        """Rules.plain_turn_mask and the per-seat chow masks, asked now and kept in :attr:`_chain_facts` (until a
        meld, a rules effect, the deal or a restore: see there)."""
        chowers = self._chowers
        facts = self._chain_facts = (self.rules.plain_turn_mask(self.table),
                                     chowers if type(chowers) is tuple else
                                     tuple([chowers[other] for other in self._seats]))
        return facts

    def _lean_chain(self, bots: tuple[Any, ...], actions: list[Action], action: Action, seat: int,
                    tile: int) -> dict[int, tuple[Action, ...]] | None:
        """:meth:`_lean_turn` (``seat`` discards ``tile``, ``action``), followed in the same crossing
        (``_core.lean_chain``) by the next seats' plain turns where a built-in bot plays them (``bots``: per seat
        None or the bot's ``_core_turns`` answer; the stop seat of :func:`~hupai.game.match.play_until` None), each
        discard the one the bot would choose: until a claim is possible, a turn is not plain, the wall ends or a
        seat without a bot must decide. Those discards go onto ``actions`` (the game's list: ``action`` is on it
        already); the state and events end as they would after the turns one by one. Only for a flow that
        :attr:`chains`. Returns what :meth:`_lean_turn` returns."""
        table = self.table
        wall = table.wall
        chowers = self._chowers
        hook = None
        if self._quick_turn is not None or type(chowers) is not tuple:  # the rules' promise (plain_turn_mask)
            facts = self._chain_facts
            if facts is None:
                facts = self._facts()
            seats, chowers = facts
            if seats is None:
                return self._lean_turn(action, seat, tile)
            if self._quick_turn is not None:
                hook = (seats, wall.tail)
        moves, last, got, records, discards = lean_chain(
            self._turn_pack, table.ready_bytes, seat, tile, table.drawn, wall.head, wall.tail - self._dead_wall,
            chowers, bots, hook, _TURN_RECORDS)
        if moves:  # the turns whose discard nobody could claim and whose next seat drew
            # Their records, and their discards after the first (``action``, on the list already) with the last
            # discard if one followed: made by the core from the flow's own tables.
            self.events.records.extend(records)
            actions += discards
            turns = len(records)
            n = len(self._next_seat)
            table.last_discard = moves[-2]
            table.discarder = (seat + turns - 1) % n
            seat = (seat + turns) % n
            table.kong_from = -1
            table.turn_seat = seat
            table.drawn = moves[-1]
            table.drawn_from = "wall"
            wall.head += turns
            if last < 0:
                return {} if got is None else {seat: got}
        # The last discard, which no draw followed (the core wrote the hand, the pile and the ready cache): a claim
        # window (the scan's shapes), or nobody may claim but the turn goes on by _next_turn (the wall's end, or a
        # 漏胡 block that the next seat's own draw ends), as _lean_turn.
        table.last_discard = last
        table.discarder = seat
        self.events.records.append(_DISCARDS[seat][last])
        table.drawn = -1
        table.drawn_from = ""
        table.phase = "claim"
        if got:
            self._claim_window(seat, last, got)
        else:
            self._next_turn(seat)
        return None

    def _gold_discard(self, seat: int, tile: int) -> dict[int, tuple[Action, ...]] | None:
        """``seat`` discards ``tile`` and, when the discard is quiet, the next seat draws, in one crossing
        (``_core.yunxiao_turn``, for rules with ``gold_turn``): what :meth:`_discard`, :meth:`_claim_window`,
        :meth:`_next_turn`, :meth:`_draw` and :meth:`known_legal` do when nobody may claim, no rule hook has an
        effect (a 游 level stays, no declaration before the draw) and the wall goes on, with the same state and
        events at the end. Where only a claim stops the draw, the core makes the discard and fills the ready cache
        and the claim window opens here (what _discard does after them: the rules' on_discard has no effect). Returns
        None, nothing changed, for any other discard: the general path takes it."""
        table = self.table
        kept = self._gold_facts
        if kept[0] is not table.extras:
            kept = self._gold_facts = (table.extras, self._gold_turn(table))  # type: ignore[misc]  # (capability)
        facts = kept[1]
        if facts is None:
            return None
        gold, levels, reserve, loose, rob = facts
        wall = table.wall
        done = yunxiao_turn(self._turn_pack, table.ready_bytes, seat, tile, table.drawn, wall.head,
                            wall.tail - reserve, gold, levels, loose, -1 if table.calls else rob)
        if done is None:
            return None
        if done == 0:  # the discard made and the ready cache filled by the core: some seat may claim it (as _discard)
            table.last_discard = tile
            table.discarder = seat
            table.drawn = -1
            table.drawn_from = ""
            self.events.records.append(_DISCARDS[seat][tile])
            table.phase = "claim"
            self._claim_window(seat, tile, None)
            return self.known_legal()
        got, drawn = done  # type: ignore[misc]  # (a pair: 0 returned above)
        nxt = self._next_seat[seat]
        self.events.records.append(_TURNS[seat][tile][drawn])  # the discard and the next seat's draw, as a lean turn's
        table.last_discard = tile
        table.discarder = seat
        table.kong_from = -1
        table.turn_seat = nxt
        table.drawn = drawn
        table.drawn_from = "wall"
        wall.head += 1  # (the phase stays "turn")
        return {} if got is None else {nxt: got}

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
        if table.louhu[seat]:  # drawing is a move: the 漏胡 block ends (GD-11)
            table.louhu[seat] = 0
        table.phase = "turn"
        table.turn_seat = seat
        self.events.records.append(_DRAWS[source][seat][tile])

    def _discard(self, seat: int, tile: int, flag: str) -> None:
        table = self.table
        # The hand's count, the pile and the count of discards made: three bytes, one core call.
        discard_tile(self._turn_pack, seat, tile)
        fresh = tile != table.drawn  # a new waiting hand (a 摸切 discard leaves it as it was)
        table.last_discard = tile
        table.discarder = seat
        table.drawn = -1
        table.drawn_from = ""
        if flag:
            self.events.add("discard", seat, tile, (), flag)
        else:
            self.events.records.append(_DISCARDS[seat][tile])
        table.phase = "claim"
        if fresh:
            # Not known (the core's scans work it out), or where the rules test wins in Python, their answer now:
            # the claim window fills the cache before it asks them anyway, and this seat's waiting hand, the one
            # most often not known there, holds till its next draw or claim (see _claim_window).
            if self._ready_first:
                table.ready_bytes[seat] = 1 if self.rules.ready(table, seat) else 0
            else:
                table.ready_bytes[seat] = READY_UNKNOWN
        shapes = None
        if self._quick_claims:
            # Standard claims, wins and chows by the core: one scan usually says nobody can claim, and with
            # claim_window="eligible" the next turn follows at once (the common discard of a simulation).
            # (the readiness the scan works out goes into the engine's cache, in place)
            shapes, _ = claim_scan(table.hands, table.meld_records, table.ready_bytes, tile, seat, self._forms,
                                   0 if tile >= 27 else self._chowers[seat], _SCAN_ALL)
            if not shapes:
                self._next_turn(seat)
                return
        if self._caps.on_discard:
            effects = self.rules.on_discard(table, seat, tile)
            if effects:  # usually none: a 游 level changes now and then
                self._apply_effects(effects)
        self._claim_window(seat, tile, shapes)

    def _claim_window(self, seat: int, tile: int, shapes: int | None) -> None:
        """The claims on ``seat``'s discard ``tile`` (``shapes``: the core's quick scan, if made): a window if
        anyone is asked, else the next turn."""
        table = self.table
        rules = self.rules
        caps = self._caps
        # Outside a claim window ``pending`` and ``answers`` are empty: every way out of one clears them.
        if caps.custom_claims:
            if not caps.core_wins:  # the rules' own win test reads the engine's ready cache: fill it first
                cache = table.ready_bytes
                # One test of the whole cache (READY_UNKNOWN is 255), no byte read a seat: the discard filled in
                # the discarder's own flag (and every discard before it its seat's), so a seat is not known here
                # only after the deal, a restore, or a tile the rules gave.
                if 255 in cache:
                    for other in self._seats:
                        if cache[other] == 255:
                            cache[other] = 1 if rules.ready(table, other) else 0
            options = rules.claim_options(table, tile, seat)
        else:
            options = claims.standard_options(rules, table, tile, seat, shapes)  # the quick scan's shapes, if made
        if options or self.window == "all":
            pending = claims.collect(rules, table, tile, options, seat, self.window)
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
        rules = self.rules
        dead_wall = self._dead_wall  # the wall end, checked here unless the rules decide it (wall_end)
        wall = table.wall
        if wall.tail - wall.head <= dead_wall if dead_wall >= 0 else not rules.can_draw(table):
            self._end_drawn()
            return
        pre_draw = self._pre_draw
        if pre_draw is not None and pre_draw(table, seat):
            table.phase = "predraw"
            return
        self._draw(seat, "wall")

    def _add_meld(self, seat: int, meld: Meld, replace: int = -1) -> None:
        self._chain_facts = None  # (a meld may change what the rules promised: Rules.plain_turn_mask)
        table = self.table
        melds = table.melds[seat]
        records = table.meld_records
        if replace >= 0:  # a 补杠: the kong in its pung's place
            melds[replace] = meld
            at = replace * MELD_WIDTH
            records[seat] = records[seat][:at] + meld.record + records[seat][at + MELD_WIDTH:]
            self._pungs[seat] = _pung_kinds(melds)
        else:
            melds.append(meld)
            records[seat] += meld.record
            table.meld_order.append((seat, len(melds) - 1))
            if meld.type == "pung":  # (the other melds are as they were: their kinds are in the mask)
                self._pungs[seat] |= 1 << meld.tiles[0]
        table.calls += 1
        table.ready_bytes[seat] = READY_UNKNOWN
        claimed, source = meld.claimed_tile, meld.claimed_from
        events = self.events.records
        events.append(_MELDS[meld.type][seat][-1 if claimed is None else claimed][-1 if source is None else source])
        events.extend(meld.tiles)

    def _claim(self, action: Action) -> None:
        """Carry out the winning meld claim on the discard."""
        table = self.table
        rules = self.rules
        seat, discarder = action.seat, table.discarder
        hand = table.hands[seat]
        # The rules say which tiles leave the hand and what meld they make: they differ where a tile plays as
        # another kind (Yunxiao's 白板 as the gold's face, YX-7). Asked before anything changes.
        used, meld = rules.claim_meld(table, action)
        table.piles[discarder][table.discards_made[discarder] - 1] |= CLAIMED  # its last discard leaves the pile
        if rules.louhu_clears_on_claim:
            table.louhu[seat] = 0
        table.pending = {}
        table.answers = {}
        for kind in used:
            hand[kind] -= 1
        self._add_meld(seat, meld)
        if self._caps.on_claim:
            self._apply_effects(rules.on_claim(table, seat, meld))
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
            robbers = claims.collect_robbers(self.rules, table, tile, seat, self.window)
            if robbers:
                table.phase = "rob"
                table.kong_tile = tile
                table.kong_seat = seat
                table.pending = robbers
                table.answers = {}
                self.events.add("rob", seat, tile, (), flag)
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
        self._apply_effects(self.rules.on_kong(table, seat, meld))
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
        claims.record_missed(self.rules, table, tile, winners)
        if winners:
            if rob:
                table.hands[source][tile] -= 1  # the added tile goes to the robbers
                table.ready_bytes[source] = READY_UNKNOWN
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
            self.events.add("win", seat, tile, (), source)
        winners = tuple(w[0] for w in wins)
        self._finish(HandResult(winners, tuple(results), tuple(payments),
                                rules.next_dealer(table, winners), False))

    def _end_drawn(self) -> None:
        table = self.table
        self.events.records.append(_DRAWN)
        if self._caps.on_drawn:
            self._apply_effects(self.rules.on_drawn(table))
        self._finish(HandResult((), (), tuple(table.payments), self.rules.next_dealer(table, ()), True))

    def _finish(self, result: HandResult) -> None:
        self.result = result
        close_hand(self.table, self.events, result)


def _pung_kinds(melds: list[Meld]) -> int:
    """The kinds of a seat's exposed pungs as a 34-bit mask (``turn_scan``: a held one may become a kong)."""
    mask = 0
    for meld in melds:
        if meld.type == "pung":
            mask |= 1 << meld.tiles[0]
    return mask

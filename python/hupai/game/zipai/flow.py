"""The zipai flow: one Wai Huzi (歪胡子) hand (``rules/waihuzi.md``, WH-4..27, 32, 38..46), hosted by the
:class:`~hupai.game.Game` shell (why it is its own flow: :mod:`hupai.game.flow`).

The table is a :class:`~hupai.game.state.zipai.ZipaiTable`. A hand runs as:

- **Deal** (WH-4, :mod:`.deal`): the dealer gets cards 0..19 of the wall, its 下家 20..38, the next 39..57;
  the 22 left are the stock. The 神 (WH-5) is the ``shen`` option, or else the dealer's last dealt card is shown
  and decides it.
- **Turn** (``phase == "turn"``): ``turn_seat`` is in a discard state (WH-12): discard an unlocked card, or
  溜 four held, or 飘 a held fourth onto its 碰. The dealer's first move may be 天胡 (WH-13, WH-40).
- **Offer** (``phase == "claim"``): a turned-up stock card (WH-15) or a discard (WH-14) is offered; each seat
  answers (``pass`` included) and WH-17 picks the one action carried out: 溜/飘/歪 > 胡 > 碰 > 吃, ties to the
  seat first in turn order from the drawer (a turned-up card) or the discarder's 下家 (a discard). 吃/碰/歪 lead
  to a discard state; 溜/飘 replace it and the taker's 下家 turns up next; nobody: the card joins the pile of
  the seat it came from and that seat's 下家 turns up next. An empty stock when a turn-up is due is 黄庄 (WH-20).
- **Restrictions** (WH-21..27): discards and passes make cards 臭 (chi-ban, menzi-ban, peng-ban); a pass
  counts only when nothing ranked above it took the card (WH-25); a 吃 locks cards (WH-26); a 碰/歪 of a
  peng-banned value makes the seat 死手 (WH-27: no win, no claim or declaration, it still turns up cards);
  a 吃/碰/歪 that would leave no legal discard is not offered (WH-18).
- **Win** (WH-32): a layout of at least ``min_huxi`` 息 (the C++ core's ``zipai_best``); scored by
  ``rules.score`` with a :class:`~hupai.WinContext` holding the declared groups as :class:`hupai.zipai.Declared`.

``claim_window="all"`` asks every seat about every turned-up card and the two others about every discard
(``pass`` only, where a seat has nothing), so who is asked reveals nothing; ``"eligible"`` asks only seats with
an option (fast, for simulations).

Decisions where the spec is silent (each named where it is made): 地胡 is a win on the dealer's first discard
made as its first move (before any card is turned up); the dealer's 报听 moment is after that first move; a
seat made 死手 by a 碰/歪 discards (it is offered no 溜/飘 in that discard state); passing includes choosing a
lower-ranked option of one's own (a seat that 吃s instead of 碰ing has passed the 碰, WH-25 then applies).

House rules (``rules/waihuzi/options.py``, ``docs/rules/waihuzi.md``), read from ``rules.options`` and each off at
its default: ``shen_shown`` (WH-5: a random dealt card is shown), ``dandiao`` (WH-30: which hands win is the rules'
``layout_wins``), ``dihu`` (WH-35: 地胡 on the dealer's first discard after an opening 溜), ``shenyao`` (WH-39: no
神腰 card for a winning card that was not turned up); ``sishou`` (WH-27) plays as its default (the seat made 死手
discards, see ``docs/rules/waihuzi.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, reduce
from itertools import compress
from operator import getitem, or_
from typing import Any

from ..._core import count_kinds, zipai_best, zipai_offer, zipai_offer_run, zipai_ready
from ...actions import Action
from ...errors import HupaiError
from ...events import EventLog, record
from ...rules.base import Rules
from ...scoring import WinContext
from ...zipai import RUNS, Declared, PartType
from ...zipai.cards import completing_cards, value_of
from ..flow import Decision
from ..result import HandResult, WinResult, close_hand
from ..state.wall import Wall, shuffle
from ..state.zipai import MENZI_BIT, Group, ZipaiTable, card_mask
from .deal import DEALT, SIZES, deal_order, shown_for_shen, stacked_cards
from .illegal import zipai_illegal_reason
from .observation import ZipaiObserver

__all__ = ["ZipaiFlow", "RANK", "deal_order", "stacked_cards"]

#: WH-17's classes: 溜/飘/歪 first, then 胡, 碰, 吃.
RANK = {"liu": 3, "piao": 3, "wai": 3, "win": 2, "pung": 1, "chow": 0}
#: Per card, each run (WH-7) holding it as (run, the 门子 left: low and high, the 门子's other completing cards):
#: what a 吃 needs (WH-14), bans (WH-21, WH-23) and locks (WH-26) read, built once.
_RUNS_OF = tuple(
    tuple((run, low, high, tuple(c for c in completing_cards(low, high) if c != card))
          for run in RUNS if card in run for low, high in [tuple(c for c in run if c != card)])
    for card in range(20))
#: Per card, each run holding it as (the 门子's low and high cards, the mask of its other completing cards): the
#: chi bans a discard adds (WH-21).
_BANS_OF = tuple(tuple((low, high, card_mask(others)) for _, low, high, others in runs) for runs in _RUNS_OF)
#: A 吃's 门子 and locks by (card, run): (low, high, the mask of the locks it makes, WH-26: the card and the 门子's
#: other completing cards, the mask of the menzi bans a passed 吃 of it adds, WH-23).
_RUN_PARTS: dict[tuple[int, tuple[int, ...]], tuple[int, int, int, int]] = {
    (card, run): (low, high, card_mask((card, *others)), sum(MENZI_BIT[low, high, other] for other in others))
    for card in range(20) for run, low, high, others in _RUNS_OF[card]}
#: Every action a seat may be offered on one card, built once (an Action is an immutable NamedTuple, so the legal
#: actions of every decision share these objects): ``_ACT[kind][seat][card]``, ``_PASS[seat]``.
_ACT = {kind: tuple(tuple(Action(kind, seat, card) for card in range(20)) for seat in range(3))
        for kind in ("discard", "liu", "piao", "wai", "pung", "win")}
_DISCARD = _ACT["discard"]
_PASS = tuple(Action("pass", seat) for seat in range(3))
#: Per seat and card, each 吃 of it as (the 门子's low and high cards, the mask of the locks it makes, the
#: menzi-ban bit of (low, high, card), 0 if no other card completes that 门子, the action): what
#: :meth:`ZipaiFlow._chows` offers, from :data:`_RUNS_OF`.
_CHOWS = tuple(tuple(tuple((low, high, card_mask((card, *others)), MENZI_BIT.get((low, high, card), 0),
                            Action("chow", seat, card, run))
                           for run, low, high, others in _RUNS_OF[card]) for card in range(20)) for seat in range(3))
#: The same runs for the core's offer scan (``_core.zipai_offer``): per card four slots of (low, high, the locks'
#: three bytes, the menzi-ban bit's index or 255), an empty slot's low 255.
_CHOW_SPEC = b"".join(
    b"".join(bytes((low, high, *locks.to_bytes(3, "little"), bit.bit_length() - 1 if bit else 255))
             for low, high, locks, bit, _ in _CHOWS[0][card]) + b"\xff" * 6 * (4 - len(_CHOWS[0][card]))
    for card in range(20))
#: The core's option bits of a seat (16 a seat): 溜, 歪, 飘, 碰 in the order a seat is offered them (a seat's own
#: card offers 溜 歪 飘, another's 飘 碰), then 胡 (after the chows, bits 5..8).
_OFFER_KINDS = ((1, "liu"), (2, "wai"), (4, "piao"), (8, "pung"))
_OFFER_WIN = 16
#: The bits of a seat's chows (one per slot of the card's runs), and of its 碰-class options (歪 2, ranked 3; 碰 8,
#: ranked 1): what a pass passes up (WH-23, WH-24).
_OFFER_CHOWS = 0b1_1110_0000
_OFFER_PENG_RANKS = 2 | 8
#: Per card and mask of chow slots offered (bits 5..8 of a seat's, shifted down): the menzi bans passing them adds
#: (WH-23), the OR of each run's.
_CHOW_BANS = tuple(tuple(reduce(or_, [_RUN_PARTS[card, runs[i][0]][3] for i in range(len(runs)) if mask >> i & 1], 0)
                         for mask in range(16)) for card, runs in enumerate(_RUNS_OF))


@lru_cache(maxsize=4096)  # a memo of a pure function of plain values: the same few option sets recur
def _offered(seat: int, card: int, bits: int) -> tuple[Action, ...]:
    """A seat's options on ``card`` from the core's bits (``_core.zipai_offer``), in the order the flow offers them."""
    out = [_ACT[kind][seat][card] for bit, kind in _OFFER_KINDS if bits & bit]
    out.extend(chow[4] for i, chow in enumerate(_CHOWS[seat][card]) if bits >> 5 + i & 1)
    if bits & _OFFER_WIN:
        out.append(_ACT["win"][seat][card])
    return tuple(out)


@lru_cache(maxsize=4096)
def _pending(seat: int, card: int, bits: int) -> tuple[Action, ...]:
    """What an asked seat may answer: its options (:func:`_offered`'s, made here: a miss of both memos costs more
    than one) and ``pass``."""
    out = [_ACT[kind][seat][card] for bit, kind in _OFFER_KINDS if bits & bit]
    out.extend(chow[4] for i, chow in enumerate(_CHOWS[seat][card]) if bits >> 5 + i & 1)
    if bits & _OFFER_WIN:
        out.append(_ACT["win"][seat][card])
    out.append(_PASS[seat])
    return tuple(out)


#: The core's code of each group type (hupai.zipai.PartType) and whether its card came from another seat.
_CORE_TYPE = {"wai": int(PartType.WAI), "peng": int(PartType.PENG), "liu": int(PartType.LIU),
              "piao": int(PartType.PIAO), "chi": int(PartType.CHI)}
#: WH-17's turn order from the card's source: ``_ORDER[drawn][source]`` (a turned-up card: its drawer first; a
#: discard: the discarder's 下家 and the next).
_ORDER = (tuple(((s + 1) % 3, (s + 2) % 3) for s in range(3)), tuple((s, (s + 1) % 3, (s + 2) % 3) for s in range(3)))


#: Each seat's 下家 (who turns up the next card after an unclaimed one).
_NEXT = (1, 2, 0)
#: Whether an "eligible" flow whose wins are the core's runs its unclaimed cards in the core
#: (``_core.zipai_offer_run``, see :meth:`ZipaiFlow._offer`); tests switch it off to see every offer one by one.
LEAN_OFFERS = True

#: Per 10-bit half of a lock mask, the int whose bytes are 0xFF for its 10 cards not locked, 0 for the locked ones
#: (the high half's shifted up 80 bits to mask a hand read as a little-end int).
_FREE = tuple(sum(0xFF << 8 * card for card in range(10) if not half >> card & 1) for half in range(1024))

_decision = tuple.__new__
_OVER = Decision("over", (), -1, -1)


@lru_cache(maxsize=4096)  # a memo of a pure function of plain values (a Declared is frozen): groups repeat
def _declared(seat: int, group: Group) -> Declared:
    """A group as the core and the scorer read it (WH-34: who supplied a card makes its 元 outer)."""
    card = group.cards[0]
    kind = group.type
    if kind == "chi":
        return Declared.chi(group.cards, group.taken, own_draw=group.source == seat)
    return {"wai": Declared.wai, "peng": Declared.peng, "liu": Declared.liu, "piao": Declared.piao}[kind](card)


def _core_group(seat: int, group: Group) -> tuple[int, int, int, int, int]:
    """``_declared(seat, group).as_core()`` without building the Declared (this runs on every group made)."""
    a, b, c = group.cards[:3]
    kind = group.type
    if kind == "chi":
        external = group.taken if group.source != seat else -1
    else:
        external = a if kind in ("peng", "piao") else -1
    return (_CORE_TYPE[kind], a, b, c, external)


# The records of each seat's discard and turned-up card, per card (hupai.events.record), made once.
_DISCARDS = tuple(tuple(record("discard", seat, card) for card in range(20)) for seat in range(3))
_TURN_UPS = tuple(tuple(record("turn_up", seat, card) for card in range(20)) for seat in range(3))
_DEALS = tuple(tuple(record("deal", seat, count=count) for count in range(64)) for seat in range(3))  # + the cards
#: After a card from ``source``, the turn-up records of the seats that turn up the cards after it, in turn (the
#: source's 下家 first): ``_TURN_ROWS[source][i][card]``, as many as a stock holds.
_TURN_ROWS = tuple(tuple(_TURN_UPS[(source + 1 + i) % 3] for i in range(80)) for source in range(3))
# A group's header (its cards follow), per type, seat, taken card and source seat; index -1 (the last entry) is
# -1: no card taken, no source.
_GROUPS = {kind: tuple(tuple(tuple(record(kind, seat, taken, str(source), size) for source in (0, 1, 2, -1))
                             for taken in (*range(20), -1)) for seat in range(3))
           for kind, size in (("chi", 3), ("peng", 3), ("wai", 3), ("liu", 4), ("piao", 4))}


class ZipaiFlow:
    """State and transitions of one Wai Huzi hand (the public API is :class:`~hupai.game.Game`)."""

    __slots__ = ("rules", "table", "events", "result", "window", "_options", "_core_groups", "_house_wins",
                 "_random_shen", "_dihu_any", "_shenyao_after", "_dealer_discarded", "_lean", "_offer_bits",
                 "_bits_pending")

    observer = ZipaiObserver  # what a seat sees of this flow's table

    def __init__(self, rules: Rules, window: str) -> None:
        if rules.num_players != 3:
            raise HupaiError(f"{rules.name}: the zipai flow seats 3 players, the rules say {rules.num_players}")
        self.rules = rules
        self.window = window
        self.events = EventLog(3)
        self.result: HandResult | None = None
        o: Any = getattr(rules, "options", None)
        try:  # the core's option tuple (min_huxi, strict 行行息, 大小字胡, extra 名堂)
            self._options = (int(o.min_huxi), o.xingxingxi == "strict", bool(o.daxiaozihu), bool(o.extra_mingtang))
        except AttributeError:
            raise HupaiError(f"{rules.name}: the zipai flow reads options min_huxi, xingxingxi, daxiaozihu and "
                             f"extra_mingtang from rules.options") from None
        self._core_groups: list[list[tuple[int, int, int, int, int]]] = [[], [], []]
        # House rules (the module docstring); WH-30's question of which hands win is asked of the rules.
        self._house_wins = bool(getattr(rules, "house_wins", False))
        self._random_shen = getattr(o, "shen_shown", "dealer_last") == "random"
        self._dihu_any = getattr(o, "dihu", "opening") == "first_discard"  # WH-35
        self._shenyao_after = getattr(o, "shenyao", "stock_top") == "after_win_card"  # WH-39
        # Has the dealer discarded yet (WH-35's house rule)? Flow state outside the table: a Wai Huzi snapshot is
        # always restored by replaying its actions, which rebuilds it.
        self._dealer_discarded = False
        # The "eligible" window leaves most offered cards unasked: the core runs them (see _offer), unless a house
        # rule's wins are asked of the rules in Python.
        self._lean = window == "eligible" and not self._house_wins and LEAN_OFFERS
        # The open offer's option bits (the core's, 16 a seat) and the pending dict they made: _mark_passes reads
        # the passed options from them while table.pending is that dict (a window reopened by a restore is not).
        self._offer_bits = 0
        self._bits_pending: dict[int, tuple[Action, ...]] | None = None

    # -- setup ------------------------------------------------------------------------------------------
    def deal(self, seed: int, dealer: int, round_wind: int, first_dealer: int,
             stacked: Sequence[int] | None = None) -> None:
        cards = shuffle(self.rules.tiles(), seed) if stacked is None else bytes(stacked)
        table = self.table = ZipaiTable(dealer, first_dealer, Wall(cards, DEALT))
        start = 0
        for seat, size in zip(deal_order(dealer), SIZES, strict=True):
            # the seat's counts read from the wall's buffer by the core (the hand is fresh: all zeros)
            table.hands[seat][:] = count_kinds(cards, start, start + size, 20)
            self.events.records.append(_DEALS[seat][size])
            self.events.records.extend(sorted(cards[start:start + size]))
            start += size
        table.shen, table.shen_shown, holder = self.shen_of(seed, dealer, cards)
        if holder >= 0:  # WH-5: a dealt card (the dealer's last) is shown; it stays in its hand
            self.events.add("shen", holder, table.shen_shown, (), table.shen)
        for seat in range(3):  # WH-38: a non-dealer's 报听 moment is its deal
            if seat != dealer:
                self._ask_ready(seat)

    def shen_of(self, seed: int, dealer: int, cards: Sequence[int]) -> tuple[str, int, int]:
        """The 神 (WH-5), the card shown to decide it and the seat it is dealt to (both -1: the ``shen`` option
        fixed it), from the deal."""
        shen = getattr(getattr(self.rules, "options", None), "shen", None)
        if shen is not None:
            return shen, -1, -1
        index, holder = shown_for_shen(dealer, seed, self._random_shen)
        shown = cards[index]
        return ("odd" if value_of(shown) % 2 else "even"), shown, holder

    def restore(self, table: ZipaiTable) -> None:
        """Play on from a table restored from a compact snapshot (:mod:`.codec`) or built otherwise (a search
        world, :mod:`hupai.worlds`)."""
        self.table = table
        known = table.dealer_discarded
        self._dealer_discarded = not table.opening if known is None else known  # None: not known, the safe side
        self._core_groups = [[_core_group(seat, g) for g in table.groups[seat]] for seat in range(3)]

    def snapshot_table(self) -> dict[str, Any]:
        """The table as a snapshot holds it: the compact form (:meth:`ZipaiTable.to_compact`, read by
        :mod:`.codec`); format 1 and hupai before the compact form wrote :meth:`ZipaiTable.to_json`, still read
        (by replay)."""
        return self.table.to_compact()

    # -- core questions ---------------------------------------------------------------------------------
    def _wins(self, seat: int, card: int, self_drawn: bool) -> bool:
        """WH-28, WH-32: the seat's hand and groups with ``card`` make a layout of at least ``min_huxi`` 息 (under a
        house rule that changes which hands win, as the rules say)."""
        if self._house_wins:
            hand = [c for c in range(20) for _ in range(self.table.hands[seat][c])]
            groups = [_declared(seat, g) for g in self.table.groups[seat]]
            return bool(self.rules.layout_wins(hand, groups, card, self_drawn))  # type: ignore[attr-defined]
        return zipai_best(self.table.views[seat], self._core_groups[seat], card, 1 if self_drawn else 2,
                          self._options)[1] is not None

    def _heavenly(self) -> bool:
        """WH-40: the dealer's 20 dealt cards form a winning layout."""
        table = self.table
        return zipai_best(table.views[table.dealer], (), -1, 0, self._options)[1] is not None

    def _ready(self, seat: int) -> bool:
        """Some card completes a winning layout (WH-38), from any source."""
        if self._house_wins:
            held = list(self.table.hands[seat])
            for group in self.table.groups[seat]:
                for card in group.cards:
                    held[card] += 1
            return any(self._wins(seat, card, own) for card in range(20) if held[card] < 4 for own in (True, False))
        return zipai_ready(self.table.views[seat], self._core_groups[seat], self._options)

    def _keeps_discard(self, seat: int, taken: tuple[int, int], locks: int = 0) -> bool:
        """WH-18: after giving up the two cards ``taken`` from its hand (and locking the cards of the mask
        ``locks``), the seat still holds a card it may discard."""
        locked = self.table.locked[seat] | locks
        hand = self.table.hands[seat]
        if 18 - hand.count(0) > locked.bit_count():  # more held kinds than the locks and the two taken
            return True
        for card, count in enumerate(hand):
            if count and not locked >> card & 1 and count > taken.count(card):
                return True
        return False

    # -- decisions --------------------------------------------------------------------------------------
    @property
    def current(self) -> Decision:
        table = self.table
        if table.phase == "over":
            return _OVER
        if table.phase == "turn":  # (a Decision made by tuple.__new__ at C speed: the observer asks every decision)
            return _decision(Decision, ("turn", (table.turn_seat,), -1, table.turn_seat))
        return _decision(Decision, ("claim", self.seats_to_act(), table.offer, table.offer_from))

    def seats_to_act(self) -> tuple[int, ...]:
        table = self.table
        if table.phase == "turn":
            return (table.turn_seat,)
        if table.phase == "over":
            return ()
        answers = table.answers
        return tuple(table.pending) if not answers else tuple([s for s in table.pending if s not in answers])

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        table = self.table
        if table.phase == "turn":
            return self._turn_actions(seat) if seat == table.turn_seat else ()
        if table.phase == "claim":
            return () if seat in table.answers else table.pending.get(seat, ())
        return ()

    def _turn_actions(self, seat: int) -> tuple[Action, ...]:
        """WH-12 (a discard state), WH-13 and WH-40 (the dealer's first move)."""
        table = self.table
        hand = table.hands[seat]
        heavenly = table.opening and self._heavenly()
        locked = table.locked[seat]
        # the held cards' discards, picked at C speed by the counts (a bytearray: 0 is false); under locks (WH-26)
        # by the counts with the locked cards' bytes masked off (one int and-ed), all held if none is left (WH-18)
        if locked:
            free = (int.from_bytes(hand, "little") & (_FREE[locked & 1023] | _FREE[locked >> 10] << 80)).to_bytes(
                20, "little")
            out = list(compress(_DISCARD[seat], free)) or list(compress(_DISCARD[seat], hand))
        else:
            out = list(compress(_DISCARD[seat], hand))
        if heavenly:
            out.insert(0, Action("win", seat, table.wall.tiles[19], (), "tianhu"))
        if not table.dead >> seat & 1:  # WH-27: a 死手 seat is offered no declaration
            if 4 in hand:
                out.extend(_ACT["liu"][seat][card] for card in range(20) if hand[card] == 4)
            groups = table.groups[seat]
            if groups:
                out.extend(_ACT["piao"][seat][g.cards[0]] for g in groups if g.type == "peng" and hand[g.cards[0]])
        return tuple(out)

    def _offer_options(self, card: int, source: int, drawn: bool) -> dict[int, list[Action]]:
        """What each seat may do with the offered ``card`` (WH-14, WH-15, WH-18, WH-22, WH-27, WH-32), in
        WH-17's turn order; seats with nothing left out. A win on the 海底 card is offered even where its drawer
        could 溜 or 歪 it: whether it can depends on the drawer's hidden hand, so WH-19 is applied when the
        answers are in (:meth:`_resolve`), never by what the other seats are offered."""
        bits = self._offer_scan(card, source, drawn)
        out: dict[int, list[Action]] = {}
        for seat in _ORDER[drawn][source]:
            seat_bits = bits >> 16 * seat & 0xFFFF
            if seat_bits:
                out[seat] = list(_offered(seat, card, seat_bits))
        return out

    def _offer_scan(self, card: int, source: int, drawn: bool) -> int:
        """Every seat's options on the offered ``card`` as the core's bits (16 a seat, see :func:`_offered`), in one
        core call: 溜 and 歪 of a seat's own card, 飘 and 碰 (WH-14, WH-15, WH-22), the 吃 (WH-14, not chi-banned
        WH-21 or menzi-banned WH-23, leaving a card to discard once WH-26's locks apply, WH-18), and the wins
        (WH-32); a 死手 seat none (WH-27). Under a house rule that changes which hands win the rules say who
        wins."""
        table = self.table
        house = self._house_wins
        bits: int = zipai_offer(table.hands, self._core_groups, card, source, drawn, table.dead, table.chi_ban,
                                table.menzi_ban, table.locked, _CHOW_SPEC, self._options, not house)
        if house:
            for seat in _ORDER[drawn][source]:
                if not table.dead >> seat & 1 and self._wins(seat, card, drawn and seat == source):
                    bits |= _OFFER_WIN << 16 * seat
        return bits

    def _haidi_blocked(self) -> bool:
        """WH-19: the offered card is the 海底 card and its drawer could 溜 or 歪 it, so nobody wins on it
        (asked once every seat has answered: the drawer's options are its own to know)."""
        table = self.table
        if table.offer_kind != "draw" or table.wall.head != len(table.wall.tiles):
            return False
        return any(a.kind in ("liu", "wai") for a in table.pending.get(table.offer_from, ()))

    def _chows(self, seat: int, card: int) -> list[Action]:
        """The 吃 of ``card`` the seat may make: a held 门子 completed by it, not menzi-banned (WH-23), and
        leaving a card to discard once the locks of WH-26 apply (WH-18). The rules in Python, as the core's offer
        scan (:meth:`_offer_scan`) applies them; tests hold the two to the same answers."""
        hand = self.table.hands[seat]
        banned = self.table.menzi_ban[seat]
        out = []
        for low, high, locks, bit, action in _CHOWS[seat][card]:
            if not (hand[low] and hand[high]) or banned & bit:
                continue
            if self._keeps_discard(seat, (low, high), locks):
                out.append(action)
        return out

    def why_illegal(self, action: Action, legal: tuple[Action, ...]) -> str:
        return zipai_illegal_reason(self.table, self.seats_to_act(), action, legal)

    # -- applying a legal action ------------------------------------------------------------------------
    def apply(self, action: Action) -> dict[int, tuple[Action, ...]]:
        """Apply a legal action; returns the legal actions known for the new state (the seats to act; the shell
        asks for any other)."""
        table = self.table
        if table.phase == "claim":
            table.answers[action.seat] = action
            if len(table.answers) == len(table.pending):
                self._resolve()
            return self._known()
        kind, seat, card = action.kind, action.seat, action.tile
        opening = table.opening
        table.opening = False
        if kind == "win":  # 天胡
            self._settle(seat, card, "dealt", None)
            return {}
        if kind == "discard":
            self._discard(seat, card, opening)
            return self._known()
        hand = table.hands[seat]
        if kind == "liu":  # four held (WH-12)
            hand[card] -= 4
            self._add_group(seat, Group("liu", (card,) * 4), grouped=not opening)
        else:  # piao: the held fourth onto its own 碰 (WH-12)
            hand[card] -= 1
            self._upgrade(seat, "peng", card, "piao")
        if opening:
            self._dealer_moved()
        self._turn_up((seat + 1) % 3)
        return self._known()

    def _known(self) -> dict[int, tuple[Action, ...]]:
        """The legal actions of the seats to act now, as :meth:`legal_actions` gives them (a new dict: the shell
        fills it with what it asks later)."""
        table = self.table
        if table.phase == "turn":
            return {table.turn_seat: self._turn_actions(table.turn_seat)}
        if table.phase != "claim":
            return {}
        answers = table.answers
        if not answers:
            return dict(table.pending)
        return {seat: options for seat, options in table.pending.items() if seat not in answers}

    def _dealer_moved(self) -> None:
        """WH-38: the dealer's 报听 moment is right after its first discard or the 溜 that replaced it."""
        self._ask_ready(self.table.dealer)

    def _ask_ready(self, seat: int) -> None:
        """WH-38: whether ``seat`` is ready at its 报听 moment, now. With the core's wins the table keeps the question
        and answers it when its ``ready_deal`` is first read (:meth:`ZipaiTable.ask_ready`: a win without a group
        since, a snapshot); a house rule's wins are the rules' to say, asked at once."""
        table = self.table
        if self._house_wins:
            table.ready_deal[seat] = self._ready(seat)
        else:
            table.ask_ready(seat, bytes(table.hands[seat]), tuple(self._core_groups[seat]), self._options)

    def _discard(self, seat: int, card: int, opening: bool) -> None:
        table = self.table
        hand = table.hands[seat]
        hand[card] -= 1
        # WH-21: the card and, for every 门子 left in the hand it would complete, that 门子's other completing card
        bit = 1 << card
        chi_ban = table.chi_ban[seat] | bit
        table.peng_ban[seat] |= bit
        for low, high, others in _BANS_OF[card]:
            if hand[low] and hand[high]:
                chi_ban |= others
        table.chi_ban[seat] = chi_ban
        self.events.records.append(_DISCARDS[seat][card])
        if opening:
            self._dealer_moved()
            table.dealer_opening = True  # 地胡 (WH-35) is a win on this card
        elif self._dihu_any and seat == table.dealer and not self._dealer_discarded:
            table.dealer_opening = True  # WH-35's house rule: the dealer's first discard, after an opening 溜
        if seat == table.dealer:
            self._dealer_discarded = True
        if self._lean:  # (_offer's first question, asked here: a call less at every discard)
            self._lean_offer(card, seat, False)
        else:
            self._offer(card, seat, False)

    def _turn_up(self, seat: int) -> None:
        """WH-15: ``seat`` turns up the top stock card; WH-20: none left is 黄庄."""
        table = self.table
        wall = table.wall
        if wall.head >= len(wall.tiles):
            self._drawn_hand()
            return
        card = wall.tiles[wall.head]
        wall.head += 1
        if wall.head == len(wall.tiles):
            table.haidi = seat  # WH-46: the 海底 drawer deals after a 黄庄
        self.events.records.append(_TURN_UPS[seat][card])
        self._offer(card, seat, True)

    def _offer(self, card: int, source: int, drawn: bool) -> None:
        table = self.table
        if self._lean:
            self._lean_offer(card, source, drawn)
            return
        table.phase = "claim"
        table.offer = card
        table.offer_from = source
        table.offer_kind = "draw" if drawn else "discard"
        bits = self._offer_scan(card, source, drawn)
        if self.window == "all":  # every seat in turn order, pass alone where it has nothing
            table.pending = {seat: _pending(seat, card, bits >> 16 * seat & 0xFFFF) for seat in _ORDER[drawn][source]}
        elif bits:
            table.pending = {seat: _pending(seat, card, seat_bits) for seat in _ORDER[drawn][source]
                             if (seat_bits := bits >> 16 * seat & 0xFFFF)}
        else:  # nobody may do anything (most offers)
            table.pending = {}
        table.answers = {}
        self._offer_bits = bits
        self._bits_pending = table.pending
        if not table.pending:
            self._unclaimed()

    def _lean_offer(self, card: int, source: int, drawn: bool, unclaimed: bool = False) -> None:
        """:meth:`_offer` in the "eligible" window with the core's wins: one core call (``_core.zipai_offer_run``)
        scans the card and, while nobody may answer, puts it on its pile and offers the next turn-up, as
        :meth:`_unclaimed` and :meth:`_turn_up` would one by one (most offered cards go unasked); the events, the
        wall's head, the 海底 drawer and the offer's fields end as they would. The piles are the core's only writes.
        ``unclaimed``: the card was offered and its seats passed (:meth:`_unclaimed`): it goes onto its pile first."""
        table = self.table
        wall = table.wall
        head = wall.head
        tiles = wall.tiles
        bits, card, last, from_stock, at = zipai_offer_run(
            table.hands, self._core_groups, card, source, drawn, table.dead, table.chi_ban, table.menzi_ban,
            table.locked, _CHOW_SPEC, self._options, tiles, head, table.piles, table.pile_sizes, unclaimed)
        if at != head or bits < 0:  # cards went unclaimed onto their piles
            table.dealer_opening = False  # 地胡 (WH-35) was only on the first of them
            if at != head:  # each card turned up by the 下家 of the last card's seat
                self.events.records.extend(map(getitem, _TURN_ROWS[source], tiles[head:at]))
                wall.head = at
                if at == len(tiles):
                    table.haidi = (source + at - head) % 3  # WH-46: the 海底 drawer deals after a 黄庄
        table.phase = "claim"
        table.offer_from = last
        table.answers = {}
        if bits < 0:  # a turn-up was due and the stock is empty: 黄庄 (WH-20)
            table.offer = -1
            table.offer_kind = ""
            table.pending = {}
            self._drawn_hand()
            return
        table.offer = card
        table.offer_kind = "draw" if from_stock else "discard"
        pending = {}
        for seat in _ORDER[from_stock][last]:  # (a loop, not a comprehension's frame: this runs at every offer)
            seat_bits = bits >> 16 * seat & 0xFFFF
            if seat_bits:
                pending[seat] = _pending(seat, card, seat_bits)
        table.pending = self._bits_pending = pending
        self._offer_bits = bits

    def _resolve(self) -> None:
        """WH-17: the one action carried out; WH-23..25: the passes that count."""
        table = self.table
        answers = table.answers
        taken: Action | None = None
        if len(answers) == 1:  # one seat asked (the "eligible" window's usual offer): its answer alone
            for only in answers.values():
                if only.kind != "pass" and not (only.kind == "win" and self._haidi_blocked()):
                    taken = only
        else:
            no_wins = self._haidi_blocked()
            for seat in _ORDER[table.offer_kind == "draw"][table.offer_from]:
                answer = answers.get(seat)
                if (answer is not None and answer.kind != "pass" and not (no_wins and answer.kind == "win")
                        and (taken is None or RANK[answer.kind] > RANK[taken.kind])):
                    taken = answer
        self._mark_passes(taken)
        table.pending = {}
        table.answers = {}
        table.dealer_opening, earthly = False, table.dealer_opening
        if taken is None:
            self._unclaimed()
        else:
            self._take(taken, earthly)

    def _mark_passes(self, taken: Action | None) -> None:
        """WH-23 (过吃), WH-24 (过碰, 歪 included), counted only as WH-25 says: nobody took the card or a
        lower-ranked action did. What each seat was offered is read from the offer's bits (what its options were
        made from, :func:`_offered`); a window reopened by a restore reads its options (:meth:`_mark_listed`)."""
        table = self.table
        pending = table.pending
        if pending is not self._bits_pending:
            self._mark_listed(taken)
            return
        card = table.offer
        bit = 1 << card
        bits = self._offer_bits
        bar = -1 if taken is None else RANK[taken.kind]
        answers = table.answers
        for seat in pending:
            seat_bits = bits >> 16 * seat & 0xFFFF
            chosen = answers[seat].kind
            if seat_bits & _OFFER_CHOWS and bar < 0 and chosen != "chow":  # a 吃 ranks below anything taken
                table.chi_ban[seat] |= bit
                table.menzi_ban[seat] |= _CHOW_BANS[card][seat_bits >> 5 & 15]
            if seat_bits & _OFFER_PENG_RANKS and (3 if seat_bits & 2 else 1) > bar and chosen != "pung" \
                    and chosen != "wai":
                table.peng_ban[seat] |= bit

    def _mark_listed(self, taken: Action | None) -> None:
        """:meth:`_mark_passes` from the options listed in ``table.pending`` (a window a restore reopened; tests
        hold the two to the same games)."""
        table = self.table
        card = table.offer
        bar = -1 if taken is None else RANK[taken.kind]
        chows_count = RANK["chow"] > bar
        answers = table.answers
        for seat, options in table.pending.items():
            if len(options) == 1:  # a lone pass (the "all" window): nothing was passed up
                continue
            chosen = answers[seat].kind
            peng_rank = -1
            chows = None
            for action in options:  # one loop, no comprehension frames: this runs at every offer
                kind = action.kind
                if kind == "chow":
                    if chows is None:
                        chows = [action]
                    else:
                        chows.append(action)
                elif (kind == "pung" or kind == "wai") and RANK[kind] > peng_rank:
                    peng_rank = RANK[kind]
            if chows and chows_count and chosen != "chow":
                table.chi_ban[seat] |= 1 << card
                for action in chows:
                    table.menzi_ban[seat] |= _RUN_PARTS[card, action.tiles][3]
            if peng_rank > bar and chosen != "pung" and chosen != "wai":
                table.peng_ban[seat] |= 1 << card

    def _unclaimed(self) -> None:
        """Nobody took the offered card: it joins its seat's pile; that seat's 下家 turns up next (WH-14, WH-15)."""
        table = self.table
        if self._lean:  # the core piles it and runs the next turn-ups
            self._lean_offer(table.offer, table.offer_from, table.offer_kind == "draw", True)
            return
        source = table.offer_from
        size = table.pile_sizes[source]  # (below PILE_CAPACITY: the game has 80 cards)
        table.piles[source][size] = table.offer
        table.pile_sizes[source] = size + 1
        table.offer = -1
        table.offer_kind = ""
        table.dealer_opening = False  # a card nobody was asked about ends here too: 地胡 was only on that one
        self._turn_up((source + 1) % 3)

    def _take(self, action: Action, earthly: bool) -> None:
        """Carry out the action WH-17 chose on the offered card (WH-16)."""
        table = self.table
        kind, seat, card = action.kind, action.seat, action.tile
        source = table.offer_from
        drawn = table.offer_kind == "draw"
        if kind == "win":
            self._settle(seat, card, ("wall" if seat == source else "turned_up") if drawn else "discard",
                         None if drawn and seat == source else source, earthly=earthly)
            return
        hand = table.hands[seat]
        table.offer = -1
        table.offer_kind = ""
        skips = kind in ("liu", "piao")  # no discard state after the action
        if kind == "liu":
            if hand[card] == 3:  # a 坎 and its self-drawn fourth
                hand[card] -= 3
                self._add_group(seat, Group("liu", (card,) * 4, card, seat))
            else:  # its own 歪 and the self-drawn fourth
                self._upgrade(seat, "wai", card, "liu")
        elif kind == "piao":
            if seat == source and drawn:  # its own 碰 and the self-drawn fourth
                self._upgrade(seat, "peng", card, "piao")
            else:  # three held and another seat's card
                hand[card] -= 3
                self._add_group(seat, Group("piao", (card,) * 4, card, source))
        elif kind in ("wai", "pung"):
            hand[card] -= 2
            self._add_group(seat, Group("wai" if kind == "wai" else "peng", (card,) * 3, card, source))
            if table.peng_ban[seat] >> card & 1:
                # WH-27: shown at once, and the seat still makes its discard under either sishou reading: the
                # seed's 先摸后打 ("任何吃碰等都要打牌，溜和飘除外") leaves no 碰 without one (WH-11's count holds).
                table.dead |= 1 << seat
        else:  # chow
            low, high, locks, _ = _RUN_PARTS[card, action.tiles]
            hand[low] -= 1
            hand[high] -= 1
            self._add_group(seat, Group("chi", tuple(action.tiles), card, source))
            # WH-26: the chowed value and the 门子's other completing card are locked for the hand
            table.locked[seat] |= locks
        if skips:
            self._turn_up((seat + 1) % 3)  # WH-16: no discard; the taker's 下家 turns up
        else:
            table.phase = "turn"
            table.turn_seat = seat

    def _add_group(self, seat: int, group: Group, grouped: bool = True) -> None:
        table = self.table
        table.put_group(seat, group)
        self._core_groups[seat].append(_core_group(seat, group))
        # _group_made, inline (a group is made at a third of the decisions)
        table.calls += 1
        if grouped:
            table.grouped |= 1 << seat  # WH-38: any group after the 报听 moment voids it
        events = self.events.records
        events.append(_GROUPS[group.type][seat][group.taken][group.source])
        events.extend(group.cards)

    def _upgrade(self, seat: int, old: str, card: int, new: str) -> None:
        """A 歪 becoming a 溜, a 碰 becoming a 飘: the group keeps its place and its source."""
        groups = self.table.groups[seat]
        index = next(i for i, g in enumerate(groups) if g.type == old and g.cards[0] == card)
        group = Group(new, (card,) * 4, groups[index].taken, groups[index].source)
        self.table.put_group(seat, group, index)
        self._core_groups[seat][index] = _core_group(seat, group)
        self._group_made(seat, group, True)

    def _group_made(self, seat: int, group: Group, grouped: bool) -> None:
        table = self.table
        table.calls += 1
        if grouped:
            table.grouped |= 1 << seat  # WH-38: any group after the 报听 moment voids it
        events = self.events.records
        events.append(_GROUPS[group.type][seat][group.taken][group.source])
        events.extend(group.cards)

    # -- the end ----------------------------------------------------------------------------------------
    def _settle(self, seat: int, card: int, source: str, discarder: int | None, earthly: bool = False) -> None:
        table = self.table
        wall = table.wall
        heavenly = source == "dealt"
        concealed = [c for c in range(20) for _ in range(table.hands[seat][c])]
        if heavenly:
            concealed.remove(card)
        # WH-39: the top remaining stock card, or the 海底 card when none is left
        shen_card: int | None = wall.tiles[wall.head] if wall.head < len(wall.tiles) else wall.tiles[-1]
        if self._shenyao_after and source not in ("wall", "turned_up"):
            shen_card = None  # WH-39's house rule: only a card turned up from the stock has one after it
        last = table.offer_kind == "draw" and wall.head == len(wall.tiles)
        # WinContext.melds holds hupai.zipai.Declared groups for the zipai family (the agreed interface)
        groups: Any = tuple(_declared(seat, g) for g in table.groups[seat])
        context = WinContext(
            winner=seat, win_tile=card, concealed=tuple(concealed), melds=groups,
            discarder=discarder, dealer=table.dealer, num_players=3, heavenly=heavenly,
            earthly=earthly and seat != table.dealer, last_tile=last and not heavenly,
            ready_from_deal=not table.grouped >> seat & 1 and not heavenly and table.ready_of(seat) == 1,
            shen=table.shen, shen_card=shen_card)
        score = self.rules.score(context)
        if len(score.payments) != 3 or sum(score.payments) != 0:
            raise HupaiError(f"{self.rules.name}: a score's payments must be 3 amounts summing to 0, "
                             f"got {score.payments!r}")
        self.events.add("win", seat, card, (), source)
        self._finish(HandResult((seat,), (WinResult(seat, card, source, discarder, context, score),),
                                tuple(score.payments), seat, False))

    def _drawn_hand(self) -> None:
        """WH-20, WH-45, WH-46: 黄庄, nobody pays, the 海底 drawer deals next."""
        self.events.add("drawn")
        self._finish(HandResult((), (), (0, 0, 0), self.table.haidi, True))

    def _finish(self, result: HandResult) -> None:
        self.result = result
        close_hand(self.table, self.events, result)

"""The table of one Wai Huzi (歪胡子) hand (``rules/waihuzi.md``), owned and written by
:class:`~hupai.game.zipai.flow.ZipaiFlow`, and how a saved one is checked.

Fields (the ones the shell and the observer read carry the mahjong table's names):

- ``num_players`` (3), ``dealer``, ``first_dealer``, ``round_wind`` (always 0: no winds, §10), ``seat_winds``
  (each seat's place from the dealer, for the observation)
- ``wall``: the 80 cards in dealt order; ``wall.head`` is the next stock card (58 after the deal: WH-4)
- ``hands[seat]``: 20 counts (``bytearray``), ``views[seat]`` the same as a numpy ``uint8`` array (the core
  reads it in place)
- ``group_records[seat]``: the declared groups (歪 碰 溜 飘 吃, WH-9), a ``bytearray`` of fixed-width records of
  :data:`RECORD_SIZE` bytes each (type, four cards, taken card, source seat; :data:`NONE` for none), in the order
  made, written only by :meth:`ZipaiTable.put_group` (and set whole by :meth:`ZipaiTable.set_group_records` on a
  restore); ``groups[seat]`` the same as a tuple of :class:`Group`, a cache kept with the records and replaced
  whenever that seat's change (what rules, observers and snapshots read)
- ``piles[seat]``: the seat's pile (its discards and its turned-up cards that nobody took, WH-15), a ``bytearray``
  of :data:`PILE_CAPACITY` bytes whose first ``pile_sizes[seat]`` are the cards in order (``pile_sizes`` a
  ``bytearray``: a card joins a pile as one byte written in place); ``discards`` the piles as lists, a copy
- ``phase``: ``"turn"`` (``turn_seat`` is in a discard state, WH-12, or the dealer's first move, WH-13),
  ``"claim"`` (``offer`` is offered: ``offer_kind`` ``"draw"`` from ``offer_from``'s turn-up or ``"discard"``),
  ``"over"``; ``pending`` / ``answers`` as in the mahjong table
- ``shen`` (``"odd"``/``"even"``, WH-5) and ``shen_shown`` (the card shown to decide it, -1 if the option fixed it)
- per seat: ``chi_ban``, ``peng_ban`` and ``locked`` (WH-21..26) as 20-bit card masks (an int, bit ``c`` for
  card ``c``: the flow tests one card per action, and an int's shift is the cheapest test), ``menzi_ban`` (WH-23)
  as a mask over :data:`MENZI` (bit ``i`` for triple ``MENZI[i]``, so bit order is sorted order); ``dead`` (死手,
  WH-27) and ``grouped`` (a group made since the 报听 moment) as seat masks (an int, bit ``s`` for seat ``s``: the
  flow tests them at every offer), ``ready_deal`` (ready at the 报听 moment, WH-38) a ``bytearray``, 1 or 0 per
  seat, :data:`NONE` before the dealer's first move (:func:`mask_flags` gives a seat mask's flags); the flow may
  leave a seat's answer to be worked out when first read (:meth:`ZipaiTable.ask_ready`: most hands never read it)
- ``opening``: the dealer has not moved yet; ``dealer_opening``: the offered card is the dealer's first discard
  made as its first move (地胡, WH-35); ``haidi``: the seat that turned up the last stock card (WH-46), or -1
- ``calls``: groups made so far (observers rebuild their group views when it moves)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import add
from typing import Any, NamedTuple

import numpy as np

from ..._core import zipai_ready
from ...actions import Action
from ...errors import InvalidState
from ...jsonform import describe
from ...zipai import RUNS
from ...zipai.cards import completing_cards
from .validate import check_free_json
from .wall import Wall

__all__ = ["Group", "ZipaiTable", "check_table_shape", "GROUP_TYPES", "FORM", "CARD_CHARS", "MENZI", "MENZI_BIT",
           "PILE_CAPACITY", "RECORD_SIZE", "GROUP_CAPACITY", "NONE", "card_mask", "mask_cards", "menzi_triples",
           "mask_flags", "group_record", "record_group", "record_groups"]

GROUP_TYPES = ("wai", "peng", "liu", "piao", "chi")
#: The compact snapshot table's marker (:meth:`ZipaiTable.to_compact`, read by :mod:`hupai.game.zipai.codec`).
FORM = "zipai-compact/1"
#: One character per card in the compact form: 0..9, then a..j for 10..19.
CARD_CHARS = "0123456789abcdefghij"
_ENCODE = bytes(ord(CARD_CHARS[c]) if c < 20 else ord("?") for c in range(256))
#: The size of a pile's buffer (``ZipaiTable.piles``): the game's 80 cards, so no pile can outgrow it.
PILE_CAPACITY = 80
_PADS = tuple(bytes(PILE_CAPACITY - size) for size in range(PILE_CAPACITY + 1))  # a pile's zeros, by its size
_CARD_BYTES = bytes(range(20))  # what bytes.translate deletes to leave what is not a card
#: A group record's size (``ZipaiTable.group_records``): type (its index in :data:`GROUP_TYPES`), four cards (a
#: 3-card group's fourth :data:`NONE`), the taken card and the source seat (each :data:`NONE` for none).
RECORD_SIZE = 7
#: The groups a seat may hold: WH-11's 19 cards at rest, three a group, allow six; the compact form seven.
GROUP_CAPACITY = 7
#: A byte for none: a record's no card, no seat; ready_deal's not known yet.
NONE = 255
_BITS = tuple(tuple(mask >> seat & 1 for seat in range(3)) for mask in range(8))  # a seat mask's 0/1 per seat
_PHASES = ("turn", "claim", "over")
_OFFER_KINDS = ("", "draw", "discard")
_TYPE_LETTERS = {"wai": "w", "peng": "p", "liu": "l", "piao": "f", "chi": "c"}
#: Every (low, high, card) triple a passed 吃 may menzi-ban (WH-23: a 门子 of a run and its other completing
#: card), sorted; ``menzi_ban`` holds bit ``i`` for ``MENZI[i]``.
MENZI: tuple[tuple[int, int, int], ...] = tuple(sorted({
    (low, high, other) for run in RUNS for card in run for low, high in [tuple(c for c in run if c != card)]
    for other in completing_cards(low, high) if other != card}))
MENZI_BIT = {triple: 1 << i for i, triple in enumerate(MENZI)}
#: The cards of a 10-bit half mask, for decoding a card mask in two look-ups.
_LOW = tuple(tuple(c for c in range(10) if m >> c & 1) for m in range(1024))
_HIGH = tuple(tuple(c + 10 for c in range(10) if m >> c & 1) for m in range(1024))
_MENZI_CHARS = tuple(bytes(t).translate(_ENCODE).decode("ascii") for t in MENZI)


#: A seat mask's flags, by mask (3 seats).
_FLAGS = tuple(tuple(bool(mask >> seat & 1) for seat in range(3)) for mask in range(8))


def mask_flags(mask: int) -> tuple[bool, ...]:
    """A 3-seat mask (``dead``, ``grouped``) as a flag per seat."""
    return _FLAGS[mask]


def card_mask(cards: Any) -> int:
    """A collection of cards 0..19 as a 20-bit mask."""
    return sum({1 << card for card in cards})


def mask_cards(mask: int) -> tuple[int, ...]:
    """A 20-bit card mask's cards, ascending."""
    return _LOW[mask & 1023] + _HIGH[mask >> 10 & 1023]


@lru_cache(maxsize=1024)  # the observer asks at every change of a seat's bans, and a hand has few menzi masks
def menzi_triples(mask: int) -> tuple[tuple[int, int, int], ...]:
    """A ``menzi_ban`` mask's triples, sorted."""
    return tuple([triple for i, triple in enumerate(MENZI) if mask >> i & 1]) if mask else ()


class Group(NamedTuple):
    """A declared group: ``type`` in :data:`GROUP_TYPES`, ``cards`` ascending, ``taken`` the card that came from
    a turned-up or discarded card (-1: none: a 溜 or 飘 of held cards keeps its 碰's), ``source`` the seat whose
    card it was (-1: none)."""

    type: str
    cards: tuple[int, ...]
    taken: int = -1
    source: int = -1


def _make_record(group: Group) -> bytes:
    taken = group.taken
    source = group.source
    return bytes((GROUP_TYPES.index(group.type), *group.cards, *(NONE,) * (4 - len(group.cards)),
                  NONE if taken < 0 else taken, NONE if source < 0 else source))


# A record's parts, made once (plain bytes, nothing the cyclic garbage collector walks: a table of Group objects made
# at import cost more in collections than it saved): its head (type and cards) per same-card type and card, or per
# run for a 吃, and its end (taken card, source seat) as ``_RECORD_ENDS[taken][source]``, index -1 (the last entry)
# for -1, none.
_SAME_HEADS = {kind: tuple(_make_record(Group(kind, (card,) * size))[:5] for card in range(20))
               for kind, size in (("wai", 3), ("peng", 3), ("liu", 4), ("piao", 4))}
_CHI_HEADS: dict[tuple[int, ...], bytes] = {run: _make_record(Group("chi", run))[:5] for run in RUNS}
_RECORD_ENDS = tuple(tuple(bytes((taken & NONE, source & NONE)) for source in (0, 1, 2, -1))
                     for taken in (*range(20), -1))


def group_record(group: Group) -> bytes:
    """A group's record (:data:`RECORD_SIZE` bytes, see :data:`RECORD_SIZE`)."""
    try:
        kind = group.type
        head = _SAME_HEADS[kind][group.cards[0]] if kind != "chi" else _CHI_HEADS[group.cards]
        return head + _RECORD_ENDS[group.taken][group.source]
    except (KeyError, IndexError):  # not a group a hand makes (a table built by hand): made the long way
        return _make_record(group)


def record_group(record: bytes) -> Group:
    """The group of one record (:data:`RECORD_SIZE` bytes that :func:`group_record` wrote or a snapshot's checked
    token gave)."""
    kind, a, b, c, d, taken, source = record
    return Group(GROUP_TYPES[kind], (a, b, c) if d == NONE else (a, b, c, d), -1 if taken == NONE else taken,
                 -1 if source == NONE else source)


def record_groups(records: bytes) -> tuple[Group, ...]:
    """The groups of a seat's records in use (a multiple of :data:`RECORD_SIZE` bytes)."""
    return tuple([record_group(records[start:start + RECORD_SIZE]) for start in range(0, len(records), RECORD_SIZE)])


_TABLE_KEYS = frozenset({
    "n", "dealer", "first_dealer", "wall", "hands", "groups", "discards", "phase", "turn_seat", "offer",
    "offer_from", "offer_kind", "pending", "answers", "shen", "shen_shown", "dead", "chi_ban", "peng_ban",
    "menzi_ban", "locked", "ready_deal", "grouped", "opening", "dealer_opening", "haidi", "calls",
})


@lru_cache(maxsize=4096)
def _token(group: Group) -> str:
    """A group's compact token (cached: a hand makes a few dozen distinct groups, and a Group is immutable)."""
    a, b, c = group.cards[:3]
    return (f"{_TYPE_LETTERS[group.type]}{CARD_CHARS[a]}{CARD_CHARS[b]}{CARD_CHARS[c]}"
            f"{'-' if group.taken < 0 else CARD_CHARS[group.taken]}{'-' if group.source < 0 else group.source}")


@lru_cache(maxsize=1024)
def _menzi_string(mask: int) -> str:
    """A ``menzi_ban`` mask in the compact form: its triples' cards, sorted (a few distinct masks a hand)."""
    return "".join([_MENZI_CHARS[i] for i in range(len(MENZI)) if mask >> i & 1])


class ZipaiTable:
    """The mutable state of one Wai Huzi hand (see the module docstring)."""

    __slots__ = ("num_players", "dealer", "first_dealer", "round_wind", "seat_winds", "wall", "hands", "views",
                 "group_records", "groups", "piles", "pile_sizes", "phase", "turn_seat", "offer",
                 "offer_from", "offer_kind", "pending", "answers", "shen", "shen_shown", "dead", "chi_ban", "peng_ban",
                 "menzi_ban", "locked", "_ready_deal", "_ready_asks", "grouped", "opening", "dealer_opening", "haidi",
                 "calls", "extras", "dealer_discarded")

    def __init__(self, dealer: int, first_dealer: int, wall: Wall, n: int = 3) -> None:
        self.num_players = n
        self.dealer = dealer
        self.first_dealer = first_dealer
        self.round_wind = 0
        self.seat_winds = tuple((seat - dealer) % n for seat in range(n))
        self.wall = wall
        self.hands: list[bytearray] = [bytearray(20) for _ in range(n)]
        self.views = [np.frombuffer(hand, dtype=np.uint8) for hand in self.hands]
        self.group_records = [bytearray() for _ in range(n)]
        self.groups: list[tuple[Group, ...]] = [()] * n
        self.piles = [bytearray(PILE_CAPACITY) for _ in range(n)]
        self.pile_sizes = bytearray(n)
        self.phase = "turn"
        self.turn_seat = dealer
        self.offer = -1
        self.offer_from = -1
        self.offer_kind = ""
        self.pending: dict[int, tuple[Action, ...]] = {}
        self.answers: dict[int, Action] = {}
        self.shen = "odd"
        self.shen_shown = -1
        self.dead = 0
        self.chi_ban: list[int] = [0] * n
        self.peng_ban: list[int] = [0] * n
        self.menzi_ban: list[int] = [0] * n
        self.locked: list[int] = [0] * n
        self._ready_deal = bytearray([NONE]) * n
        # The 报听 questions asked and not answered yet (ask_ready): per seat None or what the core reads.
        self._ready_asks: tuple[Any, ...] | None = None
        self.grouped = 0
        self.opening = True
        self.dealer_opening = False
        self.haidi = -1
        self.calls = 0
        self.extras: dict[str, Any] = {}  # the shell's Table has it; Wai Huzi keeps its facts in typed fields
        # Has the dealer discarded (WH-35's house rule)? The flow keeps it while it plays; a table restored from a
        # compact snapshot carries it here for the flow (it comes from the actions, not from the table's JSON).
        # None: not known (a table built otherwise, such as a search world); the flow then takes the safe side.
        self.dealer_discarded: bool | None = None

    @property
    def ready_deal(self) -> bytearray:
        """Per seat 1 or 0: ready at its 报听 moment (WH-38), :data:`NONE` not known yet. The questions
        :meth:`ask_ready` left are answered here first."""
        if self._ready_asks is not None:
            self._answer_ready()
        return self._ready_deal

    @ready_deal.setter
    def ready_deal(self, value: bytearray) -> None:
        self._ready_deal = value
        self._ready_asks = None

    def ask_ready(self, seat: int, hand: bytes, groups: tuple[tuple[int, int, int, int, int], ...],
                  options: tuple[int, bool, bool, bool]) -> None:
        """Ask whether ``seat`` is ready at its 报听 moment (WH-38): ``hand`` (its 20 counts then), ``groups`` (its
        groups as the core reads them, ``hupai.zipai.Declared.as_core``) and the core's ``options`` are kept (a
        copy of what the question reads: the hand moves on) and answered when :attr:`ready_deal` is first read
        (a snapshot, a copy's reader) or the seat's alone by :meth:`ready_of` (a win with no group made since),
        never at the moment itself: the core's question costs more than a decision, and most hands never ask it."""
        asks = list(self._ready_asks or (None,) * self.num_players)
        asks[seat] = (hand, groups, options)
        self._ready_asks = tuple(asks)

    def ready_of(self, seat: int) -> int:
        """``ready_deal[seat]``, answering that seat's question alone if it waits (a win reads the winner's only)."""
        asks = self._ready_asks
        if asks is not None and asks[seat] is not None:
            hand, groups, options = asks[seat]
            self._ready_deal[seat] = zipai_ready(np.frombuffer(hand, dtype=np.uint8), groups, options)
            rest = asks[:seat] + (None,) + asks[seat + 1:]
            self._ready_asks = None if rest.count(None) == len(rest) else rest
        return self._ready_deal[seat]

    def _answer_ready(self) -> None:
        asks = self._ready_asks
        assert asks is not None
        for seat, ask in enumerate(asks):
            if ask is not None:
                hand, groups, options = ask
                self._ready_deal[seat] = zipai_ready(np.frombuffer(hand, dtype=np.uint8), groups, options)
        self._ready_asks = None

    @staticmethod
    def views_of(hands: list[bytearray]) -> list[np.ndarray[Any, np.dtype[np.uint8]]]:
        """Each hand as a numpy ``uint8`` array over the same memory (the core reads it in place)."""
        return [np.frombuffer(hand, dtype=np.uint8) for hand in hands]

    @property
    def discards(self) -> list[list[int]]:
        """Each seat's pile as a list of cards, a copy."""
        return [list(pile[:size]) for pile, size in zip(self.piles, self.pile_sizes, strict=True)]

    def set_piles(self, piles: Sequence[bytes]) -> None:
        """Set every seat's pile from its cards as bytes (0..19, at most :data:`PILE_CAPACITY` of them): a restore,
        or a table made from an observation. ValueError if they do not fit (checked in bulk, and built without a
        Python loop: a restore's path)."""
        sizes = bytearray(map(len, piles))  # ValueError for a pile of over 255 cards
        if (len(sizes) != self.num_players or max(sizes, default=0) > PILE_CAPACITY
                or b"".join(piles).translate(None, _CARD_BYTES)):  # TypeError for a pile that is not bytes-like
            raise ValueError(f"{self.num_players} piles of at most {PILE_CAPACITY} cards each 0..19, "
                             f"got {len(sizes)} piles of {max(sizes, default=0)} at most")
        self.piles = list(map(bytearray, map(add, piles, map(_PADS.__getitem__, sizes))))
        self.pile_sizes = sizes

    def put_group(self, seat: int, group: Group, index: int = -1) -> None:
        """The one writer of a seat's groups in play: ``group``'s record is appended (a new group) or replaces
        record ``index`` (an upgrade in place), and the seat's :class:`Group` cache follows (the group the record
        was made from: what :func:`record_group` reads back from it)."""
        record = group_record(group)
        groups = self.groups[seat]
        if index < 0:
            if len(groups) >= GROUP_CAPACITY:
                raise ValueError(f"seat {seat} already holds {GROUP_CAPACITY} groups")
            self.group_records[seat] += record  # (appending costs a tenth of a slice's assignment)
            self.groups[seat] = (*groups, group)
        else:
            if index >= len(groups):
                raise ValueError(f"seat {seat} holds {len(groups)} groups: no record {index} to replace")
            start = index * RECORD_SIZE
            self.group_records[seat][start:start + RECORD_SIZE] = record
            self.groups[seat] = (*groups[:index], group, *groups[index + 1:])

    def set_group_records(self, records: Sequence[bytes], groups: Sequence[tuple[Group, ...]] | None = None) -> None:
        """Set every seat's records (per seat a multiple of :data:`RECORD_SIZE` bytes, at most
        :data:`GROUP_CAPACITY` records, each a checked group's: a restore) and the caches: ``groups``, the groups
        they were made from if the caller has them, else read back from the records."""
        sizes = list(map(len, records))
        if (len(sizes) != self.num_players or any(size % RECORD_SIZE for size in sizes)
                or max(sizes) > RECORD_SIZE * GROUP_CAPACITY):
            raise ValueError(f"{self.num_players} seats' records of at most {GROUP_CAPACITY} groups each")
        self.group_records = list(map(bytearray, records))
        self.groups = list(groups) if groups is not None else [record_groups(seat) for seat in records]

    def set_groups(self, groups: Sequence[Sequence[Group]]) -> None:
        """Set every seat's groups (a table made from an observation, or from the full form)."""
        self.set_group_records([b"".join(map(group_record, seat)) for seat in groups],
                               [tuple(seat) for seat in groups])

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def at_rest(self, seat: int) -> int:
        """The card count WH-11 fixes for ``seat`` at rest: 19 plus one per 4-card group."""
        return 19 + sum(1 for g in self.groups[seat] if len(g.cards) == 4)

    def cards_held(self, seat: int) -> int:
        """Hand plus declared groups."""
        return sum(self.hands[seat]) + sum(len(g.cards) for g in self.groups[seat])

    # -- snapshot -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.num_players, "dealer": self.dealer, "first_dealer": self.first_dealer,
            "wall": [list(self.wall.tiles), self.wall.head, self.wall.tail],
            "hands": [list(h) for h in self.hands],
            "groups": [[[g.type, list(g.cards), g.taken, g.source] for g in gs] for gs in self.groups],
            "discards": self.discards, "phase": self.phase, "turn_seat": self.turn_seat,
            "offer": self.offer, "offer_from": self.offer_from, "offer_kind": self.offer_kind,
            # Actions in their compact form, plain lists all through (``list(action)`` would keep the tiles a
            # tuple, which the snapshot's check refuses: a server restoring the snapshot it holds in memory).
            "pending": [[seat, [a.to_compact() for a in opts]] for seat, opts in self.pending.items()],
            "answers": [[seat, a.to_compact()] for seat, a in self.answers.items()],
            "shen": self.shen, "shen_shown": self.shen_shown, "dead": list(_FLAGS[self.dead]),
            "chi_ban": [list(mask_cards(m)) for m in self.chi_ban],
            "peng_ban": [list(mask_cards(m)) for m in self.peng_ban],
            "menzi_ban": [[list(t) for t in menzi_triples(m)] for m in self.menzi_ban],
            "locked": [list(mask_cards(m)) for m in self.locked],
            "ready_deal": [None if r == NONE else r == 1 for r in self.ready_deal],
            "grouped": list(_FLAGS[self.grouped]), "opening": self.opening, "dealer_opening": self.dealer_opening,
            "haidi": self.haidi, "calls": self.calls,
        }

    def to_compact(self) -> dict[str, Any]:
        """The table in a snapshot's compact form (the fields: :mod:`hupai.game.zipai.codec`, which reads it)."""
        return {
            "form": FORM, "head": self.wall.head,
            "hands": [bytes(hand).translate(_ENCODE).decode("ascii") for hand in self.hands],
            # (from the groups the records give: a token per group, cached by the group)
            "groups": [[_token(g) for g in gs] for gs in self.groups],
            "discards": [pile[:size].translate(_ENCODE).decode("ascii")
                         for pile, size in zip(self.piles, self.pile_sizes, strict=True)],
            "menzi_ban": [_menzi_string(m) if m else "" for m in self.menzi_ban],
            "masks": [*self.chi_ban, *self.peng_ban, *self.locked],
            "state": [_PHASES.index(self.phase), self.turn_seat, self.offer, self.offer_from,
                      _OFFER_KINDS.index(self.offer_kind), int(self.opening), int(self.dealer_opening), self.haidi,
                      self.calls, len(self.answers), *_BITS[self.dead],
                      *[-1 if r == NONE else r for r in self.ready_deal], *_BITS[self.grouped]],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ZipaiTable:
        """The inverse of :meth:`to_json` for data :func:`check_table_shape` accepted (the full form, which hupai
        wrote before the compact one: a restored game is then replayed from its actions and compared with it, so
        this never has to trust the data)."""
        wall_tiles, head, tail = data["wall"]
        table = cls(data["dealer"], data["first_dealer"], Wall(bytearray(wall_tiles), head, tail), data["n"])
        table.hands = [bytearray(h) for h in data["hands"]]
        table.views = [np.frombuffer(hand, dtype=np.uint8) for hand in table.hands]
        table.set_groups([[Group(t, tuple(c), k, s) for t, c, k, s in gs] for gs in data["groups"]])
        table.set_piles([bytes(pile) for pile in data["discards"]])
        for name in ("phase", "turn_seat", "offer", "offer_from", "offer_kind", "shen", "shen_shown", "opening",
                     "dealer_opening", "haidi", "calls"):
            setattr(table, name, data[name])
        table.pending = {seat: tuple(Action.from_compact(a) for a in opts) for seat, opts in data["pending"]}
        table.answers = {seat: Action.from_compact(a) for seat, a in data["answers"]}
        table.dead = sum(1 << seat for seat, flag in enumerate(data["dead"]) if flag)
        table.chi_ban = [card_mask(s) for s in data["chi_ban"]]
        table.peng_ban = [card_mask(s) for s in data["peng_ban"]]
        table.menzi_ban = [sum({MENZI_BIT[a, b, c] for a, b, c in s}) for s in data["menzi_ban"]]
        table.locked = [card_mask(s) for s in data["locked"]]
        table.ready_deal = bytearray(NONE if r is None else int(r) for r in data["ready_deal"])
        table.grouped = sum(1 << seat for seat, flag in enumerate(data["grouped"]) if flag)
        return table


def check_table_shape(table: Any, where: str) -> None:
    """A saved Wai Huzi table in the full form (:meth:`ZipaiTable.to_json`, what hupai wrote before the compact
    form) has exactly the fields it writes and is plain, bounded JSON.

    That is all a structural check needs here: such a snapshot is restored by replaying its setup and actions
    and comparing every field with this one (``Game.from_snapshot``), so a value edited in any way is refused by
    that comparison; this check only makes the comparison safe (no missing key, nothing that cannot be written
    back as JSON, nothing deep). The compact form is checked by :mod:`hupai.game.zipai.codec`."""
    if not isinstance(table, Mapping):
        raise InvalidState(f"{where}: must be an object, got {type(table).__name__}")
    keys = set(table.keys())
    if keys != _TABLE_KEYS:
        missing = sorted(_TABLE_KEYS - keys)
        unknown = sorted(k if type(k) is str else describe(k) for k in keys - _TABLE_KEYS)
        raise InvalidState(f"{where}: " + (f"missing field(s) {', '.join(missing)}" if missing
                                           else f"unknown field(s) {', '.join(unknown[:5])}"))
    check_free_json(dict(table), where)

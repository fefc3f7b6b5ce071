"""The table state of one hand: everything the engine and the rules read (mjx's State, kept small).

A :class:`Table` is mutable and owned by its game's flow (:mod:`hupai.game.mahjong.flow`), the only code that writes
it; rule objects receive it typed as a read-only :class:`~hupai.rules.contract.TableView` and change it only
through the effects they return (their own facts in ``extras`` by ``SetState``). Hands are 34-entry ``bytearray``
counts: indexing them is as cheap as a list's, and each has a zero-copy ``uint8`` numpy view (``views[seat]``)
that the core reads in place, so a win check costs one core call and no conversion.

Fields the rules may read:

- ``num_players``, ``dealer``, ``first_dealer``, ``round_wind``, ``seat_winds`` (0..3 = 东南西北 per seat)
- ``wall`` (:class:`~hupai.game.state.wall.Wall`), ``hands[seat]`` (counts), ``views[seat]`` (the same counts as a
  numpy array), ``melds[seat]`` (list of :class:`~hupai.hand.Meld`: what ``meld_records[seat]`` holds, the seat's
  melds as fixed-width records, ``bytes`` of :data:`~hupai.hand.MELD_WIDTH` bytes a meld, each its meld's
  :attr:`~hupai.hand.Meld.record`, in the order of the list; the core reads a seat's meld count from them, a
  snapshot writes them as its meld tokens), ``discards[seat]`` (kinds, claimed tiles
  removed: a copy, made when asked for, of the pile the table keeps as ``piles[seat]``, a ``bytearray`` of
  ``PILE_CAPACITY`` bytes whose first ``discards_made[seat]`` are the seat's discards in order, a claimed one
  marked ``CLAIMED``: a discard is one byte written at the seat's count, in place, by the core's lean turn too)
- ``phase`` (``"turn"``, ``"claim"``, ``"rob"``, ``"predraw"``, ``"over"``), ``turn_seat``
- ``drawn`` (the tile drawn this turn, -1 after a claim or on the dealer's first turn), ``drawn_from``
  (``"wall"``, ``"replacement"`` or ``""``), ``kong_from`` (for a replacement draw: the seat whose discard was
  konged, -1 for a 暗杠/补杠)
- ``last_discard``, ``discarder``; ``kong_tile`` / ``kong_seat`` while a 补杠 is offered to robbers
- ``draws``, ``discards_made`` (per seat, a bytearray), ``calls`` (melds and kongs made so far, table-wide)
- ``meld_order``: ``(seat, meld index)`` in the order the melds were made (liability rules read it)
- ``louhu``: per seat, what a declined win blocks (漏胡) as an int mask: bit ``k`` blocks kind ``k``,
  :data:`LOUHU_ALL` (bit 34) blocks every tile; 0 when nothing is blocked (the core's lean turn reads it)
- ``extras``: a JSON-able dict for a rule system's own state (a gold tile, 游金 levels, 亮倒 flags ...)
- ``ready``: the engine's per-seat cache of :meth:`~hupai.rules.base.Rules.ready` (听牌 or not, None when not
  known), a read-only :class:`ReadyView` (True, False or None per seat) over ``ready_bytes``, the cache itself:
  a ``bytearray`` of a byte per seat (0 not ready, 1 ready, :data:`READY_UNKNOWN` not known) that the engine reads
  and writes, and the core's claim scan and lean turn write in place. The flow stores the answers (the rules'
  own, or what the core works out) and resets a seat's byte whenever its waiting hand changes
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._core import json_copy
from ...actions import Action
from ...hand import Meld
from ...tiles import counts_to_kinds
from .wall import Wall

__all__ = ["Table", "ReadyView", "READY_UNKNOWN", "meld_to_json", "meld_from_json", "copy_json", "PILE_CAPACITY",
           "CLAIMED", "CLAIMED_MARKS", "LOUHU_ALL", "LOUHU_KINDS", "louhu_kinds"]

#: The size of a discard pile's buffer (``Table.piles``): a seat's count of discards is a byte.
PILE_CAPACITY = 256
#: The mark of a claimed discard in its pile's buffer (tiles are 0..33).
CLAIMED = 0x80
#: The bytes ``bytes.translate`` deletes from a pile's buffer to leave its tiles (a claimed mark may keep the tile
#: in its low bits).
CLAIMED_MARKS = bytes(range(CLAIMED, 256))
#: The ready cache's byte for a seat whose readiness is not known (0 not ready, 1 ready).
READY_UNKNOWN = 255
# Every seat not known, by table size.
_NOT_KNOWN = tuple(bytes([READY_UNKNOWN]) * n for n in range(5))
# What a rule reads for each byte of the cache (only 0, 1 and READY_UNKNOWN are ever written).
_READY_FLAGS: tuple[bool | None, ...] = (False, True, *[None] * 254)


class ReadyView(Sequence["bool | None"]):
    """The ready cache as the rules read it: per seat True, False or None (not known), read-only, over the
    engine's bytes (the view follows them)."""

    __slots__ = ("_bytes",)

    def __init__(self, cache: bytearray) -> None:
        self._bytes = cache

    def __len__(self) -> int:
        return len(self._bytes)

    def __getitem__(self, seat: Any) -> Any:
        if isinstance(seat, slice):
            return [_READY_FLAGS[byte] for byte in self._bytes[seat]]
        return _READY_FLAGS[self._bytes[seat]]

    def __repr__(self) -> str:
        return f"ReadyView({list(self)!r})"


# A restored pile is its claimed marks, its tiles, and zeros to the capacity: the marks and the zeros by count,
# made once, so that a pile is one join.
_MARKS = tuple(bytes([CLAIMED]) * count for count in range(PILE_CAPACITY + 1))
_PADS = tuple(bytes(PILE_CAPACITY - count) for count in range(PILE_CAPACITY + 1))
#: The bit of a 漏胡 mask (``Table.louhu``) that blocks every tile (a ``louhu = "any_tile"`` rule system's block);
#: bits 0..33 block one kind each (:data:`LOUHU_KINDS`). One int per seat: the lean turn's test is "nonzero".
LOUHU_ALL = 1 << 34
LOUHU_KINDS = LOUHU_ALL - 1


def louhu_kinds(mask: int) -> list[int]:
    """The kinds a 漏胡 mask blocks one by one, in order (its :data:`LOUHU_ALL` bit left out)."""
    return [kind for kind in range(34) if mask >> kind & 1]


def meld_to_json(meld: Meld) -> list[Any]:
    source = -1 if meld.claimed_from is None else meld.claimed_from
    return [meld.type, list(meld.tiles), meld.concealed, source,
            meld.added, -1 if meld.claimed_tile is None else meld.claimed_tile]


def meld_from_json(data: Sequence[Any]) -> Meld:
    return Meld(data[0], tuple(data[1]), data[2], None if data[3] < 0 else data[3], data[4],
                None if data[5] < 0 else data[5])


class Table:
    """The mutable state of one hand. See the module docstring for the fields."""

    __slots__ = (
        "num_players", "dealer", "first_dealer", "round_wind", "seat_winds", "wall", "hands", "_views",
        "melds", "meld_records",
        "piles", "phase", "turn_seat", "drawn", "drawn_from", "kong_from", "last_discard", "discarder",
        "kong_tile", "kong_seat", "pending", "answers", "draws", "discards_made", "calls", "meld_order",
        "louhu", "extras", "payments", "ready_bytes",
    )

    def __init__(self, num_players: int, dealer: int, first_dealer: int, round_wind: int,
                 seat_winds: tuple[int, ...], wall: Wall) -> None:
        n = num_players
        self.num_players = n
        self.dealer = dealer
        self.first_dealer = first_dealer
        self.round_wind = round_wind
        self.seat_winds = seat_winds
        self.wall = wall
        self.hands: list[bytearray] = [bytearray(34) for _ in range(n)]
        self._views: list[np.ndarray] | None = None
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        # Immutable per seat: a meld replaces the seat's bytes (the list itself is never replaced: the flow's turn
        # pack holds it), so a snapshot or a copied table shares them.
        self.meld_records: list[bytes] = [b""] * n
        self.piles = [bytearray(PILE_CAPACITY) for _ in range(n)]
        self.phase = "turn"
        self.turn_seat = dealer
        self.drawn = -1
        self.drawn_from = ""
        self.kong_from = -1
        self.last_discard = -1
        self.discarder = -1
        self.kong_tile = -1
        self.kong_seat = -1
        # Claim/rob phase: the options on offer per seat, and the answers given so far.
        self.pending: dict[int, tuple[Action, ...]] = {}
        self.answers: dict[int, Any] = {}
        # Counters per seat, as bytes (a hand has at most 136 tiles): the core's lean turn adds to them in place.
        self.draws = bytearray(n)
        self.discards_made = bytearray(n)
        self.calls = 0
        self.meld_order: list[tuple[int, int]] = []
        self.louhu = [0] * n
        self.extras: dict[str, Any] = {}
        self.payments = [0] * n  # immediate payments made during the hand (kong money in some games)
        # Derived cache: is the seat's waiting hand ready (听牌)? Reset by the engine whenever that hand changes;
        # never saved (a restored table works it out again). The bytes are never replaced during a hand.
        self.ready_bytes = bytearray(_NOT_KNOWN[n])

    @property
    def views(self) -> list[np.ndarray]:
        """Each seat's hand counts as a zero-copy ``uint8`` numpy view (the hands are never replaced), made when
        first asked for: most hands are played without any."""
        views = self._views
        if views is None:
            views = self._views = [np.frombuffer(hand, dtype=np.uint8) for hand in self.hands]
        return views

    @property
    def discards(self) -> list[bytes]:
        """Each seat's discard pile (claimed tiles removed), a copy."""
        return [bytes(pile[:made]).translate(None, CLAIMED_MARKS)
                for pile, made in zip(self.piles, self.discards_made, strict=True)]

    def set_discards(self, piles: Sequence[Sequence[int]], made: Sequence[int]) -> None:
        """Set every seat's pile (tiles 0..33, claimed ones removed) and count of discards made (a restore, or a
        table made from an observation). Where the claimed ones were is not kept: they are marked before the pile,
        which reads the same."""
        if len(piles) != len(made):
            raise ValueError("every seat's pile must hold at most its count of discards made")
        counts = bytearray(made)  # ValueError for a count outside 0..255
        out = []
        for pile, count in zip(piles, counts, strict=True):
            tiles = pile if type(pile) is bytes else bytes(pile)
            if len(tiles) > count:
                raise ValueError("every seat's pile must hold at most its count of discards made")
            out.append(bytearray(b"".join((_MARKS[count - len(tiles)], tiles, _PADS[count]))))
        self.discards_made = counts
        self.piles = out

    def set_melds(self, melds: Sequence[Sequence[Meld]]) -> None:
        """Every seat's melds (a restore, or a table made from an observation), their records with them."""
        self.melds = [list(seat_melds) for seat_melds in melds]
        self.meld_records = [b"".join([meld.record for meld in seat_melds]) for seat_melds in melds]

    def concealed_kinds(self, seat: int, without: int = -1) -> list[int]:
        """``seat``'s concealed tiles as a sorted kind list, optionally without one copy of ``without``."""
        out = list(counts_to_kinds(self.hands[seat]))
        if without >= 0:
            out.remove(without)
        return out

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    # -- snapshot ---------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON types (the cache is left out: it is derived)."""
        return {
            "n": self.num_players, "dealer": self.dealer, "first_dealer": self.first_dealer,
            "round_wind": self.round_wind, "seat_winds": list(self.seat_winds),
            "wall": [list(self.wall.tiles), self.wall.head, self.wall.tail],
            "hands": [list(h) for h in self.hands],
            "melds": [[meld_to_json(m) for m in ms] for ms in self.melds],
            "discards": [list(d) for d in self.discards],
            "phase": self.phase, "turn_seat": self.turn_seat, "drawn": self.drawn,
            "drawn_from": self.drawn_from,
            "kong_from": self.kong_from, "last_discard": self.last_discard, "discarder": self.discarder,
            "kong_tile": self.kong_tile, "kong_seat": self.kong_seat,
            "pending": [[seat, list(opts)] for seat, opts in self.pending.items()],  # Actions: JSON arrays
            "answers": [[seat, a] for seat, a in self.answers.items()],
            "draws": list(self.draws), "discards_made": list(self.discards_made), "calls": self.calls,
            "meld_order": [list(x) for x in self.meld_order],
            "missed": [louhu_kinds(mask) for mask in self.louhu],
            "missed_all": [mask >= LOUHU_ALL for mask in self.louhu],
            "extras": copy_json(self.extras), "payments": list(self.payments),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        from ...actions import Action

        # Every slot is set from the data (no __init__: it would build hands, views and lists only to replace
        # them; a server restores a table per request).
        table = cls.__new__(cls)
        wall_tiles, head, tail = data["wall"]
        table.num_players = data["n"]
        table.dealer = data["dealer"]
        table.first_dealer = data["first_dealer"]
        table.round_wind = data["round_wind"]
        table.seat_winds = tuple(data["seat_winds"])
        table.wall = Wall(wall_tiles, head, tail)  # (copied into bytes)
        table.hands = [bytearray(h) for h in data["hands"]]
        table._views = None
        table.set_melds([[meld_from_json(m) for m in ms] for ms in data["melds"]])
        table.set_discards(data["discards"], data["discards_made"])
        for name in ("phase", "turn_seat", "drawn", "drawn_from", "kong_from", "last_discard", "discarder",
                     "kong_tile", "kong_seat", "calls"):
            setattr(table, name, data[name])
        table.pending = {seat: tuple(Action.from_compact(a) for a in opts) for seat, opts in data["pending"]}
        table.answers = {seat: Action.from_compact(a) for seat, a in data["answers"]}
        table.draws = bytearray(data["draws"])
        table.meld_order = [(s, i) for s, i in data["meld_order"]]
        table.louhu = [sum(1 << kind for kind in set(kinds)) | (LOUHU_ALL if every else 0)
                       for kinds, every in zip(data["missed"], data["missed_all"], strict=True)]
        table.extras = copy_json(data["extras"])
        table.payments = list(data["payments"])
        table.ready_bytes = bytearray(_NOT_KNOWN[table.num_players])  # derived, never saved
        return table

    @property
    def ready(self) -> ReadyView:
        """The ready cache as the rules read it: True, False or None per seat (a view over ``ready_bytes``, made
        when asked for: the engine and the built-in rules read the bytes, so a table, a restore or a fork makes
        none)."""
        return ReadyView(self.ready_bytes)

    def forget_ready(self) -> None:
        """Every seat's readiness not known (the bytes changed in place: whoever holds them sees it)."""
        self.ready_bytes[:] = _NOT_KNOWN[self.num_players]


_SCALARS = frozenset({int, str, float, bool, type(None)})
_COPY_DEPTH = 64  # json_copy's bounds for the engine's own data (deeper or other data: the Python copy below)
_COPY_NODES = 1 << 40


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars), cheaper than ``copy.deepcopy``. Scalars are
    shared, and a list of scalars alone (a rule system's per-seat flags or counters) is copied in one step:
    every snapshot and restore copies the rules' ``extras``: a dict of plain JSON types in one core pass
    (``_core.json_copy``), anything else here."""
    if type(value) is dict:  # noqa: E721
        copied = json_copy(value, _COPY_DEPTH, _COPY_NODES)
        if copied is not None:
            return copied
    if isinstance(value, dict):  # (tested first, as before: a scalar costs two tests, as it did)
        if type(value) is dict:  # noqa: E721
            return {k: v if type(v) in _SCALARS else _copy_list(v) if type(v) is list else copy_json(v)  # noqa: E721
                    for k, v in value.items()}
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return _copy_list(value)
    return value


def _copy_list(value: list[Any]) -> list[Any]:
    kinds = set(map(type, value))
    if kinds <= _SCALARS:
        return value[:] if type(value) is list else list(value)  # noqa: E721
    if kinds == _LIST:  # per seat a list (Kawuxing's revealed tiles)
        return list(map(_copy_list, value))
    return [copy_json(v) for v in value]


_LIST = {list}

"""Events: what happened at the table, in order (the log that observers and replays read).

Actions are what seats decide; events are their consequences plus what the engine does on its own (the deal,
draws, the end of the hand). An event is a small immutable record; ``hidden`` events (the deal and draws) show
their tiles only to their own seat in observations.

``type`` values: ``deal`` (``tiles`` = the seat's dealt tiles), ``draw`` (``info`` = ``"wall"`` or
``"replacement"``), ``discard``, ``chow``/``pung``/``kong`` (``tiles`` = the meld, ``info`` = the kong flag or
the seat claimed from), ``rob`` (a kong offered to robbers), ``win``, ``pass``, ``declare``, ``drawn`` (流局),
``payment`` (a rule's immediate payment, ``tiles`` = per-seat amounts), ``end``; Wai Huzi's ``shen``,
``turn_up`` and groups (``chi``, ``peng``, ``wai``, ``liu``, ``piao``).

A game keeps its events in an :class:`EventLog`: integer records, made :class:`Event` objects only when read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, overload

from .errors import InvalidState
from .jsonform import json_text, tile_out
from .tiles import NUM_KINDS

__all__ = ["Event", "EventLog", "HIDDEN_TYPES", "AMOUNT_TYPES", "TYPES", "INFOS", "record", "turn_record",
           "client_event"]

HIDDEN_TYPES = frozenset({"deal", "draw"})
#: Event types whose ``tiles`` hold an amount per seat (payments), not tiles.
AMOUNT_TYPES = frozenset({"payment", "end"})


class Event(NamedTuple):
    type: str
    seat: int = -1
    tile: int = -1
    tiles: tuple[int, ...] = ()
    info: str = ""

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The form a game log records: ``type`` and the fields that are set, tiles as ints."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.tile >= 0:
            out["tile"] = self.tile
        if self.tiles:
            out["tiles"] = list(self.tiles)
        if self.info:
            out["info"] = self.info
        return out

    def visible_to(self, seat: int) -> Event:
        """This event as ``seat`` sees it: other seats' dealt and drawn tiles are masked."""
        if self.type in HIDDEN_TYPES and self.seat != seat:
            return self._replace(tile=-1, tiles=())
        return self


# -- the log: integer records ---------------------------------------------------------------------------
# An event is stored as one int, its header, followed by its ``tiles`` (a length-prefixed run: the header says how
# many). The header packs the type's code (its index in TYPES), seat + 1, tile + 1, the run's length and the
# info's code, so an event with no tiles is one int, which the flows take ready-made from tables built once. The
# plain turn of a simulation (a discard nobody claims, the next seat's wall draw) is one int for both events: a
# TURN record with the discarder, the tile and the drawn tile. A plain list of ints is the store: appending to it
# costs what appending the old tuples did (array('i') cost more, and amounts may not fit its items).

#: Every event type, in the order of their codes (the header's low bits). Fixed: a log never holds another.
TYPES = ("deal", "draw", "discard", "chow", "pung", "kong", "rob", "win", "pass", "declare", "drawn", "payment",
         "end", "shen", "turn_up", "chi", "peng", "wai", "liu", "piao")
#: Info strings with a fixed code; any other is kept in its log's own table (codes from len(INFOS) on).
INFOS = ("", "wall", "replacement", "extra", "0", "1", "2", "3", "-1", "concealed", "added", "discard", "dealt",
         "robbed_kong", "turned_up", "odd", "even")

_TYPE_CODES = {name: code for code, name in enumerate(TYPES)}
_INFO_CODES = {info: code for code, info in enumerate(INFOS)}
_SEAT_SHIFT, _TILE_SHIFT, _COUNT_SHIFT, _INFO_SHIFT = 5, 8, 15, 21
_TYPE_MASK, _SEAT_MASK, _TILE_MASK, _COUNT_MASK = 0x1F, 0x7, 0x7F, 0x3F
_TURN = 31  # the type code of a TURN record (not an event type: it decodes to a discard and a draw)
_event = tuple.__new__  # tuple.__new__(Event, fields) skips the Python-level __new__ a NamedTuple call runs


def record(type: str, seat: int = -1, tile: int = -1, info: str = "", count: int = 0) -> int:
    """The header of an event whose ``info`` has a fixed code (:data:`INFOS`), followed by ``count`` tiles: the
    one int the log stores for an event without tiles. The flows build their tables of common events with it."""
    if (seat + 1) >> 3 or (tile + 1) >> 7 or count >> 6:  # out of 0..7, 0..127, 0..63 (negatives too)
        raise ValueError(f"an event's seat {seat}, tile {tile} or {count} tiles do not fit a record")
    return (_TYPE_CODES[type] | (seat + 1) << _SEAT_SHIFT | (tile + 1) << _TILE_SHIFT | count << _COUNT_SHIFT
            | _INFO_CODES[info] << _INFO_SHIFT)


def turn_record(seat: int, tile: int, drawn: int) -> int:
    """The one int of a plain turn: ``seat`` discards ``tile``, nobody claims it, and the next seat (in the log's
    order of :attr:`EventLog.seats` seats) draws ``drawn`` from the wall."""
    if not (0 <= seat < _SEAT_MASK and 0 <= tile < _TILE_MASK and 0 <= drawn < _TILE_MASK):
        raise ValueError(f"a turn of seat {seat}, tile {tile}, drawn {drawn} does not fit a record")
    return _TURN | seat << _SEAT_SHIFT | tile << _TILE_SHIFT | drawn << _COUNT_SHIFT


def _single(head: int, seats: int) -> tuple[Event, ...]:
    """The events of a record without tiles whose info has a fixed code (a plain turn's two events), as a log of
    ``seats`` seats reads them; ``()`` for any other record (the log decodes those itself, and refuses bad ones)."""
    if head < 0:
        return ()
    code = head & _TYPE_MASK
    seat = head >> _SEAT_SHIFT & _SEAT_MASK
    if code == _TURN:
        if head >> _COUNT_SHIFT + 7 or seat >= seats:
            return ()
        return (_event(Event, ("discard", seat, head >> _TILE_SHIFT & _TILE_MASK, (), "")),
                _event(Event, ("draw", (seat + 1) % seats, head >> _COUNT_SHIFT, (), "wall")))
    info = head >> _INFO_SHIFT
    if code >= len(TYPES) or head >> _COUNT_SHIFT & _COUNT_MASK or info >= len(INFOS):
        return ()
    return (_event(Event, (TYPES[code], seat - 1, (head >> _TILE_SHIFT & _TILE_MASK) - 1, (), INFOS[info])),)


# The memo of _single per number of seats (a pure function of ints: a hand's records repeat few of these), a plain
# dict read with .get (an lru_cache's call cost more per record: its key tuple, its order list); kept to _MEMO_SIZE
# records each, so records read from outside cannot grow it without bound.
_MEMOS: dict[int, dict[int, tuple[Event, ...]]] = {}
_MEMO_SIZE = 16384


class EventLog:
    """A hand's events, stored as integer records and made :class:`Event` objects only when read.

    ``records`` is the list of ints the flows append to: ready-made records (:func:`record`,
    :func:`turn_record`) followed by their tiles, or any event by :meth:`add`. Reading (``len``, indexing,
    slicing, iteration) decodes the records not yet decoded and keeps the events, so an observer that reads the
    tail again pays only for the new ones. Records read from outside (:meth:`from_records`) are checked: a bad
    one raises :class:`~hupai.InvalidState`. ``seats`` is the table's number of seats (a plain turn's next seat).
    """

    __slots__ = ("records", "seats", "_infos", "_events", "_read")

    def __init__(self, seats: int = 4) -> None:
        self.records: list[int] = []
        self.seats = seats
        self._infos: list[str] = []  # this log's info strings without a fixed code, in code order
        self._events: list[Event] = []  # the decoded events of records[:_read]
        self._read = 0

    @classmethod
    def of(cls, events: Iterable[Sequence[Any]], seats: int = 4) -> EventLog:
        """A log of these events (:class:`Event` objects or tuples of their fields)."""
        log = cls(seats)
        for event in events:
            log.add(*event)
        return log

    def add(self, type: str, seat: int = -1, tile: int = -1, tiles: Sequence[int] = (), info: str = "") -> None:
        """Append an event (its fields as :class:`Event`'s). Kept to few operations: the flows call it for the
        events that are not among their ready-made records (wins, declarations, the end)."""
        code = _INFO_CODES.get(info)
        if code is None:
            code = self._info_code(info)
        count = len(tiles)
        if (seat + 1) >> 3 or (tile + 1) >> 7 or count >> 6:  # out of 0..7, 0..127, 0..63 (negatives too)
            raise ValueError(f"an event's seat {seat}, tile {tile} or {count} tiles do not fit a record")
        self.records.append(_TYPE_CODES[type] | (seat + 1) << 5 | (tile + 1) << 8 | count << 15 | code << 21)
        if count:
            self.records.extend(tiles)

    def _info_code(self, info: str) -> int:
        """The code of an info string without a fixed one: this log's own (rare: a rule's payment reason)."""
        infos = self._infos
        if info not in infos:
            infos.append(info)
        return len(INFOS) + infos.index(info)

    @property
    def infos(self) -> tuple[str, ...]:
        """The info strings this log's records name beyond :data:`INFOS`, in code order."""
        return tuple(self._infos)

    @classmethod
    def from_records(cls, records: Iterable[Any], infos: Iterable[Any] = (), seats: Any = 4) -> EventLog:
        """A log from records and info strings read from outside (:attr:`records`, :attr:`infos`); every record
        is checked, and one this module would not write raises :class:`~hupai.InvalidState`."""
        if type(seats) is not int or not 2 <= seats <= _SEAT_MASK - 1:  # noqa: E721
            raise InvalidState(f"events.seats: {seats!r} is not a number of seats")
        log = cls(seats)
        for index, value in enumerate(records):
            if type(value) is not int:  # noqa: E721  (not bool: a record is an int)
                raise InvalidState(f"events.records[{index}]: {value!r} is not an int")
            log.records.append(value)
        for index, info in enumerate(infos):
            if type(info) is not str:  # noqa: E721
                raise InvalidState(f"events.infos[{index}]: {info!r} is not a str")
            if info in _INFO_CODES or info in log._infos:
                raise InvalidState(f"events.infos[{index}]: {info!r} has a code already")
            log._infos.append(info)
        for index, event in enumerate(log._decode()):
            if not -1 <= event.seat < seats:
                raise InvalidState(f"events[{index}]: seat {event.seat} in a log of {seats} seats")
            if event.type not in AMOUNT_TYPES and not all(0 <= t < _TILE_MASK for t in event.tiles):
                raise InvalidState(f"events[{index}]: a {event.type} with tiles {list(event.tiles)}")
        return log

    def prepend(self, earlier: EventLog) -> None:
        """Put ``earlier``'s events before this log's (a restored game's history, rebuilt)."""
        events = [*earlier, *self]
        self.records.clear()
        self._infos.clear()
        self._events = []
        self._read = 0
        for event in events:
            self.add(*event)

    def _decode(self) -> list[Event]:
        """The events, the records not yet decoded decoded first."""
        records = self.records
        at = self._read
        end = len(records)
        if at == end:
            return self._events
        events = self._events
        infos = self._infos
        fixed = len(INFOS)
        seats = self.seats
        memo = _MEMOS.get(seats)
        if memo is None:
            memo = _MEMOS[seats] = {}
        known = memo.get
        while at < end:
            head = records[at]
            got = known(head)
            if got is None:
                got = _single(head, seats)
                if len(memo) < _MEMO_SIZE:
                    memo[head] = got
            if got:  # most records: one event without tiles (or a plain turn's two)
                events += got
                at += 1
                continue
            code = head & _TYPE_MASK if head >= 0 else _TYPE_MASK - 1
            if code == _TURN:
                seat = head >> _SEAT_SHIFT & _SEAT_MASK
                if head >> _COUNT_SHIFT + 7 or seat >= self.seats:
                    raise InvalidState(f"events.records[{at}]: {head!r} is not a turn's record")
                events.append(_event(Event, ("discard", seat, head >> _TILE_SHIFT & _TILE_MASK, (), "")))
                events.append(_event(Event, ("draw", (seat + 1) % self.seats, head >> _COUNT_SHIFT, (), "wall")))
                at += 1
                continue
            if code >= len(TYPES):
                raise InvalidState(f"events.records[{at}]: {head!r} is not an event's record")
            count = head >> _COUNT_SHIFT & _COUNT_MASK
            info = head >> _INFO_SHIFT
            if at + count >= end or info >= fixed + len(infos):
                raise InvalidState(f"events.records[{at}]: the record names {count} tiles or info {info}, which "
                                   f"the log does not hold")
            events.append(_event(Event, (TYPES[code], (head >> _SEAT_SHIFT & _SEAT_MASK) - 1,
                                         (head >> _TILE_SHIFT & _TILE_MASK) - 1,
                                         tuple(records[at + 1:at + 1 + count]) if count else (),
                                         INFOS[info] if info < fixed else infos[info - fixed])))
            at += 1 + count
        self._read = at
        return events

    def __len__(self) -> int:
        return len(self._decode())

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        return self._decode()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._decode())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._decode() == other._decode()
        if isinstance(other, list):
            return self._decode() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"EventLog.of({self._decode()!r}, {self.seats})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles rebuild the log from its events: a copy never shares the records list.
        return (EventLog.of, (list(self), self.seats))


def client_event(event: Event, kinds: int = NUM_KINDS) -> dict[str, Any]:
    """An event in the JSON contract for clients (:mod:`hupai.jsonform`): the log's fields, but tiles in notation
    (Wai Huzi's cards when ``kinds`` is 20) and ``null`` for a masked tile; amounts (``payment``, ``end``) stay
    ints."""
    out: dict[str, Any] = {"type": event.type}
    if event.seat >= 0:
        out["seat"] = event.seat
    if event.tile >= 0 or event.type in HIDDEN_TYPES:
        out["tile"] = tile_out(event.tile, kinds)
    if event.tiles:
        out["tiles"] = list(event.tiles) if event.type in AMOUNT_TYPES else [tile_out(t, kinds) for t in event.tiles]
    if event.info:
        out["info"] = event.info
    return out

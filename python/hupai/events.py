"""Events: what happened at the table, in order (the log that observers and replays read).

Actions are what seats decide; events are their consequences plus what the engine does on its own (the deal,
draws, the end of the hand). An event is a small immutable record; ``hidden`` events (the deal and draws) show
their tiles only to their own seat in observations.

``type`` values: ``deal`` (``tiles`` = the seat's dealt tiles), ``draw`` (``info`` = ``"wall"`` or
``"replacement"``), ``discard``, ``chow``/``pung``/``kong`` (``tiles`` = the meld, ``info`` = the kong flag or
the seat claimed from), ``rob`` (a kong offered to robbers), ``win``, ``pass``, ``declare``, ``drawn`` (流局),
``payment`` (a rule's immediate payment, ``tiles`` = per-seat amounts), ``end``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .jsonform import json_text, tile_out
from .tiles import NUM_KINDS

__all__ = ["Event", "HIDDEN_TYPES", "AMOUNT_TYPES", "RawEvent", "as_events", "client_event"]

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


#: An event as the engine stores its two per turn (the draw and the discard): the plain tuple of the five
#: fields, made into an :class:`Event` only when someone reads the log.
RawEvent = tuple[str, int, int, tuple[int, ...], str]


def as_events(stored: list[Event | RawEvent]) -> list[Event]:
    """The stored events as :class:`Event` objects (a new list)."""
    # tuple.__new__(Event, fields) skips the Python-level __new__ a NamedTuple call runs.
    return [event if type(event) is Event else tuple.__new__(Event, event) for event in stored]


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

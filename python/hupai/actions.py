"""Actions: every decision a seat makes is one :class:`Action` (DESIGN §4).

One small immutable type for all of them (a ``NamedTuple``: hashable, cheap to build and compare, which
matters because legal-action lists are built on every decision). ``kind`` says what it is:

- ``discard``: discard ``tile`` (``flag`` may carry a declaration made with it, e.g. 亮倒);
- ``chow``: claim the discard ``tile`` into the run ``tiles`` (three kinds in run order, as physically held:
  ascending, except where a rule system lets one tile play as another, as Yunxiao's 白板 as the gold);
- ``pung``: claim the discard ``tile`` onto a pair;
- ``kong``: of ``tile``, ``flag`` = ``"exposed"`` (on a discard), ``"concealed"`` (暗杠) or ``"added"``
  (补杠);
- ``win``: win on ``tile`` (self-drawn, a discard, a robbed kong, or the dealt hand);
- ``pass``: decline every claim on offer (before a draw: decline a declaration and draw);
- ``declare``: a rule-specific declaration named by ``flag`` (游金, 抢金, ...), with ``tile`` if it needs
  one.

The zipai family (Wai Huzi, :mod:`hupai.game.zipai.flow`) uses cards 0..19 and reads the shared kinds as its own
groups: ``chow`` is 吃 (``tiles`` the run, so the 门子 used is the run without ``tile``), ``pung`` is 碰,
``win`` is 胡 (``flag`` ``"tianhu"`` for 天胡, ``tile`` the dealer's last dealt card), ``discard`` and ``pass``
as above; and adds three: ``liu`` (溜, four of ``tile``), ``piao`` (飘, four of ``tile`` with one from a 碰 or
another seat) and ``wai`` (歪, a pair plus one's own turned-up ``tile``).

The JSON form (:meth:`Action.to_dict`, the contract of :mod:`hupai.jsonform`; :meth:`Action.to_json` is its
text) is an object with ``kind`` and ``seat`` and only the fields that are set, tiles in notation
(``{"kind": "discard", "seat": 0, "tile": "5m"}``); :meth:`Action.from_dict` (and :meth:`Action.from_json`, which
also reads the text) also takes tiles as ints 0..33 and an optional ``schema_version``. Both take the family
as ``kinds`` (34 mahjong tiles by default, 20 for Wai Huzi's cards ``x1``..``d10``): a reader reads its own
family's notation only and refuses the other's (:mod:`hupai.notation`). Logs keep the
older int form (:meth:`Action.to_log`), so every recorded game replays unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any, NamedTuple

from .errors import IllegalAction
from .jsonform import SCHEMA_VERSION, describe, dict_in, json_text, tile_in, tile_out
from .tiles import NUM_KINDS

__all__ = ["Action", "KINDS", "discard", "chow", "pung", "kong", "win", "pass_", "declare"]

KINDS = frozenset({"discard", "chow", "pung", "kong", "win", "pass", "declare", "liu", "piao", "wai"})
_KONG_FLAGS = frozenset({"exposed", "concealed", "added"})


class Action(NamedTuple):
    """One decision of one seat. Build with the helpers (:func:`discard`, :func:`pung`, ...) or directly."""

    kind: str
    seat: int
    tile: int = -1
    tiles: tuple[int, ...] = ()
    flag: str = ""

    def to_json(self, kinds: int = NUM_KINDS) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict(kinds))

    def to_dict(self, kinds: int = NUM_KINDS) -> dict[str, Any]:
        """The JSON contract's form: tiles in notation (Wai Huzi's cards when ``kinds`` is 20), only the fields
        that are set."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.tile >= 0:
            out["tile"] = tile_out(self.tile, kinds)
        if self.tiles:
            out["tiles"] = [tile_out(tile, kinds) for tile in self.tiles]
        if self.flag:
            out["flag"] = self.flag
        return out

    def to_log(self) -> dict[str, Any]:
        """The form a game log records (format 1: tiles as ints)."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.tile >= 0:
            out["tile"] = self.tile
        if self.tiles:
            out["tiles"] = list(self.tiles)
        if self.flag:
            out["flag"] = self.flag
        return out

    def to_compact(self) -> list[Any]:
        """The short list form used in snapshots: ``[kind, seat, tile, tiles, flag]``."""
        return [self.kind, self.seat, self.tile, list(self.tiles), self.flag]

    @classmethod
    def from_compact(cls, data: Sequence[Any]) -> Action:
        """The inverse of :meth:`to_compact` (an Action itself, being a tuple, is its own compact form)."""
        return cls(data[0], data[1], data[2], tuple(data[3]), data[4])

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any], kinds: int = NUM_KINDS) -> Action:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, "action", error=IllegalAction), kinds)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], kinds: int = NUM_KINDS) -> Action:
        """Parse the JSON form (an optional ``schema_version`` must be :data:`~hupai.jsonform.SCHEMA_VERSION`);
        anything malformed raises :class:`IllegalAction` saying what.

        Tiles are read in the family ``kinds`` names, as :meth:`to_dict` writes them: mahjong's 34 tiles
        (``"5m"``, 五万, or 0..33) by default, Wai Huzi's cards (``"x5"``, 五, or 0..19) with ``kinds=20``
        (:attr:`hupai.Game.num_kinds`). The other family's notation is refused, never guessed."""
        if isinstance(data, Mapping) and "schema_version" in data:
            version = data["schema_version"]
            if type(version) is not int or version != SCHEMA_VERSION:
                raise IllegalAction(f"malformed action: schema_version {describe(version)} is not {SCHEMA_VERSION}")
            data = {key: value for key, value in data.items() if key != "schema_version"}
        return coerce(data, kinds)

    def describe(self, kinds: int = NUM_KINDS) -> str:
        """The action in words, its tiles in the notation of the family ``kinds`` names: ``"P0 discard 5m"``, a
        Wai Huzi action (``kinds=20``) ``"P0 discard x5"``. ``str(action)`` is the mahjong form; a game's messages
        use its own (:attr:`hupai.Game.num_kinds`)."""
        parts = [f"P{self.seat} {self.kind}"]
        if self.flag:
            parts.append(self.flag)
        if self.tile >= 0:
            parts.append(_names([self.tile], kinds))
        if self.tiles:
            parts.append(_names(self.tiles, kinds))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.describe()


def _names(tiles: Sequence[int], kinds: int) -> str:
    """Tiles in the family's notation; a value outside it (an action not yet checked) as its number."""
    if not all(0 <= tile < kinds for tile in tiles):
        return " ".join(map(str, tiles))
    if kinds == NUM_KINDS:
        from .tiles import format_tiles
        return format_tiles(list(tiles))
    from .zipai.cards import format_cards
    return format_cards(list(tiles), sort=False)


#: Seats and tiles are small; an int beyond 64 bits is malformed, refused before any message writes it out.
_INT_LIMIT = 1 << 63


def _int(value: Any, what: str) -> int:
    """``value`` as a plain ``int`` within 64 bits (numpy integers accepted; bools, floats and strings
    refused)."""
    if type(value) is int:
        plain = value
    elif not isinstance(value, bool) and isinstance(value, Integral):
        plain = int.__int__(value) if isinstance(value, int) else int(value)
    else:
        plain = None
    if type(plain) is int and -_INT_LIMIT <= plain < _INT_LIMIT:
        return plain
    raise IllegalAction(f"malformed action: {what} must be an int, got {describe(value)}")


def _tile(value: Any, kinds: int, what: str = "tile", low: int = -1) -> int:
    if type(value) is str:  # notation, as the JSON contract writes tiles: the family's own only
        return tile_in(value, f"action {what}", error=IllegalAction, kinds=kinds)
    if value is None and low < 0:
        return -1
    tile = _int(value, what)
    if not low <= tile < kinds:  # -1: no tile (an action's own tile only)
        raise IllegalAction(f"malformed action: {what} {tile} is not a {'tile' if kinds == NUM_KINDS else 'card'} "
                            f"kind in 0..{kinds - 1}")
    return tile


def coerce(action: Any, kinds: int = NUM_KINDS) -> Action:
    """Turn an :class:`Action` or its JSON dict into a well-formed :class:`Action`, or raise IllegalAction;
    tiles in the family ``kinds`` names (:meth:`Action.from_dict`).

    Only the shape is checked here; whether the action is legal now is the game's question.
    """
    if isinstance(action, Action):
        data: Mapping[str, Any] = dict(zip(Action._fields, tuple.__iter__(action), strict=True))
    elif isinstance(action, Mapping):
        data = dict(action)
        if len(data) > len(Action._fields) or any(type(key) is not str for key in data):
            raise IllegalAction(f"malformed action: the fields are {', '.join(Action._fields)}")
        unknown = set(data) - set(Action._fields)
        if unknown:
            raise IllegalAction(f"malformed action: unknown field(s) {sorted(unknown)}")
    else:
        raise IllegalAction(f"malformed action: expected an Action or a dict, got {type(action).__name__}")
    kind = data.get("kind")
    if type(kind) is not str or kind not in KINDS:
        raise IllegalAction(f"malformed action: kind {describe(kind)} is not one of {sorted(KINDS)}")
    if "seat" not in data:
        raise IllegalAction("malformed action: no seat")
    seat = _int(data["seat"], "seat")
    tile = _tile(data.get("tile", -1), kinds)
    raw_tiles = data.get("tiles", ())
    if type(raw_tiles) not in (list, tuple) or len(raw_tiles) > 4:
        raise IllegalAction(f"malformed action: tiles must be a list of at most 4 kinds, got {describe(raw_tiles)}")
    tiles = tuple(_tile(t, kinds, f"tiles[{i}]", 0) for i, t in enumerate(raw_tiles))
    flag = data.get("flag", "")
    if not isinstance(flag, str) or len(flag) > 40:
        raise IllegalAction(f"malformed action: flag must be a short string, got {describe(flag)}")
    flag = str.__str__(flag)  # a plain str (a subclass could compare in surprising ways)
    if kind == "kong" and flag not in _KONG_FLAGS:
        raise IllegalAction(f"malformed action: a kong needs flag 'exposed', 'concealed' or 'added', "
                            f"got {flag!r}")
    return Action(kind, seat, tile, tiles, flag)


def discard(seat: int, tile: int, flag: str = "") -> Action:
    return Action("discard", seat, tile, (), flag)


def chow(seat: int, tile: int, run: tuple[int, int, int]) -> Action:
    return Action("chow", seat, tile, tuple(run))


def pung(seat: int, tile: int) -> Action:
    return Action("pung", seat, tile)


def kong(seat: int, tile: int, flag: str) -> Action:
    return Action("kong", seat, tile, (), flag)


def win(seat: int, tile: int) -> Action:
    return Action("win", seat, tile)


def pass_(seat: int) -> Action:
    return Action("pass", seat)


def declare(seat: int, flag: str, tile: int = -1) -> Action:
    return Action("declare", seat, tile, (), flag)


class _Prebuilt(NamedTuple):
    """Every simple action of every seat, built once: legal-action lists share these immutable objects
    instead of building new ones on every decision (and ``in`` then matches them by identity first)."""

    discard: tuple[tuple[Action, ...], ...]
    win: tuple[tuple[Action, ...], ...]
    pung: tuple[tuple[Action, ...], ...]
    exposed_kong: tuple[tuple[Action, ...], ...]
    concealed_kong: tuple[tuple[Action, ...], ...]
    added_kong: tuple[tuple[Action, ...], ...]
    pass_: tuple[Action, ...]


_SEATS = range(4)
ACTIONS = _Prebuilt(
    discard=tuple(tuple(Action("discard", s, k) for k in range(NUM_KINDS)) for s in _SEATS),
    win=tuple(tuple(Action("win", s, k) for k in range(NUM_KINDS)) for s in _SEATS),
    pung=tuple(tuple(Action("pung", s, k) for k in range(NUM_KINDS)) for s in _SEATS),
    exposed_kong=tuple(tuple(Action("kong", s, k, (), "exposed") for k in range(NUM_KINDS)) for s in _SEATS),
    concealed_kong=tuple(tuple(Action("kong", s, k, (), "concealed") for k in range(NUM_KINDS))
                         for s in _SEATS),
    added_kong=tuple(tuple(Action("kong", s, k, (), "added") for k in range(NUM_KINDS)) for s in _SEATS),
    pass_=tuple(Action("pass", s) for s in _SEATS),
)

#: For each suited kind, the runs (low, mid, high) of its suit that contain it; empty for honors.
CHOW_RUNS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((low, low + 1, low + 2) for low in (kind - 2, kind - 1, kind)
          if kind < 27 and low >= kind - kind % 9 and low + 2 <= kind - kind % 9 + 8)
    for kind in range(NUM_KINDS)
)

#: For each seat and discarded kind, the chows that seat could make, each with its ``_core.claim_scan`` bit
#: (8: the discard is the run's high tile, 16: its middle, 32: its low), built once.
CHOWS: tuple[tuple[tuple[tuple[int, Action], ...], ...], ...] = tuple(
    tuple(tuple((32 >> (kind - run[0]), Action("chow", seat, kind, run)) for run in CHOW_RUNS[kind])
          for kind in range(NUM_KINDS))
    for seat in _SEATS
)

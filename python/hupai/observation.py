"""What one seat may see: :class:`Observation`, the only thing a bot or a remote client is given (DESIGN §4).

An observation is immutable plain data (frozen dataclasses, tuples, read-only mappings) with a JSON form
(:meth:`Observation.to_dict` / :meth:`Observation.from_dict`, the same as text by :meth:`Observation.to_json` /
:meth:`Observation.from_json`, a ``schema_version`` checked on the way in). It
holds no reference to the game or its table, so nothing reached from it can read another seat's tiles.

What it shows (built by :mod:`hupai.game.mahjong.observation`):

- the table: rules name and options (public: every player knows the table's rules), dealer, round and seat
  winds, every seat's hand size, melds and discards, how many live tiles the wall holds (not their order);
- the decision: ``phase``, the seats still to act (``to_act``), the tile in question and its source seat, as
  the engine reports them (a drawn tile only to its drawer);
- its own seat: concealed tiles (``hand``, kinds, the drawn tile included), the drawn tile and where it came
  from, its legal actions;
- the rule system's public facts (``extras``: Yunxiao's gold, 游 levels, kong count...);
- the result once the hand is over, with each winner's hand laid open (:class:`WinView`);
- ``private``: the seat's own rule facts no other seat knows (Wai Huzi's bans and locks).

Wai Huzi (zipai) observations use the same fields (:mod:`hupai.game.zipai.observation`): 20 card counts,
``melds`` are the face-up groups (a 歪 or 溜 shows its one face-up card, WH-9), ``tile`` the offered card (a
turned-up stock card is face up, so every seat sees it), ``extras`` the 神 and the 死手 flags.

Hidden: other seats' concealed tiles and drawn tiles, the wall's order, and other seats' concealed kongs where
the rule system plays them face down (:attr:`MeldView.hidden`; Yunxiao and Kawuxing do, Guangdong shows their
kind), other seats' answers in an open claim window (only who has still to answer), and nothing whose presence
depends on another seat's hand: with ``claim_window="all"`` every seat is asked, and a rule that turns on another
seat's hidden tiles (Wai Huzi's 海底 block, WH-19) acts once the answers are in, not by what a seat is offered.
Shown by the rules although a hand made them: Kawuxing's 亮倒 hand (KW-16), Yunxiao's 游 levels (YX-26), Wai
Huzi's 死手 flags (WH-27).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from .actions import Action
from .errors import HupaiError, IllegalAction
from .hand import Meld
from .jsonform import (
    SCHEMA_VERSION,
    bool_in,
    describe,
    dict_in,
    free_json_in,
    int_in,
    json_text,
    list_in,
    obj_in,
    seat_in,
    str_in,
    tile_in,
    tile_out,
)
from .tiles import NUM_KINDS, counts_to_kinds

__all__ = ["Observation", "MeldView", "WinView", "ResultView", "SCHEMA_VERSION", "freeze", "thaw"]

#: Upper bounds on what an observation from outside may hold (a table has at most 4 seats; no hand, discard
#: pile or list of legal actions comes near these).
_MAX_SEATS = 4
_MAX_LIST = 256
_MELD_TYPES = ("chow", "pung", "kong")
#: Wai Huzi's declared groups as its observer names them (hupai.game.zipai.observation).
_GROUP_TYPES = ("chi", "peng", "wai", "liu", "piao", "kan", "chow", "pung", "kong")


def _seat(value: int) -> int | None:
    return None if value < 0 else value


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld as a seat sees it. ``tiles`` is empty for another seat's concealed kong played face down (its
    kind is hidden); otherwise the fields are those of :class:`hupai.hand.Meld`, with -1 for "none"."""

    type: str
    tiles: tuple[int, ...]
    concealed: bool = False
    claimed_from: int = -1
    added: bool = False
    claimed_tile: int = -1

    @classmethod
    def of(cls, meld: Meld, hidden: bool = False) -> MeldView:
        """The view of ``meld``; ``hidden`` drops the kind (only meaningful for a concealed kong)."""
        return cls(meld.type, () if hidden else meld.tiles, meld.concealed,
                   -1 if meld.claimed_from is None else meld.claimed_from, meld.added,
                   -1 if meld.claimed_tile is None else meld.claimed_tile)

    @property
    def hidden(self) -> bool:
        """A face-down concealed kong whose kind this seat may not see."""
        return not self.tiles

    def to_meld(self) -> Meld:
        """The :class:`~hupai.hand.Meld` itself (not for a hidden kong: its kind is unknown)."""
        if self.hidden:
            raise HupaiError("a hidden concealed kong has no known kind")
        return Meld(self.type, self.tiles, self.concealed,  # type: ignore[arg-type]  # checked by Meld
                    None if self.claimed_from < 0 else self.claimed_from, self.added,
                    None if self.claimed_tile < 0 else self.claimed_tile)

    def to_json(self, kinds: int = NUM_KINDS) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict(kinds))

    def to_dict(self, kinds: int = NUM_KINDS) -> dict[str, Any]:
        """``{"type", "tiles", "concealed", "claimed_from", "added", "claimed_tile"}``, tiles in notation,
        ``null`` for none (``tiles`` empty for a hidden kong)."""
        return {"type": self.type, "tiles": [tile_out(t, kinds) for t in self.tiles], "concealed": self.concealed,
                "claimed_from": _seat(self.claimed_from), "added": self.added,
                "claimed_tile": tile_out(self.claimed_tile, kinds)}

    @classmethod
    def from_json(cls, data: Any, where: str = "meld", kinds: int = NUM_KINDS) -> MeldView:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, where), where, kinds)

    @classmethod
    def from_dict(cls, data: Any, where: str = "meld", kinds: int = NUM_KINDS) -> MeldView:
        """Read :meth:`to_dict`'s form; a mahjong meld (``kinds`` 34) must have a meld's shape, a Wai Huzi group
        (``kinds`` 20) one of its group types."""
        data = obj_in(data, where, ("type", "tiles", "concealed", "claimed_from", "added", "claimed_tile"))
        kind = str_in(data["type"], f"{where}.type")
        types = _MELD_TYPES if kinds == NUM_KINDS else _GROUP_TYPES
        if kind not in types:
            raise HupaiError(f"malformed {where}.type: {kind!r} is not one of {', '.join(types)}")
        tiles = tuple(tile_in(t, f"{where}.tiles", kinds=kinds) for t in list_in(data["tiles"], f"{where}.tiles", 4))
        view = cls(kind, tiles, bool_in(data["concealed"], f"{where}.concealed"),
                   seat_in(data["claimed_from"], f"{where}.claimed_from", _MAX_SEATS, optional=True),
                   bool_in(data["added"], f"{where}.added"),
                   tile_in(data["claimed_tile"], f"{where}.claimed_tile", optional=True, kinds=kinds))
        if kinds != NUM_KINDS:
            return view
        if tiles:
            view.to_meld()  # a meld's shape (a run, identical tiles): InvalidHand otherwise
        elif kind != "kong" or not view.concealed:
            raise HupaiError(f"malformed {where}: only a concealed kong may hide its tiles")
        return view


@dataclass(frozen=True, slots=True)
class WinView:
    """One win as every seat sees it when the hand ends: the winner lays its hand open.

    ``hand`` is the winner's concealed tiles without the winning tile (as scored), ``melds`` its melds with
    every concealed kong face up; ``reading`` the reading or scoring row used (Yunxiao: its row, YX-43); the
    rest mirrors :class:`hupai.game.WinResult` (-1 for "none")."""

    seat: int
    tile: int
    source: str
    discarder: int
    liable: int
    patterns: tuple[tuple[str, int], ...]
    value: int
    payments: tuple[int, ...]
    hand: tuple[int, ...]
    melds: tuple[MeldView, ...]
    reading: str = ""

    def to_json(self, kinds: int = NUM_KINDS) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict(kinds))

    def to_dict(self, kinds: int = NUM_KINDS) -> dict[str, Any]:
        return {"seat": self.seat, "tile": tile_out(self.tile, kinds), "source": self.source,
                "discarder": _seat(self.discarder), "liable": _seat(self.liable),
                "patterns": [{"name": name, "value": value} for name, value in self.patterns],
                "value": self.value, "payments": list(self.payments),
                "hand": [tile_out(t, kinds) for t in self.hand], "melds": [m.to_dict(kinds) for m in self.melds],
                "reading": self.reading}

    @classmethod
    def from_json(cls, data: Any, where: str = "win", kinds: int = NUM_KINDS) -> WinView:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, where), where, kinds)

    @classmethod
    def from_dict(cls, data: Any, where: str = "win", kinds: int = NUM_KINDS) -> WinView:
        data = obj_in(data, where, ("seat", "tile", "source", "discarder", "liable", "patterns", "value",
                                    "payments", "hand", "melds", "reading"))
        patterns = []
        for index, item in enumerate(list_in(data["patterns"], f"{where}.patterns", _MAX_LIST)):
            at = f"{where}.patterns[{index}]"
            item = obj_in(item, at, ("name", "value"))
            patterns.append((str_in(item["name"], f"{at}.name"), _amount(item["value"], f"{at}.value")))
        return cls(seat_in(data["seat"], f"{where}.seat", _MAX_SEATS),
                   tile_in(data["tile"], f"{where}.tile", kinds=kinds),
                   str_in(data["source"], f"{where}.source"),
                   seat_in(data["discarder"], f"{where}.discarder", _MAX_SEATS, optional=True),
                   seat_in(data["liable"], f"{where}.liable", _MAX_SEATS, optional=True),
                   tuple(patterns), _amount(data["value"], f"{where}.value"),
                   _amounts(data["payments"], f"{where}.payments"), _tiles(data["hand"], f"{where}.hand", kinds),
                   tuple(MeldView.from_dict(m, f"{where}.melds[{i}]", kinds)
                         for i, m in enumerate(list_in(data["melds"], f"{where}.melds", 8))),
                   str_in(data["reading"], f"{where}.reading", 400))


@dataclass(frozen=True, slots=True)
class ResultView:
    """The hand's result as every seat sees it (:class:`hupai.game.HandResult` without the scoring
    internals)."""

    winners: tuple[int, ...]
    wins: tuple[WinView, ...]
    payments: tuple[int, ...]
    next_dealer: int
    drawn: bool

    def to_json(self, kinds: int = NUM_KINDS) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict(kinds))

    def to_dict(self, kinds: int = NUM_KINDS) -> dict[str, Any]:
        return {"winners": list(self.winners), "wins": [w.to_dict(kinds) for w in self.wins],
                "payments": list(self.payments), "next_dealer": self.next_dealer, "drawn": self.drawn}

    @classmethod
    def from_json(cls, data: Any, where: str = "result", kinds: int = NUM_KINDS) -> ResultView:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, where), where, kinds)

    @classmethod
    def from_dict(cls, data: Any, where: str = "result", kinds: int = NUM_KINDS) -> ResultView:
        data = obj_in(data, where, ("winners", "wins", "payments", "next_dealer", "drawn"))
        return cls(_seats(data["winners"], f"{where}.winners"),
                   tuple(WinView.from_dict(w, f"{where}.wins[{i}]", kinds)
                         for i, w in enumerate(list_in(data["wins"], f"{where}.wins", _MAX_SEATS))),
                   _amounts(data["payments"], f"{where}.payments"),
                   seat_in(data["next_dealer"], f"{where}.next_dealer", _MAX_SEATS),
                   bool_in(data["drawn"], f"{where}.drawn"))


def _amount(value: Any, where: str) -> int:
    return int_in(value, where, -(1 << 53), 1 << 53)


def _amounts(value: Any, where: str) -> tuple[int, ...]:
    return tuple(_amount(v, where) for v in list_in(value, where, _MAX_SEATS))


def _seats(value: Any, where: str) -> tuple[int, ...]:
    return tuple(seat_in(v, where, _MAX_SEATS) for v in list_in(value, where, _MAX_SEATS))


def _tiles(value: Any, where: str, kinds: int = NUM_KINDS) -> tuple[int, ...]:
    return tuple(tile_in(v, where, kinds=kinds) for v in list_in(value, where, _MAX_LIST))


_OBSERVATION_FIELDS = (
    "schema_version", "seat", "rules", "options", "phase", "to_act", "tile", "source", "dealer", "round_wind",
    "seat_winds", "hand", "drawn", "drawn_from", "hand_sizes", "melds", "discards", "wall_left", "extras",
    "legal_actions", "result",
)
#: Left out of the JSON form when empty or mahjong's: the seat's private facts, and the number of card kinds.
_OPTIONAL_FIELDS = ("private", "kinds")


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``seat`` may see now. See the module docstring for what is shown and what is hidden.

    Per-seat tuples (``seat_winds``, ``hand_sizes``, ``melds``, ``discards``) are indexed by seat. ``counts``
    is the seat's concealed hand as 34 per-kind counts (bytes: what the core's calls take), the drawn tile
    included; :attr:`hand` lists the same tiles as kinds. ``tile`` is -1 when there is none or it is not this
    seat's to see; ``drawn`` / ``drawn_from`` are the seat's own draw this turn (-1 / ``""`` otherwise).
    ``extras`` (the rule system's public facts) and ``options`` are read-only mappings of plain values (lists
    frozen to tuples). The JSON form carries :data:`SCHEMA_VERSION` as ``schema_version``.
    """

    schema_version: ClassVar[int] = SCHEMA_VERSION

    seat: int
    rules: str
    options: Mapping[str, Any]
    phase: str
    to_act: tuple[int, ...]
    tile: int
    source: int
    dealer: int
    round_wind: int
    seat_winds: tuple[int, ...]
    counts: bytes = field(repr=False)
    drawn: int
    drawn_from: str
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[MeldView, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    wall_left: int
    extras: Mapping[str, Any]
    legal_actions: tuple[Action, ...]
    result: ResultView | None = None
    #: What only this seat knows of its rule facts (Wai Huzi: its own 臭 bans and locked cards, WH-21..26); empty
    #: for the mahjong systems, and then left out of the JSON form.
    private: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's concealed tiles as kinds, ascending (the drawn tile included)."""
        return counts_to_kinds(self.counts)

    @property
    def num_players(self) -> int:
        return len(self.seat_winds)

    @property
    def own_melds(self) -> tuple[Meld, ...]:
        """This seat's melds as :class:`~hupai.hand.Meld` objects (its own are never hidden from it)."""
        return tuple(m.to_meld() for m in self.melds[self.seat])

    # -- JSON ---------------------------------------------------------------------------------------------
    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (compact, the same key order)."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, keys in a fixed order (the field order; the hand as kinds), tiles in notation and
        ``null`` for none (the contract of :mod:`hupai.jsonform`, schema ``observation.schema.json``). A Wai Huzi
        observation writes its cards as ``x1``..``d10`` and says ``"kinds": 20``."""
        kinds = len(self.counts)
        return {
            "schema_version": self.schema_version, "seat": self.seat, "rules": self.rules,
            "options": thaw(self.options), "phase": self.phase, "to_act": list(self.to_act),
            "tile": tile_out(self.tile, kinds), "source": _seat(self.source), "dealer": self.dealer,
            "round_wind": self.round_wind, "seat_winds": list(self.seat_winds),
            "hand": [tile_out(t, kinds) for t in self.hand], "drawn": tile_out(self.drawn, kinds),
            "drawn_from": self.drawn_from, "hand_sizes": list(self.hand_sizes),
            "melds": [[m.to_dict(kinds) for m in ms] for ms in self.melds],
            "discards": [[tile_out(t, kinds) for t in d] for d in self.discards], "wall_left": self.wall_left,
            "extras": thaw(self.extras), "legal_actions": [a.to_dict(kinds) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_dict(kinds),
            **({"private": thaw(self.private)} if self.private else {}),
            # The number of card kinds when it is not mahjong's 34 (Wai Huzi: 20), so that from_dict sizes counts
            **({"kinds": kinds} if kinds != NUM_KINDS else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        """:meth:`from_dict` of JSON text (``str`` or ``bytes``), or of the dict itself."""
        return cls.from_dict(dict_in(data, "observation"))

    @classmethod
    def from_dict(cls, data: Any) -> Observation:
        """Read :meth:`to_dict`'s form back (tiles as notation or ints); another schema version or any
        malformed field raises :class:`hupai.HupaiError` naming the field."""
        version = data.get("schema_version") if isinstance(data, Mapping) else None
        if type(version) is not int or version != SCHEMA_VERSION:
            raise HupaiError(f"not an observation of schema version {SCHEMA_VERSION}: "
                             f"{describe(version) if type(version) is int else type(version).__name__}")
        data = obj_in(dict(data), "observation", _OBSERVATION_FIELDS, _OPTIONAL_FIELDS)
        kinds = data.get("kinds", NUM_KINDS)
        if type(kinds) is not int or kinds not in (20, NUM_KINDS):  # zipai's 20 or mahjong's 34 kinds
            raise HupaiError(f"malformed observation.kinds: {describe(kinds)} is not 20 or {NUM_KINDS}")
        seat_winds = tuple(int_in(w, "observation.seat_winds", 0, 3)
                           for w in list_in(data["seat_winds"], "observation.seat_winds", _MAX_SEATS))
        n = len(seat_winds)
        if n < 2:
            raise HupaiError("malformed observation.seat_winds: a table has 2..4 seats")
        counts = bytearray(kinds)
        for kind in _tiles(data["hand"], "observation.hand", kinds):
            counts[kind] += 1
            if counts[kind] > 5:
                raise HupaiError("malformed observation.hand: more than five tiles of one kind")
        melds = list_in(data["melds"], "observation.melds", n)
        discards = list_in(data["discards"], "observation.discards", n)
        if len(melds) != n or len(discards) != n:
            raise HupaiError(f"malformed observation: melds and discards need one entry per seat ({n})")
        try:  # in the observation's own notation (its kinds): a Wai Huzi card is never read as a mahjong tile
            legal = tuple(Action.from_dict(a, kinds) for a in list_in(data["legal_actions"],
                                                                     "observation.legal_actions", _MAX_LIST))
        except IllegalAction as why:
            raise HupaiError(f"malformed observation.legal_actions: {why}") from None
        for index, action in enumerate(legal):
            if not 0 <= action.seat < n:
                raise HupaiError(f"malformed observation.legal_actions[{index}]: seat {action.seat} is not one of "
                                 f"this table's {n} seats")
        result = data["result"]
        return cls(
            seat=seat_in(data["seat"], "observation.seat", n), rules=str_in(data["rules"], "observation.rules"),
            options=freeze(_object(data["options"], "observation.options")),
            phase=str_in(data["phase"], "observation.phase"), to_act=_seats(data["to_act"], "observation.to_act"),
            tile=tile_in(data["tile"], "observation.tile", optional=True, kinds=kinds),
            source=seat_in(data["source"], "observation.source", n, optional=True),
            dealer=seat_in(data["dealer"], "observation.dealer", n),
            round_wind=int_in(data["round_wind"], "observation.round_wind", 0, 3), seat_winds=seat_winds,
            counts=bytes(counts), drawn=tile_in(data["drawn"], "observation.drawn", optional=True, kinds=kinds),
            drawn_from=str_in(data["drawn_from"], "observation.drawn_from"),
            hand_sizes=tuple(int_in(v, "observation.hand_sizes", 0, _MAX_LIST)
                             for v in list_in(data["hand_sizes"], "observation.hand_sizes", n)),
            melds=tuple(tuple(MeldView.from_dict(m, f"observation.melds[{s}][{i}]", kinds)
                              for i, m in enumerate(list_in(ms, f"observation.melds[{s}]", 8)))
                        for s, ms in enumerate(melds)),
            discards=tuple(_tiles(d, f"observation.discards[{s}]", kinds) for s, d in enumerate(discards)),
            wall_left=int_in(data["wall_left"], "observation.wall_left", 0, 1000),
            extras=freeze(_object(data["extras"], "observation.extras")), legal_actions=legal,
            result=None if result is None else ResultView.from_dict(result, "observation.result", kinds),
            private=freeze(_object(data.get("private", {}), "observation.private")),
        )


_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _object(value: Any, where: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise HupaiError(f"malformed {where}: not an object")
    found: dict[str, Any] = free_json_in(value, where)
    return found


def freeze(value: Any) -> Any:
    """A read-only copy of plain JSON data: dicts become read-only mappings, lists tuples."""
    # Exact type tests, not isinstance against the ABCs: observations freeze the rules' public facts at every
    # decision, and the ABC checks cost more than the copying.
    kind = type(value)
    if kind is list or kind is tuple:
        return tuple([item if type(item) in _SCALARS else freeze(item) for item in value])
    if kind is dict or isinstance(value, Mapping):
        return MappingProxyType({key: item if type(item) in _SCALARS else freeze(item)
                                 for key, item in value.items()})
    return value


_SCALARS = frozenset({int, str, bool, float, type(None)})


def thaw(value: Any) -> Any:
    """The JSON form of :func:`freeze`'s output: mappings as dicts, tuples as lists."""
    # Exact type tests first, as in freeze: every observation's JSON thaws its options and facts.
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is MappingProxyType or kind is dict or isinstance(value, Mapping):
        return {key: item if type(item) in _SCALARS else thaw(item) for key, item in value.items()}
    if kind is tuple or isinstance(value, tuple):
        return [item if type(item) in _SCALARS else thaw(item) for item in value]
    return value


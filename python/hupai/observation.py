"""What one seat may see: :class:`Observation`, the only thing a bot or a remote client is given (DESIGN §4).

An observation is immutable plain data (frozen dataclasses, tuples, read-only mappings) with a JSON form
(:meth:`Observation.to_json` / :meth:`Observation.from_json`, a ``schema_version`` checked on the way in). It
holds no reference to the game or its table, so nothing reached from it can read another seat's tiles.

What it shows (built by :mod:`hupai.game.observation`):

- the table: rules name and options (public: every player knows the table's rules), dealer, round and seat
  winds, every seat's hand size, melds and discards, how many live tiles the wall holds (not their order);
- the decision: ``phase``, the seats still to act (``to_act``), the tile in question and its source seat, as
  the engine reports them (a drawn tile only to its drawer);
- its own seat: concealed tiles (``hand``, kinds, the drawn tile included), the drawn tile and where it came
  from, its legal actions;
- the rule system's public facts (``extras``: Yunxiao's gold, 游 levels, kong count...);
- the result once the hand is over, with each winner's hand laid open (:class:`WinView`);
- ``private``: the seat's own rule facts no other seat knows (Wai Huzi's bans and locks).

Wai Huzi (zipai) observations use the same fields (:mod:`hupai.game.zipai_observation`): 20 card counts,
``melds`` are the face-up groups (a 歪 or 溜 shows its one face-up card, WH-9), ``tile`` the offered card (a
turned-up stock card is face up, so every seat sees it), ``extras`` the 神 and the 死手 flags.

Hidden: other seats' concealed tiles and drawn tiles, the wall's order, and other seats' concealed kongs where
the rule system plays them face down (:attr:`MeldView.hidden`; Yunxiao does, Guangdong shows their kind).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from .actions import Action, coerce
from .errors import HupaiError
from .hand import Meld
from .tiles import NUM_KINDS, counts_to_kinds

__all__ = ["Observation", "MeldView", "WinView", "ResultView", "SCHEMA_VERSION", "freeze", "thaw"]

#: Bumped whenever a field is added, removed or changes meaning; :meth:`Observation.from_json` refuses others.
SCHEMA_VERSION = 1


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

    def to_json(self) -> list[Any]:
        """``[type, tiles, concealed, claimed_from, added, claimed_tile]``, as the engine's snapshots write a
        meld."""
        return [self.type, list(self.tiles), self.concealed, self.claimed_from, self.added, self.claimed_tile]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> MeldView:
        kind, tiles, concealed, claimed_from, added, claimed_tile = data
        return cls(kind, tuple(tiles), concealed, claimed_from, added, claimed_tile)


@dataclass(frozen=True, slots=True)
class WinView:
    """One win as every seat sees it when the hand ends: the winner lays its hand open.

    ``hand`` is the winner's concealed tiles without the winning tile (as scored), ``melds`` its melds with
    every concealed kong face up; the rest mirrors :class:`hupai.game.WinResult` (-1 for "none")."""

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

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "tile": self.tile, "source": self.source, "discarder": self.discarder,
                "liable": self.liable, "patterns": [[name, value] for name, value in self.patterns],
                "value": self.value, "payments": list(self.payments), "hand": list(self.hand),
                "melds": [m.to_json() for m in self.melds]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinView:
        return cls(data["seat"], data["tile"], data["source"], data["discarder"], data["liable"],
                   tuple((name, value) for name, value in data["patterns"]), data["value"],
                   tuple(data["payments"]), tuple(data["hand"]),
                   tuple(MeldView.from_json(m) for m in data["melds"]))


@dataclass(frozen=True, slots=True)
class ResultView:
    """The hand's result as every seat sees it (:class:`hupai.game.HandResult` without the scoring
    internals)."""

    winners: tuple[int, ...]
    wins: tuple[WinView, ...]
    payments: tuple[int, ...]
    next_dealer: int
    drawn: bool

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "wins": [w.to_json() for w in self.wins],
                "payments": list(self.payments), "next_dealer": self.next_dealer, "drawn": self.drawn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultView:
        return cls(tuple(data["winners"]), tuple(WinView.from_json(w) for w in data["wins"]),
                   tuple(data["payments"]), data["next_dealer"], data["drawn"])


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

    # -- JSON -------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain JSON types, keys in a fixed order (the field order; the hand as kinds)."""
        return {
            "schema_version": self.schema_version, "seat": self.seat, "rules": self.rules,
            "options": thaw(self.options), "phase": self.phase, "to_act": list(self.to_act), "tile": self.tile,
            "source": self.source, "dealer": self.dealer, "round_wind": self.round_wind,
            "seat_winds": list(self.seat_winds), "hand": list(self.hand), "drawn": self.drawn,
            "drawn_from": self.drawn_from, "hand_sizes": list(self.hand_sizes),
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "discards": [list(d) for d in self.discards], "wall_left": self.wall_left,
            "extras": thaw(self.extras), "legal_actions": [a.to_json() for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_json(),
            **({"private": thaw(self.private)} if self.private else {}),
            # The number of card kinds when it is not mahjong's 34 (Wai Huzi: 20), so that from_json sizes counts
            **({"kinds": len(self.counts)} if len(self.counts) != NUM_KINDS else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Read :meth:`to_json`'s form back; another schema version or a malformed field raises
        :class:`hupai.HupaiError`."""
        version = data.get("schema_version") if isinstance(data, Mapping) else None
        if version != SCHEMA_VERSION:
            raise HupaiError(f"not an observation of schema version {SCHEMA_VERSION}: {version!r}")
        try:
            result = data["result"]
            kinds = data.get("kinds", NUM_KINDS)
            if type(kinds) is not int or kinds not in (20, NUM_KINDS):  # zipai's 20 or mahjong's 34 kinds
                raise ValueError(f"kinds {kinds!r}")
            counts = bytearray(kinds)
            for kind in data["hand"]:
                counts[kind] += 1
            return cls(
                seat=data["seat"], rules=data["rules"], options=freeze(data["options"]), phase=data["phase"],
                to_act=tuple(data["to_act"]), tile=data["tile"], source=data["source"], dealer=data["dealer"],
                round_wind=data["round_wind"], seat_winds=tuple(data["seat_winds"]), counts=bytes(counts),
                drawn=data["drawn"], drawn_from=data["drawn_from"], hand_sizes=tuple(data["hand_sizes"]),
                melds=tuple(tuple(MeldView.from_json(m) for m in ms) for ms in data["melds"]),
                discards=tuple(tuple(d) for d in data["discards"]), wall_left=data["wall_left"],
                extras=freeze(data["extras"]), legal_actions=tuple(coerce(a) for a in data["legal_actions"]),
                result=None if result is None else ResultView.from_json(result),
                private=freeze(dict(data.get("private", {}))),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise HupaiError(f"malformed observation: {error!r}") from None


_EMPTY: Mapping[str, Any] = MappingProxyType({})


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
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


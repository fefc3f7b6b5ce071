"""Scoring types shared by every rule system (``hupai.score``, in :mod:`hupai.rules`, scores a hand without a
game).

A rule system scores a :class:`WinContext` (the facts of one win) into a :class:`ScoreResult`
(patterns found, value, per-seat payments). The game engine builds the context from its history; a server that
runs its own flow builds it directly (:func:`hupai.parse_hand` reads the tiles from notation).

One vocabulary for every system: a field means the same wherever it is used, and a system refuses a field it
does not use unless it is left at its default (:meth:`hupai.rules.Rules.prepare` names the field). Which
fields each system reads is its ``Rules.context_fields``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .errors import HupaiError, InvalidHand
from .hand import Meld
from .jsonform import describe, json_text
from .tiles import format_tiles

if TYPE_CHECKING:  # pragma: no cover
    from .zipai import Declared

__all__ = ["WinContext", "Pattern", "ScoreResult", "CONTEXT_DEFAULTS"]


@dataclass(frozen=True)
class WinContext:
    """The facts of one win.

    Tiles and seats:

    - ``concealed`` holds the winner's concealed tiles *before* the winning tile (kinds, any order); the winning
      tile is ``win_tile``; ``melds`` the declared melds (``hupai.parse_hand`` reads both from notation).
    - ``discarder`` is the seat that supplied the tile (a discard or a robbed kong); ``None`` means self-drawn.
    - ``dealer`` (庄), ``first_dealer`` (the match's first dealer; ``None`` = ``dealer``), ``num_players``
      (``None``: the rule system's own, 4 in Guangdong and Yunxiao, 3 in Kawuxing and Wai Huzi).
    - ``seat_wind`` / ``round_wind`` (0..3 = 东南西北): ``seat_wind=None`` derives it from the seat, the dealer
      and ``first_dealer`` as the rule system seats players (Guangdong GD-5); the round wind is a fact of the
      match (GD-6), 东 unless given.

    Events (one set of flags; each system's spec says what it calls them):

    - ``heavenly``: the dealer wins on its dealt hand (天和 GD-21, 天胡 YX-31).
    - ``earthly``: Guangdong's 地和, a non-dealer self-draws on its first draw before any claim (GD-21);
      Yunxiao's 地胡, a non-dealer wins on the dealer's first discard (YX-31).
    - ``human``: a non-dealer wins on the dealer's first discard (人和, GD-21). Yunxiao has no 人胡: that
      situation is its 地胡, so ``human=True`` scores as 地胡 there.
    - ``kong_replacement`` (杠上开花), ``robbed_kong`` (抢杠), ``last_tile`` (海底), ``winners_on_tile``.

    Declared states and wild tiles, typed (each system that has them):

    - ``liable``: the seat a liability (包) rule makes pay alone (Guangdong; the caller decides it).
    - ``jokers``: wild tiles held beside ``concealed`` (Yunxiao: extra golds).
    - ``gold``: Yunxiao's gold kind (金, required there). ``event``: a Yunxiao win event the flags do not name
      (``"rob_gold"`` 抢金胡, ``"san_jin_dao"`` 三金倒, ``"you_jin"`` 游金; ``None`` derives it from the flags).
      ``you_level``: the 游 level 1..3 of a ``you_jin`` win.
    - ``declared_ready`` (亮倒, Kawuxing KW-16..18), ``discard_after_kong`` (杠上炮, Kawuxing KW-25).
    - Wai Huzi: ``ready_from_deal`` (报听), ``shen`` and ``shen_card`` (神, 神腰); its ``melds`` are
      :class:`hupai.zipai.Declared` groups.
    """

    winner: int
    win_tile: int
    concealed: tuple[int, ...]
    melds: tuple[Meld | Declared, ...] = ()  # mahjong: Meld; Wai Huzi: hupai.zipai.Declared (歪 碰 溜 飘 吃)
    discarder: int | None = None
    dealer: int = 0
    num_players: int | None = None  # None: the rule system's own table size
    seat_wind: int | None = None    # 0..3 = 东南西北; None: derived from the seat and the dealer
    round_wind: int = 0             # 0..3 = 东南西北
    kong_replacement: bool = False  # won with a kong replacement tile (杠上开花)
    robbed_kong: bool = False       # won on a tile added to a kong (抢杠)
    last_tile: bool = False         # won with / on the last tile of the wall (海底)
    heavenly: bool = False          # 天和/天胡: the dealer's dealt hand
    earthly: bool = False           # 地和/地胡 (per the rule system's definition)
    human: bool = False             # 人和: a non-dealer wins on the dealer's first discard
    winners_on_tile: int = 1        # how many players win on this one tile
    liable: int | None = None
    jokers: int = 0                 # wild tiles held among the concealed tiles (not in ``concealed``)
    declared_ready: bool = False    # the winner had declared its hand ready and shown it (亮倒: Kawuxing KW-16..18)
    discard_after_kong: bool = False  # won on a discard made right after a kong's replacement draw (杠上炮)
    first_dealer: int | None = None  # the match's first dealer (fixed seat winds); None = dealer
    gold: int | None = None         # Yunxiao's gold (wild) kind
    event: str | None = None        # a rule system's own win event (Yunxiao: rob_gold, san_jin_dao, you_jin...)
    you_level: int = 0              # Yunxiao's 游 level (1..3) of a you_jin win
    # Wai Huzi (waihuzi.md): facts of how the hand went that its 名堂 need and the cards cannot show.
    ready_from_deal: bool = False   # 报听 (WH-38): ready from the deal and no group made since; the flow decides
    shen: str | None = None         # the session 神 (WH-5): "odd" (单神) or "even" (双神); None: the option's
    shen_card: int | None = None    # the card turned up after the win for 神腰 (WH-39), kind 0..19; None: none

    def __post_init__(self) -> None:
        # The types, checked once for every system (a context may come from a caller's facts, hupai.score): each
        # system then checks the values it reads (seats, kinds, which flags it uses) without ever meeting a str
        # where it compares ints, a float it would index with, or an int too large to write in its message.
        for name, (what, optional) in _INT_FIELDS.items():
            value = getattr(self, name)
            if (value is not None or not optional) and (
                    type(value) is not int or not -_INT_BOUND <= value <= _INT_BOUND):  # noqa: E721 (a bool is no int)
                raise InvalidHand(f"{name} must be {what}{' or None' if optional else ''}, got {describe(value)}")
        for name in _BOOL_FIELDS:
            if type(getattr(self, name)) is not bool:  # noqa: E721
                raise InvalidHand(f"{name} must be a bool (True or False), got {describe(getattr(self, name))}")
        for name in ("event", "shen"):
            value = getattr(self, name)
            if value is not None and (type(value) is not str or len(value) > 40):  # noqa: E721
                raise InvalidHand(f"WinContext.{name} must be a short string or None, got {describe(value)}")
        for name, limit in (("concealed", 64), ("melds", 8)):
            value = getattr(self, name)
            if type(value) not in (tuple, list) or len(value) > limit:
                raise InvalidHand(f"WinContext.{name} must be a tuple of at most {limit}, got {describe(value)}")
        if any(type(kind) is not int or not 0 <= kind < 64 for kind in self.concealed):  # noqa: E721
            raise InvalidHand(f"WinContext.concealed must hold tile kinds, got {describe(self.concealed)}")

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    def mahjong_melds(self) -> tuple[Meld, ...]:
        """``melds`` as a mahjong rule system reads them; a zipai group among them is refused (HupaiError)."""
        melds = tuple(meld for meld in self.melds if isinstance(meld, Meld))
        if len(melds) != len(self.melds):
            other = next(meld for meld in self.melds if not isinstance(meld, Meld))
            raise HupaiError(f"a mahjong win's melds are hupai.hand.Meld, got {type(other).__name__}")
        return melds

    def describe(self) -> str:
        """The hand in mahjong notation: concealed tiles, ``+`` the winning tile, then the melds."""
        melds = " ".join(str(meld) for meld in self.melds)
        return (f"{format_tiles(sorted(self.concealed))} + {format_tiles([self.win_tile])}"
                f"{' ' + melds if melds else ''}")


#: The types of WinContext's fields (checked by WinContext.__post_init__), and a bound on its ints far beyond any
#: seat, kind or count a system reads: each system checks its own ranges.
_SEAT, _KIND, _COUNT = "a seat (an int)", "a card kind or tile kind (an int)", "an int"
#: name -> (what it is, whether None is allowed)
_INT_FIELDS = {
    "winner": (_SEAT, False), "dealer": (_SEAT, False), "discarder": (_SEAT, True), "liable": (_SEAT, True),
    "first_dealer": (_SEAT, True), "win_tile": (_KIND, False), "gold": (_KIND, True), "shen_card": (_KIND, True),
    "num_players": (_COUNT, True), "round_wind": (_COUNT, False), "seat_wind": (_COUNT, True),
    "winners_on_tile": (_COUNT, False), "jokers": (_COUNT, False), "you_level": (_COUNT, False),
}
_BOOL_FIELDS = ("kong_replacement", "robbed_kong", "last_tile", "heavenly", "earthly", "human", "declared_ready",
                "discard_after_kong", "ready_from_deal")
_INT_BOUND = 1 << 15

#: Each WinContext field's default (fields without one are required).
CONTEXT_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(WinContext) if f.default is not MISSING}


@dataclass(frozen=True)
class Pattern:
    """A scoring pattern that applied: ``name`` in pinyin (``"qing_yi_se"``), ``chinese`` (清一色), its value
    in the system's unit, and the spec ``rule`` id that defines it (``"GD-16"``; the ids are those of the rule
    references)."""

    name: str
    chinese: str
    value: int
    rule: str = ""

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "chinese": self.chinese, "value": self.value, "rule": self.rule}


@dataclass(frozen=True)
class ScoreResult:
    """What a win is worth, with the same fields in every system.

    - ``patterns``: what counts, each with its Chinese name, value and rule id.
    - ``value``: the system's hand value: Guangdong the 番 after the limit and minimums (GD-18..21); Yunxiao the
      total the winner receives (YX-38..41); Kawuxing ``base`` x the capped factor product, what each payer pays
      (KW-24).
    - ``payments``: per seat, signed, summing to zero (this winner's win only).
    - ``reading``: the reading that was scored, in words (Guangdong/Kawuxing: the groups of the best reading;
      Yunxiao: the scoring row used, by the pattern that selected it).
    - ``details``: the system's own facts (Yunxiao: ``row``, ``row_name``, ``event``, ``gold``...).
    """

    patterns: tuple[Pattern, ...]
    value: int
    payments: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)
    reading: str = ""

    @property
    def pattern_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.patterns)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: every field, the details (scoring row, event...) included."""
        return {"patterns": [p.to_dict() for p in self.patterns], "value": self.value,
                "payments": list(self.payments), "reading": self.reading, "details": _plain(self.details)}


def _plain(value: Any) -> Any:
    """JSON types only (tuples as lists, mappings as dicts with string keys)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value

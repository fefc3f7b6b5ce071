"""Wai Huzi (歪胡子) layouts: splitting a winning hand, its 息, 元 and 名堂 (WH-9, WH-28..37, WH-41).

A *layout* (WH-28) is the winner's declared groups, its hand and the winning card, read as 3-card groups and
exactly one 2-card unit (a pair or a 门子). The C++ core lists every layout and scores each one by
底息 × 名堂 × 内元 × 外元 (WH-33) with the 名堂 that follow from the cards and the layout; the best layout is the
highest score among those reaching ``min_huxi`` (WH-31, WH-32), then the most 息. The context 名堂 (天胡/地胡,
报听, 海底捞, 神腰, WH-35) multiply every layout alike, so they never change the choice: :func:`context_score`
applies them to the chosen layout.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Literal

from .. import _core
from ..errors import InvalidHand
from ..tiles import as_ndarray, is_integer, numpy
from .cards import NUM_KINDS, Cards, card_name, format_cards, parse, to_counts, to_kinds

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "PartType", "Source", "Declared", "Part", "Mingtang", "Layout", "Wait", "BatchResult", "MINGTANG",
    "parse_groups", "splits", "best_split", "waits", "best_split_batch", "is_win_batch", "best_xi_batch",
    "context_score",
]


class PartType(IntEnum):
    """Parts of a layout (WH-9, WH-29, WH-30); the values are the core's."""

    KAN = 0           #: 坎: three held cards, 3 息
    WIN_TRIPLET = 1   #: triplet completed by the winning card: 4 self-drawn (歪-type), 1 otherwise (碰-type)
    RUN = 2           #: a run from the hand: 1 息 for 二七十, else 0
    PAIR = 3          #: a held pair, 1 息
    WIN_PAIR = 4      #: pair completed by the winning card: 4 self-drawn (单歪), 1 otherwise (单碰)
    MENZI = 5         #: 门子 (WH-8): 1 息 for two of 二七十, else 0
    WAI = 6           #: declared 歪, 4 息
    PENG = 7          #: declared 碰, 1 息
    LIU = 8           #: declared 溜, 4 cards, 4 息
    PIAO = 9          #: declared 飘, 4 cards, 1 息
    CHI = 10          #: declared chowed run (吃), 1 息 for 二七十, else 0


class Source(IntEnum):
    """Where the winning card came from."""

    NONE = 0        #: no winning card: 天胡, the dealer's 20 dealt cards (WH-40)
    SELF_DRAWN = 1  #: turned up by the winner itself
    FROM_OTHER = 2  #: another player's discard or drawn card


SourceLike = Source | Literal["self", "other"] | None
_SOURCE_NAMES = {"self": Source.SELF_DRAWN, "other": Source.FROM_OTHER}
_DECLARED_NAMES = {
    "歪": PartType.WAI, "wai": PartType.WAI, "碰": PartType.PENG, "peng": PartType.PENG,
    "溜": PartType.LIU, "liu": PartType.LIU, "飘": PartType.PIAO, "漂": PartType.PIAO, "piao": PartType.PIAO,
    "吃": PartType.CHI, "chi": PartType.CHI,
}
_CHINESE_TYPE = {
    PartType.KAN: "坎", PartType.WIN_TRIPLET: "胡刻", PartType.RUN: "句", PartType.PAIR: "对",
    PartType.WIN_PAIR: "胡对", PartType.MENZI: "门子", PartType.WAI: "歪", PartType.PENG: "碰",
    PartType.LIU: "溜", PartType.PIAO: "飘", PartType.CHI: "吃",
}


@dataclass(frozen=True)
class Declared:
    """A group declared before the win (WH-9): 歪, 碰, 溜, 飘 or a chowed run (吃).

    ``external_card`` is the card taken from another player (its discard or its drawn card), which makes a 元 of
    that value 外元 (WH-34): a 碰 or 飘 always took one, a 歪 or 溜 never did, a 吃 did unless it chowed the
    player's own drawn card. Build with :meth:`wai`, :meth:`peng`, :meth:`liu`, :meth:`piao`, :meth:`chi`.
    """

    type: PartType
    cards: tuple[int, ...]
    external_card: int | None

    @classmethod
    def wai(cls, card: int | str) -> Declared:
        return cls._same(PartType.WAI, card)

    @classmethod
    def peng(cls, card: int | str) -> Declared:
        return cls._same(PartType.PENG, card)

    @classmethod
    def liu(cls, card: int | str) -> Declared:
        return cls._same(PartType.LIU, card)

    @classmethod
    def piao(cls, card: int | str) -> Declared:
        return cls._same(PartType.PIAO, card)

    @classmethod
    def chi(cls, cards: Cards, taken: int | str, *, own_draw: bool = False) -> Declared:
        """A chowed run; ``taken`` is the chowed card, ``own_draw`` if it was the player's own drawn card."""
        kinds = tuple(to_kinds(cards))
        taken_kind = _one_card(taken)
        if len(kinds) != 3 or not _is_run(kinds):
            raise InvalidHand(f"a 吃 is a run of one size (x1x2x3 or x2x7x10), got {format_cards(list(kinds))!r}")
        if taken_kind not in kinds:
            raise InvalidHand(f"the chowed card {card_name(taken_kind)} is not in the run")
        return cls(PartType.CHI, kinds, None if own_draw else taken_kind)

    @classmethod
    def _same(cls, type_: PartType, card: int | str) -> Declared:
        kind = _one_card(card)
        size = 4 if type_ in (PartType.LIU, PartType.PIAO) else 3
        external = kind if type_ in (PartType.PENG, PartType.PIAO) else None
        return cls(type_, (kind,) * size, external)

    def as_core(self) -> tuple[int, int, int, int, int]:
        """The core's plain form; the core checks what the group means (WH-9), this only its shape."""
        return self._core_form

    @cached_property
    def _core_form(self) -> tuple[int, int, int, int, int]:  # once per group: the advice asks on every call
        if not isinstance(self.type, PartType) or self.type < PartType.WAI:
            raise InvalidHand(f"{self.type!r} is not a declared group type (歪 碰 溜 飘 吃)")
        size = 4 if self.type in (PartType.LIU, PartType.PIAO) else 3
        if not isinstance(self.cards, tuple) or len(self.cards) != size:
            raise InvalidHand(f"a {_CHINESE_TYPE[self.type]} holds {size} cards, got {self.cards!r}")
        a, b, c = (_one_card(card) for card in self.cards[:3])
        external = -1 if self.external_card is None else _one_card(self.external_card)
        return (int(self.type), a, b, c, external)

    def __str__(self) -> str:
        return f"[{_CHINESE_TYPE[self.type]} {format_cards(list(self.cards)).replace(' ', '')}]"


@dataclass(frozen=True)
class Part:
    """One group or the 2-card unit of a layout, with its 息."""

    type: PartType
    cards: tuple[int, ...]
    xi: int

    @property
    def declared(self) -> bool:
        return self.type >= PartType.WAI

    @property
    def is_unit(self) -> bool:
        return len(self.cards) == 2

    @cached_property
    def _text(self) -> str:  # once per part: the core's parts are shared (_part) and scoring writes each twice
        return f"[{_CHINESE_TYPE[self.type]} {format_cards(list(self.cards)).replace(' ', '')} {self.xi}]"

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True)
class Mingtang:
    """A 名堂 multiplier (WH-35, WH-41): ``name`` in pinyin, ``chinese``, ``factor``."""

    name: str
    chinese: str
    factor: int


# Core flag -> (pinyin, Chinese, factor); 火火翻's factor depends on the red count (WH-35).
MINGTANG: dict[int, tuple[str, str, int]] = {
    1 << 0: ("dui_zi_xi", "对子息", 8),
    1 << 1: ("xing_xing_xi", "行行息", 4),
    1 << 2: ("hei_hu_zi", "黑胡子", 8),
    1 << 3: ("hei_dui_zi_hu", "黑对子胡", 32),
    1 << 4: ("yi_dian_hong", "一点红", 4),
    1 << 5: ("huo_huo_fan", "火火翻", 2),
    1 << 6: ("da_zi_hu", "大字胡", 8),
    1 << 7: ("xiao_zi_hu", "小字胡", 8),
    1 << 8: ("dan_piao", "单漂", 2),
    1 << 9: ("shuang_piao", "双漂", 2),
    1 << 10: ("yin", "印", 2),
    1 << 11: ("hua_hu_zi", "花胡子", 64),
}
_HUOHUO_FAN = 1 << 5


@dataclass(frozen=True)
class Layout:
    """A winning layout (WH-28) and its score before the context 名堂.

    ``groups``: the declared groups, then the hand's groups; ``unit``: the 2-card unit; ``xi``: total 息 (底息,
    WH-33); ``mingtang``: the layout's 名堂 (WH-35, WH-36, WH-41); ``inner_yuan`` / ``outer_yuan``: the values
    that are 内元 (×4) / 外元 (×2) (WH-34); ``score`` = xi × every factor.
    """

    groups: tuple[Part, ...]
    unit: Part
    xi: int
    score: int
    mingtang: tuple[Mingtang, ...]
    inner_yuan: tuple[int, ...]
    outer_yuan: tuple[int, ...]

    @property
    def parts(self) -> tuple[Part, ...]:
        return (*self.groups, self.unit)

    def __str__(self) -> str:
        words = [*map(str, self.parts), f"息={self.xi}", *(f"{m.chinese}×{m.factor}" for m in self.mingtang)]
        return " ".join([*words, f"score={self.score}"])


@dataclass(frozen=True)
class Wait:
    """A card that completes the hand, with the best layout if self-drawn and if from another player."""

    card: int
    self_drawn: Layout | None
    from_other: Layout | None


@dataclass(frozen=True)
class BatchResult:
    """Per-row results of :func:`best_split_batch`: the best layout's 息 (-1: no win) and score (0: no win),
    and the most 息 of any layout regardless of ``min_huxi`` (-1: the hand does not split)."""

    xi: np.ndarray
    score: np.ndarray
    max_xi: np.ndarray


# ------------------------------------------------------------------ argument checks


def _one_card(card: object) -> int:
    if type(card) is int and 0 <= card < NUM_KINDS:  # noqa: E721 (the common case first; a bool is no card)
        return card
    if isinstance(card, str):
        kinds = parse(card)
        if len(kinds) != 1:
            raise InvalidHand(f"expected one card, got {card!r}")
        return kinds[0]
    if not is_integer(card) or not 0 <= int(card) < NUM_KINDS:
        raise InvalidHand(f"{card!r} is not a card kind in 0..19")
    return int(card)


def _is_run(kinds: Sequence[int]) -> bool:
    a, b, c = kinds
    if not a // 10 == b // 10 == c // 10:
        return False
    values = (a % 10, b % 10, c % 10)
    return values == (1, 6, 9) or (b == a + 1 and c == a + 2)


def parse_groups(text: str) -> list[Declared]:
    """Declared groups in the spec's notation: ``"[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6]"``.

    Types: 歪 碰 溜 飘 (or 漂) 吃, or their pinyin. In ``[吃 x2x1x3]`` the first card written is the chowed card,
    taken from another player (use :meth:`Declared.chi` for a chow of one's own drawn card).
    """
    groups: list[Declared] = []
    rest = text.strip()
    while rest:
        if not rest.startswith("["):
            raise InvalidHand(f"expected '[' at {rest[:10]!r} in {text!r}")
        end = rest.find("]")
        if end < 0:
            raise InvalidHand(f"unclosed '[' in {text!r}")
        body = rest[1:end].split(None, 1)
        if len(body) != 2 or body[0] not in _DECLARED_NAMES:
            raise InvalidHand(f"a group is '[type cards]' with type 歪 碰 溜 飘 吃, got {rest[:end + 1]!r}")
        type_, kinds = _DECLARED_NAMES[body[0]], parse(body[1])
        if type_ == PartType.CHI:
            groups.append(Declared.chi(kinds, kinds[0] if kinds else -1))
        else:
            size = 4 if type_ in (PartType.LIU, PartType.PIAO) else 3
            if len(kinds) != size or len(set(kinds)) != 1:
                raise InvalidHand(f"a {body[0]} is {size} identical cards, got {body[1]!r}")
            groups.append(Declared._same(type_, kinds[0]))
        rest = rest[end + 1:].strip()
    return groups


def _declared(groups: Iterable[Declared] | str) -> list[tuple[int, int, int, int, int]]:
    if isinstance(groups, str):
        return [group.as_core() for group in parse_groups(groups)]
    out = []
    for pos, group in enumerate(groups):
        if not isinstance(group, Declared):
            raise InvalidHand(f"declared group {pos} is {group!r}, not a hupai.zipai.Declared")
        out.append(group.as_core())
    return out


def _source(win_card: int | str | None, source: SourceLike) -> tuple[int, Source]:
    if win_card is None:
        if source not in (None, Source.NONE):
            raise InvalidHand("a source needs a winning card")
        return -1, Source.NONE
    kind = _one_card(win_card)
    if isinstance(source, str) and source in _SOURCE_NAMES:
        return kind, _SOURCE_NAMES[source]
    if isinstance(source, Source) and source != Source.NONE:
        return kind, source
    raise InvalidHand(f"a winning card needs its source: 'self' or 'other' (got {source!r})")


def _options(min_huxi: int, xingxingxi: str, daxiaozihu: bool, extra_mingtang: bool) -> tuple[int, bool, bool, bool]:
    if not is_integer(min_huxi) or not 0 <= min_huxi <= 1000:
        raise InvalidHand(f"min_huxi must be an int in 0..1000, got {min_huxi!r}")
    if xingxingxi not in ("loose", "strict"):
        raise InvalidHand(f"xingxingxi must be 'loose' or 'strict', got {xingxingxi!r}")
    for name, value in (("daxiaozihu", daxiaozihu), ("extra_mingtang", extra_mingtang)):
        if not isinstance(value, bool):
            raise InvalidHand(f"{name} must be a bool, got {value!r}")
    return int(min_huxi), xingxingxi == "strict", daxiaozihu, extra_mingtang


# Layouts repeat a few hundred distinct parts and 名堂 sets: building each frozen dataclass once (a memo, not
# state: the values never change) makes a Layout about three times faster to read back from the core.
@lru_cache(maxsize=2048)
def _part(type_: int, kinds: tuple[int, ...], xi: int) -> Part:
    return Part(PartType(type_), kinds, xi)


@lru_cache(maxsize=512)
def _mingtang(flags: int, doublings: int) -> tuple[Mingtang, ...]:
    return tuple(Mingtang(name, chinese, 1 << doublings if flag == _HUOHUO_FAN else factor)
                 for flag, (name, chinese, factor) in MINGTANG.items() if flags & flag)


@lru_cache(maxsize=512)
def _kinds_of(mask: int) -> tuple[int, ...]:
    return tuple(kind for kind in range(NUM_KINDS) if mask >> kind & 1)


def _layout(raw: _core._ZipaiLayout) -> Layout:
    """A core layout tuple as a :class:`Layout` (the core lists the declared groups first, the unit last)."""
    parts, xi, score, flags, doublings, inner, outer = raw
    every = [_part(*part) for part in parts]
    return Layout(groups=tuple(every[:-1]), unit=every[-1], xi=xi, score=score, mingtang=_mingtang(flags, doublings),
                  inner_yuan=_kinds_of(inner), outer_yuan=_kinds_of(outer))


# ------------------------------------------------------------------ single hands


def splits(hand: Cards, groups: Iterable[Declared] | str = (), win_card: int | str | None = None,
           source: SourceLike = None, *, xingxingxi: str = "loose", daxiaozihu: bool = True,
           extra_mingtang: bool = False) -> list[Layout]:
    """Every layout of ``hand`` + ``win_card`` (WH-28, WH-31), best score first, ``min_huxi`` ignored.

    ``hand``: the held cards without the winning card; ``groups``: declared groups (a list of
    :class:`Declared` or the bracket notation of :func:`parse_groups`); ``win_card`` with its ``source``
    (``"self"`` or ``"other"``), or None for 天胡 (WH-40). Two layouts differ in their parts or in where the
    winning card sits (WH-31). An empty list: the cards do not split.
    """
    counts = to_counts(hand)
    declared = _declared(groups)
    kind, src = _source(win_card, source)
    options = _options(0, xingxingxi, daxiaozihu, extra_mingtang)
    raws = _core.zipai_layouts(counts, declared, kind, int(src), options)
    layouts = [_layout(raw) for raw in raws]
    layouts.sort(key=lambda layout: (-layout.score, -layout.xi))
    return layouts


def best_split(hand: Cards, groups: Iterable[Declared] | str = (), win_card: int | str | None = None,
               source: SourceLike = None, *, min_huxi: int = 5, xingxingxi: str = "loose",
               daxiaozihu: bool = True, extra_mingtang: bool = False) -> Layout | None:
    """The layout that scores highest among those with at least ``min_huxi`` 息 (WH-31..36), or None.

    Ties go to the most 息. Arguments as for :func:`splits`; the options are the spec's (WH-32, WH-35, WH-37,
    WH-41). The score leaves out the context 名堂 (:func:`context_score`).
    """
    counts = to_counts(hand)
    declared = _declared(groups)
    kind, src = _source(win_card, source)
    options = _options(min_huxi, xingxingxi, daxiaozihu, extra_mingtang)
    _, raw = _core.zipai_best(counts, declared, kind, int(src), options)
    return None if raw is None else _layout(raw)


def waits(hand: Cards, groups: Iterable[Declared] | str = (), *, min_huxi: int = 5, xingxingxi: str = "loose",
          daxiaozihu: bool = True, extra_mingtang: bool = False) -> list[Wait]:
    """Every card that completes a 3m+1 ``hand`` with at least ``min_huxi`` 息, self-drawn or from another player,
    with the best layout for each source (None where that source falls short of ``min_huxi``)."""
    counts = to_counts(hand)
    declared = _declared(groups)
    options = _options(min_huxi, xingxingxi, daxiaozihu, extra_mingtang)
    out = []
    for card, (_, own), (_, other) in _core.zipai_waits(counts, declared, options):
        out.append(Wait(card, None if own is None else _layout(own), None if other is None else _layout(other)))
    return out


# ------------------------------------------------------------------ batches


def best_split_batch(counts: np.ndarray, win_cards: np.ndarray | int | None = None, *, source: SourceLike = "self",
                     groups: Iterable[Declared] | str = (), min_huxi: int = 5, xingxingxi: str = "loose",
                     daxiaozihu: bool = True, extra_mingtang: bool = False, threads: int = 1) -> BatchResult:
    """The best layout of every row of held cards (``uint8[N, 20]``, C-contiguous), without the Python overhead.

    ``win_cards``: one winning card per row (an int array, -1 for none: 天胡-style, every triplet a 坎), one card
    for all rows, or None; ``source`` applies to every row that has a winning card; ``groups`` are shared by all
    rows. Releases the GIL; ``threads`` > 1 splits the rows over that many threads. A malformed row raises
    :class:`InvalidHand` naming the lowest such row.
    """
    xp = numpy()
    array = as_ndarray(counts)
    if array is None:
        raise InvalidHand(f"counts must be a numpy uint8[N, 20] array, got {type(counts).__name__}")
    if array.dtype != xp.uint8:
        raise InvalidHand(f"counts must have dtype uint8, got {array.dtype}")
    if array.ndim != 2 or array.shape[1] != NUM_KINDS:
        raise InvalidHand(f"counts must have shape (N, 20), got {array.shape}")
    if not array.flags.c_contiguous:
        raise InvalidHand("counts must be C-contiguous")
    rows = array.shape[0]
    wins = _batch_wins(win_cards, rows)
    src = _SOURCE_NAMES.get(source) if isinstance(source, str) else source
    if src not in (Source.SELF_DRAWN, Source.FROM_OTHER):
        raise InvalidHand(f"source must be 'self' or 'other' (for the rows with a winning card), got {source!r}")
    if not is_integer(threads) or not 1 <= threads <= 256:
        raise InvalidHand(f"threads must be an int in 1..256, got {threads!r}")
    options = _options(min_huxi, xingxingxi, daxiaozihu, extra_mingtang)
    xi, score, max_xi = _core.zipai_best_batch(array, _declared(groups), wins, int(src), options, int(threads))
    return BatchResult(xi, score, max_xi)


def _batch_wins(win_cards: np.ndarray | int | None, rows: int) -> np.ndarray:
    xp = numpy()
    if win_cards is None:
        out: np.ndarray = xp.full(rows, -1, dtype=xp.int8)
        return out
    if is_integer(win_cards):
        card = int(win_cards)
        if not -1 <= card < NUM_KINDS:
            raise InvalidHand(f"win_cards must be -1 or a card kind in 0..19, got {card}")
        out = xp.full(rows, card, dtype=xp.int8)
        return out
    array = as_ndarray(win_cards)
    if array is None or array.dtype.kind not in "iu" or array.shape != (rows,):
        raise InvalidHand(f"win_cards must be an int, None or an integer array of shape ({rows},)")
    if rows and (array.min() < -1 or array.max() >= NUM_KINDS):
        raise InvalidHand("win_cards must hold -1 or card kinds 0..19")
    out = xp.ascontiguousarray(array, dtype=xp.int8)
    return out


def is_win_batch(counts: np.ndarray, win_cards: np.ndarray | int | None = None, *, source: SourceLike = "self",
                 groups: Iterable[Declared] | str = (), min_huxi: int = 5, threads: int = 1) -> np.ndarray:
    """``bool[N]``: the row (with its winning card) has a layout of at least ``min_huxi`` 息 (WH-28, WH-32)."""
    result = best_split_batch(counts, win_cards, source=source, groups=groups, min_huxi=min_huxi, threads=threads)
    out: np.ndarray = result.xi >= 0
    return out


def best_xi_batch(counts: np.ndarray, win_cards: np.ndarray | int | None = None, *, source: SourceLike = "self",
                  groups: Iterable[Declared] | str = (), threads: int = 1) -> np.ndarray:
    """``int16[N]``: the most 息 of any layout of the row (-1 if it does not split), ``min_huxi`` ignored."""
    result = best_split_batch(counts, win_cards, source=source, groups=groups, min_huxi=0, threads=threads)
    out: np.ndarray = result.max_xi
    return out


# ------------------------------------------------------------------ the context 名堂


def context_score(layout: Layout, *, tianhu: bool = False, dihu: bool = False, baoting: bool = False,
                  haidilao: bool = False, shenyao: bool = False, cap: int | None = None) -> tuple[int, list[Mingtang]]:
    """The full score of a layout (WH-33) with the 名堂 that depend on how the hand was won, and the loser's
    payment under ``cap`` (WH-43) as the first element when a cap is given.

    天胡/地胡 ×4 (WH-40), 报听 ×4 (WH-38; never with 天胡/地胡, WH-36), 海底捞 ×4 (pass ``haidilao`` only when the
    option is on), 神腰 ×2 (WH-39). Returns (score, the extra 名堂).
    """
    extra: list[Mingtang] = []
    if tianhu or dihu:
        extra.append(Mingtang("tian_hu" if tianhu else "di_hu", "天胡" if tianhu else "地胡", 4))
    elif baoting:
        extra.append(Mingtang("bao_ting", "报听", 4))
    if haidilao:
        extra.append(Mingtang("hai_di_lao", "海底捞", 4))
    if shenyao:
        extra.append(Mingtang("shen_yao", "神腰", 2))
    score = layout.score
    for mingtang in extra:
        score *= mingtang.factor
    if cap is not None:
        if not is_integer(cap) or cap < 0:
            raise InvalidHand(f"cap must be None or a non-negative int, got {cap!r}")
        score = min(score, int(cap))
    return score, extra
